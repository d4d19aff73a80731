// `ArenaPool::reset` drops and reuses every arena's values, so none may be alive across
// it, even once the guard that made it is gone.
use arena_kit::ArenaPool;

fn main() {
    let mut pool = ArenaPool::new();
    let x = pool.get().alloc(String::from("x"));
    pool.reset();
    println!("{x}");
}
