//! [`SoaStorage`]: room for `N` rows of a [`SoaPool`](crate::SoaPool) in the caller's
//! memory, for code without an allocator.
//!
//! # Design
//!
//! Core cannot name a struct's column types (the derive keeps them in its own structs:
//! a `pub` struct's private field types may not appear in a public impl), so the storage
//! is sized from the row type itself: the index's slots, `N` slots of the slot column,
//! and `N + 1` rows of `R`, every part `MaybeUninit`, in one `#[repr(C)]` region that
//! the pool hands to [`SoaRow::storage_in`] as bytes. The derive cuts its field columns
//! from those bytes, one after another, each aligned for its type
//! ([`ColumnVec::in_bytes`](crate::pool::soa::ColumnVec::in_bytes)). They always fit:
//! the slot column takes `4 N` bytes at the aligned start; a field column takes `N`
//! times its size after at most `align - 1` bytes of padding, and a field's alignment is
//! at most its size (zero-sized fields take no bytes), so the field columns need at most
//! `N` times the sum of the field sizes plus that sum again: within `(N + 1)` rows of
//! `R`, which holds every field. Nothing is written to make a storage or a pool over it
//! (no value of the columns is built, on the stack or elsewhere), so `new` is `const`
//! and a storage can be as large as its memory.

use core::fmt;
use core::mem::MaybeUninit;
use core::ptr;

use crate::pool::PoolStorage;
use crate::pool::soa::row::SoaRow;

/// Room for `N` values of a [`SoaPool`](crate::SoaPool), in memory the caller owns: a
/// local, a field, or a `static` (through a crate such as `static_cell`, which lends a
/// `&'static mut` once). [`SoaPool::with_storage`](crate::SoaPool::with_storage) runs a
/// pool over it: the same handles, keys, row views, column slices and `retain` as a pool
/// on the heap, and no allocator call, ever. The pool never grows: an insert into a full
/// pool is an [`AllocError::CapacityExceeded`](crate::AllocError::CapacityExceeded) from
/// the `try_` methods (the value handed back), a panic from the others.
///
/// `#[derive(ArenaAlloc)]` with `#[arena(soa, capacity = N)]` names one for its struct,
/// `{Name}Storage`.
///
/// # Cost
///
/// The pool's index, `N` slots of 8 bytes (a row number and a meta word), the slot
/// column's `N` `u32`s, and `N + 1` rows' worth of the struct's size for its field
/// columns (see the module docs: the one row more pays for aligning each column).
/// Making one writes nothing, and neither does making a pool over it.
///
/// # Examples
///
/// ```
/// use arena_kit::ArenaAlloc;
/// use arena_kit::pool::soa::SoaStorage;
///
/// #[derive(ArenaAlloc)]
/// #[arena(soa)]
/// struct Body { mass: f32, charge: i8 }
///
/// let mut storage = SoaStorage::<Body, 4>::new();
/// BodyPool::with_storage(&mut storage, |mut pool| {
///     for i in 0..4 {
///         pool.insert_keyed(Body { mass: i as f32, charge: 1 });
///     }
///     let full = pool.try_insert_keyed(Body { mass: 9.0, charge: 0 }).unwrap_err();
///     assert_eq!(full.into_value().mass, 9.0);
///     assert_eq!(pool.mass_column().iter().sum::<f32>(), 6.0);
/// });
/// ```
pub struct SoaStorage<R: SoaRow, const N: usize> {
    /// The index's slots: slot to row.
    index: PoolStorage<u32, N>,
    /// The columns' bytes.
    columns: ColumnBytes<R, N>,
}

/// The columns' memory, one region: the slot column's, then room for the fields'.
#[repr(C)]
struct ColumnBytes<R, const N: usize> {
    slots: [MaybeUninit<u32>; N],
    rows: [MaybeUninit<R>; N],
    spare: MaybeUninit<R>,
}

impl<R: SoaRow, const N: usize> SoaStorage<R, N> {
    /// `N`, as a constant: the values a pool over this storage holds at once.
    pub const CAPACITY: usize = N;

    /// Room for `N` values; `const`, so it can initialise a `static`.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::ArenaAlloc;
    /// use arena_kit::pool::soa::SoaStorage;
    ///
    /// #[derive(ArenaAlloc)]
    /// #[arena(soa)]
    /// struct Sample { at: u32, value: i16 }
    ///
    /// let storage = SoaStorage::<Sample, 16>::new();
    /// assert_eq!(storage.capacity(), 16);
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        SoaStorage {
            index: PoolStorage::new(),
            columns: ColumnBytes {
                slots: [const { MaybeUninit::uninit() }; N],
                rows: [const { MaybeUninit::uninit() }; N],
                spare: MaybeUninit::uninit(),
            },
        }
    }

    /// `N`: the values a pool over this storage holds at once.
    #[must_use]
    pub const fn capacity(&self) -> usize {
        N
    }

    /// The index's slots and the columns' bytes, for the pool made over them.
    pub(super) fn parts(&mut self) -> (&mut PoolStorage<u32, N>, &mut [MaybeUninit<u8>]) {
        let region = ptr::from_mut(&mut self.columns).cast::<MaybeUninit<u8>>();
        // SAFETY: the region is the `size_of::<ColumnBytes<R, N>>()` bytes of a field
        // borrowed mutably here, apart from `index`; every field of it is a
        // `MaybeUninit`, so any byte of it, padding too, may be seen as one.
        let bytes =
            unsafe { core::slice::from_raw_parts_mut(region, size_of::<ColumnBytes<R, N>>()) };
        (&mut self.index, bytes)
    }
}

impl<R: SoaRow, const N: usize> Default for SoaStorage<R, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: SoaRow, const N: usize> fmt::Debug for SoaStorage<R, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SoaStorage").field("capacity", &N).finish_non_exhaustive()
    }
}
