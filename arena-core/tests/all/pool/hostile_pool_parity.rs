//! Hostile programs against the pools' whole-collection operations (`compact`,
//! `get_disjoint_mut`, `clear`, the drains, the iterators by value, `Clone`): stale keys
//! and keys of other pools, equal keys, callbacks and destructors that panic half-way
//! (every destructor runs exactly once, and the pool is consistent afterwards), and
//! handles that must stay valid across all of it. The attacks that must not compile are
//! `tests/ui/pool_*` and `tests/ui/key_pool_*`.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use arena_kit::{GetDisjointMutError, KeyPool, Pool, TypedKey};

use crate::common::{Counted, PanicsOnClone, PanicsOnDrop, expect_panic, scaled, sorted};

/// Checks that every key of `live` names its value and `pool.len()` counts them, and
/// that the pool still takes and gives back values.
fn consistent(pool: &mut KeyPool<u32>, live: &HashMap<TypedKey<u32>, u32>) {
    assert_eq!(pool.len(), live.len());
    for (&k, &v) in live {
        assert_eq!(pool.get(k), Some(&v));
    }
    let seen: HashMap<_, _> = pool.iter().map(|(k, v)| (k, *v)).collect();
    assert_eq!(&seen, live, "iteration sees exactly the live values");
    let k = pool.insert(u32::MAX);
    assert_eq!(pool.remove(k), Some(u32::MAX));
}

#[test]
fn compact_keeps_every_key_right_through_random_churn() {
    let mut pool = KeyPool::new();
    let mut live = HashMap::new();
    let mut dead = Vec::new();
    let mut seed = 0x2545_f491_u32;
    for round in 0..scaled(60) {
        for i in 0..20 {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            if seed % 3 == 0 && !live.is_empty() {
                let &k = live.keys().nth(seed as usize % live.len()).unwrap();
                live.remove(&k);
                assert!(pool.remove(k).is_some());
                dead.push(k);
            } else {
                let v = (round * 100 + i) as u32;
                live.insert(pool.insert(v), v);
            }
        }
        let mut moved = Vec::new();
        pool.compact(|&mut v, old, new| {
            assert!(new.index() < old.index(), "values only move down");
            moved.push((old, new, v));
            true
        });
        for (old, new, v) in moved {
            assert_eq!(live.remove(&old), Some(v));
            live.insert(new, v);
            dead.push(old);
        }
        assert_eq!(pool.stats().free, 0, "no hole is left");
        assert!(dead.iter().all(|&k| pool.get(k).is_none()), "every old key stays stale");
        consistent(&mut pool, &live);
    }
}

#[test]
fn a_compact_callback_that_panics_half_way_loses_nothing() {
    let drops = Cell::new(0);
    {
        let mut pool = KeyPool::new();
        let keys: Vec<_> = (0..12).map(|i| pool.insert(Counted::new(i, &drops))).collect();
        for &k in keys.iter().step_by(2) {
            pool.remove(k);
        }
        assert_eq!(drops.get(), 6);
        let mut renamed = HashMap::new();
        let mut calls = 0;
        let result = catch_unwind(AssertUnwindSafe(|| {
            pool.compact(|value, old, new| {
                calls += 1;
                assert!(calls < 3, "the third move panics");
                renamed.insert(value.id, (old, new));
                true
            });
        }));
        assert!(result.is_err());
        assert_eq!(drops.get(), 6, "nothing dropped by the panic");
        assert_eq!(pool.len(), 6);
        for (i, &k) in keys.iter().enumerate().filter(|(i, _)| i % 2 == 1) {
            let key = renamed.get(&i).map_or(k, |&(old, new)| {
                assert_eq!((old, pool.get(old).map(|c| c.id)), (k, None));
                new
            });
            assert_eq!(pool[key].id, i, "value {i} under its current key");
        }
        // The pool keeps working: compaction can be finished later.
        pool.compact(|_, _, _| true);
        assert_eq!(pool.stats().free, 0);
        assert_eq!(pool.values().map(|c| c.id).sum::<usize>(), 1 + 3 + 5 + 7 + 9 + 11);
    }
    assert_eq!(drops.get(), 12, "every value dropped exactly once");
}

