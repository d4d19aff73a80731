//! A `#[derive(ArenaAlloc)] #[arena(soa)]` pool against a `Vec<Option<T>>` by slot: rows
//! move on removal (swap-remove) while handles and keys stay put, so every handle, key
//! (stale ones included), row and column is checked after every step, and every value's
//! field with a destructor is dropped exactly once.
#![no_main]

use arbitrary::Arbitrary;
use arena_kit::ArenaAlloc;
use arena_kit_fuzz::{Tracked, start};
use libfuzzer_sys::fuzz_target;

#[derive(ArenaAlloc)]
#[arena(soa)]
struct Item {
    weight: u32,
    tag: Tracked,
}

#[derive(Arbitrary, Debug)]
enum Op {
    Insert(u32),
    TryInsert(u32),
    InsertKeyed(u32),
    Remove(u8),
    RemoveKey(u8),
    KeyOf(u8),
    IntoKey(u8),
    TakeHandle(u8),
    SetWeight(u8, u32),
    /// Replaces a value's `tag` through the column (the old one drops).
    SetTagInColumn(u8),
    Reserve(u8),
    /// `retain`: drops the keyed values whose weight is odd if `odd`, else even.
    Retain(bool),
    /// Adds to every weight through `iter_mut`.
    AddToAll(u32),
}

/// Records `k` as the newest key of its slot.
fn note_key<'id>(newest: &mut Vec<Option<ItemKey<'id>>>, k: ItemKey<'id>) {
    let i = k.index();
    if newest.len() <= i {
        newest.resize(i + 1, None);
    }
    newest[i] = Some(k);
}

/// The model's value of a slot.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Value {
    weight: u32,
    tag: u64,
    owned: bool,
}

