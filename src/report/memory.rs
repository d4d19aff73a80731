//! The report's memory meter: [`CountingAlloc`], a global allocator that forwards to
//! [`System`] and counts the bytes it holds, so each row can say how much memory the
//! contender took at its peak and how much it still holds at the end.
//!
//! Only the report binary registers it (`#[global_allocator]` in `src/main.rs`); the
//! library and the criterion benches keep the plain system allocator, and the report
//! passes the registered counter to [`measure`](super::measure) by reference.
//!
//! Invariant C1: every method of the [`GlobalAlloc`] impl forwards its arguments
//! unchanged to `System` and returns what `System` returned, so the caller's contract
//! for `CountingAlloc` is exactly its contract for `System`.
//!
//! The counting costs every allocation, deallocation and reallocation one atomic
//! read-modify-write on a shared counter and a load of the peak (a second one when the
//! peak rises), the same for every contender.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::workloads::mi_alloc::ByteMeter;

/// A global allocator that forwards to [`System`] and counts the bytes it holds now and
/// the most it has held since the peak was last reset.
///
/// # Examples
///
/// ```
/// use arena_kit::report::memory::CountingAlloc;
///
/// // In a binary: #[global_allocator] static GLOBAL: CountingAlloc = CountingAlloc::new();
/// static COUNTER: CountingAlloc = CountingAlloc::new();
/// let baseline = COUNTER.reset_peak();
/// assert_eq!(COUNTER.peak(), baseline);
/// ```
#[derive(Debug)]
pub struct CountingAlloc {
    current: AtomicUsize,
    peak: AtomicUsize,
}

impl CountingAlloc {
    /// A counter at zero.
    #[must_use]
    pub const fn new() -> Self {
        CountingAlloc { current: AtomicUsize::new(0), peak: AtomicUsize::new(0) }
    }

    /// Bytes held now.
    #[must_use]
    pub fn current(&self) -> usize {
        self.current.load(Ordering::Relaxed)
    }

    /// The most bytes held at once since the last [`reset_peak`](Self::reset_peak).
    #[must_use]
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    /// Starts a new peak from what is held now; returns that (the baseline).
    pub fn reset_peak(&self) -> usize {
        let now = self.current();
        self.peak.store(now, Ordering::Relaxed);
        now
    }

    fn add(&self, bytes: usize) {
        let now = self.current.fetch_add(bytes, Ordering::Relaxed) + bytes;
        if now > self.peak.load(Ordering::Relaxed) {
            self.peak.fetch_max(now, Ordering::Relaxed);
        }
    }

    fn sub(&self, bytes: usize) {
        self.current.fetch_sub(bytes, Ordering::Relaxed);
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
    fn counts_what_is_held_and_the_peak() {
        let counter = CountingAlloc::new();
        let small = Layout::from_size_align(100, 8).unwrap();
        // SAFETY: C1: a non-zero layout; the block is freed below with the same layout.
        let a = unsafe { counter.alloc(small) };
        // SAFETY: as above.
        let b = unsafe { counter.alloc_zeroed(small) };
        assert!(!a.is_null() && !b.is_null());
        assert_eq!((counter.current(), counter.peak()), (200, 200));
        // SAFETY: `a` is live, from `counter` with `small`; 300 is a valid size.
        let moved = unsafe { counter.realloc(a, small, 300) };
        assert!(!moved.is_null());
        assert_eq!(counter.current(), 400);
        // In place, only the 200 bytes more; moved, the old block counts until the new
        // one is in.
        assert_eq!(counter.peak(), if moved == a { 400 } else { 500 });
        let a = moved;
        // SAFETY: `b` is live, from `counter` with `small`.
        unsafe { counter.dealloc(b, small) };
        assert_eq!(counter.reset_peak(), 300);
        assert_eq!(counter.peak(), 300);
        let big = Layout::from_size_align(300, 8).unwrap();
        // SAFETY: `a` is live, from `counter`, now of size 300.
        unsafe { counter.dealloc(a, big) };
        assert_eq!((counter.current(), counter.peak()), (0, 300));
    }
}
