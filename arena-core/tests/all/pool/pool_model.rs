//! Random operation sequences on a `Pool` against a `HashMap` model, for both kinds of
//! name: owning handles (kept in a `Vec`) and keys (some of them stale on purpose).

use std::collections::HashMap;

use arena_kit::{Handle, Key, Pool};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    Insert(u32),
    InsertKeyed(u32),
    /// Remove the handle at this position (modulo the number held).
    Remove(usize),
    /// Use the key at this position (modulo the number ever made): get, then remove.
    RemoveKey(usize),
    GetKey(usize),
    /// Give up a handle's ownership.
    IntoKey(usize),
    /// Take ownership of a keyed value.
    TakeHandle(usize),
    RetainEven,
    Shrink,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => any::<u32>().prop_map(Op::Insert),
        4 => any::<u32>().prop_map(Op::InsertKeyed),
        3 => any::<usize>().prop_map(Op::Remove),
        3 => any::<usize>().prop_map(Op::RemoveKey),
        2 => any::<usize>().prop_map(Op::GetKey),
        1 => any::<usize>().prop_map(Op::IntoKey),
        1 => any::<usize>().prop_map(Op::TakeHandle),
        1 => Just(Op::RetainEven),
        1 => Just(Op::Shrink),
    ]
}

fn run(ops: &[Op]) -> Result<(), TestCaseError> {
    Pool::with(|mut pool| {
        // Model: live values by their key; which of them a handle owns.
        let mut model: HashMap<Key<'_>, (u32, bool)> = HashMap::new();
        let mut handles: Vec<Handle<'_>> = Vec::new();
        let mut keys: Vec<Key<'_>> = Vec::new();
        for op in ops {
            match *op {
                Op::Insert(v) => {
                    let h = pool.insert(v);
                    let k = pool.key(&h);
                    prop_assert!(model.insert(k, (v, true)).is_none(), "keys are never reused");
                    keys.push(k);
                    handles.push(h);
                }
                Op::InsertKeyed(v) => {
                    let k = pool.insert_keyed(v);
                    prop_assert!(model.insert(k, (v, false)).is_none(), "keys are never reused");
                    keys.push(k);
                }
                Op::Remove(i) if !handles.is_empty() => {
                    let h = handles.swap_remove(i % handles.len());
                    let k = pool.key(&h);
                    let expected = model.remove(&k).map(|(v, _)| v);
                    prop_assert_eq!(Some(pool.remove(h)), expected);
                }
                Op::RemoveKey(i) if !keys.is_empty() => {
                    let k = keys[i % keys.len()];
                    let expected = match model.get(&k) {
                        Some(&(v, false)) => {
                            model.remove(&k);
                            Some(v)
                        }
                        _ => None,
                    };
                    prop_assert_eq!(pool.remove_key(k), expected);
                }
                Op::GetKey(i) if !keys.is_empty() => {
                    let k = keys[i % keys.len()];
                    prop_assert_eq!(pool.get_key(k).copied(), model.get(&k).map(|&(v, _)| v));
                }
                Op::IntoKey(i) if !handles.is_empty() => {
                    let h = handles.swap_remove(i % handles.len());
                    let k = pool.into_key(h);
                    model.get_mut(&k).expect("a handle's value is live").1 = false;
                }
                Op::TakeHandle(i) if !keys.is_empty() => {
                    let k = keys[i % keys.len()];
                    let expected = matches!(model.get(&k), Some((_, false)));
                    let h = pool.take_handle(k);
                    prop_assert_eq!(h.is_some(), expected);
                    if let Some(h) = h {
                        model.get_mut(&k).expect("checked above").1 = true;
                        handles.push(h);
                    }
                }
                Op::RetainEven => {
                    pool.retain(|_, v| *v % 2 == 0);
                    model.retain(|_, &mut (v, owned)| owned || v % 2 == 0);
                }
                Op::Shrink => pool.shrink_to_fit(),
                _ => {}
            }
            prop_assert_eq!(pool.len(), model.len());
            for h in &handles {
                let k = pool.key(h);
                prop_assert_eq!(Some(*pool.get(h)), model.get(&k).map(|&(v, _)| v));
            }
        }
        let mut live: Vec<u32> = pool.iter().map(|(_, v)| *v).collect();
        let mut expected: Vec<u32> = model.values().map(|&(v, _)| v).collect();
        live.sort_unstable();
        expected.sort_unstable();
        prop_assert_eq!(live, expected);
        Ok(())
    })
}

proptest! {
    #![proptest_config(crate::common::proptest_config(256))]

    #[test]
    fn random_pool_programs_match_a_hashmap(ops in prop::collection::vec(op(), 0..if cfg!(miri) { 40 } else { 200 })) {
        run(&ops)?;
    }
}