#[test]
fn handles_stay_valid_across_compact_clear_and_drain_keyed() {
    let drops = Cell::new(0);
    Pool::with(|mut pool| {
        let mut handles = Vec::new();
        let mut keys = Vec::new();
        for i in 0..30 {
            if i % 4 == 0 {
                handles.push((i, pool.insert(Counted::new(i, &drops))));
            } else {
                keys.push(pool.insert_keyed(Counted::new(i, &drops)));
            }
        }
        for &k in keys.iter().step_by(3) {
            pool.remove_key(k);
        }
        pool.compact(|_, _, _| true);
        for (i, h) in &handles {
            assert_eq!(pool[h].id, *i);
        }
        let owned_keys: Vec<_> = handles.iter().map(|(_, h)| pool.key(h)).collect();
        assert!(pool.remove_key(owned_keys[0]).is_none(), "a key cannot free an owned value");
        let drained = pool.drain_keyed().count();
        assert_eq!(drained, keys.len() - keys.len().div_ceil(3));
        for (i, h) in &handles {
            assert_eq!(pool[h].id, *i);
        }
        pool.clear();
        assert_eq!(pool.len(), handles.len());
        for ((i, h), k) in handles.iter().zip(&owned_keys) {
            assert_eq!((pool[h].id, pool[*k].id), (*i, *i), "handles and their keys survive");
        }
        let [a, b] = pool.get_disjoint_handles_mut([&handles[0].1, &handles[1].1]).unwrap();
        std::mem::swap(&mut a.id, &mut b.id);
        assert_eq!(pool[&handles[0].1].id, 4);
        for (_, h) in handles {
            drop(pool.remove(h));
        }
        assert!(pool.is_empty());
    });
    assert_eq!(drops.get(), 30);
}

#[test]
fn get_disjoint_mut_refuses_stale_foreign_and_repeated_keys() {
    let mut pool = KeyPool::new();
    let mut other = KeyPool::new();
    let a = pool.insert(1);
    let b = pool.insert(2);
    let foreign = other.insert(3);
    let _ = other.insert(4);
    // Another pool's key of the same slot: its salt keeps it out (2^-30 odds per try).
    assert_eq!(foreign.index(), a.index());
    assert_eq!(pool.get_disjoint_mut([foreign, b]), Err(GetDisjointMutError::StaleKey));
    // Two versions of one slot: overlap is checked first.
    pool.remove(a);
    let a2 = pool.insert(10);
    assert_eq!(a2.index(), a.index());
    assert_eq!(pool.get_disjoint_mut([a, a2]), Err(GetDisjointMutError::OverlappingKeys));
    assert_eq!(pool.get_disjoint_mut([a, b]), Err(GetDisjointMutError::StaleKey));
    assert_eq!(
        pool.get_disjoint_mut([TypedKey::from_raw(u64::MAX), b]),
        Err(GetDisjointMutError::StaleKey)
    );
    let [x, y] = pool.get_disjoint_mut([a2, b]).unwrap();
    (*x, *y) = (*y, *x);
    assert_eq!((pool[a2], pool[b]), (2, 10));
    assert_eq!(GetDisjointMutError::StaleKey.to_string(), "a key names no value (it was removed)");
}

#[test]
fn a_drain_whose_value_panics_on_drop_still_drops_the_rest_once() {
    let log = RefCell::new(Vec::new());
    let mut pool = KeyPool::new();
    for id in 0..6 {
        pool.insert(PanicsOnDrop { id, panic_on: 2, log: &log });
    }
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut drain = pool.drain();
        drop(drain.next()); // value 0
        drop(drain); // drops 1, then 2 panics; 3, 4 and 5 are still dropped
    }));
    assert!(result.is_err());
    assert_eq!(sorted(&log), [0, 1, 2, 3, 4, 5]);
    assert!(pool.is_empty());
    let k = pool.insert(PanicsOnDrop { id: 9, panic_on: 2, log: &log });
    assert_eq!(pool[k].id, 9, "the pool is usable after the panic");
}

#[test]
fn a_clear_whose_value_panics_on_drop_leaves_a_consistent_pool() {
    let log = RefCell::new(Vec::new());
    {
        let mut pool = KeyPool::new();
        let keys: Vec<_> =
            (0..6).map(|id| pool.insert(PanicsOnDrop { id, panic_on: 3, log: &log })).collect();
        expect_panic(|| pool.clear());
        assert_eq!(sorted(&log), [0, 1, 2, 3]);
        assert_eq!(pool.len(), 2, "the values after the panic stay");
        assert_eq!((pool[keys[4]].id, pool[keys[5]].id), (4, 5));
        assert!(pool.get(keys[3]).is_none());
        pool.clear();
    }
    assert_eq!(sorted(&log), [0, 1, 2, 3, 4, 5]);
}

