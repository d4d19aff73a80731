//! [`SpinLock`]: the crate's lock (each of [`SyncPool`](crate::SyncPool)'s shards, the
//! shared block pool's list, the locked size-class pool's depot): one atomic
//! compare-and-swap to take it, a plain release store to give it back.
//!
//! # Why not `parking_lot`'s or std's `Mutex`
//!
//! A shard is locked once per operation (insert, remove, access), and almost always by
//! the thread whose home it is: the lock is nearly never contended, so its cost is the
//! cost of taking and giving back a free lock. `parking_lot`'s `Mutex` gives it back with
//! a second compare-and-swap (it must see whether a thread is parked, to wake it), and
//! std's with an atomic swap: each a locked read-modify-write of the cache line. This
//! lock's unlock is an ordinary store (x86 orders it for free), and an uncontended
//! lock-and-unlock pair costs less than half of `parking_lot`'s (BENCHMARKS.md, with
//! the W4-2t figures). A `SyncPool` operation on one thread takes two such pairs.
//!
//! The price: a waiting thread is never parked. It spins briefly (the holder is inside a
//! `Pool` call of a few nanoseconds), then yields its time slice until the lock is free.
//! That suits short critical sections that are rarely contended, which is what a shard's
//! are; it would not suit long ones (a `with_value` closure that sleeps holds up its
//! shard's other users, who keep yielding instead of sleeping).
//!
//! # Invariant
//!
//! - **(SL1) A guard is the only access.** `locked` is set by the compare-and-swap that
//!   makes a [`SpinGuard`] (acquire) and cleared only by that guard's drop (release); no
//!   other code reads or writes `value` through `&self`. So while a guard lives no other
//!   guard of the same lock exists, and everything one guard wrote happens before the
//!   next guard of that lock reads it.
//!
//! Under `cfg(loom)` the lock word is loom's atomic and the waiting loop yields to loom's
//! scheduler at every turn, so the loom model of `SyncPool`'s shards explores this lock's
//! interleavings too; Miri's data-race detector checks the accesses to `value`.

use core::cell::UnsafeCell;
use core::marker::PhantomData;
use core::ops::{Deref, DerefMut};

use crate::sync::{AtomicBool, Ordering, yield_now};

/// Turns of busy waiting before a waiter starts yielding its time slice.
const SPINS: u32 = 64;

/// A lock with a value inside (see the module docs for when it fits).
pub(crate) struct SpinLock<T> {
    locked: AtomicBool,
    value: UnsafeCell<T>,
}

// SAFETY: SL1: `&SpinLock` reaches `value` only through a guard, and at most one guard
// exists at a time, so sharing the lock between threads lends `&mut T` to one thread at a
// time: what moving `T` between threads does, hence `T: Send`. (`Send` for the lock itself
// follows from its fields.)
unsafe impl<T: Send> Sync for SpinLock<T> {}

impl<T> SpinLock<T> {
    /// An unlocked lock around `value`.
    pub(crate) fn new(value: T) -> Self {
        SpinLock { locked: AtomicBool::new(false), value: UnsafeCell::new(value) }
    }

    /// Takes the lock if it is free.
    #[inline]
    pub(crate) fn try_lock(&self) -> Option<SpinGuard<'_, T>> {
        // A guard is made only when the swap succeeds (never built and dropped on
        // failure: its drop would release a lock someone else holds).
        match self.locked.compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed) {
            Ok(_) => Some(SpinGuard { lock: self, _not_send: PhantomData }),
            Err(_) => None,
        }
    }

    /// Takes the lock, waiting (spinning, then yielding) while another thread holds it.
    #[inline]
    pub(crate) fn lock(&self) -> SpinGuard<'_, T> {
        match self.try_lock() {
            Some(guard) => guard,
            None => self.lock_contended(),
        }
    }

    #[cold]
    #[inline(never)]
    fn lock_contended(&self) -> SpinGuard<'_, T> {
        let mut spins = 0;
        loop {
            // Wait with plain loads (no write to the line) until the lock looks free.
            while self.locked.load(Ordering::Relaxed) {
                if spins < SPINS && !cfg!(loom) {
                    spins += 1;
                    core::hint::spin_loop();
                } else {
                    yield_now();
                }
            }
            if let Some(guard) = self.try_lock() {
                return guard;
            }
        }
    }

    /// The value through `&mut self`: no other reference exists, so no lock is needed.
    pub(crate) fn get_mut(&mut self) -> &mut T {
        self.value.get_mut()
    }

    /// The value, the lock consumed.
    pub(crate) fn into_inner(self) -> T {
        self.value.into_inner()
    }
}

/// Access to a [`SpinLock`]'s value; gives the lock back when dropped (also when a
/// panic unwinds through it: nothing is poisoned, as with `parking_lot`). Not `Send`:
/// it is given back on the thread that took it, like std's guards.
pub(crate) struct SpinGuard<'a, T> {
    lock: &'a SpinLock<T>,
    _not_send: PhantomData<*const ()>,
}

impl<T> Deref for SpinGuard<'_, T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        // SAFETY: SL1: this guard holds the lock, so no other access to `value` exists
        // while the returned borrow of the guard lives.
        unsafe { &*self.lock.value.get() }
    }
}

impl<T> DerefMut for SpinGuard<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: SL1, as in `deref`; `&mut self` makes this borrow the only one through
        // the guard.
        unsafe { &mut *self.lock.value.get() }
    }
}

impl<T> Drop for SpinGuard<'_, T> {
    #[inline]
    fn drop(&mut self) {
        // Release: this guard's writes happen before the next guard's acquire (SL1).
        self.lock.locked.store(false, Ordering::Release);
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::SpinLock;

    #[test]
    fn a_held_lock_refuses_a_second_guard_until_dropped() {
        let lock = SpinLock::new(1);
        let mut guard = lock.lock();
        *guard += 1;
        assert!(lock.try_lock().is_none());
        drop(guard);
        assert_eq!(*lock.try_lock().expect("free again"), 2);
        assert_eq!(lock.into_inner(), 2);
    }

    #[test]
    fn threads_taking_turns_lose_no_update() {
        let lock = SpinLock::new(0_u64);
        let rounds = if cfg!(miri) { 50 } else { 100_000 };
        std::thread::scope(|s| {
            for _ in 0..2 {
                s.spawn(|| {
                    for _ in 0..rounds {
                        *lock.lock() += 1;
                    }
                });
            }
        });
        assert_eq!(lock.into_inner(), 2 * rounds);
    }

    #[test]
    fn a_panic_while_holding_gives_the_lock_back() {
        let lock = SpinLock::new(Vec::<u8>::new());
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut guard = lock.lock();
            guard.push(1);
            panic!("inside the critical section");
        }));
        assert!(result.is_err());
        assert_eq!(*lock.lock(), [1]);
    }
}
