//! Hostile programs against `SecondaryMap`: keys of an older and a newer generation of
//! one slot, `remove` with the wrong one, a `retain` whose closure panics, and the keys
//! `retain` hands out used again afterwards.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

use arena_kit::{Pool, SecondaryMap};

use crate::common::{Counted, scaled};

#[test]
fn a_secondary_map_follows_its_pools_generations_and_counts_entries_exactly() {
    let drops = Cell::new(0);
    Pool::with(|mut pool| {
        let mut map = SecondaryMap::new();
        let a = pool.insert_keyed(1);
        let b = pool.insert_keyed(2);
        assert!(map.insert(a, Counted::new(1, &drops)).is_none());
        assert!(map.insert(b, Counted::new(2, &drops)).is_none());
        assert_eq!(map.insert(a, Counted::new(3, &drops)).unwrap().id, 1);
        assert_eq!(map.len(), 2);
        pool.remove_key(a);
        let a2 = pool.insert_keyed(10); // the same slot, a new generation
        assert_eq!(a2.index(), a.index());
        assert!(map.get(a2).is_none(), "the old entry belongs to the old generation");
        assert_eq!(map.get(a).unwrap().id, 3);
        assert!(map.remove(a2).is_none());
        assert_eq!(map.remove(a).unwrap().id, 3);
        assert_eq!(map.len(), 1);
        map.retain(|k, v| {
            assert_eq!(k, b);
            v.id += 100;
            true
        });
        assert_eq!(map.get(b).unwrap().id, 102);
        let result = catch_unwind(AssertUnwindSafe(|| {
            map.retain(|_, _| panic!("retain closure panics"));
        }));
        assert!(result.is_err());
        assert_eq!(map.len(), 1);
        assert!(map.get(b).is_some());
        drop(map);
        assert_eq!(drops.get(), 3);
    });
}

#[test]
fn keys_handed_out_by_retain_index_in_bounds_and_match_the_pool() {
    Pool::with(|mut pool| {
        let mut map = SecondaryMap::new();
        let keys: Vec<_> = (0..scaled(300)).map(|i| pool.insert_keyed(i)).collect();
        for k in keys.iter().rev() {
            map.insert(*k, Rc::new(k.index()));
        }
        let mut seen = Vec::new();
        map.retain(|k, v| {
            seen.push(k);
            **v % 3 != 0
        });
        for k in seen {
            if let Some(v) = map.get_mut(k) {
                assert_eq!(**v, k.index());
                assert_eq!(pool.get_key(k), Some(&k.index()));
            }
        }
        assert_eq!(map.len(), keys.iter().filter(|k| k.index() % 3 != 0).count());
    });
}
