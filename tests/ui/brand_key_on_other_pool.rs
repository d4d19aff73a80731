// A key of pool A does not type-check on pool B either.
use arena_kit::Pool;

fn main() {
    Pool::with(|mut a| {
        Pool::with(|b: Pool<'_, u32>| {
            let k = a.insert_keyed(1_u32);
            println!("{:?}", b.get_key(k));
        });
    });
}
