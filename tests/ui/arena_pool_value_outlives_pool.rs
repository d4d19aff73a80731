// A pooled arena's values borrow the pool, not the guard: they outlive the guard but
// never the pool, which frees them.
use arena_kit::ArenaPool;

fn main() {
    let kept: &String;
    {
        let pool = ArenaPool::new();
        kept = pool.get().alloc(String::from("gone with the pool"));
    }
    println!("{kept}");
}
