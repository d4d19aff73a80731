// A pooled arena may be dropped or reset on another thread than the one that filled
// it, so values with destructors must be `Send`: an `Rc` is rejected.
use std::rc::Rc;

use arena_kit::ArenaPool;

fn main() {
    let pool = ArenaPool::new();
    let arena = pool.get();
    arena.alloc(Rc::new(1));
}
