//! `RowIndex` (the handle side of struct-of-arrays storage) with a column kept by hand, as
//! the generated code keeps it (each row's value beside its slot, and `moved` told after
//! every swap-remove): random programs against a `HashMap` model, checking after every
//! step that each live handle and key finds its own value and the rows stay dense.

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

/// Swap-removes `row` from the column and tells the index which slot moved into it.
fn swap_remove(index: &mut RowIndex<'_>, column: &mut Vec<(u32, u32)>, row: usize) -> u32 {
    let (_, value) = column.swap_remove(row);
    if let Some(&(slot, _)) = column.get(row) {
        index.moved(slot, row);
    }
    value
}

fn slot(key: Key<'_>) -> u32 {
    u32::try_from(key.index()).expect("slots are u32")
}

fn run(ops: &[Op]) -> Result<(), TestCaseError> {
    RowIndex::with(|mut index| {
        // (slot, value) per row.
        let mut column: Vec<(u32, u32)> = Vec::new();
        // Live handles with their value; every key ever made with the value it was made for.
        let mut handles: Vec<(Handle<'_>, u32)> = Vec::new();
        let mut keys: Vec<(Key<'_>, u32)> = Vec::new();
        let mut model: HashMap<Key<'_>, u32> = HashMap::new();
        for op in ops {
            match *op {
                Op::Insert(v) => {
                    let h = index.insert(column.len());
                    column.push((slot(index.key(&h)), v));
                    model.insert(index.key(&h), v);
                    handles.push((h, v));
                }
                Op::InsertKeyed(v) => {
                    let k = index.insert_keyed(column.len());
                    column.push((slot(k), v));
                    model.insert(k, v);
                    keys.push((k, v));
                }
                Op::Remove(i) if !handles.is_empty() => {
                    let (h, v) = handles.swap_remove(i % handles.len());
                    let k = index.key(&h);
                    let row = index.remove(h);
                    prop_assert_eq!(swap_remove(&mut index, &mut column, row), v);
                    model.remove(&k);
                }
                Op::RemoveKey(i) if !keys.is_empty() => {
                    let (k, v) = keys[i % keys.len()];
                    let owned = handles.iter().any(|(h, _)| index.key(h) == k);
                    match index.remove_key(k) {
                        Some(row) => {
                            prop_assert!(!owned);
                            prop_assert_eq!(swap_remove(&mut index, &mut column, row), v);
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
                prop_assert_eq!(column[index.row(h)].1, *v);
            }
            for (k, v) in &keys {
                match index.key_row(*k) {
                    Some(row) => {
                        prop_assert_eq!(Some(&column[row].1), model.get(k).filter(|m| *m == v));
                    }
                    None => prop_assert!(!model.contains_key(k)),
                }
            }
            for (row, &(slot, _)) in column.iter().enumerate() {
                let k = index.key_of_slot(slot);
                prop_assert_eq!(index.key_row(k), Some(row), "each row's slot names it");
            }
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
        let names: Vec<_> = (0..4).map(|row| index.insert_keyed(row)).collect();
        assert_eq!(index.remove_key(names[1]), Some(1));
        // Row 3 (names[3]) moved into row 1.
        index.moved(slot(names[3]), 1);
        assert_eq!(index.key_row(names[3]), Some(1));
        assert_eq!(index.key_of_slot(slot(names[3])), names[3]);
        assert_eq!(index.stats().live, 3);
        let text = format!("{index:?}");
        assert!(text.contains("rows: 3"), "{text}");
    });
}

#[test]
fn a_vacant_slot_told_it_moved_panics_and_the_index_stays_whole() {
    RowIndex::with(|mut index| {
        let a = index.insert_keyed(0);
        let b = index.insert_keyed(1);
        assert_eq!(index.remove_key(a), Some(0));
        let told = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            index.moved(slot(a), 0); // the slot column was not this index's
        }));
        assert!(told.is_err());
        assert_eq!(index.key_row(b), Some(1), "nothing else changed");
        assert_eq!(index.key_row(a), None);
    });
}
