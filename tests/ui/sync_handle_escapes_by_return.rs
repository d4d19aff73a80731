// A `SyncHandle` cannot leave `SyncPool::with`'s closure (its brand cannot be named outside).
use arena_kit::SyncPool;

fn main() {
    let handle = SyncPool::with(|pool| pool.insert(1_u32));
    drop(handle);
}
