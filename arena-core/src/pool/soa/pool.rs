//! [`SoaPool`]: branded struct-of-arrays storage, one column per field, rows kept dense.
//!
//! # Design
//!
//! A value of a [`SoaRow`] type is stored as one row across its columns (one per field,
//! in [`SoaRow::Storage`]), with its slot in one more column, the slot column; a
//! [`RowIndex`] hands out the pool's handles and keys and maps each slot to its current
//! row. Removing a value swap-removes its row from every column (the last row moves into
//! the hole, and its slot, out of the same swap, is told its new row), so every column
//! stays a dense slice: a scan of one field is a plain slice loop, which the compiler
//! vectorises. The slot column moving with the rows is what keeps the map from rows to
//! slots free: it has no length, capacity or bounds of its own to keep.
//!
//! # What the type system proves, what runtime checks catch
//!
//! - **Columns move together.** The storage is a private field; the only ways to change
//!   a column's length are this pool's methods, each of which changes every column at
//!   once (through [`SoaRow`]'s functions) together with the row index. What the pool
//!   hands out are slices ([`columns_mut`](SoaPool::columns_mut)) and row views
//!   ([`get_mut`](SoaPool::get_mut)): fields can be borrowed apart and written, but no
//!   column can grow or shrink alone.
//! - **Handles and keys** are the row index's, so the rules of [`Pool`](crate::Pool)
//!   hold: the brand ties them to this one pool, an owning [`Handle`] proves its value
//!   is live (so `get(&h)` cannot fail), a [`Key`] is checked (stale means `None`).
//!   `retain` and `clear_keyed` visit keyed rows only; a handle's value leaves only
//!   through its handle.
//! - **Borrows**: a row view or column view borrows the pool, so it cannot outlive it,
//!   and a mutable view excludes every other access for its lifetime.
//! - **No `unsafe`**: rows are looked up with bounds-checked indexing, so even a
//!   hand-written [`SoaRow`] that breaks its contract can only panic or show another
//!   row's fields (see `pool/soa/row.rs`).
//! - **Over a caller's memory**: `SoaPool<'id, R, Fixed<'s>>`
//!   ([`with_storage`](SoaPool::with_storage)) keeps its index in the
//!   [`SoaStorage`]'s `PoolStorage` and its columns in the storage's bytes (cut by
//!   [`SoaRow::storage_in`]), both borrowed for `'s`. The columns' type,
//!   `R::Storage<Fixed<'s>>`, carries the borrow, so not even a hand-written `SoaRow`
//!   can keep them past it; the index is a `Pool`
//!   over storage (which carries no lifetime), made by an `unsafe` constructor whose
//!   promise the pool keeps with a `PhantomData<M>` of its own: `Fixed<'s>` names the
//!   borrow, with a `Drop` the drop check sees, whatever `R::Storage<M>` is (a
//!   hand-written row may ignore `M`). So the pool is neither used nor dropped past
//!   `'s`, nor alive while another pool takes the same storage (the ui case
//!   `soa_pool_over_storage_with_a_row_that_ignores_it`). The index and the
//!   columns hold `N` each, so an insert into a full pool is refused by the index
//!   before a column is asked (`AllocError::CapacityExceeded`, the value handed back),
//!   and every other method is the heap pool's code. The memory is a type parameter
//!   (default [`Heap`]), as for [`KeyPool`](crate::KeyPool), so `mem::swap` cannot
//!   trade a heap pool's columns for a fixed one's.
//!
//! # Costs
//!
//! An insert takes a slot from the index, tests the columns' capacity once and pushes
//! one element per column (the slot column too). A removal frees the slot, swap-removes
//! one element per column and rewrites one slot of the index (the moved row's). A
//! lookup by handle reads the index, then each column it returns a reference into (one
//! bounds check each). Over storage the costs are the same (the same code; the
//! memory parameter only picks the constructors). `retain` is one pass (see
//! `pool/soa/compaction.rs`): a row kept costs its visit, with no bounds check per
//! column and, while no handle owns a row, no read of its slot unless the closure uses
//! the key; a row removed costs a swap with the last row, a write of its slot's row,
//! and a pop.

use core::fmt;
use core::iter::FusedIterator;
use core::marker::PhantomData;

use crate::brand::Brand;
use crate::error::{AllocError, TryAllocError, fail};
use crate::pool::PoolStats;
use crate::pool::soa::compaction::Compaction;
use crate::pool::soa::row::{Columns, ColumnsMut, RowMut, RowRef, SoaRow, Views};
use crate::pool::soa::row_index::RowIndex;
use crate::pool::soa::storage::SoaStorage;
use crate::pool::{Fixed, Handle, Heap, Key, Memory};

