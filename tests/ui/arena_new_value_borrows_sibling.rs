// `arena_new!` puts values in a scope with the same `T: 'p` rule as `alloc`: a value with a
// destructor cannot borrow a sibling.
use arena_kit::{arena_new, BlockPool};

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let a = arena_new!(scope, String);
    let b = arena_new!(scope, { vec![&*a] });
    b.clear();
}
