//! slab 0.4's test suite (`tests/slab.rs`, `tests/serde.rs`), re-expressed against the
//! kit as a slab user would expect it to behave: [`KeyPool`] is the storable `Slab`, and
//! the branded [`Pool`] where handles change the answer. Each test names the slab test it
//! mirrors; slab's `usize` keys become [`TypedKey`]s, whose `index()` is slab's key.
//!
//! Not ported, each for a deliberate difference:
//!
//! - `double_remove_panics`, `invalid_remove_panics`: a stale key gives `None` instead of
//!   a panic (ported as `double_remove_is_none` and `invalid_remove_is_none`); on a `Pool`
//!   a second `remove(handle)` does not compile (`tests/ui/pool_double_remove.rs`).
//! - `key_of_tagged`, `key_of_layout_optimizable`, `key_of_zst`: no `key_of(&value)`; a
//!   value is named by the key it was inserted under, never by its address.
//! - `reserve_exact_does_not_allocate_if_available`,
//!   `reserve_exact_does_panic_with_capacity_overflow`: no `reserve_exact`; `reserve`
//!   counts vacant slots the same way (ported).
//! - `from_iterator_sorted`, `from_iterator_new_in_order`, `from_iterator_unordered`,
//!   `from_iterator_issue_100`: no `FromIterator<(usize, T)>`: a key carries a version
//!   the pool makes, so the caller cannot choose keys.
//! - `test_serde_empty`, `test_serde` (token streams): a `KeyPool` serialises its salt
//!   and generations too, so its tokens are not slab's map; the round trips are ported.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::{LazyLock, Mutex};

use arena_kit::{GetDisjointMutError, KeyPool, Pool, TypedKey};

use crate::common::Counted;

/// Slab's keys are slot indices: the indices of `pool`'s keys, in slot order, with the
/// values.
fn indexed<T: Copy>(pool: &KeyPool<T>) -> Vec<(usize, T)> {
    pool.iter().map(|(k, v)| (k.index(), *v)).collect()
}

/// slab `tests/slab.rs::insert_get_remove_one`
#[test]
fn insert_get_remove_one() {
    let mut pool = KeyPool::new();
    assert!(pool.is_empty());
    let key = pool.insert(10);
    assert_eq!(pool[key], 10);
    assert_eq!(pool.get(key), Some(&10));
    assert!(!pool.is_empty());
    assert!(pool.contains_key(key));
    assert_eq!(pool.remove(key), Some(10));
    assert!(!pool.contains_key(key));
    assert!(pool.get(key).is_none());
}

/// slab `tests/slab.rs::insert_get_remove_one`, on the branded pool (handle and key)
#[test]
fn insert_get_remove_one_branded() {
    Pool::with(|mut pool| {
        assert!(pool.is_empty());
        let handle = pool.insert(10);
        let key = pool.key(&handle);
        assert_eq!((pool[&handle], pool[key]), (10, 10));
        assert!(pool.contains_key(key));
        assert_eq!(pool.remove(handle), 10);
        assert!(!pool.contains_key(key) && pool.get_key(key).is_none());
    });
}

/// slab `tests/slab.rs::insert_get_many`
#[test]
fn insert_get_many() {
    let mut pool = KeyPool::with_capacity(10);
    for i in 0..10 {
        let key = pool.insert(i + 10);
        assert_eq!(pool[key], i + 10);
    }
    assert_eq!(pool.capacity(), 10);
    let key = pool.insert(20);
    assert_eq!(pool[key], 20);
    assert_eq!(pool.capacity(), 20, "capacity grows by 2x, as a Vec's");
}

/// slab `tests/slab.rs::insert_get_remove_many`
#[test]
fn insert_get_remove_many() {
    let mut pool = KeyPool::with_capacity(10);
    let mut keys = vec![];
    for i in 0..10 {
        for j in 0..10 {
            let val = (i * 10) + j;
            let key = pool.insert(val);
            keys.push((key, val));
            assert_eq!(pool[key], val);
        }
        for (key, val) in keys.drain(..) {
            assert_eq!(pool.remove(key), Some(val));
        }
    }
    assert_eq!(pool.capacity(), 10);
}

/// slab `tests/slab.rs::insert_with_vacant_entry`
#[test]
fn insert_with_vacant_entry() {
    let mut pool = KeyPool::with_capacity(1);
    let key;
    {
        let entry = pool.vacant_entry();
        key = entry.key();
        entry.insert(123);
    }
    assert_eq!(pool[key], 123);
}

