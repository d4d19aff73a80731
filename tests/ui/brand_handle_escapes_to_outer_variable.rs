// A handle cannot be stored in a variable that outlives the closure.
use arena_kit::{Handle, Pool};

fn main() {
    let mut outer: Option<Handle<'_>> = None;
    Pool::with(|mut pool| {
        outer = Some(pool.insert(1_u32));
    });
    drop(outer);
}
