//! [`Pool`]: index-based free-list storage in one contiguous buffer, branded.
//!
//! Seed 003's C free list of `int` indices, `boost::pool` and `ACE_Cached_Allocator`, with the
//! convention made a guarantee: handles are checked by the type system, not by discipline.
//!
//! # Storage
//!
//! A pool is a [`Slots`](crate::pool::slots) (the free-list storage shared with
//! [`KeyPool`](crate::KeyPool): one buffer of slots, a meta word per slot with its
//! generation, invariants L1 to L5) named through branded handles and keys. Its salt is
//! always 0 (every constructor here passes 0; the brand keeps foreign keys out), so its
//! removals take the storage's zero-salt quick test, one compare shorter than a
//! `KeyPool`'s.
//!
//! # What the type system proves, what runtime checks catch
//!
//! - A handle or key belongs to exactly one pool: the brand (`brand.rs`, and [`Pool::with`]).
//! - A handle's slot is occupied: handles are created only by inserting, are not `Copy`
//!   or `Clone`, and are consumed by `remove` (or by `into_key`, which gives up ownership).
//!   No other operation frees or moves an owned value: `remove_key`, `retain`, `clear`,
//!   `drain_keyed` and `compact` skip owned slots (and `compact` moves no value into
//!   one), `shrink_to_fit` only drops trailing vacant slots, and everything that empties
//!   the pool wholesale (`drain`, `into_iter`) consumes it. So `get(&handle)` reads the
//!   slot without a check (a `debug_assert!` stays).
//! - Keys are checked: a key matches only while its slot holds the very value it was
//!   made for (same generation), so a stale key gives `None`, never another value.
//! - Index space: at most `u32::MAX - 1` slots; `try_insert` hands the value back past it.
//!
//! # Invariants
//!
//! L1 to L5 are the storage's (`pool/slots.rs`), L3 among them: the storage removes an
//! owned slot's value only for its owner. The pool adds who the owner is:
//!
//! - **(P1) A handle owns its slot.** A `Handle<'id>` exists only for a slot marked
//!   `OCCUPIED | OWNED` of the one pool of brand `'id`, at most one per slot (`Handle::new`
//!   is `unsafe` for that). Only `remove` and `into_key`, which consume it, clear those
//!   bits; everything else leaves owned slots alone (L3).
//!
//! # Keyed values and owned values
//!
//! slab's and slotmap's whole-collection operations (`clear`, `drain`, `compact`) would
//! free or move values that a live handle proves are where they are, so here they act on
//! the *keyed* values only (those no handle owns): a handle stays valid across all of
//! them. Emptying the pool of every value takes the pool by value (`drain`,
//! `into_iter`), after which no handle can be used.

use core::fmt;
use core::iter::FusedIterator;
use core::ops::{Index, IndexMut};

use crate::brand::{Brand, Id};
use crate::error::{AllocError, TryAllocError, fail};
use crate::pool::slots::{Claim, GetDisjointMutError, Held, Slots, overlapping};
use crate::pool::stats::PoolStats;
use crate::pool::storage::PoolStorage;
use crate::pool::version::Version;
use crate::pool::{Drain, IntoIter, Iter, IterMut};
use crate::pool::{Handle, Key};

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
/// use arena_kit::Pool;
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
    /// The storage (`pool/slots.rs`: invariants L1 to L5 live there; P1 is kept here).
    slots: Slots<T>,
    brand: Id<'id>,
}

#[cfg(feature = "alloc")]
impl<T> Pool<'_, T> {
    /// Runs `f` with a new, empty pool of a brand of its own, and returns what `f` returns.
    ///
    /// The closure must accept a pool of *any* brand (`for<'id>`), which is what makes the
    /// brand fresh: the result cannot mention it, so nothing branded escapes.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::Pool;
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
    /// ```compile_fail,E0521
    /// let mut outside = None;
    /// arena_kit::Pool::with(|mut pool| outside = Some(pool.insert(1)));
    /// ```
    pub fn with<R>(f: impl for<'id> FnOnce(Pool<'id, T>) -> R) -> R {
        Self::with_capacity(0, f)
    }

    /// [`with`](Self::with), with room for `capacity` values before the buffer grows.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::<u64>::with_capacity(1000, |pool| {
    ///     assert!(pool.capacity() >= 1000);
    /// });
    /// ```
    pub fn with_capacity<R>(capacity: usize, f: impl for<'id> FnOnce(Pool<'id, T>) -> R) -> R {
        Brand::with(|brand| f(Pool::with_capacity_in(capacity, brand)))
    }
}

