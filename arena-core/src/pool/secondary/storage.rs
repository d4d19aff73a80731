//! [`SecondaryStorage`]: the memory a [`FixedSecondaryMap`](super::FixedSecondaryMap)
//! keeps its entries in.

use core::mem::MaybeUninit;

use crate::pool::secondary::iter::Tagged;

/// Room for the entries of slots `0..N` of a secondary map, in the caller's memory: what
/// [`FixedSecondaryMap::in_storage`](super::SecondaryMap::in_storage) borrows. `const`,
/// so it can initialise a `static`.
///
/// An entry costs the value and a `u32` version (with `Option`'s tag), as in a heap map.
/// The storage holds nothing between maps: a map's entries are dropped when the map is.
///
/// # Examples
///
/// ```
/// use arena_kit::pool::secondary::{FixedSecondaryMap, SecondaryStorage};
///
/// let mut storage = SecondaryStorage::<u64, 16>::new();
/// let map: FixedSecondaryMap<'_, arena_kit::TypedKey<()>, u64> =
///     FixedSecondaryMap::in_storage(&mut storage);
/// assert!(map.is_empty());
/// ```
pub struct SecondaryStorage<V, const N: usize> {
    entries: [MaybeUninit<Tagged<V>>; N],
}

impl<V, const N: usize> SecondaryStorage<V, N> {
    /// Room for the entries of `N` slots.
    ///
    /// # Examples
    ///
    /// ```
    /// static mut SIDE: arena_kit::pool::secondary::SecondaryStorage<u8, 64> =
    ///     arena_kit::pool::secondary::SecondaryStorage::new();
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        SecondaryStorage { entries: [const { MaybeUninit::uninit() }; N] }
    }

    /// The entries' memory, for the map that borrows the storage.
    pub(super) fn entries_mut(&mut self) -> &mut [MaybeUninit<Tagged<V>>] {
        &mut self.entries
    }
}

impl<V, const N: usize> Default for SecondaryStorage<V, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V, const N: usize> core::fmt::Debug for SecondaryStorage<V, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SecondaryStorage").field("slots", &N).finish()
    }
}
