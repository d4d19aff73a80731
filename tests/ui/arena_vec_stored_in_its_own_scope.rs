// A vector cannot be moved into its own scope as a value: the scope would drop it while
// tearing itself down, after the borrow the vector holds has ended.
use arena_kit::{ArenaVec, BlockPool};

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v = ArenaVec::new_in(&scope);
    v.push(1_u64);
    let stored = scope.alloc(v);
    stored.push(2);
}