impl<T> Pool<'_, T> {
    /// Runs `f` with a new, empty pool over the caller's `storage` (room for `N` values),
    /// of a brand of its own, as [`with`](Self::with) does on the heap. The pool never
    /// grows and never calls an allocator: it works without the `alloc` feature. An
    /// insert into a full pool fails: [`try_insert`](Self::try_insert) hands the value
    /// back with [`AllocError::CapacityExceeded`], [`insert`](Self::insert) panics.
    ///
    /// The values still in the pool when `f` returns are dropped then; the storage is
    /// the caller's again, empty, and can serve the next pool.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{Pool, pool::PoolStorage};
    ///
    /// struct Session { user: &'static str, requests: u32 }
    ///
    /// let mut storage = PoolStorage::<Session, 8>::new();
    /// Pool::with_storage(&mut storage, |mut sessions| {
    ///     let ada = sessions.insert_keyed(Session { user: "ada", requests: 0 });
    ///     sessions.get_key_mut(ada).unwrap().requests += 1;
    ///     assert_eq!(sessions.get_key(ada).map(|s| (s.user, s.requests)), Some(("ada", 1)));
    ///     assert_eq!(sessions.capacity(), 8);
    /// });
    /// ```
    ///
    /// A pool cannot outlive the call, so it cannot outlive the storage:
    ///
    /// ```compile_fail,E0521
    /// let mut storage = arena_kit::pool::PoolStorage::<u8, 4>::new();
    /// let mut outside = None;
    /// arena_kit::Pool::with_storage(&mut storage, |pool| outside = Some(pool));
    /// ```
    pub fn with_storage<const N: usize, R>(
        storage: &mut PoolStorage<T, N>,
        f: impl for<'id> FnOnce(Pool<'id, T>) -> R,
    ) -> R {
        Brand::with(|brand| {
            // The pool cannot outlive this call: its type names the fresh brand `'id`,
            // which `R` cannot mention and no place outside `f` can hold. A pool leaked
            // inside `f` leaves its values in the `MaybeUninit` slots: a leak.
            // SAFETY: so the pool lives within the call, for which `storage` is
            // borrowed mutably: nothing else uses it, and it outlives the pool.
            f(unsafe { Pool::over_storage(storage, brand) })
        })
    }
}

impl<'id, T> Pool<'id, T> {
    /// Runs `f` with a new, empty pool carrying `brand` over the caller's `storage`: for
    /// a value type that mentions the brand itself (see [`Brand`]) with no allocator, as
    /// [`new_in`](Self::new_in) is on the heap. The pool is
    /// [`with_storage`](Self::with_storage)'s: `N` values, no growth, a full pool an
    /// [`AllocError::CapacityExceeded`] from the `try_` methods.
    ///
    /// `f` gets the pool by `&mut`, not by value: the brand is the caller's, so a type
    /// that names it may leave `f`, and a pool that did could outlive `storage`. What
    /// needs the pool by value (`drain`, `into_iter`) has
    /// [`drain_keyed`](Self::drain_keyed) and [`clear`](Self::clear) here instead. The
    /// values still in the pool when `f` returns are dropped then, and the storage is
    /// empty again.
    ///
    /// # Examples
    ///
    /// A linked list whose nodes hold keys of their own pool, in eight slots of the
    /// stack:
    ///
    /// ```
    /// use arena_kit::{Brand, Key, Pool, pool::PoolStorage};
    ///
    /// struct Node<'id> { value: u32, next: Option<Key<'id>> }
    ///
    /// let sum = Brand::with(|brand| {
    ///     let mut storage = PoolStorage::<Node<'_>, 8>::new();
    ///     Pool::with_storage_in(&mut storage, brand, |list| {
    ///         let mut head = None;
    ///         for value in 1..=8 {
    ///             head = Some(list.insert_keyed(Node { value, next: head }));
    ///         }
    ///         assert!(list.try_insert_keyed(Node { value: 9, next: head }).is_err()); // full
    ///         let (mut sum, mut at) = (0, head);
    ///         while let Some(node) = at.and_then(|key| list.get_key(key)) {
    ///             sum += node.value;
    ///             at = node.next;
    ///         }
    ///         sum
    ///     })
    /// });
    /// assert_eq!(sum, 36);
    /// ```
    ///
    /// The pool cannot leave `f`, even into a place of its own brand:
    ///
    /// ```compile_fail,E0521
    /// use arena_kit::{Brand, Pool, pool::PoolStorage};
    ///
    /// Brand::with(|brand| {
    ///     let mut outside = None;
    ///     let mut storage = PoolStorage::<u8, 4>::new();
    ///     Pool::with_storage_in(&mut storage, brand, |pool| outside = Some(pool));
    /// });
    /// ```
    pub fn with_storage_in<const N: usize, R>(
        storage: &mut PoolStorage<T, N>,
        brand: Brand<'id>,
        f: impl FnOnce(&mut Pool<'id, T>) -> R,
    ) -> R {
        // `f` gets a borrow that ends with the call, and no second pool of this brand
        // exists to swap with (the brand is consumed here): the pool stays in this frame
        // and is dropped before `storage`'s borrow ends.
        // SAFETY: so the pool lives within the call, for which `storage` is borrowed
        // mutably: nothing else uses it, and it outlives the pool.
        let mut pool = unsafe { Pool::over_storage(storage, brand) };
        f(&mut pool)
    }

    /// A new, empty pool carrying `brand`, over the caller's `storage`.
    ///
    /// # Safety
    ///
    /// `storage` outlives the pool, and nothing else uses it while the pool lives
    /// (the type says neither: the caller's own type or closure must).
    pub(crate) unsafe fn over_storage<const N: usize>(
        storage: &mut PoolStorage<T, N>,
        brand: Brand<'id>,
    ) -> Self {
        // SAFETY: forwarded from the caller.
        let slots = unsafe { Slots::fixed(storage.slots_mut(), 0) };
        Pool { slots, brand: brand.into_id() }
    }
}

#[cfg(feature = "alloc")]
impl<'id, T> Pool<'id, T> {
    /// A new, empty pool carrying `brand`: for value types that mention the brand
    /// themselves (see [`Brand`]); [`Pool::with`] is shorter otherwise.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{Brand, Key, Pool};
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
    /// arena_kit::Brand::with(|brand| {
    ///     let pool = arena_kit::Pool::<u8>::with_capacity_in(64, brand);
    ///     assert!(pool.capacity() >= 64);
    /// });
    /// ```
    #[must_use]
    pub fn with_capacity_in(capacity: usize, brand: Brand<'id>) -> Self {
        // Salt 0: the brand already keeps every other pool's keys out.
        Pool { slots: Slots::with_capacity(capacity, 0), brand: brand.into_id() }
    }
}

impl<'id, T> Pool<'id, T> {
    // ----- inserting --------------------------------------------------------------------

