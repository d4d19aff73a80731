//! [`Slots`]: the free-list storage under every typed pool, by index and version.
//!
//! The branded [`Pool`](crate::Pool) (handles and keys that only type-check on it) and the
//! storable [`KeyPool`](crate::KeyPool) (keys checked at run time) are both a `Slots<T>`
//! and a way of naming its slots; the storage, the free list, the generations and their
//! invariants exist once, here.
//!
//! # Layout
//!
//! - `entries: Vec<Slot<T>>`, one per slot: a meta word (bit 0 occupied, bit 1 owned by a
//!   branded pool's handle, bits 2.. the generation keys are checked against) next to a
//!   union of a `T` and a `u32`: an occupied slot holds the value, a vacant one the index
//!   of the next vacant slot (the free list threads through the slots themselves). A slot
//!   costs `max(size_of::<T>(), 4) + 4` rounded to the alignment, as slotmap's does, and
//!   a key lookup reads one place: the version check and the value share a cache line.
//!
//! # Generations, and the salt
//!
//! A slot's generation rises by one at every removal, modulo 2^30; its *age* is its
//! generation less the salt. A slot is born at age `gen_floor` and *retires* (is never
//! reused) when a removal brings its age to `MAX_AGE` = 2^30 - 1: a vacant slot of that
//! age is retired. So a slot holds at most 2^30 - 1 values, its ages never wrap, and the
//! versions its keys carry never repeat, whatever the salt. The branded pool's
//! salt is 0 (its brand already keeps foreign keys out); a [`KeyPool`](crate::KeyPool)
//! draws a random salt, so the versions its keys carry start at a different place in
//! every pool, and a key of another pool matches a slot here only by a 2^-30 chance.
//!
//! # Invariants
//!
//! Every `unsafe` block below relies on one of these, and says which.
//!
//! - **(L1) The meta word describes the body.** A slot whose meta word has `OCCUPIED`
//!   holds an initialised `T` in its body's `value` field; any other holds a free-list
//!   link in `next` (unless retired). Occupied-and-filled become true together,
//!   in [`Vacant`]'s fill, which consumes the claim.
//! - **(L2) The free list** starting at `free_head` visits, through `next`, every vacant
//!   slot that is not retired, exactly once; all are in bounds.
//! - **(L3) Owned slots stay**: a slot marked `OWNED` is removed only through
//!   [`take`](Slots::take) by the owner's proof (the branded pool's handle, which
//!   `Pool` makes only for owned slots); key removals and `retain` skip it, and
//!   shrinking truncates nothing below an occupied slot.
//! - **(L4) Versions only grow** (modulo the wrap that retirement forbids): a slot's
//!   generation rises at every removal; a retired slot is never reused nor truncated; a
//!   slot made again past a truncation starts above every truncated generation
//!   (`gen_floor`). So a version matches only the value it was made for.

#![expect(
    clippy::cast_possible_truncation,
    reason = "slot indices are below MAX_SLOTS < u32::MAX, checked at insertion"
)]

use alloc::vec::Vec;
use core::mem::ManuallyDrop;
use core::num::NonZeroU32;
use core::ptr;

use crate::error::AllocError;

pub(crate) const OCCUPIED: u32 = 1;
pub(crate) const OWNED: u32 = 2;
const GEN_SHIFT: u32 = 2;
/// Generations are counted modulo 2^30.
const GEN_MASK: u32 = u32::MAX >> GEN_SHIFT;
/// The age (generation less the salt) of a retired slot; no value is ever stored at it,
/// except in a slot born there (`gen_floor` reached it), which retires at its removal.
const MAX_AGE: u32 = GEN_MASK;
/// "No next vacant slot".
const NONE: u32 = u32::MAX;
/// Slots the index space holds (`Handle` stores index + 1 in a `NonZeroU32`).
pub(crate) const MAX_SLOTS: usize = (u32::MAX - 1) as usize;

/// The key version of an occupied slot's meta word: the meta without the owned bit
/// (occupied slots have bit 0 set, so it is never zero).
#[inline]
fn version(meta: u32) -> NonZeroU32 {
    NonZeroU32::new(meta & !OWNED).unwrap_or(NonZeroU32::MIN)
}

