//! The shard lock (`sync/spin_lock.rs`) under loom.
//!
//! Two threads each add one to a counter inside the lock, yielding to the other between
//! reading the counter and writing it back: if both could be inside at once, one update
//! would be lost. loom runs every interleaving of the two (the waiting loop yields at
//! every turn under `cfg(loom)`).
//!
//! Seeded race (checked when this model was written, then removed): a first `try_lock`
//! built its guard before knowing whether the compare-and-swap had succeeded
//! (`is_ok().then_some(guard)`), so a failed attempt dropped a guard and released the
//! lock another thread held. The model failed at once (the counter read 1); so did the
//! two-thread unit test in `sync/spin_lock.rs`, while `SyncPool`'s own model, whose values
//! sit in plain memory loom does not interleave, passed.

use loom::sync::Arc;
use loom::thread;

use crate::sync::spin_lock::SpinLock;

/// Adds one to the counter, with a point where the other thread may run in between.
fn add_one(lock: &SpinLock<u32>) {
    let mut guard = lock.lock();
    let seen = *guard;
    thread::yield_now();
    *guard = seen + 1;
}

#[test]
fn two_threads_never_hold_the_lock_at_once() {
    loom::model(|| {
        let lock = Arc::new(SpinLock::new(0));
        let other = {
            let lock = Arc::clone(&lock);
            thread::spawn(move || add_one(&lock))
        };
        add_one(&lock);
        other.join().expect("the other thread does not panic");
        assert_eq!(*lock.lock(), 2, "an update was lost: both threads held the lock");
    });
}