/// Struct-of-arrays storage for values of a [`SoaRow`] type: one column per field, dense
/// rows, and the branded handles and keys of [`Pool`](crate::Pool).
///
/// `#[derive(ArenaAlloc)]` with `#[arena(soa)]` generates `{Name}Pool<'id>`, a newtype
/// that derefs to `SoaPool<'id, Name>` and adds per-field accessors; use this type
/// directly for code generic over every struct-of-arrays pool.
///
/// As with a [`Pool`](crate::Pool), what the values borrow must outlive the pool, which
/// drops them when it is dropped (the drop check sees its columns' `Drop`).
///
/// `M` says where the rows are: [`Heap`] (the default; [`with`](SoaPool::with) and
/// [`new_in`](SoaPool::new_in), with `alloc`) or [`Fixed<'s>`](Fixed), `N` rows in a
/// caller's [`SoaStorage`] borrowed for `'s` ([`with_storage`](SoaPool::with_storage),
/// no allocator). Every method but the constructors and [`drain`](SoaPool::drain) is
/// the same for both.
///
/// # Examples
///
/// Update positions from velocities, the scan struct-of-arrays exists for: every column
/// borrowed at once, as slices.
///
/// ```
/// use arena_kit::ArenaAlloc;
///
/// #[derive(ArenaAlloc)]
/// #[arena(soa)]
/// struct Particle { pos: f32, vel: f32 }
///
/// ParticlePool::with(|mut pool| {
///     for i in 0..4 {
///         pool.insert_keyed(Particle { pos: 0.0, vel: i as f32 });
///     }
///     let ParticleColumnsMut { pos, vel } = pool.columns_mut();
///     for (p, v) in pos.iter_mut().zip(vel.iter()) {
///         *p += v;
///     }
///     assert_eq!(pool.columns().pos, &[0.0, 1.0, 2.0, 3.0]);
/// });
/// ```
pub struct SoaPool<'id, R: SoaRow, M: Memory = Heap> {
    rows: RowIndex<'id>,
    storage: R::Storage<M>,
    /// Where the rows are: over storage, the storage's borrow, which the index (in the
    /// storage, through a raw pointer) relies on. Not left to `R::Storage<M>`, which a
    /// hand-written row may define without `M`.
    memory: PhantomData<M>,
}

#[cfg(feature = "alloc")]
impl<R: SoaRow> SoaPool<'_, R> {
    /// Runs `f` with a new, empty pool of a brand of its own (as
    /// [`Pool::with`](crate::Pool::with)).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{ArenaAlloc, SoaPool};
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Cell { alive: bool }
    ///
    /// SoaPool::<Cell>::with(|pool| assert!(pool.is_empty()));
    /// ```
    pub fn with<T>(f: impl for<'id> FnOnce(SoaPool<'id, R>) -> T) -> T {
        Brand::with(|brand| f(SoaPool::new_in(brand)))
    }

    /// [`with`](Self::with), with room for `capacity` values in every column.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{ArenaAlloc, SoaPool};
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Cell { alive: bool }
    ///
    /// SoaPool::<Cell>::with_capacity(64, |pool| assert!(pool.stats().capacity >= 64));
    /// ```
    pub fn with_capacity<T>(capacity: usize, f: impl for<'id> FnOnce(SoaPool<'id, R>) -> T) -> T {
        Brand::with(|brand| f(SoaPool::with_capacity_in(capacity, brand)))
    }
}

impl<'s, R: SoaRow> SoaPool<'_, R, Fixed<'s>> {
    /// Runs `f` with a new, empty pool over the caller's `storage` (room for `N` values),
    /// of a brand of its own, as [`with`](SoaPool::with) does on the heap. The pool never
    /// grows and never calls an allocator: it works without the `alloc` feature. An
    /// insert into a full pool fails: [`try_insert`](Self::try_insert) hands the value
    /// back with [`AllocError::CapacityExceeded`], [`insert`](Self::insert) panics.
    ///
    /// The values still in the pool when `f` returns are dropped then; the storage is
    /// the caller's again, empty, and can serve the next pool. The pool's type,
    /// `SoaPool<'id, R, Fixed<'s>>`, carries the storage's borrow.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{ArenaAlloc, SoaPool};
    /// use arena_kit::pool::soa::SoaStorage;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32, charge: i8 }
    ///
    /// let mut storage = SoaStorage::<Body, 2>::new();
    /// SoaPool::with_storage(&mut storage, |mut pool| {
    ///     let a = pool.insert_keyed(Body { mass: 1.0, charge: -1 });
    ///     pool.insert_keyed(Body { mass: 2.0, charge: 1 });
    ///     assert!(pool.try_insert_keyed(Body { mass: 3.0, charge: 0 }).is_err());
    ///     pool.remove_key(a);
    ///     assert_eq!(pool.columns().mass, [2.0]);
    /// });
    /// ```
    ///
    /// A pool cannot outlive the call, so it cannot outlive the storage:
    ///
    /// ```compile_fail,E0521
    /// use arena_kit::{ArenaAlloc, SoaPool};
    /// use arena_kit::pool::soa::SoaStorage;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// let mut storage = SoaStorage::<Body, 2>::new();
    /// let mut outside = None;
    /// SoaPool::with_storage(&mut storage, |pool| outside = Some(pool));
    /// ```
    pub fn with_storage<const N: usize, T>(
        storage: &'s mut SoaStorage<R, N>,
        f: impl for<'id> FnOnce(SoaPool<'id, R, Fixed<'s>>) -> T,
    ) -> T {
        Brand::with(|brand| f(SoaPool::new_in_storage(storage, brand)))
    }
}

