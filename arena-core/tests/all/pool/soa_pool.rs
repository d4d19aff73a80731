//! The struct-of-arrays pool (`#[derive(ArenaAlloc)]` with `#[arena(soa)]` over
//! `SoaPool`): random programs against a model (insert by handle and key, remove by
//! handle and key, stale keys, retain, mutation through row views), checking after every
//! step that lookups, iteration order, column lengths and drop counts agree; panics
//! half-way through `retain` (in `keep` or a field's destructor, at every row, for every
//! mix of owned and keyed rows); a hand-written `SoaRow` that breaks its contract, which may
//! panic but never misbehave in memory (run under Miri).
#![expect(
    clippy::cast_precision_loss,
    clippy::float_cmp,
    reason = "masses are small whole numbers, exact in f32"
)]

use std::cell::Cell;
use std::mem::MaybeUninit;

use arena_kit::pool::soa::{self, SoaStorage};
use arena_kit::pool::{Fixed, Heap, Memory};
use arena_kit::{AllocError, ArenaAlloc, Handle, Key, SoaPool, SoaRow};
use proptest::prelude::*;

use crate::common::Counted;

/// A particle whose third field counts its drops.
#[derive(ArenaAlloc)]
#[arena(soa, row_derive(Debug))]
struct Particle<'c> {
    id: u32,
    mass: f32,
    tag: Counted<'c>,
}

#[derive(Debug, Clone)]
enum Op {
    Insert { owned: bool },
    Remove(usize),
    RemoveKey(usize),
    Retain(u32),
    Heavier(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => any::<bool>().prop_map(|owned| Op::Insert { owned }),
        2 => any::<usize>().prop_map(Op::Remove),
        3 => any::<usize>().prop_map(Op::RemoveKey),
        1 => (2..5_u32).prop_map(Op::Retain),
        2 => any::<usize>().prop_map(Op::Heavier),
    ]
}

/// The model: value `id`'s mass while it is in the pool, and whether a handle owns it.
type Model = Vec<Option<(f32, bool)>>;

