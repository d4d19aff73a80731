// The `try_` path has the same `T: 'p` rule as `alloc`: a value with a destructor that
// borrows a sibling is rejected (a `TryAllocError` would only hand it back).
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let a = scope.alloc(String::from("a"));
    let _ = scope.try_alloc(vec![&*a]);
}
