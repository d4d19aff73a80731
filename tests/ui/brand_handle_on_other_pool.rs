// A handle of pool A does not type-check on pool B, even with the same value type.
use arena_kit::Pool;

fn main() {
    Pool::with(|mut a| {
        Pool::with(|mut b| {
            let h = a.insert(1_u32);
            let _ = b.insert(2_u32);
            println!("{}", b.get(&h));
        });
    });
}
