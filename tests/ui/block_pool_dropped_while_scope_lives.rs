// A block pool cannot be dropped while one of its scopes lives.
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    drop(pool);
    scope.alloc(1_u8);
}
