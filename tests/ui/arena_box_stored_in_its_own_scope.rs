// A box cannot become a value of its own scope: the scope would drop it while tearing
// itself down, after the borrow the box holds has ended.
use arena_kit::{ArenaBox, BlockPool};

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let b = ArenaBox::new_in(String::from("x"), &scope);
    let stored = scope.alloc(b);
    stored.push('!');
}
