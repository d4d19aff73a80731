//! [`Slots`]: the free-list storage under every typed pool, by index and version.
//!
//! The branded [`Pool`](crate::Pool) (handles and keys that only type-check on it) and the
//! storable [`KeyPool`](crate::KeyPool) (keys checked at run time) are both a `Slots<T>`
//! and a way of naming its slots; the storage, the free list, the generations and their
//! invariants exist once, here.
//!
//! # Layout
//!
//! - `entries: SlotBuf<Slot<T>>` (a `Vec` on the heap, or a caller's fixed storage:
//!   `pool/slot_buf.rs`), one per slot: a meta word (bit 0 occupied, bit 1 owned by a
//!   branded pool's handle, bits 2.. the generation keys are checked against; the layout
//!   and the [`Version`] keys carry are in `pool/version.rs`) next to a
//!   union of a `T` and a `u32`: an occupied slot holds the value, a vacant one the index
//!   of the next vacant slot (the free list threads through the slots themselves). A slot
//!   costs `max(size_of::<T>(), 4) + 4` rounded to the alignment, as slotmap's does, and
//!   a key lookup reads one place: the version check and the value share a cache line.
//! - Iterators ([`RawIter`], [`RawIterMut`], [`RawDrain`], [`RawIntoIter`]) walk the
//!   slots from both ends and count the values left, so they know their exact length;
//!   the public iterators (`pool/iter.rs`) turn indices and versions into keys.
//! - [`compact`](Slots::compact) is the one operation that moves a value to another slot
//!   (slab's `compact`): a moved value's old key goes stale and the caller is told its
//!   new one.
//!
//! # Generations, and the salt
//!
//! A slot's generation rises by one at every removal, modulo 2^30; its *age* is its
//! generation less the salt. A slot is born at age `floor` (`Start`) and *retires* (is never
//! reused) when a removal brings its age to `MAX_AGE` = 2^30 - 1: a vacant slot of that
//! age is retired. So a slot holds at most 2^30 - 1 values, its ages never wrap, and the
//! versions its keys carry never repeat, whatever the salt. The branded pool's
//! salt is 0 (its brand already keeps foreign keys out); a [`KeyPool`](crate::KeyPool)
//! draws a random salt, so the versions its keys carry start at a different place in
//! every pool, and a key of another pool matches a slot here only by a 2^-30 chance.
//!
//! A removal tests whether the slot retires before it links it into the free list. With
//! any salt the last two generations can sit anywhere in the meta words' range, and the
//! test is a subtraction and a mask ([`Start::quick_vacant_meta`]); with salt 0 they are
//! its top, and the test is one compare ([`Start::quick_vacant_meta_zero_salt`]), which
//! the branded pool's removals use (`remove_unchecked::<true>`, `remove_zero_salt`).
//!
//! # Invariants
//!
//! Every `unsafe` block below relies on one of these, and says which.
//!
//! - **(L1) The meta word describes the body.** A slot whose meta word has `OCCUPIED`
//!   holds an initialised `T` in its body's `value` field; any other holds a free-list
//!   link in `next` (unless retired), and has both flag bits clear (`OWNED` is only
//!   ever set beside `OCCUPIED`, and every vacant meta word is made with the flags
//!   cleared: a removal's `next_vacant_meta`, a new slot's `new_meta`, a retirement).
//!   Occupied-and-filled become true together, in the fill of a [`Vacant`] or a
//!   [`Claim`], which consumes it.
//! - **(L2) The free list** starting at `free_head` visits, through `next`, every vacant
//!   slot that is not retired, exactly once; all are in bounds. Only
//!   [`compact`](Slots::compact) breaks it for a while, with nothing but one value lent
//!   out, and threads it again however it ends.
//! - **(L3) Owned slots stay**: a slot marked `OWNED` is removed only through
//!   [`take`](Slots::take) by the owner's proof (the branded pool's handle, which
//!   `Pool` makes only for owned slots); key removals, `retain` and drains skip it,
//!   compaction neither moves it nor moves a value into it, and shrinking truncates
//!   nothing below an occupied slot. Only storage that is consumed (its iterator by
//!   value) takes owned values out: no owner can reach it any more.
//! - **(L4) Versions only grow** (modulo the wrap that retirement forbids): a slot's
//!   generation rises at every removal, and at every [`Claim`] (whose fill then stores
//!   the claimed version, one behind: each version is still given out once); a retired
//!   slot is never reused nor truncated; a slot made again past a truncation starts
//!   above every truncated generation (the floor of `Start`). So a version matches only
//!   the value it was made for. Versions a key brings from outside are parsed
//!   (`pool/version.rs`, K1): no version equals a vacant slot's meta word, so with L1 a
//!   matching version always finds a value.
//! - **(L5) `len` counts the occupied slots**, and an iterator's `remaining` the
//!   occupied slots it has not yet passed: every fill adds one and every take removes
//!   one, in the same step that flips `OCCUPIED`. The iterators' `fold` trusts it to
//!   skip the meta test when no slot left is vacant.

#![expect(
    clippy::cast_possible_truncation,
    reason = "slot indices are below MAX_SLOTS < u32::MAX, checked at insertion"
)]

#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::fmt;
use core::mem::ManuallyDrop;
use core::ptr;

use crate::error::AllocError;
use crate::pool::slot_buf::{NoRoom, SlotBuf};
use crate::pool::stats::PoolStats;
use crate::pool::version::{GEN_MASK, GEN_SHIFT, OCCUPIED, OWNED, Version};

/// The age (generation less the salt) of a retired slot; no value is ever stored at it,
/// except in a slot born there (the floor reached it), which retires at its removal.
const MAX_AGE: u32 = GEN_MASK;
/// A free-list link: the index of a vacant slot plus one, or zero for none (the end of
/// the list). Stored one up so that the end is a zero (one test on the insert path) and
/// so that an index leaves the list already in the form a `Handle` carries (index + 1):
/// a branded pool's insert at the free-list head makes its handle from the link without
/// an add. `index < MAX_SLOTS`, so the sum fits a `u32`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Link(u32);

impl Link {
    /// No next vacant slot.
    const NONE: Link = Link(0);

    /// The link to slot `index` (below `MAX_SLOTS`).
    #[inline]
    fn to(index: u32) -> Link {
        debug_assert!((index as usize) < MAX_SLOTS, "a slot index");
        Link(index + 1)
    }

    /// The slot linked to, if any.
    #[inline]
    fn index(self) -> Option<u32> {
        self.0.checked_sub(1)
    }
}
/// Slots the index space holds (`Handle` stores index + 1 in a `Version`).
pub(crate) const MAX_SLOTS: usize = (u32::MAX - 1) as usize;

/// A slot: its meta word, and the value or the next vacant index (L1).
pub(super) struct Slot<T> {
    meta: u32,
    body: Body<T>,
}

/// A slot's body: the value, or the next vacant index.
union Body<T> {
    value: ManuallyDrop<T>,
    next: Link,
}

/// Free-list storage of `T`s by index and version; see the module docs.
pub(super) struct Slots<T> {
    entries: SlotBuf<Slot<T>>,
    /// Slots the buffer surely holds, all below `MAX_SLOTS` (R1: at most
    /// `min(entries.capacity(), MAX_SLOTS)`; zero when not known): an insert at the end
    /// compares the slot count with it alone, one compare instead of a `min` of two
    /// bounds. Only [`grow`](Self::grow) and [`reserve`](Self::reserve) raise it, from
    /// the buffer's capacity; what shrinks or replaces the buffer sets it to zero.
    room: usize,
    free_head: Link,
    len: usize,
    /// Most slots there have been, recorded when slots are given back
    /// (`shrink_to_fit`); the peak of live values is the larger of this and the slot
    /// count now. Only a new slot can raise the peak: a slot is appended only when no
    /// free slot is left, so at that moment every slot but retired ones is occupied, and
    /// reusing a freed slot never takes `len` past the slot count. Kept off the insert
    /// path: appending a slot updates nothing but the vectors.
    peak: usize,
    /// The salt and the floor new slots start at, with a new slot's meta word.
    start: Start,
    max_free: Option<usize>,
}

/// Where generations start, and where new slots start above that.
mod start {
    use super::{GEN_MASK, GEN_SHIFT, Held, MAX_AGE, OCCUPIED, OWNED};

    /// The meta word's two flag bits.
    const FLAG_BITS: u32 = OCCUPIED | OWNED;

    /// The salt (where generations start, see the module docs: 0 for a branded pool)
    /// and the floor: how far above the salt new slots start, above the age of any slot
    /// `shrink_to_fit` dropped, so a key to a dropped slot cannot match the slot that
    /// later takes its index (L4). With them, the meta word of a slot made at the end, kept ready so that an
    /// insert at the end reads one word instead of adding two: the fields are private
    /// to this module, and every change of the floor goes through
    /// [`raise_floor`](Start::raise_floor), which recomputes it.
    #[derive(Clone, Copy, Debug)]
    pub(super) struct Start {
        salt: u32,
        floor: u32,
        new_meta: u32,
        /// The generation two below the salt, shifted into place: a slot whose
        /// generation is this or the next has an age of `MAX_AGE - 1` or `MAX_AGE`, and
        /// retires at its removal. Kept so that the removal's test is a subtraction and
        /// a mask instead of a shift, a subtraction, a negation and a mask.
        last_two: u32,
        /// The mask of a removal's quick test ([`quick_vacant_meta`](Start::quick_vacant_meta)):
        /// [`RETIRE_MASK`] when no free-slot policy is set, zero when one is, so that
        /// with a policy every removal takes the slow path, where the policy is applied;
        /// without one, the removal's fast path tests nothing for it.
        quick_mask: u32,
        /// The limit of the quick test of storage whose salt is 0 (a branded pool's,
        /// [`quick_vacant_meta_zero_salt`](Start::quick_vacant_meta_zero_salt)): the
        /// meta words of the last two generations are at or above
        /// [`ZERO_SALT_LAST_TWO`] and no other is; zero when a free-slot policy is set,
        /// so that every removal takes the slow path.
        zero_salt_limit: u32,
    }

