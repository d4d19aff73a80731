//! The global allocator of this test binary: the system allocator, failing on demand.
//!
//! Per thread (the cases run on one thread; other threads allocate normally) it can fail
//! the n-th allocation from now and no other (a *one-shot* failure: what comes after
//! succeeds, so the code must recover), or every allocation above a size, and it counts
//! the bytes the thread holds (allocated less freed) so a case can tell nothing leaked.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator with failures injected per thread.
pub(crate) struct Injector;

#[global_allocator]
static GLOBAL: Injector = Injector;

thread_local! {
    /// Whether failures are injected on this thread now.
    static ARMED: Cell<bool> = const { Cell::new(false) };
    /// Allocations to let through before the one that fails (one-shot), if any.
    static FAIL_IN: Cell<Option<u64>> = const { Cell::new(None) };
    /// Requests above this many bytes fail.
    static FAIL_ABOVE: Cell<usize> = const { Cell::new(usize::MAX) };
    /// Failures injected since the last `arm`.
    static INJECTED: Cell<u64> = const { Cell::new(0) };
    /// Bytes allocated on this thread less bytes freed on it.
    static HELD: Cell<isize> = const { Cell::new(0) };
}

/// Whether the request of `size` bytes fails (and counts it if so).
fn fails(size: usize) -> bool {
    let armed = ARMED.try_with(Cell::get).unwrap_or(false);
    if !armed {
        return false;
    }
    let mut fail = FAIL_ABOVE.try_with(Cell::get).is_ok_and(|above| size > above);
    let _ = FAIL_IN.try_with(|n| match n.get() {
        Some(0) => {
            fail = true;
            n.set(None);
        }
        Some(k) => n.set(Some(k - 1)),
        None => {}
    });
    if fail {
        let _ = INJECTED.try_with(|i| i.set(i.get() + 1));
    }
    fail
}

fn held(delta: isize) {
    let _ = HELD.try_with(|h| h.set(h.get() + delta));
}

#[expect(clippy::cast_possible_wrap, reason = "allocation sizes are below isize::MAX")]
fn signed(size: usize) -> isize {
    size as isize
}

// SAFETY: every call forwards to `System` with the caller's arguments, or returns null
// (a failure, which `GlobalAlloc` allows) without touching memory; the counters are
// thread-locals without destructors, read with `try_with`, and never allocate.
unsafe impl GlobalAlloc for Injector {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if fails(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded from the caller.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            held(signed(layout.size()));
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if fails(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded from the caller.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            held(signed(layout.size()));
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        held(-signed(layout.size()));
        // SAFETY: forwarded from the caller.
        unsafe { System.dealloc(ptr, layout) };
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if fails(new_size) {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded from the caller.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            held(signed(new_size) - signed(layout.size()));
        }
        p
    }
}

/// Fails the `n`-th allocation from now (0: the next one) on this thread, once.
pub(crate) fn fail_nth(n: u64) {
    FAIL_IN.with(|f| f.set(Some(n)));
    INJECTED.with(|i| i.set(0));
    ARMED.with(|a| a.set(true));
}

/// Fails every allocation above `bytes` on this thread.
pub(crate) fn fail_above(bytes: usize) {
    FAIL_ABOVE.with(|f| f.set(bytes));
    INJECTED.with(|i| i.set(0));
    ARMED.with(|a| a.set(true));
}

/// Stops injecting; returns how many failures were injected since arming.
pub(crate) fn disarm() -> u64 {
    ARMED.with(|a| a.set(false));
    FAIL_IN.with(|f| f.set(None));
    FAIL_ABOVE.with(|f| f.set(usize::MAX));
    INJECTED.with(Cell::get)
}

/// Runs `f` with injection paused (test bookkeeping that must not fail), and neither
/// counts its allocations towards the one-shot failure.
pub(crate) fn unarmed<R>(f: impl FnOnce() -> R) -> R {
    let was = ARMED.with(|a| a.replace(false));
    let r = f();
    ARMED.with(|a| a.set(was));
    r
}

/// Bytes this thread holds (allocated less freed).
pub(crate) fn held_bytes() -> isize {
    HELD.with(Cell::get)
}
