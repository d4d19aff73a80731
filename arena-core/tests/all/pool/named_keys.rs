//! `new_key_type!` and `KeyPool<T, K>`: a pool with a named key type does everything a
//! `KeyPool<T>` does, with keys of its own type; side tables take them; forged data and a
//! hand-written `PoolKey` that lies reach nothing they should not; the macro's expansion
//! stands next to hostile names.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU32, Ordering};

use arena_kit::pool::KeyData;
use arena_kit::{KeyPool, PoolKey, SecondaryMap};

arena_kit::new_key_type! {
    /// A city.
    pub struct CityKey;
    /// A road.
    struct RoadKey;
}

const fn assert_send_sync<T: Send + Sync>() {}
const _: () = assert_send_sync::<CityKey>();
const _: () = assert_send_sync::<KeyPool<String, CityKey>>();
const _: () = assert_send_sync::<SecondaryMap<RoadKey, String>>();

#[test]
fn two_pools_of_one_value_type_keep_their_own_key_types() {
    let mut cities: KeyPool<String, CityKey> = KeyPool::with_key();
    let mut roads: KeyPool<String, RoadKey> = KeyPool::with_key();
    let york = cities.insert("York".to_owned());
    let leeds = cities.insert("Leeds".to_owned());
    let a64 = roads.insert("A64".to_owned());
    assert_eq!((cities[york].as_str(), cities[leeds].as_str()), ("York", "Leeds"));
    assert_eq!(roads[a64], "A64");
    // The same slot index in both pools, and no way to confuse them: a `RoadKey` on
    // `cities` does not type-check (tests/ui/key_pool_named_key_on_other_key_type.rs).
    assert_eq!(york.data().index(), a64.data().index());
    assert_eq!(size_of::<CityKey>(), 8);
    assert_eq!(size_of::<Option<CityKey>>(), 8);
}

#[test]
fn a_named_key_pool_has_the_whole_key_pool_api() {
    let mut pool = KeyPool::<u32, CityKey>::with_capacity_and_key(4);
    assert!(pool.capacity() >= 4);
    let keys: Vec<CityKey> = (0..10).map(|i| pool.insert(i)).collect();
    assert_eq!(pool.len(), 10);
    assert_eq!(pool.get(keys[3]), Some(&3));
    *pool.get_mut(keys[3]).unwrap() += 100;
    assert_eq!(pool.remove(keys[3]), Some(103));
    assert_eq!(pool.get(keys[3]), None, "a removed value's key is stale");
    assert!(!pool.contains_key(keys[3]));

    let entry = pool.vacant_entry();
    let promised: CityKey = entry.key();
    assert_eq!(entry.insert(7), promised);
    let made = pool.insert_with_key(|k| k.data().index() as u32);
    assert_eq!(pool[made], made.data().index() as u32);

    let [a, b] = pool.get_disjoint_mut([keys[0], keys[1]]).unwrap();
    std::mem::swap(a, b);
    assert_eq!((pool[keys[0]], pool[keys[1]]), (1, 0));
    assert!(pool.get_disjoint_mut([keys[0], keys[0]]).is_err());

    let iterated: Vec<CityKey> = pool.keys().collect();
    assert_eq!(iterated.len(), pool.len());
    assert!(iterated.iter().all(|&k| pool.contains_key(k)));
    for (k, v) in &mut pool {
        *v += k.data().index() as u32;
    }
    pool.retain(|_, v| *v % 2 == 0);
    assert!(pool.values().all(|v| v % 2 == 0));

    let mut before: Vec<u32> = pool.values().copied().collect();
    before.sort_unstable();
    let mut moved = Vec::new();
    pool.compact(|_, old: CityKey, new: CityKey| {
        moved.push((old, new));
        true
    });
    let mut after: Vec<u32> = pool.values().copied().collect();
    after.sort_unstable();
    assert_eq!(after, before, "compaction moves values, and keeps every one");
    for (_, new) in moved {
        assert!(pool.contains_key(new));
    }

    let drained: Vec<(CityKey, u32)> = pool.drain().collect();
    assert_eq!(drained.len(), before.len());
    assert!(pool.is_empty());
    let k = pool.insert(1);
    let owned: Vec<(CityKey, u32)> = pool.into_iter().collect();
    assert_eq!(owned, [(k, 1)]);
}

#[test]
fn defaults_clones_and_salts_of_named_pools() {
    let mut pool: KeyPool<&str, RoadKey> = KeyPool::default();
    let k = pool.insert("m1");
    let clone = pool.clone();
    assert_eq!(clone[k], "m1", "a clone is the same pool twice");

    let build = || {
        let mut pool = KeyPool::<&str, RoadKey>::with_key_and_salt(5);
        let a = pool.insert("a");
        pool.insert("b");
        pool.remove(a);
        pool.insert("c");
        pool.keys().collect::<Vec<_>>()
    };
    assert_eq!(build(), build(), "one salt, one history, the same keys");
}