    /// The lowest meta word of the last two generations when the salt is 0: generation
    /// `MAX_AGE - 1`, flags clear. The generations sit in the top 30 bits, so these are
    /// the highest meta words there are.
    const ZERO_SALT_LAST_TWO: u32 = (MAX_AGE - 1) << GEN_SHIFT;

    /// The bits of `meta - last_two` that are all clear exactly for a slot whose removal
    /// retires it (see [`Start::next_vacant_meta`]).
    const RETIRE_MASK: u32 = !(FLAG_BITS | 1 << GEN_SHIFT);

    impl Start {
        /// Generations starting at `salt` (below 2^30), new slots at `floor` above it
        /// (at most `MAX_AGE`).
        pub(super) fn new(salt: u32, floor: u32) -> Self {
            debug_assert!(salt <= GEN_MASK && floor <= MAX_AGE, "salt and floor below 2^30");
            // Both below 2^30: the sum does not overflow.
            Start {
                salt,
                floor,
                new_meta: ((salt + floor) & GEN_MASK) << GEN_SHIFT,
                last_two: (salt.wrapping_sub(2) & GEN_MASK) << GEN_SHIFT,
                quick_mask: RETIRE_MASK,
                zero_salt_limit: ZERO_SALT_LAST_TWO,
            }
        }

        /// The same, with a free-slot policy set or not: whether every removal takes the
        /// slow path ([`quick_vacant_meta`](Start::quick_vacant_meta)).
        pub(super) fn with_policy(self, policy: bool) -> Self {
            Start {
                quick_mask: if policy { 0 } else { RETIRE_MASK },
                zero_salt_limit: if policy { 0 } else { ZERO_SALT_LAST_TWO },
                ..self
            }
        }

        /// The meta word a slot of meta word `meta` gets when its value leaves: vacant,
        /// one generation on; `None` if that generation would be its last (the slot
        /// retires, L4): its age, generation less salt, is `MAX_AGE - 1` or `MAX_AGE`.
        #[inline]
        pub(super) fn next_vacant_meta(self, meta: u32) -> Option<u32> {
            // Bits 2.. of the difference are the generation less `salt - 2`, modulo
            // 2^30 (`last_two` has its low bits clear, so the flags do not borrow); it
            // is 0 or 1, bits 3.. all clear, exactly for those two ages.
            let retires = meta.wrapping_sub(self.last_two) & RETIRE_MASK == 0;
            // Generation + 1 modulo 2^30: the carry out of bit 31 falls off.
            (!retires).then_some((meta & !FLAG_BITS).wrapping_add(1 << GEN_SHIFT))
        }

        /// As [`next_vacant_meta`](Start::next_vacant_meta), for a removal's fast path:
        /// `None` also for every slot while a free-slot policy is set, so that the
        /// caller's slow path applies it. The same instructions as the exact test, the
        /// mask read from here instead of written in the code. `meta`'s flag bits are
        /// `held`'s, which the caller knows: the next generation is then one addition
        /// away (`meta + 4 - flags`), with no mask.
        #[inline]
        pub(super) fn quick_vacant_meta(self, meta: u32, held: Held) -> Option<u32> {
            debug_assert_eq!(meta & FLAG_BITS, held.flags(), "the caller knows the flags");
            let slow = meta.wrapping_sub(self.last_two) & self.quick_mask == 0;
            // Equal to `(meta & !FLAG_BITS) + (1 << GEN_SHIFT)` modulo 2^32, since the
            // flags are `held`'s; `held.flags() <= 3 < 4`, so the constant does not wrap.
            (!slow).then_some(meta.wrapping_add((1 << GEN_SHIFT) - held.flags()))
        }

        /// [`quick_vacant_meta`](Start::quick_vacant_meta) for storage whose salt is 0
        /// (a branded pool's: its brand keeps foreign keys out). Its last two
        /// generations are then the top of the meta words, so the test is one compare
        /// with the limit, where the general one needs a subtraction and a mask.
        #[inline]
        pub(super) fn quick_vacant_meta_zero_salt(self, meta: u32, held: Held) -> Option<u32> {
            debug_assert_eq!(self.salt, 0, "only storage of salt 0 takes this test");
            debug_assert_eq!(meta & FLAG_BITS, held.flags(), "the caller knows the flags");
            // Below the limit: a generation below `MAX_AGE - 1`, whose successor neither
            // retires nor wraps; the addition is `quick_vacant_meta`'s.
            (meta < self.zero_salt_limit)
                .then_some(meta.wrapping_add((1 << GEN_SHIFT) - held.flags()))
        }

        #[inline]
        pub(super) fn salt(self) -> u32 {
            self.salt
        }

        #[cfg(all(feature = "serde", feature = "alloc"))]
        #[inline]
        pub(super) fn floor(self) -> u32 {
            self.floor
        }

        /// The vacant meta word of a slot made at the end now: generation salt + floor.
        #[inline]
        pub(super) fn new_meta(self) -> u32 {
            self.new_meta
        }

        /// Raises the floor to `floor` (at most `MAX_AGE`; never lowers it).
        pub(super) fn raise_floor(&mut self, floor: u32) {
            *self = Start {
                quick_mask: self.quick_mask,
                zero_salt_limit: self.zero_salt_limit,
                ..Start::new(self.salt, self.floor.max(floor))
            };
        }
    }
}

use start::Start;

/// How a removed value was held, which its slot's flag bits say and the remover knows
/// without reading them: through an owning handle (`OCCUPIED | OWNED`), or unowned,
/// reached by a key (`OCCUPIED`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Held {
    /// Owned by a branded pool's handle.
    Owned,
    /// Not owned: a key's removal (which never removes an owned value, L3).
    Unowned,
}

impl Held {
    /// The flag bits of the meta word of a slot whose value is held so.
    #[inline]
    const fn flags(self) -> u32 {
        match self {
            Held::Owned => OCCUPIED | OWNED,
            Held::Unowned => OCCUPIED,
        }
    }
}

impl<T> Slots<T> {
    /// Empty storage with room for `capacity` values, generations starting at `salt`
    /// (reduced modulo 2^30).
    #[cfg(feature = "alloc")]
    pub(super) fn with_capacity(capacity: usize, salt: u32) -> Self {
        Self::over(SlotBuf::with_capacity(capacity), salt)
    }

    /// Empty storage in the caller's fixed `storage`, which it never grows past,
    /// generations starting at `salt` (0 for a branded pool, whose brand keeps other
    /// pools' keys out).
    ///
    /// # Safety
    ///
    /// As [`SlotBuf::fixed`]: nothing else uses `storage` while the storage lives, and
    /// `storage` outlives it.
    pub(super) unsafe fn fixed(storage: &mut [core::mem::MaybeUninit<Slot<T>>], salt: u32) -> Self {
        // SAFETY: forwarded from the caller.
        Self::over(unsafe { SlotBuf::fixed(storage) }, salt)
    }

    /// Empty storage in `entries` (empty), generations starting at `salt`.
    fn over(entries: SlotBuf<Slot<T>>, salt: u32) -> Self {
        debug_assert!(entries.is_empty(), "an empty buffer");
        Slots {
            entries,
            // R1: unknown yet; the first insert at the end asks `grow`.
            room: 0,
            free_head: Link::NONE,
            len: 0,
            peak: 0,
            start: Start::new(salt & GEN_MASK, 0),
            max_free: None,
        }
    }

    /// A slot's age: its generation less the salt, modulo 2^30.
    #[inline]
    fn age(&self, meta: u32) -> u32 {
        (meta >> GEN_SHIFT).wrapping_sub(self.start.salt()) & GEN_MASK
    }

    /// The meta word of a retired slot: vacant, at `MAX_AGE`.
    #[inline]
    fn retired_meta(&self) -> u32 {
        (self.start.salt().wrapping_add(MAX_AGE) & GEN_MASK) << GEN_SHIFT
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
    pub(super) fn vacant(&mut self) -> Result<Vacant<'_, T>, AllocError> {
        let Some(head) = self.free_head.index() else {
            let len = self.entries.len();
            // One compare on the fast path: room in the buffer, and below `MAX_SLOTS` (R1).
            if len >= self.room {
                self.grow()?;
            }
            // `len < MAX_SLOTS`, which fits a `u32`.
            return Ok(Vacant { index: len as u32, at_end: true, slots: self });
        };
        Ok(Vacant { index: head, at_end: false, slots: self })
    }

