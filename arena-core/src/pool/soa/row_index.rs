//! [`RowIndex`]: branded handles for struct-of-arrays storage.
//!
//! `#[derive(ArenaAlloc)]` with `#[arena(soa)]` stores a struct as one column per field,
//! in a [`ColumnVec`](super::ColumnVec). Every row of a column must hold a value, so that
//! the expansion needs no `unsafe` and a scan can borrow a column as `&[F]`; so the
//! columns are kept *dense* (row `r` of every column belongs to the same value, and there
//! are no holes),
//! and removing a value swap-removes its row. Handles cannot be row numbers then, since
//! rows move; `RowIndex` is the indirection, the `DenseSlotMap` design:
//!
//! - a [`Pool<'id, u32>`](crate::Pool) maps each handle's slot to its current row: the
//!   free list, generations, owning handles and keys are the pool's own, not a copy;
//! - `rows: Vec<u32>` maps each row back to its slot, so when a swap-remove moves the
//!   last row into a hole, the moved value's slot learns its new row.
//!
//! The columns live in the generated type, not here; `RowIndex` only says which row to
//! push, read or swap-remove. Its contract with the columns: after
//! [`insert`](RowIndex::insert) the caller pushes one element onto every column (the new
//! row is the last); after [`remove`](RowIndex::remove) it `swap_remove`s the returned row
//! from every column. The generated code does both in one function with nothing that can
//! fail in between. A broken contract (possible only by hand, in the user's module) makes
//! accessors panic on a bounds check or read another value: never undefined behaviour,
//! since neither this type nor the columns use `unsafe` for rows.

use alloc::vec::Vec;

use crate::brand::Brand;
use crate::error::{AllocError, fail};
use crate::pool::{Handle, Key};
use crate::pool::{Pool, PoolStats};

/// Handles and keys for dense, struct-of-arrays storage: maps each to a row that moves
/// when other rows are removed.
///
/// Generated `#[arena(soa)]` pools are built on it (see the module docs for the contract
/// with the columns). [`key_at_row`](Self::key_at_row) and [`row`](Self::row) let a caller scan and
/// look up by row; the row of a value changes only when a value is removed.
///
/// # Examples
///
/// Two columns kept by hand:
///
/// ```
/// use arena_kit::pool::soa::RowIndex;
///
/// RowIndex::with(|mut index| {
///     let (mut xs, mut names) = (Vec::new(), Vec::new());
///     let a = index.insert();
///     xs.push(1.0_f32);
///     names.push("a");
///     let b = index.insert();
///     xs.push(2.0);
///     names.push("b");
///
///     let row = index.remove(a); // row 0: the last row (b's) moves into it
///     xs.swap_remove(row);
///     names.swap_remove(row);
///     assert_eq!(index.row(&b), 0);
///     assert_eq!(names[index.row(&b)], "b");
///     # drop(b);
/// });
/// ```
pub struct RowIndex<'id> {
    /// Slot -> row.
    slots: Pool<'id, u32>,
    /// Row -> slot.
    rows: Vec<u32>,
    /// How many rows a handle owns: with none, `retain` need not ask each row.
    handles: usize,
}

impl RowIndex<'_> {
    /// Runs `f` with a new, empty index of a brand of its own (as [`Pool::with`]).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|index| assert!(index.is_empty()));
    /// ```
    pub fn with<R>(f: impl for<'id> FnOnce(RowIndex<'id>) -> R) -> R {
        Brand::with(|brand| f(RowIndex::new_in(brand)))
    }
}

impl<'id> RowIndex<'id> {
    /// A new, empty index carrying `brand` (see [`Brand`]).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Brand::with(|brand| {
    ///     let index = arena_kit::pool::soa::RowIndex::new_in(brand);
    ///     assert_eq!(index.len(), 0);
    /// });
    /// ```
    #[must_use]
    pub fn new_in(brand: Brand<'id>) -> Self {
        RowIndex { slots: Pool::new_in(brand), rows: Vec::new(), handles: 0 }
    }