impl<'id, 's, R: SoaRow> SoaPool<'id, R, Fixed<'s>> {
    /// A new, empty pool carrying `brand` over the caller's `storage`: for a row type
    /// that mentions the brand itself (see [`Brand`]) with no allocator, as
    /// [`new_in`](SoaPool::new_in) is on the heap. The pool is
    /// [`with_storage`](SoaPool::with_storage)'s: `N` rows, no growth, a full pool an
    /// [`AllocError::CapacityExceeded`] from the `try_` methods.
    ///
    /// No closure is needed: the pool's type carries the storage's borrow `'s`, so the
    /// borrow checker keeps the pool within it, wherever the pool goes. Its values are
    /// dropped with it; a pool leaked with `mem::forget` leaks its values and leaves the
    /// storage empty for the next one.
    ///
    /// # Panics
    ///
    /// If `R`'s [`SoaRow::storage_in`] refuses the storage's bytes (a derived row never
    /// does).
    ///
    /// # Examples
    ///
    /// A tree whose nodes name their parent by a key of their own pool, in four rows of
    /// the stack:
    ///
    /// ```
    /// use arena_kit::{ArenaAlloc, Brand, Key, SoaPool};
    /// use arena_kit::pool::soa::SoaStorage;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa, brand = 'id)]
    /// struct Dir<'id> { size: u64, parent: Option<Key<'id>> }
    ///
    /// let total = Brand::with(|brand| {
    ///     let mut storage = SoaStorage::<Dir<'_>, 4>::new();
    ///     let mut dirs = SoaPool::new_in_storage(&mut storage, brand);
    ///     let root = dirs.insert_keyed(Dir { size: 1, parent: None });
    ///     let usr = dirs.insert_keyed(Dir { size: 2, parent: Some(root) });
    ///     dirs.insert_keyed(Dir { size: 4, parent: Some(usr) });
    ///     assert_eq!(dirs.get_key(usr).map(|d| *d.parent), Some(Some(root)));
    ///     dirs.columns().size.iter().sum::<u64>()
    /// });
    /// assert_eq!(total, 7);
    /// ```
    ///
    /// The pool cannot outlive the storage:
    ///
    /// ```compile_fail,E0597
    /// use arena_kit::{ArenaAlloc, Brand, SoaPool};
    /// use arena_kit::pool::soa::SoaStorage;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// Brand::with(|brand| {
    ///     let pool;
    ///     {
    ///         let mut storage = SoaStorage::<Body, 2>::new();
    ///         pool = SoaPool::new_in_storage(&mut storage, brand);
    ///     }
    ///     pool.len()
    /// });
    /// ```
    #[must_use]
    pub fn new_in_storage<const N: usize>(
        storage: &'s mut SoaStorage<R, N>,
        brand: Brand<'id>,
    ) -> Self {
        let (index, bytes) = storage.parts();
        let Some(columns) = R::storage_in(bytes, N) else { refused_storage(N) };
        // SAFETY: the index's storage is borrowed for `'s`, which the pool's type carries
        // in its own `PhantomData<Fixed<'s>>` (whatever `R::Storage` does with `M`): it
        // outlives the pool, even at the pool's drop, and nothing else uses it meanwhile.
        let rows = unsafe { RowIndex::over_storage(index, brand) };
        SoaPool { rows, storage: columns, memory: PhantomData }
    }
}

#[cfg(feature = "alloc")]
impl<'id, R: SoaRow> SoaPool<'id, R> {
    /// A new, empty pool carrying `brand` (see [`Brand`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{ArenaAlloc, Brand, SoaPool};
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Cell { alive: bool }
    ///
    /// Brand::with(|brand| {
    ///     let pool = SoaPool::<Cell>::new_in(brand);
    ///     assert_eq!(pool.len(), 0);
    /// });
    /// ```
    #[must_use]
    pub fn new_in(brand: Brand<'id>) -> Self {
        Self::with_capacity_in(0, brand)
    }

