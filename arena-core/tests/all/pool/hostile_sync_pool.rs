//! Hostile programs against `SyncPool`: a closure panicking under a shard's lock (there is
//! no poisoning), a pool dropped with forgotten handles on four shards while one destructor
//! panics, and one shard shared by many threads. (A closure that calls back into its own
//! shard is covered in `sync_pools`.)

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use arena_kit::{Brand, SyncPool};

use crate::common::scaled;

/// Counts its drops across threads.
struct Tracked(usize, Arc<AtomicUsize>);

impl Drop for Tracked {
    fn drop(&mut self) {
        self.1.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn a_panic_inside_with_value_mut_leaves_the_pool_usable_and_the_value_as_mutated() {
    let drops = Arc::new(AtomicUsize::new(0));
    SyncPool::with(|pool| {
        let h = pool.insert(Tracked(1, Arc::clone(&drops)));
        let k = pool.insert(Tracked(2, Arc::clone(&drops)));
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.with_value_mut(&h, |v| {
                v.0 = 10;
                panic!("closure panics under the lock");
            });
        }));
        assert!(result.is_err());
        assert_eq!(pool.with_value(&h, |v| v.0), 10);
        assert_eq!(pool.remove(k).0, 2);
        assert_eq!(pool.len(), 1, "`h`'s value stays in the pool, which drops it");
    });
    assert_eq!(drops.load(Ordering::Relaxed), 2);
}

#[test]
fn dropping_a_pool_with_live_handles_drops_each_value_once_even_if_one_destructor_panics() {
    struct Boom(usize, Arc<AtomicUsize>);
    impl Drop for Boom {
        fn drop(&mut self) {
            self.1.fetch_add(1, Ordering::Relaxed);
            assert!(self.0 != 3, "Boom 3 panics on purpose");
        }
    }
    let drops = Arc::new(AtomicUsize::new(0));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        Brand::with(|brand| {
            let pool = SyncPool::new_in(brand, 4);
            std::thread::scope(|s| {
                for t in 0..4 {
                    let pool = &pool;
                    let drops = Arc::clone(&drops);
                    s.spawn(move || {
                        for i in 0..4 {
                            // The handle goes; its value stays in the pool.
                            let _ = pool.insert(Boom(t * 4 + i, Arc::clone(&drops)));
                        }
                    });
                }
            });
            assert_eq!(pool.len(), 16);
            drop(pool);
        });
    }));
    assert!(result.is_err());
    assert_eq!(drops.load(Ordering::Relaxed), 16);
}

#[test]
fn a_one_shard_pool_serves_many_threads() {
    Brand::with(|brand| {
        let pool = SyncPool::<u64>::new_in(brand, 1);
        std::thread::scope(|s| {
            for t in 0..4_u64 {
                let pool = &pool;
                s.spawn(move || {
                    let handles: Vec<_> =
                        (0..scaled(200) as u64).map(|i| pool.insert(t * 1000 + i)).collect();
                    for (i, h) in handles.into_iter().enumerate() {
                        assert_eq!(pool.remove(h), t * 1000 + i as u64);
                    }
                });
            }
        });
        assert!(pool.is_empty());
    });
}
