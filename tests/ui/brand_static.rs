// No pool has a `'static` or caller-chosen brand: the closure must take any brand.
use arena_kit::Pool;

fn main() {
    Pool::with(|pool: Pool<'static, u32>| drop(pool));
}
