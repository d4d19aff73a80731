// A vector of an outer scope cannot keep a reference to an inner scope's value past the
// inner scope's end (the element type, not only the buffer, is checked).
use arena_kit::{ArenaVec, BlockPool};

fn main() {
    let pool = BlockPool::new();
    let outer = pool.scope();
    let mut refs: ArenaVec<'_, &u32> = ArenaVec::new_in(&outer);
    {
        let inner = outer.scope();
        let x = inner.alloc(7_u32);
        refs.push(x);
    }
    println!("{}", refs[0]);
}