/// A slot: its meta word, and the value or the next vacant index (L1).
struct Slot<T> {
    meta: u32,
    body: Body<T>,
}

/// A slot's body: the value, or the next vacant index.
union Body<T> {
    value: ManuallyDrop<T>,
    next: u32,
}

/// Free-list storage of `T`s by index and version; see the module docs.
pub(crate) struct Slots<T> {
    entries: Vec<Slot<T>>,
    free_head: u32,
    len: usize,
    /// Most slots there have been, recorded when slots are given back
    /// (`shrink_to_fit`); the peak of live values is the larger of this and the slot
    /// count now. Only a new slot can raise the peak: a slot is appended only when no
    /// free slot is left, so at that moment every slot but retired ones is occupied, and
    /// reusing a freed slot never takes `len` past the slot count. Kept off the insert
    /// path: appending a slot updates nothing but the vectors.
    peak: usize,
    /// How far above the salt new slots start: above the age of any slot
    /// `shrink_to_fit` dropped, or any claim of a new slot that was burnt, so a key to a
    /// dropped slot (or a burnt claim) cannot match the slot that later takes its index.
    gen_floor: u32,
    /// Where generations start (see the module docs): 0 for a branded pool.
    salt: u32,
    max_free: Option<usize>,
}

/// The counters of [`Slots::stats`].
pub(crate) struct SlotCounts {
    pub(crate) live: usize,
    pub(crate) free: usize,
    pub(crate) capacity: usize,
    pub(crate) peak: usize,
}

impl<T> Slots<T> {
    /// Empty storage with room for `capacity` values, generations starting at `salt`
    /// (reduced modulo 2^30).
    pub(crate) fn with_capacity(capacity: usize, salt: u32) -> Self {
        Slots {
            entries: Vec::with_capacity(capacity),
            free_head: NONE,
            len: 0,
            peak: 0,
            gen_floor: 0,
            salt: salt & GEN_MASK,
            max_free: None,
        }
    }

    /// A slot's age: its generation less the salt, modulo 2^30.
    #[inline]
    fn age(&self, meta: u32) -> u32 {
        (meta >> GEN_SHIFT).wrapping_sub(self.salt) & GEN_MASK
    }

    /// The meta word of a retired slot: vacant, at `MAX_AGE`.
    #[inline]
    fn retired_meta(&self) -> u32 {
        (self.salt.wrapping_add(MAX_AGE) & GEN_MASK) << GEN_SHIFT
    }

    /// Whether a vacant slot's meta word says it is retired.
    #[inline]
    fn is_retired(&self, meta: u32) -> bool {
        meta & OCCUPIED == 0 && self.age(meta) == MAX_AGE
    }

    // ----- inserting --------------------------------------------------------------------

