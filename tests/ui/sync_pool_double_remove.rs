// `SyncPool::remove` consumes the handle: removing twice does not compile.
use arena_kit::SyncPool;

fn main() {
    SyncPool::with(|pool| {
        let h = pool.insert(String::from("once"));
        let a = pool.remove(h);
        let b = pool.remove(h);
        drop((a, b));
    });
}