    /// Inserts `value` and returns its owning handle.
    ///
    /// # Panics
    ///
    /// If the pool already holds `u32::MAX - 1` slots, or out of memory.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
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
        let brand = self.brand;
        match self.slots.vacant() {
            Ok(entry) => {
                let (index, _) = entry.fill(value, true);
                // SAFETY: P1: the slot was just filled and marked owned: this is its only
                // handle, of this pool's brand.
                unsafe { Handle::new(index, brand) }
            }
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
    /// arena_kit::Pool::with(|mut pool| {
    ///     let h = pool.try_insert(5).unwrap();
    ///     assert_eq!(pool.remove(h), 5);
    /// });
    /// ```
    #[inline]
    pub fn try_insert(&mut self, value: T) -> Result<Handle<'id>, TryAllocError<T>> {
        let brand = self.brand;
        match self.slots.vacant() {
            Ok(entry) => {
                let (index, _) = entry.fill(value, true);
                // SAFETY: P1: as in `insert`.
                Ok(unsafe { Handle::new(index, brand) })
            }
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
    /// arena_kit::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(3.5);
    ///     let again = k;
    ///     assert_eq!(pool.get_key(again), Some(&3.5));
    /// });
    /// ```
    #[inline]
    #[track_caller]
    pub fn insert_keyed(&mut self, value: T) -> Key<'id> {
        let brand = self.brand;
        match self.slots.vacant() {
            Ok(entry) => {
                let (index, version) = entry.fill(value, false);
                Key::new(index, version, brand)
            }
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
    /// arena_kit::Pool::with(|mut pool| {
    ///     let k = pool.try_insert_keyed('k').unwrap();
    ///     assert_eq!(pool.remove_key(k), Some('k'));
    /// });
    /// ```
    #[inline]
    pub fn try_insert_keyed(&mut self, value: T) -> Result<Key<'id>, TryAllocError<T>> {
        let brand = self.brand;
        match self.slots.vacant() {
            Ok(entry) => {
                let (index, version) = entry.fill(value, false);
                Ok(Key::new(index, version, brand))
            }
            Err(e) => Err(TryAllocError::new(e, value)),
        }
    }

    /// Claims the slot the next value will take, so its key is known before the value is
    /// built (slab's `vacant_entry`): [`VacantEntry::key`], then
    /// [`insert`](VacantEntry::insert) or [`insert_keyed`](VacantEntry::insert_keyed).
    /// The key is burnt when the slot is claimed: an entry dropped unfilled, or
    /// forgotten, leaves the pool as it was except that the key it showed will never
    /// name a value.
    ///
    /// # Panics
    ///
    /// As [`insert`](Self::insert), if no slot can be claimed.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{Key, Pool};
    ///
    /// struct Node<'id> { me: Key<'id>, label: &'static str }
    ///
    /// arena_kit::Brand::with(|brand| {
    ///     let mut pool = Pool::new_in(brand);
    ///     let entry = pool.vacant_entry();
    ///     let me = entry.key();
    ///     let k = entry.insert_keyed(Node { me, label: "self-aware" });
    ///     assert_eq!(pool.get_key(k).unwrap().me, k);
    /// });
    /// ```
    #[track_caller]
    pub fn vacant_entry(&mut self) -> VacantEntry<'_, 'id, T> {
        self.try_vacant_entry().unwrap_or_else(|e| fail(e))
    }

    /// Like [`vacant_entry`](Self::vacant_entry), with an error instead of a panic.
    ///
    /// # Errors
    ///
    /// As [`try_insert`](Self::try_insert).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let entry = pool.try_vacant_entry().unwrap();
    ///     let key = entry.key();
    ///     assert_eq!(entry.insert_keyed(7), key);
    /// });
    /// ```
    pub fn try_vacant_entry(&mut self) -> Result<VacantEntry<'_, 'id, T>, AllocError> {
        let brand = self.brand;
        Ok(VacantEntry { claim: self.slots.claim()?, brand })
    }

    /// Inserts the value `make` builds from its own key, and returns that key (slotmap's
    /// `insert_with_key`): for values that name themselves. If `make` panics the pool is
    /// unchanged and the key it was given never names a value.
    ///
    /// # Panics
    ///
    /// As [`insert`](Self::insert), and if `make` panics.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let k = pool.insert_with_key(|k| format!("I am {k:?}"));
    ///     assert!(pool.get_key(k).unwrap().starts_with("I am Key(0"));
    /// });
    /// ```
    #[track_caller]
    pub fn insert_with_key(&mut self, make: impl FnOnce(Key<'id>) -> T) -> Key<'id> {
        let entry = self.vacant_entry();
        let key = entry.key();
        // The claim burnt `key`: if `make` panics, it never names a value.
        let value = make(key);
        entry.insert_keyed(value)
    }

    /// The key of the value now in occupied slot `index`.
    pub(super) fn key_at(&self, index: u32) -> Key<'id> {
        let version = self.slots.version_at(index);
        debug_assert!(version.is_some(), "slot {index} is occupied");
        Key::new(index, version.unwrap_or(Version::FIRST), self.brand)
    }

    /// The key of the value in slot `index`, if it is occupied.
    #[inline]
    pub(super) fn occupied_key_at(&self, index: u32) -> Option<Key<'id>> {
        Some(Key::new(index, self.slots.version_at(index)?, self.brand))
    }

    /// The key of the value in slot `index` if it is occupied and no handle owns it.
    #[inline]
    pub(super) fn unowned_key_at(&self, index: u32) -> Option<Key<'id>> {
        let version = self.slots.unowned_version_at(index)?;
        Some(Key::new(index, version, self.brand))
    }

    /// The value in slot `index`, which must be occupied (checked: panics otherwise).
    /// For [`RowIndex`](crate::RowIndex), which names its slots by index.
    #[track_caller]
    pub(super) fn occupied_mut(&mut self, index: u32) -> &mut T {
        self.slots.occupied_mut(index)
    }

    // ----- owning handles -------------------------------------------------------------

    /// The value of a handle: no bounds, vacancy or generation check in release builds.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let h = pool.insert(vec![1, 2]);
    ///     assert_eq!(pool.get(&h).len(), 2);
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn get(&self, handle: &Handle<'id>) -> &T {
        debug_assert!(self.slots.is_owned(handle.slot()), "a handle's slot is occupied and owned");
        // SAFETY: P1: the brand says `handle` was made by this pool, and its slot is
        // occupied and owned, so in bounds and holding a `T`.
        unsafe { self.slots.get_unchecked(handle.slot()) }
    }

    /// The value of a handle, mutably: no check in release builds.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let h = pool.insert(1);
    ///     *pool.get_mut(&h) += 1;
    ///     assert_eq!(pool[&h], 2);
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn get_mut(&mut self, handle: &Handle<'id>) -> &mut T {
        debug_assert!(self.slots.is_owned(handle.slot()), "a handle's slot is occupied and owned");
        // SAFETY: P1, as in `get`; `&mut self` makes the access exclusive.
        unsafe { self.slots.get_unchecked_mut(handle.slot()) }
    }

    /// Removes a handle's value and returns it; the slot goes on the free list.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let h = pool.insert(String::from("v"));
    ///     assert_eq!(pool.remove(h), "v");
    ///     assert!(pool.is_empty());
    /// });
    /// ```
    #[inline]
    #[expect(clippy::needless_pass_by_value, reason = "consuming the handle is the point")]
    pub fn remove(&mut self, handle: Handle<'id>) -> T {
        debug_assert!(self.slots.is_owned(handle.slot()), "a handle's slot is occupied and owned");
        // SAFETY: P1: the handle proves the slot occupied, owned and in bounds (its
        // flags are `Held::Owned`'s), and it is its owner, consumed here.
        unsafe { self.slots.remove_unchecked::<true>(handle.slot(), Held::Owned) }
    }

    // ----- keys ------------------------------------------------------------------------

    /// A copyable key to a handle's value. The key reads the value while it lives, but
    /// cannot remove it while the handle owns it.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
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
    /// arena_kit::Pool::with(|mut pool| {
    ///     let h = pool.insert('v');
    ///     let k = pool.into_key(h);
    ///     assert_eq!(pool.remove_key(k), Some('v'));
    /// });
    /// ```
    #[expect(clippy::needless_pass_by_value, reason = "consuming the handle is the point")]
    pub fn into_key(&mut self, handle: Handle<'id>) -> Key<'id> {
        self.slots.disown(handle.slot());
        self.key_at(handle.slot())
    }

    /// Takes ownership of a keyed value: `Some(handle)` if the key is live and no handle
    /// owns the slot yet. From then on no key can remove it.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(1);
    ///     let h = pool.take_handle(k).unwrap();
    ///     assert!(pool.take_handle(k).is_none()); // already owned
    ///     assert_eq!(pool.remove(h), 1);
    /// });
    /// ```
    pub fn take_handle(&mut self, key: Key<'id>) -> Option<Handle<'id>> {
        if self.slots.own(key.slot(), key.version()) {
            // SAFETY: P1: the slot holds the key's value (exact version match, L4) and was
            // not owned (the match excludes `OWNED`): this is its only handle now.
            Some(unsafe { Handle::new(key.slot(), self.brand) })
        } else {
            None
        }
    }

    /// A key of this pool from a `u64` ([`Key::to_raw`]), parsed as
    /// [`TypedKey::from_raw`](crate::TypedKey::from_raw) parses one: safe for any bits. A
    /// word `to_raw` made comes back as the same key; a word whose version half no pool
    /// gives a key becomes a key that names no value; no word names a removed value or a
    /// vacant slot.
    ///
    /// The brand says which pool a key is for, not where its bits came from: a word
    /// from another pool (or an earlier run) is checked like any key, and may name a
    /// value here, since a branded pool's versions start at 0 (a
    /// [`KeyPool`](crate::KeyPool) salts its versions against that). Use it for keys
    /// that went out of the program and come back, such as a session id.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(1);
    ///     let cookie = k.to_raw();
    ///     assert_eq!(pool.get_key(pool.key_from_raw(cookie)), Some(&1));
    ///     pool.remove_key(k);
    ///     assert_eq!(pool.get_key(pool.key_from_raw(cookie)), None);
    ///     assert_eq!(pool.get_key(pool.key_from_raw(u64::MAX)), None);
    /// });
    /// ```
    #[must_use]
    pub fn key_from_raw(&self, raw: u64) -> Key<'id> {
        Key::from_raw_in(raw, self.brand)
    }

    /// Whether `key`'s value is still in the pool.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(());
    ///     assert!(pool.contains_key(k));
    ///     pool.remove_key(k);
    ///     assert!(!pool.contains_key(k));
    /// });
    /// ```
    #[must_use]
    pub fn contains_key(&self, key: Key<'id>) -> bool {
        self.slots.contains(key.slot(), key.version())
    }

    /// The value of `key`, or `None` if it was removed.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed("kept");
    ///     assert_eq!(pool.get_key(k), Some(&"kept"));
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn get_key(&self, key: Key<'id>) -> Option<&T> {
        self.slots.get(key.slot(), key.version())
    }

    /// The value of `key`, mutably, or `None` if it was removed.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(1);
    ///     *pool.get_key_mut(k).unwrap() = 2;
    ///     assert_eq!(pool.get_key(k), Some(&2));
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn get_key_mut(&mut self, key: Key<'id>) -> Option<&mut T> {
        self.slots.get_mut(key.slot(), key.version())
    }

    /// Removes `key`'s value: `None` if the key is stale or a handle owns the slot.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(7);
    ///     assert_eq!(pool.remove_key(k), Some(7));
    ///     assert_eq!(pool.remove_key(k), None); // a double free is a `None`
    /// });
    /// ```
    pub fn remove_key(&mut self, key: Key<'id>) -> Option<T> {
        self.slots.remove_zero_salt(key.slot(), key.version())
    }

    // ----- whole-pool operations ----------------------------------------------------------

    /// Number of values in the pool.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     pool.insert_keyed(0);
    ///     assert_eq!(pool.len(), 1);
    /// });
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the pool holds no value.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::<u8>::with(|pool| assert!(pool.is_empty()));
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.slots.len() == 0
    }

    /// Slots the buffer holds without growing.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::<u8>::with_capacity(10, |pool| assert!(pool.capacity() >= 10));
    /// ```
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.slots.capacity()
    }

