//! [`Pool`]: index-based free-list storage in one contiguous buffer, branded.
//!
//! Seed 003's C free list of `int` indices, `boost::pool` and `ACE_Cached_Allocator`, with the
//! convention made a guarantee: handles are checked by the type system, not by discipline.
//!
//! # Layout
//!
//! - `slots: Vec<Slot<T>>`, where `Slot<T>` is a union of a `T` and a `u32`: an occupied
//!   slot holds the value, a vacant one the index of the next vacant slot (the free list
//!   threads through the slots themselves). A slot costs `max(size_of::<T>(), 4)`
//!   rounded to the alignment: no enum tag padded to `T`'s alignment.
//! - `meta: Vec<u32>`, one word per slot: bit 0 occupied, bit 1 owned by a [`Handle`],
//!   bits 2.. the generation that [`Key`]s are checked against. A vacant slot whose
//!   generation is exhausted is retired (never reused) rather than wrapped.
//!
//! # What the type system proves, what runtime checks catch
//!
//! - A handle or key belongs to exactly one pool: the brand (`brand.rs`, and [`Pool::with`]).
//! - A handle's slot is occupied: handles are created only by inserting, are not `Copy`
//!   or `Clone`, and are consumed by `remove` (or by `into_key`, which gives up ownership).
//!   No other operation frees an owned slot: `remove_key`, `retain` and `clear_keyed`
//!   skip owned slots, `shrink_to_fit` only drops trailing vacant slots, and everything
//!   that would empty the pool wholesale (`drain`) consumes it. So `get(&handle)` reads
//!   the slot without a check (a `debug_assert!` stays).
//! - Keys are checked: a key matches only while its slot holds the very value it was
//!   made for (same generation), so a stale key gives `None`, never another value.
//! - Index space: at most `u32::MAX - 1` slots; `try_insert` hands the value back past it.
//!
//! # Invariants
//!
//! Every `unsafe` block below relies on one of these, and says which.
//!
//! - **(L1) `meta` describes `slots`.** Both hold one entry per slot. A slot whose meta
//!   word has `OCCUPIED` holds an initialised `T` in its `value` field; any other holds a
//!   free-list link in `next` (unless retired). Occupied-and-filled become true together,
//!   in [`Vacant`]'s fill, which consumes the claim.
//! - **(L2) The free list** starting at `free_head` visits, through `next`, every vacant
//!   slot that is not retired, exactly once; all are in bounds.
//! - **(L3) A handle owns its slot.** A `Handle<'id>` exists only for a slot marked
//!   `OCCUPIED | OWNED` of the one pool of brand `'id`, at most one per slot (`Handle::new`
//!   is `unsafe` for that). Only `remove` and `into_key`, which consume it, clear those
//!   bits; shrinking truncates nothing below an occupied slot.
//! - **(L4) Versions only grow.** A slot's generation rises at every removal; a slot
//!   whose generation is exhausted is retired, never reused nor truncated; a slot made
//!   again past a truncation starts above every truncated generation (`gen_floor`). So a
//!   key matches only the value it was made for.

#![expect(
    clippy::cast_possible_truncation,
    reason = "slot indices are below MAX_SLOTS < u32::MAX, checked at insertion"
)]

use alloc::vec::Vec;
use core::fmt;
use core::mem::ManuallyDrop;
use core::num::NonZeroU32;
use core::ops::{Index, IndexMut};
use core::ptr;

use crate::brand::{Brand, Id};
use crate::error::{AllocError, TryAllocError, fail};
use crate::handle::{Handle, Key};

const OCCUPIED: u32 = 1;
const OWNED: u32 = 2;
const GEN_SHIFT: u32 = 2;
/// The last generation a slot may have; freeing a slot at it retires the slot.
const MAX_GEN: u32 = u32::MAX >> GEN_SHIFT;
/// "No next vacant slot".
const NONE: u32 = u32::MAX;
/// Slots the index space holds (`Handle` stores index + 1 in a `NonZeroU32`).
const MAX_SLOTS: usize = (u32::MAX - 1) as usize;

/// The key version of an occupied slot's meta word: the meta without the owned bit
/// (occupied slots have bit 0 set, so it is never zero).
fn version(meta: u32) -> NonZeroU32 {
    NonZeroU32::new(meta & !OWNED).unwrap_or(NonZeroU32::MIN)
}

/// A slot: the value, or the next vacant index.
union Slot<T> {
    value: ManuallyDrop<T>,
    next: u32,
}

