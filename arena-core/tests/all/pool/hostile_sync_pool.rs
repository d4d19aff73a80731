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

/// Whether `f` panics (its message is not checked here; the guard tests below check it).
fn panics(f: impl FnOnce()) -> bool {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).is_err()
}

#[test]
fn a_guard_borrows_under_the_lock_and_a_call_into_its_shard_panics_instead_of_hanging() {
    Brand::with(|brand| {
        let pool = SyncPool::new_in(brand, 2);
        let a = pool.insert(String::from("a"));
        let b = pool.insert(String::from("b")); // the same (home) shard as `a`
        let k = pool.insert_keyed(String::from("k"));
        {
            let mut guard = pool.get_mut(&a);
            guard.push('!');
            assert!(panics(|| drop(pool.get(&b))), "same shard: would wait for itself");
            assert!(
                panics(|| {
                    let _ = pool.len();
                }),
                "len visits every shard"
            );
            assert_eq!(&*guard, "a!");
        }
        // Dropped: the shard is free and no mark is left behind.
        assert_eq!(&*pool.get(&b), "b");
        assert_eq!(pool.get_by_key(k).as_deref().map(String::as_str), Some("k"));
        let stale = pool.insert_keyed(String::from("gone"));
        pool.remove_key(stale);
        assert!(pool.get_by_key(stale).is_none());
        assert_eq!(pool.len(), 3, "a stale key's lookup keeps no lock");
        assert_eq!(pool.remove(a), "a!");
        assert_eq!(pool.remove(b), "b");
    });
}

#[test]
fn guards_of_two_shards_drop_in_any_order_and_leave_the_right_marks() {
    Brand::with(|brand| {
        let pool = SyncPool::new_in(brand, 2);
        let here = pool.insert(1_u32);
        // A value in the other shard: inserted by a thread whose home is the other one.
        let there = std::thread::scope(|s| {
            loop {
                let h = s.spawn(|| pool.insert(2_u32)).join().unwrap();
                let first = pool.get(&here);
                let other_shard = !panics(|| drop(pool.get(&h)));
                drop(first);
                if other_shard {
                    break h;
                }
                pool.remove(h);
            }
        });
        let near = pool.get(&here);
        let far = pool.get_mut(&there);
        drop(near); // the older guard first
        assert_eq!(*pool.get(&here), 1, "its shard is free again");
        assert!(panics(|| drop(pool.get(&there))), "the other is still held");
        drop(far);
        assert_eq!(*pool.get(&there), 2);
        pool.remove(here);
        pool.remove(there);
    });
}

#[test]
fn another_thread_waits_for_a_guard_and_sees_what_it_wrote() {
    SyncPool::with(|pool| {
        let h = pool.insert(0_u64);
        let started = AtomicUsize::new(0);
        std::thread::scope(|s| {
            let mut guard = pool.get_mut(&h);
            let waiter = s.spawn(|| {
                started.store(1, Ordering::Release);
                pool.with_value(&h, |v| *v)
            });
            while started.load(Ordering::Acquire) == 0 {
                std::hint::spin_loop();
            }
            *guard = 42;
            drop(guard);
            assert_eq!(waiter.join().unwrap(), 42);
        });
        assert_eq!(pool.remove(h), 42);
    });
}

#[test]
fn a_panic_while_a_guard_lives_unlocks_and_unmarks_its_shard() {
    SyncPool::with(|pool| {
        let h = pool.insert(vec![1]);
        assert!(panics(|| {
            let mut guard = pool.get_mut(&h);
            guard.push(2);
            panic!("under a guard");
        }));
        assert_eq!(*pool.get(&h), [1, 2], "the write stays, the lock is free");
        assert_eq!(pool.remove(h), [1, 2]);
    });
}
