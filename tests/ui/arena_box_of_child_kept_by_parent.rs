// A box of a child scope cannot be kept in a collection of the parent past the child.
use arena_kit::{ArenaBox, ArenaVec, BlockPool};

fn main() {
    let pool = BlockPool::new();
    let parent = pool.scope();
    let mut kept = ArenaVec::new_in(&parent);
    {
        let child = parent.scope();
        kept.push(ArenaBox::new_in(7_u32, &child));
    }
    println!("{}", kept[0]);
}