/// Branded free-list storage for values of one type.
///
/// Made only by [`Pool::with`], which hands a fresh pool to a closure; the pool, its
/// [`Handle`]s and [`Key`]s cannot leave that closure, and a handle of one pool does not
/// type-check on another.
///
/// # What is freed when
///
/// - [`remove`](Self::remove) (owning handle) and [`remove_key`](Self::remove_key) return
///   the value and put the slot on the free list; the next insert reuses it (LIFO).
/// - Dropping the pool drops every value still in it, exactly once.
/// - Capacity grows like a `Vec`'s; [`shrink_to_fit`](Self::shrink_to_fit) and the
///   [`set_max_free`](Self::set_max_free) policy give trailing vacant slots back (ACE's
///   high-water mark; `boost::pool` never could).
///
/// # Examples
///
/// ```
/// use arena_core::Pool;
///
/// let total = Pool::with(|mut pool| {
///     let a = pool.insert(10);
///     let b = pool.insert(20);
///     pool[&a] += 1;
///     let shared = pool.key(&b); // a copyable, checked name for b's value
///     assert_eq!(pool.get_key(shared), Some(&20));
///     pool.remove(a) + pool.remove(b)
/// });
/// assert_eq!(total, 31);
/// ```
pub struct Pool<'id, T> {
    slots: Vec<Slot<T>>,
    meta: Vec<u32>,
    free_head: u32,
    len: usize,
    /// Most slots the pool has had, recorded when it gives slots back (`shrink_to_fit`);
    /// the peak of live values is the larger of this and the slot count now. Only a new
    /// slot can raise the peak: a slot is appended only when no free slot is left, so at
    /// that moment every slot but retired ones is occupied, and reusing a freed slot never
    /// takes `len` past the slot count. Kept off the insert path: appending a slot
    /// updates nothing but the vectors.
    peak: usize,
    /// Generation new slots start at: above that of any slot `shrink_to_fit` dropped, so
    /// a key to a dropped slot cannot match the slot that later takes its index.
    gen_floor: u32,
    max_free: Option<usize>,
    brand: Id<'id>,
}

/// A snapshot of a [`Pool`]'s counters.
///
/// # Examples
///
/// ```
/// arena_core::Pool::with(|mut pool| {
///     let a = pool.insert(1_u8);
///     let b = pool.insert(2_u8);
///     pool.remove(a);
///     let s = pool.stats();
///     assert_eq!((s.live, s.free, s.peak), (1, 1, 2));
///     # drop(b);
/// });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct PoolStats {
    /// Values in the pool.
    pub live: usize,
    /// Vacant slots (reusable or retired).
    pub free: usize,
    /// Slots the buffer can hold without growing.
    pub capacity: usize,
    /// Most values ever live at once.
    pub peak: usize,
}

impl<T> Pool<'_, T> {
    /// Runs `f` with a new, empty pool of a brand of its own, and returns what `f` returns.
    ///
    /// The closure must accept a pool of *any* brand (`for<'id>`), which is what makes the
    /// brand fresh: the result cannot mention it, so nothing branded escapes.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Pool;
    ///
    /// let sum: u64 = Pool::with(|mut pool| {
    ///     let handles: Vec<_> = (1..=4).map(|i| pool.insert(i)).collect();
    ///     handles.into_iter().map(|h| pool.remove(h)).sum()
    /// });
    /// assert_eq!(sum, 10);
    /// ```
    ///
    /// A handle cannot leave:
    ///
    /// ```compile_fail
    /// let h = arena_core::Pool::with(|mut pool| pool.insert(1));
    /// ```
    pub fn with<R>(f: impl for<'id> FnOnce(Pool<'id, T>) -> R) -> R {
        Self::with_capacity(0, f)
    }

    /// [`with`](Self::with), with room for `capacity` values before the buffer grows.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::<u64>::with_capacity(1000, |pool| {
    ///     assert!(pool.capacity() >= 1000);
    /// });
    /// ```
    pub fn with_capacity<R>(capacity: usize, f: impl for<'id> FnOnce(Pool<'id, T>) -> R) -> R {
        Brand::with(|brand| f(Pool::with_capacity_in(capacity, brand)))
    }
}

impl<'id, T> Pool<'id, T> {
    /// A new, empty pool carrying `brand`: for value types that mention the brand
    /// themselves (see [`Brand`]); [`Pool::with`] is shorter otherwise.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::{Brand, Key, Pool};
    ///
    /// struct Edge<'id> { to: Option<Key<'id>> }
    ///
    /// Brand::with(|brand| {
    ///     let mut pool: Pool<'_, Edge<'_>> = Pool::new_in(brand);
    ///     let a = pool.insert_keyed(Edge { to: None });
    ///     let b = pool.insert_keyed(Edge { to: Some(a) });
    ///     assert_eq!(pool.get_key(b).unwrap().to, Some(a));
    /// });
    /// ```
    #[must_use]
    pub fn new_in(brand: Brand<'id>) -> Self {
        Self::with_capacity_in(0, brand)
    }

    /// [`new_in`](Self::new_in), with room for `capacity` values before the buffer grows.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Brand::with(|brand| {
    ///     let pool = arena_core::Pool::<u8>::with_capacity_in(64, brand);
    ///     assert!(pool.capacity() >= 64);
    /// });
    /// ```
    #[must_use]
    pub fn with_capacity_in(capacity: usize, brand: Brand<'id>) -> Self {
        Pool {
            slots: Vec::with_capacity(capacity),
            meta: Vec::with_capacity(capacity),
            free_head: NONE,
            len: 0,
            peak: 0,
            gen_floor: 0,
            max_free: None,
            brand: brand.into_id(),
        }
    }
}