/// slab `tests/slab.rs::get_vacant_entry_without_using`. Difference: an entry dropped
/// unused burns its key (the key it showed never names a value), so the next entry has
/// the same slot but another key.
#[test]
fn get_vacant_entry_without_using() {
    let mut pool = KeyPool::<usize>::with_capacity(1);
    let unused = pool.vacant_entry().key();
    let next = pool.vacant_entry();
    assert_eq!(next.key().index(), unused.index(), "the same slot");
    assert_ne!(next.key(), unused, "under a new version");
    next.insert(1);
    assert_eq!(pool.get(unused), None, "the burnt key names no value");
}

/// slab `tests/slab.rs::invalid_get_panics`
#[test]
#[should_panic(expected = "is stale")]
fn invalid_get_panics() {
    let pool = KeyPool::<usize>::with_capacity(1);
    let _ = &pool[TypedKey::from_raw(0)];
}

/// slab `tests/slab.rs::invalid_get_mut_panics`
#[test]
#[should_panic(expected = "is stale")]
fn invalid_get_mut_panics() {
    let mut pool = KeyPool::<usize>::new();
    let _ = &mut pool[TypedKey::from_raw(0)];
}

/// slab `tests/slab.rs::double_remove_panics` (difference: `None`, not a panic)
#[test]
fn double_remove_is_none() {
    let mut pool = KeyPool::<usize>::with_capacity(1);
    let key = pool.insert(123);
    assert_eq!(pool.remove(key), Some(123));
    assert_eq!(pool.remove(key), None);
}

/// slab `tests/slab.rs::invalid_remove_panics` (difference: `None`, not a panic)
#[test]
fn invalid_remove_is_none() {
    let mut pool = KeyPool::<usize>::with_capacity(1);
    assert_eq!(pool.remove(TypedKey::from_raw(0)), None);
}

/// slab `tests/slab.rs::slab_get_mut`
#[test]
fn get_mut() {
    let mut pool = KeyPool::new();
    let key = pool.insert(1);
    pool[key] = 2;
    assert_eq!(pool[key], 2);
    *pool.get_mut(key).unwrap() = 3;
    assert_eq!(pool[key], 3);
}

/// slab `tests/slab.rs::reserve_does_not_allocate_if_available`
#[test]
fn reserve_does_not_allocate_if_available() {
    let mut pool = KeyPool::with_capacity(10);
    let keys: Vec<_> = (0..6).map(|i| pool.insert(i)).collect();
    for &key in &keys[..4] {
        pool.remove(key);
    }
    assert_eq!(pool.capacity() - pool.len(), 8);
    pool.reserve(8);
    assert_eq!(pool.capacity(), 10);
}

/// slab `tests/slab.rs::reserve_does_panic_with_capacity_overflow`
#[test]
#[should_panic(expected = "capacity overflow")]
fn reserve_does_panic_with_capacity_overflow() {
    let mut pool = KeyPool::with_capacity(10);
    pool.insert(true);
    pool.reserve(isize::MAX as usize);
}

/// slab `tests/slab.rs::reserve_does_panic_with_capacity_overflow_bytes`
#[test]
#[should_panic(expected = "capacity overflow")]
fn reserve_does_panic_with_capacity_overflow_bytes() {
    let mut pool = KeyPool::with_capacity(10);
    pool.insert(1_u16);
    pool.reserve((isize::MAX as usize) / 2);
}

/// slab `tests/slab.rs::retain`
#[test]
fn retain() {
    let mut pool = KeyPool::with_capacity(2);
    let key1 = pool.insert(0);
    let key2 = pool.insert(1);
    pool.retain(|key, x| {
        assert_eq!(key.index(), *x);
        *x % 2 == 0
    });
    assert_eq!(pool.len(), 1);
    assert_eq!(pool[key1], 0);
    assert!(!pool.contains_key(key2));
    // The pool stays consistent: the freed slot is reused.
    let key = pool.insert(123);
    assert_eq!(key.index(), key2.index());
    assert_eq!((pool.len(), pool.capacity()), (2, 2));
    let key = pool.insert(345);
    assert_eq!(key.index(), 2);
    assert_eq!(pool.capacity(), 4);
}

