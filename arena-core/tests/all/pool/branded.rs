//! `Pool` behaviour, including the behaviours slab's own test-suite checks (insert, get,
//! remove, reuse order, clear, retain, drain, iteration), in arena-kit's terms.

use std::cell::RefCell;
use std::collections::HashSet;

use arena_kit::{AllocError, Handle, Key, Pool, SecondaryMap};

use crate::common::{Noisy, sorted};

#[test]
fn handles_and_keys_are_small_with_a_niche() {
    assert_eq!(size_of::<Handle<'_>>(), 4);
    assert_eq!(size_of::<Option<Handle<'_>>>(), 4);
    assert_eq!(size_of::<Key<'_>>(), 8);
    assert_eq!(size_of::<Option<Key<'_>>>(), 8);
}

#[test]
fn insert_get_and_remove_round_trip() {
    Pool::with(|mut pool| {
        let a = pool.insert(String::from("a"));
        let b = pool.insert(String::from("b"));
        assert_eq!((pool.get(&a).as_str(), pool[&b].as_str()), ("a", "b"));
        pool.get_mut(&a).push('!');
        pool[&b].push('?');
        assert_eq!(pool.len(), 2);
        assert_eq!(pool.remove(a), "a!");
        assert_eq!(pool.remove(b), "b?");
        assert!(pool.is_empty());
    });
}

#[test]
fn freed_slots_are_reused_last_in_first_out() {
    Pool::with(|mut pool| {
        let handles: Vec<_> = (0..5).map(|i| pool.insert(i)).collect();
        let mut handles = handles.into_iter();
        let (h0, h1, h2) =
            (handles.next().unwrap(), handles.next().unwrap(), handles.next().unwrap());
        pool.remove(h1);
        pool.remove(h2);
        assert_eq!(pool.insert(10).index(), 2, "the most recently freed slot first");
        assert_eq!(pool.insert(11).index(), 1);
        assert_eq!(pool.insert(12).index(), 5, "then a new slot");
        assert_eq!(pool[&h0], 0);
    });
}

#[test]
fn a_stale_key_never_reaches_the_value_that_reuses_its_slot() {
    Pool::with(|mut pool| {
        let old = pool.insert_keyed(1);
        pool.remove_key(old);
        let new = pool.insert_keyed(2);
        assert_eq!(old.index(), new.index());
        assert_ne!(old, new);
        assert_eq!(pool.get_key(old), None);
        assert_eq!(pool.get_key_mut(old), None);
        assert_eq!(pool.remove_key(old), None);
        assert!(!pool.contains_key(old));
        assert_eq!(pool.get_key(new), Some(&2));
        assert!(format!("{old:?}").starts_with("Key(0v0"));
    });
}

#[test]
fn a_slot_owned_by_a_handle_cannot_be_freed_through_a_key() {
    Pool::with(|mut pool| {
        let h = pool.insert(5);
        let k = pool.key(&h);
        assert_eq!(pool.get_key(k), Some(&5), "a key reads an owned value");
        assert_eq!(pool.remove_key(k), None);
        assert!(pool.take_handle(k).is_none(), "and cannot take a second owner");
        pool.retain(|_, _| false);
        pool.clear();
        assert_eq!(pool[&h], 5, "retain and clear skip owned values");
        let k = pool.into_key(h);
        assert_eq!(pool.remove_key(k), Some(5));
    });
}

#[test]
fn ownership_moves_between_keys_and_handles() {
    Pool::with(|mut pool| {
        let k = pool.insert_keyed('x');
        let h = pool.take_handle(k).unwrap();
        assert_eq!(pool.remove_key(k), None);
        let k2 = pool.into_key(h);
        assert_eq!(k, k2, "same value, same key");
        let stale = pool.remove_key(k2).map(|_| k2).unwrap();
        assert!(pool.take_handle(stale).is_none());
    });
}

#[test]
fn retain_keeps_what_the_closure_keeps() {
    Pool::with(|mut pool| {
        let keys: Vec<_> = (0..20).map(|i| pool.insert_keyed(i)).collect();
        pool.retain(|_, v| {
            *v *= 10;
            *v % 20 == 0
        });
        assert_eq!(pool.len(), 10);
        assert_eq!(pool.get_key(keys[2]), Some(&20));
        assert_eq!(pool.get_key(keys[3]), None);
    });
}

#[test]
fn drain_yields_every_value_once_and_consumes_the_pool() {
    let log = RefCell::new(Vec::new());
    let drained: Vec<u32> = Pool::with(|mut pool| {
        for id in 0..4 {
            pool.insert_keyed(Noisy { id, log: &log });
        }
        let _owned = pool.insert(Noisy { id: 4, log: &log });
        pool.drain().map(|n| n.id).collect()
    });
    assert_eq!(drained, [0, 1, 2, 3, 4]);
    assert_eq!(sorted(&log), [0, 1, 2, 3, 4]);
}

#[test]
fn iteration_visits_every_value_in_slot_order() {
    Pool::with(|mut pool| {
        let a = pool.insert_keyed(1);
        let h = pool.insert(2);
        let c = pool.insert_keyed(3);
        pool.remove_key(a);
        let seen: Vec<(Key<'_>, i32)> = pool.iter().map(|(k, v)| (k, *v)).collect();
        assert_eq!(seen, [(pool.key(&h), 2), (c, 3)]);
        for (_, v) in &mut pool {
            *v += 100;
        }
        assert_eq!(pool[&h], 102);
    });
}

#[test]
fn dropping_the_pool_drops_every_value_exactly_once() {
    let log = RefCell::new(Vec::new());
    Pool::with(|mut pool| {
        for id in 0..10 {
            let k = pool.insert_keyed(Noisy { id, log: &log });
            if id % 3 == 0 {
                drop(pool.remove_key(k));
            }
        }
        let _h = pool.insert(Noisy { id: 10, log: &log });
    });
    assert_eq!(sorted(&log), (0..=10).collect::<Vec<_>>());
}

#[test]
fn a_panicking_destructor_does_not_stop_the_pool_dropping_the_rest() {
    use crate::common::PanicsOnDrop;
    let log = RefCell::new(Vec::new());
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        Pool::with(|mut pool| {
            for id in 0..5 {
                pool.insert_keyed(PanicsOnDrop { id, panic_on: 2, log: &log });
            }
        });
    }));
    assert!(result.is_err());
    assert_eq!(sorted(&log), [0, 1, 2, 3, 4]);
}

#[test]
fn shrink_to_fit_releases_trailing_vacancies_and_keeps_keys_stale() {
    Pool::with(|mut pool| {
        let keys: Vec<_> = (0..100).map(|i| pool.insert_keyed(i)).collect();
        for &k in &keys[50..] {
            pool.remove_key(k);
        }
        pool.remove_key(keys[10]);
        pool.shrink_to_fit();
        let stats = pool.stats();
        assert_eq!((stats.live, stats.free), (49, 1), "only the hole at 10 stays");
        for _ in 0..60 {
            pool.insert_keyed(-1);
        }
        for &k in &keys[50..] {
            assert_eq!(pool.get_key(k), None, "a key to a dropped slot stays stale");
        }
        assert_eq!(pool.get_key(keys[0]), Some(&0));
    });
}

#[test]
fn the_max_free_policy_gives_memory_back() {
    Pool::with(|mut pool| {
        pool.set_max_free(Some(4));
        let keys: Vec<_> = (0..1000).map(|i| pool.insert_keyed(i)).collect();
        for &k in keys.iter().rev() {
            pool.remove_key(k);
        }
        let stats = pool.stats();
        assert!(stats.free <= 8, "{stats:?}");
        assert_eq!(stats.peak, 1000);
    });
}

#[test]
fn the_max_free_policy_applies_to_handle_removals_and_can_be_lifted() {
    Pool::with(|mut pool| {
        pool.set_max_free(Some(4));
        let handles: Vec<_> = (0..1000).map(|i| pool.insert(i)).collect();
        let sum: u64 = handles.into_iter().rev().map(|h| pool.remove(h)).sum();
        assert_eq!(sum, 999 * 1000 / 2);
        assert!(pool.stats().free <= 8, "{:?}", pool.stats());
        // Without the policy, removals keep every free slot again.
        pool.set_max_free(None);
        let handles: Vec<_> = (0..100).map(|i| pool.insert(i)).collect();
        let free_before = pool.stats().free;
        for h in handles {
            pool.remove(h);
        }
        assert_eq!(pool.stats().free, free_before + 100, "{:?}", pool.stats());
        // And the slots given back are reused, generations checked.
        let k = pool.insert_keyed(7);
        assert_eq!(pool.remove_key(k), Some(7));
        assert_eq!(pool.get_key(k), None);
    });
}

#[test]
fn reserve_and_with_capacity_make_room() {
    Pool::<u64>::with_capacity(64, |mut pool| {
        assert!(pool.capacity() >= 64);
        pool.reserve(1000);
        assert!(pool.capacity() >= 1000);
        assert!(format!("{pool:?}").contains("u64"));
    });
}

#[test]
fn handles_are_unique_and_hashable() {
    Pool::with(|mut pool| {
        let handles: Vec<_> = (0..100).map(|i| pool.insert(i)).collect();
        let set: HashSet<&Handle<'_>> = handles.iter().collect();
        assert_eq!(set.len(), 100);
        assert_eq!(format!("{:?}", handles[7]), "Handle(7)");
    });
}

#[test]
fn the_index_space_error_says_what_ran_out() {
    let e = AllocError::CapacityExceeded { max: 3 };
    assert!(e.to_string().contains("index space"));
}

#[test]
fn a_secondary_map_follows_keys_of_its_pool() {
    Pool::with(|mut pool| {
        let mut side = SecondaryMap::new();
        let a = pool.insert_keyed("a");
        let b = pool.insert_keyed("b");
        assert_eq!(side.insert(a, 1), None);
        assert_eq!(side.insert(b, 2), None);
        assert_eq!(side.insert(a, 10), Some(1));
        *side.get_mut(b).unwrap() += 1;
        assert_eq!((side.get(a), side.get(b), side.len()), (Some(&10), Some(&3), 2));
        pool.remove_key(a);
        let c = pool.insert_keyed("c"); // reuses a's slot
        assert_eq!(side.get(c), None, "a newer key of the slot sees no entry");
        assert_eq!(side.insert(c, 30), None, "and replaces the stale one");
        assert_eq!(side.get(a), None);
        side.retain(|k, _| pool.contains_key(k));
        assert_eq!(side.remove(b), Some(3));
        assert_eq!(side.len(), 1);
        assert!(format!("{side:?}").contains("30"));
    });
}

#[test]
fn a_key_shown_by_an_unfilled_entry_never_names_a_value() {
    Pool::with(|mut pool| {
        let entry = pool.vacant_entry();
        let shown = entry.key();
        drop(entry);
        assert_eq!(pool.len(), 0, "an unfilled entry leaves nothing behind");
        let k = pool.insert_keyed(1);
        assert_eq!(k.index(), shown.index(), "the slot is reused");
        assert_eq!(pool.get_key(shown), None, "but not under the shown key");
        // The same for a slot taken from the free list.
        pool.remove_key(k);
        let entry = pool.vacant_entry();
        let shown = entry.key();
        drop(entry);
        let again = pool.insert_keyed(2);
        assert_eq!(again.index(), shown.index());
        assert_eq!(pool.get_key(shown), None);
        assert_eq!(pool.get_key(again), Some(&2));
    });
}

/// Found by the `pool` fuzz target: an entry claiming a new slot and dropped unfilled
/// appended a vacant slot, so `stats()` counted a free slot and a peak of one value in a
/// pool that never held one.
#[test]
fn an_unfilled_entry_leaves_the_counters_as_they_were() {
    // (The claim may reserve room: capacity is not compared.)
    let counters = |s: arena_kit::pool::PoolStats| (s.live, s.free, s.peak);
    Pool::with(|mut pool| {
        drop(pool.vacant_entry());
        assert_eq!(counters(pool.stats()), (0, 0, 0), "empty pool");
        let _a = pool.insert_keyed(1_u8);
        let entry = pool.vacant_entry();
        let shown = entry.key();
        drop(entry);
        assert_eq!(counters(pool.stats()), (1, 0, 1), "a pool whose every slot is taken");
        let b = pool.insert_keyed(2);
        assert_eq!(b.index(), shown.index());
        assert_eq!(pool.get_key(shown), None, "the shown key stays stale");
        assert_eq!(pool.get_key(b), Some(&2));
    });
    let mut pool = arena_kit::KeyPool::new();
    drop(pool.vacant_entry());
    assert_eq!(counters(pool.stats()), (0, 0, 0));
    pool.insert('k');
    assert_eq!(pool.stats().peak, 1);
}

#[test]
fn insert_with_key_whose_closure_panics_leaves_the_pool_unchanged_and_the_key_dead() {
    use std::cell::Cell;
    use std::panic::{AssertUnwindSafe, catch_unwind};
    Pool::with(|mut pool| {
        let seen = Cell::new(None);
        let result = catch_unwind(AssertUnwindSafe(|| {
            pool.insert_with_key(|k| {
                seen.set(Some(k));
                panic!("the value cannot be built")
            })
        }));
        assert!(result.is_err());
        let leaked = seen.get().unwrap();
        assert_eq!(pool.len(), 0);
        let k = pool.insert_with_key(|k| k.index() * 10);
        assert_eq!(pool.get_key(k), Some(&0));
        assert_eq!(pool.get_key(leaked), None, "the leaked key reaches nothing");
    });
}

#[test]
fn keys_and_handles_order_for_heaps_and_btrees() {
    use std::collections::{BTreeMap, BinaryHeap};
    Pool::with(|mut pool| {
        let keys: Vec<_> = (0..5).map(|i| pool.insert_keyed(i)).collect();
        let mut heap: BinaryHeap<_> =
            keys.iter().map(|&k| (std::cmp::Reverse(pool[k]), k)).collect();
        assert_eq!(heap.pop().map(|(_, k)| k), Some(keys[0]));
        let by_key: BTreeMap<_, _> = keys.iter().map(|&k| (k, pool[k])).collect();
        assert_eq!(by_key.keys().copied().collect::<Vec<_>>(), keys, "keys order by slot");
        let a = pool.insert(10);
        let b = pool.insert(11);
        assert!(a < b);
        pool.remove(a);
        pool.remove(b);
    });
}

#[test]
#[should_panic(expected = "is stale: its value was removed")]
fn indexing_by_a_stale_key_panics_with_a_clear_message() {
    Pool::with(|mut pool| {
        let k = pool.insert_keyed(1);
        pool[k] += 1;
        assert_eq!(pool[k], 2);
        pool.remove_key(k);
        let _ = pool[k];
    });
}
