// A value cannot be used after its scope has been dropped.
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let name = scope.alloc(String::from("freed with the scope"));
    drop(scope);
    name.push('!');
}
