// An on_exit callback cannot own a vector of its own scope: the vector borrows the scope,
// whose blocks may already be gone when the callback (and so the vector's drop) runs.
use arena_kit::{ArenaVec, BlockPool};

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v = ArenaVec::new_in(&scope);
    v.push(String::from("x"));
    scope.on_exit(move || drop(v));
}
