//! [`PoolStorage`]: room for `N` slots that a [`Pool`](crate::Pool) uses instead of a
//! heap buffer, for code without an allocator.

use core::fmt;
use core::mem::MaybeUninit;

use crate::pool::slots::{MAX_SLOTS, Slot};

/// Room for `N` values of a [`Pool`](crate::Pool), in memory the caller owns: a local, a
/// field, or a `static` (through a crate such as `static_cell`, which lends a
/// `&'static mut` once). [`Pool::with_storage`](crate::Pool::with_storage) runs a pool
/// over it: the same handles, keys, generations and iterators as a pool on the heap, and
/// no allocator call, ever. The pool never grows: an insert into a full pool is an
/// [`AllocError::CapacityExceeded`](crate::AllocError::CapacityExceeded) from the `try_`
/// methods (the value handed back), a panic from the others.
///
/// # Cost
///
/// A slot is what a heap pool's slot is: the value (or a 4-byte link) beside a 4-byte
/// meta word, rounded to the value's alignment; `N` of them, nothing else. Making one
/// writes nothing.
///
/// # Examples
///
/// ```
/// use arena_kit::{Pool, pool::PoolStorage};
///
/// let mut storage = PoolStorage::<u32, 4>::new();
/// Pool::with_storage(&mut storage, |mut pool| {
///     let keys = [10, 20, 30, 40].map(|v| pool.insert_keyed(v));
///     assert_eq!(pool.try_insert(50).unwrap_err().into_value(), 50); // full
///     assert_eq!(pool.remove_key(keys[1]), Some(20));
///     pool.insert(60); // the freed slot, under a new generation
///     assert_eq!(pool.get_key(keys[1]), None);
/// });
/// ```
pub struct PoolStorage<T, const N: usize> {
    slots: [MaybeUninit<Slot<T>>; N],
}

impl<T, const N: usize> PoolStorage<T, N> {
    /// `N`, as a constant: the values a pool over this storage holds at once (for a
    /// storage type named by an alias, such as the one `#[arena(capacity = N)]` makes).
    ///
    /// # Examples
    ///
    /// ```
    /// type Sessions = arena_kit::pool::PoolStorage<u64, 8>;
    /// const _: () = assert!(Sessions::CAPACITY == 8);
    /// ```
    pub const CAPACITY: usize = N;

    /// `N` handles are 32-bit: the index space caps the capacity.
    const FITS: () = assert!(N <= MAX_SLOTS, "a pool holds at most u32::MAX - 1 slots");

    /// Room for `N` values; `const`, so it can initialise a `static`.
    ///
    /// # Examples
    ///
    /// ```
    /// let storage = arena_kit::pool::PoolStorage::<String, 16>::new();
    /// assert_eq!(storage.capacity(), 16);
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        let () = Self::FITS;
        PoolStorage { slots: [const { MaybeUninit::uninit() }; N] }
    }

    /// `N`: the values a pool over this storage holds at once.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(arena_kit::pool::PoolStorage::<u8, 3>::new().capacity(), 3);
    /// ```
    #[must_use]
    pub const fn capacity(&self) -> usize {
        N
    }

    /// The slots, for the pool made over them.
    pub(super) fn slots_mut(&mut self) -> &mut [MaybeUninit<Slot<T>>] {
        &mut self.slots
    }
}

impl<T, const N: usize> Default for PoolStorage<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T, const N: usize> fmt::Debug for PoolStorage<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PoolStorage").field("capacity", &N).finish_non_exhaustive()
    }
}
