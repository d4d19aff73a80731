// `reset` reuses the memory, so no value of the scope may be alive across it.
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    let x = scope.alloc(1_u32);
    scope.reset();
    println!("{x}");
}
