//! [`RowIndex`]: branded handles for struct-of-arrays storage.
//!
//! `#[derive(ArenaAlloc)]` with `#[arena(soa)]` stores a struct as one column per field,
//! in a [`ColumnVec`](super::ColumnVec). Every row of a column must hold a value, so that
//! the expansion needs no `unsafe` and a scan can borrow a column as `&[F]`; so the
//! columns are kept *dense* (row `r` of every column belongs to the same value, and there
//! are no holes), and removing a value swap-removes its row. Handles cannot be row
//! numbers then, since rows move; `RowIndex` is the indirection, the `DenseSlotMap`
//! design, in two halves:
//!
//! - here, a [`Pool<'id, u32>`](crate::Pool) maps each handle's slot to its current row:
//!   the free list, generations, owning handles and keys are the pool's own, not a copy;
//! - with the columns, one more column, the *slot column*, maps each row back to its
//!   slot. It moves with the rows because it is one of the columns: when a swap-remove
//!   moves the last row into a hole, the moved row's slot comes out of the same swap,
//!   and the caller tells this index the slot's new row ([`moved`](RowIndex::moved)).
//!   (A map of its own, a `Vec<u32>` here, cost W8's churn about 7 instructions an
//!   operation for its length, capacity and bounds, all of which the columns have.)
//!
//! The contract with the columns: [`insert`](RowIndex::insert) is given the row the
//! value will be at (the columns' length), and the caller pushes the value and the
//! handle's slot onto the columns; [`remove`](RowIndex::remove) returns the freed row,
//! which the caller swap-removes from every column, and if a row moved into it, the
//! caller passes its slot to `moved`. [`SoaPool`](crate::SoaPool) does each in one
//! function with nothing that can fail in between. A broken contract (possible only by
//! hand) makes lookups panic (a vacant slot told it moved) or find another value: never
//! undefined behaviour, since neither this type nor the columns use `unsafe` for rows.

use crate::brand::Brand;
use crate::error::{AllocError, fail};
use crate::pool::{Handle, Key};
use crate::pool::{Pool, PoolStats, PoolStorage};

/// Handles and keys for dense, struct-of-arrays storage: maps each to a row that moves
/// when other rows are removed.
///
/// Generated `#[arena(soa)]` pools are built on it (see the module docs for the contract
/// with the columns, which hold the map from rows back to slots).
///
/// # Examples
///
/// A column kept by hand, with its slots:
///
/// ```
/// use arena_kit::pool::soa::RowIndex;
///
/// RowIndex::with(|mut index| {
///     let mut column: Vec<(u32, &str)> = Vec::new(); // (slot, value) per row
///     let a = index.insert(column.len());
///     column.push((index.key(&a).index() as u32, "a"));
///     let b = index.insert(column.len());
///     column.push((index.key(&b).index() as u32, "b"));
///
///     let row = index.remove(a); // row 0: the last row (b's) moves into it
///     column.swap_remove(row);
///     if let Some(&(slot, _)) = column.get(row) {
///         index.moved(slot, row);
///     }
///     assert_eq!(index.row(&b), 0);
///     assert_eq!(column[index.row(&b)].1, "b");
///     # drop(b);
/// });
/// ```
pub struct RowIndex<'id> {
    /// Slot -> row.
    slots: Pool<'id, u32>,
    /// How many rows a handle owns: with none, `retain` need not ask each row.
    handles: usize,
}

