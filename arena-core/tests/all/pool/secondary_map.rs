//! `SecondaryMap`: side tables keyed by one pool's keys, under the version rule (an older
//! key never overwrites a newer key's entry) and with exact counts through panics.

use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};

use arena_kit::{Pool, SecondaryMap};

use crate::common::PanicsOnDrop;

#[test]
fn a_stale_key_does_not_overwrite_the_entry_of_the_live_key() {
    Pool::with(|mut pool| {
        let old = pool.insert_keyed(1);
        assert_eq!(pool.remove_key(old), Some(1));
        let new = pool.insert_keyed(2);
        assert_eq!(new.index(), old.index(), "the slot is reused");
        let mut side = SecondaryMap::new();
        assert_eq!(side.insert(new, "new"), None);
        assert_eq!(side.insert(old, "old"), None, "a stale key stores nothing");
        assert_eq!(side.get(new), Some(&"new"), "the live key's entry is untouched");
        assert_eq!(side.get(old), None);
        assert_eq!(side.len(), 1);
    });
}

#[test]
fn a_stale_insert_drops_the_value_it_was_given_and_only_that() {
    let log = RefCell::new(Vec::new());
    Pool::with(|mut pool| {
        let old = pool.insert_keyed(());
        pool.remove_key(old);
        let new = pool.insert_keyed(());
        let mut side = SecondaryMap::new();
        side.insert(new, PanicsOnDrop { id: 1, panic_on: 0, log: &log });
        side.insert(old, PanicsOnDrop { id: 2, panic_on: 0, log: &log });
        assert_eq!(*log.borrow(), [2], "the refused value is dropped at once");
        drop(side);
        assert_eq!(*log.borrow(), [2, 1]);
    });
}

#[test]
fn a_newer_key_replaces_the_entry_of_an_older_one() {
    let log = RefCell::new(Vec::new());
    Pool::with(|mut pool| {
        let old = pool.insert_keyed(());
        let mut side = SecondaryMap::new();
        side.insert(old, PanicsOnDrop { id: 1, panic_on: 0, log: &log });
        pool.remove_key(old);
        let new = pool.insert_keyed(());
        assert!(side.insert(new, PanicsOnDrop { id: 2, panic_on: 0, log: &log }).is_none());
        assert_eq!(*log.borrow(), [1], "the stale entry is dropped, not returned");
        assert_eq!(side.len(), 1);
        assert_eq!(side.get(new).map(|v| v.id), Some(2));
    });
}

#[test]
fn retain_with_a_panicking_destructor_keeps_len_exact() {
    let log = RefCell::new(Vec::new());
    Pool::with(|mut pool| {
        let keys: Vec<_> = (0..4).map(|_| pool.insert_keyed(())).collect();
        let mut side = SecondaryMap::new();
        for (id, &key) in (0..).zip(&keys) {
            side.insert(key, PanicsOnDrop { id, panic_on: 1, log: &log });
        }
        let result = catch_unwind(AssertUnwindSafe(|| side.retain(|_, _| false)));
        assert!(result.is_err(), "the destructor of entry 1 panics");
        let present = keys.iter().filter(|&&k| side.get(k).is_some()).count();
        assert_eq!(side.len(), present, "len counts the entries still there");
        assert_eq!(present, 2, "entries 0 and 1 are gone, 2 and 3 stay");
        drop(side);
        let mut dropped = log.borrow().clone();
        dropped.sort_unstable();
        assert_eq!(dropped, [0, 1, 2, 3], "every value dropped exactly once");
    });
}

#[test]
fn a_replaced_value_whose_destructor_panics_leaves_the_map_consistent() {
    let log = RefCell::new(Vec::new());
    Pool::with(|mut pool| {
        let old = pool.insert_keyed(());
        let mut side = SecondaryMap::new();
        side.insert(old, PanicsOnDrop { id: 1, panic_on: 1, log: &log });
        pool.remove_key(old);
        let new = pool.insert_keyed(());
        let result = catch_unwind(AssertUnwindSafe(|| {
            side.insert(new, PanicsOnDrop { id: 2, panic_on: 1, log: &log });
        }));
        assert!(result.is_err());
        assert_eq!(side.len(), 1);
        assert_eq!(side.get(new).map(|v| v.id), Some(2), "the new value is stored");
    });
}

#[test]
fn borrowed_iterators_are_exact_double_ended_and_loop_over_references() {
    Pool::with(|mut pool| {
        let keys: Vec<_> = (0..6).map(|i| pool.insert_keyed(i)).collect();
        let mut side = SecondaryMap::new();
        for &k in &keys {
            side.insert(k, pool.get_key(k).copied().unwrap_or_default() * 10);
        }
        side.remove(keys[0]);
        side.remove(keys[3]);
        let mut iter = side.iter();
        assert_eq!(iter.len(), 4);
        assert_eq!(iter.next(), Some((keys[1], &10)));
        assert_eq!(iter.next_back(), Some((keys[5], &50)));
        assert_eq!(iter.len(), 2, "one taken from each end");
        let rest = iter.clone();
        assert_eq!(iter.map(|(k, _)| k).collect::<Vec<_>>(), [keys[2], keys[4]]);
        assert_eq!(rest.rev().map(|(_, v)| *v).collect::<Vec<_>>(), [40, 20]);
        for (key, value) in &mut side {
            *value += i32::try_from(key.index()).unwrap();
        }
        let mut seen = Vec::new();
        for (key, value) in &side {
            seen.push((key, *value));
        }
        assert_eq!(seen, [(keys[1], 11), (keys[2], 22), (keys[4], 44), (keys[5], 55)]);
        let mut back = side.iter_mut();
        assert_eq!(back.next_back().map(|(_, v)| *v), Some(55));
        assert_eq!(back.len(), 3);
        assert_eq!(back.by_ref().count(), 3);
        assert_eq!(back.next(), None, "fused");
    });
    Pool::<()>::with(|_| {
        let empty = SecondaryMap::<arena_kit::Key<'_>, u8>::new();
        assert_eq!((&empty).into_iter().len(), 0);
    });
}
