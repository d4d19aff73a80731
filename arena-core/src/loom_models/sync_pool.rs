//! `SyncPool`'s shards under loom.
//!
//! Two threads race on one keyed value made before they start: one removes it by key,
//! the other takes an owning handle to it; exactly one of them must get it. Each also
//! inserts and removes values of its own while the other may hold the shard's lock
//! inside a `with_value_mut` closure (the lock-order check must not take the other
//! thread's closure for its own), and a handle made on one thread is removed on the
//! other. At the end every value was dropped exactly once.
//!
//! Seeded race (checked when this model was written, then removed): `take_handle`
//! looked the key up under the shard's lock and took the handle under a second lock. The
//! model failed at once, on the interleaving where the other thread's `remove_key` took
//! the value between the two (the second lock found it gone).
//!
//! The model needs each of its threads to have thread-local storage of its own (loom
//! runs them all on one OS thread): the lock-order check's list of held shards is a
//! loom thread-local under `cfg(loom)`, else one thread's closure would look like the
//! other's and the check would panic on plain contention.

use std::sync::atomic::{AtomicUsize, Ordering};

use loom::sync::Arc;
use loom::thread;

use crate::brand::{Brand, Id};
use crate::pool::{SyncHandle, SyncPool};

/// A value whose drops are counted.
struct Counted(u32, std::sync::Arc<AtomicUsize>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.1.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn a_keyed_value_goes_to_exactly_one_of_two_racing_threads() {
    let mut model = loom::model::Builder::new();
    model.preemption_bound = Some(3);
    model.check(|| {
        // A plain std atomic: a counter read after the threads are joined, not modelled.
        let drops = std::sync::Arc::new(AtomicUsize::new(0));
        let value = |n: u32| Counted(n, std::sync::Arc::clone(&drops));
        // SAFETY: a loom thread must be `'static`, so the brand is too: it is minted for
        // the one pool of this execution, and that pool's handles and keys stay inside
        // the execution (no other pool of this brand exists to accept them).
        let id = unsafe { Id::<'static>::fresh() };
        // SAFETY: as above: the one pool of this brand.
        let brand = unsafe { Brand::from_id(id) };
        let pool = Arc::new(SyncPool::new_in(brand, 2));
        let contested = pool.insert_keyed(value(0));
        let remove_thread = {
            let (pool, mine) = (Arc::clone(&pool), value(1));
            thread::spawn(move || {
                let h = pool.insert(mine);
                let got = pool.remove_key(contested).map(|v| v.0);
                pool.with_value_mut(&h, |v| v.0 += 10);
                (got, h)
            })
        };
        let take_thread = {
            let (pool, mine) = (Arc::clone(&pool), value(2));
            thread::spawn(move || {
                let h = pool.insert(mine);
                let taken = pool.take_handle(contested);
                assert_eq!(pool.with_value(&h, |v| v.0), 2);
                assert_eq!(pool.remove(h).0, 2);
                taken.map(|t| pool.remove(t).0)
            })
        };
        let (removed, handle): (Option<u32>, SyncHandle<'static>) = remove_thread.join().unwrap();
        let taken = take_thread.join().unwrap();
        assert!(removed.is_some() != taken.is_some(), "one thread, and only one, got it");
        assert_eq!(removed.or(taken), Some(0));
        assert!(!pool.contains_key(contested));
        assert_eq!(pool.remove(handle).0, 11, "a handle made on one thread, removed on another");
        assert_eq!(pool.len(), 0);
        drop(pool);
        assert_eq!(drops.load(Ordering::Relaxed), 3, "every value dropped exactly once");
    });
}