    /// [`new_in`](Self::new_in), with room for `capacity` values in every column.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{ArenaAlloc, Brand, SoaPool};
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Cell { alive: bool }
    ///
    /// Brand::with(|brand| {
    ///     let pool = SoaPool::<Cell>::with_capacity_in(8, brand);
    ///     assert!(pool.stats().capacity >= 8);
    /// });
    /// ```
    #[must_use]
    pub fn with_capacity_in(capacity: usize, brand: Brand<'id>) -> Self {
        let mut rows = RowIndex::new_in(brand);
        rows.reserve(capacity);
        SoaPool { rows, storage: R::new_storage(capacity), memory: PhantomData }
    }

    /// Empties the pool, yielding every value in row order (owned ones too). Consumes the
    /// pool: a handle still alive would otherwise name an empty row. (A derived
    /// `{Name}Pool` gives its `SoaPool` with `into_inner`.)
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     pool.insert_keyed(Body { mass: 1.0 });
    ///     let _owned = pool.insert(Body { mass: 2.0 });
    ///     let masses: Vec<f32> = pool.into_inner().drain().map(|b| b.mass).collect();
    ///     assert_eq!(masses, [1.0, 2.0]);
    /// });
    /// ```
    #[must_use = "the values are dropped with the iterator if it is not used"]
    pub fn drain(self) -> alloc::vec::IntoIter<R> {
        let mut storage = self.storage;
        let mut all = alloc::vec::Vec::with_capacity(R::column_len(&storage));
        while let Some((_, value)) = R::pop(&mut storage) {
            all.push(value);
        }
        all.reverse();
        all.into_iter()
    }
}

