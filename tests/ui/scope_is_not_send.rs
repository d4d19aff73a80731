// A scope cannot move to another thread: it may hold `!Send` values whose destructors
// must run where they were made, and it borrows its (unsynchronised) pool.
use std::rc::Rc;

use arena_core::BlockPool;

fn main() {
    let pool = BlockPool::new();
    std::thread::scope(|s| {
        let scope = pool.scope();
        scope.alloc(Rc::new(1));
        s.spawn(move || drop(scope));
    });
}