#[test]
fn a_pool_consumed_by_value_drops_what_its_iterator_leaves_even_after_a_panic() {
    let log = RefCell::new(Vec::new());
    let result = catch_unwind(AssertUnwindSafe(|| {
        Pool::with(|mut pool| {
            let _owned = pool.insert(PanicsOnDrop { id: 0, panic_on: 1, log: &log });
            for id in 1..5 {
                pool.insert_keyed(PanicsOnDrop { id, panic_on: 1, log: &log });
            }
            let mut iter = pool.into_iter();
            let (_, first) = iter.next_back().unwrap();
            assert_eq!(first.id, 4);
            drop(first);
            drop(iter); // 0 and 1 and 2 and 3 are left; 1 panics
        });
    }));
    assert!(result.is_err());
    assert_eq!(sorted(&log), [0, 1, 2, 3, 4]);
}

#[test]
fn clones_survive_panicking_clones_and_destructors() {
    let (clones, drops) = (Cell::new(0), Cell::new(0));
    let mut pool = KeyPool::new();
    let keys: Vec<_> = (0..5)
        .map(|_| pool.insert(PanicsOnClone { clones: &clones, fail_at: 3, drops: &drops }))
        .collect();
    pool.remove(keys[1]);
    assert_eq!(drops.get(), 1);
    expect_panic(|| pool.clone());
    assert_eq!(drops.get(), 1 + 3, "the three clones made are dropped");
    let mut target = KeyPool::new();
    target.insert(PanicsOnClone { clones: &clones, fail_at: usize::MAX, drops: &drops });
    expect_panic(|| target.clone_from(&pool)); // clones 3.. (the counter is at 3)
    assert_eq!(drops.get(), 1 + 3 + 1, "the target's old value dropped, no clone made");
    assert!(target.is_empty(), "a failed clone_from leaves the target empty");
    assert_eq!(pool.len(), 4, "the source is untouched");
    drop(pool);
    drop(target);
    assert_eq!(drops.get(), 1 + 3 + 1 + 4);
}

#[test]
fn a_clone_is_the_same_pool_twice_and_then_two_pools() {
    let mut pool = KeyPool::new();
    let kept = pool.insert("kept");
    let gone = pool.insert("gone");
    pool.remove(gone);
    let mut copy = pool.clone();
    assert_eq!(copy[kept], "kept", "the original's keys name the copies");
    assert_eq!(copy.get(gone), None, "and its stale keys stay stale");
    // From here on the two change apart; a key one of them makes is for that one: the
    // other may hold a value at the same slot and version (documented on `KeyPool`).
    let in_copy = copy.insert("copy's");
    let in_pool = pool.insert("pool's");
    assert_eq!((in_copy.index(), in_pool.index()), (gone.index(), gone.index()));
    assert_eq!((copy[in_copy], pool[in_pool]), ("copy's", "pool's"));
}

#[test]
fn clear_and_drain_give_keys_back_without_reviving_old_ones() {
    let mut pool = KeyPool::new();
    let mut old = Vec::new();
    for round in 0..scaled(40) {
        let keys: Vec<_> = (0..8).map(|i| pool.insert(round * 8 + i)).collect();
        assert_eq!(keys[0].index(), 0, "after a clear or a drain, slot 0 again");
        assert!(old.iter().all(|&k| pool.get(k).is_none()), "no old key names a new value");
        old.extend_from_slice(&keys);
        if round % 2 == 0 {
            pool.clear();
        } else {
            assert_eq!(pool.drain().count(), 8);
        }
        assert_eq!(pool.stats().free, 0, "the slots are forgotten, the buffer kept");
    }
    Pool::with(|mut pool| {
        let h = pool.insert(usize::MAX);
        let mut old = Vec::new();
        for round in 0..scaled(40) {
            let keys: Vec<_> = (0..4).map(|i| pool.insert_keyed(round * 4 + i)).collect();
            assert!(old.iter().all(|&k| pool.get_key(k).is_none()));
            old.extend_from_slice(&keys);
            if round % 2 == 0 {
                pool.clear();
            } else {
                pool.drain_keyed().for_each(drop);
            }
            assert_eq!(pool[&h], usize::MAX);
        }
    });
}

#[test]
fn a_leaked_drain_or_a_max_free_policy_keep_the_pool_consistent() {
    let mut pool = KeyPool::new();
    pool.set_max_free(Some(1));
    let mut live: HashMap<_, _> = (0..10).map(|i| (pool.insert(i), i)).collect();
    {
        let mut drain = pool.drain();
        for _ in 0..3 {
            let (k, v) = drain.next_back().unwrap();
            assert_eq!(live.remove(&k), Some(v));
        }
        std::mem::forget(drain);
    }
    consistent(&mut pool, &live);
    drop(pool.drain());
    assert!(pool.is_empty() && pool.stats().free <= 2);
}
