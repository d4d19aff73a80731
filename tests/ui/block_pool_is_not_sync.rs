// The unlocked block pool cannot be shared between threads.
use arena_core::BlockPool;

fn main() {
    let pool = BlockPool::new();
    std::thread::scope(|s| {
        s.spawn(|| pool.scope().alloc(1_u8));
    });
}
