// `reset` hands the scope's memory out again: it cannot run while a view (and what it
// allocated) is alive.
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    let view = scope.view();
    let x = view.alloc(1_u64);
    scope.reset();
    println!("{x}");
}
