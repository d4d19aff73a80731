// The brand must be one of the struct's own lifetime parameters.
use arena_kit::ArenaAlloc;

#[derive(ArenaAlloc)]
#[arena(brand = 'id)]
struct Node {
    value: u32,
}

fn main() {
    NodePool::with(|pool| assert!(pool.is_empty()));
}