impl<'id, R: SoaRow, M: Memory> SoaPool<'id, R, M> {
    /// Stores `value`, one field per column, and returns its owning handle.
    ///
    /// # Panics
    ///
    /// Past `u32::MAX - 1` values, or out of memory; the pool holds the same values under
    /// the same keys then.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32, charge: i8 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let h = pool.insert(Body { mass: 2.0, charge: -1 });
    ///     assert_eq!(*pool.get(&h).charge, -1);
    ///     # pool.remove(h);
    /// });
    /// ```
    #[inline]
    #[track_caller]
    pub fn insert(&mut self, value: R) -> Handle<'id> {
        match self.push_with(value, RowIndex::try_insert, Self::unname_handle, Handle::slot) {
            Ok(handle) => handle,
            Err(e) => fail(e.error()),
        }
    }

    /// Like [`insert`](Self::insert), but hands `value` back when the index space or
    /// memory is exhausted; the pool holds the same values under the same keys then.
    ///
    /// # Errors
    ///
    /// [`AllocError::CapacityExceeded`] or [`AllocError::OutOfMemory`], with `value`.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let h = pool.try_insert(Body { mass: 1.0 }).unwrap();
    ///     assert_eq!(pool.remove(h).mass, 1.0);
    /// });
    /// ```
    pub fn try_insert(&mut self, value: R) -> Result<Handle<'id>, TryAllocError<R>> {
        self.push_with(value, RowIndex::try_insert, Self::unname_handle, Handle::slot)
    }

    /// Stores `value` and returns a copyable, checked key to it (no owner).
    ///
    /// # Panics
    ///
    /// As [`insert`](Self::insert).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let k = pool.insert_keyed(Body { mass: 3.0 });
    ///     assert_eq!(pool.get_key(k).map(|b| *b.mass), Some(3.0));
    /// });
    /// ```
    #[inline]
    #[track_caller]
    pub fn insert_keyed(&mut self, value: R) -> Key<'id> {
        match self.push_with(value, RowIndex::try_insert_keyed, Self::unname_key, |key| key.slot())
        {
            Ok(key) => key,
            Err(e) => fail(e.error()),
        }
    }

    /// Like [`insert_keyed`](Self::insert_keyed), handing `value` back on failure.
    ///
    /// # Errors
    ///
    /// As [`try_insert`](Self::try_insert).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let k = pool.try_insert_keyed(Body { mass: 1.0 }).unwrap();
    ///     assert!(pool.contains_key(k));
    /// });
    /// ```
    #[inline]
    pub fn try_insert_keyed(&mut self, value: R) -> Result<Key<'id>, TryAllocError<R>> {
        self.push_with(value, RowIndex::try_insert_keyed, Self::unname_key, |key| key.slot())
    }

    /// Pushes `value` as a new row named by what `name` makes for it (a handle or a
    /// key), with the name's slot in the slot column. The name comes first and room in
    /// every column right before the push, so that the compiler sees one capacity test
    /// for both; if the columns cannot grow, `unname` takes the name back, and `value`
    /// comes back with the error. Either way, on an error the pool holds the same values
    /// under the same keys.
    #[inline]
    fn push_with<N>(
        &mut self,
        value: R,
        name: impl FnOnce(&mut RowIndex<'id>, usize) -> Result<N, AllocError>,
        unname: impl FnOnce(&mut RowIndex<'id>, N),
        slot: impl FnOnce(&N) -> u32,
    ) -> Result<N, TryAllocError<R>> {
        let row = R::column_len(&self.storage);
        let named = match name(&mut self.rows, row) {
            Ok(named) => named,
            Err(error) => return Err(TryAllocError::new(error, value)),
        };
        if let Err(error) = R::try_reserve(&mut self.storage, 1) {
            unname(&mut self.rows, named);
            return Err(TryAllocError::new(error, value));
        }
        R::push(&mut self.storage, slot(&named), value);
        self.check_len();
        Ok(named)
    }

    /// Takes back a handle whose row has no values yet (see `push_with`).
    #[cold]
    fn unname_handle(rows: &mut RowIndex<'id>, handle: Handle<'id>) {
        rows.remove(handle);
    }

    /// Takes back a key whose row has no values yet (see `push_with`).
    #[cold]
    fn unname_key(rows: &mut RowIndex<'id>, key: Key<'id>) {
        rows.remove_key(key);
    }

    /// Removes a handle's value and returns it, its fields gathered from the columns; the
    /// last row moves into its place.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { name: String, mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let h = pool.insert(Body { name: "moon".into(), mass: 0.01 });
    ///     assert_eq!(pool.remove(h).name, "moon");
    ///     assert!(pool.is_empty());
    /// });
    /// ```
    #[inline]
    pub fn remove(&mut self, handle: Handle<'id>) -> R {
        let row = self.rows.remove(handle);
        self.take_row(row)
    }

    /// Removes `key`'s value and returns it: `None` if the key is stale or a handle owns
    /// the value.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let k = pool.insert_keyed(Body { mass: 1.0 });
    ///     assert!(pool.remove_key(k).is_some());
    ///     assert!(pool.remove_key(k).is_none()); // stale
    /// });
    /// ```
    #[inline]
    pub fn remove_key(&mut self, key: Key<'id>) -> Option<R> {
        let row = self.rows.remove_key(key)?;
        Some(self.take_row(row))
    }

    /// Swap-removes `row`, whose slot was just freed, from every column, and tells the
    /// index where the row that moved into it (if any) is now.
    #[inline]
    fn take_row(&mut self, row: usize) -> R {
        let (value, moved) = R::swap_remove(&mut self.storage, row);
        if let Some(slot) = moved {
            self.rows.moved(slot, row);
        }
        self.check_len();
        value
    }

    /// A handle's value: a shared reference to each of its fields.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32, charge: i8 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let h = pool.insert(Body { mass: 2.0, charge: 1 });
    ///     let BodyRef { mass, charge } = pool.get(&h);
    ///     assert_eq!((*mass, *charge), (2.0, 1));
    ///     # pool.remove(h);
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn get(&self, handle: &Handle<'id>) -> RowRef<'_, R> {
        R::row(&self.storage, self.rows.row(handle))
    }

    /// A handle's value: a mutable reference to each of its fields.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { pos: f32, vel: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let h = pool.insert(Body { pos: 0.0, vel: 2.0 });
    ///     let BodyMut { pos, vel } = pool.get_mut(&h);
    ///     *pos += *vel;
    ///     assert_eq!(*pool.get(&h).pos, 2.0);
    ///     # pool.remove(h);
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn get_mut(&mut self, handle: &Handle<'id>) -> RowMut<'_, R> {
        let row = self.rows.row(handle);
        R::row_mut(&mut self.storage, row)
    }

    /// `key`'s value (references to its fields), or `None` if the key is stale.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let k = pool.insert_keyed(Body { mass: 5.0 });
    ///     assert_eq!(pool.get_key(k).map(|b| *b.mass), Some(5.0));
    ///     pool.remove_key(k);
    ///     assert!(pool.get_key(k).is_none());
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn get_key(&self, key: Key<'id>) -> Option<RowRef<'_, R>> {
        let row = self.rows.key_row(key)?;
        Some(R::row(&self.storage, row))
    }

    /// `key`'s value (mutable references to its fields), or `None` if the key is stale.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let k = pool.insert_keyed(Body { mass: 5.0 });
    ///     if let Some(b) = pool.get_key_mut(k) {
    ///         *b.mass *= 2.0;
    ///     }
    ///     assert_eq!(pool.get_key(k).map(|b| *b.mass), Some(10.0));
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn get_key_mut(&mut self, key: Key<'id>) -> Option<RowMut<'_, R>> {
        let row = self.rows.key_row(key)?;
        Some(R::row_mut(&mut self.storage, row))
    }

    /// Every column as a shared slice, in row order (`key_at_row(i)` names row
    /// `i`): the fields to scan.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32, charge: i8 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     pool.insert_keyed(Body { mass: 1.0, charge: 1 });
    ///     pool.insert_keyed(Body { mass: 4.0, charge: -1 });
    ///     let total: f32 = pool.columns().mass.iter().sum();
    ///     assert_eq!(total, 5.0);
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn columns(&self) -> Columns<'_, R> {
        R::columns(&self.storage)
    }

    /// Every column as a mutable slice, in row order: fields borrowed apart, written in
    /// one pass. The slices' lengths cannot change, so the rows stay together.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { pos: f32, vel: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     pool.insert_keyed(Body { pos: 1.0, vel: 0.5 });
    ///     let BodyColumnsMut { pos, vel } = pool.columns_mut();
    ///     for (p, v) in pos.iter_mut().zip(vel.iter()) {
    ///         *p += v;
    ///     }
    ///     assert_eq!(pool.columns().pos, &[1.5]);
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn columns_mut(&mut self) -> ColumnsMut<'_, R> {
        R::columns_mut(&mut self.storage)
    }

    /// The key of the value now at `row`, or `None` past the last row: with
    /// [`len`](Self::len), how a scan over the columns names what it finds.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let k = pool.insert_keyed(Body { mass: 1.0 });
    ///     let heavy = pool.mass_column().iter().position(|&m| m > 0.5);
    ///     assert_eq!(heavy.and_then(|row| pool.key_at_row(row)), Some(k));
    ///     assert_eq!(pool.key_at_row(1), None);
    /// });
    /// ```
    #[must_use]
    pub fn key_at_row(&self, row: usize) -> Option<Key<'id>> {
        R::slots(&self.storage).get(row).map(|&slot| self.rows.key_of_slot(slot))
    }

    /// The row index: the row of a handle or key (`row`, `key_row`), slot stats.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let k = pool.insert_keyed(Body { mass: 1.0 });
    ///     assert_eq!(pool.rows().key_row(k), Some(0));
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn rows(&self) -> &RowIndex<'id> {
        &self.rows
    }

    /// A copyable key to a handle's value (the handle keeps owning it).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let h = pool.insert(Body { mass: 1.0 });
    ///     let k = pool.key(&h);
    ///     assert!(pool.remove_key(k).is_none()); // owned: only the handle removes it
    ///     pool.remove(h);
    ///     assert!(!pool.contains_key(k));
    /// });
    /// ```
    #[must_use]
    pub fn key(&self, handle: &Handle<'id>) -> Key<'id> {
        self.rows.key(handle)
    }

    /// Gives up a handle's ownership; any copy of the key may now remove the value.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let h = pool.insert(Body { mass: 1.0 });
    ///     let k = pool.into_key(h);
    ///     assert!(pool.remove_key(k).is_some());
    /// });
    /// ```
    pub fn into_key(&mut self, handle: Handle<'id>) -> Key<'id> {
        self.rows.into_key(handle)
    }

    /// Takes ownership of a keyed value: its handle, if the key is live and no handle
    /// owns the value yet.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let k = pool.insert_keyed(Body { mass: 1.0 });
    ///     let h = pool.take_handle(k).unwrap();
    ///     assert!(pool.take_handle(k).is_none()); // owned now
    ///     pool.remove(h);
    /// });
    /// ```
    pub fn take_handle(&mut self, key: Key<'id>) -> Option<Handle<'id>> {
        self.rows.take_handle(key)
    }

    /// Whether `key`'s value is still here.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let k = pool.insert_keyed(Body { mass: 1.0 });
    ///     assert!(pool.contains_key(k));
    /// });
    /// ```
    #[must_use]
    pub fn contains_key(&self, key: Key<'id>) -> bool {
        self.rows.contains_key(key)
    }

    /// Number of values (rows).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     pool.insert_keyed(Body { mass: 1.0 });
    ///     assert_eq!(pool.len(), 1);
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the pool holds no value.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|pool| assert!(pool.is_empty()));
    /// ```
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Makes room for `additional` more values in the index and every column.
    ///
    /// # Panics
    ///
    /// As `Vec::reserve`.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     pool.reserve(100);
    ///     assert!(pool.stats().capacity >= 100);
    /// });
    /// ```
    pub fn reserve(&mut self, additional: usize) {
        self.rows.reserve(additional);
        R::reserve(&mut self.storage, additional);
    }

    /// Gives the columns' unused capacity back (the index keeps its slots: handles and
    /// keys name them).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     pool.reserve(100);
    ///     pool.shrink_to_fit();
    ///     assert_eq!(pool.columns().mass.len(), 0);
    /// });
    /// ```
    pub fn shrink_to_fit(&mut self) {
        R::shrink_to_fit(&mut self.storage);
    }

    /// The counters of the handle side: live values, vacant slots, capacity, peak.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let k = pool.insert_keyed(Body { mass: 1.0 });
    ///     pool.remove_key(k);
    ///     let s = pool.stats();
    ///     assert_eq!((s.live, s.free, s.peak), (0, 1, 1));
    /// });
    /// ```
    #[must_use]
    pub fn stats(&self) -> PoolStats {
        self.rows.stats()
    }

    /// Every value with its key, in row order, as row views of shared references.
    /// Double-ended and exact-size.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let a = pool.insert_keyed(Body { mass: 1.0 });
    ///     let b = pool.insert_keyed(Body { mass: 2.0 });
    ///     let all: Vec<_> = pool.iter().map(|(k, body)| (k, *body.mass)).collect();
    ///     assert_eq!(all, [(a, 1.0), (b, 2.0)]);
    /// });
    /// ```
    #[must_use]
    pub fn iter(&self) -> Iter<'_, 'id, R, M> {
        let slots = R::slots(&self.storage);
        Iter { rows: &self.rows, slots, storage: &self.storage, front: 0, back: slots.len() }
    }

    /// Every value with its key, in row order, as row views of mutable references.
    /// Double-ended and exact-size.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { pos: f32, vel: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let k = pool.insert_keyed(Body { pos: 1.0, vel: 1.0 });
    ///     for (_, body) in pool.iter_mut() {
    ///         *body.pos += *body.vel;
    ///     }
    ///     assert_eq!(pool.get_key(k).map(|b| *b.pos), Some(2.0));
    /// });
    /// ```
    #[must_use]
    pub fn iter_mut(&mut self) -> IterMut<'_, 'id, R> {
        let (slots, columns) = R::slots_and_columns_mut(&mut self.storage);
        IterMut { rows: &self.rows, slots, columns: Some(columns), front: 0, back: slots.len() }
    }

    /// Keeps the keyed values for which `keep` returns `true` and removes the others, in
    /// one pass: a value removed swaps rows with the last row not yet visited (the order
    /// [`remove_key`](Self::remove_key) leaves), and the values removed are dropped at the
    /// end. Values owned by a handle are not visited: only their handle may remove them.
    /// The keys of the values kept stay valid.
    ///
    /// A panic in `keep` or in a destructor leaves the pool consistent: every value not
    /// yet dropped stays in it, under its key.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { health: i32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let keys: Vec<_> = (0..6).map(|i| pool.insert_keyed(Body { health: i - 2 })).collect();
    ///     pool.retain(|_, body| *body.health > 0);
    ///     assert_eq!(pool.len(), 3);
    ///     assert_eq!(pool.get_key(keys[5]).map(|b| *b.health), Some(3));
    /// });
    /// ```
    pub fn retain(&mut self, mut keep: impl FnMut(Key<'id>, RowMut<'_, R>) -> bool) {
        let mut pass = Compaction::new(&mut self.rows, R::column_len(&self.storage));
        R::compact(&mut self.storage, |slot, value| pass.visit(slot, |key| keep(key, value)));
        let Some(kept) = pass.kept() else {
            // `compact` broke its contract: every value stays, each slot told its row.
            self.relink();
            return;
        };
        // The rejected rows, at the end: each slot freed, then the value dropped, so a
        // destructor that panics leaves the rest in the pool under their keys. A row
        // leaves only if its slot, unowned, says it is that row.
        loop {
            let len = R::column_len(&self.storage);
            if len <= kept {
                break;
            }
            let Some(&slot) = R::slots(&self.storage).last() else { break };
            let Some(key) = self.rows.unowned_key_of_slot(slot) else { break };
            if self.rows.key_row(key) != Some(len - 1) {
                break;
            }
            let Some((_, value)) = R::pop(&mut self.storage) else { break };
            self.rows.remove_key(key);
            drop(value);
        }
        self.check_len();
    }

    /// Tells every slot named in the slot column its row: after a hand-written
    /// `compact` that broke its contract (see `pool/soa/compaction.rs`).
    #[cold]
    fn relink(&mut self) {
        for (row, &slot) in R::slots(&self.storage).iter().enumerate() {
            self.rows.relink(slot, row);
        }
    }

    /// Removes every keyed value; values owned by handles stay.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Body { mass: f32 }
    ///
    /// BodyPool::with(|mut pool| {
    ///     let h = pool.insert(Body { mass: 1.0 });
    ///     pool.insert_keyed(Body { mass: 2.0 });
    ///     pool.clear_keyed();
    ///     assert_eq!(pool.len(), 1);
    ///     assert_eq!(*pool.get(&h).mass, 1.0);
    ///     # pool.remove(h);
    /// });
    /// ```
    pub fn clear_keyed(&mut self) {
        self.retain(|_, _| false);
    }

    /// Every column has a row per value: the contract of [`SoaRow`], checked in debug
    /// builds after each change.
    #[inline]
    fn check_len(&self) {
        debug_assert_eq!(
            R::column_len(&self.storage),
            self.rows.len(),
            "a SoaRow implementation changed its columns apart from the row index"
        );
    }
}

/// A hand-written [`SoaRow::storage_in`] that refused the bytes of a [`SoaStorage`] (the
/// derive's never does: see `pool/soa/storage.rs`).
#[cold]
#[track_caller]
fn refused_storage(rows: usize) -> ! {
    panic!("arena-kit: SoaRow::storage_in refused the bytes of a SoaStorage of {rows} rows")
}

impl<R: SoaRow, M: Memory> fmt::Debug for SoaPool<'_, R, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SoaPool").field("len", &self.len()).finish_non_exhaustive()
    }
}

impl<'a, 'id, R: SoaRow, M: Memory> IntoIterator for &'a SoaPool<'id, R, M> {
    type Item = (Key<'id>, RowRef<'a, R>);
    type IntoIter = Iter<'a, 'id, R, M>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, 'id, R: SoaRow, M: Memory> IntoIterator for &'a mut SoaPool<'id, R, M> {
    type Item = (Key<'id>, RowMut<'a, R>);
    type IntoIter = IterMut<'a, 'id, R>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// The iterator of [`SoaPool::iter`]: `(key, row view)` in row order.
pub struct Iter<'a, 'id, R: SoaRow, M: Memory = Heap> {
    rows: &'a RowIndex<'id>,
    slots: &'a [u32],
    storage: &'a R::Storage<M>,
    /// Rows `front..back` are still to come.
    front: usize,
    back: usize,
}

impl<'a, 'id, R: SoaRow + 'a, M: Memory> Iter<'a, 'id, R, M> {
    /// Row `row`, with its key.
    fn at(&self, row: usize) -> (Key<'id>, RowRef<'a, R>) {
        (self.rows.key_of_slot(self.slots[row]), R::row(self.storage, row))
    }
}

impl<'a, 'id, R: SoaRow + 'a, M: Memory> Iterator for Iter<'a, 'id, R, M> {
    type Item = (Key<'id>, RowRef<'a, R>);

    fn next(&mut self) -> Option<Self::Item> {
        (self.front < self.back).then(|| {
            self.front += 1;
            self.at(self.front - 1)
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl<'a, R: SoaRow + 'a, M: Memory> DoubleEndedIterator for Iter<'a, '_, R, M> {
    fn next_back(&mut self) -> Option<Self::Item> {
        (self.front < self.back).then(|| {
            self.back -= 1;
            self.at(self.back)
        })
    }
}

impl<'a, R: SoaRow + 'a, M: Memory> ExactSizeIterator for Iter<'a, '_, R, M> {}
impl<'a, R: SoaRow + 'a, M: Memory> FusedIterator for Iter<'a, '_, R, M> {}

impl<R: SoaRow, M: Memory> Clone for Iter<'_, '_, R, M> {
    fn clone(&self) -> Self {
        Iter {
            rows: self.rows,
            slots: self.slots,
            storage: self.storage,
            front: self.front,
            back: self.back,
        }
    }
}

impl<R: SoaRow, M: Memory> fmt::Debug for Iter<'_, '_, R, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Iter").field("remaining", &(self.back - self.front)).finish()
    }
}

/// `split_first_mut` or `split_last_mut` of `R`'s views.
type Split<'a, R> = fn(ColumnsMut<'a, R>) -> Option<(RowMut<'a, R>, ColumnsMut<'a, R>)>;

/// The iterator of [`SoaPool::iter_mut`]: `(key, mutable row view)` in row order.
pub struct IterMut<'a, 'id, R: SoaRow> {
    rows: &'a RowIndex<'id>,
    slots: &'a [u32],
    /// The rows `front..back` not yet handed out; `None` only while being cut.
    columns: Option<ColumnsMut<'a, R>>,
    front: usize,
    back: usize,
}

impl<'a, 'id, R: SoaRow + 'a> IterMut<'a, 'id, R> {
    /// Cuts one row off the front or the back of the rows left.
    fn cut(&mut self, split: Split<'a, R>, front: bool) -> Option<(Key<'id>, RowMut<'a, R>)> {
        if self.front == self.back {
            return None;
        }
        let (row, rest) = split(self.columns.take()?)?;
        self.columns = Some(rest);
        let index = if front {
            self.front += 1;
            self.front - 1
        } else {
            self.back -= 1;
            self.back
        };
        Some((self.rows.key_of_slot(self.slots[index]), row))
    }
}

impl<'a, 'id, R: SoaRow + 'a> Iterator for IterMut<'a, 'id, R> {
    type Item = (Key<'id>, RowMut<'a, R>);

    fn next(&mut self) -> Option<Self::Item> {
        self.cut(<R as Views<'a>>::split_first_mut, true)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl<'a, R: SoaRow + 'a> DoubleEndedIterator for IterMut<'a, '_, R> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.cut(<R as Views<'a>>::split_last_mut, false)
    }
}

impl<'a, R: SoaRow + 'a> ExactSizeIterator for IterMut<'a, '_, R> {}
impl<'a, R: SoaRow + 'a> FusedIterator for IterMut<'a, '_, R> {}

impl<R: SoaRow> fmt::Debug for IterMut<'_, '_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IterMut").field("remaining", &(self.back - self.front)).finish()
    }
}