    /// Makes room for one more slot at the end of both vectors.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) -> Result<(), AllocError> {
        let len = self.entries.len();
        if len >= MAX_SLOTS {
            return Err(AllocError::CapacityExceeded { max: MAX_SLOTS });
        }
        match self.entries.try_reserve_one() {
            Ok(()) => {}
            Err(NoRoom::Fixed(capacity)) => {
                return Err(AllocError::CapacityExceeded { max: capacity });
            }
            #[cfg(feature = "alloc")]
            Err(NoRoom::OutOfMemory) => {
                let layout = core::alloc::Layout::new::<Slot<T>>();
                return Err(AllocError::OutOfMemory { size: layout.size(), align: layout.align() });
            }
        }
        // R1, from the capacity the buffer has now: above `len`, which is below both.
        self.room = self.entries.capacity().min(MAX_SLOTS);
        Ok(())
    }

    /// Claims a slot for a value whose key is shown before the value exists (the pools'
    /// `vacant_entry`), and takes the claimed version out of circulation at once: see
    /// [`Claim`]. Makes a new slot at the end (vacant, the free list's only entry) when no
    /// freed one is left; that is the only step that can fail.
    pub(super) fn claim(&mut self) -> Result<Claim<'_, T>, AllocError> {
        let pushed = self.free_head == Link::NONE;
        if pushed {
            // Room for a slot at the end, made as for an insert (V1).
            let index = self.vacant()?.index;
            // A vacant slot at the floor's generation, linked as the whole free list (L2;
            // it was empty).
            self.entries
                .push(Slot { meta: self.start.new_meta(), body: Body { next: Link::NONE } });
            self.free_head = Link::to(index);
        }
        let Some(index) = self.free_head.index() else {
            unreachable!("the free list has a head: a slot was just pushed if it had none")
        };
        let retired = self.retired_meta();
        let slot = &mut self.entries[index as usize];
        let version = Version::of_meta(slot.meta);
        let place = if let Some(next) = self.start.next_vacant_meta(slot.meta) {
            // Burnt: the slot's next value gets the generation after the claimed one.
            slot.meta = next;
            Place::Head
        } else {
            // The claimed version is the slot's last: it retires now, off the free list,
            // and only this claim's fill can put a value in it.
            // SAFETY: L1, L2: the free-list head is vacant, its `next` initialised.
            self.free_head = unsafe { slot.body.next };
            slot.meta = retired;
            Place::Retired
        };
        Ok(Claim { slots: self, index, version, place, pushed })
    }

    // ----- reading ------------------------------------------------------------------------

    /// The version of occupied slot `index`, or `None` if it is vacant or out of bounds.
    #[inline]
    pub(super) fn version_at(&self, index: u32) -> Option<Version> {
        let meta = self.entries.get(index as usize)?.meta;
        (meta & OCCUPIED != 0).then(|| Version::of_meta(meta))
    }

    /// The version of occupied slot `index` if no handle owns it; `None` if it is
    /// owned, vacant or out of bounds (one read of the meta word).
    #[inline]
    pub(super) fn unowned_version_at(&self, index: u32) -> Option<Version> {
        let meta = self.entries.get(index as usize)?.meta;
        (meta & (OCCUPIED | OWNED) == OCCUPIED).then(|| Version::of_meta(meta))
    }

    /// Whether slot `index` holds the value of `version` (owned or not). A vacant slot
    /// never does (K1, in `pool/version.rs`).
    #[inline]
    pub(super) fn contains(&self, index: u32, version: Version) -> bool {
        self.entries.get(index as usize).is_some_and(|e| version.names(e.meta))
    }

    /// Whether slot `index` holds the *unowned* value of `version`: one compare, for
    /// storage that never marks a slot owned (a `KeyPool`). A vacant slot never does (K1).
    #[inline]
    pub(super) fn contains_unowned(&self, index: u32, version: Version) -> bool {
        self.entries.get(index as usize).is_some_and(|e| version.names_unowned(e.meta))
    }

    /// The unowned value of `version` in slot `index`, if it is still there.
    #[inline]
    pub(super) fn get_unowned(&self, index: u32, version: Version) -> Option<&T> {
        let slot = self.entries.get(index as usize)?;
        // SAFETY: the slot's meta word equals the version, which has `OCCUPIED` set
        // (K1): the slot is occupied, so L1 gives a `T`.
        version.names_unowned(slot.meta).then(|| unsafe { &*slot.body.value })
    }

    /// The unowned value of `version` in slot `index`, mutably, if it is still there.
    #[inline]
    pub(super) fn get_unowned_mut(&mut self, index: u32, version: Version) -> Option<&mut T> {
        let slot = self.entries.get_mut(index as usize)?;
        // SAFETY: as in `get_unowned`; `&mut self` makes the access exclusive.
        version.names_unowned(slot.meta).then(|| unsafe { &mut *slot.body.value })
    }

    /// The value of `version` in slot `index`, if it is still there. One lookup of the
    /// slot serves the version's test and the value's address.
    #[inline]
    pub(super) fn get(&self, index: u32, version: Version) -> Option<&T> {
        let slot = self.entries.get(index as usize)?;
        // SAFETY: the slot's meta word, owned bit aside, equals the version, which has
        // `OCCUPIED` set (K1): the slot is occupied, so L1 gives a `T`.
        version.names(slot.meta).then(|| unsafe { &*slot.body.value })
    }

    /// The value of `version` in slot `index`, mutably, if it is still there.
    #[inline]
    pub(super) fn get_mut(&mut self, index: u32, version: Version) -> Option<&mut T> {
        let slot = self.entries.get_mut(index as usize)?;
        // SAFETY: as in `get`; `&mut self` makes the access exclusive.
        version.names(slot.meta).then(|| unsafe { &mut *slot.body.value })
    }

    /// The value in slot `index`, unchecked.
    ///
    /// # Safety
    ///
    /// Slot `index` is in bounds and occupied.
    #[inline]
    pub(super) unsafe fn get_unchecked(&self, index: u32) -> &T {
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
    pub(super) unsafe fn get_unchecked_mut(&mut self, index: u32) -> &mut T {
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
    pub(super) unsafe fn get_disjoint_unchecked_mut<const N: usize>(
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

    /// The values of `keys` (an index and a version each), mutably at once: overlap is
    /// checked first, over the whole array, then that every key names its value.
    pub(super) fn get_disjoint_mut<const N: usize>(
        &mut self,
        keys: [(u32, Version); N],
    ) -> Result<[&mut T; N], GetDisjointMutError> {
        let indices = keys.map(|(index, _)| index);
        if overlapping(&indices) {
            return Err(GetDisjointMutError::OverlappingKeys);
        }
        if !keys.iter().all(|&(index, version)| self.contains(index, version)) {
            return Err(GetDisjointMutError::StaleKey);
        }
        // SAFETY: every key's version matches its slot's meta word, so each slot is in
        // bounds and occupied (K1); no two indices are equal (checked above).
        Ok(unsafe { self.get_disjoint_unchecked_mut(indices) })
    }

    /// Whether slot `index` is occupied and owned: what a branded handle proves.
    #[inline]
    pub(super) fn is_owned(&self, index: u32) -> bool {
        self.entries
            .get(index as usize)
            .is_some_and(|e| e.meta & (OCCUPIED | OWNED) == OCCUPIED | OWNED)
    }

    /// The value in occupied slot `index` (checked: panics if vacant).
    #[track_caller]
    pub(super) fn occupied_mut(&mut self, index: u32) -> &mut T {
        let i = index as usize;
        assert!(self.entries[i].meta & OCCUPIED != 0, "slot {index} is vacant");
        // SAFETY: `i` is in bounds (the indexing above did not panic) and the slot is
        // occupied.
        unsafe { self.get_unchecked_mut(index) }
    }

    // ----- ownership ------------------------------------------------------------------------

    /// Marks the unowned value of `version` in slot `index` owned; whether it did.
    pub(super) fn own(&mut self, index: u32, version: Version) -> bool {
        match self.entries.get_mut(index as usize) {
            Some(e) if version.names_unowned(e.meta) => {
                e.meta |= OWNED;
                true
            }
            _ => false,
        }
    }

    /// Marks occupied slot `index` unowned.
    pub(super) fn disown(&mut self, index: u32) {
        self.entries[index as usize].meta &= !OWNED;
    }

    // ----- removing ------------------------------------------------------------------------

    /// Removes the value of occupied slot `index`, held as `held` says, applying the
    /// free-slot policy.
    ///
    /// # Safety
    ///
    /// Slot `index` is in bounds and occupied, its flag bits are exactly `held`'s (owned
    /// for [`Held::Owned`], not for [`Held::Unowned`]: a wrong `held` would leave a flag
    /// set in a vacant slot's meta word, breaking L1), and if it is owned, the caller is
    /// its owner (L3).
    ///
    /// `ZERO_SALT` is true for storage whose salt is 0 (a branded pool's), whose quick
    /// test is then a compare ([`Start::quick_vacant_meta_zero_salt`]); with another
    /// salt it would retire slots at the wrong generations (a logic error, checked in
    /// debug builds).
    #[inline]
    pub(super) unsafe fn remove_unchecked<const ZERO_SALT: bool>(
        &mut self,
        index: u32,
        held: Held,
    ) -> T {
        // SAFETY: forwarded from the caller.
        let (value, meta) = unsafe { self.take_value(index) };
        let quick = if ZERO_SALT {
            self.start.quick_vacant_meta_zero_salt(meta, held)
        } else {
            self.start.quick_vacant_meta(meta, held)
        };
        if let Some(vacant) = quick {
            // SAFETY: in bounds (caller); its value was just taken.
            unsafe { self.link_free(index, vacant) };
        } else {
            // SAFETY: as above.
            unsafe { self.vacate_slow(index, meta) };
        }
        value
    }

    /// A removal's slow path: the slot retires, or a free-slot policy is set (see
    /// [`Start::quick_vacant_meta`]). Vacates the slot exactly as [`take`](Self::take)
    /// does, then applies the policy.
    ///
    /// # Safety
    ///
    /// As [`vacate`](Self::vacate).
    #[cold]
    #[inline(never)]
    unsafe fn vacate_slow(&mut self, index: u32, meta: u32) {
        // SAFETY: forwarded from the caller.
        unsafe { self.vacate(index, meta) };
        self.apply_max_free();
    }

    /// Removes the *unowned* value of `version` in slot `index`, if it is there.
    #[inline]
    pub(super) fn remove(&mut self, index: u32, version: Version) -> Option<T> {
        self.remove_keyed::<false>(index, version)
    }

    /// [`remove`](Self::remove) for storage whose salt is 0 (a branded pool's): its
    /// quick test is a compare (see [`remove_unchecked`](Self::remove_unchecked)).
    #[inline]
    pub(super) fn remove_zero_salt(&mut self, index: u32, version: Version) -> Option<T> {
        self.remove_keyed::<true>(index, version)
    }

    /// [`remove`](Self::remove), with the quick test `ZERO_SALT` chooses.
    #[inline]
    fn remove_keyed<const ZERO_SALT: bool>(&mut self, index: u32, version: Version) -> Option<T> {
        // Occupied (K1), same version, and not owned.
        if self.contains_unowned(index, version) {
            // SAFETY: in bounds, occupied (the meta word equals the version, which has
            // `OCCUPIED` set: K1) and not owned (the version has `OWNED` clear), so its
            // flags are `Held::Unowned`'s and L3 allows it.
            Some(unsafe { self.remove_unchecked::<ZERO_SALT>(index, Held::Unowned) })
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
        // SAFETY: forwarded from the caller.
        let (value, meta) = unsafe { self.take_value(index) };
        // SAFETY: in bounds (caller); its value was just taken.
        unsafe { self.vacate(index, meta) };
        value
    }

    /// Reads the value of slot `index` out, with the slot's meta word, and counts it
    /// gone. The slot still says it is occupied: the caller vacates it next, before
    /// anything else reads it ([`vacate`](Self::vacate) or [`link_free`](Self::link_free)).
    ///
    /// # Safety
    ///
    /// Slot `index` is in bounds and occupied, its owner (if any) agrees (L3), and the
    /// caller vacates it before the storage is used again.
    #[inline]
    unsafe fn take_value(&mut self, index: u32) -> (T, u32) {
        // SAFETY: the caller guarantees an occupied, in-bounds slot.
        let slot = unsafe { self.entries.get_unchecked_mut(index as usize) };
        // SAFETY: L1: occupied slots hold an initialised value in `value`.
        let field = unsafe { &mut slot.body.value };
        // SAFETY: the value is read once: the caller marks the slot vacant next (keeping
        // L1).
        let value = unsafe { ManuallyDrop::take(field) };
        self.len -= 1;
        (value, slot.meta)
    }

    /// Marks slot `index`, whose value was taken and whose meta word was `meta`, vacant
    /// one generation on and links it at the head of the free list, or retires it if no
    /// generation is left to tell its next value from the last (L4).
    ///
    /// # Safety
    ///
    /// Slot `index` is in bounds and its value was taken ([`take_value`](Self::take_value)).
    #[inline]
    unsafe fn vacate(&mut self, index: u32, meta: u32) {
        if let Some(vacant) = self.start.next_vacant_meta(meta) {
            // SAFETY: forwarded from the caller.
            unsafe { self.link_free(index, vacant) };
        } else {
            let retired = self.retired_meta();
            // SAFETY: in bounds (caller).
            unsafe { self.entries.get_unchecked_mut(index as usize) }.meta = retired;
        }
    }

    /// Makes slot `index` vacant with meta word `vacant` and the head of the free list
    /// (L2).
    ///
    /// # Safety
    ///
    /// Slot `index` is in bounds and holds no value (taken, or never filled), and
    /// `vacant` is a vacant meta word of a generation after the slot's last value.
    #[inline]
    unsafe fn link_free(&mut self, index: u32, vacant: u32) {
        let next = self.free_head;
        // SAFETY: in bounds (caller).
        let slot = unsafe { self.entries.get_unchecked_mut(index as usize) };
        slot.meta = vacant;
        slot.body = Body { next };
        self.free_head = Link::to(index);
    }

    /// Applies the `max_free` policy after removals.
    ///
    /// Only the test for a policy is inline; the policy itself is out of line. A single
    /// removal does not come here on its fast path: with a policy set, every removal
    /// takes the slow path ([`vacate_slow`](Self::vacate_slow)), which does.
    #[inline]
    fn apply_max_free(&mut self) {
        if let Some(max_free) = self.max_free {
            self.apply_max_free_policy(max_free);
        }
    }

    /// The `max_free` policy: gives free slots back when more than twice `max_free` are
    /// free.
    #[inline(never)]
    fn apply_max_free_policy(&mut self, max_free: usize) {
        if self.entries.len() - self.len > max_free.saturating_mul(2) {
            self.shrink_to_fit();
        }
    }

    /// Keeps the unowned values for which `keep` returns `true` (given the index and
    /// version), removes the others.
    pub(super) fn retain(&mut self, mut keep: impl FnMut(u32, Version, &mut T) -> bool) {
        for i in 0..self.entries.len() {
            let meta = self.entries[i].meta;
            if meta & (OCCUPIED | OWNED) != OCCUPIED {
                continue;
            }
            // SAFETY: L1: slot `i` is occupied (checked above), so it holds a `T`.
            let value = unsafe { &mut self.entries[i].body.value };
            // `i` < `MAX_SLOTS`, which fits a `u32`.
            if !keep(i as u32, Version::of_meta(meta), value) {
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
    #[cfg(feature = "alloc")]
    pub(super) unsafe fn take_all(&mut self) -> Vec<T> {
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
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Values the buffers hold without growing.
    pub(super) fn capacity(&self) -> usize {
        self.entries.capacity()
    }

    /// Makes room for `additional` more values without growing.
    pub(super) fn reserve(&mut self, additional: usize) {
        let vacant = self.entries.len() - self.len;
        let needed = additional.saturating_sub(vacant);
        self.entries.reserve(needed);
        // R1, from the capacity the buffer has now.
        self.room = self.entries.capacity().min(MAX_SLOTS);
    }

    /// The counters.
    pub(super) fn stats(&self) -> PoolStats {
        PoolStats {
            live: self.len,
            free: self.entries.len() - self.len,
            capacity: self.capacity(),
            peak: self.peak.max(self.entries.len()),
        }
    }

    /// Gives back the trailing vacant slots and the spare buffer.
    pub(super) fn shrink_to_fit(&mut self) {
        self.truncate_vacant_tail();
        self.entries.shrink_to_fit();
        // R1: the buffer may be smaller now.
        self.room = 0;
    }

    /// Forgets the vacant slots after the last occupied (or retired) one, keeping the
    /// buffer: the next values take the lowest free slots, then new ones in order (what a
    /// slab user sees after `clear` or `drain`).
    pub(super) fn truncate_vacant_tail(&mut self) {
        // Occupied slots stay, and so do retired ones: a retired slot's last version would
        // match the first value of a slot made again at its index (its generation cannot
        // rise past the retirement age), so it is never truncated (L4).
        let keep = self
            .entries
            .iter()
            .rposition(|e| e.meta & OCCUPIED != 0 || self.is_retired(e.meta))
            .map_or(0, |last| last + 1);
        if keep < self.entries.len() {
            // Below `MAX_AGE`: retired slots were kept above.
            let floor = self.entries[keep..].iter().map(|e| self.age(e.meta) + 1).max();
            self.start.raise_floor(floor.unwrap_or(0));
            self.peak = self.peak.max(self.entries.len());
            // Vacant slots hold no value: truncating drops nothing (`Slot` has no drop glue).
            self.entries.truncate(keep);
            self.rebuild_free_list();
        }
    }

    /// The salt, the generation floor and every slot's meta word with its value: what
    /// a serialised pool is made of.
    #[cfg(all(feature = "serde", feature = "alloc"))]
    pub(super) fn parts(
        &self,
    ) -> (u32, u32, impl ExactSizeIterator<Item = (u32, Option<&T>)> + Clone + '_) {
        let slots = self.entries.iter().map(|slot| {
            // SAFETY: L1: an occupied slot holds a `T`.
            let value = (slot.meta & OCCUPIED != 0).then(|| unsafe { &*slot.body.value });
            (slot.meta, value)
        });
        (self.start.salt(), self.start.floor(), slots)
    }

    /// Storage rebuilt from [`parts`](Self::parts).
    ///
    /// # Errors
    ///
    /// If the parts break an invariant: a salt or floor out of range, too many slots, a
    /// slot that holds a value without its meta word saying so (or the reverse), or an
    /// owned slot (only a branded pool owns slots, and it is not serialised).
    #[cfg(all(feature = "serde", feature = "alloc"))]
    pub(super) fn from_parts(
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
        storage.start.raise_floor(floor);
        for (meta, value) in slots {
            if meta & OWNED != 0 {
                return Err("a storable pool owns no slot");
            }
            let body = match (meta & OCCUPIED != 0, value) {
                (true, Some(value)) => {
                    storage.len += 1;
                    Body { value: ManuallyDrop::new(value) }
                }
                (false, None) => Body { next: Link::NONE },
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
    pub(super) fn set_max_free(&mut self, max_free: Option<usize>) {
        self.max_free = max_free;
        self.start = self.start.with_policy(max_free.is_some());
    }

    /// Threads the free list anew through every vacant, unretired slot, lowest index first.
    fn rebuild_free_list(&mut self) {
        self.free_head = Link::NONE;
        for i in (0..self.entries.len()).rev() {
            let m = self.entries[i].meta;
            if m & OCCUPIED == 0 && !self.is_retired(m) {
                self.entries[i].body = Body { next: self.free_head };
                // `i` < `MAX_SLOTS`, which fits a `u32`.
                self.free_head = Link::to(i as u32);
            }
        }
    }

    /// Every value with its index and version, in slot order, from either end.
    pub(super) fn iter(&self) -> RawIter<'_, T> {
        RawIter { slots: self.entries.iter(), front: 0, remaining: self.len }
    }

    /// Every value with its index and version, mutably, in slot order, from either end.
    pub(super) fn iter_mut(&mut self) -> RawIterMut<'_, T> {
        RawIterMut { slots: self.entries.iter_mut(), front: 0, remaining: self.len }
    }

    /// Occupied slots no owner holds: `len` for storage that never marks a slot owned.
    pub(super) fn unowned_len(&self) -> usize {
        self.entries.iter().filter(|e| e.meta & (OCCUPIED | OWNED) == OCCUPIED).count()
    }

    /// Removes the unowned values one by one as the drain is advanced (from either end),
    /// yielding each with its index and version; the rest go when it is dropped. Owned
    /// slots stay (L3). `unowned` is [`unowned_len`](Self::unowned_len), which the caller
    /// may know without counting.
    pub(super) fn drain_unowned(&mut self, unowned: usize) -> RawDrain<'_, T> {
        debug_assert_eq!(unowned, self.unowned_len(), "the caller counted the unowned values");
        // Slot counts stay below `MAX_SLOTS`, which fits a `u32`.
        let back = self.entries.len() as u32;
        RawDrain { slots: self, front: 0, back, remaining: unowned }
    }

    /// Every value with its index and version, the storage consumed, from either end.
    /// Owned values too: the storage is gone, so no owner's proof can reach it again (L3).
    pub(super) fn into_iter(self) -> RawIntoIter<T> {
        let back = self.entries.len() as u32;
        RawIntoIter { slots: self, front: 0, back }
    }

    // ----- moving values ----------------------------------------------------------------

    /// Defragments: moves the unowned value of the highest slot into the lowest vacant,
    /// unretired slot, again and again while the first lies above the second, then gives
    /// back the trailing vacant slots ([`shrink_to_fit`](Self::shrink_to_fit)).
    ///
    /// Before each move, `rekey` gets the value, its index and version now and those it
    /// will have; if it returns `false` the value stays and compaction stops there. A
    /// moved value's old version is stale at once (its slot's generation rises, L4), and
    /// its new one is its new slot's next version, as for an insertion. Owned slots never
    /// move and never take a value (L3); retired slots never take one (L4). If `rekey`
    /// panics, the value it was given stays where it was, and the moves made before it
    /// stand: the storage is consistent either way.
    pub(super) fn compact(
        &mut self,
        mut rekey: impl FnMut(&mut T, (u32, Version), (u32, Version)) -> bool,
    ) {
        /// Threads the free list again however compaction ends (L2 is broken while slots
        /// change state under it; `rekey` only ever holds a value, never the storage).
        struct Relink<'a, T>(&'a mut Slots<T>);
        impl<T> Drop for Relink<'_, T> {
            fn drop(&mut self) {
                self.0.rebuild_free_list();
            }
        }

        let guard = Relink(self);
        let slots = &mut *guard.0;
        // Values below `hi` may still move; slots below `lo` are all settled.
        let (mut lo, mut hi) = (0, slots.entries.len());
        'moves: loop {
            // The lowest slot that may take a value...
            while lo < hi && !slots.is_free(slots.entries[lo].meta) {
                lo += 1;
            }
            // ...and the highest unowned value above it.
            hi = loop {
                if hi <= lo + 1 {
                    break 'moves;
                }
                hi -= 1;
                if slots.entries[hi].meta & (OCCUPIED | OWNED) == OCCUPIED {
                    break hi;
                }
            };
            let (from_meta, to_meta) = (slots.entries[hi].meta, slots.entries[lo].meta);
            // Both below `MAX_SLOTS`, which fits a `u32`.
            let from = (hi as u32, Version::of_meta(from_meta));
            let to = (lo as u32, Version::of_meta(to_meta));
            // SAFETY: L1: slot `hi` is occupied (found above), so it holds a `T`.
            let value = unsafe { &mut *slots.entries[hi].body.value };
            if !rekey(value, from, to) {
                break;
            }
            // SAFETY: L1: slot `hi` is occupied, so `value` is its initialised field.
            let field = unsafe { &mut slots.entries[hi].body.value };
            // SAFETY: the value is read once: the slot is marked vacant right below
            // (keeping L1).
            let value = unsafe { ManuallyDrop::take(field) };
            slots.entries[hi] = Slot {
                meta: slots.start.next_vacant_meta(from_meta).unwrap_or(slots.retired_meta()),
                body: Body { next: Link::NONE },
            };
            // Slot `lo` was vacant: overwriting its link drops nothing. Occupied and
            // filled become true together (L1).
            slots.entries[lo] =
                Slot { meta: to_meta | OCCUPIED, body: Body { value: ManuallyDrop::new(value) } };
            lo += 1;
        }
        drop(guard);
        self.shrink_to_fit();
    }

    /// Whether a slot of meta word `meta` may take a value: vacant and not retired.
    #[inline]
    fn is_free(&self, meta: u32) -> bool {
        meta & OCCUPIED == 0 && !self.is_retired(meta)
    }
}

/// Whether two of `indices` are equal (quadratic: the arrays are a handful long).
pub(super) fn overlapping(indices: &[u32]) -> bool {
    indices.iter().enumerate().any(|(i, index)| indices[..i].contains(index))
}

/// Why [`Pool::get_disjoint_mut`](crate::Pool::get_disjoint_mut),
/// [`KeyPool::get_disjoint_mut`](crate::KeyPool::get_disjoint_mut) or
/// [`SecondaryMap::get_disjoint_mut`](crate::SecondaryMap::get_disjoint_mut) gave no
/// references (slab's `GetDisjointMutError`). Overlap is checked first, over the whole
/// array.
///
/// # Examples
///
/// ```
/// use arena_kit::{GetDisjointMutError, KeyPool};
///
/// let mut pool = KeyPool::new();
/// let (a, b) = (pool.insert(1), pool.insert(2));
/// assert_eq!(pool.get_disjoint_mut([a, a]).unwrap_err(), GetDisjointMutError::OverlappingKeys);
/// pool.remove(b);
/// assert_eq!(pool.get_disjoint_mut([a, b]).unwrap_err(), GetDisjointMutError::StaleKey);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GetDisjointMutError {
    /// A key names no value: it was removed (or, for a `KeyPool`, the key is another
    /// pool's or made up).
    StaleKey,
    /// Two keys (or handles) name the same slot.
    OverlappingKeys,
}

impl fmt::Display for GetDisjointMutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GetDisjointMutError::StaleKey => "a key names no value (it was removed)",
            GetDisjointMutError::OverlappingKeys => "two keys name the same value",
        })
    }
}

