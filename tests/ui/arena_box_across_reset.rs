// `reset` reuses the scope's bytes: it needs `&mut Scope`, so it cannot run while a box
// (which borrows the scope) lives.
use arena_kit::{ArenaBox, Arena};

fn main() {
    let mut arena = Arena::new();
    let b = ArenaBox::new_in(vec![1, 2, 3], &arena);
    arena.reset();
    println!("{:?}", b);
}
