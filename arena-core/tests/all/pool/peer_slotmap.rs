//! slotmap 1.1's tests (the `tests` modules of `basic.rs`, `secondary.rs` and `lib.rs`,
//! and the doc tests of `SlotMap` and `SecondaryMap`), re-expressed against the kit as a
//! slotmap user would expect it to behave: [`KeyPool`] is `SlotMap<K, V>` (its
//! [`TypedKey<V>`] is typed by the value, so no `new_key_type!`), [`SecondaryMap`] is
//! slotmap's, and the branded [`Pool`] where handles change the answer. Each test names
//! the slotmap test or doc test it mirrors; quickcheck properties run on proptest.
//!
//! Not ported, each for a deliberate difference:
//!
//! - `lib.rs::macro_expansion`: no `new_key_type!`; a key is typed by its pool's value
//!   type.
//! - `lib.rs::check_is_older_version`: an internal helper; its rule (an older key never
//!   overwrites a newer entry) is ported as `secondary_insert_refuses_an_older_key`.
//! - `SlotMap::get_unchecked(_mut)`, `get_disjoint_unchecked_mut`,
//!   `SecondaryMap::get_unchecked(_mut)`, `get_disjoint_unchecked_mut`: no unchecked key
//!   access; a [`Pool`] handle is the check-free name (`Pool::get`,
//!   `Pool::get_disjoint_handles_mut`).
//! - `SlotMap::detach` / `reattach`: not offered; remove and insert again (the value gets
//!   a new key).
//! - `SlotMap::try_insert_with_key`: `try_` means a failed allocation in the kit; a
//!   closure that may fail goes through `vacant_entry()` (ported as
//!   `try_insert_with_key_via_vacant_entry`).
//! - `SlotMap::try_reserve`, `SecondaryMap::capacity`, `set_capacity`,
//!   `try_set_capacity`: not offered (`KeyPool::reserve`, `SecondaryMap::with_capacity`).
//! - `SecondaryMap::entry` returning the `Entry::{Occupied, Vacant}` enum
//!   (`remove_entry`, `get`, `get_mut`, `into_mut`, `insert`, `remove` on an occupied
//!   entry; `VacantEntry::insert`): the kit's entry has the combinators only (`key`,
//!   `or_insert`, `or_insert_with`, `or_default`, `and_modify`, ported).
//! - `SlotMap::with_key`, `with_capacity_and_key`: no custom key types (see above).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::iter::FusedIterator;

use arena_kit::{GetDisjointMutError, KeyPool, Pool, SecondaryMap, TypedKey};
use proptest::prelude::*;

/// slotmap's `(K, V)` values that hold their own key: a `TypedKey` is typed by the value,
/// so the value is a named type.
#[derive(Debug, PartialEq)]
struct Named(TypedKey<Named>, i32);

#[derive(Clone)]
struct CountDrop<'a>(&'a RefCell<usize>);

impl Drop for CountDrop<'_> {
    fn drop(&mut self) {
        *self.0.borrow_mut() += 1;
    }
}

/// slotmap `basic.rs` `tests::check_drops`
#[test]
fn check_drops() {
    let n = crate::common::scaled(1000);
    let drops = RefCell::new(0_usize);
    {
        let mut clone = {
            let mut pool = KeyPool::new();
            let keys: Vec<_> = (0..n).map(|_| pool.insert(CountDrop(&drops))).collect();
            for i in (0..n).filter(|i| i % 2 == 0) {
                pool.remove(keys[i]);
            }
            assert_eq!(*drops.borrow(), n / 2);
            pool.clone()
        };
        // The original's values have all been dropped, once.
        assert_eq!(*drops.borrow(), n);
        for _ in 0..n / 4 {
            clone.insert(CountDrop(&drops));
        }
    }
    assert_eq!(*drops.borrow(), n + n / 2 + n / 4);
}

