// A value made through a scope's `Copy` view lives as long as the scope, not longer.
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let escaped: &i32;
    {
        let scope = pool.scope();
        let view = scope.view();
        escaped = view.alloc(1);
    }
    println!("{escaped}");
}
