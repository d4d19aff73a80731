// A `SyncRef` borrows the handle it was made from: the value cannot be removed while the
// guard lives.
use arena_kit::SyncPool;

fn main() {
    SyncPool::with(|pool| {
        let h = pool.insert(String::from("v"));
        let guard = pool.get(&h);
        pool.remove(h);
        println!("{}", *guard);
    });
}