fn check<'id, M: Memory>(
    pool: &ParticlePool<'id, '_, M>,
    model: &Model,
    handles: &[(Handle<'id>, u32)],
    keys: &[(Key<'id>, u32)],
) -> Result<(), TestCaseError> {
    let live = model.iter().flatten().count();
    prop_assert_eq!(pool.len(), live);
    let ParticleColumns { id, mass, tag } = pool.columns();
    prop_assert_eq!((id.len(), mass.len(), tag.len()), (live, live, live));
    for (h, want) in handles {
        let row = pool.get(h);
        prop_assert_eq!(*row.id, *want);
        prop_assert_eq!(Some(*row.mass), model[*want as usize].map(|(m, _)| m));
        prop_assert_eq!(pool.tag(h).id, *want as usize);
    }
    for (k, want) in keys {
        let found = pool.get_key(*k).map(|row| (*row.id, *row.mass));
        prop_assert_eq!(found, model[*want as usize].map(|(m, _)| (*want, m)));
    }
    // Iteration: row order, one key per row that names that row, both ends agree.
    let rows: Vec<(Key<'id>, u32)> = pool.iter().map(|(k, row)| (k, *row.id)).collect();
    prop_assert_eq!(rows.len(), live);
    for (row, (k, v)) in rows.iter().enumerate() {
        prop_assert_eq!(id[row], *v);
        prop_assert_eq!(pool.rows().key_row(*k), Some(row));
    }
    let mut back: Vec<u32> = pool.iter().rev().map(|(_, row)| *row.id).collect();
    back.reverse();
    prop_assert_eq!(back, id.to_vec());
    Ok(())
}

fn run(ops: &[Op]) -> Result<(), TestCaseError> {
    let drops = Cell::new(0);
    let mut inserted = 0;
    ParticlePool::with(|mut pool| drive(&mut pool, ops, &drops, &mut inserted))?;
    prop_assert_eq!(drops.get(), inserted);
    Ok(())
}

/// [`run`] over a caller's storage, room for every insert of the longest program: the
/// same pool code on `Fixed` memory must agree with the same model.
fn run_in_storage(ops: &[Op]) -> Result<(), TestCaseError> {
    let drops = Cell::new(0);
    let mut inserted = 0;
    let mut storage = SoaStorage::<Particle<'_>, 150>::new();
    ParticlePool::with_storage(&mut storage, |mut pool| {
        prop_assert_eq!(pool.stats().capacity, 150);
        drive(&mut pool, ops, &drops, &mut inserted)
    })?;
    prop_assert_eq!(drops.get(), inserted);
    Ok(())
}

/// Runs `ops` on `pool` and checks it against the model after each.
fn drive<'c, M: Memory>(
    pool: &mut ParticlePool<'_, 'c, M>,
    ops: &[Op],
    drops: &'c Cell<usize>,
    inserted: &mut usize,
) -> Result<(), TestCaseError> {
    let mut model: Model = Vec::new();
    let mut handles: Vec<(Handle<'_>, u32)> = Vec::new();
    let mut keys: Vec<(Key<'_>, u32)> = Vec::new();
    for op in ops {
        match *op {
            Op::Insert { owned } => {
                let id = u32::try_from(model.len()).expect("few ops");
                let p = Particle { id, mass: 1.0, tag: Counted::new(id as usize, drops) };
                if owned {
                    let h = pool.insert(p);
                    keys.push((pool.key(&h), id));
                    handles.push((h, id));
                } else {
                    keys.push((pool.insert_keyed(p), id));
                }
                model.push(Some((1.0, owned)));
                *inserted += 1;
            }
            Op::Remove(i) if !handles.is_empty() => {
                let (h, id) = handles.swap_remove(i % handles.len());
                let p = pool.remove(h);
                prop_assert_eq!((p.id, p.tag.id), (id, id as usize));
                model[id as usize] = None;
            }
            Op::RemoveKey(i) if !keys.is_empty() => {
                let (k, id) = keys[i % keys.len()];
                let removable = model[id as usize].is_some_and(|(_, owned)| !owned);
                let got = pool.remove_key(k).map(|p| p.id);
                prop_assert_eq!(got, removable.then_some(id));
                if removable {
                    model[id as usize] = None;
                }
            }
            Op::Retain(m) => {
                let mut visited = 0;
                pool.retain(|k, row| {
                    visited += 1;
                    assert_eq!(k, keys[*row.id as usize].0, "retain's key names its row");
                    *row.id % m != 0
                });
                let keyed = model.iter().flatten().filter(|(_, owned)| !owned).count();
                prop_assert_eq!(visited, keyed);
                for (id, slot) in model.iter_mut().enumerate() {
                    if slot.is_some_and(|(_, owned)| !owned) && (id as u32) % m == 0 {
                        *slot = None;
                    }
                }
            }
            Op::Heavier(i) if !keys.is_empty() => {
                let (k, id) = keys[i % keys.len()];
                if let Some(row) = pool.get_key_mut(k) {
                    *row.mass += 1.0;
                }
                if let Some((mass, _)) = &mut model[id as usize] {
                    *mass += 1.0;
                }
            }
            _ => {}
        }
        check(pool, &model, &handles, &keys)?;
        prop_assert_eq!(drops.get(), *inserted - pool.len());
    }
    drop(handles);
    Ok(())
}

proptest! {
    #![proptest_config(crate::common::proptest_config(256))]

    #[test]
    fn random_soa_programs_agree_with_the_model(
        ops in prop::collection::vec(op(), 0..if cfg!(miri) { 30 } else { 150 })
    ) {
        run(&ops)?;
        run_in_storage(&ops)?;
    }
}

#[test]
fn columns_mut_borrows_every_column_at_once_and_iter_mut_writes_rows() {
    let drops = Cell::new(0);
    ParticlePool::with(|mut pool| {
        for id in 0..8 {
            pool.insert_keyed(Particle { id, mass: id as f32, tag: Counted::new(0, &drops) });
        }
        let ParticleColumnsMut { id, mass, .. } = pool.columns_mut();
        for (m, i) in mass.iter_mut().zip(id.iter()) {
            *m += *i as f32;
        }
        assert_eq!(pool.mass_column(), &[0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0]);
        // Both ends of iter_mut, meeting in the middle.
        let mut it = pool.iter_mut();
        assert_eq!(it.len(), 8);
        let (_, first) = it.next().unwrap();
        let (_, last) = it.next_back().unwrap();
        *first.mass = -1.0;
        *last.mass = -2.0;
        assert_eq!(it.len(), 6);
        assert_eq!(it.by_ref().count(), 6);
        assert!(it.next().is_none() && it.next_back().is_none());
        assert_eq!((pool.mass_column()[0], pool.mass_column()[7]), (-1.0, -2.0));
        let debug = format!("{:?}", pool.iter().next().unwrap().1);
        assert!(debug.starts_with("ParticleRef"), "{debug}");
    });
    assert_eq!(drops.get(), 8);
}

#[test]
fn per_field_accessors_work_by_handle_and_by_key() {
    let drops = Cell::new(0);
    ParticlePool::with(|mut pool| {
        let h = pool.insert(Particle { id: 1, mass: 2.0, tag: Counted::new(1, &drops) });
        let k = pool.insert_keyed(Particle { id: 2, mass: 3.0, tag: Counted::new(2, &drops) });
        *pool.mass_mut(&h) += 1.0;
        *pool.mass_by_key_mut(k).unwrap() += 1.0;
        assert_eq!((*pool.mass(&h), pool.mass_by_key(k).copied()), (3.0, Some(4.0)));
        pool.mass_column_mut()[0] = 0.5;
        assert_eq!(*pool.mass(&h), 0.5);
        assert!(pool.remove_key(k).is_some());
        assert_eq!(pool.mass_by_key(k), None);
        assert!(pool.mass_by_key_mut(k).is_none());
        let all: Vec<u32> = pool.into_inner().drain().map(|p| p.id).collect();
        assert_eq!(all, [1]);
        drop(h);
    });
    assert_eq!(drops.get(), 2);
}

#[test]
fn a_panic_in_retain_leaves_every_value_under_its_key_and_drops_nothing_twice() {
    let drops = Cell::new(0);
    ParticlePool::with(|mut pool| {
        let keys: Vec<_> = (0..10)
            .map(|id| pool.insert_keyed(Particle { id, mass: 0.0, tag: Counted::new(0, &drops) }))
            .collect();
        let mut seen = 0;
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.retain(|_, row| {
                seen += 1;
                assert!(seen < 6, "the sixth visit panics");
                *row.id % 2 == 0
            });
        }));
        assert!(result.is_err());
        // The values rejected before the panic are dropped only at the end of the pass,
        // which never came: every value is still there, under its own key, rows moved.
        assert_eq!((drops.get(), pool.len()), (0, 10));
        let ParticleColumns { id, mass, tag } = pool.columns();
        assert_eq!((id.len(), mass.len(), tag.len()), (10, 10, 10));
        for (k, i) in keys.iter().zip(0..) {
            assert_eq!(pool.get_key(*k).map(|row| *row.id), Some(i));
        }
        for (k, row) in &pool {
            assert_eq!(k, keys[*row.id as usize], "each row's key names it");
        }
        pool.retain(|_, row| *row.id % 2 == 0);
        assert_eq!((drops.get(), pool.len()), (5, 5));
        for (k, i) in keys.iter().zip(0..) {
            assert_eq!(pool.get_key(*k).map(|row| *row.id), (i % 2 == 0).then_some(i));
        }
        pool.clear_keyed();
        assert!(pool.is_empty());
    });
    assert_eq!(drops.get(), 10);
}

#[test]
fn retain_keeps_owned_rows_unvisited_wherever_they_sit() {
    let drops = Cell::new(0);
    ParticlePool::with(|mut pool| {
        let tag = || Counted::new(0, &drops);
        let mut handles = Vec::new();
        let mut keys = Vec::new();
        for id in 0..12 {
            let p = Particle { id, mass: 0.0, tag: tag() };
            if id % 3 == 0 {
                handles.push(pool.insert(p));
            } else {
                keys.push(pool.insert_keyed(p));
            }
        }
        let mut visited = Vec::new();
        pool.retain(|_, row| {
            visited.push(*row.id);
            *row.id > 6
        });
        visited.sort_unstable();
        assert_eq!(visited, [1, 2, 4, 5, 7, 8, 10, 11], "every keyed row once, no owned one");
        assert_eq!(drops.get(), 4);
        for (h, id) in handles.iter().zip((0..12).step_by(3)) {
            assert_eq!(*pool.get(h).id, id);
        }
        for (k, row) in &pool {
            assert_eq!(pool.get_key(k).map(|r| *r.id), Some(*row.id));
        }
        // With only handles left, retain visits nothing and removes nothing.
        pool.clear_keyed();
        assert_eq!(pool.len(), 4);
        pool.retain(|_, _| unreachable!("no keyed row is left"));
        for h in handles {
            pool.remove(h);
        }
    });
    assert_eq!(drops.get(), 12);
}

#[test]
fn a_panicking_destructor_in_retain_leaves_the_pool_consistent() {
    struct Bomb<'a>(&'a Cell<usize>, bool);
    impl Drop for Bomb<'_> {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
            assert!(!self.1, "a destructor panics");
        }
    }
    #[derive(ArenaAlloc)]
    #[arena(soa)]
    struct Armed<'a> {
        bomb: Bomb<'a>,
        n: u32,
    }
    let drops = Cell::new(0);
    ArmedPool::with(|mut pool| {
        for n in 0..6 {
            pool.insert_keyed(Armed { bomb: Bomb(&drops, n == 2), n });
        }
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pool.retain(|_, _| false)));
        assert!(result.is_err());
        // Every row removed before the bomb went off was dropped once, the rest stayed.
        assert_eq!(drops.get() + pool.len(), 6);
        assert_eq!(pool.n_column().len(), pool.len());
        assert!(pool.iter().all(|(_, row)| *row.n != 2), "the bomb's row is gone");
        pool.clear_keyed();
    });
    assert_eq!(drops.get(), 6);
}

