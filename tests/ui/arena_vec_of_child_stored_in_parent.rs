// A child's vector cannot be stored as a value of the parent scope, which outlives the
// child's blocks.
use arena_kit::{ArenaVec, BlockPool};

fn main() {
    let pool = BlockPool::new();
    let parent = pool.scope();
    let slot = {
        let child = parent.scope();
        let mut v = ArenaVec::new_in(&child);
        v.push(1_u8);
        parent.alloc(v)
    };
    slot.push(2);
}
