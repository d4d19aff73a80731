//! `KeyPool` and `SecondaryMap` keyed by `TypedKey`: random programs against `HashMap`
//! models, keys of other pools, storage outside any closure, drop counts, raw keys.

use std::cell::Cell;
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;

use arena_kit::{KeyPool, SecondaryMap, TypedKey};
use proptest::prelude::*;

const fn assert_send_sync<T: Send + Sync>() {}
const _: () = assert_send_sync::<KeyPool<String>>();
const _: () = assert_send_sync::<TypedKey<std::rc::Rc<u8>>>(); // a key holds no `T`
const _: () = assert_send_sync::<SecondaryMap<TypedKey<u8>, String>>();

#[derive(Debug, Clone)]
enum Op {
    Insert(u32),
    /// Use the key at this position (modulo the number ever made).
    Remove(usize),
    Get(usize),
    RetainEven,
    Shrink,
    MaxFree(Option<u8>),
    Drain,
    SideInsert(usize, u32),
    SideRemove(usize),
    SideGet(usize),
    SideRetainLive,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => any::<u32>().prop_map(Op::Insert),
        4 => any::<usize>().prop_map(Op::Remove),
        3 => any::<usize>().prop_map(Op::Get),
        1 => Just(Op::RetainEven),
        1 => Just(Op::Shrink),
        1 => proptest::option::of(0_u8..4).prop_map(Op::MaxFree),
        1 => Just(Op::Drain),
        3 => (any::<usize>(), any::<u32>()).prop_map(|(i, v)| Op::SideInsert(i, v)),
        2 => any::<usize>().prop_map(Op::SideRemove),
        2 => any::<usize>().prop_map(Op::SideGet),
        1 => Just(Op::SideRetainLive),
    ]
}

/// The side table's model: per slot, the key that set the entry and its value; a key's
/// age is the order keys were made in.
struct Side {
    by_slot: HashMap<usize, (TypedKey<u32>, u32)>,
}

fn run(ops: &[Op]) -> Result<(), TestCaseError> {
    let mut pool = KeyPool::new();
    let mut side = SecondaryMap::new();
    let mut model: HashMap<TypedKey<u32>, u32> = HashMap::new();
    let mut side_model = Side { by_slot: HashMap::new() };
    let mut keys: Vec<TypedKey<u32>> = Vec::new();
    let age = |keys: &[TypedKey<u32>], k: TypedKey<u32>| keys.iter().position(|&x| x == k);
    for op in ops {
        match *op {
            Op::Insert(v) => {
                let k = pool.insert(v);
                prop_assert!(model.insert(k, v).is_none(), "keys are never reused");
                prop_assert!(!keys.contains(&k), "keys are never reused");
                keys.push(k);
            }
            Op::Remove(i) if !keys.is_empty() => {
                let k = keys[i % keys.len()];
                prop_assert_eq!(pool.remove(k), model.remove(&k));
            }
            Op::Get(i) if !keys.is_empty() => {
                let k = keys[i % keys.len()];
                prop_assert_eq!(pool.get(k).copied(), model.get(&k).copied());
                prop_assert_eq!(pool.contains_key(k), model.contains_key(&k));
            }
            Op::RetainEven => {
                pool.retain(|_, v| *v % 2 == 0);
                model.retain(|_, v| *v % 2 == 0);
            }
            Op::Shrink => pool.shrink_to_fit(),
            Op::MaxFree(m) => pool.set_max_free(m.map(usize::from)),
            Op::Drain => {
                let mut drained: Vec<_> = pool.drain().collect();
                let mut expected: Vec<_> = model.drain().collect();
                drained.sort_unstable();
                expected.sort_unstable();
                prop_assert_eq!(drained, expected);
            }
            Op::SideInsert(i, v) if !keys.is_empty() => {
                let k = keys[i % keys.len()];
                let slot = k.index();
                let expected = match side_model.by_slot.get(&slot) {
                    Some(&(old, old_v)) if old == k => {
                        side_model.by_slot.insert(slot, (k, v));
                        Some(old_v)
                    }
                    Some(&(old, _)) if age(&keys, k) < age(&keys, old) => None, // refused
                    _ => {
                        side_model.by_slot.insert(slot, (k, v));
                        None
                    }
                };
                prop_assert_eq!(side.insert(k, v), expected);
            }
            Op::SideRemove(i) if !keys.is_empty() => {
                let k = keys[i % keys.len()];
                let expected = match side_model.by_slot.get(&k.index()) {
                    Some(&(owner, v)) if owner == k => {
                        side_model.by_slot.remove(&k.index());
                        Some(v)
                    }
                    _ => None,
                };
                prop_assert_eq!(side.remove(k), expected);
            }
            Op::SideGet(i) if !keys.is_empty() => {
                let k = keys[i % keys.len()];
                let expected = match side_model.by_slot.get(&k.index()) {
                    Some(&(owner, v)) if owner == k => Some(v),
                    _ => None,
                };
                prop_assert_eq!(side.get(k).copied(), expected);
            }
            Op::SideRetainLive => {
                side.retain(|k, _| pool.contains_key(k));
                side_model.by_slot.retain(|_, (k, _)| model.contains_key(k));
            }
            _ => {}
        }
        prop_assert_eq!(pool.len(), model.len());
        prop_assert_eq!(side.len(), side_model.by_slot.len());
    }
    let mut live: Vec<(TypedKey<u32>, u32)> = pool.iter().map(|(k, v)| (k, *v)).collect();
    let mut expected: Vec<(TypedKey<u32>, u32)> = model.into_iter().collect();
    live.sort_unstable();
    expected.sort_unstable();
    prop_assert_eq!(live, expected);
    let mut side_live: Vec<_> = side.iter().map(|(k, v)| (k, *v)).collect();
    let mut side_expected: Vec<_> = side_model.by_slot.into_values().collect();
    side_live.sort_unstable();
    side_expected.sort_unstable();
    prop_assert_eq!(side_live, side_expected);
    Ok(())
}

