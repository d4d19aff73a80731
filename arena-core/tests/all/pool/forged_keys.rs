//! Keys from outside the program: every `u64` given to `TypedKey::from_raw` (or
//! `Pool::key_from_raw`, `SyncPool::key_from_raw`) names a live value or nothing, never a
//! removed value or a vacant slot; a vacant entry's key, read and then forgotten, never
//! names a value. Run under Miri with strict provenance (`.ci/miri-borrows`): a lookup
//! that reached a vacant slot would read a moved-out value.

use std::cell::Cell;
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

use arena_kit::{GetDisjointMutError, KeyPool, Pool, SyncPool, TypedKey};
use proptest::prelude::*;

/// The version half of a raw key.
fn version_of(raw: u64) -> u32 {
    (raw >> 32) as u32
}

/// A raw key at `index` with version bits `version`.
fn raw(index: u32, version: u32) -> u64 {
    (u64::from(version) << 32) | u64::from(index)
}

/// Words an attacker derives from a key once printed: every low-bit pattern of the
/// generations around its version (the vacant word of a removed value among them), the
/// extremes, and the same at other indices.
fn forgeries(printed: u64) -> Vec<u64> {
    let (index, version) = (printed as u32, version_of(printed));
    let mut out = Vec::new();
    for generation in [-2_i64, -1, 0, 1, 2] {
        let base = (i64::from(version & !3) + generation * 4) as u32;
        for low in 0..4 {
            for at in [index, index.wrapping_add(1), index.wrapping_sub(1), u32::MAX, u32::MAX - 1]
            {
                out.push(raw(at, base.wrapping_add(low)));
            }
        }
    }
    out.extend([0, u64::MAX, u64::from(u32::MAX), u64::MAX << 32]);
    out
}

/// A `Vec<u8>` whose drop is counted, so a value taken twice shows.
struct Counted(Vec<u8>, Rc<Cell<usize>>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.1.set(self.1.get() + 1);
    }
}

#[test]
fn the_vacant_word_of_a_removed_value_is_no_key() {
    // The minimal program: it took the moved-out vector a second time.
    let mut pool: KeyPool<Vec<u8>> = KeyPool::new();
    let k = pool.insert(vec![1, 2, 3]);
    let raw = k.to_raw();
    let (index, version) = (raw as u32, (raw >> 32) as u32);
    drop(pool.remove(k));
    let forged = TypedKey::<Vec<u8>>::from_raw(
        (u64::from((version & !3).wrapping_add(4)) << 32) | u64::from(index),
    );
    assert!(pool.get(forged).is_none());
    assert!(pool.get_mut(forged).is_none());
    assert!(!pool.contains_key(forged));
    assert!(pool.remove(forged).is_none());
    assert_eq!(pool.len(), 0);
}

#[test]
fn no_forged_word_reaches_a_removed_or_vacant_slot_of_a_key_pool() {
    let drops = Rc::new(Cell::new(0));
    let mut pool = KeyPool::new();
    let mut live: HashMap<u64, u8> = HashMap::new();
    let mut printed = Vec::new();
    for i in 0..6_u8 {
        let k = pool.insert(Counted(vec![i], Rc::clone(&drops)));
        printed.push(k.to_raw());
        live.insert(k.to_raw(), i);
    }
    // Slots 1 and 3 removed (vacant, one generation on), slot 4 removed and reused.
    for &i in &[1, 3, 4] {
        drop(pool.remove(TypedKey::from_raw(printed[i])));
        live.remove(&printed[i]);
    }
    let reused = pool.insert(Counted(vec![40], Rc::clone(&drops)));
    live.insert(reused.to_raw(), 40);
    printed.push(reused.to_raw());
    assert_eq!(drops.get(), 3);

    for word in printed.iter().flat_map(|&p| forgeries(p)) {
        let key = TypedKey::<Counted>::from_raw(word);
        let expected = live.get(&word).copied();
        assert_eq!(pool.get(key).map(|v| v.0[0]), expected, "get {word:#x}");
        assert_eq!(pool.get_mut(key).map(|v| v.0[0]), expected, "get_mut {word:#x}");
        assert_eq!(pool.contains_key(key), expected.is_some(), "contains {word:#x}");
        if expected.is_none() {
            assert!(pool.remove(key).is_none(), "remove {word:#x}");
            let first_live = TypedKey::from_raw(printed[0]);
            assert_eq!(
                pool.get_disjoint_mut([first_live, key]).err(),
                Some(if key.index() == first_live.index() {
                    GetDisjointMutError::OverlappingKeys
                } else {
                    GetDisjointMutError::StaleKey
                }),
                "get_disjoint_mut {word:#x}"
            );
        }
    }
    // Indexing by the vacant word of a removed value panics (one of them: each prints).
    let vacant = TypedKey::<Counted>::from_raw(printed[1].wrapping_add(3 << 32));
    assert!(catch_unwind(AssertUnwindSafe(|| pool[vacant].0.len())).is_err());
    assert_eq!(pool.len(), live.len());
    assert_eq!(drops.get(), 3, "no value was taken or dropped by a forged key");
    drop(pool);
    assert_eq!(drops.get(), 7, "every value dropped once");
}

