// `Arena::reset` drops and reuses everything, so no value or vector of the arena may be
// alive across it.
use arena_kit::{Arena, ArenaVec};

fn main() {
    let mut arena = Arena::new();
    let x = arena.alloc(String::from("x"));
    let mut v = ArenaVec::new_in(&arena);
    v.push(1_u8);
    arena.reset();
    println!("{x} {v:?}");
}