/// Swaps and mixes every pair and triple of `keys` through `get2` and `get3` (a
/// `get_disjoint_mut`), which must refuse exactly the arrays with a repeated key
/// (slotmap's `disjoint` tests, meant for Miri).
fn mix_disjoint<S, K: Copy>(
    store: &mut S,
    keys: &[K],
    get2: for<'a> fn(&'a mut S, [K; 2]) -> Result<[&'a mut usize; 2], GetDisjointMutError>,
    get3: for<'a> fn(&'a mut S, [K; 3]) -> Result<[&'a mut usize; 3], GetDisjointMutError>,
) {
    for i in 0..keys.len() {
        for j in 0..keys.len() {
            match get2(store, [keys[i], keys[j]]) {
                Ok([r0, r1]) => {
                    *r0 ^= *r1;
                    *r1 = r1.wrapping_add(*r0);
                }
                Err(e) => {
                    assert_eq!(e, GetDisjointMutError::OverlappingKeys);
                    assert_eq!(i, j);
                }
            }
        }
    }
    for i in 0..keys.len() {
        for j in 0..keys.len() {
            for k in 0..keys.len() {
                match get3(store, [keys[i], keys[j], keys[k]]) {
                    Ok([r0, r1, r2]) => {
                        *r0 ^= *r1;
                        *r0 = r0.wrapping_add(*r2);
                        *r1 ^= *r0;
                        *r1 = r1.wrapping_add(*r2);
                        *r2 ^= *r0;
                        *r2 = r2.wrapping_add(*r1);
                    }
                    Err(e) => {
                        assert_eq!(e, GetDisjointMutError::OverlappingKeys);
                        assert!(i == j || j == k || i == k);
                    }
                }
            }
        }
    }
}

/// Values for the `disjoint` tests: a few more under Miri than none, slotmap's 20
/// otherwise.
const DISJOINT_VALUES: usize = if cfg!(miri) { 8 } else { 20 };

/// slotmap `basic.rs` `tests::disjoint`
#[test]
fn disjoint() {
    let mut pool = KeyPool::new();
    for i in 0..DISJOINT_VALUES {
        pool.insert(i);
    }
    pool.retain(|_, i| *i % 2 == 0);
    let keys: Vec<_> = pool.keys().collect();
    mix_disjoint(&mut pool, &keys, KeyPool::get_disjoint_mut::<2>, KeyPool::get_disjoint_mut::<3>);
}

/// slotmap `basic.rs` `tests::disjoint`, on the branded pool (keys, then handles)
#[test]
fn disjoint_branded() {
    Pool::with(|mut pool| {
        let n = DISJOINT_VALUES;
        let handles: Vec<_> = (0..n).map(|i| pool.insert(i)).collect();
        let keys: Vec<_> = handles.iter().map(|h| pool.key(h)).collect();
        for i in 0..n {
            for j in 0..n {
                match pool.get_disjoint_handles_mut([&handles[i], &handles[j]]) {
                    Ok([r0, r1]) => {
                        *r0 ^= *r1;
                        *r1 = r1.wrapping_add(*r0);
                    }
                    Err(_) => assert_eq!(i, j),
                }
                match pool.get_disjoint_mut([keys[i], keys[j]]) {
                    Ok([r0, r1]) => *r0 = r0.wrapping_add(*r1),
                    Err(_) => assert_eq!(i, j),
                }
            }
        }
        for h in handles {
            pool.remove(h);
        }
    });
}

/// slotmap `secondary.rs` `tests::disjoint`
#[test]
fn secondary_disjoint() {
    let mut pool = KeyPool::new();
    let mut sec = SecondaryMap::new();
    for i in 0..DISJOINT_VALUES {
        pool.insert(i);
    }
    pool.retain(|_, i| *i % 2 == 0);
    for (i, k) in pool.keys().enumerate() {
        sec.insert(k, i);
    }
    let keys: Vec<_> = pool.keys().collect();
    mix_disjoint(
        &mut sec,
        &keys,
        SecondaryMap::get_disjoint_mut::<2>,
        SecondaryMap::get_disjoint_mut::<3>,
    );
}

