// A parent cannot be reset while a child scope (which borrows it) is alive.
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let mut parent = pool.scope();
    let child = parent.scope();
    parent.reset();
    child.alloc(1_u8);
}
