// A `SecondaryMap` takes the brand of the first pool whose key it sees: a key of another
// pool is a type error on it.
use arena_kit::{Pool, SecondaryMap};

fn main() {
    Pool::with(|mut a: Pool<'_, u8>| {
        Pool::with(|mut b: Pool<'_, u8>| {
            let mut map = SecondaryMap::new();
            map.insert(a.insert_keyed(1), "a");
            map.insert(b.insert_keyed(2), "b");
        });
    });
}