impl<'id, T> Pool<'id, T> {
    // ----- inserting --------------------------------------------------------------------

    /// Claims the slot the next value goes into: the head of the free list, or a new slot
    /// at the end with room made for it in both vectors (the only step that can fail).
    /// Nothing about the pool changes until the entry is filled.
    #[inline]
    fn vacant(&mut self) -> Result<Vacant<'_, 'id, T>, AllocError> {
        if self.free_head == NONE {
            let len = self.slots.len();
            if len >= self.slots.capacity() || len >= self.meta.capacity() || len >= MAX_SLOTS {
                self.grow()?;
            }
            // `len < MAX_SLOTS`, which fits a `u32`.
            return Ok(Vacant { index: len as u32, pool: self });
        }
        Ok(Vacant { index: self.free_head, pool: self })
    }

    /// Makes room for one more slot at the end of both vectors.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) -> Result<(), AllocError> {
        if self.slots.len() >= MAX_SLOTS {
            return Err(AllocError::CapacityExceeded { max: MAX_SLOTS });
        }
        if self.slots.try_reserve(1).is_err() || self.meta.try_reserve(1).is_err() {
            let layout = core::alloc::Layout::new::<Slot<T>>();
            return Err(AllocError::OutOfMemory { size: layout.size(), align: layout.align() });
        }
        Ok(())
    }

    /// Inserts `value` and returns its owning handle.
    ///
    /// # Panics
    ///
    /// If the pool already holds `u32::MAX - 1` slots, or out of memory.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let h = pool.insert("x");
    ///     assert_eq!(pool[&h], "x");
    /// });
    /// ```
    #[expect(
        clippy::inline_always,
        reason = "measured (W8): left to `#[inline]`, a 28-byte value type got an out-of-line \
                  insert that copied the value through memory, 1.5x slower than slab"
    )]
    #[inline(always)]
    #[track_caller]
    pub fn insert(&mut self, value: T) -> Handle<'id> {
        match self.vacant() {
            Ok(entry) => entry.insert(value),
            Err(e) => fail(e),
        }
    }

    /// Like [`insert`](Self::insert), but hands `value` back when the index space or
    /// memory is exhausted.
    ///
    /// # Errors
    ///
    /// [`AllocError::CapacityExceeded`] past `u32::MAX - 1` slots,
    /// [`AllocError::OutOfMemory`] if the buffer cannot grow.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let h = pool.try_insert(5).unwrap();
    ///     assert_eq!(pool.remove(h), 5);
    /// });
    /// ```
    #[inline]
    pub fn try_insert(&mut self, value: T) -> Result<Handle<'id>, TryAllocError<T>> {
        match self.vacant() {
            Ok(entry) => Ok(entry.insert(value)),
            Err(e) => Err(TryAllocError::new(e, value)),
        }
    }

    /// Inserts `value` and returns a copyable [`Key`] to it (no owner: any copy of the key
    /// may remove it).
    ///
    /// # Panics
    ///
    /// As [`insert`](Self::insert).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(3.5);
    ///     let again = k;
    ///     assert_eq!(pool.get_key(again), Some(&3.5));
    /// });
    /// ```
    #[inline]
    #[track_caller]
    pub fn insert_keyed(&mut self, value: T) -> Key<'id> {
        match self.vacant() {
            Ok(entry) => entry.insert_keyed(value),
            Err(e) => fail(e),
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
    /// arena_core::Pool::with(|mut pool| {
    ///     let k = pool.try_insert_keyed('k').unwrap();
    ///     assert_eq!(pool.remove_key(k), Some('k'));
    /// });
    /// ```
    #[inline]
    pub fn try_insert_keyed(&mut self, value: T) -> Result<Key<'id>, TryAllocError<T>> {
        match self.vacant() {
            Ok(entry) => Ok(entry.insert_keyed(value)),
            Err(e) => Err(TryAllocError::new(e, value)),
        }
    }

    /// The key of the value now in occupied slot `index`.
    pub(crate) fn key_at(&self, index: u32) -> Key<'id> {
        let meta = self.meta[index as usize];
        debug_assert!(meta & OCCUPIED != 0, "slot {index} is occupied");
        Key::new(index, version(meta), self.brand)
    }

    /// The value in slot `index`, which must be occupied (checked: panics otherwise).
    /// For [`RowIndex`](crate::RowIndex), which names its slots by index.
    pub(crate) fn occupied_mut(&mut self, index: u32) -> &mut T {
        let i = index as usize;
        assert!(self.meta[i] & OCCUPIED != 0, "slot {index} is vacant");
        // SAFETY: `i` is in bounds (the indexing above did not panic) and the slot is
        // occupied, so it holds an initialised `T` (L1); `&mut self` makes it exclusive.
        unsafe { &mut self.slots.get_unchecked_mut(i).value }
    }

    // ----- owning handles -------------------------------------------------------------

    /// The value of a handle: no bounds, vacancy or generation check in release builds.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let h = pool.insert(vec![1, 2]);
    ///     assert_eq!(pool.get(&h).len(), 2);
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn get(&self, handle: &Handle<'id>) -> &T {
        let i = handle.slot() as usize;
        debug_assert!(
            self.meta.get(i).is_some_and(|m| m & (OCCUPIED | OWNED) == OCCUPIED | OWNED),
            "a handle's slot is occupied and owned"
        );
        // SAFETY: L3: the brand says `handle` was made by this pool, and its slot is
        // occupied and owned, so in bounds; L1: it holds an initialised `T`.
        unsafe { &self.slots.get_unchecked(i).value }
    }

    /// The value of a handle, mutably: no check in release builds.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let h = pool.insert(1);
    ///     *pool.get_mut(&h) += 1;
    ///     assert_eq!(pool[&h], 2);
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn get_mut(&mut self, handle: &Handle<'id>) -> &mut T {
        let i = handle.slot() as usize;
        debug_assert!(
            self.meta.get(i).is_some_and(|m| m & (OCCUPIED | OWNED) == OCCUPIED | OWNED),
            "a handle's slot is occupied and owned"
        );
        // SAFETY: L3 and L1, as in `get`; `&mut self` makes the access exclusive.
        unsafe { &mut self.slots.get_unchecked_mut(i).value }
    }

    /// Removes a handle's value and returns it; the slot goes on the free list.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let h = pool.insert(String::from("v"));
    ///     assert_eq!(pool.remove(h), "v");
    ///     assert!(pool.is_empty());
    /// });
    /// ```
    #[inline]
    #[expect(clippy::needless_pass_by_value, reason = "consuming the handle is the point")]
    pub fn remove(&mut self, handle: Handle<'id>) -> T {
        let index = handle.slot();
        debug_assert!(
            self.meta
                .get(index as usize)
                .is_some_and(|m| m & (OCCUPIED | OWNED) == OCCUPIED | OWNED),
            "a handle's slot is occupied and owned"
        );
        // SAFETY: L3: the handle proves the slot occupied and in bounds, and it is consumed.
        let value = unsafe { self.take(index) };
        self.apply_max_free();
        value
    }

    /// Moves the value out of occupied slot `index` and frees the slot.
    ///
    /// # Safety
    ///
    /// Slot `index` is in bounds and occupied.
    #[inline]
    unsafe fn take(&mut self, index: u32) -> T {
        let i = index as usize;
        // SAFETY: the caller guarantees an occupied, in-bounds slot; the value is read
        // once and the slot marked vacant right below (keeping L1).
        let slot = unsafe { self.slots.get_unchecked_mut(i) };
        // SAFETY: L1: occupied slots hold an initialised value in `value`.
        let value = unsafe { ManuallyDrop::take(&mut slot.value) };
        // SAFETY: L1: `meta` has one entry per slot, and `i` is in bounds (caller).
        let meta = unsafe { self.meta.get_unchecked_mut(i) };
        let generation = *meta >> GEN_SHIFT;
        self.len -= 1;
        if generation == MAX_GEN {
            // Retired: no generation is left to tell its next value from this one.
            *meta = MAX_GEN << GEN_SHIFT;
        } else {
            *meta = (generation + 1) << GEN_SHIFT;
            *slot = Slot { next: self.free_head };
            self.free_head = index;
        }
        value
    }

    /// Applies the `max_free` policy after removals.
    #[inline]
    fn apply_max_free(&mut self) {
        if let Some(max_free) = self.max_free
            && self.slots.len() - self.len > max_free.saturating_mul(2)
        {
            self.shrink_to_fit();
        }
    }

    // ----- keys ------------------------------------------------------------------------

    /// A copyable key to a handle's value. The key reads the value while it lives, but
    /// cannot remove it while the handle owns it.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let h = pool.insert(9);
    ///     let k = pool.key(&h);
    ///     assert_eq!(pool.remove_key(k), None); // owned: only the handle may remove it
    ///     assert_eq!(pool.remove(h), 9);
    ///     assert_eq!(pool.get_key(k), None);
    /// });
    /// ```
    #[must_use]
    pub fn key(&self, handle: &Handle<'id>) -> Key<'id> {
        self.key_at(handle.slot())
    }

    /// Gives up a handle's ownership: its value stays, and any copy of the returned key
    /// may now remove it.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let h = pool.insert('v');
    ///     let k = pool.into_key(h);
    ///     assert_eq!(pool.remove_key(k), Some('v'));
    /// });
    /// ```
    #[expect(clippy::needless_pass_by_value, reason = "consuming the handle is the point")]
    pub fn into_key(&mut self, handle: Handle<'id>) -> Key<'id> {
        let index = handle.slot();
        self.meta[index as usize] &= !OWNED;
        self.key_at(index)
    }

    /// Takes ownership of a keyed value: `Some(handle)` if the key is live and no handle
    /// owns the slot yet. From then on no key can remove it.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(1);
    ///     let h = pool.take_handle(k).unwrap();
    ///     assert!(pool.take_handle(k).is_none()); // already owned
    ///     assert_eq!(pool.remove(h), 1);
    /// });
    /// ```
    pub fn take_handle(&mut self, key: Key<'id>) -> Option<Handle<'id>> {
        let m = self.meta.get_mut(key.slot() as usize)?;
        if *m == key.version() {
            *m |= OWNED;
            // SAFETY: L3: the slot is occupied by the key's value (exact version match, L4)
            // and was not owned (the match excludes `OWNED`): this is its only handle now.
            Some(unsafe { Handle::new(key.slot(), self.brand) })
        } else {
            None
        }
    }

    /// Whether `key`'s value is still in the pool.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(());
    ///     assert!(pool.contains_key(k));
    ///     pool.remove_key(k);
    ///     assert!(!pool.contains_key(k));
    /// });
    /// ```
    #[must_use]
    pub fn contains_key(&self, key: Key<'id>) -> bool {
        self.meta.get(key.slot() as usize).is_some_and(|m| m & !OWNED == key.version())
    }

    /// The value of `key`, or `None` if it was removed.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed("kept");
    ///     assert_eq!(pool.get_key(k), Some(&"kept"));
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn get_key(&self, key: Key<'id>) -> Option<&T> {
        if self.contains_key(key) {
            // SAFETY: the slot is in bounds and occupied by the value the key was made for:
            // its version matches (L4) and has `OCCUPIED` set, so L1 gives a `T`.
            Some(unsafe { &self.slots.get_unchecked(key.slot() as usize).value })
        } else {
            None
        }
    }

    /// The value of `key`, mutably, or `None` if it was removed.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(1);
    ///     *pool.get_key_mut(k).unwrap() = 2;
    ///     assert_eq!(pool.get_key(k), Some(&2));
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn get_key_mut(&mut self, key: Key<'id>) -> Option<&mut T> {
        if self.contains_key(key) {
            // SAFETY: L4 and L1, as in `get_key`; `&mut self` makes the access exclusive.
            Some(unsafe { &mut self.slots.get_unchecked_mut(key.slot() as usize).value })
        } else {
            None
        }
    }

    /// Removes `key`'s value: `None` if the key is stale or a handle owns the slot.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(7);
    ///     assert_eq!(pool.remove_key(k), Some(7));
    ///     assert_eq!(pool.remove_key(k), None); // a double free is a `None`
    /// });
    /// ```
    pub fn remove_key(&mut self, key: Key<'id>) -> Option<T> {
        // Exact match: occupied, same generation, and not owned.
        if self.meta.get(key.slot() as usize) == Some(&key.version()) {
            // SAFETY: the slot is in bounds and occupied: its version matches (L4, L1).
            let value = unsafe { self.take(key.slot()) };
            self.apply_max_free();
            Some(value)
        } else {
            None
        }
    }

    // ----- whole-pool operations ----------------------------------------------------------

    /// Number of values in the pool.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     pool.insert_keyed(0);
    ///     assert_eq!(pool.len(), 1);
    /// });
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the pool holds no value.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::<u8>::with(|pool| assert!(pool.is_empty()));
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Slots the buffer holds without growing.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::<u8>::with_capacity(10, |pool| assert!(pool.capacity() >= 10));
    /// ```
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.slots.capacity().min(self.meta.capacity())
    }

    /// Makes room for `additional` more values without growing.
    ///
    /// # Panics
    ///
    /// If the new capacity overflows `usize` or memory runs out (as `Vec::reserve`).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::<u32>::with(|mut pool| {
    ///     pool.reserve(100);
    ///     assert!(pool.capacity() >= 100);
    /// });
    /// ```
    pub fn reserve(&mut self, additional: usize) {
        let vacant = self.slots.len() - self.len;
        let needed = additional.saturating_sub(vacant);
        self.slots.reserve(needed);
        self.meta.reserve(needed);
    }

    /// The pool's counters.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let _k = pool.insert_keyed(1);
    ///     assert_eq!(pool.stats().live, 1);
    /// });
    /// ```
    #[must_use]
    pub fn stats(&self) -> PoolStats {
        PoolStats {
            live: self.len,
            free: self.slots.len() - self.len,
            capacity: self.capacity(),
            peak: self.peak.max(self.slots.len()),
        }
    }

    /// Gives back the trailing vacant slots and the spare buffer.
    ///
    /// Only vacant slots after the last occupied one can go (an index never moves); keys
    /// to them stay stale, because slots made later start at a higher generation.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let keys: Vec<_> = (0..100).map(|i| pool.insert_keyed(i)).collect();
    ///     for &k in &keys[10..] {
    ///         pool.remove_key(k);
    ///     }
    ///     pool.shrink_to_fit();
    ///     assert_eq!(pool.stats().free, 0);
    ///     assert!(pool.get_key(keys[50]).is_none());
    /// });
    /// ```
    pub fn shrink_to_fit(&mut self) {
        // Occupied slots stay, and so do retired ones: a retired slot's last key would
        // match the first value of a slot made again at its index (its generation
        // cannot be raised past `MAX_GEN`), so it is never truncated.
        let keep = self
            .meta
            .iter()
            .rposition(|m| m & OCCUPIED != 0 || m >> GEN_SHIFT == MAX_GEN)
            .map_or(0, |last| last + 1);
        if keep < self.slots.len() {
            for m in &self.meta[keep..] {
                // Below `MAX_GEN`: retired slots were kept above.
                self.gen_floor = self.gen_floor.max((m >> GEN_SHIFT) + 1);
            }
            self.peak = self.peak.max(self.slots.len());
            // Vacant slots hold no value: truncating drops nothing (`Slot` has no drop glue).
            self.slots.truncate(keep);
            self.meta.truncate(keep);
            self.rebuild_free_list();
        }
        self.slots.shrink_to_fit();
        self.meta.shrink_to_fit();
    }

    /// The free-slot policy (ACE's high-water mark): when more than twice `max_free` slots
    /// are vacant after a removal, the trailing ones are given back as by
    /// [`shrink_to_fit`](Self::shrink_to_fit). `None` (the default) never shrinks.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     pool.set_max_free(Some(8));
    ///     let keys: Vec<_> = (0..1000).map(|i| pool.insert_keyed(i)).collect();
    ///     for &k in keys.iter().rev() {
    ///         pool.remove_key(k);
    ///     }
    ///     assert!(pool.stats().free <= 16);
    /// });
    /// ```
    pub fn set_max_free(&mut self, max_free: Option<usize>) {
        self.max_free = max_free;
    }

    /// Threads the free list anew through every vacant, unretired slot, lowest index first.
    fn rebuild_free_list(&mut self) {
        self.free_head = NONE;
        for i in (0..self.slots.len()).rev() {
            let m = self.meta[i];
            if m & OCCUPIED == 0 && m >> GEN_SHIFT < MAX_GEN {
                self.slots[i] = Slot { next: self.free_head };
                // `i` < `MAX_SLOTS`, which fits a `u32`.
                self.free_head = i as u32;
            }
        }
    }

    /// Keeps the keyed values for which `keep` returns `true` and removes the others.
    /// Values owned by a handle are not visited: only their handle may remove them.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let owned = pool.insert(100);
    ///     for i in 0..10 {
    ///         pool.insert_keyed(i);
    ///     }
    ///     pool.retain(|_, v| *v % 2 == 0);
    ///     assert_eq!(pool.len(), 6); // five even keyed values and the owned one
    ///     assert_eq!(pool[&owned], 100);
    /// });
    /// ```
    pub fn retain(&mut self, mut keep: impl FnMut(Key<'id>, &mut T) -> bool) {
        for i in 0..self.slots.len() {
            if self.meta[i] & (OCCUPIED | OWNED) != OCCUPIED {
                continue;
            }
            // `i` < `MAX_SLOTS`, which fits a `u32`.
            let key = self.key_at(i as u32);
            // SAFETY: L1: slot `i` is occupied (checked above), so it holds a `T`.
            let value = unsafe { &mut self.slots.get_unchecked_mut(i).value };
            if !keep(key, value) {
                // SAFETY: still occupied and in bounds: `keep` only had the value, not the
                // pool.
                drop(unsafe { self.take(i as u32) });
            }
        }
        self.apply_max_free();
    }

    /// Removes every keyed value; values owned by handles stay.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let h = pool.insert('h');
    ///     pool.insert_keyed('k');
    ///     pool.clear_keyed();
    ///     assert_eq!((pool.len(), pool[&h]), (1, 'h'));
    /// });
    /// ```
    pub fn clear_keyed(&mut self) {
        self.retain(|_, _| false);
    }

    /// Empties the pool, yielding every value (in slot order). Consumes the pool: any
    /// handle still alive would otherwise name an empty slot.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     pool.insert_keyed(1);
    ///     let _h = pool.insert(2);
    ///     let all: Vec<i32> = pool.drain().collect();
    ///     assert_eq!(all, [1, 2]);
    /// });
    /// ```
    #[must_use = "the values are dropped with the iterator if it is not used"]
    pub fn drain(mut self) -> alloc::vec::IntoIter<T> {
        let mut values = Vec::with_capacity(self.len);
        for i in 0..self.slots.len() {
            if self.meta[i] & OCCUPIED != 0 {
                // SAFETY: slot `i` is in bounds and occupied (checked above).
                values.push(unsafe { self.take(i as u32) });
            }
        }
        values.into_iter()
    }

    /// Every value with its key, in slot order (owned values included: a key reads them).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let a = pool.insert_keyed('a');
    ///     let (k, v) = pool.iter().next().unwrap();
    ///     assert_eq!((k, *v), (a, 'a'));
    /// });
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (Key<'id>, &T)> + '_ {
        self.meta.iter().enumerate().filter(|(_, m)| *m & OCCUPIED != 0).map(|(i, _)| {
            // `i` < `MAX_SLOTS`, which fits a `u32`.
            let key = self.key_at(i as u32);
            // SAFETY: L1: slot `i` is occupied (filtered above), so it holds a `T`.
            (key, unsafe { &*self.slots.get_unchecked(i).value })
        })
    }

    /// Every value with its key, mutably, in slot order.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let h = pool.insert(1);
    ///     for (_, v) in pool.iter_mut() {
    ///         *v *= 10;
    ///     }
    ///     assert_eq!(pool[&h], 10);
    /// });
    /// ```
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (Key<'id>, &mut T)> + '_ {
        let brand = self.brand;
        self.slots
            .iter_mut()
            .zip(&self.meta)
            .enumerate()
            .filter(|(_, (_, m))| **m & OCCUPIED != 0)
            .map(move |(i, (slot, m))| {
                // `i` < `MAX_SLOTS`, which fits a `u32`.
                let key = Key::new(i as u32, version(*m), brand);
                // SAFETY: L1: the slot is occupied (filtered above), so it holds a `T`.
                (key, unsafe { &mut *slot.value })
            })
    }
}

/// The slot the next value of a [`Pool`] goes into, claimed by `Pool::vacant` and not yet
/// filled (slab's `VacantEntry`): "meta says occupied" and "the slot holds a value"
/// become true together, in [`insert`](Self::insert) or
/// [`insert_keyed`](Self::insert_keyed), which consume the entry. Dropping it changes
/// nothing.
///
/// Invariant (V1): `index` is the pool's free-list head (a vacant, in-bounds, unretired
/// slot), or `slots.len()` with room in both vectors and below `MAX_SLOTS`. The entry
/// borrows the pool mutably, so nothing can change that between claim and fill.
struct Vacant<'a, 'id, T> {
    pool: &'a mut Pool<'id, T>,
    index: u32,
}

#[expect(
    clippy::inline_always,
    reason = "the insert fast path (W8), inlined into `Pool::insert`: see the reason there"
)]
impl<'id, T> Vacant<'_, 'id, T> {
    /// Fills the slot with `value`, marked occupied (and `OWNED` if `owned`); returns the
    /// slot's new meta word.
    #[inline(always)]
    fn fill(self, value: T, owned: u32) -> u32 {
        let pool = self.pool;
        let i = self.index as usize;
        let meta = if i == pool.slots.len() {
            let meta = (pool.gen_floor << GEN_SHIFT) | OCCUPIED | owned;
            debug_assert!(i < pool.slots.capacity() && i < pool.meta.capacity(), "V1: room");
            // SAFETY: V1: element `i == len` is allocated in `slots`.
            let slot = unsafe { pool.slots.as_mut_ptr().add(i) };
            // SAFETY: in bounds of the allocation, aligned, not yet initialised.
            unsafe { slot.write(Slot { value: ManuallyDrop::new(value) }) };
            // SAFETY: V1: element `i == len` is allocated in `meta`.
            let meta_slot = unsafe { pool.meta.as_mut_ptr().add(i) };
            // SAFETY: in bounds of the allocation, aligned, not yet initialised.
            unsafe { meta_slot.write(meta) };
            // SAFETY: element `i` of `slots` was initialised just above.
            unsafe { pool.slots.set_len(i + 1) };
            // SAFETY: element `i` of `meta` was initialised just above.
            unsafe { pool.meta.set_len(i + 1) };
            meta
        } else {
            // SAFETY: V1 and L2: `i` is the free-list head, an in-bounds vacant slot.
            let slot = unsafe { pool.slots.get_unchecked_mut(i) };
            // SAFETY: L1: a vacant slot's `next` is its initialised field.
            pool.free_head = unsafe { slot.next };
            // A vacant slot holds no value: overwriting it drops nothing.
            *slot = Slot { value: ManuallyDrop::new(value) };
            // SAFETY: L1: `meta` has one entry per slot, and `i` is in bounds (V1).
            let m = unsafe { pool.meta.get_unchecked_mut(i) };
            *m |= OCCUPIED | owned;
            *m
        };
        pool.len += 1;
        meta
    }

    /// Fills the slot with `value`, owned by the returned handle.
    #[inline(always)]
    fn insert(self, value: T) -> Handle<'id> {
        let (index, brand) = (self.index, self.pool.brand);
        self.fill(value, OWNED);
        // SAFETY: L3: the slot was just filled and marked owned: this is its only handle.
        unsafe { Handle::new(index, brand) }
    }

    /// Fills the slot with `value`, and returns its key (no owner).
    #[inline(always)]
    fn insert_keyed(self, value: T) -> Key<'id> {
        let (index, brand) = (self.index, self.pool.brand);
        let meta = self.fill(value, 0);
        Key::new(index, version(meta), brand)
    }
}