impl core::error::Error for GetDisjointMutError {}

/// Clones every value into storage of the same salt, generations and free list: every
/// key of the original names the same value in the clone. Heap storage only (the
/// storable `KeyPool` clones; a pool over fixed storage is branded and does not).
#[cfg(feature = "alloc")]
impl<T: Clone> Clone for Slots<T> {
    fn clone(&self) -> Self {
        self.clone_into_buffer(SlotBuf::default())
    }

    /// Drops this storage's values, then clones `source` into its buffer. If a destructor
    /// or a clone panics, `self` is left empty (and usable), and every value made or held
    /// so far is dropped once.
    fn clone_from(&mut self, source: &Self) {
        let mut old = core::mem::replace(self, Slots::with_capacity(0, source.start.salt()));
        if core::mem::needs_drop::<T>() {
            // If a destructor panics, `old` is dropped while unwinding: `drop_from` marks
            // each slot vacant before dropping its value, so none is dropped twice.
            drop_from(&mut old, 0);
        }
        let mut buffer = core::mem::take(&mut old.entries);
        // Every slot is vacant now (or was `Copy`-like, with no destructor): clearing
        // drops nothing (`Slot` has no drop glue).
        buffer.clear();
        *self = source.clone_into_buffer(buffer);
    }
}

#[cfg(feature = "alloc")]
impl<T: Clone> Slots<T> {
    /// A clone of this storage in `buffer` (empty, its capacity reused).
    fn clone_into_buffer(&self, mut buffer: SlotBuf<Slot<T>>) -> Self {
        debug_assert!(buffer.is_empty(), "an empty buffer");
        buffer.reserve(self.entries.len());
        let mut copy = Slots {
            entries: buffer,
            // R1: unknown (the buffer is another one).
            room: 0,
            free_head: self.free_head,
            len: 0,
            peak: self.peak,
            start: self.start,
            max_free: self.max_free,
        };
        for slot in self.entries.iter() {
            let body = if slot.meta & OCCUPIED != 0 {
                // SAFETY: L1: an occupied slot holds a `T`.
                let value = unsafe { &*slot.body.value };
                // If `clone` panics, `copy` is dropped, and with it the values cloned so
                // far (its `Drop` visits every occupied slot pushed).
                Body { value: ManuallyDrop::new(value.clone()) }
            } else if self.is_retired(slot.meta) {
                // A retired slot's body may still hold the bytes of its last value.
                Body { next: Link::NONE }
            } else {
                // SAFETY: L1, L2: a vacant slot that is not retired holds its link.
                Body { next: unsafe { slot.body.next } }
            };
            copy.entries.push(Slot { meta: slot.meta, body });
        }
        copy.len = self.len;
        copy
    }
}