#[test]
fn a_word_that_no_pool_made_becomes_a_key_that_names_nothing() {
    let mut pool = KeyPool::new();
    let k = pool.insert(1_u32);
    assert_eq!(TypedKey::<u32>::from_raw(k.to_raw()), k, "a real key round-trips");
    for low in [0, 2, 3] {
        let word = raw(k.index() as u32, (version_of(k.to_raw()) & !3) | low);
        let key = TypedKey::<u32>::from_raw(word);
        assert_ne!(key.to_raw(), word, "parsed, not kept: {word:#x}");
        assert_eq!(pool.get(key), None);
        assert_eq!(key, TypedKey::from_raw(0), "every bad word is the same key");
    }
}

#[test]
fn a_forgotten_vacant_entrys_key_never_names_the_next_value() {
    // KeyPool: a new slot, then a freed one.
    let mut pool = KeyPool::new();
    for _ in 0..2 {
        let entry = pool.vacant_entry();
        let shown = entry.key();
        std::mem::forget(entry);
        let next = pool.insert("next");
        assert_ne!(next, shown);
        assert_eq!(pool.get(shown), None, "the shown key was burnt when it was claimed");
        assert!(pool.remove(shown).is_none());
        assert_eq!(pool.remove(next), Some("next"));
    }
    // Pool, both kinds of fill afterwards.
    Pool::with(|mut pool| {
        for _ in 0..2 {
            let entry = pool.vacant_entry();
            let shown = entry.key();
            std::mem::forget(entry);
            let next = pool.insert_keyed("next");
            assert_eq!(pool.get_key(shown), None);
            assert!(pool.take_handle(shown).is_none());
            let entry = pool.vacant_entry();
            let shown = entry.key();
            std::mem::forget(entry);
            let h = pool.insert("owned");
            assert_eq!(pool.get_key(shown), None);
            assert_eq!(pool.remove(h), "owned");
            assert_eq!(pool.remove_key(next), Some("next"));
        }
    });
}

#[test]
fn a_dropped_or_panicking_claim_burns_its_key_too() {
    let mut pool = KeyPool::new();
    let shown = pool.vacant_entry().key(); // the entry drops here
    let next = pool.insert(1);
    assert_eq!((pool.get(shown), pool[next]), (None, 1));
    let seen = Cell::new(None);
    let panicked = catch_unwind(AssertUnwindSafe(|| {
        pool.insert_with_key(|k| {
            seen.set(Some(k));
            panic!("make failed")
        })
    }));
    assert!(panicked.is_err());
    let burnt = seen.get().unwrap();
    let after = pool.insert(2);
    assert_ne!(after, burnt);
    assert_eq!(pool.get(burnt), None);
    assert_eq!(pool.len(), 2);
}

#[test]
fn branded_keys_round_trip_through_raw_words_and_forgeries_name_nothing() {
    Pool::with(|mut pool| {
        let keys: Vec<_> = (0..4).map(|i| pool.insert_keyed(vec![i])).collect();
        let handle = pool.insert(vec![9]);
        let owned_key = pool.key(&handle);
        pool.remove_key(keys[1]);
        for &k in &keys {
            assert_eq!(pool.key_from_raw(k.to_raw()), k);
        }
        let live: HashMap<u64, u8> = [keys[0], keys[2], keys[3], owned_key]
            .iter()
            .map(|k| (k.to_raw(), pool.get_key(*k).unwrap()[0]))
            .collect();
        let printed: Vec<_> = keys.iter().chain([&owned_key]).map(|k| k.to_raw()).collect();
        for word in printed.iter().flat_map(|&p| forgeries(p)) {
            let key = pool.key_from_raw(word);
            let expected = live.get(&word).copied();
            assert_eq!(pool.get_key(key).map(|v| v[0]), expected, "{word:#x}");
            assert_eq!(pool.contains_key(key), expected.is_some(), "{word:#x}");
            if expected.is_none() {
                assert!(pool.remove_key(key).is_none(), "{word:#x}");
                assert!(pool.take_handle(key).is_none(), "{word:#x}");
                assert!(pool.get_key_mut(key).is_none(), "{word:#x}");
            }
        }
        assert!(pool.take_handle(owned_key).is_none(), "a handle owns it");
        assert_eq!(pool.remove(handle), [9]);
        assert_eq!(pool.len(), 3);
    });
}