proptest! {
    #![proptest_config(crate::common::proptest_config(256))]

    #[test]
    fn random_key_pool_programs_match_hashmaps(ops in prop::collection::vec(op(), 0..if cfg!(miri) { 20 } else { 200 })) {
        run(&ops)?;
    }
}

#[test]
fn a_key_of_another_pool_reaches_nothing_here() {
    // Each pool draws a random 30-bit salt: a foreign key matches with probability 2^-30
    // per lookup, so 64 pools of identical history never see one (a false failure here
    // has odds of about 6 in 100 million).
    let pairs = if cfg!(miri) { 4 } else { 64 };
    for _ in 0..pairs {
        let mut a = KeyPool::new();
        let mut b = KeyPool::new();
        let ka: Vec<_> = (0..8).map(|i| a.insert(i)).collect();
        let kb: Vec<_> = (0..8).map(|i| b.insert(i)).collect();
        for (&x, &y) in ka.iter().zip(&kb) {
            assert_eq!(x.index(), y.index(), "same slots");
            assert_ne!(x, y, "but other versions");
            assert_eq!(b.get(x), None, "a's key reaches nothing in b");
            assert_eq!(a.remove(y), None);
        }
    }
}

#[test]
fn raw_keys_round_trip_and_made_up_ones_reach_nothing() {
    let mut pool = KeyPool::new();
    let k = pool.insert("v");
    assert_eq!(TypedKey::from_raw(k.to_raw()), k);
    assert_eq!(pool.get(TypedKey::from_raw(k.to_raw())), Some(&"v"));
    for raw in [0, 1, u64::MAX, k.to_raw() ^ (1 << 40), k.to_raw() + 1] {
        assert_eq!(pool.get(TypedKey::from_raw(raw)), None, "raw {raw:#x}");
    }
}

struct App {
    sessions: KeyPool<String>,
    current: Option<TypedKey<String>>,
}

static SHARED: Mutex<Option<KeyPool<u64>>> = Mutex::new(None);

#[test]
fn a_key_pool_lives_in_a_struct_field_and_a_static() {
    let mut app = App { sessions: KeyPool::new(), current: None };
    app.current = Some(app.sessions.insert("alice".to_owned()));
    let current = app.current.unwrap();
    app.sessions[current].push_str("@home");
    assert_eq!(app.sessions[current], "alice@home");

    let mut guard = SHARED.lock().unwrap();
    let pool = guard.get_or_insert_with(KeyPool::new);
    let k = pool.insert(42);
    drop(guard);
    let handle = std::thread::spawn(move || SHARED.lock().unwrap().as_mut().unwrap().remove(k));
    assert_eq!(handle.join().unwrap(), Some(42));
}