/// `Iterator` and `DoubleEndedIterator` for [`RawIter`] (`walk_slots!(RawIter)`) and
/// [`RawIterMut`] (`walk_slots!(RawIterMut mut)`): each step takes the next slot from
/// either end of the slice iterator and yields it if it is occupied.
macro_rules! walk_slots {
    ($name:ident $($mut:ident)?) => {
        impl<'a, T> Iterator for $name<'a, T> {
            type Item = (u32, Version, &'a $($mut)? T);

            #[inline]
            fn next(&mut self) -> Option<Self::Item> {
                while self.remaining > 0 {
                    let slot = self.slots.next()?;
                    let index = self.front;
                    self.front += 1;
                    if slot.meta & OCCUPIED != 0 {
                        self.remaining -= 1;
                        // SAFETY: L1: an occupied slot holds a `T`; the storage is
                        // borrowed (mutably, for `RawIterMut`) for `'a`, and each slot is
                        // yielded once.
                        return Some((index, Version::of_meta(slot.meta), unsafe { &$($mut)? *slot.body.value }));
                    }
                }
                None
            }

            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                (self.remaining, Some(self.remaining))
            }

            /// `for_each`, `sum`, `count` and the like come here: one loop with no
            /// early exit, and when no slot left is vacant (a pool without holes) no
            /// meta test either, so the loop is the one a slice scan compiles to.
            #[inline]
            fn fold<B, F>(self, init: B, mut f: F) -> B
            where
                F: FnMut(B, Self::Item) -> B,
            {
                let mut acc = init;
                let mut index = self.front;
                if self.remaining == self.slots.len() {
                    debug_assert!(self.slots.as_slice().iter().all(|s| s.meta & OCCUPIED != 0));
                    for slot in self.slots {
                        // SAFETY: L5: `remaining` counts the occupied slots `slots`
                        // holds, and here equals their number, so every one is occupied;
                        // L1 then gives a `T`, borrowed (mutably, for `RawIterMut`) for
                        // `'a` and yielded once.
                        acc = f(acc, (index, Version::of_meta(slot.meta), unsafe { &$($mut)? *slot.body.value }));
                        index += 1;
                    }
                    return acc;
                }
                let mut remaining = self.remaining;
                for slot in self.slots {
                    if remaining == 0 {
                        break;
                    }
                    if slot.meta & OCCUPIED != 0 {
                        remaining -= 1;
                        // SAFETY: L1, as in `next`.
                        acc = f(acc, (index, Version::of_meta(slot.meta), unsafe { &$($mut)? *slot.body.value }));
                    }
                    index += 1;
                }
                acc
            }
        }

        impl<T> DoubleEndedIterator for $name<'_, T> {
            #[inline]
            fn next_back(&mut self) -> Option<Self::Item> {
                while self.remaining > 0 {
                    let slot = self.slots.next_back()?;
                    if slot.meta & OCCUPIED != 0 {
                        self.remaining -= 1;
                        // The slots before it are still in `slots`; indices fit a `u32`.
                        let index = self.front + self.slots.len() as u32;
                        // SAFETY: L1, as in `next`.
                        return Some((index, Version::of_meta(slot.meta), unsafe { &$($mut)? *slot.body.value }));
                    }
                }
                None
            }
        }
    };
}