/// slab `tests/slab.rs::retain`, on the branded pool: owned values are not visited
#[test]
fn retain_branded_skips_owned_values() {
    Pool::with(|mut pool| {
        let owned = pool.insert(1);
        let even = pool.insert_keyed(2);
        let odd = pool.insert_keyed(3);
        let mut seen = vec![];
        pool.retain(|_, x| {
            seen.push(*x);
            *x % 2 == 0
        });
        assert_eq!(seen, [2, 3], "the owned value is not offered");
        assert_eq!((pool[&owned], pool[even], pool.get_key(odd)), (1, 2, None));
    });
}

/// slab `tests/slab.rs::into_iter`
#[test]
fn into_iter() {
    let mut pool = KeyPool::new();
    let keys: Vec<_> = (0..8).map(|i| pool.insert(i)).collect();
    for i in [0, 4, 5, 7] {
        pool.remove(keys[i]);
    }
    let vals: Vec<_> = pool
        .into_iter()
        .inspect(|&(key, val)| assert_eq!(key.index(), val))
        .map(|(_, val)| val)
        .collect();
    assert_eq!(vals, [1, 2, 3, 6]);
}

/// slab `tests/slab.rs::into_iter`, on the branded pool: values owned by handles come too
#[test]
fn into_iter_branded_yields_owned_values() {
    Pool::with(|mut pool| {
        let _owned = pool.insert(0);
        pool.insert_keyed(1);
        let vals: Vec<_> = pool.into_iter().map(|(key, val)| (key.index(), val)).collect();
        assert_eq!(vals, [(0, 0), (1, 1)]);
    });
}

/// slab `tests/slab.rs::into_iter_rev`
#[test]
fn into_iter_rev() {
    let mut pool = KeyPool::new();
    for i in 0..4 {
        pool.insert(i);
    }
    let mut iter = pool.into_iter().map(|(k, v)| (k.index(), v));
    assert_eq!(iter.next_back(), Some((3, 3)));
    assert_eq!(iter.next_back(), Some((2, 2)));
    assert_eq!(iter.next(), Some((0, 0)));
    assert_eq!(iter.next_back(), Some((1, 1)));
    assert_eq!(iter.next_back(), None);
    assert_eq!(iter.next(), None);
}

/// slab `tests/slab.rs::iter`
#[test]
fn iter() {
    let mut pool = KeyPool::new();
    let keys: Vec<_> = (0..4).map(|i| pool.insert(i)).collect();
    let vals: Vec<_> = pool
        .iter()
        .enumerate()
        .map(|(i, (key, val))| {
            assert_eq!(i, key.index());
            *val
        })
        .collect();
    assert_eq!(vals, [0, 1, 2, 3]);
    pool.remove(keys[1]);
    let vals: Vec<_> = pool.iter().map(|(_, r)| *r).collect();
    assert_eq!(vals, [0, 2, 3]);
}

/// slab `tests/slab.rs::iter_rev`
#[test]
fn iter_rev() {
    let mut pool = KeyPool::new();
    let first = pool.insert(0);
    for i in 1..4 {
        pool.insert(i);
    }
    pool.remove(first);
    let vals: Vec<_> = pool.iter().rev().map(|(k, v)| (k.index(), v)).collect();
    assert_eq!(vals, [(3, &3), (2, &2), (1, &1)]);
}

/// slab `tests/slab.rs::iter_mut`
#[test]
fn iter_mut() {
    let mut pool = KeyPool::new();
    let keys: Vec<_> = (0..4).map(|i| pool.insert(i)).collect();
    for (i, (key, e)) in pool.iter_mut().enumerate() {
        assert_eq!(i, key.index());
        *e += 1;
    }
    let vals: Vec<_> = pool.values().copied().collect();
    assert_eq!(vals, [1, 2, 3, 4]);
    pool.remove(keys[2]);
    for (_, e) in &mut pool {
        *e += 1;
    }
    let vals: Vec<_> = pool.values().copied().collect();
    assert_eq!(vals, [2, 3, 5]);
}

