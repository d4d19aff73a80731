// A scope cannot be shared between threads: its bump pointer is unsynchronised.
use arena_core::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    std::thread::scope(|s| {
        s.spawn(|| scope.alloc(1_u32));
        s.spawn(|| scope.alloc(2_u32));
    });
}