/// `Iterator` and `DoubleEndedIterator` for [`RawDrain`] and [`RawIntoIter`], from their
/// `left` (values still to yield) and `take_at` (the value of a slot, taken out if it is
/// one they yield): each step visits the next slot from either end of `front..back`.
macro_rules! take_slots {
    ($name:ident $(<$lt:lifetime>)?) => {
        impl<T> Iterator for $name<$($lt,)? T> {
            type Item = (u32, Version, T);

            fn next(&mut self) -> Option<Self::Item> {
                while self.left() > 0 && self.front < self.back {
                    let index = self.front;
                    self.front += 1;
                    if let Some(item) = self.take_at(index) {
                        return Some(item);
                    }
                }
                None
            }

            fn size_hint(&self) -> (usize, Option<usize>) {
                (self.left(), Some(self.left()))
            }
        }

        impl<T> DoubleEndedIterator for $name<$($lt,)? T> {
            fn next_back(&mut self) -> Option<Self::Item> {
                while self.left() > 0 && self.front < self.back {
                    self.back -= 1;
                    if let Some(item) = self.take_at(self.back) {
                        return Some(item);
                    }
                }
                None
            }
        }
    };
}

/// The values of a [`Slots`] with their indices and versions, in slot order, from either
/// end.
pub(super) struct RawIter<'a, T> {
    slots: core::slice::Iter<'a, Slot<T>>,
    /// The index of the first slot `slots` still holds.
    front: u32,
    /// Occupied slots `slots` still holds.
    remaining: usize,
}

walk_slots!(RawIter);

impl<T> Clone for RawIter<'_, T> {
    fn clone(&self) -> Self {
        RawIter { slots: self.slots.clone(), front: self.front, remaining: self.remaining }
    }
}

/// The values of a [`Slots`] with their indices and versions, mutably, in slot order,
/// from either end.
pub(super) struct RawIterMut<'a, T> {
    slots: core::slice::IterMut<'a, Slot<T>>,
    /// The index of the first slot `slots` still holds.
    front: u32,
    /// Occupied slots `slots` still holds.
    remaining: usize,
}

walk_slots!(RawIterMut mut);

/// The unowned values of a [`Slots`], removed as they are yielded; see
/// [`Slots::drain_unowned`].
pub(super) struct RawDrain<'a, T> {
    slots: &'a mut Slots<T>,
    /// Slots `front..back` are still to visit.
    front: u32,
    back: u32,
    /// Unowned values in `front..back`.
    remaining: usize,
}

impl<T> RawDrain<'_, T> {
    /// Values still to yield.
    #[inline]
    fn left(&self) -> usize {
        self.remaining
    }

    /// Removes the value of slot `index` if it is occupied and unowned.
    #[inline]
    fn take_at(&mut self, index: u32) -> Option<(u32, Version, T)> {
        let meta = self.slots.entries[index as usize].meta;
        if meta & (OCCUPIED | OWNED) != OCCUPIED {
            return None;
        }
        self.remaining -= 1;
        // SAFETY: in bounds (below the slot count, which nothing lowers while the drain
        // lives: it truncates only in its `Drop`), occupied and unowned (checked above,
        // L3).
        let value = unsafe { self.slots.take(index) };
        Some((index, Version::of_meta(meta), value))
    }
}

take_slots!(RawDrain<'_>);

impl<T> Drop for RawDrain<'_, T> {
    fn drop(&mut self) {
        /// Goes on removing the rest if a destructor panics.
        struct Rest<'r, 'a, T>(&'r mut RawDrain<'a, T>);
        impl<T> Drop for Rest<'_, '_, T> {
            fn drop(&mut self) {
                self.0.by_ref().for_each(drop);
            }
        }
        while let Some(item) = self.next() {
            let rest = Rest(self);
            drop(item);
            core::mem::forget(rest);
        }
        self.slots.truncate_vacant_tail();
        self.slots.apply_max_free();
    }
}

/// The values of a consumed [`Slots`], from either end; see [`Slots::into_iter`]. The
/// values it does not reach are dropped with the storage.
pub(super) struct RawIntoIter<T> {
    slots: Slots<T>,
    /// Slots `front..back` are still to visit.
    front: u32,
    back: u32,
}

impl<T> RawIntoIter<T> {
    /// Values still to yield.
    #[inline]
    fn left(&self) -> usize {
        self.slots.len
    }

    /// Takes the value of slot `index` out if it is occupied.
    #[inline]
    fn take_at(&mut self, index: u32) -> Option<(u32, Version, T)> {
        let meta = self.slots.entries[index as usize].meta;
        if meta & OCCUPIED == 0 {
            return None;
        }
        // SAFETY: in bounds (nothing truncates a consumed storage) and occupied (checked
        // above); the storage is consumed, so no owner's proof can reach it (L3).
        let value = unsafe { self.slots.take(index) };
        Some((index, Version::of_meta(meta), value))
    }
}

take_slots!(RawIntoIter);

impl<T> Drop for Slots<T> {
    fn drop(&mut self) {
        if core::mem::needs_drop::<T>() {
            drop_from(self, 0);
        }
    }
}

/// Drops the values of slots `start..`, each marked vacant first (so it is dropped once),
/// going on with the rest if a destructor panics. Breaks L2 and the count: for storage
/// that is dropped or emptied right after.
fn drop_from<T>(slots: &mut Slots<T>, start: usize) {
    /// Drops the rest if a destructor panics.
    struct Rest<'a, T>(&'a mut Slots<T>, usize);
    impl<T> Drop for Rest<'_, T> {
        fn drop(&mut self) {
            drop_from(self.0, self.1);
        }
    }
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

/// The slot the next value goes into, found by [`Slots::vacant`] for a value already in
/// hand (`insert`): "meta says occupied" and "the slot holds a value" become true
/// together, in [`fill`](Self::fill), which consumes the entry. Dropping it changes
/// nothing, and shows no version: entries whose key is shown before their value are a
/// [`Claim`].
///
/// Invariant (V1): `index` is the storage's free-list head (a vacant, in-bounds, unretired
/// slot) and `at_end` is false, or `index` is `entries.len()` with room in both vectors
/// and below `MAX_SLOTS` and `at_end` is true. The entry borrows the storage mutably, so
/// nothing can change that between claim and fill.
pub(super) struct Vacant<'a, T> {
    slots: &'a mut Slots<T>,
    index: u32,
    /// Whether `index` is a new slot at the end: known when the slot is claimed, so
    /// `fill` does not compare again.
    at_end: bool,
}

