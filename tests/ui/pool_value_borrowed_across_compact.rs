// `compact` moves values: a reference into the pool cannot be held across it.
use arena_kit::Pool;

fn main() {
    Pool::with(|mut pool| {
        let k = pool.insert_keyed(1);
        let value = &pool[k];
        pool.compact(|_, _, _| true);
        println!("{value}");
    });
}