/// slab `tests/slab.rs::iter_mut_rev`
#[test]
fn iter_mut_rev() {
    let mut pool = KeyPool::new();
    let keys: Vec<_> = (0..4).map(|i| pool.insert(i)).collect();
    pool.remove(keys[2]);
    {
        let mut iter = pool.iter_mut();
        assert_eq!(iter.next(), Some((keys[0], &mut 0)));
        let mut prev_key = usize::MAX;
        for (key, e) in iter.rev() {
            *e += 10;
            assert!(prev_key > key.index());
            prev_key = key.index();
        }
    }
    assert_eq!(pool[keys[0]], 0);
    assert_eq!(pool[keys[1]], 11);
    assert_eq!(pool[keys[3]], 13);
    assert!(!pool.contains_key(keys[2]));
}

/// slab `tests/slab.rs::clear`
#[test]
fn clear() {
    let mut pool = KeyPool::new();
    for i in 0..4 {
        pool.insert(i);
    }
    pool.clear();
    assert!(pool.is_empty());
    assert_eq!((pool.len(), pool.capacity()), (0, 4));
    for i in 0..2 {
        pool.insert(i);
    }
    let vals: Vec<_> = pool.values().copied().collect();
    assert_eq!(vals, [0, 1]);
    pool.clear();
    assert!(pool.is_empty());
}

/// slab `tests/slab.rs::clear`, on the branded pool: values owned by live handles stay
#[test]
fn clear_branded_keeps_owned_values() {
    Pool::with(|mut pool| {
        let keyed: Vec<_> = (0..4).map(|i| pool.insert_keyed(i)).collect();
        let owned = pool.insert(99);
        pool.clear();
        assert_eq!(pool.len(), 1);
        assert!(keyed.iter().all(|&k| pool.get_key(k).is_none()));
        assert_eq!(pool[&owned], 99, "the handle still names its value");
        assert_eq!(pool.remove(owned), 99);
        assert!(pool.is_empty());
    });
}

/// slab `tests/slab.rs::shrink_to_fit_empty`
#[test]
fn shrink_to_fit_empty() {
    let mut pool = KeyPool::<bool>::with_capacity(20);
    pool.shrink_to_fit();
    assert_eq!(pool.capacity(), 0);
}

/// slab `tests/slab.rs::shrink_to_fit_no_vacant`
#[test]
fn shrink_to_fit_no_vacant() {
    let mut pool = KeyPool::with_capacity(20);
    pool.insert(String::new());
    pool.shrink_to_fit();
    assert!(pool.capacity() < 10);
}

/// slab `tests/slab.rs::shrink_to_fit_doesnt_move`
#[test]
fn shrink_to_fit_doesnt_move() {
    let mut pool = KeyPool::with_capacity(8);
    let foo = pool.insert("foo");
    let bar = pool.insert("bar");
    let baz = pool.insert("baz");
    let quux = pool.insert("quux");
    pool.remove(quux);
    pool.remove(bar);
    pool.shrink_to_fit();
    assert_eq!(pool.len(), 2);
    assert!(pool.capacity() >= 3);
    assert_eq!((pool.get(foo), pool.get(baz)), (Some(&"foo"), Some(&"baz")));
    assert_eq!((foo.index(), baz.index()), (0, 2));
    assert_eq!(pool.vacant_entry().key().index(), bar.index());
}

/// slab `tests/slab.rs::shrink_to_fit_doesnt_recreate_list_when_nothing_can_be_done`
#[test]
fn shrink_to_fit_doesnt_recreate_list_when_nothing_can_be_done() {
    let mut pool = KeyPool::with_capacity(16);
    let keys: Vec<_> = (0..4).map(|i| pool.insert(Box::new(i))).collect();
    for i in [0, 2, 1] {
        pool.remove(keys[i]);
    }
    assert_eq!(pool.vacant_entry().key().index(), 1);
    pool.shrink_to_fit();
    assert_eq!(pool.len(), 1);
    assert!(pool.capacity() >= 4);
    assert_eq!(pool.vacant_entry().key().index(), 1);
}

/// slab `tests/slab.rs::compact_empty`
#[test]
fn compact_empty() {
    let mut pool = KeyPool::new();
    pool.compact(|_, _, _| panic!("nothing to move"));
    assert_eq!((pool.len(), pool.capacity()), (0, 0));
    pool.reserve(20);
    pool.compact(|_, _, _| panic!("nothing to move"));
    assert_eq!((pool.len(), pool.capacity()), (0, 0));
    let keys: Vec<_> = (0..3).map(|i| pool.insert(i)).collect();
    for i in [1, 2, 0] {
        pool.remove(keys[i]);
    }
    pool.compact(|_, _, _| panic!("nothing to move"));
    assert_eq!((pool.len(), pool.capacity()), (0, 0));
}

