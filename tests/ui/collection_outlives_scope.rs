// A collection whose buffer lives in a scope cannot outlive the scope.
use allocator_api2::vec::Vec;
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let escaped;
    {
        let scope = pool.scope();
        let mut v = Vec::new_in(&scope);
        v.push(1_u32);
        escaped = v;
    }
    println!("{}", escaped.len());
}
