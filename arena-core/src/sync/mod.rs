//! The synchronisation primitives of the thread-safe flavours: this crate's
//! [`SpinLock`](spin_lock::SpinLock) and std's atomics, or loom's under `cfg(loom)` so
//! that the loom models explore every interleaving of the same code.
//!
//! Every lock of the crate guards a few words for a short time: the shared block pool's
//! list (a push or a pop), an [`ArenaPool`](crate::ArenaPool)'s idle scopes, the locked
//! size-class pool's depot (a batch of slots moved, or a block carved), a `SyncPool`
//! shard (one pool operation). For such critical sections the spin lock is the fastest
//! lock there is: one compare-and-swap to take it and a plain store to give it back,
//! where std's `Mutex` gives it back with an atomic swap and sends a waiter to sleep on a
//! futex, and waking it costs more than the critical section. `parking_lot`'s `Mutex`
//! spins before it parks too, and was the lock here until W3-2t measured it level with
//! the spin lock; it cost a dependent six more crates to build (the repository's
//! docs/build-time.md has both figures). A waiter on the spin lock never sleeps: after a few turns it
//! yields its time slice, which suits these sections and would not suit long ones.

pub(crate) mod per_thread;
pub(crate) mod spin_lock;

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
#[cfg(loom)]
pub(crate) use loom::thread::yield_now;

#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
#[cfg(not(loom))]
pub(crate) use std::thread::yield_now;

/// The crate's lock: the spin lock, or loom's `Mutex` under `cfg(loom)`, the lock the
/// models of the block pool, the arena pool and the size-class pool are written against
/// (the model of `SyncPool`'s shards checks the spin lock itself).
#[cfg(not(loom))]
pub(crate) type Mutex<T> = spin_lock::SpinLock<T>;
#[cfg(loom)]
pub(crate) use loom::sync::Mutex;

/// Locks `mutex`. Nothing is poisoned: a critical section of this crate leaves its data
/// consistent wherever it can panic.
#[cfg(not(loom))]
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> spin_lock::SpinGuard<'_, T> {
    mutex.lock()
}

/// Locks `mutex`, ignoring poisoning (see the other `lock`).
#[cfg(loom)]
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> loom::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The data of a lock through `&mut` (no lock needed).
#[cfg(not(loom))]
pub(crate) fn lock_get_mut<T>(mutex: &mut Mutex<T>) -> &mut T {
    mutex.get_mut()
}

/// The data of a lock through `&mut` (no lock needed), ignoring poisoning.
#[cfg(loom)]
pub(crate) fn lock_get_mut<T>(mutex: &mut Mutex<T>) -> &mut T {
    mutex.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner)
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
