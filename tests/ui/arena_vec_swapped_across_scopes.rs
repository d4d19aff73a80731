// Swapping an outer scope's vector with an inner scope's one makes the outer variable hold
// the inner buffer: it may not be used after the inner scope ends.
use arena_kit::{ArenaVec, BlockPool};

fn main() {
    let pool = BlockPool::new();
    let outer = pool.scope();
    let mut a = ArenaVec::new_in(&outer);
    a.push(1_u32);
    {
        let inner = pool.scope();
        let mut b = ArenaVec::new_in(&inner);
        b.push(2_u32);
        std::mem::swap(&mut a, &mut b);
    }
    a.push(3);
}