/// slab `tests/slab.rs::compact_no_moves_needed`
#[test]
fn compact_no_moves_needed() {
    let mut pool = KeyPool::new();
    let keys: Vec<_> = (0..10).map(|i| pool.insert(i)).collect();
    for i in [8, 9, 6, 7] {
        pool.remove(keys[i]);
    }
    pool.compact(|_, _, _| panic!("nothing to move"));
    assert_eq!(pool.len(), 6);
    for ((index, value), want) in indexed(&pool).into_iter().zip(0..6) {
        assert_eq!(index, value);
        assert_eq!(index, want);
    }
    assert!(pool.capacity() >= 6 && pool.capacity() < 10);
    assert!(keys[..6].iter().all(|&k| pool.contains_key(k)), "unmoved keys stay valid");
}

/// slab `tests/slab.rs::compact_moves_successfully`
#[test]
fn compact_moves_successfully() {
    let mut pool = KeyPool::with_capacity(20);
    let keys: Vec<_> = (0..10).map(|i| pool.insert(i)).collect();
    for i in [0, 5, 9, 6, 3] {
        pool.remove(keys[i]);
    }
    let mut moved = vec![];
    pool.compact(|&mut v, from, to| {
        assert!(from.index() > to.index());
        assert!(from.index() >= 5);
        assert!(to.index() < 5);
        assert_eq!(from.index(), v);
        assert_eq!(from, keys[v], "the old key is the value's key");
        moved.push((v, to));
        true
    });
    assert_eq!(pool.len(), 5);
    assert_eq!(moved.len(), 2);
    assert_eq!(pool.vacant_entry().key().index(), 5);
    assert!(pool.capacity() >= 5 && pool.capacity() < 20);
    assert_eq!(indexed(&pool), [(0, 8), (1, 1), (2, 2), (3, 7), (4, 4)]);
    for (v, to) in moved {
        assert_eq!(pool[to], v, "the new key names the moved value");
        assert_eq!(pool.get(keys[v]), None, "the old key is stale");
    }
}

/// slab `tests/slab.rs::compact_doesnt_move_if_closure_errors`
#[test]
fn compact_doesnt_move_if_closure_errors() {
    let mut pool = KeyPool::with_capacity(20);
    let keys: Vec<_> = (0..10).map(|i| pool.insert(i)).collect();
    for i in [9, 3, 1, 4, 0] {
        pool.remove(keys[i]);
    }
    pool.compact(|&mut v, from, to| {
        assert!(from.index() > to.index());
        assert_eq!(from.index(), v);
        v != 6
    });
    assert_eq!(pool.len(), 5);
    assert!(pool.capacity() >= 7 && pool.capacity() < 20);
    assert_eq!(pool.vacant_entry().key().index(), 3);
    assert_eq!(indexed(&pool), [(0, 8), (1, 7), (2, 2), (5, 5), (6, 6)]);
    assert_eq!(pool[keys[6]], 6, "the refused value keeps its key");
}

/// slab `tests/slab.rs::compact_handles_closure_panic`. Difference: slab drops the value it
/// was moving; here it stays where it was, under its key.
#[test]
fn compact_handles_closure_panic() {
    let mut pool = KeyPool::new();
    let keys: Vec<_> = (0..10).map(|i| pool.insert(i)).collect();
    for &key in &keys[1..6] {
        pool.remove(key);
    }
    let result = catch_unwind(AssertUnwindSafe(|| {
        pool.compact(|&mut v, from, to| {
            assert!(from.index() > to.index());
            assert_eq!(from.index(), v);
            assert!(v != 7, "test");
            true
        });
    }));
    match result {
        Err(payload) if payload.downcast_ref::<&str>() == Some(&"test") => {}
        Err(bug) => resume_unwind(bug),
        Ok(()) => unreachable!("the closure panics at 7"),
    }
    assert_eq!(pool.len(), 5);
    assert_eq!(pool.vacant_entry().key().index(), 3);
    assert_eq!(indexed(&pool), [(0, 0), (1, 9), (2, 8), (6, 6), (7, 7)]);
    assert_eq!(pool[keys[7]], 7);
}

