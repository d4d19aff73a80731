//! A key pool declared before its storage, so the storage is dropped first: the pool's
//! destructor, which drops the values in the storage, would run on dead storage. The
//! drop check sees the storage's borrow in the pool's type and refuses.
use arena_kit::pool::{FixedKeyPool, PoolStorage};
fn main() {
    let mut pool;
    let mut storage = PoolStorage::<String, 4>::new();
    pool = FixedKeyPool::in_storage(&mut storage);
    pool.insert(String::from("x"));
}
