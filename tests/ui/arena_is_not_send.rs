// An arena cannot move to another thread: an `Rc` inside would be dropped there while
// its other handles stay here.
use std::rc::Rc;

use arena_core::Arena;

fn main() {
    let shared = Rc::new(1);
    let arena = Arena::new();
    arena.alloc(Rc::clone(&shared));
    std::thread::spawn(move || drop(arena));
}
