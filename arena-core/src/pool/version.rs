//! [`Version`]: which value of a slot a key names, and the layout of a slot's meta word.
//!
//! Every typed pool (`pool/slots.rs`) keeps a `u32` meta word beside each slot: bit 0
//! (`OCCUPIED`) says the slot holds a value, bit 1 (`OWNED`) that a branded pool's handle
//! owns it, bits 2.. are the slot's generation, counted modulo 2^30. A key carries the
//! *version* of the value it was made for: the meta word that slot had while it held
//! that value, without the owned bit.
//!
//! # Outside bits are parsed, not trusted
//!
//! A key can come from outside the program (`from_raw`, `serde`), so its version may be
//! any 32 bits. Were a version with `OCCUPIED` clear accepted, it would equal the meta
//! word of a *vacant* slot, and a lookup would read a value that was moved out. So a
//! version is a type whose every constructor keeps one invariant:
//!
//! - **(K1)** bit 0 (`OCCUPIED`) is set and bit 1 (`OWNED`) is clear.
//!
//! [`Version::of_meta`] makes one from a slot's own meta word (setting and clearing the
//! two bits), [`Version::from_bits`] parses outside bits and refuses any other pattern.
//! The comparisons that decide whether a slot holds a key's value are methods of
//! `Version` ([`names`](Version::names), [`names_unowned`](Version::names_unowned)), and
//! by K1 no vacant meta word equals a version: "a vacant slot never matches" is a property
//! of the comparison, whatever bits a caller brought.

use core::num::NonZeroU32;

/// Bit 0 of a meta word: the slot holds a value.
pub(super) const OCCUPIED: u32 = 1;
/// Bit 1 of a meta word: a branded pool's handle owns the slot's value.
pub(super) const OWNED: u32 = 2;
/// Where the generation starts in a meta word.
pub(super) const GEN_SHIFT: u32 = 2;
/// The two flag bits of a meta word.
const FLAGS: u32 = OCCUPIED + OWNED;
/// Generations are counted modulo 2^30.
pub(super) const GEN_MASK: u32 = u32::MAX >> GEN_SHIFT;

/// The version of a slot's value: its generation, `OCCUPIED` set, `OWNED` clear (K1).
/// Ordered as the `u32` it is. `pub` only because the sealed key trait names it: this
/// module is private, so no user can name or make one.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Version(NonZeroU32);

impl Version {
    /// The version of generation 0: what keys that name no value carry, beside an index
    /// no slot has.
    pub(super) const FIRST: Version = Version::of_meta(0);

    /// The version of the value a slot of meta word `meta` holds, or will hold once it
    /// is filled (a vacant slot's meta word is its next value's, `OCCUPIED` clear).
    #[inline]
    #[must_use]
    pub(super) const fn of_meta(meta: u32) -> Version {
        match NonZeroU32::new((meta | OCCUPIED) & !OWNED) {
            Some(bits) => Version(bits),
            // Bit 0 is set on the line above.
            None => unreachable!(),
        }
    }

    /// The version a slot's meta word `meta` spells as it is, unmasked: for a meta word
    /// the caller built with `OCCUPIED` set on a vacant slot's word (flags clear), where
    /// [`of_meta`](Version::of_meta)'s mask would cost an instruction on an insert.
    ///
    /// # Safety
    ///
    /// `meta` has `OCCUPIED` set and `OWNED` clear (K1): a version with `OWNED` set would
    /// match an owned slot in [`names_unowned`](Version::names_unowned), and let a key
    /// remove a value a handle owns.
    #[inline]
    #[must_use]
    pub(super) unsafe fn of_clean_meta(meta: u32) -> Version {
        debug_assert!(meta & FLAGS == OCCUPIED, "K1: occupied and not owned");
        match NonZeroU32::new(meta) {
            Some(bits) => Version(bits),
            // Bit 0 is set (the caller's guarantee).
            None => unreachable!(),
        }
    }

    /// Parses a version that came from outside: `None` unless `bits` has `OCCUPIED` set
    /// and `OWNED` clear (K1), the only patterns a pool ever gives its keys.
    #[inline]
    #[must_use]
    pub(crate) fn from_bits(bits: u32) -> Option<Version> {
        (bits & FLAGS == OCCUPIED).then(|| Version::of_meta(bits))
    }

    /// The version's 32 bits, as stored in keys and written to the outside.
    #[inline]
    #[must_use]
    pub(crate) fn bits(self) -> u32 {
        self.0.get()
    }

    /// The meta word of a slot holding this version's value, owned by a handle if
    /// `owned`: the version itself, plus the owned bit (clear in a version, K1).
    #[inline]
    #[must_use]
    pub(super) fn meta(self, owned: bool) -> u32 {
        if owned { self.bits() + OWNED } else { self.bits() }
    }

    /// The generation (bits 2..).
    #[inline]
    #[must_use]
    pub(super) fn generation(self) -> u32 {
        self.bits() >> GEN_SHIFT
    }

    /// Whether a slot of meta word `meta` holds this version's value, owned or not.
    /// Never true of a vacant slot: the version has `OCCUPIED` set (K1), and masking the
    /// owned bit keeps bit 0 of `meta`.
    #[inline]
    #[must_use]
    pub(super) fn names(self, meta: u32) -> bool {
        meta & !OWNED == self.bits()
    }

    /// Whether a slot of meta word `meta` holds this version's value, not owned by a
    /// handle: one compare. Never true of a vacant slot (K1), nor of an owned one (the
    /// version has `OWNED` clear).
    #[inline]
    #[must_use]
    pub(super) fn names_unowned(self, meta: u32) -> bool {
        meta == self.bits()
    }

