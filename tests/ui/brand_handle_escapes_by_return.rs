// A handle cannot leave the closure through its return value.
use arena_kit::Pool;

fn main() {
    let escaped = Pool::with(|mut pool| pool.insert(1_u32));
    drop(escaped);
}
