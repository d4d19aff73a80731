// `Scope::reset` frees everything, so it cannot run while a vector of the scope lives.
use arena_kit::{ArenaVec, BlockPool};

fn main() {
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    let mut v = ArenaVec::new_in(&scope);
    v.push(1_u8);
    scope.reset();
    v.push(2);
}
