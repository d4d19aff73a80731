// A vector borrows its (single-threaded) scope: it cannot move to another thread, where
// growing it would race with the scope's owner.
use arena_core::{Arena, ArenaVec};

fn main() {
    let arena = Arena::new();
    let mut v = ArenaVec::new_in(&arena);
    v.push(1_u64);
    std::thread::scope(|s| {
        s.spawn(move || v.push(2));
    });
}
