// A box owns its value, but the value's bytes are the scope's: the box cannot outlive it.
use arena_kit::{ArenaBox, BlockPool};

fn main() {
    let pool = BlockPool::new();
    let b = {
        let scope = pool.scope();
        ArenaBox::new_in(String::from("gone with the scope"), &scope)
    };
    println!("{b}");
}
