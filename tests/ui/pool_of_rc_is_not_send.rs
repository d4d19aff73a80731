// A pool of `Rc`s cannot move to another thread.
use std::rc::Rc;

use arena_core::Pool;

fn main() {
    Pool::with(|mut pool| {
        pool.insert_keyed(Rc::new(1));
        std::thread::scope(|s| {
            s.spawn(move || drop(pool));
        });
    });
}
