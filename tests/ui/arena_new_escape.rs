// A value `arena_new!` puts in a scope cannot outlive the scope, and a handle it makes
// in a pool cannot leave the pool's closure.
use arena_kit::{arena_new, BlockPool, Pool};

fn main() {
    let blocks = BlockPool::new();
    let escaped = {
        let scope = blocks.scope();
        arena_new!(scope, String)
    };
    escaped.push('x');

    let handle = Pool::with(|mut pool| arena_new!(pool, 5_u32));
    drop(handle);
}
