// A value whose destructor reads a sibling is rejected, as in a scope: values with
// destructors may borrow data older than the pool, never each other (whichever is
// dropped second by `reset` or the pool's drop would read a dropped value).
use std::sync::Mutex;

use arena_kit::ArenaPool;

struct Node<'a> {
    name: String,
    other: Mutex<Option<&'a Node<'a>>>,
}

impl Drop for Node<'_> {
    fn drop(&mut self) {
        if let Some(other) = *self.other.lock().unwrap() {
            println!("{} sees {}", self.name, other.name);
        }
    }
}

fn main() {
    let pool = ArenaPool::new();
    let arena = pool.get();
    let a = arena.alloc(Node { name: "a".into(), other: Mutex::new(None) });
    let b = arena.alloc(Node { name: "b".into(), other: Mutex::new(None) });
    *a.other.lock().unwrap() = Some(b);
    *b.other.lock().unwrap() = Some(a);
}
