// A vector whose allocator is a `ScopeView` lives in the scope's memory: it cannot leave
// the scope, and the scope cannot be reset under it.
use allocator_api2::vec::Vec;
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let escaped;
    {
        let scope = pool.scope();
        let mut v = Vec::new_in(scope.view());
        v.push(1_u32);
        escaped = v;
    }
    drop(escaped);

    let mut scope = pool.scope();
    let mut kept = Vec::new_in(scope.view());
    kept.push(2_u32);
    scope.reset();
    drop(kept);
}