fuzz_target!(|ops: Vec<Op>| {
    start();
    ItemPool::with(|mut pool| {
        let mut model: Vec<Option<Value>> = Vec::new();
        let mut handles: Vec<ItemHandle<'_>> = Vec::new();
        let mut keys: Vec<ItemKey<'_>> = Vec::new();
        // The newest key of each slot: a key is live iff it is its slot's newest and the
        // slot holds a value.
        let mut newest: Vec<Option<ItemKey<'_>>> = Vec::new();
        let mut next_id = 0_u64;
        let mut tag = |len: u8| {
            next_id += 1;
            Tracked::new(next_id, len)
        };
        let set = |model: &mut Vec<Option<Value>>, i: usize, v: Option<Value>| {
            if model.len() <= i {
                model.resize(i + 1, None);
            }
            model[i] = v;
        };
        for op in ops {
            match op {
                Op::Insert(weight) | Op::TryInsert(weight) => {
                    let t = tag(1);
                    let id = t.id();
                    let item = Item { weight, tag: t };
                    let h = if let Op::Insert(_) = op {
                        pool.insert(item)
                    } else {
                        pool.try_insert(item).unwrap_or_else(|_| panic!("memory to spare"))
                    };
                    let k = pool.key(&h);
                    assert!(model.get(k.index()).is_none_or(Option::is_none), "slot taken");
                    set(&mut model, k.index(), Some(Value { weight, tag: id, owned: true }));
                    note_key(&mut newest, k);
                    keys.push(k);
                    handles.push(h);
                }
                Op::InsertKeyed(weight) => {
                    let t = tag(2);
                    let id = t.id();
                    let k = pool.insert_keyed(Item { weight, tag: t });
                    assert!(model.get(k.index()).is_none_or(Option::is_none), "slot taken");
                    set(&mut model, k.index(), Some(Value { weight, tag: id, owned: false }));
                    note_key(&mut newest, k);
                    keys.push(k);
                }
                Op::Remove(i) if !handles.is_empty() => {
                    let h = handles.swap_remove(usize::from(i) % handles.len());
                    let slot = h.index();
                    let item = pool.remove(h);
                    let v = model[slot].take().expect("a handle's slot holds a value");
                    assert_eq!((item.weight, item.tag.id()), (v.weight, v.tag));
                }
                Op::RemoveKey(i) if !keys.is_empty() => {
                    let k = keys[usize::from(i) % keys.len()];
                    let live = newest.get(k.index()) == Some(&Some(k));
                    let v = model.get(k.index()).copied().flatten().filter(|_| live);
                    match pool.remove_key(k) {
                        Some(item) => {
                            let v = v.expect("a stale key removed a value");
                            assert!(!v.owned, "a key removed an owned value");
                            assert_eq!((item.weight, item.tag.id()), (v.weight, v.tag));
                            model[k.index()] = None;
                        }
                        None => assert!(v.is_none_or(|v| v.owned), "a live key removed nothing"),
                    }
                }
                Op::KeyOf(i) if !handles.is_empty() => {
                    let k = pool.key(&handles[usize::from(i) % handles.len()]);
                    assert_eq!(newest[k.index()], Some(k), "a handle's key is its slot's newest");
                    keys.push(k);
                }
                Op::IntoKey(i) if !handles.is_empty() => {
                    let h = handles.swap_remove(usize::from(i) % handles.len());
                    let slot = h.index();
                    let k = pool.into_key(h);
                    assert_eq!(k.index(), slot);
                    model[slot].as_mut().unwrap().owned = false;
                    keys.push(k);
                }
                Op::TakeHandle(i) if !keys.is_empty() => {
                    let k = keys[usize::from(i) % keys.len()];
                    let live = newest.get(k.index()) == Some(&Some(k));
                    let free =
                        live && model.get(k.index()).copied().flatten().is_some_and(|v| !v.owned);
                    match pool.take_handle(k) {
                        Some(h) => {
                            assert!(free, "take_handle on a stale or owned key");
                            model[k.index()].as_mut().unwrap().owned = true;
                            handles.push(h);
                        }
                        None => assert!(!free),
                    }
                }
                Op::SetWeight(i, w) if !handles.is_empty() => {
                    let h = &handles[usize::from(i) % handles.len()];
                    *pool.weight_mut(h) = w;
                    model[h.index()].as_mut().unwrap().weight = w;
                }
                Op::SetTagInColumn(i) if !keys.is_empty() => {
                    let k = keys[usize::from(i) % keys.len()];
                    if let Some(row) = pool.rows().key_row(k) {
                        let t = tag(3);
                        let id = t.id();
                        pool.tag_column_mut()[row] = t;
                        model[k.index()].as_mut().unwrap().tag = id;
                    }
                }
                Op::Reserve(n) => pool.reserve(usize::from(n)),
                Op::Retain(odd) => {
                    let dies = |weight: u32| (weight % 2 == 1) == odd;
                    let unowned = model.iter().flatten().filter(|v| !v.owned).count();
                    let mut seen = 0;
                    pool.retain(|k, row| {
                        let v = model[k.index()].expect("a visited row's slot holds a value");
                        assert!(!v.owned, "retain visited a value a handle owns");
                        assert_eq!((*row.weight, row.tag.id()), (v.weight, v.tag), "key and row");
                        seen += 1;
                        !dies(*row.weight)
                    });
                    assert_eq!(seen, unowned, "retain visits every keyed value once");
                    for v in &mut model {
                        if v.is_some_and(|v| !v.owned && dies(v.weight)) {
                            *v = None;
                        }
                    }
                }
                Op::AddToAll(d) => {
                    for (k, row) in pool.iter_mut() {
                        *row.weight = row.weight.wrapping_add(d);
                        let v = model[k.index()].as_mut().expect("a row's slot holds a value");
                        v.weight = v.weight.wrapping_add(d);
                    }
                }
                _ => {}
            }
            // The checks.
            let live: Vec<(usize, Value)> =
                model.iter().enumerate().filter_map(|(i, v)| v.map(|v| (i, v))).collect();
            assert_eq!(pool.len(), live.len());
            assert_eq!(pool.is_empty(), live.is_empty());
            assert_eq!(Tracked::live(), live.len(), "a field dropped early, twice or leaked");
            assert_eq!(pool.weight_column().len(), live.len());
            assert_eq!(pool.tag_column().len(), live.len());
            for row in 0..live.len() {
                let k = pool.key_at_row(row).expect("every row has a key");
                assert_eq!(newest[k.index()], Some(k), "a row's key is live");
                let v = model[k.index()].expect("a row's slot holds a value");
                assert_eq!(pool.weight_column()[row], v.weight);
                assert_eq!(pool.tag_column()[row].id(), v.tag);
                assert_eq!(pool.rows().key_row(k), Some(row));
            }
            assert!(pool.key_at_row(live.len()).is_none());
            for h in &handles {
                let v = model[h.index()].expect("a handle's slot holds a value");
                assert!(v.owned);
                assert_eq!((*pool.weight(h), pool.tag(h).id()), (v.weight, v.tag));
                assert_eq!(pool.weight_column()[pool.rows().row(h)], v.weight);
            }
            for &k in &keys {
                let live = newest.get(k.index()) == Some(&Some(k))
                    && model.get(k.index()).copied().flatten().is_some();
                assert_eq!(pool.contains_key(k), live, "contains_key of {k:?}");
                assert_eq!(pool.rows().key_row(k).is_some(), live);
            }
        }
        drop(pool);
        assert_eq!(Tracked::live(), 0, "dropping the pool drops every field once");
    });
});