#[test]
fn every_value_drops_exactly_once_whatever_empties_the_pool() {
    struct Counted<'a>(&'a Cell<usize>);
    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }
    let drops = Cell::new(0);
    let mut pool = KeyPool::new();
    for _ in 0..10 {
        pool.insert(Counted(&drops));
    }
    let k = pool.insert(Counted(&drops));
    pool.remove(k);
    assert_eq!(drops.get(), 1);
    pool.retain(|key, _| key.index() % 2 == 0);
    assert_eq!(drops.get(), 6);
    let mut drained = pool.drain();
    drop(drained.next());
    drop(drained);
    assert_eq!(drops.get(), 11, "drained values, reached or not, drop once");
    for _ in 0..3 {
        pool.insert(Counted(&drops));
    }
    pool.clear();
    assert_eq!(drops.get(), 14);
    for _ in 0..3 {
        pool.insert(Counted(&drops));
    }
    let pairs: Vec<_> = pool.into_iter().collect();
    assert_eq!((pairs.len(), drops.get()), (3, 14));
    drop(pairs);
    assert_eq!(drops.get(), 17);
}

#[test]
fn a_key_given_to_a_panicking_constructor_stays_dead() {
    let mut pool = KeyPool::new();
    let seen = Cell::new(None);
    let result = catch_unwind(AssertUnwindSafe(|| {
        pool.insert_with_key(|k| {
            seen.set(Some(k));
            panic!("no value")
        })
    }));
    assert!(result.is_err());
    let leaked = seen.get().unwrap();
    let k = pool.insert(7_usize);
    assert_eq!(k.index(), leaked.index());
    assert_eq!(pool.get(leaked), None);
    assert_eq!(pool[k], 7);
}

#[test]
fn disjoint_borrows_need_distinct_live_keys() {
    let mut pool = KeyPool::new();
    let (a, b, c) = (pool.insert(1), pool.insert(2), pool.insert(3));
    if let Ok([x, y, z]) = pool.get_disjoint_mut([a, b, c]) {
        (*x, *y, *z) = (*z, *x, *y);
    }
    assert_eq!((pool[a], pool[b], pool[c]), (3, 1, 2));
    assert!(pool.get_disjoint_mut([a, b, a]).is_err(), "equal keys");
    pool.remove(b);
    assert!(pool.get_disjoint_mut([a, b]).is_err(), "a stale key");
}

#[test]
#[should_panic(expected = "is stale")]
fn indexing_by_a_stale_key_panics() {
    let mut pool = KeyPool::new();
    let k = pool.insert(1);
    pool.remove(k);
    let _ = pool[k];
}

#[test]
fn secondary_map_entries_count_words() {
    let mut words = KeyPool::new();
    let keys: Vec<_> = ["a", "b", "a"].iter().map(|w| words.insert(*w)).collect();
    let mut counts = SecondaryMap::new();
    for &k in &keys {
        *counts.entry(k).unwrap().or_default() += 1;
        let _ = counts.entry(k).unwrap().and_modify(|n| *n *= 10);
    }
    assert_eq!(counts.values().sum::<u32>(), 30);
    let collected: SecondaryMap<_, _> = keys.iter().map(|&k| (k, words[k])).collect();
    assert_eq!(collected.len(), 3);
    // A newer key of a slot takes the stale entry's place; the old key gets no entry.
    words.remove(keys[0]);
    let newer = words.insert("c");
    assert_eq!(newer.index(), keys[0].index());
    assert!(counts.entry(keys[0]).is_some(), "still the entry's own key");
    assert_eq!(*counts.entry(newer).unwrap().or_insert(5), 5);
    assert!(counts.entry(keys[0]).is_none(), "now older than the slot's entry");
    let drained: Vec<_> = counts.drain().collect();
    assert_eq!(drained.len(), 3);
    assert!(counts.is_empty());
}
