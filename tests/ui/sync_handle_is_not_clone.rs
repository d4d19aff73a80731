// A `SyncHandle` is neither `Copy` nor `Clone`: two handles to one value would allow a
// second `remove` of a slot already freed and reused.
use arena_kit::SyncPool;

fn main() {
    SyncPool::with(|pool| {
        let h = pool.insert(1_u32);
        let h2 = h.clone();
        pool.remove(h);
        pool.remove(h2);
    });
}