#[cfg(feature = "alloc")]
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
    #[cfg(feature = "alloc")]
    #[must_use]
    pub fn new_in(brand: Brand<'id>) -> Self {
        RowIndex { slots: Pool::new_in(brand), handles: 0 }
    }

    /// A new, empty index carrying `brand`, over the caller's `storage`: `N` values at
    /// most, no allocator.
    ///
    /// # Safety
    ///
    /// `storage` outlives the index, and nothing else uses it while the index lives (a
    /// [`SoaPool`](crate::SoaPool) over storage keeps both in its type).
    pub(super) unsafe fn over_storage<const N: usize>(
        storage: &mut PoolStorage<u32, N>,
        brand: Brand<'id>,
    ) -> Self {
        // SAFETY: forwarded from the caller.
        RowIndex { slots: unsafe { Pool::over_storage(storage, brand) }, handles: 0 }
    }

    /// A new value at `row` (the columns' length: the caller pushes it there), owned by
    /// the returned handle.
    ///
    /// # Panics
    ///
    /// Past `u32::MAX - 1` values, or out of memory.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let h = index.insert(0);
    ///     assert_eq!(index.row(&h), 0);
    /// });
    /// ```
    #[inline]
    #[track_caller]
    pub fn insert(&mut self, row: usize) -> Handle<'id> {
        self.try_insert(row).unwrap_or_else(|e| fail(e))
    }

    /// Like [`insert`](Self::insert), but an error instead of a panic; on error nothing
    /// changed.
    ///
    /// # Errors
    ///
    /// [`AllocError::CapacityExceeded`] past `u32::MAX - 1` values,
    /// [`AllocError::OutOfMemory`] if the slots cannot grow.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let h = index.try_insert(0).unwrap();
    ///     assert_eq!(index.len(), 1);
    ///     # drop(h);
    /// });
    /// ```
    #[inline]
    pub fn try_insert(&mut self, row: usize) -> Result<Handle<'id>, AllocError> {
        let handle = self.slots.try_insert(row_number(row)).map_err(|e| e.error())?;
        self.handles += 1;
        Ok(handle)
    }

    /// A new value at `row`, named by a copyable [`Key`] (no owner; any copy may remove
    /// it).
    ///
    /// # Panics
    ///
    /// As [`insert`](Self::insert).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let k = index.insert_keyed(0);
    ///     assert_eq!(index.key_row(k), Some(0));
    /// });
    /// ```
    #[inline]
    #[track_caller]
    pub fn insert_keyed(&mut self, row: usize) -> Key<'id> {
        self.try_insert_keyed(row).unwrap_or_else(|e| fail(e))
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
    ///     let k = index.try_insert_keyed(0).unwrap();
    ///     assert!(index.contains_key(k));
    /// });
    /// ```
    #[inline]
    pub fn try_insert_keyed(&mut self, row: usize) -> Result<Key<'id>, AllocError> {
        self.slots.try_insert_keyed(row_number(row)).map_err(|e| e.error())
    }

    /// The current row of a handle's value. No check in release builds (as
    /// [`Pool::get`]).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let _a = index.insert(0);
    ///     let b = index.insert(1);
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
    ///     let k = index.insert_keyed(0);
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

    /// Frees a handle's slot and returns its row: the caller `swap_remove`s that row from
    /// every column and, if a row moved into it, tells [`moved`](Self::moved).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let a = index.insert(0);
    ///     assert_eq!(index.remove(a), 0);
    ///     assert!(index.is_empty());
    /// });
    /// ```
    #[inline]
    pub fn remove(&mut self, handle: Handle<'id>) -> usize {
        self.handles -= 1;
        self.slots.remove(handle) as usize
    }

    /// Frees `key`'s slot and returns its row (as [`remove`](Self::remove)); `None` if the
    /// key is stale or a handle owns the value.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let k = index.insert_keyed(0);
    ///     assert_eq!(index.remove_key(k), Some(0));
    ///     assert_eq!(index.remove_key(k), None);
    /// });
    /// ```
    #[inline]
    pub fn remove_key(&mut self, key: Key<'id>) -> Option<usize> {
        self.slots.remove_key(key).map(|row| row as usize)
    }

    /// Tells the value of slot `slot` (read from the slot column) that it is now at `row`,
    /// where a swap-remove moved it.
    ///
    /// # Panics
    ///
    /// If no value has slot `slot`: the columns' slot column is not this index's.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let _a = index.insert_keyed(0);
    ///     let b = index.insert_keyed(1);
    ///     index.moved(b.index() as u32, 0);
    ///     assert_eq!(index.key_row(b), Some(0));
    /// });
    /// ```
    #[inline]
    #[track_caller]
    pub fn moved(&mut self, slot: u32, row: usize) {
        *self.slots.occupied_mut(slot) = row_number(row);
    }

    /// [`moved`](Self::moved) for a slot that may have no value (then nothing happens):
    /// for mending the index after a hand-written `SoaRow` broke its contract.
    pub(super) fn relink(&mut self, slot: u32, row: usize) {
        if let Some(place) =
            self.slots.occupied_key_at(slot).and_then(|k| self.slots.get_key_mut(k))
        {
            *place = row_number(row);
        }
    }

    /// A copyable key to a handle's value (as [`Pool::key`]).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let h = index.insert(0);
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
    ///     let h = index.insert(0);
    ///     let k = index.into_key(h);
    ///     assert_eq!(index.remove_key(k), Some(0));
    /// });
    /// ```
    pub fn into_key(&mut self, handle: Handle<'id>) -> Key<'id> {
        self.handles -= 1;
        self.slots.into_key(handle)
    }

    /// Takes ownership of a keyed value (as [`Pool::take_handle`]).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let k = index.insert_keyed(0);
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

    /// Whether `key`'s value is still there.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let k = index.insert_keyed(0);
    ///     assert!(index.contains_key(k));
    /// });
    /// ```
    #[must_use]
    pub fn contains_key(&self, key: Key<'id>) -> bool {
        self.slots.contains_key(key)
    }

    /// The key of the value in slot `slot` (read from the slot column). A slot with no
    /// value gives a key that names nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let k = index.insert_keyed(0);
    ///     assert_eq!(index.key_of_slot(k.index() as u32), k);
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn key_of_slot(&self, slot: u32) -> Key<'id> {
        self.slots.key_at(slot)
    }

    /// Whether a handle owns some value (else every value is keyed).
    #[inline]
    pub(super) fn has_handles(&self) -> bool {
        self.handles != 0
    }

    /// The key of the value in slot `slot` if no handle owns it: the values `retain` may
    /// remove.
    #[inline]
    pub(super) fn unowned_key_of_slot(&self, slot: u32) -> Option<Key<'id>> {
        self.slots.unowned_key_at(slot)
    }

    /// Number of values (rows).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     index.insert_keyed(0);
    ///     assert_eq!(index.len(), 1);
    /// });
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there are no values.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|index| assert!(index.is_empty()));
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Makes room for `additional` more values in the index (the columns reserve their
    /// own).
    ///
    /// # Panics
    ///
    /// As `Vec::reserve`; over storage, if it cannot hold them.
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
    }

    /// The slot counters of the handle side (live values, vacant slots, capacity, peak).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::pool::soa::RowIndex::with(|mut index| {
    ///     let k = index.insert_keyed(0);
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

/// A row number as the index stores it. Rows never outnumber values, and an insert
/// fails past `u32::MAX - 1` values, so only a caller breaking the contract passes a row
/// that does not fit; it then reads a wrong row, never out of bounds (the columns check).
#[expect(
    clippy::cast_possible_truncation,
    reason = "rows are below the pool's slot limit; see the doc comment"
)]
#[inline]
fn row_number(row: usize) -> u32 {
    row as u32
}

impl core::fmt::Debug for RowIndex<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RowIndex").field("rows", &self.len()).finish_non_exhaustive()
    }
}
