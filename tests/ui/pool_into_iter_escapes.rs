// A pool's by-value iterator carries the pool's brand (its keys do): it cannot leave
// the pool's closure.
use arena_kit::Pool;

fn main() {
    let values = Pool::with(|mut pool: Pool<'_, u8>| {
        pool.insert_keyed(1);
        pool.into_iter()
    });
    drop(values);
}