impl<'id, T> Index<&Handle<'id>> for Pool<'id, T> {
    type Output = T;

    fn index(&self, handle: &Handle<'id>) -> &T {
        self.get(handle)
    }
}

impl<'id, T> IndexMut<&Handle<'id>> for Pool<'id, T> {
    fn index_mut(&mut self, handle: &Handle<'id>) -> &mut T {
        self.get_mut(handle)
    }
}

impl<T> Drop for Pool<'_, T> {
    fn drop(&mut self) {
        /// Keeps dropping the rest if one value's destructor panics.
        struct Rest<'a, 'id, T>(&'a mut Pool<'id, T>, usize);
        impl<T> Drop for Rest<'_, '_, T> {
            fn drop(&mut self) {
                drop_from(self.0, self.1);
            }
        }
        fn drop_from<T>(pool: &mut Pool<'_, T>, start: usize) {
            for i in start..pool.slots.len() {
                if pool.meta[i] & OCCUPIED != 0 {
                    pool.meta[i] &= !OCCUPIED;
                    let guard = Rest(&mut *pool, i + 1);
                    // SAFETY: L1: slot `i` was occupied, so `value` is the initialised field.
                    let value: *mut T = unsafe { &raw mut *guard.0.slots[i].value };
                    // SAFETY: the slot is now marked vacant, so its value is dropped once.
                    unsafe { ptr::drop_in_place(value) };
                    core::mem::forget(guard);
                }
            }
        }
        if core::mem::needs_drop::<T>() {
            drop_from(self, 0);
        }
    }
}

