// A string borrows its (single-threaded) scope: it cannot move to another thread, where
// growing it would race with the scope's owner.
use arena_core::{ArenaString, BlockPool};

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut s = ArenaString::from_str_in("a", &scope);
    std::thread::scope(|t| {
        t.spawn(move || s.push('b'));
    });
}
