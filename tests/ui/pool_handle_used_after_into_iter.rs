// Iterating a pool by value yields the values of live handles too, so it consumes the
// pool: a handle cannot be used on it afterwards (it would name an emptied slot).
use arena_kit::Pool;

fn main() {
    Pool::with(|mut pool| {
        let h = pool.insert(String::from("owned"));
        for (_, value) in pool {
            drop(value);
        }
        println!("{}", pool[&h]);
    });
}
