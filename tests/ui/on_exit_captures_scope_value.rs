// An on_exit callback cannot capture a value of its scope: by the time it runs, that
// value may already have been dropped.
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let name = scope.alloc(String::from("dropped first"));
    scope.on_exit(|| println!("{name}"));
}
