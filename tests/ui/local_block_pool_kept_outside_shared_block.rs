// A thread's cache kept outside the block that owns its shared pool would give its blocks
// back to a pool that is gone.
use arena_kit::SharedBlockPool;

fn main() {
    let cache;
    {
        let shared = SharedBlockPool::new();
        cache = shared.local();
        cache.scope().alloc(1_u8);
    }
}
