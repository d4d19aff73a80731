// A child scope cannot outlive its parent.
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let child;
    {
        let parent = pool.scope();
        child = parent.scope();
    }
    child.alloc(1_u8);
}
