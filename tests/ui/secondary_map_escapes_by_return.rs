// A `SecondaryMap` filled with a pool's keys carries the pool's brand: it cannot leave the
// pool's closure (where a later pool's keys could not be told apart from it anyway).
use arena_kit::{Pool, SecondaryMap};

fn main() {
    let map = Pool::with(|mut pool: Pool<'_, u8>| {
        let mut map = SecondaryMap::new();
        map.insert(pool.insert_keyed(1), 10_u32);
        map
    });
    drop(map);
}