    /// Makes room for `additional` more values without growing.
    ///
    /// # Panics
    ///
    /// If the new capacity overflows `usize` or memory runs out (as `Vec::reserve`), or,
    /// for a pool over [`PoolStorage`], if the storage cannot hold them.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::<u32>::with(|mut pool| {
    ///     pool.reserve(100);
    ///     assert!(pool.capacity() >= 100);
    /// });
    /// ```
    pub fn reserve(&mut self, additional: usize) {
        self.slots.reserve(additional);
    }

    /// The pool's counters.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let _k = pool.insert_keyed(1);
    ///     assert_eq!(pool.stats().live, 1);
    /// });
    /// ```
    #[must_use]
    pub fn stats(&self) -> PoolStats {
        self.slots.stats()
    }

    /// Gives back the trailing vacant slots and the spare buffer.
    ///
    /// Only vacant slots after the last occupied one can go (an index never moves); keys
    /// to them stay stale, because slots made later start at a higher generation.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
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
        self.slots.shrink_to_fit();
    }

    /// The free-slot policy (ACE's high-water mark): when more than twice `max_free` slots
    /// are vacant after a removal, the trailing ones are given back as by
    /// [`shrink_to_fit`](Self::shrink_to_fit). `None` (the default) never shrinks.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     pool.set_max_free(Some(8));
    ///     let keys: Vec<_> = (0..1000).map(|i| pool.insert_keyed(i)).collect();
    ///     for &k in keys.iter().rev() {
    ///         pool.remove_key(k);
    ///     }
    ///     assert!(pool.stats().free <= 16);
    /// });
    /// ```
    pub fn set_max_free(&mut self, max_free: Option<usize>) {
        self.slots.set_max_free(max_free);
    }

