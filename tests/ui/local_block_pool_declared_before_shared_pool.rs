// A thread's cache declared before its shared pool is dropped after it: its drop gives its
// blocks back to the shared pool, so the borrow must last until then, and this is rejected.
use arena_kit::SharedBlockPool;

fn main() {
    let cache;
    let shared = SharedBlockPool::new();
    cache = shared.local();
    cache.scope().alloc(1_u8);
}