/// A hand-written `SoaRow` whose `push` forgets its second column: the contract broken,
/// as only hand-written code can. The pool must panic (debug check or bounds check),
/// never read or write out of bounds.
struct Broken(u8, u8);

impl<'a> soa::Views<'a> for Broken {
    type Ref = (&'a u8, &'a u8);
    type Mut = (&'a mut u8, &'a mut u8);
    type Columns = (&'a [u8], &'a [u8]);
    type ColumnsMut = (&'a mut [u8], &'a mut [u8]);

    fn split_first_mut(columns: Self::ColumnsMut) -> Option<(Self::Mut, Self::ColumnsMut)> {
        let (a, ra) = columns.0.split_first_mut()?;
        let (b, rb) = columns.1.split_first_mut()?;
        Some(((a, b), (ra, rb)))
    }
    fn split_last_mut(columns: Self::ColumnsMut) -> Option<(Self::Mut, Self::ColumnsMut)> {
        let (a, ra) = columns.0.split_last_mut()?;
        let (b, rb) = columns.1.split_last_mut()?;
        Some(((a, b), (ra, rb)))
    }
}

impl SoaRow for Broken {
    type Storage<M: Memory> = (Vec<u8>, Vec<u8>, Vec<u32>);

    fn new_storage(capacity: usize) -> Self::Storage<Heap> {
        (Vec::with_capacity(capacity), Vec::with_capacity(capacity), Vec::new())
    }
    fn storage_in(_: &mut [MaybeUninit<u8>], _: usize) -> Option<Self::Storage<Fixed<'_>>> {
        None // refuses every storage
    }
    fn column_len<M: Memory>(storage: &Self::Storage<M>) -> usize {
        storage.0.len()
    }
    fn reserve<M: Memory>(storage: &mut Self::Storage<M>, additional: usize) {
        storage.0.reserve(additional);
    }
    fn try_reserve<M: Memory>(
        storage: &mut Self::Storage<M>,
        additional: usize,
    ) -> Result<(), AllocError> {
        storage.0.try_reserve(additional).map_err(|_| AllocError::SizeOverflow)
    }
    fn shrink_to_fit<M: Memory>(_: &mut Self::Storage<M>) {}
    fn push<M: Memory>(storage: &mut Self::Storage<M>, slot: u32, value: Self) {
        storage.0.push(value.0);
        storage.2.push(slot);
        std::hint::black_box(value.1); // the second column is forgotten
    }
    fn swap_remove<M: Memory>(storage: &mut Self::Storage<M>, row: usize) -> (Self, Option<u32>) {
        let value = Broken(storage.0.swap_remove(row), storage.1.swap_remove(row));
        storage.2.swap_remove(row);
        (value, storage.2.get(row).copied())
    }
    fn compact<M: Memory>(
        storage: &mut Self::Storage<M>,
        mut keep: impl FnMut(u32, soa::RowMut<'_, Self>) -> bool,
    ) {
        let (mut row, mut end) = (0, storage.0.len());
        while row < end {
            if keep(storage.2[row], (&mut storage.0[row], &mut storage.1[row])) {
                row += 1;
            } else {
                end -= 1;
                storage.0.swap(row, end);
                storage.1.swap(row, end);
                storage.2.swap(row, end);
            }
        }
    }
    fn pop<M: Memory>(storage: &mut Self::Storage<M>) -> Option<(u32, Self)> {
        Some((storage.2.pop()?, Broken(storage.0.pop()?, storage.1.pop()?)))
    }
    fn slots<M: Memory>(storage: &Self::Storage<M>) -> &[u32] {
        &storage.2
    }
    fn slots_and_columns_mut<M: Memory>(
        storage: &mut Self::Storage<M>,
    ) -> (&[u32], soa::ColumnsMut<'_, Self>) {
        (&storage.2, (&mut storage.0, &mut storage.1))
    }
    fn columns<M: Memory>(storage: &Self::Storage<M>) -> soa::Columns<'_, Self> {
        (&storage.0, &storage.1)
    }
    fn columns_mut<M: Memory>(storage: &mut Self::Storage<M>) -> soa::ColumnsMut<'_, Self> {
        (&mut storage.0, &mut storage.1)
    }
    fn row<M: Memory>(storage: &Self::Storage<M>, row: usize) -> soa::RowRef<'_, Self> {
        (&storage.0[row], &storage.1[row])
    }
    fn row_mut<M: Memory>(storage: &mut Self::Storage<M>, row: usize) -> soa::RowMut<'_, Self> {
        (&mut storage.0[row], &mut storage.1[row])
    }
}