#[test]
fn sync_keys_round_trip_through_raw_words_and_bad_shards_name_nothing() {
    SyncPool::with(|pool| {
        let k = pool.insert_keyed(5_u32);
        let cookie = k.to_raw();
        assert_eq!(pool.key_from_raw(cookie), k);
        assert_eq!(pool.get_key(pool.key_from_raw(cookie)), Some(5));
        let shards = pool.shards() as u128;
        for bad in [
            cookie | (shards << 64),
            cookie | (u128::from(u32::MAX) << 64),
            cookie | (1 << 100),
            u128::MAX,
            cookie + (3 << 32), // the next generation's vacant word
        ] {
            let key = pool.key_from_raw(bad);
            assert_eq!(pool.get_key(key), None, "{bad:#x}");
            assert!(pool.take_handle(key).is_none(), "{bad:#x}");
            assert_eq!(pool.remove_key(key), None, "{bad:#x}");
        }
        assert_eq!(pool.remove_key(k), Some(5));
        assert_eq!(pool.get_key(pool.key_from_raw(cookie)), None);
    });
}

#[test]
fn sync_keys_of_every_shard_round_trip() {
    // Two shards; a thread inserts into the shard of its index, which each new thread
    // gets afresh (other tests' threads take some too): new threads until one lands in
    // shard 1.
    arena_kit::Brand::with(|brand| {
        let pool = SyncPool::new_in(brand, 2);
        let here = pool.insert_keyed(1_u32);
        let there = (0..256)
            .find_map(|_| {
                let k = std::thread::scope(|s| s.spawn(|| pool.insert_keyed(2)).join().unwrap());
                (k.to_raw() >> 64 == 1).then_some(k)
            })
            .expect("a thread with an odd index");
        for (key, value) in [here, there].into_iter().zip([1, 2]) {
            let back = pool.key_from_raw(key.to_raw());
            assert_eq!((back, pool.get_key(back)), (key, Some(value)));
        }
    });
}

/// A pool and a model driven by arbitrary words: inserts, removals by raw word, lookups
/// by raw word.
#[derive(Debug, Clone)]
enum Op {
    Insert(u16),
    RemoveNth(usize),
    Word(u64),
    /// A word near a key once made: its index with another version pattern.
    Near(usize, u32),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => any::<u16>().prop_map(Op::Insert),
        2 => any::<usize>().prop_map(Op::RemoveNth),
        2 => any::<u64>().prop_map(Op::Word),
        3 => (any::<usize>(), 0_u32..16).prop_map(|(n, d)| Op::Near(n, d)),
    ]
}

fn run(ops: &[Op]) -> Result<(), TestCaseError> {
    let mut pool = KeyPool::new();
    let mut model: HashMap<u64, u16> = HashMap::new();
    let mut made: Vec<u64> = Vec::new();
    let check = |pool: &mut KeyPool<u16>, model: &mut HashMap<u64, u16>, word: u64| {
        let key = TypedKey::<u16>::from_raw(word);
        let expected = model.get(&word).copied();
        prop_assert_eq!(pool.get(key).copied(), expected);
        prop_assert_eq!(pool.contains_key(key), expected.is_some());
        prop_assert_eq!(pool.remove(key), expected);
        model.remove(&word);
        prop_assert_eq!(pool.len(), model.len());
        Ok(())
    };
    for op in ops {
        match *op {
            Op::Insert(v) => {
                let k = pool.insert(v);
                prop_assert!(model.insert(k.to_raw(), v).is_none(), "a fresh key");
                made.push(k.to_raw());
            }
            Op::RemoveNth(n) if !made.is_empty() => {
                let word = made[n % made.len()];
                check(&mut pool, &mut model, word)?;
            }
            Op::Word(word) => check(&mut pool, &mut model, word)?,
            Op::Near(n, d) if !made.is_empty() => {
                let word = made[n % made.len()];
                let version = (version_of(word) & !3).wrapping_add(d);
                check(&mut pool, &mut model, raw(word as u32, version))?;
            }
            Op::RemoveNth(_) | Op::Near(..) => {}
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: if cfg!(miri) { 4 } else { 256 },
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_words_against_a_live_pool_agree_with_a_model(
        ops in proptest::collection::vec(op(), 1..if cfg!(miri) { 24 } else { 160 })
    ) {
        run(&ops)?;
    }
}
