// A child scope cannot be stored as a value of its parent: the parent would drop it after
// the borrow it holds of the parent ended (and would run its destructors too late).
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let parent = pool.scope();
    let child = parent.alloc(parent.scope());
    child.alloc(String::from("lives in the child"));
}
