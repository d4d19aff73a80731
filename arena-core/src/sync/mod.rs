//! The synchronisation primitives of the thread-safe flavours: `parking_lot`'s `Mutex`
//! and std's atomics, or loom's under `cfg(loom)` so that the loom models explore every
//! interleaving of the same code.
//!
//! Why `parking_lot`: it spins adaptively before it parks a waiting thread. With std's
//! `Mutex` a thread that found the size-class pool's lock taken (held while a block is
//! carved) went to sleep on a futex, and waking it cost more than the whole critical
//! section. `parking_lot` removed that cost; it did not make the locked size-class
//! pool scale: two threads meeting on its depot still take about as long as one
//! thread alone, and sometimes longer (BENCHMARKS.md, W3-2t), which per-thread pools
//! avoid.

pub(crate) mod per_thread;
pub(crate) mod spin_lock;

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
#[cfg(loom)]
pub(crate) use loom::thread::yield_now;

#[cfg(loom)]
pub(crate) use loom::sync::{Mutex, MutexGuard};
#[cfg(not(any(loom, miri)))]
pub(crate) use parking_lot::{Mutex, MutexGuard};
// Miri checks this crate's code under strict provenance, which `parking_lot`'s queue of
// parked threads (pointers kept in integers) does not pass: std's `Mutex` stands in.
#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
#[cfg(all(miri, not(loom)))]
pub(crate) use std::sync::{Mutex, MutexGuard};
#[cfg(not(loom))]
pub(crate) use std::thread::yield_now;

/// Locks `mutex`, ignoring poisoning: a critical section of this crate leaves its data
/// consistent wherever it can panic.
#[cfg(any(loom, miri))]
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Locks `mutex` (`parking_lot`'s: no poisoning).
#[cfg(not(any(loom, miri)))]
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock()
}

/// The data of a `Mutex` through `&mut` (no lock needed), ignoring poisoning.
#[cfg(any(loom, miri))]
pub(crate) fn lock_get_mut<T>(mutex: &mut Mutex<T>) -> &mut T {
    mutex.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The data of a `Mutex` through `&mut` (no lock needed).
#[cfg(not(any(loom, miri)))]
pub(crate) fn lock_get_mut<T>(mutex: &mut Mutex<T>) -> &mut T {
    mutex.get_mut()
}

/// `thread_local!` with `const` initialisers: std's, or under `cfg(loom)` loom's, which
/// gives each thread of a model storage of its own (they all run on one OS thread) and
/// takes the initialiser as a plain expression.
macro_rules! thread_local_const {
    ($($(#[$attr:meta])* static $name:ident: $t:ty = const { $init:expr };)*) => {
        #[cfg(not(loom))]
        std::thread_local! { $($(#[$attr])* static $name: $t = const { $init };)* }
        #[cfg(loom)]
        loom::thread_local! { $($(#[$attr])* static $name: $t = $init;)* }
    };
}
pub(crate) use thread_local_const;