#[expect(
    clippy::inline_always,
    reason = "the insert fast path (W8), inlined into `Pool::insert`: see the reason there"
)]
impl<T> Vacant<'_, T> {
    /// Fills the slot with `value`, marked occupied (and `OWNED` if `owned`); returns its
    /// index and version.
    #[inline(always)]
    pub(super) fn fill(self, value: T, owned: bool) -> (u32, Version) {
        let owned = if owned { OWNED } else { 0 };
        let storage = self.slots;
        let i = self.index as usize;
        // The slot's vacant meta word: its flag bits are clear (L1), so the value's
        // version is that word with `OCCUPIED` set, and its meta word that with `owned`.
        let vacant = if self.at_end {
            debug_assert_eq!(i, storage.entries.len(), "V1: a new slot at the end");
            let vacant = storage.start.new_meta();
            debug_assert!(i < storage.entries.capacity(), "V1: room");
            // SAFETY: V1: element `i == len` is allocated.
            let slot = unsafe { storage.entries.as_mut_ptr().add(i) };
            let meta = vacant | OCCUPIED | owned;
            // SAFETY: in bounds of the allocation, aligned, not yet initialised.
            unsafe { slot.write(Slot { meta, body: Body { value: ManuallyDrop::new(value) } }) };
            // SAFETY: element `i` was initialised just above.
            unsafe { storage.entries.set_len(i + 1) };
            vacant
        } else {
            // SAFETY: V1 and L2: `i` is the free-list head, an in-bounds vacant slot.
            let slot = unsafe { storage.entries.get_unchecked_mut(i) };
            // SAFETY: L1: a vacant slot's `next` is its initialised field.
            storage.free_head = unsafe { slot.body.next };
            // A vacant slot holds no value: overwriting it drops nothing.
            slot.body = Body { value: ManuallyDrop::new(value) };
            let vacant = slot.meta;
            slot.meta = vacant | OCCUPIED | owned;
            vacant
        };
        debug_assert_eq!(vacant & (OCCUPIED | OWNED), 0, "L1: a vacant slot's flags are clear");
        storage.len += 1;
        // SAFETY: `vacant` has both flag bits clear (L1: a vacant slot's meta word, or a
        // new slot's, `Start::new_meta`), so with `OCCUPIED` set it keeps K1.
        (self.index, unsafe { Version::of_clean_meta(vacant | OCCUPIED) })
    }
}

/// A slot claimed by [`Slots::claim`], its version known before its value (slab's
/// `VacantEntry`, as the pools' `vacant_entry` shows it).
///
/// The claim burns its version when it is made, not when it ends: the slot's generation
/// moves one past the claimed version at once (or, for a slot's last version, the slot
/// retires at once). So a claim dropped unfilled, or forgotten with `mem::forget`, leaves
/// a version that names no value ever: its `Drop` only tidies the counters. Filling it stores
/// the value at the claimed version, which no other value had or will have (L4: the
/// slot's next value gets the generation after it, as after any removal).
///
/// A claim that made a new slot at the end and is dropped unfilled takes the slot back
/// (and raises the floor new slots start at past the claimed version, L4), so the
/// counters read as if it never was; one that is forgotten leaves the slot, vacant, on
/// the free list, which only the counters show.
///
/// Invariant (C1): the storage is consistent (L1-L5 hold) while the claim lives, and
/// slot `index` is vacant, in bounds, at one generation past `version`, and either the
/// free-list head ([`Place::Head`]) or retired and off the free list
/// ([`Place::Retired`]); if `pushed`, it is the last slot, made by the claim. The claim
/// borrows the storage mutably, so nothing changes that between claim and fill.
pub(super) struct Claim<'a, T> {
    slots: &'a mut Slots<T>,
    index: u32,
    version: Version,
    place: Place,
    /// Whether the claim made slot `index` (the free list was empty).
    pushed: bool,
}

/// Where a claimed slot is (C1).
#[derive(Clone, Copy)]
enum Place {
    /// The free-list head.
    Head,
    /// Retired, off the free list: the claimed version is the slot's last.
    Retired,
}

impl<T> Claim<'_, T> {
    /// The index the value will take.
    #[inline]
    pub(super) fn index(&self) -> u32 {
        self.index
    }

    /// The version the value will have.
    #[inline]
    pub(super) fn version(&self) -> Version {
        self.version
    }

    /// Stores `value` at the claimed version (`OWNED` if `owned`); returns its index and
    /// version.
    #[inline]
    pub(super) fn fill(self, value: T, owned: bool) -> (u32, Version) {
        let mut claim = ManuallyDrop::new(self); // filled: nothing to take back
        let (index, version, place) = (claim.index, claim.version, claim.place);
        let storage = &mut *claim.slots;
        let i = index as usize;
        if let Place::Head = place {
            // SAFETY: C1, L1: the head is vacant, so `next` is its initialised field.
            storage.free_head = unsafe { storage.entries[i].body.next };
        }
        let meta = version.meta(owned);
        // The slot is vacant (C1): overwriting it drops nothing (`Slot` has no drop glue).
        // Occupied and filled become true together (L1).
        storage.entries[i] = Slot { meta, body: Body { value: ManuallyDrop::new(value) } };
        storage.len += 1;
        (index, version)
    }
}

