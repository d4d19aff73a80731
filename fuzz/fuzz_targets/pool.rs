//! `Pool` against a `HashMap` from key to value: owning handles and checked keys,
//! vacant entries, retain, shrinking, the free-slot policy and drain, with every value,
//! key (stale ones included), handle, counter and drop checked after every step.
#![no_main]

use std::collections::HashMap;

use arbitrary::Arbitrary;
use arena_kit::{Handle, Key, Pool};
use arena_kit_fuzz::{Tracked, start};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Op {
    Insert(u8),
    TryInsert(u8),
    InsertKeyed(u8),
    TryInsertKeyed(u8),
    /// A vacant entry filled (as owned or keyed) or dropped unfilled.
    Vacant {
        fill: Option<bool>,
        len: u8,
    },
    InsertWithKey(u8),
    Get(u8),
    /// Overwrites a handle's value (the old one drops).
    GetMut(u8),
    Remove(u8),
    KeyOf(u8),
    IntoKey(u8),
    TakeHandle(u8),
    GetKey(u8),
    GetKeyMut(u8),
    RemoveKey(u8),
    Index(u8),
    Retain(u64),
    ClearKeyed,
    ShrinkToFit,
    SetMaxFree(Option<u8>),
    Reserve(u8),
    IterMut,
    Drain,
}

#[derive(Clone, Copy)]
struct Entry {
    id: u64,
    owned: bool,
}

struct Run<'id> {
    model: HashMap<Key<'id>, Entry>,
    handles: Vec<Handle<'id>>,
    /// Every key ever made, stale ones included.
    keys: Vec<Key<'id>>,
    next_id: u64,
    peak: usize,
}

impl<'id> Run<'id> {
    fn value(&mut self, len: u8) -> Tracked {
        self.next_id += 1;
        Tracked::new(self.next_id, len)
    }

    fn pick_key(&self, i: u8) -> Option<Key<'id>> {
        (!self.keys.is_empty()).then(|| self.keys[usize::from(i) % self.keys.len()])
    }

    fn pick_handle(&self, i: u8) -> Option<usize> {
        (!self.handles.is_empty()).then(|| usize::from(i) % self.handles.len())
    }

    fn added(&mut self, key: Key<'id>, id: u64, owned: bool) {
        assert!(self.model.insert(key, Entry { id, owned }).is_none(), "a key named two values");
        self.keys.push(key);
        self.peak = self.peak.max(self.model.len());
    }

    fn check(&self, pool: &Pool<'id, Tracked>) {
        assert_eq!(pool.len(), self.model.len());
        assert_eq!(pool.is_empty(), self.model.is_empty());
        let stats = pool.stats();
        assert_eq!(stats.live, self.model.len());
        assert_eq!(stats.capacity, pool.capacity());
        assert!(stats.live + stats.free <= stats.capacity, "{stats:?}");
        assert_eq!(stats.peak, self.peak, "peak: most values ever live at once");
        assert_eq!(Tracked::live(), self.model.len(), "a value dropped early, twice, or leaked");
        let mut seen = 0;
        for (key, value) in pool.iter() {
            let entry = self.model.get(&key).expect("iter yields a key the model lacks");
            assert_eq!(value.id(), entry.id);
            seen += 1;
        }
        assert_eq!(seen, self.model.len());
        for &key in &self.keys {
            match self.model.get(&key) {
                Some(entry) => {
                    assert_eq!(pool.get_key(key).map(Tracked::id), Some(entry.id));
                    assert!(pool.contains_key(key));
                }
                None => {
                    assert!(pool.get_key(key).is_none(), "a stale key reads a value");
                    assert!(!pool.contains_key(key));
                }
            }
        }
        for handle in &self.handles {
            let key = pool.key(handle);
            let entry = self.model[&key];
            assert!(entry.owned, "a handle's value is marked owned");
            assert_eq!(pool.get(handle).id(), entry.id);
            assert_eq!(handle.index(), key.index());
        }
    }
}

