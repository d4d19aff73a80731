// Two pools of one value type with named key types: a key of one is a type error on the
// other, as in slotmap (without them, both would be `TypedKey<String>`).
use arena_kit::KeyPool;

arena_kit::new_key_type! {
    struct CityKey;
    struct RoadKey;
}

fn main() {
    let mut cities: KeyPool<String, CityKey> = KeyPool::with_key();
    let mut roads: KeyPool<String, RoadKey> = KeyPool::with_key();
    let york = cities.insert("York".to_owned());
    roads.insert("A64".to_owned());
    let _ = roads.get(york);
}