#[derive(Debug, Clone)]
enum Op {
    Insert(u32),
    /// Remove the key at this position (modulo the keys made); 10% of the time, drain
    /// everything first (slotmap's "test clear").
    Delete(u32),
    Access(u32),
    /// Clone the store (the side table only, in the second property).
    Clone,
    /// Serialise and deserialise the pool and the side table (feature `serde`).
    SerdeRoundTrip,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        any::<u32>().prop_map(Op::Insert),
        any::<u32>().prop_map(Op::Delete),
        any::<u32>().prop_map(Op::Access),
        Just(Op::Clone),
        Just(Op::SerdeRoundTrip),
    ]
}

#[cfg(feature = "serde")]
fn serde_round_trip<T: serde::Serialize + serde::de::DeserializeOwned>(value: &T) -> T {
    serde_json::from_str(&serde_json::to_string(value).unwrap()).unwrap()
}

/// The kit's side of slotmap's two `qc_*_equiv_hashmap` properties: a pool alone, or a
/// pool with a side table that answers the lookups.
trait Store {
    fn insert(&mut self, val: u32) -> TypedKey<u32>;
    fn remove(&mut self, key: TypedKey<u32>) -> Option<u32>;
    fn contains_key(&self, key: TypedKey<u32>) -> bool;
    fn get(&self, key: TypedKey<u32>) -> Option<&u32>;
    /// Empties the store and returns its values, if this property tests that.
    fn drain(&mut self) -> Option<HashSet<u32>>;
    fn clone_in_place(&mut self);
    /// A serde round trip in place (feature `serde`; nothing otherwise).
    fn round_trip(&mut self);
    fn values(&self) -> Vec<u32>;
}

/// slotmap `basic.rs` `tests::qc_slotmap_equiv_hashmap`: the pool.
impl Store for KeyPool<u32> {
    fn insert(&mut self, val: u32) -> TypedKey<u32> {
        KeyPool::insert(self, val)
    }
    fn remove(&mut self, key: TypedKey<u32>) -> Option<u32> {
        KeyPool::remove(self, key)
    }
    fn contains_key(&self, key: TypedKey<u32>) -> bool {
        KeyPool::contains_key(self, key)
    }
    fn get(&self, key: TypedKey<u32>) -> Option<&u32> {
        KeyPool::get(self, key)
    }
    fn drain(&mut self) -> Option<HashSet<u32>> {
        Some(KeyPool::drain(self).map(|(_, v)| v).collect())
    }
    fn clone_in_place(&mut self) {
        *self = self.clone();
    }
    fn round_trip(&mut self) {
        #[cfg(feature = "serde")]
        {
            *self = serde_round_trip(self);
        }
    }
    fn values(&self) -> Vec<u32> {
        KeyPool::values(self).copied().collect()
    }
}

/// slotmap `secondary.rs` `tests::qc_secmap_equiv_hashmap`: a pool and its side table.
struct WithSide {
    pool: KeyPool<u32>,
    sec: SecondaryMap<TypedKey<u32>, u32>,
}

impl Store for WithSide {
    fn insert(&mut self, val: u32) -> TypedKey<u32> {
        let k = self.pool.insert(val);
        self.sec.insert(k, val);
        k
    }
    fn remove(&mut self, key: TypedKey<u32>) -> Option<u32> {
        self.pool.remove(key);
        self.sec.remove(key)
    }
    fn contains_key(&self, key: TypedKey<u32>) -> bool {
        self.sec.contains_key(key)
    }
    fn get(&self, key: TypedKey<u32>) -> Option<&u32> {
        self.sec.get(key)
    }
    fn drain(&mut self) -> Option<HashSet<u32>> {
        None
    }
    fn clone_in_place(&mut self) {
        self.sec = self.sec.clone();
    }
    fn round_trip(&mut self) {
        #[cfg(feature = "serde")]
        {
            self.sec = serde_round_trip(&self.sec);
        }
    }
    fn values(&self) -> Vec<u32> {
        self.sec.values().copied().collect()
    }
}

