// A box is `Send` only when its value is: a boxed `Rc` stays on its thread.
use std::rc::Rc;

use arena_core::{ArenaBox, BlockPool};

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let b = ArenaBox::new_in(Rc::new(1), &scope);
    std::thread::scope(|s| {
        s.spawn(move || drop(b));
    });
}
