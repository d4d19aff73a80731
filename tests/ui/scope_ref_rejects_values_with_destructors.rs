// The view allocates only `Copy` values: nothing would run a `String`'s destructor.
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let s = scope.view().alloc(String::from("leaked"));
    println!("{s}");
}
