//! The two ways to name a value in a [`Pool`](crate::Pool): an owning [`Handle`] and a
//! copyable, generation-checked [`Key`](crate::Key).
//!
//! | | `Handle<'id>` | `Key<'id>` |
//! |---|---|---|
//! | size (and with `Option`) | 4 bytes (4) | 8 bytes (8) |
//! | `Copy` | no: `remove` consumes it | yes |
//! | access | no runtime check in release builds | generation check; stale key -> `None` |
//! | frees its slot | `remove(handle)` | `remove_key(key)`, unless a handle owns the slot |
//!
//! Both are branded: a handle or key of one pool is a type error on another. A handle is
//! proof that its slot is live: the brand says which pool, and since it is neither `Copy`
//! nor `Clone` and `remove` consumes it, nothing can have freed the slot. A slot owned by a
//! handle can never be freed through a key; that is what lets the handle skip every check.

use core::fmt;
use core::hash::{Hash, Hasher};

use core::num::NonZeroU32;

use crate::brand::Id;

/// An owning handle to a value in a [`Pool`](crate::Pool): neither `Copy` nor `Clone`.
///
/// [`Pool::remove`](crate::Pool::remove) consumes it, so a double free or a use after free
/// is a compile error, and [`Pool::get`](crate::Pool::get) needs no bounds, vacancy or
/// generation check. Dropping a handle without removing its value leaves the value in the
/// pool until the pool is dropped (or [`Pool::into_key`](crate::Pool::into_key) was used).
///
/// 32 bits with a niche: `Option<Handle>` is 4 bytes too.
///
/// # Examples
///
/// ```
/// use arena_kit::{Handle, Pool};
///
/// assert_eq!(size_of::<Option<Handle<'_>>>(), 4);
/// Pool::with(|mut pool| {
///     let h = pool.insert(String::from("owned"));
///     pool[&h].push('!');
///     assert_eq!(pool.remove(h), "owned!");
///     // pool.get(&h); // error: `h` was moved by `remove`
/// });
/// ```
#[must_use = "dropping a handle leaves its value in the pool until the pool is dropped"]
pub struct Handle<'id> {
    /// Slot index + 1.
    index: NonZeroU32,
    _brand: Id<'id>,
}

impl<'id> Handle<'id> {
    /// A handle to slot `index` of the pool branded `'id`.
    ///
    /// # Safety
    ///
    /// That slot is occupied and marked owned, and no other handle to it exists: the new
    /// handle is its only owner, which is what lets access through it skip every check.
    /// As a slot index, `index` is below `MAX_SLOTS` (`u32::MAX - 1`).
    #[inline]
    pub(super) unsafe fn new(index: u32, brand: Id<'id>) -> Self {
        debug_assert!((index as usize) < crate::pool::slots::MAX_SLOTS, "a slot index");
        // SAFETY: `index < u32::MAX - 1` (a slot index, from the caller), so `index + 1`
        // neither overflows nor is zero.
        Handle { index: unsafe { NonZeroU32::new_unchecked(index + 1) }, _brand: brand }
    }

    /// The slot index.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let h = pool.insert('a');
    ///     assert_eq!(h.index(), 0);
    /// });
    /// ```
    #[must_use]
    pub fn index(&self) -> usize {
        (self.index.get() - 1) as usize
    }

    pub(super) fn slot(&self) -> u32 {
        self.index.get() - 1
    }
}

impl PartialEq for Handle<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}
impl Eq for Handle<'_> {}
/// Handles order by slot index (as keys do, by index then version): any total order
/// serves a `BTreeMap` or a `BinaryHeap`.
impl PartialOrd for Handle<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Handle<'_> {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.index.cmp(&other.index)
    }
}
impl Hash for Handle<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.index.hash(state);
    }
}
impl fmt::Debug for Handle<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Handle({})", self.index.get() - 1)
    }
}