#[test]
fn a_soa_row_that_breaks_its_contract_panics_instead_of_misbehaving() {
    SoaPool::<Broken>::with(|mut pool| {
        // Release builds skip the length check; then the first row lookup panics on the
        // missing column's bounds check.
        let inserted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let k = pool.insert_keyed(Broken(1, 2));
            let _ = pool.get_key(k);
        }));
        assert!(inserted.is_err());
        // Whatever state the panic left, every safe call panics or answers, in bounds.
        assert_eq!(pool.iter_mut().count(), 0, "the row with a missing column is cut off");
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.retain(|_, _| false);
        }));
    });
}

/// A hand-written `SoaRow` whose `compact` breaks its contract: it never moves a row it
/// is told to reject and stops after half the rows. The pool must stay in bounds, lose no
/// value and drop each once (fields may be misplaced: that is all a broken `SoaRow` may
/// cause).
struct Lazy(Box<u8>);

impl<'a> soa::Views<'a> for Lazy {
    type Ref = &'a Box<u8>;
    type Mut = &'a mut Box<u8>;
    type Columns = &'a [Box<u8>];
    type ColumnsMut = &'a mut [Box<u8>];

    fn split_first_mut(columns: Self::ColumnsMut) -> Option<(Self::Mut, Self::ColumnsMut)> {
        columns.split_first_mut()
    }
    fn split_last_mut(columns: Self::ColumnsMut) -> Option<(Self::Mut, Self::ColumnsMut)> {
        columns.split_last_mut()
    }
}

