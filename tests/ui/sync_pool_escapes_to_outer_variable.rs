// A `SyncPool` cannot leave `SyncPool::with`'s closure through a variable declared outside
// it: its brand, and so its handles, would outlive the closure.
use arena_kit::SyncPool;

fn main() {
    let mut outside = None;
    SyncPool::with(|pool: SyncPool<'_, u32>| {
        outside = Some(pool);
    });
    drop(outside);
}