impl<T> fmt::Debug for Pool<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pool")
            .field("type", &core::any::type_name::<T>())
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_whose_generation_runs_out_is_retired_not_reused() {
        Pool::with(|mut pool| {
            let _ = pool.insert_keyed(1);
            // Pretend slot 0 has been reused 2^30 - 1 times.
            pool.meta[0] = (MAX_GEN << GEN_SHIFT) | OCCUPIED;
            let last = pool.key_at(0);
            assert_eq!(pool.remove_key(last), Some(1));
            let next = pool.insert_keyed(2);
            assert_eq!(next.index(), 1, "slot 0 is retired, a new slot is used");
            assert_eq!(pool.get_key(last), None);
            pool.rebuild_free_list();
            assert_eq!(pool.free_head, NONE, "a retired slot never rejoins the free list");
        });
    }

    /// Churns slot 0 to its last generation and retires it; returns the slot's last key.
    /// Setting the meta word stands for 2^30 - 2 real reuses.
    fn retire_slot_zero<'id>(pool: &mut Pool<'id, u32>) -> Key<'id> {
        let _ = pool.insert_keyed(0);
        pool.meta[0] = ((MAX_GEN - 1) << GEN_SHIFT) | OCCUPIED;
        let before_last = pool.key_at(0);
        assert_eq!(pool.remove_key(before_last), Some(0));
        let last = pool.insert_keyed(1);
        assert_eq!(last.index(), 0, "the slot is reused for its last generation");
        assert_eq!(pool.remove_key(last), Some(1));
        last
    }

    /// A retired slot's last key must reach nothing, whatever shrinks the pool.
    fn assert_stale_after(shrink: impl for<'id> Fn(&mut Pool<'id, u32>)) {
        Pool::with(|mut pool| {
            let last = retire_slot_zero(&mut pool);
            shrink(&mut pool);
            let fresh = pool.insert_keyed(2);
            assert_eq!(pool.get_key(last), None, "a stale key reached a new value");
            assert!(!pool.contains_key(last));
            assert!(pool.take_handle(last).is_none());
            assert_eq!(pool.remove_key(last), None);
            assert_eq!(pool.get_key(fresh), Some(&2));
        });
    }

    #[test]
    #[expect(clippy::redundant_closure_for_method_calls, reason = "the brand must stay generic")]
    fn a_retired_slot_survives_shrink_to_fit() {
        assert_stale_after(|pool| pool.shrink_to_fit());
    }

    #[test]
    fn a_retired_slot_survives_the_automatic_shrink_of_max_free() {
        assert_stale_after(|pool| {
            pool.set_max_free(Some(0));
            let k = pool.insert_keyed(7);
            assert_eq!(pool.remove_key(k), Some(7)); // shrinks: vacant slots above 0
        });
    }

    #[test]
    fn a_retired_slot_survives_the_shrink_after_retain() {
        assert_stale_after(|pool| {
            pool.set_max_free(Some(0));
            let _ = pool.insert_keyed(7);
            pool.retain(|_, _| false);
        });
    }

    #[test]
    fn a_retired_slot_survives_a_handle_removal_that_shrinks() {
        assert_stale_after(|pool| {
            pool.set_max_free(Some(0));
            let h = pool.insert(7);
            assert_eq!(pool.remove(h), 7);
        });
    }

    #[test]
    fn slots_cost_the_value_or_a_u32_and_no_tag() {
        assert_eq!(size_of::<Slot<u8>>(), 4);
        assert_eq!(size_of::<Slot<[u8; 13]>>(), 16);
        assert_eq!(size_of::<Slot<u64>>(), 8);
        assert_eq!(size_of::<Slot<[u64; 2]>>(), 16);
    }
}