/// Runs `ops` on `store` and on a `HashMap`, which must agree throughout.
fn equiv_hashmap(mut store: impl Store, ops: &[Op]) -> Result<(), TestCaseError> {
    let mut hm = HashMap::new();
    let mut hm_keys = Vec::new();
    let mut unique_key = 0_u32;
    let mut store_keys = Vec::new();
    for op in ops {
        match *op {
            Op::Insert(val) => {
                hm.insert(unique_key, val);
                hm_keys.push(unique_key);
                unique_key += 1;
                store_keys.push(store.insert(val));
            }
            Op::Delete(val) => {
                if val % 10 == 0 {
                    if let Some(store_vals) = store.drain() {
                        let hm_vals: HashSet<_> = hm.drain().map(|(_, v)| v).collect();
                        prop_assert_eq!(hm_vals, store_vals);
                    }
                }
                if hm_keys.is_empty() {
                    continue;
                }
                let idx = val as usize % hm_keys.len();
                prop_assert_eq!(hm.remove(&hm_keys[idx]), store.remove(store_keys[idx]));
            }
            Op::Access(val) => {
                if hm_keys.is_empty() {
                    continue;
                }
                let idx = val as usize % hm_keys.len();
                let (hm_key, key) = (&hm_keys[idx], store_keys[idx]);
                prop_assert_eq!(hm.contains_key(hm_key), store.contains_key(key));
                prop_assert_eq!(hm.get(hm_key), store.get(key));
            }
            Op::Clone => store.clone_in_place(),
            Op::SerdeRoundTrip => store.round_trip(),
        }
    }
    let mut store_vals = store.values();
    let mut hm_vals: Vec<_> = hm.values().copied().collect();
    store_vals.sort_unstable();
    hm_vals.sort_unstable();
    prop_assert_eq!(store_vals, hm_vals);
    Ok(())
}

proptest! {
    #![proptest_config(crate::common::proptest_config(256))]

    /// slotmap `basic.rs` `tests::qc_slotmap_equiv_hashmap`
    #[test]
    fn qc_slotmap_equiv_hashmap(ops in prop::collection::vec(op(), 0..if cfg!(miri) { 40 } else { 200 })) {
        equiv_hashmap(KeyPool::new(), &ops)?;
    }

    /// slotmap `secondary.rs` `tests::qc_secmap_equiv_hashmap`
    #[test]
    fn qc_secmap_equiv_hashmap(ops in prop::collection::vec(op(), 0..if cfg!(miri) { 40 } else { 200 })) {
        equiv_hashmap(WithSide { pool: KeyPool::new(), sec: SecondaryMap::new() }, &ops)?;
    }
}

/// slotmap `basic.rs` `tests::slotmap_serde` (the values name keys of their own pool, as
/// raw `u64`s: a `TypedKey` is typed by the value, so a value cannot hold its own key type
/// without a named struct)
#[cfg(feature = "serde")]
#[test]
fn slotmap_serde() {
    let mut pool = KeyPool::new();
    let first = pool.insert_with_key(|k| (k.to_raw(), 23_i32));
    let second = pool.insert((first.to_raw(), 42));
    let empties = [pool.insert((first.to_raw(), 0)), pool.insert((first.to_raw(), 0))];
    for k in empties {
        pool.remove(k);
    }
    let third = pool.insert((second.to_raw(), 0));
    pool[first].0 = third.to_raw();

    let de: KeyPool<(u64, i32)> = serde_round_trip(&pool);
    assert_eq!(de.len(), pool.len());
    let mut pool_kv: Vec<_> = pool.iter().collect();
    let mut de_kv: Vec<_> = de.iter().collect();
    pool_kv.sort();
    de_kv.sort();
    assert_eq!(pool_kv, de_kv);
    assert_eq!(de[TypedKey::from_raw(de[first].0)], (second.to_raw(), 0), "links survive");
}

