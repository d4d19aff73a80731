// The pool itself cannot leave the closure.
use arena_core::Pool;

fn main() {
    let pool = Pool::with(|pool: Pool<'_, u32>| pool);
    drop(pool);
}
