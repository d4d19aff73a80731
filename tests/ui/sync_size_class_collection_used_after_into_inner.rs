// A collection in a `SyncSizeClassPool` borrows the pool: `into_inner` cannot take the pool
// apart (gathering every thread's cache) while the collection still allocates from it.
use allocator_api2::vec::Vec;
use arena_kit::SyncSizeClassPool;

fn main() {
    let pool = SyncSizeClassPool::new();
    let mut v = Vec::new_in(&pool);
    v.push(1_u64);
    let inner = pool.into_inner();
    v.push(2);
    drop(inner);
}
