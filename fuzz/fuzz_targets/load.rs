//! Bytes from outside, loaded: the first byte picks a format (`serde_json` or postcard)
//! and a type (`KeyPool<u8>`, `TypedKey<u8>`, `SecondaryMap<TypedKey<u8>, u8>`), the rest is
//! the document. A document either fails to load or gives a value that is consistent
//! with itself (every key it yields names its value; forged keys near each of them name
//! nothing else), keeps working against a model as values come and go, saves and loads
//! back to the same thing, and takes memory in proportion to the document's length.
#![no_main]

use std::collections::HashMap;

use arena_kit::{KeyPool, TypedKey, SecondaryMap};
use libfuzzer_sys::fuzz_target;
use serde::Serialize;
use serde::de::DeserializeOwned;

type Key = TypedKey<u8>;

#[derive(Clone, Copy)]
enum Format {
    Json,
    Postcard,
}

impl Format {
    fn load<T: DeserializeOwned>(self, bytes: &[u8]) -> Option<T> {
        match self {
            Format::Json => serde_json::from_slice(bytes).ok(),
            Format::Postcard => postcard::from_bytes(bytes).ok(),
        }
    }

    fn save<T: Serialize>(self, value: &T) -> Vec<u8> {
        match self {
            Format::Json => serde_json::to_vec(value).expect("a loaded value saves"),
            Format::Postcard => postcard::to_allocvec(value).expect("a loaded value saves"),
        }
    }
}

/// Words near `key`: its index with its version plus 0..16 (the other low-bit patterns,
/// the vacant word of its slot after a removal, newer generations).
fn near(key: Key) -> impl Iterator<Item = Key> {
    let raw = key.to_raw();
    let version = (raw >> 32) as u32 & !3;
    (0..16).map(move |d| {
        Key::from_raw((u64::from(version.wrapping_add(d)) << 32) | (raw & 0xffff_ffff))
    })
}

/// Every key the model holds names its value, and every word near one names a value
/// only if the model has it.
fn agree(pool: &KeyPool<u8>, model: &HashMap<Key, u8>) {
    assert_eq!(pool.len(), model.len());
    assert_eq!(pool.iter().count(), model.len());
    for (&key, &value) in model {
        assert_eq!(pool.get(key), Some(&value));
        for other in near(key) {
            assert_eq!(pool.get(other).copied(), model.get(&other).copied(), "{other:?}");
        }
    }
}

fn key_pool(format: Format, doc: &[u8]) {
    let Some(mut pool) = format.load::<KeyPool<u8>>(doc) else { return };
    assert!(pool.capacity() <= doc.len(), "{} slots from {} bytes", pool.capacity(), doc.len());
    let mut model: HashMap<Key, u8> = pool.iter().map(|(k, &v)| (k, v)).collect();
    assert_eq!(model.len(), pool.len(), "every key yielded once");
    agree(&pool, &model);
    let back: KeyPool<u8> = format.load(&format.save(&pool)).expect("a save loads");
    let back_model: HashMap<Key, u8> = back.iter().map(|(k, &v)| (k, v)).collect();
    assert_eq!(back_model, model, "a round trip keeps every key and value");
    // Values come and go; the forged words near every key ever seen stay harmless.
    let mut seen: Vec<Key> = model.keys().copied().collect();
    seen.sort_unstable();
    for (i, key) in seen.clone().into_iter().enumerate() {
        if i % 2 == 0 {
            for other in near(key) {
                assert_eq!(pool.remove(other), model.remove(&other), "{other:?}");
            }
        }
        let fresh = pool.insert(i as u8);
        assert!(model.insert(fresh, i as u8).is_none(), "a fresh key names no other value");
        seen.push(fresh);
        agree(&pool, &model);
    }
    for key in seen {
        assert_eq!(pool.remove(key), model.remove(&key));
    }
    assert!(pool.is_empty() && model.is_empty());
}

fn side_table(format: Format, doc: &[u8]) {
    let Some(map) = format.load::<SecondaryMap<Key, u8>>(doc) else { return };
    assert!(map.capacity() <= doc.len(), "{} slots from {} bytes", map.capacity(), doc.len());
    let entries: Vec<(Key, u8)> = map.iter().map(|(k, &v)| (k, v)).collect();
    assert_eq!(entries.len(), map.len());
    for &(key, value) in &entries {
        assert_eq!(map.get(key), Some(&value));
        assert_eq!(Key::from_raw(key.to_raw()), key);
        for other in near(key).filter(|&k| k != key) {
            assert_eq!(map.get(other), None, "{other:?}");
        }
    }
    let back: SecondaryMap<Key, u8> = format.load(&format.save(&map)).expect("a save loads");
    assert_eq!(back.iter().map(|(k, &v)| (k, v)).collect::<Vec<_>>(), entries);
}

fn pool_key(format: Format, doc: &[u8]) {
    let Some(key) = format.load::<Key>(doc) else { return };
    assert_eq!(Key::from_raw(key.to_raw()), key, "a loaded key is a parsed key");
    assert_eq!((key.to_raw() >> 32) & 3, 1, "its version is one a pool gives");
    let mut pool = KeyPool::new();
    pool.insert(1);
    let expected = pool.keys().next().filter(|&k| k == key);
    assert_eq!(pool.get(key).is_some(), expected.is_some());
}

fuzz_target!(|input: &[u8]| {
    let Some((&selector, doc)) = input.split_first() else { return };
    let format = if selector & 1 == 0 { Format::Json } else { Format::Postcard };
    match (selector >> 1) % 3 {
        0 => key_pool(format, doc),
        1 => side_table(format, doc),
        _ => pool_key(format, doc),
    }
});
