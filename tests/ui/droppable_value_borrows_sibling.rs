// Even without a cycle, a value that will be dropped cannot hold a reference into its
// own scope (`Copy` values can: they have no destructor).
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let first = scope.alloc(String::from("first"));
    let refs = scope.alloc(vec![&*first]);
    println!("{}", refs.len());
}