impl SoaRow for Lazy {
    type Storage<M: Memory> = (Vec<u32>, Vec<Box<u8>>);

    fn new_storage(capacity: usize) -> Self::Storage<Heap> {
        (Vec::with_capacity(capacity), Vec::with_capacity(capacity))
    }
    fn storage_in(bytes: &mut [MaybeUninit<u8>], _: usize) -> Option<Self::Storage<Fixed<'_>>> {
        bytes.fill(MaybeUninit::new(0xA5)); // the bytes are this impl's to use as it likes
        Some((Vec::new(), Vec::new())) // and the heap even here: safe, if odd
    }
    fn column_len<M: Memory>(storage: &Self::Storage<M>) -> usize {
        storage.1.len()
    }
    fn reserve<M: Memory>(storage: &mut Self::Storage<M>, additional: usize) {
        storage.0.reserve(additional);
        storage.1.reserve(additional);
    }
    fn try_reserve<M: Memory>(
        storage: &mut Self::Storage<M>,
        additional: usize,
    ) -> Result<(), AllocError> {
        storage.0.try_reserve(additional).map_err(|_| AllocError::SizeOverflow)?;
        storage.1.try_reserve(additional).map_err(|_| AllocError::SizeOverflow)
    }
    fn shrink_to_fit<M: Memory>(storage: &mut Self::Storage<M>) {
        storage.1.shrink_to_fit();
    }
    fn push<M: Memory>(storage: &mut Self::Storage<M>, slot: u32, value: Self) {
        storage.0.push(slot);
        storage.1.push(value.0);
    }
    fn swap_remove<M: Memory>(storage: &mut Self::Storage<M>, row: usize) -> (Self, Option<u32>) {
        storage.0.swap_remove(row);
        (Lazy(storage.1.swap_remove(row)), storage.0.get(row).copied())
    }
    fn compact<M: Memory>(
        storage: &mut Self::Storage<M>,
        mut keep: impl FnMut(u32, soa::RowMut<'_, Self>) -> bool,
    ) {
        let half = storage.1.len() / 2;
        for (&slot, value) in storage.0.iter().zip(&mut storage.1[..half]) {
            keep(slot, value); // rejected or not, nothing moves
        }
    }
    fn pop<M: Memory>(storage: &mut Self::Storage<M>) -> Option<(u32, Self)> {
        Some((storage.0.pop()?, storage.1.pop().map(Lazy)?))
    }
    fn slots<M: Memory>(storage: &Self::Storage<M>) -> &[u32] {
        &storage.0
    }
    fn slots_and_columns_mut<M: Memory>(
        storage: &mut Self::Storage<M>,
    ) -> (&[u32], soa::ColumnsMut<'_, Self>) {
        (&storage.0, &mut storage.1)
    }
    fn columns<M: Memory>(storage: &Self::Storage<M>) -> soa::Columns<'_, Self> {
        &storage.1
    }
    fn columns_mut<M: Memory>(storage: &mut Self::Storage<M>) -> soa::ColumnsMut<'_, Self> {
        &mut storage.1
    }
    fn row<M: Memory>(storage: &Self::Storage<M>, row: usize) -> soa::RowRef<'_, Self> {
        &storage.1[row]
    }
    fn row_mut<M: Memory>(storage: &mut Self::Storage<M>, row: usize) -> soa::RowMut<'_, Self> {
        &mut storage.1[row]
    }
}

