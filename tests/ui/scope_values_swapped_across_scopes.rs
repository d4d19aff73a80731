// Swapping the contents of two values of two scopes cannot smuggle a reference into the
// inner scope out through the outer one.
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let outer = pool.scope();
    let keep: &mut &u32 = outer.alloc_copy(&0);
    {
        let inner = pool.scope();
        let x: &u32 = inner.alloc(7);
        let mut local: &u32 = x;
        std::mem::swap(keep, &mut local);
    }
    println!("{keep}");
}
