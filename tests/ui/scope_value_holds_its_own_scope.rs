// A value with a destructor cannot hold its own scope (here through an `Rc` cycle): its
// destructor could allocate in the scope while the scope tears itself down.
use std::cell::RefCell;
use std::rc::Rc;

use arena_kit::{BlockPool, Scope};

struct Back<'a, 'p>(RefCell<Option<&'a Scope<'p>>>);

impl Drop for Back<'_, '_> {
    fn drop(&mut self) {
        if let Some(scope) = *self.0.borrow() {
            scope.alloc(String::from("allocated during the scope's own drop"));
        }
    }
}

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let back = scope.alloc(Rc::new(Back(RefCell::new(None))));
    *back.0.borrow_mut() = Some(&scope);
}