#[test]
fn a_soa_row_whose_compact_lies_loses_no_value() {
    SoaPool::<Lazy>::with(|mut pool| {
        let keys: Vec<_> = (0..8).map(|i| pool.insert_keyed(Lazy(Box::new(i)))).collect();
        pool.retain(|_, value| **value % 2 == 1);
        // The pass saw the rows visited disagree with the rows: nothing is dropped, and
        // every slot is told its row again from the slot column.
        assert_eq!((pool.len(), pool.columns().len()), (8, 8));
        for (i, k) in (0..).zip(&keys) {
            assert_eq!(pool.get_key(*k).map(|v| **v), Some(i), "each key names its value");
        }
        assert_eq!(pool.iter().count(), 8);
        // `remove_key` still swap-removes through the slot column.
        assert_eq!(pool.remove_key(keys[0]).map(|v| *v.0), Some(0));
        assert_eq!(pool.get_key(keys[7]).map(|v| **v), Some(7));
        assert_eq!(pool.columns().len(), pool.len());
    });
}

/// A field that counts its drops and panics in its destructor once, if `armed` names it.
struct Fuse<'a> {
    id: u32,
    drops: &'a Cell<u32>,
    armed: &'a Cell<Option<u32>>,
}

impl Drop for Fuse<'_> {
    fn drop(&mut self) {
        self.drops.set(self.drops.get() + 1);
        if self.armed.get() == Some(self.id) {
            self.armed.set(None);
            panic!("fuse {} blows", self.id);
        }
    }
}

/// Two fused fields around a plain one: a destructor may panic in either column.
#[derive(ArenaAlloc)]
#[arena(soa)]
struct Wired<'a> {
    left: Fuse<'a>,
    id: u32,
    right: Fuse<'a>,
}

/// Where a `retain` run goes wrong: nowhere, in `keep` at a row, or in a field's destructor.
#[derive(Clone, Copy, Debug)]
enum Fault {
    None,
    Keep(u32),
    Fuse(u32),
}

