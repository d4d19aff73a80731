// A value whose destructor reads a sibling (here through a cycle, so whichever is dropped
// second would read freed memory) is rejected: values with destructors may only borrow
// data that outlives the scope. typed-arena rejects this too; scoped-arena accepts it.
use std::cell::Cell;

use arena_kit::BlockPool;

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
    let a = scope.alloc(Node { name: "a".into(), other: Cell::new(None) });
    let b = scope.alloc(Node { name: "b".into(), other: Cell::new(None) });
    a.other.set(Some(b));
    b.other.set(Some(a));
}