fn step<'id>(run: &mut Run<'id>, pool: &mut Pool<'id, Tracked>, op: Op) {
    match op {
        Op::Insert(len) => {
            let v = run.value(len);
            let id = v.id();
            let h = pool.insert(v);
            let key = pool.key(&h);
            run.added(key, id, true);
            run.handles.push(h);
        }
        Op::TryInsert(len) => {
            let v = run.value(len);
            let id = v.id();
            let h = pool.try_insert(v).expect("no limit, memory to spare");
            run.added(pool.key(&h), id, true);
            run.handles.push(h);
        }
        Op::InsertKeyed(len) => {
            let v = run.value(len);
            let id = v.id();
            let key = pool.insert_keyed(v);
            run.added(key, id, false);
        }
        Op::TryInsertKeyed(len) => {
            let v = run.value(len);
            let id = v.id();
            let key = pool.try_insert_keyed(v).expect("no limit, memory to spare");
            run.added(key, id, false);
        }
        Op::Vacant { fill, len } => {
            let entry = pool.vacant_entry();
            let key = entry.key();
            assert!(!run.model.contains_key(&key), "a vacant entry's key names a live value");
            match fill {
                None => {
                    drop(entry);
                    // Never filled: the key it showed stays stale.
                    run.keys.push(key);
                }
                Some(owned) => {
                    let v = run.value(len);
                    let id = v.id();
                    if owned {
                        let h = entry.insert(v);
                        assert_eq!(pool.key(&h), key, "the entry's key names its value");
                        run.handles.push(h);
                    } else {
                        assert_eq!(entry.insert_keyed(v), key);
                    }
                    run.added(key, id, owned);
                }
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
            assert_eq!(seen, Some(key), "the closure is given the value's own key");
            run.added(key, id, false);
        }
        Op::Get(i) => {
            if let Some(i) = run.pick_handle(i) {
                let h = &run.handles[i];
                assert_eq!(pool[h].id(), run.model[&pool.key(h)].id);
            }
        }
        Op::GetMut(i) => {
            if let Some(i) = run.pick_handle(i) {
                let v = run.value(3);
                let id = v.id();
                let key = pool.key(&run.handles[i]);
                *pool.get_mut(&run.handles[i]) = v;
                run.model.get_mut(&key).unwrap().id = id;
            }
        }
        Op::Remove(i) => {
            if let Some(i) = run.pick_handle(i) {
                let h = run.handles.swap_remove(i);
                let key = pool.key(&h);
                let v = pool.remove(h);
                let entry = run.model.remove(&key).expect("a handle's value is in the model");
                assert_eq!(v.id(), entry.id);
            }
        }
        Op::KeyOf(i) => {
            if let Some(i) = run.pick_handle(i) {
                let key = pool.key(&run.handles[i]);
                assert!(run.model.contains_key(&key));
                run.keys.push(key);
            }
        }
        Op::IntoKey(i) => {
            if let Some(i) = run.pick_handle(i) {
                let h = run.handles.swap_remove(i);
                let before = pool.key(&h);
                let key = pool.into_key(h);
                assert_eq!(key, before, "giving up ownership keeps the key");
                run.model.get_mut(&key).unwrap().owned = false;
                run.keys.push(key);
            }
        }
        Op::TakeHandle(i) => {
            if let Some(key) = run.pick_key(i) {
                let h = pool.take_handle(key);
                let expected = run.model.get(&key).is_some_and(|e| !e.owned);
                assert_eq!(h.is_some(), expected, "take_handle: live and unowned only");
                if let Some(h) = h {
                    run.model.get_mut(&key).unwrap().owned = true;
                    run.handles.push(h);
                }
            }
        }
        Op::GetKey(i) => {
            if let Some(key) = run.pick_key(i) {
                assert_eq!(pool.get_key(key).map(Tracked::id), run.model.get(&key).map(|e| e.id));
            }
        }
        Op::GetKeyMut(i) => {
            if let Some(key) = run.pick_key(i) {
                let live = run.model.contains_key(&key);
                match pool.get_key_mut(key) {
                    Some(slot) => {
                        assert!(live, "a stale key reads a value mutably");
                        run.next_id += 1;
                        *slot = Tracked::new(run.next_id, 1);
                        run.model.get_mut(&key).unwrap().id = run.next_id;
                    }
                    None => assert!(!live),
                }
            }
        }
        Op::RemoveKey(i) => {
            if let Some(key) = run.pick_key(i) {
                let removed = pool.remove_key(key);
                match run.model.get(&key).copied() {
                    Some(e) if !e.owned => {
                        assert_eq!(removed.map(|v| v.id()), Some(e.id));
                        run.model.remove(&key);
                    }
                    _ => assert!(removed.is_none(), "a stale or owned key removed a value"),
                }
            }
        }
        Op::Index(i) => {
            if let Some(key) = run.pick_key(i)
                && let Some(e) = run.model.get(&key)
            {
                assert_eq!(pool[key].id(), e.id);
            }
        }
        Op::Retain(mask) => {
            let mut visited = 0;
            pool.retain(|key, value| {
                let e = run.model[&key];
                assert!(!e.owned, "retain visits an owned value");
                assert_eq!(value.id(), e.id);
                visited += 1;
                mask & (1 << (e.id % 64)) != 0
            });
            assert_eq!(visited, run.model.values().filter(|e| !e.owned).count());
            run.model.retain(|_, e| e.owned || mask & (1 << (e.id % 64)) != 0);
        }
        Op::ClearKeyed => {
            pool.clear();
            run.model.retain(|_, e| e.owned);
        }
        Op::ShrinkToFit => {
            pool.shrink_to_fit();
            let stats = pool.stats();
            assert!(stats.capacity >= stats.live + stats.free);
        }
        Op::SetMaxFree(max) => pool.set_max_free(max.map(usize::from)),
        Op::Reserve(n) => {
            pool.reserve(usize::from(n));
            let stats = pool.stats();
            assert!(stats.capacity - stats.live >= usize::from(n), "reserve makes room");
        }
        Op::IterMut => {
            for (key, value) in pool.iter_mut() {
                assert_eq!(value.id(), run.model[&key].id);
                run.next_id += 1;
                *value = Tracked::new(run.next_id, 2);
                run.model.get_mut(&key).unwrap().id = run.next_id;
            }
        }
        Op::Drain => unreachable!("handled by the caller"),
    }
}

fuzz_target!(|ops: Vec<Op>| {
    start();
    Pool::with(|mut pool: Pool<'_, Tracked>| {
        let mut run = Run {
            model: HashMap::new(),
            handles: Vec::new(),
            keys: Vec::new(),
            next_id: 0,
            peak: 0,
        };
        for op in ops {
            if let Op::Drain = op {
                let mut expected: Vec<u64> = run.model.values().map(|e| e.id).collect();
                let mut got: Vec<u64> = pool.drain().map(|v| v.id()).collect();
                expected.sort_unstable();
                got.sort_unstable();
                assert_eq!(got, expected, "drain yields every value once");
                assert_eq!(Tracked::live(), 0);
                return;
            }
            step(&mut run, &mut pool, op);
            run.check(&pool);
        }
        drop(pool);
        assert_eq!(Tracked::live(), 0, "dropping the pool drops every value once");
    });
});
