//! `RowIndex` (the handle side of struct-of-arrays storage) with a column kept by hand, as
//! the generated code keeps it: random programs against a `HashMap` model, checking after
//! every step that each live handle and key finds its own value and the rows stay dense.

use std::collections::HashMap;

use arena_kit::{Brand, Handle, Key, pool::soa::RowIndex};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    Insert(u32),
    InsertKeyed(u32),
    Remove(usize),
    RemoveKey(usize),
    IntoKey(usize),
    TakeHandle(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => any::<u32>().prop_map(Op::Insert),
        4 => any::<u32>().prop_map(Op::InsertKeyed),
        3 => any::<usize>().prop_map(Op::Remove),
        3 => any::<usize>().prop_map(Op::RemoveKey),
        1 => any::<usize>().prop_map(Op::IntoKey),
        1 => any::<usize>().prop_map(Op::TakeHandle),
    ]
}

fn run(ops: &[Op]) -> Result<(), TestCaseError> {
    RowIndex::with(|mut index| {
        let mut column: Vec<u32> = Vec::new();
        // Live handles with their value; every key ever made with the value it was made for.
        let mut handles: Vec<(Handle<'_>, u32)> = Vec::new();
        let mut keys: Vec<(Key<'_>, u32)> = Vec::new();
        let mut model: HashMap<Key<'_>, u32> = HashMap::new();
        for op in ops {
            match *op {
                Op::Insert(v) => {
                    let h = index.insert();
                    column.push(v);
                    model.insert(index.key(&h), v);
                    handles.push((h, v));
                }
                Op::InsertKeyed(v) => {
                    let k = index.insert_keyed();
                    column.push(v);
                    model.insert(k, v);
                    keys.push((k, v));
                }
                Op::Remove(i) if !handles.is_empty() => {
                    let (h, v) = handles.swap_remove(i % handles.len());
                    let k = index.key(&h);
                    let row = index.remove(h);
                    prop_assert_eq!(column.swap_remove(row), v);
                    model.remove(&k);
                }
                Op::RemoveKey(i) if !keys.is_empty() => {
                    let (k, v) = keys[i % keys.len()];
                    let owned = handles.iter().any(|(h, _)| index.key(h) == k);
                    match index.remove_key(k) {
                        Some(row) => {
                            prop_assert!(!owned);
                            prop_assert_eq!(column.swap_remove(row), v);
                            prop_assert_eq!(model.remove(&k), Some(v));
                        }
                        None => prop_assert!(owned || !model.contains_key(&k)),
                    }
                }
                Op::IntoKey(i) if !handles.is_empty() => {
                    let (h, v) = handles.swap_remove(i % handles.len());
                    keys.push((index.into_key(h), v));
                }
                Op::TakeHandle(i) if !keys.is_empty() => {
                    let (k, v) = keys[i % keys.len()];
                    let owned = handles.iter().any(|(h, _)| index.key(h) == k);
                    match index.take_handle(k) {
                        Some(h) => {
                            prop_assert!(!owned && model.contains_key(&k));
                            handles.push((h, v));
                        }
                        None => prop_assert!(owned || !model.contains_key(&k)),
                    }
                }
                _ => {}
            }
            prop_assert_eq!(index.len(), column.len());
            prop_assert_eq!(index.len(), model.len());
            for (h, v) in &handles {
                prop_assert_eq!(column[index.row(h)], *v);
            }
            for (k, v) in &keys {
                match index.key_row(*k) {
                    Some(row) => {
                        prop_assert_eq!(Some(&column[row]), model.get(k).filter(|m| *m == v));
                    }
                    None => prop_assert!(!model.contains_key(k)),
                }
            }
            for row in 0..index.len() {
                let k = index.key_at_row(row).expect("rows below len have keys");
                prop_assert_eq!(index.key_row(k), Some(row));
            }
            prop_assert_eq!(index.key_at_row(index.len()), None);
        }
        Ok(())
    })
}

proptest! {
    #![proptest_config(crate::common::proptest_config(256))]

    #[test]
    fn random_row_programs_keep_columns_dense_and_names_right(
        ops in prop::collection::vec(op(), 0..if cfg!(miri) { 40 } else { 200 })
    ) {
        run(&ops)?;
    }
}

#[test]
fn a_brand_makes_one_index_and_rows_follow_swap_removes() {
    Brand::with(|brand| {
        let mut index = RowIndex::new_in(brand);
        let names: Vec<_> = (0..4).map(|_| index.insert_keyed()).collect();
        assert_eq!(index.remove_key(names[1]), Some(1));
        // Row 3 (names[3]) moved into row 1.
        assert_eq!(index.key_row(names[3]), Some(1));
        assert_eq!(index.key_at_row(1), Some(names[3]));
        assert_eq!(index.stats().live, 3);
        let text = format!("{index:?}");
        assert!(text.contains("rows: 3"), "{text}");
    });
}
