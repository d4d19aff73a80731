//! The report's memory meter: [`CountingAlloc`], a global allocator that forwards to
//! [`System`] and, while switched on, counts the bytes that come and go, so each row can
//! say how much memory the contender took at its peak and how much it still holds at
//! the end.
//!
//! Only the report binary registers it (`#[global_allocator]` in `src/main.rs`); the
//! library and the criterion benches keep the plain system allocator, and the report
//! passes the registered counter to [`serve`](super::child::serve) by reference.
//!
//! Invariant C1: every method of the [`GlobalAlloc`] impl forwards its arguments
//! unchanged to `System` and returns what `System` returned, so the caller's contract
//! for `CountingAlloc` is exactly its contract for `System`.
//!
//! Cost: switched off, every allocation, deallocation and reallocation pays one relaxed
//! load of a flag. Switched on, one atomic read-modify-write on a shared counter and a
//! load of the peak (an atomic max when the peak rises): negligible on one thread, but two
//! threads allocating at once fight over the counter's cache line (W1-2t's `Box, 2
//! threads` read 22-50 ns per round counted against 6.5 uncounted). So the report
//! counts only an untimed run ([`start`](CountingAlloc::start) to
//! [`stop`](CountingAlloc::stop)) and times the others with the counter off.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

use crate::workloads::mi_alloc::ByteMeter;

/// What a counted stretch of the program took: the most bytes held at once above the
/// start, and the bytes still held at the end (negative if it freed more than it took).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counted {
    /// The most bytes held at once, above what was held at the start.
    pub peak: u64,
    /// Bytes held at the end, against the start.
    pub held: i64,
}

/// A global allocator that forwards to [`System`] and, between [`start`](Self::start) and
/// [`stop`](Self::stop), counts the bytes taken and given back.
///
/// # Examples
///
/// ```
/// use arena_kit_report::report::memory::CountingAlloc;
///
/// // In a binary: #[global_allocator] static GLOBAL: CountingAlloc = CountingAlloc::new();
/// static COUNTER: CountingAlloc = CountingAlloc::new();
/// COUNTER.start();
/// // Not the global allocator here, so it sees nothing.
/// let v = vec![0_u8; 100];
/// assert_eq!(COUNTER.stop().peak, 0);
/// # drop(v);
/// ```
#[derive(Debug)]
pub struct CountingAlloc {
    on: AtomicBool,
    current: AtomicIsize,
    peak: AtomicIsize,
}

impl CountingAlloc {
    /// A counter, switched off.
    #[must_use]
    pub const fn new() -> Self {
        CountingAlloc {
            on: AtomicBool::new(false),
            current: AtomicIsize::new(0),
            peak: AtomicIsize::new(0),
        }
    }

    /// Starts counting from zero.
    pub fn start(&self) {
        self.current.store(0, Ordering::Relaxed);
        self.peak.store(0, Ordering::Relaxed);
        self.on.store(true, Ordering::SeqCst);
    }

    /// Stops counting; what was counted since [`start`](Self::start).
    pub fn stop(&self) -> Counted {
        self.on.store(false, Ordering::SeqCst);
        let peak = self.peak.load(Ordering::Relaxed).max(0);
        Counted {
            peak: peak.unsigned_abs() as u64,
            held: self.current.load(Ordering::Relaxed) as i64,
        }
    }

    fn add(&self, bytes: usize) {
        if !self.on.load(Ordering::Relaxed) {
            return;
        }
        let bytes = isize::try_from(bytes).unwrap_or(isize::MAX);
        let now = self.current.fetch_add(bytes, Ordering::Relaxed).saturating_add(bytes);
        if now > self.peak.load(Ordering::Relaxed) {
            self.peak.fetch_max(now, Ordering::Relaxed);
        }
    }

    fn sub(&self, bytes: usize) {
        if self.on.load(Ordering::Relaxed) {
            let bytes = isize::try_from(bytes).unwrap_or(isize::MAX);
            self.current.fetch_sub(bytes, Ordering::Relaxed);
        }
    }
}

/// Blocks of another allocator (mimalloc's, through
/// [`MiAlloc`](crate::workloads::mi_alloc::MiAlloc)) count as if they were this one's.
impl ByteMeter for CountingAlloc {
    fn add(&self, bytes: usize) {
        CountingAlloc::add(self, bytes);
    }
    fn sub(&self, bytes: usize) {
        CountingAlloc::sub(self, bytes);
    }
}

impl Default for CountingAlloc {
    fn default() -> Self {
        Self::new()
    }
}

// SAFETY: C1: each method hands its arguments to `System` unchanged and returns its
// result, so every block is allocated, resized and freed by `System` under the contract
// the caller keeps for `CountingAlloc`; the counters are bookkeeping beside it.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: C1: the caller's `layout` has a non-zero size, as `System` requires.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            self.add(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: C1: as `alloc`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            self.add(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: C1: the caller's `ptr` came from this allocator, that is from `System`,
        // with this `layout`.
        unsafe { System.dealloc(ptr, layout) };
        self.sub(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: C1: the caller's `ptr` came from `System` with `layout`, and `new_size`
        // meets `realloc`'s contract.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if new == ptr {
            // Resized in place: only the difference comes or goes.
            if new_size >= layout.size() {
                self.add(new_size - layout.size());
            } else {
                self.sub(layout.size() - new_size);
            }
        } else if !new.is_null() {
            // Moved: the new block arrives before the old one leaves, as in a copy.
            self.add(new_size);
            self.sub(layout.size());
        }
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_what_is_held_and_the_peak_while_on() {
        let counter = CountingAlloc::new();
        let small = Layout::from_size_align(100, 8).unwrap();
        // SAFETY: C1: a non-zero layout; freed below with the same layout.
        let before = unsafe { counter.alloc(small) };
        counter.start();
        // SAFETY: as above.
        let a = unsafe { counter.alloc(small) };
        // SAFETY: as above.
        let b = unsafe { counter.alloc_zeroed(small) };
        assert!(!before.is_null() && !a.is_null() && !b.is_null());
        // SAFETY: `a` is live, from `counter` with `small`; 300 is a valid size.
        let moved = unsafe { counter.realloc(a, small, 300) };
        assert!(!moved.is_null());
        // SAFETY: `b` is live, from `counter` with `small`.
        unsafe { counter.dealloc(b, small) };
        // In place, 200 bytes more at most 400 held; moved, the old block counts until
        // the new one is in: 500.
        let first = counter.stop();
        assert_eq!(first, Counted { peak: if moved == a { 400 } else { 500 }, held: 300 });
        let big = Layout::from_size_align(300, 8).unwrap();
        // SAFETY: `moved` is live, from `counter`, now of size 300.
        unsafe { counter.dealloc(moved, big) };
        counter.start();
        // SAFETY: `before` is live, from `counter` with `small`.
        unsafe { counter.dealloc(before, small) };
        assert_eq!(counter.stop(), Counted { peak: 0, held: -100 }, "freed what it did not take");
        // Off: nothing counts.
        // SAFETY: as above.
        let c = unsafe { counter.alloc(small) };
        assert!(!c.is_null());
        // SAFETY: `c` is live, from `counter` with `small`.
        unsafe { counter.dealloc(c, small) };
        counter.start();
        assert_eq!(counter.stop(), Counted { peak: 0, held: 0 });
    }
}