    /// Claims the slot the next value goes into: the head of the free list, or a new slot
    /// at the end with room made for it in both vectors (the only step that can fail).
    /// Nothing about the storage changes until the entry is filled.
    #[inline]
    pub(crate) fn vacant(&mut self) -> Result<Vacant<'_, T>, AllocError> {
        if self.free_head == NONE {
            let len = self.entries.len();
            if len >= self.entries.capacity() || len >= MAX_SLOTS {
                self.grow()?;
            }
            // `len < MAX_SLOTS`, which fits a `u32`.
            return Ok(Vacant { index: len as u32, slots: self });
        }
        Ok(Vacant { index: self.free_head, slots: self })
    }

    /// Makes room for one more slot at the end of both vectors.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) -> Result<(), AllocError> {
        if self.entries.len() >= MAX_SLOTS {
            return Err(AllocError::CapacityExceeded { max: MAX_SLOTS });
        }
        if self.entries.try_reserve(1).is_err() {
            let layout = core::alloc::Layout::new::<Slot<T>>();
            return Err(AllocError::OutOfMemory { size: layout.size(), align: layout.align() });
        }
        Ok(())
    }

    // ----- reading ------------------------------------------------------------------------

    /// The version of occupied slot `index`, or `None` if it is vacant or out of bounds.
    #[inline]
    pub(crate) fn version_at(&self, index: u32) -> Option<NonZeroU32> {
        let meta = self.entries.get(index as usize)?.meta;
        (meta & OCCUPIED != 0).then(|| version(meta))
    }

    /// Whether slot `index` holds the value of `version` (owned or not).
    #[inline]
    pub(crate) fn contains(&self, index: u32, version: NonZeroU32) -> bool {
        self.entries.get(index as usize).is_some_and(|e| e.meta & !OWNED == version.get())
    }

    /// Whether slot `index` holds the *unowned* value of `version`: one compare, for
    /// storage that never marks a slot owned (a `KeyPool`).
    #[inline]
    pub(crate) fn contains_unowned(&self, index: u32, version: NonZeroU32) -> bool {
        self.entries.get(index as usize).is_some_and(|e| e.meta == version.get())
    }

    /// The unowned value of `version` in slot `index`, if it is still there.
    #[inline]
    pub(crate) fn get_unowned(&self, index: u32, version: NonZeroU32) -> Option<&T> {
        if self.contains_unowned(index, version) {
            // SAFETY: the slot is in bounds and holds the value the version was made for
            // (L4), occupied (the version has `OCCUPIED` set), so L1 gives a `T`.
            Some(unsafe { self.get_unchecked(index) })
        } else {
            None
        }
    }

    /// The unowned value of `version` in slot `index`, mutably, if it is still there.
    #[inline]
    pub(crate) fn get_unowned_mut(&mut self, index: u32, version: NonZeroU32) -> Option<&mut T> {
        if self.contains_unowned(index, version) {
            // SAFETY: as in `get_unowned`.
            Some(unsafe { self.get_unchecked_mut(index) })
        } else {
            None
        }
    }

    /// The value of `version` in slot `index`, if it is still there.
    #[inline]
    pub(crate) fn get(&self, index: u32, version: NonZeroU32) -> Option<&T> {
        if self.contains(index, version) {
            // SAFETY: the slot is in bounds and holds the value the version was made for:
            // the versions match (L4) and have `OCCUPIED` set, so L1 gives a `T`.
            Some(unsafe { self.get_unchecked(index) })
        } else {
            None
        }
    }

    /// The value of `version` in slot `index`, mutably, if it is still there.
    #[inline]
    pub(crate) fn get_mut(&mut self, index: u32, version: NonZeroU32) -> Option<&mut T> {
        if self.contains(index, version) {
            // SAFETY: as in `get`.
            Some(unsafe { self.get_unchecked_mut(index) })
        } else {
            None
        }
    }

    /// The value in slot `index`, unchecked.
    ///
    /// # Safety
    ///
    /// Slot `index` is in bounds and occupied.
    #[inline]
    pub(crate) unsafe fn get_unchecked(&self, index: u32) -> &T {
        let i = index as usize;
        debug_assert!(
            self.entries.get(i).is_some_and(|e| e.meta & OCCUPIED != 0),
            "slot {i} occupied"
        );
        // SAFETY: the caller guarantees an in-bounds slot.
        let slot = unsafe { self.entries.get_unchecked(i) };
        // SAFETY: L1: the caller guarantees an occupied slot, which holds a `T`.
        unsafe { &slot.body.value }
    }

    /// The value in slot `index`, mutably, unchecked.
    ///
    /// # Safety
    ///
    /// Slot `index` is in bounds and occupied.
    #[inline]
    pub(crate) unsafe fn get_unchecked_mut(&mut self, index: u32) -> &mut T {
        let i = index as usize;
        debug_assert!(
            self.entries.get(i).is_some_and(|e| e.meta & OCCUPIED != 0),
            "slot {i} occupied"
        );
        // SAFETY: the caller guarantees an in-bounds slot.
        let slot = unsafe { self.entries.get_unchecked_mut(i) };
        // SAFETY: L1: the caller guarantees an occupied slot, which holds a `T`; `&mut
        // self` makes the access exclusive.
        unsafe { &mut slot.body.value }
    }

    /// The values of `indices`, mutably at once.
    ///
    /// # Safety
    ///
    /// Every index is in bounds and occupied, and no two are equal.
    pub(crate) unsafe fn get_disjoint_unchecked_mut<const N: usize>(
        &mut self,
        indices: [u32; N],
    ) -> [&mut T; N] {
        let base = self.entries.as_mut_ptr();
        indices.map(|index| {
            // SAFETY: in bounds (caller), so within the buffer.
            let slot = unsafe { base.add(index as usize) };
            // SAFETY: the indices are distinct, so the borrows are disjoint, and `&mut
            // self` makes them exclusive.
            let slot = unsafe { &mut *slot };
            // SAFETY: L1: occupied (caller), so `value` is the initialised field.
            unsafe { &mut *slot.body.value }
        })
    }

    /// Whether slot `index` is occupied and owned: what a branded handle proves.
    #[inline]
    pub(crate) fn is_owned(&self, index: u32) -> bool {
        self.entries
            .get(index as usize)
            .is_some_and(|e| e.meta & (OCCUPIED | OWNED) == OCCUPIED | OWNED)
    }

    /// The value in occupied slot `index` (checked: panics if vacant).
    #[track_caller]
    pub(crate) fn occupied_mut(&mut self, index: u32) -> &mut T {
        let i = index as usize;
        assert!(self.entries[i].meta & OCCUPIED != 0, "slot {index} is vacant");
        // SAFETY: `i` is in bounds (the indexing above did not panic) and the slot is
        // occupied.
        unsafe { self.get_unchecked_mut(index) }
    }

    // ----- ownership ------------------------------------------------------------------------

    /// Marks the unowned value of `version` in slot `index` owned; whether it did.
    pub(crate) fn own(&mut self, index: u32, version: NonZeroU32) -> bool {
        match self.entries.get_mut(index as usize) {
            Some(e) if e.meta == version.get() => {
                e.meta |= OWNED;
                true
            }
            _ => false,
        }
    }

    /// Marks occupied slot `index` unowned.
    pub(crate) fn disown(&mut self, index: u32) {
        self.entries[index as usize].meta &= !OWNED;
    }

    // ----- removing ------------------------------------------------------------------------

    /// Removes the value of occupied slot `index`, applying the free-slot policy.
    ///
    /// # Safety
    ///
    /// Slot `index` is in bounds and occupied; if it is owned, the caller is its owner
    /// (L3).
    #[inline]
    pub(crate) unsafe fn remove_unchecked(&mut self, index: u32) -> T {
        // SAFETY: forwarded from the caller.
        let value = unsafe { self.take(index) };
        self.apply_max_free();
        value
    }

    /// Removes the *unowned* value of `version` in slot `index`, if it is there.
    #[inline]
    pub(crate) fn remove(&mut self, index: u32, version: NonZeroU32) -> Option<T> {
        // Exact match: occupied, same version, and not owned.
        if self.entries.get(index as usize).is_some_and(|e| e.meta == version.get()) {
            // SAFETY: in bounds and occupied (the version matches), not owned (L3).
            Some(unsafe { self.remove_unchecked(index) })
        } else {
            None
        }
    }

    /// Takes the value of slot `index` out and frees the slot (or retires it).
    ///
    /// # Safety
    ///
    /// Slot `index` is in bounds and occupied, and its owner (if any) agrees (L3).
    #[inline]
    unsafe fn take(&mut self, index: u32) -> T {
        let i = index as usize;
        // SAFETY: the caller guarantees an occupied, in-bounds slot; the value is read
        // once and the slot marked vacant right below (keeping L1).
        let slot = unsafe { self.entries.get_unchecked_mut(i) };
        // SAFETY: L1: occupied slots hold an initialised value in `value`.
        let field = unsafe { &mut slot.body.value };
        // SAFETY: the value is read once: the slot is marked vacant right below.
        let value = unsafe { ManuallyDrop::take(field) };
        let generation = slot.meta >> GEN_SHIFT;
        let age = generation.wrapping_sub(self.salt) & GEN_MASK;
        self.len -= 1;
        if age + 1 >= MAX_AGE {
            // Retired: no generation is left to tell its next value from this one (L4).
            slot.meta = (self.salt.wrapping_add(MAX_AGE) & GEN_MASK) << GEN_SHIFT;
        } else {
            slot.meta = ((generation + 1) & GEN_MASK) << GEN_SHIFT;
            slot.body = Body { next: self.free_head };
            self.free_head = index;
        }
        value
    }

    /// Applies the `max_free` policy after removals.
    #[inline]
    fn apply_max_free(&mut self) {
        if let Some(max_free) = self.max_free
            && self.entries.len() - self.len > max_free.saturating_mul(2)
        {
            self.shrink_to_fit();
        }
    }

    /// Keeps the unowned values for which `keep` returns `true` (given the index and
    /// version), removes the others.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(u32, NonZeroU32, &mut T) -> bool) {
        for i in 0..self.entries.len() {
            let meta = self.entries[i].meta;
            if meta & (OCCUPIED | OWNED) != OCCUPIED {
                continue;
            }
            // SAFETY: L1: slot `i` is occupied (checked above), so it holds a `T`.
            let value = unsafe { &mut self.entries[i].body.value };
            // `i` < `MAX_SLOTS`, which fits a `u32`.
            if !keep(i as u32, version(meta), value) {
                // SAFETY: still occupied, in bounds and unowned: `keep` only had the
                // value, not the storage.
                drop(unsafe { self.take(i as u32) });
            }
        }
        self.apply_max_free();
    }

    /// Takes every value out (owned ones too), in slot order.
    ///
    /// # Safety
    ///
    /// No owner of an owned slot will use its proof again (the branded pool is consumed,
    /// or has no handles out).
    pub(crate) unsafe fn take_all(&mut self) -> Vec<T> {
        let mut values = Vec::with_capacity(self.len);
        for i in 0..self.entries.len() {
            if self.entries[i].meta & OCCUPIED != 0 {
                // SAFETY: slot `i` is in bounds and occupied (checked above); owners
                // agree (caller).
                values.push(unsafe { self.take(i as u32) });
            }
        }
        self.apply_max_free();
        values
    }

    // ----- whole storage ------------------------------------------------------------------

    /// Values stored.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Values the buffers hold without growing.
    pub(crate) fn capacity(&self) -> usize {
        self.entries.capacity()
    }

    /// Makes room for `additional` more values without growing.
    pub(crate) fn reserve(&mut self, additional: usize) {
        let vacant = self.entries.len() - self.len;
        let needed = additional.saturating_sub(vacant);
        self.entries.reserve(needed);
    }

    /// The counters.
    pub(crate) fn stats(&self) -> SlotCounts {
        SlotCounts {
            live: self.len,
            free: self.entries.len() - self.len,
            capacity: self.capacity(),
            peak: self.peak.max(self.entries.len()),
        }
    }

    /// Gives back the trailing vacant slots and the spare buffer.
    pub(crate) fn shrink_to_fit(&mut self) {
        // Occupied slots stay, and so do retired ones: a retired slot's last version would
        // match the first value of a slot made again at its index (its generation cannot
        // rise past the retirement age), so it is never truncated (L4).
        let keep = self
            .entries
            .iter()
            .rposition(|e| e.meta & OCCUPIED != 0 || self.is_retired(e.meta))
            .map_or(0, |last| last + 1);
        if keep < self.entries.len() {
            for e in &self.entries[keep..] {
                // Below `MAX_AGE`: retired slots were kept above.
                self.gen_floor = self.gen_floor.max(self.age(e.meta) + 1);
            }
            self.peak = self.peak.max(self.entries.len());
            // Vacant slots hold no value: truncating drops nothing (`Slot` has no drop glue).
            self.entries.truncate(keep);
            self.rebuild_free_list();
        }
        self.entries.shrink_to_fit();
    }

    /// The salt, the generation floor and every slot's meta word with its value: what
    /// a serialised pool is made of.
    #[cfg(feature = "serde")]
    pub(crate) fn parts(&self) -> (u32, u32, impl Iterator<Item = (u32, Option<&T>)> + Clone + '_) {
        let slots = self.entries.iter().map(|slot| {
            // SAFETY: L1: an occupied slot holds a `T`.
            let value = (slot.meta & OCCUPIED != 0).then(|| unsafe { &*slot.body.value });
            (slot.meta, value)
        });
        (self.salt, self.gen_floor, slots)
    }

    /// Storage rebuilt from [`parts`](Self::parts).
    ///
    /// # Errors
    ///
    /// If the parts break an invariant: a salt or floor out of range, too many slots, a
    /// slot that holds a value without its meta word saying so (or the reverse), or an
    /// owned slot (only a branded pool owns slots, and it is not serialised).
    #[cfg(feature = "serde")]
    pub(crate) fn from_parts(
        salt: u32,
        floor: u32,
        slots: Vec<(u32, Option<T>)>,
    ) -> Result<Self, &'static str> {
        if salt > GEN_MASK || floor > MAX_AGE {
            return Err("a pool's salt and floor are below 2^30");
        }
        if slots.len() > MAX_SLOTS {
            return Err("too many slots");
        }
        let mut storage = Slots::with_capacity(slots.len(), salt);
        storage.gen_floor = floor;
        for (meta, value) in slots {
            if meta & OWNED != 0 {
                return Err("a storable pool owns no slot");
            }
            let body = match (meta & OCCUPIED != 0, value) {
                (true, Some(value)) => {
                    storage.len += 1;
                    Body { value: ManuallyDrop::new(value) }
                }
                (false, None) => Body { next: NONE },
                _ => return Err("a slot holds a value exactly when its meta word says so"),
            };
            storage.entries.push(Slot { meta, body });
        }
        storage.peak = storage.entries.len();
        // L2: the free list through every vacant, unretired slot; L1 holds by the checks.
        storage.rebuild_free_list();
        Ok(storage)
    }

    /// Sets the free-slot policy (see `Pool::set_max_free`).
    pub(crate) fn set_max_free(&mut self, max_free: Option<usize>) {
        self.max_free = max_free;
    }

    /// Threads the free list anew through every vacant, unretired slot, lowest index first.
    fn rebuild_free_list(&mut self) {
        self.free_head = NONE;
        for i in (0..self.entries.len()).rev() {
            let m = self.entries[i].meta;
            if m & OCCUPIED == 0 && !self.is_retired(m) {
                self.entries[i].body = Body { next: self.free_head };
                // `i` < `MAX_SLOTS`, which fits a `u32`.
                self.free_head = i as u32;
            }
        }
    }

    /// Every value with its index and version, in slot order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u32, NonZeroU32, &T)> + '_ {
        self.entries.iter().enumerate().filter(|(_, slot)| slot.meta & OCCUPIED != 0).map(
            |(i, slot)| {
                // SAFETY: L1: the slot is occupied (filtered above), so it holds a `T`.
                let value = unsafe { &*slot.body.value };
                // `i` < `MAX_SLOTS`, which fits a `u32`.
                (i as u32, version(slot.meta), value)
            },
        )
    }

    /// Every value with its index and version, mutably, in slot order.
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = (u32, NonZeroU32, &mut T)> + '_ {
        self.entries.iter_mut().enumerate().filter(|(_, slot)| slot.meta & OCCUPIED != 0).map(
            |(i, slot)| {
                let version = version(slot.meta);
                // SAFETY: L1: the slot is occupied (filtered above), so it holds a `T`.
                let value = unsafe { &mut *slot.body.value };
                // `i` < `MAX_SLOTS`, which fits a `u32`.
                (i as u32, version, value)
            },
        )
    }
}

