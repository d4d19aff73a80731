//! A key pool in storage consumed by value: the by-value iterator would own the slots
//! without the storage's borrow (it has no lifetime), so only a heap pool has one.
use arena_kit::pool::{FixedKeyPool, PoolStorage};

fn main() {
    let mut storage = PoolStorage::<String, 4>::new();
    let mut pool: FixedKeyPool<'_, String> = FixedKeyPool::in_storage(&mut storage);
    pool.insert(String::from("kept"));
    let mut values = Vec::new();
    for (_, value) in pool {
        values.push(value);
    }
    println!("{values:?}");
}
