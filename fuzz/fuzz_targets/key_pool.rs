//! `KeyPool` against a `HashMap` from key to value, and a `SecondaryMap` of its keys
//! against a model of slotmap's rule (an entry answers only the key that set it; an older
//! key of a slot never overwrites a newer one's entry). Keys forged with
//! `TypedKey::from_raw` must match exactly the live key with the same bits, or nothing.
#![no_main]

use std::collections::HashMap;

use arbitrary::Arbitrary;
use arena_kit::{KeyPool, TypedKey, SecondaryMap};
use arena_kit_fuzz::{Tracked, start};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Op {
    Insert(u8),
    TryInsert(u8),
    /// A vacant entry filled, or dropped (or forgotten) unfilled.
    Vacant {
        fill: bool,
        forget: bool,
        len: u8,
    },
    InsertWithKey(u8),
    Get(u8),
    GetMut(u8),
    GetDisjointMut(u8, u8),
    Remove(u8),
    Index(u8),
    /// A key made from raw bits (a forged or corrupted key).
    Forged(u64),
    /// A key forged from one the pool gave out: its index, its version plus `0..16`
    /// (other generations and every low-bit pattern, the vacant word of a removed value
    /// among them), then used to remove.
    Near(u8, u8),
    Retain(u64),
    Clear,
    Drain,
    ShrinkToFit,
    SetMaxFree(Option<u8>),
    Reserve(u8),
    MapInsert(u8, u8),
    MapRemove(u8),
    MapGet(u8),
    MapGetMut(u8),
    MapEntry {
        key: u8,
        how: EntryOp,
    },
    MapRetain(u64),
    /// Drops the entries of values no longer in the pool.
    MapRetainLive,
    MapClear,
    MapDrain,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum EntryOp {
    OrInsert,
    OrInsertWith,
    AndModifyOrDefault,
}

type Key = TypedKey<Tracked>;

#[derive(Default)]
struct Run {
    pool: HashMap<Key, u64>,
    /// Map model: slot index to the key that set the entry and its value's id.
    map: HashMap<usize, (Key, u64)>,
    /// Every key the pool gave out, in order: a key's age among its slot's keys.
    issued: HashMap<Key, usize>,
    keys: Vec<Key>,
    next_id: u64,
}

impl Run {
    fn value(&mut self, len: u8) -> Tracked {
        self.next_id += 1;
        Tracked::new(self.next_id, len)
    }

    fn pick(&self, i: u8) -> Option<Key> {
        (!self.keys.is_empty()).then(|| self.keys[usize::from(i) % self.keys.len()])
    }

    fn issue(&mut self, key: Key) {
        let age = self.issued.len();
        assert!(self.issued.insert(key, age).is_none(), "the pool gave out a key twice");
        self.keys.push(key);
    }

    fn added(&mut self, key: Key, id: u64) {
        assert!(self.pool.insert(key, id).is_none());
        self.issue(key);
    }

    /// Whether `a` is an older key of the same slot than `b`.
    fn older(&self, a: Key, b: Key) -> bool {
        a.index() == b.index() && self.issued[&a] < self.issued[&b]
    }

    /// What `SecondaryMap::insert(key, id)` does, in the model.
    fn map_insert(&mut self, key: Key, id: u64) -> Option<u64> {
        match self.map.get(&key.index()).copied() {
            Some((k, old)) if k == key => {
                self.map.insert(key.index(), (key, id));
                Some(old)
            }
            Some((k, _)) if self.older(key, k) => None,
            _ => {
                self.map.insert(key.index(), (key, id));
                None
            }
        }
    }

    fn map_get(&self, key: Key) -> Option<u64> {
        self.map.get(&key.index()).filter(|(k, _)| *k == key).map(|&(_, id)| id)
    }

    fn check(&self, pool: &KeyPool<Tracked>, map: &SecondaryMap<Key, Tracked>) {
        assert_eq!(pool.len(), self.pool.len());
        assert_eq!(map.len(), self.map.len());
        assert_eq!(Tracked::live(), self.pool.len() + self.map.len(), "a drop too many or too few");
        let stats = pool.stats();
        assert_eq!(stats.live, self.pool.len());
        assert!(stats.live + stats.free <= stats.capacity);
        let mut n = 0;
        for (key, value) in pool.iter() {
            assert_eq!(Some(&value.id()), self.pool.get(&key));
            n += 1;
        }
        assert_eq!(n, self.pool.len());
        assert_eq!(pool.keys().count(), n);
        assert_eq!(pool.values().count(), n);
        for &key in &self.keys {
            assert_eq!(pool.get(key).map(Tracked::id), self.pool.get(&key).copied());
            assert_eq!(pool.contains_key(key), self.pool.contains_key(&key));
            assert_eq!(map.get(key).map(Tracked::id), self.map_get(key));
            assert_eq!(TypedKey::from_raw(key.to_raw()), key);
        }
        let mut n = 0;
        for (key, value) in map.iter() {
            assert_eq!(self.map.get(&key.index()), Some(&(key, value.id())));
            n += 1;
        }
        assert_eq!(n, self.map.len());
    }
}

fn step(run: &mut Run, pool: &mut KeyPool<Tracked>, map: &mut SecondaryMap<Key, Tracked>, op: Op) {
    match op {
        Op::Insert(len) => {
            let v = run.value(len);
            let id = v.id();
            let key = pool.insert(v);
            run.added(key, id);
        }
        Op::TryInsert(len) => {
            let v = run.value(len);
            let id = v.id();
            let key = pool.try_insert(v).expect("memory to spare");
            run.added(key, id);
        }
        Op::Vacant { fill, forget, len } => {
            let entry = pool.vacant_entry();
            let key = entry.key();
            assert!(!run.pool.contains_key(&key));
            if fill {
                let v = run.value(len);
                let id = v.id();
                assert_eq!(entry.insert(v), key);
                run.added(key, id);
            } else {
                if forget {
                    std::mem::forget(entry);
                } else {
                    drop(entry);
                }
                run.issue(key);
            }
        }
        Op::InsertWithKey(len) => {
            run.next_id += 1;
            let id = run.next_id;
            let mut seen = None;
            let key = pool.insert_with_key(|k| {
                seen = Some(k);
                Tracked::new(id, len)
            });
            assert_eq!(seen, Some(key));
            run.added(key, id);
        }
        Op::Get(i) => {
            if let Some(key) = run.pick(i) {
                assert_eq!(pool.get(key).map(Tracked::id), run.pool.get(&key).copied());
            }
        }
        Op::GetMut(i) => {
            if let Some(key) = run.pick(i) {
                let live = run.pool.contains_key(&key);
                let v = run.value(1);
                let id = v.id();
                match pool.get_mut(key) {
                    Some(slot) => {
                        assert!(live, "a stale key reads a value");
                        *slot = v;
                        run.pool.insert(key, id);
                    }
                    None => assert!(!live),
                }
            }
        }
        Op::GetDisjointMut(a, b) => {
            if let (Some(a), Some(b)) = (run.pick(a), run.pick(b)) {
                let expected = run.pool.contains_key(&a)
                    && run.pool.contains_key(&b)
                    && a.index() != b.index();
                match pool.get_disjoint_mut([a, b]) {
                    Ok([x, y]) => {
                        assert!(expected, "disjoint access to a stale or repeated key");
                        assert_eq!((x.id(), y.id()), (run.pool[&a], run.pool[&b]));
                        std::mem::swap(x, y);
                        let (ia, ib) = (run.pool[&a], run.pool[&b]);
                        run.pool.insert(a, ib);
                        run.pool.insert(b, ia);
                    }
                    Err(_) => assert!(!expected),
                }
            }
        }
        Op::Remove(i) => {
            if let Some(key) = run.pick(i) {
                assert_eq!(pool.remove(key).map(|v| v.id()), run.pool.remove(&key));
            }
        }
        Op::Index(i) => {
            if let Some(key) = run.pick(i)
                && let Some(&id) = run.pool.get(&key)
            {
                assert_eq!(pool[key].id(), id);
            }
        }
        Op::Forged(raw) => {
            let key = TypedKey::<Tracked>::from_raw(raw);
            if (raw >> 32) & 3 == 1 {
                assert_eq!(key.to_raw(), raw, "raw bits with a key's version round-trip");
            } else {
                assert_ne!(key.to_raw(), raw, "bits no pool gives a key are parsed away");
            }
            assert_eq!(pool.get(key).map(Tracked::id), run.pool.get(&key).copied());
            assert_eq!(pool.contains_key(key), run.pool.contains_key(&key));
            assert_eq!(map.get(key).map(Tracked::id), run.map_get(key));
        }
        Op::Near(i, d) => {
            if let Some(key) = run.pick(i) {
                let raw = key.to_raw();
                let version = ((raw >> 32) as u32 & !3).wrapping_add(u32::from(d % 16));
                let near =
                    TypedKey::<Tracked>::from_raw((u64::from(version) << 32) | (raw & 0xffff_ffff));
                assert_eq!(pool.get(near).map(Tracked::id), run.pool.get(&near).copied());
                assert_eq!(map.get(near).map(Tracked::id), run.map_get(near));
                assert_eq!(pool.remove(near).map(|v| v.id()), run.pool.remove(&near));
            }
        }
        Op::Retain(mask) => {
            let mut visited = 0;
            pool.retain(|key, value| {
                assert_eq!(value.id(), run.pool[&key]);
                visited += 1;
                mask & (1 << (value.id() % 64)) != 0
            });
            assert_eq!(visited, run.pool.len());
            run.pool.retain(|_, id| mask & (1 << (*id % 64)) != 0);
        }
        Op::Clear => {
            pool.clear();
            run.pool.clear();
        }
        Op::Drain => {
            let mut got: Vec<(Key, u64)> = pool.drain().map(|(k, v)| (k, v.id())).collect();
            let mut expected: Vec<(Key, u64)> = run.pool.drain().collect();
            got.sort_unstable();
            expected.sort_unstable();
            assert_eq!(got, expected);
        }
        Op::ShrinkToFit => pool.shrink_to_fit(),
        Op::SetMaxFree(max) => pool.set_max_free(max.map(usize::from)),
        Op::Reserve(n) => {
            pool.reserve(usize::from(n));
            let stats = pool.stats();
            assert!(stats.capacity - stats.live >= usize::from(n));
        }
        Op::MapInsert(i, len) => {
            if let Some(key) = run.pick(i) {
                let v = run.value(len);
                let id = v.id();
                let expected = run.map_insert(key, id);
                assert_eq!(map.insert(key, v).map(|old| old.id()), expected);
            }
        }
        Op::MapRemove(i) => {
            if let Some(key) = run.pick(i) {
                let expected = run.map_get(key);
                if expected.is_some() {
                    run.map.remove(&key.index());
                }
                assert_eq!(map.remove(key).map(|v| v.id()), expected);
            }
        }
        Op::MapGet(i) => {
            if let Some(key) = run.pick(i) {
                assert_eq!(map.get(key).map(Tracked::id), run.map_get(key));
                assert_eq!(map.contains_key(key), run.map_get(key).is_some());
            }
        }
        Op::MapGetMut(i) => {
            if let Some(key) = run.pick(i) {
                let v = run.value(2);
                let id = v.id();
                match map.get_mut(key) {
                    Some(slot) => {
                        assert!(run.map_get(key).is_some());
                        *slot = v;
                        run.map.insert(key.index(), (key, id));
                    }
                    None => assert!(run.map_get(key).is_none()),
                }
            }
        }
        Op::MapEntry { key, how } => {
            if let Some(key) = run.pick(key) {
                let stale = run.map.get(&key.index()).is_some_and(|&(k, _)| run.older(key, k));
                let Some(entry) = map.entry(key) else {
                    assert!(stale, "entry refused a key that is not stale");
                    return;
                };
                assert!(!stale, "entry accepted a stale key");
                assert_eq!(entry.key(), key);
                let present = run.map_get(key);
                let v = run.value(4);
                let id = v.id();
                let got = match how {
                    EntryOp::OrInsert => entry.or_insert(v).id(),
                    EntryOp::OrInsertWith => entry.or_insert_with(|| v).id(),
                    EntryOp::AndModifyOrDefault => {
                        let mut modified = false;
                        let slot = entry.and_modify(|_| modified = true).or_insert(v);
                        assert_eq!(modified, present.is_some());
                        slot.id()
                    }
                };
                match present {
                    Some(old) => assert_eq!(got, old),
                    None => {
                        assert_eq!(got, id);
                        run.map.insert(key.index(), (key, id));
                    }
                }
            }
        }
        Op::MapRetain(mask) => {
            map.retain(|key, value| {
                assert_eq!(run.map.get(&key.index()), Some(&(key, value.id())));
                mask & (1 << (value.id() % 64)) != 0
            });
            run.map.retain(|_, (_, id)| mask & (1 << (*id % 64)) != 0);
        }
        Op::MapRetainLive => {
            map.retain(|key, _| pool.contains_key(key));
            run.map.retain(|_, (k, _)| run.pool.contains_key(k));
        }
        Op::MapClear => {
            map.clear();
            run.map.clear();
        }
        Op::MapDrain => {
            let mut got: Vec<(Key, u64)> = map.drain().map(|(k, v)| (k, v.id())).collect();
            let mut expected: Vec<(Key, u64)> = run.map.drain().map(|(_, kv)| kv).collect();
            got.sort_unstable();
            expected.sort_unstable();
            assert_eq!(got, expected);
        }
    }
}

fuzz_target!(|ops: Vec<Op>| {
    start();
    let mut run = Run::default();
    let mut pool = KeyPool::new();
    let mut map = SecondaryMap::new();
    for op in ops {
        step(&mut run, &mut pool, &mut map, op);
        run.check(&pool, &map);
    }
    drop((pool, map));
    assert_eq!(Tracked::live(), 0, "dropping the pool and the map drops every value once");
});
