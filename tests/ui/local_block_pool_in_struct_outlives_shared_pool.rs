// A struct holding a thread's cache, declared before the shared pool: the struct drops
// after the pool, and with it the cache, which gives blocks back to the pool.
use arena_kit::{block::LocalBlockPool, SharedBlockPool};

struct Worker<'s> {
    cache: LocalBlockPool<'s>,
    served: u32,
}

fn main() {
    let worker;
    let shared = SharedBlockPool::new();
    worker = Worker { cache: shared.local(), served: 0 };
    worker.cache.scope().alloc(worker.served);
}
