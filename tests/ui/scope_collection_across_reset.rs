// An `allocator_api2` vector in a scope borrows it, so `reset` (which reuses the memory)
// cannot run while one is alive.
use allocator_api2::vec::Vec;
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    let mut v = Vec::new_in(&scope);
    v.push(1_u8);
    scope.reset();
    v.push(2);
}
