// A reference to a scope's value cannot outlive the scope.
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let escaped;
    {
        let scope = pool.scope();
        escaped = scope.alloc(1_u32);
    }
    println!("{escaped}");
}