impl<T> Drop for Slots<T> {
    fn drop(&mut self) {
        /// Drops the rest if a destructor panics.
        struct Rest<'a, T>(&'a mut Slots<T>, usize);
        impl<T> Drop for Rest<'_, T> {
            fn drop(&mut self) {
                drop_from(self.0, self.1);
            }
        }
        fn drop_from<T>(slots: &mut Slots<T>, start: usize) {
            for i in start..slots.entries.len() {
                if slots.entries[i].meta & OCCUPIED != 0 {
                    slots.entries[i].meta &= !OCCUPIED;
                    let guard = Rest(&mut *slots, i + 1);
                    // SAFETY: L1: slot `i` was occupied, so `value` is the initialised field.
                    let value: *mut T = unsafe { &raw mut *guard.0.entries[i].body.value };
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

/// The slot the next value goes into, claimed by [`Slots::vacant`] and not yet filled
/// (slab's `VacantEntry`): "meta says occupied" and "the slot holds a value" become true
/// together, in [`fill`](Self::fill), which consumes the entry. Dropping it changes
/// nothing.
///
/// Invariant (V1): `index` is the storage's free-list head (a vacant, in-bounds, unretired
/// slot), or `entries.len()` with room in both vectors and below `MAX_SLOTS`. The entry
/// borrows the storage mutably, so nothing can change that between claim and fill.
pub(crate) struct Vacant<'a, T> {
    slots: &'a mut Slots<T>,
    index: u32,
}

#[expect(
    clippy::inline_always,
    reason = "the insert fast path (W8), inlined into `Pool::insert`: see the reason there"
)]
impl<T> Vacant<'_, T> {
    /// The index the value will take.
    #[inline(always)]
    pub(crate) fn index(&self) -> u32 {
        self.index
    }

    /// The version the value will have (a key made from it names that value once filled).
    #[inline(always)]
    pub(crate) fn version(&self) -> NonZeroU32 {
        let storage = &*self.slots;
        let meta = match storage.entries.get(self.index as usize) {
            Some(slot) => slot.meta,
            None => ((storage.salt + storage.gen_floor) & GEN_MASK) << GEN_SHIFT,
        };
        version(meta | OCCUPIED)
    }

    /// Gives the claim up and makes sure the version it would have given names no value
    /// ever: a key made from [`version`](Self::version), and perhaps kept, stays stale
    /// (what `insert_with_key` needs when its closure panics). Costs a freed slot one
    /// generation; a claim of a new slot appends nothing (the counters stay as they were)
    /// and raises the floor new slots start at by one, as a truncated slot does (L4).
    pub(crate) fn burn(self) {
        let storage = self.slots;
        let i = self.index as usize;
        if i == storage.entries.len() {
            if storage.gen_floor < MAX_AGE {
                // The next slot made at this index (or any) starts above the claim's age.
                storage.gen_floor += 1;
            } else {
                // No age is left above the floor: the index retires instead (room for the
                // slot was made by `vacant`, V1), so it never holds a value.
                let meta = storage.retired_meta();
                storage.entries.push(Slot { meta, body: Body { next: NONE } });
            }
        } else {
            let generation = storage.entries[i].meta >> GEN_SHIFT;
            let age = generation.wrapping_sub(storage.salt) & GEN_MASK;
            if age + 1 >= MAX_AGE {
                storage.entries[i].meta = storage.retired_meta();
                // SAFETY: L1, L2: the free-list head is vacant, its `next` initialised.
                storage.free_head = unsafe { storage.entries[i].body.next };
            } else {
                storage.entries[i].meta = ((generation + 1) & GEN_MASK) << GEN_SHIFT;
            }
        }
    }

    /// Fills the slot with `value`, marked occupied (and `OWNED` if `owned`); returns its
    /// index and version.
    #[inline(always)]
    pub(crate) fn fill(self, value: T, owned: bool) -> (u32, NonZeroU32) {
        let owned = if owned { OWNED } else { 0 };
        let storage = self.slots;
        let i = self.index as usize;
        let meta = if i == storage.entries.len() {
            let generation = (storage.salt + storage.gen_floor) & GEN_MASK;
            let meta = (generation << GEN_SHIFT) | OCCUPIED | owned;
            debug_assert!(i < storage.entries.capacity(), "V1: room");
            // SAFETY: V1: element `i == len` is allocated.
            let slot = unsafe { storage.entries.as_mut_ptr().add(i) };
            // SAFETY: in bounds of the allocation, aligned, not yet initialised.
            unsafe { slot.write(Slot { meta, body: Body { value: ManuallyDrop::new(value) } }) };
            // SAFETY: element `i` was initialised just above.
            unsafe { storage.entries.set_len(i + 1) };
            meta
        } else {
            // SAFETY: V1 and L2: `i` is the free-list head, an in-bounds vacant slot.
            let slot = unsafe { storage.entries.get_unchecked_mut(i) };
            // SAFETY: L1: a vacant slot's `next` is its initialised field.
            storage.free_head = unsafe { slot.body.next };
            // A vacant slot holds no value: overwriting it drops nothing.
            slot.body = Body { value: ManuallyDrop::new(value) };
            slot.meta |= OCCUPIED | owned;
            slot.meta
        };
        storage.len += 1;
        (self.index, version(meta))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_costs_the_value_or_a_u32_and_its_meta_word() {
        assert_eq!(size_of::<Slot<u8>>(), 8);
        assert_eq!(size_of::<Slot<[u8; 13]>>(), 20);
        assert_eq!(size_of::<Slot<u64>>(), 16);
        assert_eq!(size_of::<Slot<[f32; 7]>>(), 32);
    }

    /// Inserts one value keyed, pretends slot 0 was reused up to two short of retirement,
    /// removes it, puts a last value in, removes that, and returns its version (the slot
    /// retires at that removal).
    fn retire_slot_zero(slots: &mut Slots<u32>) -> NonZeroU32 {
        let (index, _) = slots.vacant().unwrap().fill(0, false);
        assert_eq!(index, 0);
        // 2^30 - 3 real reuses, set directly.
        let generation = (slots.salt + MAX_AGE - 2) & GEN_MASK;
        slots.entries[0].meta = (generation << GEN_SHIFT) | OCCUPIED;
        let before_last = slots.version_at(0).unwrap();
        assert_eq!(slots.remove(0, before_last), Some(0));
        let (index, last) = slots.vacant().unwrap().fill(1, false);
        assert_eq!(index, 0, "the slot is reused for its last generation");
        assert_eq!(slots.remove(0, last), Some(1));
        last
    }

    #[test]
    fn a_slot_retires_after_its_last_generation_whatever_the_salt() {
        for salt in [0, 1, 12_345, GEN_MASK] {
            let mut slots = Slots::with_capacity(0, salt);
            let last = retire_slot_zero(&mut slots);
            let (index, fresh) = slots.vacant().unwrap().fill(2, false);
            assert_eq!(index, 1, "salt {salt}: slot 0 is retired, a new slot is used");
            assert_eq!(slots.get(0, last), None);
            assert_eq!(slots.get(1, fresh), Some(&2));
            slots.rebuild_free_list();
            assert_eq!(slots.free_head, NONE, "a retired slot never rejoins the free list");
        }
    }

    #[test]
    fn shrinking_keeps_retired_slots_so_their_last_version_stays_stale() {
        for salt in [0, 77, GEN_MASK - 3] {
            let mut slots = Slots::with_capacity(0, salt);
            let last = retire_slot_zero(&mut slots);
            slots.shrink_to_fit();
            let (index, fresh) = slots.vacant().unwrap().fill(2, false);
            assert_eq!(index, 1);
            assert!(!slots.contains(0, last) && !slots.own(0, last));
            assert_eq!(slots.remove(0, last), None);
            assert_eq!(slots.get(1, fresh), Some(&2));
        }
    }

    #[test]
    fn a_burnt_claim_never_names_a_value() {
        for salt in [0, 5] {
            let mut slots = Slots::with_capacity(0, salt);
            // A claim of a new slot, burnt: its version never comes back there.
            let entry = slots.vacant().unwrap();
            let (index, version) = (entry.index(), entry.version());
            entry.burn();
            let (i, v) = slots.vacant().unwrap().fill(1, false);
            assert_eq!(i, index, "the burnt slot is reused");
            assert_ne!(v, version, "at a newer version");
            // A claim of a freed slot, burnt likewise.
            assert_eq!(slots.remove(i, v), Some(1));
            let entry = slots.vacant().unwrap();
            let version = entry.version();
            entry.burn();
            let (_, v) = slots.vacant().unwrap().fill(2, false);
            assert_ne!(v, version);
            assert!(!slots.contains(index, version));
        }
    }

    #[test]
    fn slots_made_after_a_truncation_start_above_the_truncated_generations() {
        let mut slots = Slots::with_capacity(0, GEN_MASK - 1); // wraps within a few uses
        let mut old = Vec::new();
        for round in 0..4 {
            let (i, v) = slots.vacant().unwrap().fill(round, false);
            old.push((i, v));
            assert_eq!(slots.remove(i, v), Some(round));
        }
        slots.shrink_to_fit();
        let (i, v) = slots.vacant().unwrap().fill(9, false);
        assert!(old.iter().all(|&(oi, ov)| (oi, ov) != (i, v)), "a new version");
        assert!(old.iter().all(|&(oi, ov)| slots.get(oi, ov).is_none()));
    }
}