#[test]
fn indexing_by_a_stale_named_key_panics_naming_the_key_type() {
    let mut pool = KeyPool::<u8, CityKey>::with_key();
    let k = pool.insert(1);
    pool.remove(k);
    let message = std::panic::catch_unwind(|| pool[k]).unwrap_err();
    let message = message.downcast_ref::<String>().unwrap();
    assert!(message.contains("CityKey(0v"), "{message}");
    assert!(message.contains("stale"), "{message}");
}

#[test]
fn named_keys_debug_order_hash_and_convert() {
    let mut pool = KeyPool::<char, CityKey>::with_key_and_salt(0);
    let a = pool.insert('a');
    let b = pool.insert('b');
    assert_eq!(format!("{a:?}"), "CityKey(0v0)");
    assert!(a < b, "keys order by slot");
    assert_eq!(HashSet::from([a, b, a]).len(), 2);
    assert_eq!(CityKey::from(a.data()), a);
    assert_eq!(CityKey::from_data(KeyData::from_raw(b.data().to_raw())), b);
}

#[test]
fn side_tables_take_named_keys() {
    let mut cities = KeyPool::<&str, CityKey>::with_key();
    let mut population = SecondaryMap::new();
    let york = cities.insert("York");
    let hull = cities.insert("Hull");
    population.insert(york, 200_000);
    population.insert(hull, 260_000);
    cities.remove(hull);
    population.retain(|k: CityKey, _| cities.contains_key(k));
    assert_eq!(population.iter().collect::<Vec<_>>(), [(york, &200_000)]);
}

#[test]
fn forged_key_data_reaches_no_vacant_slot() {
    let mut pool = KeyPool::<String, RoadKey>::with_key();
    let keys: Vec<RoadKey> = (0..4).map(|i| pool.insert(i.to_string())).collect();
    let live = keys[1];
    pool.remove(keys[0]);
    pool.remove(keys[2]);
    // Every version of slots 0 to 4 near the ones used, whatever its flag bits: only
    // the live values' exact keys name anything.
    for index in 0..5u64 {
        for delta in 0..16u64 {
            let version = (keys[0].data().to_raw() >> 32).wrapping_add(delta) & 0xffff_ffff;
            let forged = RoadKey::from_data(KeyData::from_raw((version << 32) | index));
            let expected = pool.keys().any(|k| k == forged);
            assert_eq!(pool.get(forged).is_some(), expected, "{forged:?}");
            assert_eq!(pool.contains_key(forged), expected);
        }
    }
    assert_eq!(pool[live], "1");
}

/// A hand-written `PoolKey` whose data changes on every call: legal (the trait is safe),
/// and it must get wrong answers at worst. Under Miri this is the proof that nothing
/// `unsafe` trusts two calls of `data` to agree.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
struct Liar(u64, u64);

static CALLS: AtomicU32 = AtomicU32::new(0);

impl PoolKey for Liar {
    fn from_data(data: KeyData) -> Self {
        Liar(data.to_raw(), data.to_raw())
    }
    fn data(self) -> KeyData {
        let n = CALLS.fetch_add(1, Ordering::Relaxed);
        KeyData::from_raw(if n % 2 == 0 { self.0 } else { self.1 })
    }
}

#[test]
fn a_lying_pool_key_gets_wrong_answers_not_aliased_borrows() {
    let mut pool = KeyPool::<String, Liar>::with_key();
    let a = pool.insert("a".to_owned());
    let b = pool.insert("b".to_owned());
    // Each liar alternates between the two slots' keys.
    let ab = Liar(a.0, b.0);
    let ba = Liar(b.0, a.0);
    for _ in 0..8 {
        if let Ok([x, y]) = pool.get_disjoint_mut([ab, ba]) {
            assert!(!std::ptr::eq(x, y), "two `&mut` to one value");
            x.push('!');
            y.push('?');
        }
    }
    let mut side = SecondaryMap::new();
    for _ in 0..8 {
        side.insert(ab, 1);
        side.insert(ba, 2);
        if let Ok([x, y]) = side.get_disjoint_mut([ab, ba]) {
            assert!(!std::ptr::eq(x, y), "two `&mut` to one entry");
            *x += 1;
            *y += 1;
        }
        side.remove(ab);
    }
    let _ = pool.remove(ab);
    let _ = pool.remove(ba);
    assert!(pool.len() <= 2);
}

/// The macro's expansion next to hostile names: no prelude, and user items named like
/// the traits and types it uses.
#[allow(dead_code, non_camel_case_types)]
mod hostile {
    #![no_implicit_prelude]

    struct Clone;
    struct Copy;
    struct Debug;
    struct Hash;
    struct Result;
    struct Option;
    struct KeyData;
    struct u32;
    mod core {}
    mod arena_kit {}

    ::arena_kit::new_key_type! {
        /// A key among hostile names.
        pub(super) struct Sneaky;
        pub(crate) struct Other;
    }
}

#[test]
fn the_expansion_stands_next_to_hostile_names() {
    let mut pool = KeyPool::<u8, hostile::Sneaky>::with_key();
    let k = pool.insert(9);
    assert_eq!(pool[k], 9);
    assert!(format!("{k:?}").starts_with("Sneaky("));
    let _: KeyPool<u8, hostile::Other> = KeyPool::with_key();
}