    /// Whether this is an older version of the same slot than `newer`: `newer`'s
    /// generation is ahead by less than half the generation space (a slot never reuses a
    /// generation, and retires before its count wraps).
    #[inline]
    #[must_use]
    pub(super) fn is_older_than(self, newer: Version) -> bool {
        let ahead = newer.generation().wrapping_sub(self.generation()) & GEN_MASK;
        ahead != 0 && ahead < 1 << 29
    }
}

/// An index no slot has (a pool holds at most `MAX_SLOTS` = `u32::MAX - 1` slots, so
/// indices stop below `u32::MAX - 1`): a key there names no value in any pool.
pub(super) const NO_SLOT: u32 = u32::MAX;
const _: () = assert!(NO_SLOT as usize >= crate::pool::slots::MAX_SLOTS);

/// A key's slot index and version as one `u64`, the version in the high half: the form
/// keys take outside the program.
#[inline]
#[must_use]
pub(super) fn to_raw(index: u32, version: Version) -> u64 {
    (u64::from(version.bits()) << 32) + u64::from(index)
}

/// The slot index and version of a [`to_raw`] word from outside. A word whose version is
/// not one a pool gives its keys (K1) becomes [`NO_SLOT`] at [`Version::FIRST`], which
/// names no value; every other word is the key it spells, and round-trips.
#[inline]
#[must_use]
pub(super) fn from_raw(raw: u64) -> (u32, Version) {
    #[expect(clippy::cast_possible_truncation, reason = "the halves of the u64")]
    let (index, bits) = (raw as u32, (raw >> 32) as u32);
    match Version::from_bits(bits) {
        Some(version) => (index, version),
        None => (NO_SLOT, Version::FIRST),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_words_round_trip_or_name_no_slot() {
        for index in [0, 1, 77, u32::MAX - 2, NO_SLOT] {
            for generation in [0, 1, GEN_MASK] {
                let bits = generation << GEN_SHIFT;
                let good = Version::of_meta(bits);
                let raw = to_raw(index, good);
                assert_eq!(raw >> 32, u64::from(bits | OCCUPIED));
                assert_eq!(raw & u64::from(u32::MAX), u64::from(index));
                assert_eq!(from_raw(raw), (index, good));
                for bad in [bits, bits | OWNED, bits | OWNED | OCCUPIED] {
                    let raw = (u64::from(bad) << 32) | u64::from(index);
                    assert_eq!(from_raw(raw), (NO_SLOT, Version::FIRST), "{raw:#x}");
                }
            }
        }
    }

    #[test]
    fn only_the_occupied_unowned_pattern_parses() {
        for generation in [0, 1, 7, GEN_MASK - 1, GEN_MASK] {
            let base = generation << GEN_SHIFT;
            assert_eq!(Version::from_bits(base), None, "vacant");
            assert_eq!(Version::from_bits(base | OWNED), None, "vacant and owned");
            assert_eq!(Version::from_bits(base | OWNED | OCCUPIED), None, "owned");
            let v = Version::from_bits(base | OCCUPIED).expect("occupied, unowned");
            assert_eq!((v.bits(), v.generation()), (base | OCCUPIED, generation));
        }
        assert_eq!(Version::from_bits(0), None);
        assert_eq!(Version::from_bits(u32::MAX), None);
    }

    #[test]
    fn a_meta_word_gives_its_values_version() {
        for meta in [0, 1, 2, 3, 4, 5, 6, 7, u32::MAX, u32::MAX - 1, 0x1234_5678] {
            let v = Version::of_meta(meta);
            assert_eq!(v.bits(), (meta | OCCUPIED) & !OWNED);
            assert_eq!(Version::from_bits(v.bits()), Some(v), "of_meta keeps K1");
        }
        assert_eq!(Version::FIRST.bits(), 1);
    }

    #[test]
    fn no_vacant_meta_word_is_named_by_any_version() {
        for generation in [0, 1, 9, GEN_MASK] {
            let base = generation << GEN_SHIFT;
            let v = Version::of_meta(base);
            for vacant in [base, base | OWNED] {
                assert!(!v.names(vacant) && !v.names_unowned(vacant), "{vacant:#x}");
            }
            assert!(v.names(base | OCCUPIED) && v.names_unowned(base | OCCUPIED));
            assert_eq!((v.meta(false), v.meta(true)), (base | OCCUPIED, base | OCCUPIED | OWNED));
            assert!(v.names(base | OCCUPIED | OWNED), "an owned value is named");
            assert!(!v.names_unowned(base | OCCUPIED | OWNED), "but not as unowned");
            let next = Version::of_meta(base.wrapping_add(1 << GEN_SHIFT));
            assert!(!v.names(next.bits()) && !next.names(v.bits()), "other generations");
        }
    }

    #[test]
    fn age_order_holds_within_half_the_generation_space() {
        let v = |g: u32| Version::of_meta((g & GEN_MASK) << GEN_SHIFT);
        assert!(v(1).is_older_than(v(2)));
        assert!(!v(2).is_older_than(v(1)));
        assert!(!v(5).is_older_than(v(5)), "a version is not older than itself");
        assert!(v(GEN_MASK).is_older_than(v(0)), "across the wrap");
        assert!(v(0).is_older_than(v((1 << 29) - 1)), "just inside the window");
        assert!(!v(0).is_older_than(v(1 << 29)), "at the window's edge");
    }
}