/// Rows `0..ROWS`, those in `owned` behind handles and the rest keyed; `retain` rejects
/// the odd ids, with `fault`. Whatever happens, every column has a row per value, every
/// key names its own value or (rejected, and dropped) none, every handle its own, and
/// every field is dropped once.
fn retain_with_fault(owned: u32, fault: Fault) {
    const ROWS: u32 = 5;
    let (drops, armed) = (Cell::new(0), Cell::new(None));
    WiredPool::with(|mut pool| {
        let wired = |id| Wired {
            left: Fuse { id, drops: &drops, armed: &armed },
            id,
            right: Fuse { id: id + 100, drops: &drops, armed: &armed },
        };
        let (mut handles, mut keys) = (Vec::new(), Vec::new());
        for id in 0..ROWS {
            if owned & (1 << id) != 0 {
                handles.push((id, pool.insert(wired(id))));
            } else {
                keys.push((id, pool.insert_keyed(wired(id))));
            }
        }
        if let Fault::Fuse(id) = fault {
            armed.set(Some(id));
        }
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.retain(|_, row| {
                assert!(!matches!(fault, Fault::Keep(at) if at == *row.id), "keep panics");
                *row.id % 2 == 0
            });
        }));
        let WiredColumns { left, id, right } = pool.columns();
        assert_eq!((left.len(), id.len(), right.len()), (pool.len(), pool.len(), pool.len()));
        for ((l, &i), r) in left.iter().zip(id).zip(right) {
            assert_eq!((l.id, r.id), (i, i + 100), "{fault:?}, owned {owned:#b}: a row's fields");
        }
        for &(i, k) in &keys {
            match pool.get_key(k) {
                Some(row) => assert_eq!(*row.id, i, "{fault:?}, owned {owned:#b}: key of {i}"),
                None => assert!(i % 2 == 1, "{fault:?}, owned {owned:#b}: kept {i} is gone"),
            }
        }
        for (i, h) in &handles {
            assert_eq!(*pool.get(h).id, *i, "a handle names its own row");
        }
        if result.is_ok() {
            let left = keys.iter().filter(|(i, _)| i % 2 == 0).count() + handles.len();
            assert_eq!(pool.len(), left, "{fault:?}: every odd keyed row is gone");
        }
        armed.set(None);
        for (_, h) in handles {
            pool.remove(h);
        }
        pool.clear_keyed();
        assert!(pool.is_empty());
    });
    assert_eq!(drops.get(), 2 * ROWS, "{fault:?}, owned {owned:#b}: every field dropped once");
}

#[test]
fn retain_stays_whole_for_every_mix_of_handles_and_every_panic() {
    let masks: Vec<u32> =
        if cfg!(miri) { vec![0, 0b00101, 0b11010, 0b11111] } else { (0..1 << 5).collect() };
    for owned in masks {
        retain_with_fault(owned, Fault::None);
        for at in 0..5 {
            retain_with_fault(owned, Fault::Keep(at));
            retain_with_fault(owned, Fault::Fuse(at));
            retain_with_fault(owned, Fault::Fuse(at + 100));
        }
    }
}

#[test]
fn a_pool_over_storage_drops_every_field_once_even_when_one_panics() {
    for at in [0, 2, 101] {
        let (drops, armed) = (Cell::new(0), Cell::new(None));
        let mut storage = SoaStorage::<Wired<'_>, 3>::new();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            WiredPool::with_storage(&mut storage, |mut pool| {
                for id in 0..3 {
                    let fuse = |id| Fuse { id, drops: &drops, armed: &armed };
                    pool.insert_keyed(Wired { left: fuse(id), id, right: fuse(id + 100) });
                }
                let back = pool.try_insert_keyed(Wired {
                    left: Fuse { id: 9, drops: &drops, armed: &armed },
                    id: 9,
                    right: Fuse { id: 109, drops: &drops, armed: &armed },
                });
                assert_eq!(back.unwrap_err().into_value().id, 9, "a full pool hands it back");
                armed.set(Some(at)); // the pool's drop, at the closure's end, meets it
            });
        }));
        assert!(result.is_err(), "fuse {at} blew");
        assert_eq!(drops.get(), 8, "fuse {at}: the two refused fields and all six stored");
        // The storage serves the next pool, empty.
        WiredPool::with_storage(&mut storage, |pool| assert!(pool.is_empty()));
    }
}

#[test]
fn a_forgotten_pool_over_storage_leaks_and_the_storage_serves_the_next() {
    let (drops, armed) = (Cell::new(0), Cell::new(None));
    let mut storage = SoaStorage::<Wired<'_>, 2>::new();
    WiredPool::with_storage(&mut storage, |mut pool| {
        let fuse = |id| Fuse { id, drops: &drops, armed: &armed };
        pool.insert_keyed(Wired { left: fuse(0), id: 0, right: fuse(100) });
        std::mem::forget(pool); // its row is leaked: never dropped, never read again
    });
    assert_eq!(drops.get(), 0);
    WiredPool::with_storage(&mut storage, |mut pool| {
        assert!(pool.is_empty());
        let fuse = |id| Fuse { id, drops: &drops, armed: &armed };
        for id in 1..3 {
            pool.insert_keyed(Wired { left: fuse(id), id, right: fuse(id + 100) });
        }
        assert_eq!(pool.id_column(), [1, 2]);
    });
    assert_eq!(drops.get(), 4, "the second pool's rows, dropped with it");
}