    /// Keeps the keyed values for which `keep` returns `true` and removes the others.
    /// Values owned by a handle are not visited: only their handle may remove them.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
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
        let brand = self.brand;
        self.slots.retain(|index, version, value| keep(Key::new(index, version, brand), value));
    }

    /// Removes every keyed value (slab's and slotmap's `clear`, for the values no handle
    /// owns): a value owned by a live handle stays, since the handle proves it is there.
    /// `len()` after it is the number of owned values. The buffer stays for reuse, and the
    /// slots after the last owned value are forgotten, so new values fill the lowest free
    /// slots, then new ones in order, as after slab's `clear`.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let h = pool.insert('h');
    ///     let k = pool.insert_keyed('k');
    ///     pool.clear();
    ///     assert_eq!((pool.len(), pool[&h], pool.get_key(k)), (1, 'h', None));
    /// });
    /// ```
    pub fn clear(&mut self) {
        self.retain(|_, _| false);
        self.slots.truncate_vacant_tail();
    }

    /// Removes the keyed values one by one as the returned iterator yields them with their
    /// (now stale) keys, in slot order (slab's and slotmap's `drain`, for the values no
    /// handle owns). Values owned by live handles stay; the pool stays usable. Dropping
    /// the iterator removes the keyed values it did not reach.
    ///
    /// To empty the pool of every value, owned ones included, consume it:
    /// [`drain`](Self::drain) or `into_iter()`.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let h = pool.insert(0);
    ///     let a = pool.insert_keyed(1);
    ///     let b = pool.insert_keyed(2);
    ///     let drained: Vec<_> = pool.drain_keyed().collect();
    ///     assert_eq!(drained, [(a, 1), (b, 2)]);
    ///     assert_eq!((pool.len(), pool[&h]), (1, 0));
    /// });
    /// ```
    pub fn drain_keyed(&mut self) -> Drain<'_, Key<'id>, T> {
        let model = self.model_key();
        let unowned = self.slots.unowned_len();
        Drain::new(self.slots.drain_unowned(unowned), model)
    }

    #[cfg(feature = "alloc")]
    /// Empties the pool, yielding every value (in slot order). Consumes the pool: any
    /// handle still alive would otherwise name an empty slot. `into_iter()` does the same
    /// with keys; [`drain_keyed`](Self::drain_keyed) keeps the pool (and its owned values).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     pool.insert_keyed(1);
    ///     let _h = pool.insert(2);
    ///     let all: Vec<i32> = pool.drain().collect();
    ///     assert_eq!(all, [1, 2]);
    /// });
    /// ```
    #[must_use = "the values are dropped with the iterator if it is not used"]
    pub fn drain(mut self) -> alloc::vec::IntoIter<T> {
        // SAFETY: P1: the pool is consumed, so no handle can be used with it again.
        unsafe { self.slots.take_all() }.into_iter()
    }

    /// Defragments the keyed values (slab's `compact`): moves keyed values from the
    /// highest slots into the lowest vacant ones, then gives back the trailing vacant
    /// slots and the spare buffer. Each move is announced first as
    /// `rekey(value, old_key, new_key)`, for the caller to update where it kept the key;
    /// if `rekey` returns `false`, that value stays and compaction stops there.
    ///
    /// Values owned by handles never move (a handle names its slot, unchecked): they stay
    /// where they are, and keyed values fill the holes around them. A moved value's old
    /// key is stale at once. If `rekey` panics, the value it was given stays where it was
    /// with its key, the moves made before stand, and the pool stays consistent.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let pinned = pool.insert("owned");
    ///     let gone = pool.insert_keyed("gone");
    ///     let mut last = pool.insert_keyed("last");
    ///     pool.remove_key(gone);
    ///     pool.compact(|_, old, new| {
    ///         assert_eq!(old, last);
    ///         last = new;
    ///         true
    ///     });
    ///     assert_eq!((last.index(), pool[last]), (1, "last"));
    ///     assert_eq!((pinned.index(), pool[&pinned]), (0, "owned"));
    ///     assert_eq!(pool.stats().free, 0);
    /// });
    /// ```
    pub fn compact(&mut self, mut rekey: impl FnMut(&mut T, Key<'id>, Key<'id>) -> bool) {
        let brand = self.brand;
        // L3: `Slots::compact` moves only unowned values, into vacant slots.
        self.slots.compact(|value, (old_index, old_version), (new_index, new_version)| {
            rekey(
                value,
                Key::new(old_index, old_version, brand),
                Key::new(new_index, new_version, brand),
            )
        });
    }

    /// The values of several keys, mutably at once (slab's and slotmap's
    /// `get_disjoint_mut`). Keys of owned values count too; for handles, see
    /// [`get_disjoint_handles_mut`](Self::get_disjoint_handles_mut).
    ///
    /// # Errors
    ///
    /// [`GetDisjointMutError::OverlappingKeys`] if two keys are equal (checked first, over
    /// the whole array), [`GetDisjointMutError::StaleKey`] if a key's value was removed.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{GetDisjointMutError, Pool};
    ///
    /// Pool::with(|mut pool| {
    ///     let (a, b) = (pool.insert_keyed(1), pool.insert_keyed(2));
    ///     let [x, y] = pool.get_disjoint_mut([a, b]).unwrap();
    ///     std::mem::swap(x, y);
    ///     assert_eq!((pool[a], pool[b]), (2, 1));
    ///     assert_eq!(pool.get_disjoint_mut([b, b]), Err(GetDisjointMutError::OverlappingKeys));
    /// });
    /// ```
    pub fn get_disjoint_mut<const N: usize>(
        &mut self,
        keys: [Key<'id>; N],
    ) -> Result<[&mut T; N], GetDisjointMutError> {
        self.slots.get_disjoint_mut(keys.map(|k| (k.slot(), k.version())))
    }

    /// The values of several handles, mutably at once. A handle is always live, but the
    /// same handle can be lent twice (`[&h, &h]`), so overlap is still checked; nothing
    /// else is.
    ///
    /// # Errors
    ///
    /// [`GetDisjointMutError::OverlappingKeys`] if two of the handles are the same.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{GetDisjointMutError, Pool};
    ///
    /// Pool::with(|mut pool| {
    ///     let (a, b) = (pool.insert(vec![1]), pool.insert(vec![2]));
    ///     let [x, y] = pool.get_disjoint_handles_mut([&a, &b]).unwrap();
    ///     x.append(y);
    ///     assert_eq!((pool[&a].len(), pool[&b].len()), (2, 0));
    ///     assert!(pool.get_disjoint_handles_mut([&a, &a]).is_err());
    /// });
    /// ```
    pub fn get_disjoint_handles_mut<const N: usize>(
        &mut self,
        handles: [&Handle<'id>; N],
    ) -> Result<[&mut T; N], GetDisjointMutError> {
        let indices = handles.map(Handle::slot);
        if overlapping(&indices) {
            return Err(GetDisjointMutError::OverlappingKeys);
        }
        debug_assert!(indices.iter().all(|&i| self.slots.is_owned(i)), "handles own their slots");
        // SAFETY: P1: each handle's slot is occupied and owned, so in bounds and holding a
        // `T`; no two are equal (checked above).
        Ok(unsafe { self.slots.get_disjoint_unchecked_mut(indices) })
    }

    /// Every value with its key, in slot order (owned values included: a key reads them);
    /// from either end, exact-size, `Clone`.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let a = pool.insert_keyed('a');
    ///     let (k, v) = pool.iter().next().unwrap();
    ///     assert_eq!((k, *v), (a, 'a'));
    /// });
    /// ```
    #[must_use]
    pub fn iter(&self) -> Iter<'_, Key<'id>, T> {
        Iter::new(self.slots.iter(), self.model_key())
    }

    /// Every value with its key, mutably, in slot order; from either end, exact-size.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let h = pool.insert(1);
    ///     for (_, v) in pool.iter_mut() {
    ///         *v *= 10;
    ///     }
    ///     assert_eq!(pool[&h], 10);
    /// });
    /// ```
    pub fn iter_mut(&mut self) -> IterMut<'_, Key<'id>, T> {
        let model = self.model_key();
        IterMut::new(self.slots.iter_mut(), model)
    }

    /// Every key, in slot order (owned values' too); from either end, exact-size, `Clone`.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(());
    ///     assert_eq!(pool.keys().collect::<Vec<_>>(), [k]);
    /// });
    /// ```
    #[must_use]
    pub fn keys(
        &self,
    ) -> impl DoubleEndedIterator<Item = Key<'id>> + ExactSizeIterator + FusedIterator + Clone + '_
    {
        self.iter().map(|(key, _)| key)
    }

    /// Every value, in slot order; from either end, exact-size, `Clone`.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let _h = pool.insert(4);
    ///     pool.insert_keyed(5);
    ///     assert_eq!(pool.values().sum::<i32>(), 9);
    /// });
    /// ```
    #[must_use]
    pub fn values(
        &self,
    ) -> impl DoubleEndedIterator<Item = &T> + ExactSizeIterator + FusedIterator + Clone + '_ {
        self.iter().map(|(_, value)| value)
    }

    /// Every value, mutably, in slot order; from either end, exact-size.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let h = pool.insert(4);
    ///     pool.values_mut().for_each(|v| *v *= 2);
    ///     assert_eq!(pool[&h], 8);
    /// });
    /// ```
    pub fn values_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = &mut T> + ExactSizeIterator + FusedIterator + '_ {
        self.iter_mut().map(|(_, value)| value)
    }

    /// A key of this pool's brand, which iterators make their keys like.
    fn model_key(&self) -> Key<'id> {
        Key::new(0, Version::FIRST, self.brand)
    }
}