impl<T> Drop for Claim<'_, T> {
    /// Takes back a slot the claim made (see [`Claim`]); anything else is already as an
    /// unfilled claim leaves it.
    fn drop(&mut self) {
        if self.pushed && matches!(self.place, Place::Head) {
            let storage = &mut *self.slots;
            debug_assert_eq!(self.index as usize + 1, storage.entries.len(), "C1: the last slot");
            // The free list was empty before the claim (C1): the slot was all of it.
            storage.entries.pop();
            storage.free_head = Link::NONE;
            // The next slot made here starts past the claimed version (L4). Below
            // `MAX_AGE`: a slot whose claimed age was the last would have retired
            // (`Place::Retired`).
            storage.start.raise_floor(storage.age(self.version.bits()) + 1);
        }
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

    /// The removal's test, against its definition: the age (generation less salt) after
    /// the removal is below `MAX_AGE`, for salts and generations around every wrap.
    #[test]
    fn next_vacant_meta_retires_exactly_at_the_last_two_ages() {
        let edges = [0, 1, 2, 3, 7, 1 << 20, GEN_MASK - 2, GEN_MASK - 1, GEN_MASK];
        for salt in edges {
            let start = Start::new(salt, 0);
            for base in edges {
                for step in 0..6_u32 {
                    let generation = base.wrapping_add(step) & GEN_MASK;
                    for flags in [0, OCCUPIED, OCCUPIED | OWNED, OWNED] {
                        let meta = generation << GEN_SHIFT | flags;
                        let age = generation.wrapping_sub(salt) & GEN_MASK;
                        let expected = (age + 1 < MAX_AGE)
                            .then_some(((generation + 1) & GEN_MASK) << GEN_SHIFT);
                        assert_eq!(
                            start.next_vacant_meta(meta),
                            expected,
                            "salt {salt} meta {meta}"
                        );
                        // The fast path's addition agrees for the flags a remover knows;
                        // with a policy set it always defers to the slow path.
                        for held in [Held::Owned, Held::Unowned] {
                            if flags == held.flags() {
                                assert_eq!(start.quick_vacant_meta(meta, held), expected);
                                let policy = start.with_policy(true);
                                assert_eq!(policy.quick_vacant_meta(meta, held), None);
                                let lifted = policy.with_policy(false);
                                assert_eq!(lifted.quick_vacant_meta(meta, held), expected);
                                if salt == 0 {
                                    let zero = Start::new(0, 0);
                                    assert_eq!(
                                        zero.quick_vacant_meta_zero_salt(meta, held),
                                        expected
                                    );
                                    let policy = zero.with_policy(true);
                                    assert_eq!(
                                        policy.quick_vacant_meta_zero_salt(meta, held),
                                        None
                                    );
                                    let mut lifted = policy.with_policy(false);
                                    lifted.raise_floor(3); // the limit stays
                                    assert_eq!(
                                        lifted.quick_vacant_meta_zero_salt(meta, held),
                                        expected
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Inserts one value keyed, pretends slot 0 was reused up to two short of retirement,
    /// removes it, puts a last value in, removes that, and returns its version (the slot
    /// retires at that removal).
    fn retire_slot_zero(slots: &mut Slots<u32>) -> Version {
        let (index, _) = slots.vacant().unwrap().fill(0, false);
        assert_eq!(index, 0);
        // 2^30 - 3 real reuses, set directly.
        let generation = (slots.start.salt() + MAX_AGE - 2) & GEN_MASK;
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
            assert_eq!(slots.free_head, Link::NONE, "a retired slot never rejoins the free list");
        }
    }

    /// The branded pool's removals (salt 0, the compare test), keyed and by owner: the
    /// slot retires at the removal of its last generation, not before, also when it
    /// was born at `MAX_AGE` (the floor reached it).
    #[test]
    fn zero_salt_removals_retire_at_the_last_generation() {
        for held in [Held::Unowned, Held::Owned] {
            let mut slots = Slots::with_capacity(0, 0);
            let (index, _) = slots.vacant().unwrap().fill(0, held == Held::Owned);
            slots.entries[0].meta = ((MAX_AGE - 2) << GEN_SHIFT) | held.flags();
            let remove = |slots: &mut Slots<u32>, version: Version| match held {
                Held::Unowned => slots.remove_zero_salt(0, version),
                // SAFETY: slot 0 is occupied and owned, and this test is its owner.
                Held::Owned => Some(unsafe { slots.remove_unchecked::<true>(0, Held::Owned) }),
            };
            let before_last = Version::of_meta(slots.entries[0].meta);
            assert_eq!(remove(&mut slots, before_last), Some(0));
            assert!(!slots.is_retired(slots.entries[0].meta), "one generation left");
            let (again, last) = slots.vacant().unwrap().fill(1, held == Held::Owned);
            assert_eq!((index, again), (0, 0), "the slot is reused for its last generation");
            assert_eq!(remove(&mut slots, last), Some(1));
            assert!(slots.is_retired(slots.entries[0].meta), "retired after its last value");
            assert_eq!(slots.vacant().unwrap().fill(2, false).0, 1, "slot 0 is not reused");
        }
        // Born at `MAX_AGE`: its first removal retires it.
        let mut slots: Slots<u32> = Slots::with_capacity(0, 0);
        slots.start.raise_floor(MAX_AGE);
        let (index, version) = slots.vacant().unwrap().fill(3, false);
        assert_eq!(slots.remove_zero_salt(index, version), Some(3));
        assert!(slots.is_retired(slots.entries[0].meta));
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
    fn a_claim_dropped_or_forgotten_never_names_a_value() {
        for salt in [0, 5, GEN_MASK] {
            for forget in [false, true] {
                let mut slots = Slots::with_capacity(0, salt);
                let end = |claim: Claim<'_, u32>| {
                    if forget { core::mem::forget(claim) } else { drop(claim) }
                };
                // A claim of a new slot: its version never comes back there.
                let claim = slots.claim().unwrap();
                let (index, version) = (claim.index(), claim.version());
                end(claim);
                let (i, v) = slots.vacant().unwrap().fill(1, false);
                assert_eq!(i, index, "the claimed slot is reused");
                assert_ne!(v, version, "at a newer version");
                assert!(!slots.contains(index, version));
                // A claim of a freed slot, likewise.
                assert_eq!(slots.remove(i, v), Some(1));
                let claim = slots.claim().unwrap();
                let version = claim.version();
                end(claim);
                let (_, v) = slots.vacant().unwrap().fill(2, false);
                assert_ne!(v, version);
                assert!(!slots.contains(index, version));
                assert_eq!((slots.len(), slots.entries.len()), (1, 1));
            }
        }
    }

    #[test]
    fn a_filled_claim_holds_its_version_and_the_next_value_a_newer_one() {
        let mut slots = Slots::with_capacity(0, 3);
        let claim = slots.claim().unwrap();
        let shown = (claim.index(), claim.version());
        assert_eq!(claim.fill(10, false), shown);
        assert_eq!(slots.get(shown.0, shown.1), Some(&10));
        assert_eq!(slots.remove(shown.0, shown.1), Some(10));
        let (i, v) = slots.vacant().unwrap().fill(11, false);
        assert_eq!(i, shown.0);
        assert!(shown.1.is_older_than(v), "the slot's next value is newer");
        assert_eq!(slots.get(shown.0, shown.1), None);
    }

    #[test]
    fn a_claim_of_a_slots_last_version_retires_it_at_once() {
        for forget in [false, true] {
            let mut slots = Slots::with_capacity(0, 9);
            let (index, _) = slots.vacant().unwrap().fill(0, false);
            // The slot's value is at its second-to-last age; removing it leaves the last.
            let generation = (slots.start.salt() + MAX_AGE - 2) & GEN_MASK;
            slots.entries[0].meta = (generation << GEN_SHIFT) | OCCUPIED;
            assert_eq!(slots.remove(index, slots.version_at(index).unwrap()), Some(0));
            let claim = slots.claim().unwrap();
            let last = claim.version();
            assert!(slots_is_retired_through(&claim, 0));
            if forget {
                core::mem::forget(claim);
                let (i, _) = slots.vacant().unwrap().fill(1, false);
                assert_eq!(i, 1, "the retired slot is not reused");
                assert_eq!(slots.get(0, last), None);
            } else {
                assert_eq!(claim.fill(7, false), (0, last));
                assert_eq!(slots.remove(0, last), Some(7));
                assert!(slots.is_retired(slots.entries[0].meta), "retired after its last value");
            }
        }
    }

    /// Whether slot `index` of a claim's storage is retired now.
    fn slots_is_retired_through(claim: &Claim<'_, u32>, index: usize) -> bool {
        claim.slots.is_retired(claim.slots.entries[index].meta)
    }

    #[test]
    fn a_claim_at_the_end_with_the_floor_at_the_last_age_retires_its_slot() {
        for forget in [false, true] {
            let mut slots: Slots<u32> = Slots::with_capacity(0, 1);
            slots.start.raise_floor(MAX_AGE);
            let claim = slots.claim().unwrap();
            let version = claim.version();
            if forget {
                core::mem::forget(claim);
            } else {
                drop(claim);
            }
            assert_eq!(slots.entries.len(), 1, "a retired slot stays, dropped or not");
            assert!(slots.is_retired(slots.entries[0].meta));
            assert_eq!(slots.free_head, Link::NONE);
            assert!(!slots.contains(0, version));
        }
    }

    #[test]
    fn a_dropped_claim_takes_back_only_a_slot_it_made() {
        let mut slots = Slots::with_capacity(0, 2);
        let (a, va) = slots.vacant().unwrap().fill(1, false);
        let (_, vb) = slots.vacant().unwrap().fill(2, false);
        assert_eq!(slots.remove(a, va), Some(1));
        // A claim of freed slot 0 (not the last) dropped: both slots stay.
        let claim = slots.claim().unwrap();
        let burnt = claim.version();
        assert_eq!(claim.index(), a);
        drop(claim);
        assert_eq!((slots.entries.len(), slots.len(), slots.free_head), (2, 1, Link::to(a)));
        assert!(!slots.contains(a, burnt) && slots.contains(1, vb));
        // A claim of a new slot (2) dropped: it goes, and the floor moves past it.
        let (_, v0) = slots.vacant().unwrap().fill(3, false);
        let claim = slots.claim().unwrap();
        let (index, burnt) = (claim.index(), claim.version());
        assert_eq!(index, 2);
        drop(claim);
        assert_eq!((slots.entries.len(), slots.free_head), (2, Link::NONE));
        let (i, v) = slots.vacant().unwrap().fill(4, false);
        assert_eq!(i, 2);
        assert!(burnt.is_older_than(v), "the new slot starts past the burnt version");
        assert!(slots.contains(a, v0));
    }

    #[test]
    fn compaction_neither_fills_nor_drops_a_retired_slot() {
        for salt in [0, 3, GEN_MASK] {
            let mut slots = Slots::with_capacity(0, salt);
            let last = retire_slot_zero(&mut slots); // slot 0 retired
            let (i1, _) = slots.vacant().unwrap().fill(11, false);
            let (i2, v2) = slots.vacant().unwrap().fill(22, false);
            let (i3, v3) = slots.vacant().unwrap().fill(33, false);
            assert_eq!((i1, i2, i3), (1, 2, 3));
            slots.remove(i2, v2);
            let mut moves = Vec::new();
            slots.compact(|&mut v, from, to| {
                moves.push((v, from, to));
                true
            });
            assert_eq!(moves.len(), 1, "33 moves down into slot 2, not into retired slot 0");
            let (v, from, to) = moves[0];
            assert_eq!((v, from, to.0), (33, (i3, v3), 2));
            assert!(slots.is_retired(slots.entries[0].meta), "still retired");
            assert_eq!(slots.entries.len(), 3, "slot 3 given back, slot 0 kept");
            assert_eq!((slots.get(to.0, to.1), slots.get(i3, v3)), (Some(&33), None));
            assert!(!slots.contains(0, last));
        }
    }

    #[test]
    fn a_clone_keeps_retired_slots_retired_and_every_key() {
        let mut slots = Slots::with_capacity(0, 77);
        let last = retire_slot_zero(&mut slots);
        let (one, one_v) = slots.vacant().unwrap().fill(100, false);
        let (two, two_v) = slots.vacant().unwrap().fill(200, false);
        slots.remove(two, two_v);
        let mut copy = slots.clone();
        assert_eq!(copy.get(one, one_v), Some(&100));
        assert!(copy.get(two, two_v).is_none() && !copy.contains(0, last));
        assert!(copy.is_retired(copy.entries[0].meta));
        let (three, _) = copy.vacant().unwrap().fill(300, false);
        assert_eq!(three, two, "the copy's free list is the original's");
        copy.clone_from(&slots);
        assert_eq!((copy.len(), copy.entries.len()), (1, 3));
    }

    #[test]
    fn truncating_the_vacant_tail_keeps_the_buffer_and_old_keys_stale() {
        let mut slots = Slots::with_capacity(8, 9);
        let keys: Vec<_> = (0..4).map(|n| slots.vacant().unwrap().fill(n, false)).collect();
        for &(i, v) in &keys {
            slots.remove(i, v);
        }
        slots.truncate_vacant_tail();
        assert_eq!((slots.entries.len(), slots.capacity()), (0, 8));
        let (i, v) = slots.vacant().unwrap().fill(7, false);
        assert_eq!(i, 0);
        assert!(keys.iter().all(|&(ki, kv)| (ki, kv) != (i, v) && slots.get(ki, kv).is_none()));
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