/// slab `tests/slab.rs::compact_moves_successfully`, on the branded pool: owned values
/// stay put and their handles stay valid; keyed values flow around them
#[test]
fn compact_branded_moves_only_keyed_values() {
    Pool::with(|mut pool| {
        let mut keyed = vec![];
        let mut owned = vec![];
        for i in 0..10 {
            if i % 3 == 2 {
                owned.push(pool.insert(i));
            } else {
                keyed.push(pool.insert_keyed(i));
            }
        }
        // Slots 2, 5 and 8 are owned; free 0, 1, 3 and 4.
        for &k in &keyed[..4] {
            pool.remove_key(k);
        }
        let mut moves = vec![];
        pool.compact(|&mut v, from, to| {
            assert_eq!(from.index(), v);
            moves.push((from.index(), to.index()));
            true
        });
        assert_eq!(moves, [(9, 0), (7, 1), (6, 3)]);
        let slots: Vec<_> = pool.iter().map(|(k, v)| (k.index(), *v)).collect();
        assert_eq!(slots, [(0, 9), (1, 7), (2, 2), (3, 6), (5, 5), (8, 8)]);
        for h in owned {
            assert_eq!(h.index(), pool.remove(h), "handles name their own values");
        }
    });
}

/// slab `tests/slab.rs::fully_consumed_drain`
#[test]
fn fully_consumed_drain() {
    let mut pool = KeyPool::new();
    for i in 0..3 {
        pool.insert(i);
    }
    {
        let mut drain = pool.drain().map(|(_, v)| v);
        assert_eq!(drain.next(), Some(0));
        assert_eq!(drain.next(), Some(1));
        assert_eq!(drain.next(), Some(2));
        assert_eq!(drain.next(), None);
    }
    assert!(pool.is_empty());
}

/// slab `tests/slab.rs::partially_consumed_drain`
#[test]
fn partially_consumed_drain() {
    let drops = Cell::new(0);
    let mut pool = KeyPool::new();
    for i in 0..3 {
        pool.insert(Counted::new(i, &drops));
    }
    {
        let mut drain = pool.drain();
        assert_eq!(drain.next().map(|(_, v)| v.id), Some(0));
    }
    assert!(pool.is_empty());
    assert_eq!(drops.get(), 3, "the values not reached are dropped with the drain");
}

/// slab `tests/slab.rs::fully_consumed_drain`, on the branded pool: `drain_keyed` leaves the
/// owned values and the pool
#[test]
fn drain_keyed_branded() {
    Pool::with(|mut pool| {
        let owned = pool.insert(100);
        for i in 0..3 {
            pool.insert_keyed(i);
        }
        let drained: Vec<_> = pool.drain_keyed().map(|(_, v)| v).collect();
        assert_eq!(drained, [0, 1, 2]);
        assert_eq!((pool.len(), pool[&owned]), (1, 100));
        let k = pool.insert_keyed(7);
        assert_eq!(k.index(), 1, "the drained slots are reused from the lowest");
    });
}

/// slab `tests/slab.rs::drain_rev`
#[test]
fn drain_rev() {
    let mut pool = KeyPool::new();
    let keys: Vec<_> = (0..10_u64).map(|i| pool.insert(i)).collect();
    pool.remove(keys[9]);
    let vals: Vec<u64> = pool.drain().rev().map(|(_, v)| v).collect();
    assert_eq!(vals, (0..9).rev().collect::<Vec<u64>>());
}

/// slab `tests/slab.rs::try_remove`
#[test]
fn try_remove() {
    let mut pool = KeyPool::new();
    let key = pool.insert(1);
    assert_eq!(pool.remove(key), Some(1));
    assert_eq!(pool.remove(key), None);
    assert_eq!(pool.get(key), None);
}

/// slab `tests/slab.rs::const_new`. Difference: a `KeyPool` draws its salt at run time, so
/// a `static` one is made lazily.
#[test]
fn static_pool() {
    static POOL: LazyLock<Mutex<KeyPool<&str>>> = LazyLock::new(|| Mutex::new(KeyPool::new()));
    let key = POOL.lock().unwrap().insert("global");
    assert_eq!(POOL.lock().unwrap()[key], "global");
}

