//! A key pool in storage kept past the storage's end: the pool's type carries the
//! storage's borrow (`Fixed<'s>`), so the borrow checker refuses.
use arena_kit::pool::{FixedKeyPool, PoolStorage};

struct Devices<'s> {
    table: FixedKeyPool<'s, u32>,
}

fn boot() -> Devices<'static> {
    let mut storage = PoolStorage::<u32, 4>::new();
    Devices { table: FixedKeyPool::in_storage(&mut storage) }
}

fn main() {
    let devices = boot();
    drop(devices.table);
}
