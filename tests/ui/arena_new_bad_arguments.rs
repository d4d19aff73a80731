// `arena_new!` without a type or value, with too many arguments, and the array form on a
// pool (arrays go in scopes).
use arena_kit::{arena_new, try_arena_new, BlockPool, Pool};

fn main() {
    let blocks = BlockPool::new();
    let scope = blocks.scope();
    let _ = arena_new!(scope);
    let _ = arena_new!(scope, u32, 5);
    let _ = try_arena_new!();
    Pool::<u32>::with(|mut pool| {
        let _ = arena_new!(pool, [u32; 4]);
    });
}
