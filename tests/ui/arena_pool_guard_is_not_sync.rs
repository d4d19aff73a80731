// A guard can move to another thread but not be shared: its arena's bump pointer is
// unsynchronised.
use arena_core::ArenaPool;

fn main() {
    let pool = ArenaPool::new();
    let arena = pool.get();
    std::thread::scope(|s| {
        s.spawn(|| arena.alloc(1_u32));
        s.spawn(|| arena.alloc(2_u32));
    });
}
