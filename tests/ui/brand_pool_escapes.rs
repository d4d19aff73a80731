// The pool itself cannot leave the closure.
use arena_kit::Pool;

fn main() {
    let pool = Pool::with(|pool: Pool<'_, u32>| pool);
    drop(pool);
}