/// Every value with its key, in slot order, the pool consumed: owned values too (no
/// handle can reach a consumed pool).
///
/// # Examples
///
/// ```
/// arena_kit::Pool::with(|mut pool| {
///     let _owned = pool.insert('o');
///     let k = pool.insert_keyed('k');
///     let all: Vec<_> = pool.into_iter().collect();
///     assert_eq!(all[1], (k, 'k'));
///     assert_eq!(all[0].1, 'o');
/// });
/// ```
impl<'id, T> IntoIterator for Pool<'id, T> {
    type Item = (Key<'id>, T);
    type IntoIter = IntoIter<Key<'id>, T>;

    fn into_iter(self) -> Self::IntoIter {
        let model = self.model_key();
        // L3: the pool is consumed, so no handle can be used with its values again.
        IntoIter::new(self.slots.into_iter(), model)
    }
}

/// Every value with its key, in slot order: [`Pool::iter`].
impl<'a, 'id, T> IntoIterator for &'a Pool<'id, T> {
    type Item = (Key<'id>, &'a T);
    type IntoIter = Iter<'a, Key<'id>, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Every value with its key, mutably, in slot order: [`Pool::iter_mut`].
impl<'a, 'id, T> IntoIterator for &'a mut Pool<'id, T> {
    type Item = (Key<'id>, &'a mut T);
    type IntoIter = IterMut<'a, Key<'id>, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// A claimed slot of a [`Pool`], from [`Pool::vacant_entry`]: its key is known, the
/// value not yet stored. Dropped unfilled (or forgotten), it leaves the pool as it was,
/// but for the key, which was burnt when the slot was claimed and names no value, ever.
pub struct VacantEntry<'a, 'id, T> {
    claim: Claim<'a, T>,
    brand: Id<'id>,
}

impl<'id, T> VacantEntry<'_, 'id, T> {
    /// The key the value will have.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let entry = pool.vacant_entry();
    ///     let key = entry.key();
    ///     entry.insert_keyed('x');
    ///     assert_eq!(pool.get_key(key), Some(&'x'));
    /// });
    /// ```
    #[must_use]
    pub fn key(&self) -> Key<'id> {
        Key::new(self.claim.index(), self.claim.version(), self.brand)
    }