/// slab `tests/slab.rs::clone_from`
#[test]
fn clone_from() {
    let mut pool1 = KeyPool::new();
    let mut pool2 = KeyPool::new();
    let mut keys1 = vec![];
    for i in 0..5 {
        keys1.push(pool1.insert(i));
        pool2.insert(2 * i);
        pool2.insert(2 * i + 1);
    }
    pool1.remove(keys1[1]);
    pool1.remove(keys1[3]);
    pool2.clone_from(&pool1);
    assert_eq!(indexed(&pool2), [(0, 0), (2, 2), (4, 4)]);
    assert!(pool2.capacity() >= 10, "the buffer is reused");
    assert_eq!(pool2[keys1[4]], 4, "the source's keys name the copies");
    assert_eq!(pool2.get(keys1[1]), None);
}

/// slab `tests/slab.rs::get_disjoint_mut`
#[test]
fn get_disjoint_mut() {
    let mut pool = KeyPool::new();
    let keys: Vec<_> = (0..5).map(|i| pool.insert(i)).collect();
    pool.remove(keys[1]);
    pool.remove(keys[3]);
    let beyond = TypedKey::from_raw(5);
    let far = TypedKey::from_raw(42);

    assert_eq!(pool.get_disjoint_mut([]), Ok([]));
    assert_eq!(pool.get_disjoint_mut([keys[4], keys[2], keys[0]]).unwrap().map(|x| *x), [4, 2, 0]);
    assert_eq!(
        pool.get_disjoint_mut([far, keys[2], keys[1], keys[2]]),
        Err(GetDisjointMutError::OverlappingKeys)
    );
    assert_eq!(pool.get_disjoint_mut([keys[1], beyond]), Err(GetDisjointMutError::StaleKey));
    assert_eq!(pool.get_disjoint_mut([beyond, keys[1]]), Err(GetDisjointMutError::StaleKey));
    let [a, b] = pool.get_disjoint_mut([keys[0], keys[4]]).unwrap();
    (*a, *b) = (*b, *a);
    assert_eq!((pool[keys[0]], pool[keys[4]]), (4, 0));
}

/// slab `tests/slab.rs::get_disjoint_mut`, on the branded pool: keys, and handles (which
/// are always live, but can be lent twice)
#[test]
fn get_disjoint_mut_branded() {
    Pool::with(|mut pool| {
        let one = pool.insert(1);
        let two = pool.insert(2);
        let k = pool.insert_keyed(3);
        let owned_key = pool.key(&one);
        let [x, y] = pool.get_disjoint_mut([owned_key, k]).unwrap();
        (*x, *y) = (*y, *x);
        assert_eq!((pool[&one], pool[k]), (3, 1));
        assert_eq!(pool.get_disjoint_mut([k, k]), Err(GetDisjointMutError::OverlappingKeys));
        let [x, y] = pool.get_disjoint_handles_mut([&one, &two]).unwrap();
        (*x, *y) = (*y, *x);
        assert_eq!((pool[&one], pool[&two]), (2, 3));
        assert_eq!(
            pool.get_disjoint_handles_mut([&two, &one, &two]),
            Err(GetDisjointMutError::OverlappingKeys)
        );
        pool.remove_key(k);
        assert_eq!(pool.get_disjoint_mut([owned_key, k]), Err(GetDisjointMutError::StaleKey));
    });
}

/// slab `tests/slab.rs::get_disjoint_mut_out_of_bounds_index_error`
#[test]
fn get_disjoint_mut_out_of_bounds_index_error() {
    let mut pool: KeyPool<i32> = KeyPool::with_capacity(10);
    let a = pool.insert(1);
    let b = pool.insert(2);
    assert_eq!(
        pool.get_disjoint_mut([a, b, TypedKey::from_raw(5)]),
        Err(GetDisjointMutError::StaleKey)
    );
}

/// slab `tests/serde.rs::test_serde_empty` and `test_serde`, as round trips: every key still
/// names its value afterwards
#[cfg(feature = "serde")]
#[test]
fn serde_round_trip() {
    let empty = KeyPool::<usize>::new();
    let back: KeyPool<usize> =
        serde_json::from_str(&serde_json::to_string(&empty).unwrap()).unwrap();
    assert!(back.is_empty());

    let mut pool = KeyPool::new();
    let keys: Vec<_> = [(1, 2), (3, 4), (5, 6)].into_iter().map(|pair| pool.insert(pair)).collect();
    let back: KeyPool<(i32, i32)> =
        serde_json::from_str(&serde_json::to_string(&pool).unwrap()).unwrap();
    assert_eq!(back.len(), 3);
    assert!(keys.iter().all(|&k| back[k] == pool[k]));
}
