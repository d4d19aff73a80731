// The references `get_disjoint_handles_mut` lends borrow the pool: `clear` cannot run
// while they live.
use arena_kit::Pool;

fn main() {
    Pool::with(|mut pool| {
        let (a, b) = (pool.insert(1), pool.insert(2));
        let [x, y] = pool.get_disjoint_handles_mut([&a, &b]).unwrap();
        pool.clear();
        *x += *y;
    });
}
