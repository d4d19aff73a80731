//! A side table in storage declared before its storage, so the storage would be dropped
//! first and the map's destructor would drop its entries in dead storage: the drop check
//! sees the storage's borrow in the map's type (`Fixed<'s>`) and refuses.
use arena_kit::pool::secondary::{FixedSecondaryMap, SecondaryStorage};
use arena_kit::{KeyPool, TypedKey};

fn main() {
    let mut pool = KeyPool::new();
    let key: TypedKey<()> = pool.insert(());
    let mut map;
    let mut storage = SecondaryStorage::<String, 4>::new();
    map = FixedSecondaryMap::in_storage(&mut storage);
    map.insert(key, String::from("kept"));
}