    /// Stores `value` in the slot, owned by the returned handle ([`key`](Self::key) reads
    /// it but cannot remove it, as for [`Pool::insert`]).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let entry = pool.vacant_entry();
    ///     let key = entry.key();
    ///     let h = entry.insert(5);
    ///     assert_eq!(pool.key(&h), key);
    ///     assert_eq!(pool.remove(h), 5);
    /// });
    /// ```
    pub fn insert(self, value: T) -> Handle<'id> {
        let (index, _) = self.claim.fill(value, true);
        // SAFETY: P1: the slot was just filled and marked owned: this is its only handle,
        // of this pool's brand.
        unsafe { Handle::new(index, self.brand) }
    }

    /// Stores `value` in the slot and returns its key (no owner).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let entry = pool.vacant_entry();
    ///     let key = entry.key();
    ///     assert_eq!(entry.insert_keyed(1), key);
    /// });
    /// ```
    pub fn insert_keyed(self, value: T) -> Key<'id> {
        let (index, version) = self.claim.fill(value, false);
        Key::new(index, version, self.brand)
    }
}

impl<T> fmt::Debug for VacantEntry<'_, '_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VacantEntry").field("slot", &self.claim.index()).finish()
    }
}

/// Indexing by key: the key's value.
///
/// # Panics
///
/// If the key is stale (its value was removed): use [`Pool::get_key`] where that can
/// happen.
impl<'id, T> Index<Key<'id>> for Pool<'id, T> {
    type Output = T;

    #[track_caller]
    fn index(&self, key: Key<'id>) -> &T {
        match self.get_key(key) {
            Some(value) => value,
            None => stale_key(key),
        }
    }
}

/// Indexing by key, mutably.
///
/// # Panics
///
/// If the key is stale, as [`Index`].
impl<'id, T> IndexMut<Key<'id>> for Pool<'id, T> {
    #[track_caller]
    fn index_mut(&mut self, key: Key<'id>) -> &mut T {
        match self.slots.get_mut(key.slot(), key.version()) {
            Some(value) => value,
            None => stale_key(key),
        }
    }
}

#[cold]
#[track_caller]
fn stale_key(key: Key<'_>) -> ! {
    panic!("arena-kit: {key:?} is stale: its value was removed from the pool")
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

impl<T> fmt::Debug for Pool<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pool")
            .field("type", &core::any::type_name::<T>())
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}
