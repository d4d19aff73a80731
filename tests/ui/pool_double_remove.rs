// A handle cannot be removed twice.
use arena_kit::Pool;

fn main() {
    Pool::with(|mut pool| {
        let h = pool.insert(1_u32);
        pool.remove(h);
        pool.remove(h);
    });
}