#[test]
fn a_hand_written_row_may_keep_heap_columns_even_over_storage() {
    // `Lazy` answers `storage_in` with heap vectors: odd, but safe, and the pool's index
    // still lives in the storage and bounds it.
    let mut storage = SoaStorage::<Lazy, 3>::new();
    SoaPool::with_storage(&mut storage, |mut pool| {
        let keys: Vec<_> = (0..3).map(|i| pool.insert_keyed(Lazy(Box::new(i)))).collect();
        assert!(pool.try_insert_keyed(Lazy(Box::new(3))).is_err(), "the index is full");
        pool.retain(|_, value| **value % 2 == 1); // the lying compact: nothing leaves
        assert_eq!(pool.len(), 3);
        assert_eq!(pool.remove_key(keys[0]).map(|v| *v.0), Some(0));
        assert_eq!(pool.get_key(keys[2]).map(|v| **v), Some(2));
    });
}

#[test]
#[should_panic(expected = "SoaRow::storage_in refused the bytes of a SoaStorage of 2 rows")]
fn a_row_that_refuses_its_storage_is_a_panic_before_any_pool() {
    let mut storage = SoaStorage::<Broken, 2>::new();
    SoaPool::with_storage(&mut storage, |_| unreachable!("no pool is made"));
}

/// Fields whose order in memory the compiler chooses: the columns cut in field order
/// pad between them, and a zero-sized field has an alignment of 8.
#[derive(ArenaAlloc, Debug, Clone, Copy, PartialEq)]
#[arena(soa)]
struct Awkward {
    a: u8,
    b: u16,
    c: u8,
    none: [u64; 0],
    d: u8,
}

/// A field aligned to 16 after a byte.
#[derive(ArenaAlloc, Debug, Clone, Copy, PartialEq)]
#[arena(soa)]
struct Wide {
    a: u8,
    b: u128,
}

/// Fills a pool over a storage of `N` rows of `R` to the brim, reads every row back.
fn fill<R: SoaRow + Copy + PartialEq + std::fmt::Debug, const N: usize>(make: impl Fn(usize) -> R)
where
    for<'a> soa::RowRef<'a, R>: Copy,
{
    let mut storage = SoaStorage::<R, N>::new();
    SoaPool::with_storage(&mut storage, |mut pool| {
        let keys: Vec<_> = (0..N).map(|i| pool.insert_keyed(make(i))).collect();
        assert!(pool.try_insert_keyed(make(N)).is_err(), "{N} rows, no more");
        assert_eq!(pool.len(), N);
        for (i, k) in keys.into_iter().enumerate() {
            assert!(pool.contains_key(k), "row {i} of {N}");
        }
    });
}

#[test]
fn a_storage_holds_its_rows_whatever_the_fields_layout() {
    let awkward = |i: usize| {
        let i = u8::try_from(i).unwrap();
        Awkward { a: i, b: u16::from(i) * 300, c: !i, none: [], d: i ^ 0x5A }
    };
    fill::<Awkward, 0>(awkward);
    fill::<Awkward, 1>(awkward);
    fill::<Awkward, 2>(awkward);
    fill::<Awkward, 7>(awkward);
    let wide = |i: usize| Wide { a: u8::try_from(i).unwrap(), b: u128::MAX - i as u128 };
    fill::<Wide, 1>(wide);
    fill::<Wide, 5>(wide);
    let mut storage = SoaStorage::<Awkward, 3>::new();
    AwkwardPool::with_storage(&mut storage, |mut pool| {
        let k = pool.insert_keyed(awkward(1));
        pool.insert_keyed(awkward(2));
        let h = pool.insert(awkward(3));
        assert_eq!(pool.b_column(), [300, 600, 900]);
        assert_eq!(*pool.d(&h), 3 ^ 0x5A);
        assert_eq!(pool.remove_key(k), Some(awkward(1)));
        assert_eq!(pool.remove(h), awkward(3));
        assert_eq!(pool.c_column(), [!2]);
    });
}