/// slotmap `basic.rs` `tests::slotmap_serde_freelist`
#[cfg(feature = "serde")]
#[test]
fn slotmap_serde_freelist() {
    let mut pool = KeyPool::new();
    let k = pool.insert(5_i32);
    pool.remove(k);
    let mut de: KeyPool<i32> = serde_round_trip(&pool);
    for i in 0..3 {
        de.insert(i);
    }
    assert_eq!(de.len(), 3);
    assert_eq!(de.get(k), None, "the removed key stays stale");
}

/// slotmap `lib.rs` `tests::key_serde`. The malicious key's even ("vacant") version cannot
/// name a value: a key is checked on every use, whatever its bits.
#[cfg(feature = "serde")]
#[test]
fn key_serde() {
    let mut pool = KeyPool::new();
    let k = pool.insert(42);
    let de: TypedKey<i32> = serde_round_trip(&k);
    assert_eq!(k, de);
    let malicious: TypedKey<i32> = serde_json::from_str(r#"{"index":0,"version":4}"#).unwrap();
    assert_eq!(pool.get(malicious), None);
}

/// Compiles only for iterators that walk from both ends, know their length and stay
/// done.
fn walks_both_ways<I: DoubleEndedIterator + ExactSizeIterator + FusedIterator>(_: &I) {}

/// slotmap `lib.rs` `tests::iters_cloneable`
#[test]
fn iters_cloneable() {
    struct NoClone;
    let mut pool = KeyPool::new();
    let mut sec = SecondaryMap::new();
    sec.insert(pool.insert(NoClone), NoClone);
    let _ = pool.keys().clone();
    let _ = pool.values().clone();
    let _ = pool.iter().clone();
    Pool::with(|mut branded| {
        branded.insert_keyed(NoClone);
        assert_eq!(branded.keys().clone().count(), 1);
        assert_eq!(branded.values().clone().count(), 1);
        assert_eq!(branded.iter().clone().count(), 1);
    });
    // The side table's iterators are `impl Iterator`, not `Clone` (not ported: slotmap's
    // `SecondaryMap` iterators are named `Clone` types).
    assert_eq!(sec.keys().count(), 1);

    // The pools' iterators are double-ended, exact-size and fused too (slab's are).
    walks_both_ways(&pool.iter());
    walks_both_ways(&pool.keys());
    walks_both_ways(&pool.values());
    walks_both_ways(&pool.iter_mut());
    walks_both_ways(&pool.values_mut());
    walks_both_ways(&pool.drain());
    walks_both_ways(&pool.into_iter());
}

/// slotmap `basic.rs` doc tests of `len`, `is_empty`, `capacity`, `reserve`, `contains_key`
#[test]
fn doc_len_capacity_contains() {
    let mut pool = KeyPool::with_capacity(10);
    assert_eq!(pool.capacity(), 10);
    pool.insert("len() counts actual elements, not capacity");
    let key = pool.insert("removed elements don't count either");
    assert!(!pool.is_empty() && pool.contains_key(key));
    pool.remove(key);
    assert_eq!(pool.len(), 1);
    assert!(!pool.contains_key(key));
    pool.reserve(32);
    assert!(pool.capacity() >= 33);
}

/// slotmap `basic.rs` doc tests of `insert`, `insert_with_key`, `remove`, `get`, `get_mut`
#[test]
fn doc_insert_remove_get() {
    let mut pool = KeyPool::new();
    let key = pool.insert(42);
    assert_eq!(pool[key], 42);
    assert_eq!(pool.remove(key), Some(42));
    assert_eq!(pool.remove(key), None);

    let mut pool = KeyPool::new();
    let key = pool.insert_with_key(|k| Named(k, 20));
    assert_eq!(pool[key], Named(key, 20));

    let mut pool = KeyPool::new();
    let key = pool.insert("bar");
    assert_eq!(pool.get(key), Some(&"bar"));
    pool.remove(key);
    assert_eq!(pool.get(key), None);

    let mut pool = KeyPool::new();
    let key = pool.insert(3.5);
    if let Some(x) = pool.get_mut(key) {
        *x += 3.0;
    }
    assert!((pool[key] - 6.5_f64).abs() < f64::EPSILON);
}

/// slotmap `basic.rs` doc test of `try_insert_with_key`: a closure that may fail, through a
/// vacant entry (dropped on failure, leaving the pool untouched)
#[test]
fn try_insert_with_key_via_vacant_entry() {
    fn try_insert<T, E>(
        pool: &mut KeyPool<T>,
        make: impl FnOnce(TypedKey<T>) -> Result<T, E>,
    ) -> Result<TypedKey<T>, E> {
        let entry = pool.vacant_entry();
        let value = make(entry.key())?;
        Ok(entry.insert(value))
    }
    let mut pool = KeyPool::new();
    let key = try_insert::<_, ()>(&mut pool, |k| Ok(Named(k, 20))).unwrap();
    assert_eq!(pool[key], Named(key, 20));
    try_insert::<_, ()>(&mut pool, |_| Err(())).unwrap_err();
    assert_eq!(pool.len(), 1, "untouched");
}

/// slotmap `basic.rs` doc tests of `retain`, `clear` and `drain`
#[test]
fn doc_retain_clear_drain() {
    let mut pool = KeyPool::new();
    let k1 = pool.insert(0);
    let k2 = pool.insert(1);
    let k3 = pool.insert(2);
    pool.retain(|key, val| key == k1 || *val == 1);
    assert!(pool.contains_key(k1) && pool.contains_key(k2) && !pool.contains_key(k3));
    assert_eq!(pool.len(), 2);

    let mut pool = KeyPool::new();
    for i in 0..10 {
        pool.insert(i);
    }
    assert_eq!(pool.len(), 10);
    pool.clear();
    assert_eq!(pool.len(), 0);

    let mut pool = KeyPool::new();
    let k = pool.insert(0);
    let v: Vec<_> = pool.drain().collect();
    assert_eq!(pool.len(), 0);
    assert_eq!(v, [(k, 0)]);
}

/// slotmap `basic.rs` doc test of `drain` ("if the iterator is not dropped, only the
/// elements iterated over are removed")
#[test]
fn a_leaked_drain_removes_only_what_it_yielded() {
    let mut pool = KeyPool::new();
    let keys: Vec<_> = (0..4).map(|i| pool.insert(i)).collect();
    let mut drain = pool.drain();
    assert_eq!(drain.next(), Some((keys[0], 0)));
    std::mem::forget(drain);
    assert_eq!(pool.len(), 3);
    assert_eq!(pool.get(keys[0]), None);
    assert_eq!(pool.values().copied().collect::<Vec<_>>(), [1, 2, 3]);
    let again = pool.insert(9);
    assert_eq!(again.index(), 0, "the drained slot is free again");
}

/// slotmap `basic.rs` doc test of `get_disjoint_mut`
#[test]
fn doc_get_disjoint_mut() {
    let mut pool = KeyPool::new();
    let ka = pool.insert("butter");
    let kb = pool.insert("apples");
    let kc = pool.insert("charlie");
    pool.remove(kc);
    assert_eq!(pool.get_disjoint_mut([ka, kb, kc]), Err(GetDisjointMutError::StaleKey));
    assert_eq!(pool.get_disjoint_mut([ka, ka]), Err(GetDisjointMutError::OverlappingKeys));
    let [a, b] = pool.get_disjoint_mut([ka, kb]).unwrap();
    std::mem::swap(a, b);
    assert_eq!((pool[ka], pool[kb]), ("apples", "butter"));
}

/// slotmap `basic.rs` doc tests of `iter`, `iter_mut`, `keys`, `values`, `values_mut`
#[test]
fn doc_iterators() {
    let mut pool = KeyPool::new();
    let k0 = pool.insert(10);
    let k1 = pool.insert(20);
    let k2 = pool.insert(30);
    for (k, v) in &mut pool {
        if k != k1 {
            *v *= -1;
        }
    }
    assert_eq!((pool[k0], pool[k1], pool[k2]), (-10, 20, -30));
    let keys: HashSet<_> = pool.keys().collect();
    assert_eq!(keys, HashSet::from([k0, k1, k2]));
    let values: HashSet<_> = pool.values().collect();
    assert_eq!(values, HashSet::from([&-10, &20, &-30]));
    pool.values_mut().for_each(|n| *n *= 3);
    let values: HashSet<_> = pool.into_iter().map(|(_, v)| v).collect();
    assert_eq!(values, HashSet::from([-30, 60, -90]));
}

/// slotmap `secondary.rs` doc tests of `len`, `is_empty`, `contains_key`, `insert`, `get`,
/// `get_mut`
#[test]
fn secondary_doc_basics() {
    let mut pool = KeyPool::new();
    let k = pool.insert(4);
    let mut squared = SecondaryMap::new();
    assert!(squared.is_empty() && !squared.contains_key(k));
    assert_eq!(squared.insert(k, 0), None);
    assert_eq!(squared.insert(k, 4), Some(0));
    squared[k] *= squared[k];
    assert_eq!((squared[k], squared.len()), (16, 1));

    let key = pool.insert(5);
    let mut sec = SecondaryMap::new();
    sec.insert(key, 3.5);
    if let Some(x) = sec.get_mut(key) {
        *x += 3.0;
    }
    assert!((sec[key] - 6.5_f64).abs() < f64::EPSILON);
    assert_eq!(sec.remove(key), Some(6.5));
    assert_eq!(sec.get(key), None);
}

/// slotmap `secondary.rs` doc test of `remove` (a slot's reuse does not make keys equal)
#[test]
fn secondary_doc_remove_and_slot_reuse() {
    let mut pool = KeyPool::new();
    let mut squared = SecondaryMap::new();
    let k = pool.insert(4);
    squared.insert(k, 16);
    squared.remove(k);
    assert!(!squared.contains_key(k));
    squared.insert(k, 16);
    pool.remove(k);
    let new_k = pool.insert(2);
    assert_eq!(new_k.index(), k.index(), "the slot is reused");
    assert!(!squared.contains_key(new_k), "space reuse does not mean equal keys");
    assert!(squared.contains_key(k), "the side table has not seen the new key yet");
    squared.insert(new_k, 4);
    assert!(!squared.contains_key(k), "the old key's entry is gone");
}

/// slotmap `lib.rs` `tests::check_is_older_version`, as its rule: an older key of a slot
/// never overwrites the entry of a newer one
#[test]
fn secondary_insert_refuses_an_older_key() {
    let mut pool = KeyPool::new();
    let old = pool.insert(());
    pool.remove(old);
    let new = pool.insert(());
    let mut sec = SecondaryMap::new();
    sec.insert(new, "new");
    assert_eq!(sec.insert(old, "old"), None);
    assert_eq!((sec.get(new), sec.get(old)), (Some(&"new"), None));
}

/// slotmap `secondary.rs` doc tests of `retain`, `clear`, `drain`
#[test]
fn secondary_doc_retain_clear_drain() {
    let mut pool = KeyPool::new();
    let mut sec = SecondaryMap::new();
    let k1 = pool.insert(0);
    sec.insert(k1, 10);
    let k2 = pool.insert(1);
    sec.insert(k2, 11);
    let k3 = pool.insert(2);
    sec.insert(k3, 12);
    sec.retain(|key, val| key == k1 || *val == 11);
    assert!(sec.contains_key(k1) && sec.contains_key(k2) && !sec.contains_key(k3));
    assert_eq!(sec.len(), 2);

    let mut sec = SecondaryMap::new();
    for i in 0..10 {
        sec.insert(pool.insert(i), i);
    }
    assert_eq!(sec.len(), 10);
    sec.clear();
    assert_eq!(sec.len(), 0);

    let k = pool.insert(0);
    let mut sec = SecondaryMap::new();
    sec.insert(k, 1);
    let v: Vec<_> = sec.drain().collect();
    assert_eq!((sec.len(), v), (0, vec![(k, 1)]));
}

/// slotmap `secondary.rs` doc test of `get_disjoint_mut`
#[test]
fn secondary_doc_get_disjoint_mut() {
    let mut pool = KeyPool::new();
    let mut sec = SecondaryMap::new();
    let ka = pool.insert(());
    sec.insert(ka, "butter");
    let kb = pool.insert(());
    sec.insert(kb, "apples");
    let kc = pool.insert(());
    sec.insert(kc, "charlie");
    sec.remove(kc);
    assert_eq!(sec.get_disjoint_mut([ka, kb, kc]), Err(GetDisjointMutError::StaleKey));
    assert_eq!(sec.get_disjoint_mut([ka, ka]), Err(GetDisjointMutError::OverlappingKeys));
    let [a, b] = sec.get_disjoint_mut([ka, kb]).unwrap();
    std::mem::swap(a, b);
    assert_eq!((sec[ka], sec[kb]), ("apples", "butter"));
}

/// slotmap `secondary.rs` doc tests of `iter_mut`, `keys`, `values`, `values_mut` and
/// `into_iter`
#[test]
fn secondary_doc_iterators() {
    let mut pool = KeyPool::new();
    let mut sec = SecondaryMap::new();
    let k0 = pool.insert(1);
    sec.insert(k0, 10);
    let k1 = pool.insert(2);
    sec.insert(k1, 20);
    let k2 = pool.insert(3);
    sec.insert(k2, 30);
    for (k, v) in &mut sec {
        if k != k1 {
            *v *= -1;
        }
    }
    assert_eq!((sec[k0], sec[k1], sec[k2]), (-10, 20, -30));
    assert_eq!(sec.keys().collect::<HashSet<_>>(), HashSet::from([k0, k1, k2]));
    assert_eq!(sec.values().collect::<HashSet<_>>(), HashSet::from([&-10, &20, &-30]));
    sec.values_mut().for_each(|n| *n *= 3);
    let values: HashSet<_> = sec.into_iter().map(|(_, v)| v).collect();
    assert_eq!(values, HashSet::from([-30, 60, -90]));
}

/// slotmap `secondary.rs` doc tests of `entry`, `or_insert`, `or_insert_with`, `key`,
/// `and_modify`, `or_default`
#[test]
fn secondary_doc_entry() {
    let mut pool = KeyPool::new();
    let mut sec = SecondaryMap::new();
    let k = pool.insert("poneyland");
    assert_eq!(*sec.entry(k).unwrap().or_insert(10), 10);
    *sec.entry(k).unwrap().or_insert(1) *= 2;
    assert_eq!(sec[k], 20);
    assert_eq!(sec.entry(k).unwrap().key(), k);
    sec.entry(k).unwrap().and_modify(|x| *x = 1).or_insert(0);
    assert_eq!(sec[k], 1);

    let mut names = SecondaryMap::new();
    assert_eq!(names.entry(k).unwrap().or_insert_with(|| "foobar".to_string()), "foobar");
    let mut maybe: SecondaryMap<_, Option<i32>> = SecondaryMap::new();
    maybe.entry(k).unwrap().or_default();
    assert_eq!(maybe[k], None);

    pool.remove(k);
    let newer = pool.insert("newer");
    sec.insert(newer, 5);
    assert!(sec.entry(k).is_none(), "an entry for a key older than the slot's is refused");
}