    /// A new row owned by the returned handle; the caller pushes one element onto every
    /// column (the new row is `len() - 1`).
    ///
    /// # Panics
    ///
    /// Past `u32::MAX - 1` rows, or out of memory.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let h = index.insert();
    ///     assert_eq!(index.row(&h), 0);
    /// });
    /// ```
    #[inline]
    #[track_caller]
    pub fn insert(&mut self) -> Handle<'id> {
        self.try_insert().unwrap_or_else(|e| fail(e))
    }

    /// Like [`insert`](Self::insert), but an error instead of a panic; on error the index
    /// has the same rows under the same keys (a slot taken for the row is given back).
    ///
    /// # Errors
    ///
    /// [`AllocError::CapacityExceeded`] past `u32::MAX - 1` rows,
    /// [`AllocError::OutOfMemory`] if a buffer cannot grow.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let h = index.try_insert().unwrap();
    ///     assert_eq!(index.len(), 1);
    ///     # drop(h);
    /// });
    /// ```
    #[inline]
    pub fn try_insert(&mut self) -> Result<Handle<'id>, AllocError> {
        let row = self.next_row();
        let handle = self.slots.try_insert(row).map_err(|e| e.error())?;
        if let Err(error) = self.reserve_row() {
            self.slots.remove(handle);
            return Err(error);
        }
        self.rows.push(handle.slot());
        self.handles += 1;
        Ok(handle)
    }

    /// A new row named by a copyable [`Key`] (no owner; any copy may remove it).
    ///
    /// # Panics
    ///
    /// As [`insert`](Self::insert).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let k = index.insert_keyed();
    ///     assert_eq!(index.key_row(k), Some(0));
    /// });
    /// ```
    #[inline]
    #[track_caller]
    pub fn insert_keyed(&mut self) -> Key<'id> {
        self.try_insert_keyed().unwrap_or_else(|e| fail(e))
    }

    /// Like [`insert_keyed`](Self::insert_keyed), but an error instead of a panic.
    ///
    /// # Errors
    ///
    /// As [`try_insert`](Self::try_insert).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let k = index.try_insert_keyed().unwrap();
    ///     assert!(index.contains_key(k));
    /// });
    /// ```
    #[inline]
    pub fn try_insert_keyed(&mut self) -> Result<Key<'id>, AllocError> {
        let row = self.next_row();
        let key = self.slots.try_insert_keyed(row).map_err(|e| e.error())?;
        if let Err(error) = self.reserve_row() {
            self.slots.remove_key(key);
            return Err(error);
        }
        self.rows.push(key.slot());
        Ok(key)
    }

    /// Room for one more row in `rows`, tested after the slot insert and right before
    /// the push: with no store between them, the compiler folds the push's own capacity
    /// test into this one (testing first, before the slot insert, cost W8's churn 4
    /// instructions an operation).
    ///
    /// Inlined down to a length-capacity comparison: the churn loop inserts after every
    /// removal, and `rows` has room almost always; growing is the cold call.
    #[inline]
    fn reserve_row(&mut self) -> Result<(), AllocError> {
        if self.rows.len() < self.rows.capacity() {
            return Ok(());
        }
        self.grow_rows()
    }

    /// The slow path of [`reserve_row`](Self::reserve_row): `rows` is full.
    #[cold]
    #[inline(never)]
    fn grow_rows(&mut self) -> Result<(), AllocError> {
        self.rows.try_reserve(1).map_err(|_| AllocError::OutOfMemory { size: 4, align: 4 })
    }

    /// The row the next insert gets. Rows never outnumber slots, and the slot insert that
    /// follows fails past `u32::MAX - 1` slots, so a row that does not fit is never used.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "rows are below the pool's slot limit, checked by the insert that follows"
    )]
    fn next_row(&self) -> u32 {
        self.rows.len() as u32
    }

    /// The current row of a handle's value. No check in release builds (as
    /// [`Pool::get`]).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let _a = index.insert();
    ///     let b = index.insert();
    ///     assert_eq!(index.row(&b), 1);
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn row(&self, handle: &Handle<'id>) -> usize {
        *self.slots.get(handle) as usize
    }

    /// The current row of `key`'s value, or `None` if it was removed.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let k = index.insert_keyed();
    ///     assert_eq!(index.key_row(k), Some(0));
    ///     index.remove_key(k);
    ///     assert_eq!(index.key_row(k), None);
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn key_row(&self, key: Key<'id>) -> Option<usize> {
        self.slots.get_key(key).map(|&row| row as usize)
    }

    /// Frees a handle's row and returns it: the caller `swap_remove`s that row from every
    /// column (the last row moves into it).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let a = index.insert();
    ///     assert_eq!(index.remove(a), 0);
    ///     assert!(index.is_empty());
    /// });
    /// ```
    #[inline]
    pub fn remove(&mut self, handle: Handle<'id>) -> usize {
        let row = self.slots.remove(handle);
        self.handles -= 1;
        self.unlink(row);
        row as usize
    }

    /// Frees `key`'s row and returns it (as [`remove`](Self::remove)); `None` if the key
    /// is stale or a handle owns the row.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let k = index.insert_keyed();
    ///     assert_eq!(index.remove_key(k), Some(0));
    ///     assert_eq!(index.remove_key(k), None);
    /// });
    /// ```
    #[inline]
    pub fn remove_key(&mut self, key: Key<'id>) -> Option<usize> {
        let row = self.slots.remove_key(key)?;
        self.unlink(row);
        Some(row as usize)
    }

    /// Swap-removes `row` from the row -> slot map and tells the slot of the row that
    /// moved into it (if any) its new row.
    #[inline]
    fn unlink(&mut self, row: u32) {
        self.rows.swap_remove(row as usize);
        if let Some(&moved) = self.rows.get(row as usize) {
            *self.slots.occupied_mut(moved) = row;
        }
    }

    /// A copyable key to a handle's row (as [`Pool::key`]).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let h = index.insert();
    ///     let k = index.key(&h);
    ///     assert_eq!(index.key_row(k), Some(index.row(&h)));
    /// });
    /// ```
    #[must_use]
    pub fn key(&self, handle: &Handle<'id>) -> Key<'id> {
        self.slots.key(handle)
    }

    /// Gives up a handle's ownership (as [`Pool::into_key`]).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let h = index.insert();
    ///     let k = index.into_key(h);
    ///     assert_eq!(index.remove_key(k), Some(0));
    /// });
    /// ```
    pub fn into_key(&mut self, handle: Handle<'id>) -> Key<'id> {
        self.handles -= 1;
        self.slots.into_key(handle)
    }

    /// Takes ownership of a keyed row (as [`Pool::take_handle`]).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let k = index.insert_keyed();
    ///     let h = index.take_handle(k).unwrap();
    ///     assert_eq!(index.remove_key(k), None); // owned now
    ///     assert_eq!(index.remove(h), 0);
    /// });
    /// ```
    pub fn take_handle(&mut self, key: Key<'id>) -> Option<Handle<'id>> {
        let handle = self.slots.take_handle(key)?;
        self.handles += 1;
        Some(handle)
    }

    /// Whether `key`'s row is still there.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let k = index.insert_keyed();
    ///     assert!(index.contains_key(k));
    /// });
    /// ```
    #[must_use]
    pub fn contains_key(&self, key: Key<'id>) -> bool {
        self.slots.contains_key(key)
    }

    /// The key of the value now at `row`, or `None` past the last row: with
    /// [`len`](Self::len), how a scan over the columns names what it finds.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let k = index.insert_keyed();
    ///     assert_eq!(index.key_at_row(0), Some(k));
    ///     assert_eq!(index.key_at_row(1), None);
    /// });
    /// ```
    #[must_use]
    pub fn key_at_row(&self, row: usize) -> Option<Key<'id>> {
        self.rows.get(row).map(|&slot| self.slots.key_at(slot))
    }

    /// The key of the value at `row`.
    ///
    /// # Panics
    ///
    /// If `row` is not below [`len`](Self::len).
    #[inline]
    #[track_caller]
    pub(super) fn key_of_row(&self, row: usize) -> Key<'id> {
        self.slots.key_at(self.rows[row])
    }

    /// Whether a handle owns some row (else every row is keyed).
    #[inline]
    pub(super) fn has_handles(&self) -> bool {
        self.handles != 0
    }

    /// The key of the value at `row` if no handle owns it: the rows `retain` may remove.
    #[inline]
    pub(super) fn unowned_key_at_row(&self, row: usize) -> Option<Key<'id>> {
        self.slots.unowned_key_at(*self.rows.get(row)?)
    }

    /// Swaps rows `to` and `from` (`to < from`) in the row -> slot map and tells the slot
    /// now at `to` its new row; the slot now at `from` is *not* told (see
    /// [`Compaction`](super::compaction::Compaction), which relinks it before anyone can
    /// look). Panics if `from` is out of bounds.
    #[inline]
    pub(super) fn swap_rows_unlinked(&mut self, to: usize, from: usize) {
        self.rows.swap(to, from);
        let slot = self.rows[to];
        // Row numbers fit in `u32`: there are no more rows than slots.
        #[expect(clippy::cast_possible_truncation, reason = "rows are below the slot limit")]
        let row = to as u32;
        *self.slots.occupied_mut(slot) = row;
    }

    /// Tells every slot of the rows from `from` on its row: what
    /// [`swap_rows_unlinked`](Self::swap_rows_unlinked) left undone.
    pub(super) fn relink_from(&mut self, from: usize) {
        for (row, &slot) in self.rows.iter().enumerate().skip(from) {
            #[expect(clippy::cast_possible_truncation, reason = "rows are below the slot limit")]
            let row = row as u32;
            *self.slots.occupied_mut(slot) = row;
        }
    }

    /// Frees the last row's slot and takes the row off the map, if the row is past `keep`
    /// rows and no handle owns it; the caller pops one row off every column.
    #[inline]
    pub(super) fn pop_unowned_past(&mut self, keep: usize) -> bool {
        if self.rows.len() <= keep {
            return false;
        }
        let Some(&slot) = self.rows.last() else { return false };
        let Some(key) = self.slots.unowned_key_at(slot) else { return false };
        self.rows.pop();
        self.slots.remove_key(key).is_some()
    }

    /// Number of rows (values).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     index.insert_keyed();
    ///     assert_eq!(index.len(), 1);
    /// });
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there are no rows.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|index| assert!(index.is_empty()));
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Makes room for `additional` more rows in the index (the columns reserve their own).
    ///
    /// # Panics
    ///
    /// As `Vec::reserve`.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     index.reserve(10);
    ///     assert!(index.stats().capacity >= 10);
    /// });
    /// ```
    pub fn reserve(&mut self, additional: usize) {
        self.slots.reserve(additional);
        self.rows.reserve(additional);
    }

    /// The slot counters of the handle side (live values, vacant slots, capacity, peak).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let k = index.insert_keyed();
    ///     index.remove_key(k);
    ///     let s = index.stats();
    ///     assert_eq!((s.live, s.free, s.peak), (0, 1, 1));
    /// });
    /// ```
    #[must_use]
    pub fn stats(&self) -> PoolStats {
        self.slots.stats()
    }
}

impl core::fmt::Debug for RowIndex<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RowIndex").field("rows", &self.rows.len()).finish_non_exhaustive()
    }
}
