//! [`SoaStorage`]: room for `N` rows of a [`SoaPool`](crate::SoaPool) in the caller's
//! memory, for code without an allocator.

use core::fmt;
use core::mem::MaybeUninit;

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
/// The pool's index, `N` slots of 8 bytes (a row number and a meta word), and `N`
/// elements of each column: the slot column's `u32` and every field's type; nothing
/// else. Making one writes nothing. The first pool over it sets up the columns' arrays
/// from [`SoaRow::new_arrays`]: an uninitialised value, which an optimised build never
/// copies (one flag is written), but an unoptimised build moves through the stack, so
/// a debug build needs stack for the arrays once, where the first pool is made.
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
    /// The columns' arrays, written by the first pool made over this storage
    /// (`SoaRow::new_arrays`, which writes nothing a derived row reads) and valid from
    /// then on; `initialised` says whether that happened.
    arrays: MaybeUninit<R::Arrays<N>>,
    initialised: bool,
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
        SoaStorage { index: PoolStorage::new(), arrays: MaybeUninit::uninit(), initialised: false }
    }

    /// `N`: the values a pool over this storage holds at once.
    #[must_use]
    pub const fn capacity(&self) -> usize {
        N
    }

    /// The index's slots and the columns' arrays, for the pool made over them.
    pub(super) fn parts(&mut self) -> (&mut PoolStorage<u32, N>, &mut R::Arrays<N>) {
        if !self.initialised {
            self.arrays.write(R::new_arrays());
            self.initialised = true;
        }
        // SAFETY: `arrays` was written above, or by an earlier call (`initialised`), with
        // a value of its type, and nothing but this type writes it (a private field).
        let arrays = unsafe { self.arrays.assume_init_mut() };
        (&mut self.index, arrays)
    }
}

impl<R: SoaRow, const N: usize> Drop for SoaStorage<R, N> {
    /// Drops the arrays if a pool set them up (a hand-written `SoaRow` may keep
    /// something to drop there; the derive's arrays have nothing). The rows are not the
    /// storage's: each pool dropped its own.
    fn drop(&mut self) {
        if self.initialised {
            // SAFETY: `initialised` says `parts` wrote `arrays` with a value of its type;
            // it is dropped once, here, and the storage is not used again.
            unsafe { self.arrays.assume_init_drop() };
        }
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
