//! What the fuzz targets share: a value whose every drop is checked and counted, the
//! byte patterns allocations are filled with, and the log the drop order is read from.
//!
//! Each target drives one part of arena-kit's public API from the fuzzer's bytes and
//! compares it with a model (a `HashMap`, a `Vec`, a `String`, a list of live
//! allocations) after every step; `docs/fuzzing.md` lists what each one checks.

use std::cell::{Cell, RefCell};

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static DROPS: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

/// The check word of a live [`Tracked`] with id `id`.
fn check_word(id: u64) -> u64 {
    id ^ 0x5EED_F00D_CAFE_BABE
}

/// A byte of the pattern `seed` fills memory with: what a byte-for-byte check expects.
#[must_use]
pub fn pattern(seed: u64, i: usize) -> u8 {
    let x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(i as u64);
    (x ^ (x >> 29) ^ (x >> 47)) as u8
}

/// A value with an id, a heap payload derived from it and a check word: a drop checks
/// both (so dropping garbage or a value twice fails) and counts itself, and a value never
/// dropped keeps its payload allocated (LeakSanitizer reports it).
#[derive(Debug)]
pub struct Tracked {
    id: u64,
    check: u64,
    payload: Box<[u8]>,
}

impl Tracked {
    /// A value with id `id` and a payload of `len` bytes.
    #[must_use]
    pub fn new(id: u64, len: u8) -> Self {
        LIVE.with(|live| live.set(live.get() + 1));
        let payload = (0..usize::from(len)).map(|i| pattern(id, i)).collect();
        Tracked { id, check: check_word(id), payload }
    }

    /// Its id, after checking it is intact.
    #[must_use]
    pub fn id(&self) -> u64 {
        self.verify();
        self.id
    }

    /// Panics unless the value is live and intact.
    pub fn verify(&self) {
        assert_eq!(
            self.check,
            check_word(self.id),
            "a Tracked value read after its drop, or corrupt"
        );
        for (i, &b) in self.payload.iter().enumerate() {
            assert_eq!(b, pattern(self.id, i), "Tracked {} payload byte {i} corrupt", self.id);
        }
    }

    /// Values made and not yet dropped (on this thread).
    #[must_use]
    pub fn live() -> usize {
        LIVE.with(Cell::get)
    }

    /// The ids dropped since the last call, in drop order.
    #[must_use]
    pub fn take_drops() -> Vec<u64> {
        DROPS.with(|d| std::mem::take(&mut *d.borrow_mut()))
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.verify();
        self.check = 0;
        LIVE.with(|live| live.set(live.get() - 1));
        DROPS.with(|d| d.borrow_mut().push(self.id));
    }
}

/// Logs `id` as a drop: what an `on_exit` callback calls, so that callbacks and
/// destructors are read from one log, in the order they ran.
pub fn log_event(id: u64) {
    DROPS.with(|d| d.borrow_mut().push(id));
}

/// Clears what a previous input (one that failed an assertion) may have left behind:
/// each target calls it first.
pub fn start() {
    LIVE.with(|live| live.set(0));
    let _ = Tracked::take_drops();
}

/// Fills `len` bytes at `ptr` with the pattern of `seed`.
///
/// # Safety
///
/// `ptr` is valid for writes of `len` bytes.
pub unsafe fn fill(ptr: *mut u8, len: usize, seed: u64) {
    for i in 0..len {
        // SAFETY: `i < len` (caller: valid for `len` bytes).
        unsafe { ptr.add(i).write(pattern(seed, i)) };
    }
}

/// Panics unless the `len` bytes at `ptr` hold the pattern of `seed`.
///
/// # Safety
///
/// `ptr` is valid for reads of `len` bytes.
pub unsafe fn check(ptr: *const u8, len: usize, seed: u64, what: &str) {
    // SAFETY: valid for `len` bytes (caller).
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    for (i, &b) in bytes.iter().enumerate() {
        assert_eq!(b, pattern(seed, i), "{what} {seed}: byte {i} of {len} overwritten");
    }
}

/// Panics if two of the byte ranges `(start, len)` overlap (zero-length ones are skipped).
pub fn assert_disjoint(ranges: &mut Vec<(usize, usize)>, what: &str) {
    ranges.retain(|&(_, len)| len > 0);
    ranges.sort_unstable();
    for pair in ranges.windows(2) {
        let (a, alen) = pair[0];
        let (b, _) = pair[1];
        assert!(a + alen <= b, "{what}: [{a:#x}; {alen}] overlaps {b:#x}");
    }
}
