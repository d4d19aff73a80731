// Two boxed values whose destructors read each other: whichever drops second would read
// a dropped value, so the cycle does not compile (a box's `Drop` may use what it borrows).
use std::cell::Cell;

use arena_kit::{ArenaBox, BlockPool};

struct Node<'a> {
    name: String,
    other: Cell<Option<&'a Node<'a>>>,
}

impl Drop for Node<'_> {
    fn drop(&mut self) {
        if let Some(other) = self.other.get() {
            println!("{} sees {}", self.name, other.name);
        }
    }
}

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let a = ArenaBox::new_in(Node { name: "a".into(), other: Cell::new(None) }, &scope);
    let b = ArenaBox::new_in(Node { name: "b".into(), other: Cell::new(None) }, &scope);
    a.other.set(Some(&b));
    b.other.set(Some(&a));
}
