//! The locked typed and size-class pools under real threads: every value and chunk is
//! tagged and checked when it comes back (a slot or chunk handed out twice would show a
//! foreign tag), values removed on other threads, destructors counted.

use core::alloc::Layout;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

#[cfg(feature = "allocator-api2")]
use allocator_api2::vec::Vec as ApiVec;
use arena_kit::{AllocError, SyncPool, SyncSizeClassPool};

use crate::common::scaled;

/// Rounds per thread: Miri runs four threads a thousand times slower.
fn rounds(n: usize) -> usize {
    if cfg!(miri) { 50 } else { n }
}

const fn assert_send_sync<T: Send + Sync>() {}
const _: () = assert_send_sync::<SyncSizeClassPool>();
const _: () = assert_send_sync::<SyncPool<'static, String>>();
const _: () = assert_send_sync::<arena_kit::SyncHandle<'static>>();

/// A xorshift step.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn threads_churn_a_sync_pool_and_get_their_own_values_back() {
    SyncPool::with(|pool| {
        let live = 64;
        std::thread::scope(|s| {
            for t in 0..4_u64 {
                let pool = &pool;
                s.spawn(move || {
                    let mut table: Vec<Option<(arena_kit::SyncHandle<'_>, u64)>> =
                        (0..live).map(|_| None).collect();
                    let mut state = t + 1;
                    for op in 0..rounds(20_000) as u64 {
                        let slot = (next(&mut state) % live as u64) as usize;
                        if let Some((h, tag)) = table[slot].take() {
                            assert_eq!(pool.with_value(&h, |v: &[u64; 4]| v[0]), tag);
                            assert_eq!(pool.remove(h), [tag; 4], "a slot shared between threads");
                        }
                        let tag = t << 48 | op;
                        table[slot] = Some((pool.insert([tag; 4]), tag));
                    }
                    for (h, tag) in table.into_iter().flatten() {
                        assert_eq!(pool.remove(h), [tag; 4]);
                    }
                });
            }
        });
        assert!(pool.is_empty());
    });
}

#[test]
fn handles_cross_threads_and_destructors_run_once() {
    static DROPS: AtomicUsize = AtomicUsize::new(0);
    struct Counted(u64);
    impl Drop for Counted {
        fn drop(&mut self) {
            DROPS.fetch_add(1, Ordering::Relaxed);
        }
    }
    let n = scaled(1000);
    SyncPool::with(|pool| {
        let (tx, rx) = mpsc::channel();
        std::thread::scope(|s| {
            let pool = &pool;
            s.spawn(move || {
                for i in 0..n as u64 {
                    tx.send(pool.insert(Counted(i))).unwrap();
                }
            });
            s.spawn(move || {
                // Removes on another thread, in another shard than it was inserted in.
                let mut sum = 0;
                let mut kept = Vec::new();
                for (i, h) in rx.iter().enumerate() {
                    pool.with_value_mut(&h, |v| v.0 += 1);
                    if i % 2 == 0 {
                        sum += pool.remove(h).0;
                    } else {
                        kept.push(h); // its value stays in the pool, dropped with it
                    }
                }
                assert_eq!(sum, (0..n as u64).step_by(2).map(|i| i + 1).sum::<u64>());
            });
        });
        assert_eq!(DROPS.load(Ordering::Relaxed), n.div_ceil(2));
        assert_eq!(pool.len(), n / 2);
    });
    assert_eq!(DROPS.load(Ordering::Relaxed), n, "the pool dropped what it still held");
}

#[test]
fn threads_churn_a_sync_size_class_pool() {
    let pool = SyncSizeClassPool::new();
    pool.set_high_water(0); // classes give blocks back as soon as they empty
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        // A concurrent trimmer: the depot drains and empty classes free their blocks
        // while the workers allocate and free.
        s.spawn(|| {
            while !stop.load(Ordering::Relaxed) {
                pool.trim();
                std::thread::yield_now();
            }
        });
        let workers: Vec<_> = (0..4_u64)
            .map(|t| {
                let pool = &pool;
                s.spawn(move || {
                    // Under Miri, 16 rounds over 8 slots (rather than `rounds`' 50 over 32):
                    // still four threads each freeing about half of what it takes, mid-churn,
                    // under the concurrent trimmer.
                    let (slots, ops) = if cfg!(miri) { (8, 16) } else { (32, 10_000) };
                    let mut table: Vec<Option<(core::ptr::NonNull<u8>, Layout, u8)>> =
                        (0..slots).map(|_| None).collect();
                    let mut state = t + 7;
                    for op in 0..ops {
                        let r = next(&mut state);
                        let slot = (r % slots) as usize;
                        if let Some((p, layout, tag)) = table[slot].take() {
                            let bytes =
                                // SAFETY: `p` is a live chunk of `layout.size()` bytes we wrote.
                                unsafe { core::slice::from_raw_parts(p.as_ptr(), layout.size()) };
                            assert!(
                                bytes.iter().all(|&b| b == tag),
                                "a chunk shared between threads"
                            );
                            // SAFETY: from this pool with this layout, not used again.
                            unsafe { pool.deallocate(p, layout) };
                        }
                        let layout =
                            Layout::from_size_align((r >> 32) as usize % 1024 + 1, 8).unwrap();
                        let p = pool.allocate(layout).unwrap();
                        let tag = (t as u8) << 6 | (op % 64) as u8;
                        // SAFETY: a fresh chunk of at least `layout.size()` bytes.
                        unsafe { p.as_ptr().write_bytes(tag, layout.size()) };
                        table[slot] = Some((p, layout, tag));
                    }
                    for (p, layout, _) in table.into_iter().flatten() {
                        // SAFETY: from this pool with this layout, not used again.
                        unsafe { pool.deallocate(p, layout) };
                    }
                    pool.flush(); // this thread's cache back to the depot
                })
            })
            .collect();
        for w in workers {
            w.join().unwrap();
        }
        stop.store(true, Ordering::Relaxed);
    });
    // Every thread flushed its cache: a trim drains the depot and frees every block.
    pool.trim();
    assert_eq!(pool.stats().live_chunks, 0, "every chunk came back: none lost");
    let pool = pool.into_inner();
    assert_eq!(pool.stats().live_chunks, 0, "every chunk came back: none lost");
    assert_eq!(pool.stats().large_live, 0);
    pool.trim();
    assert_eq!(pool.stats().held_bytes, 0, "every block went back");
}

#[cfg(feature = "allocator-api2")]
#[test]
fn chunks_move_between_threads_and_collections_grow_under_the_lock() {
    let pool = SyncSizeClassPool::new();
    let (tx, rx) = mpsc::channel::<ApiVec<u32, &SyncSizeClassPool>>();
    std::thread::scope(|s| {
        let pool = &pool;
        s.spawn(move || {
            for i in 0..scaled(200) as u32 {
                let mut v = ApiVec::new_in(pool);
                v.extend(0..i);
                tx.send(v).unwrap();
            }
        });
        s.spawn(move || {
            for (i, mut v) in rx.iter().enumerate() {
                v.push(7); // grows (or not) here, freed here
                assert_eq!(v.len(), i + 1);
            }
        });
    });
    let pool = pool.into_inner();
    assert_eq!((pool.stats().live_chunks, pool.stats().large_live), (0, 0));
}

#[test]
fn a_thread_flushes_its_cache_and_the_fast_path_skips_the_lock() {
    let pool = SyncSizeClassPool::new();
    let layout = Layout::new::<[u8; 48]>();
    let first = pool.allocate(layout).unwrap();
    // The first allocation took a batch: the rest wait in this thread's cache.
    assert_eq!(pool.stats().live_chunks, arena_kit::size_class::CACHE_BATCH);
    let second = pool.allocate(layout).unwrap();
    assert_ne!(first, second);
    assert_eq!(
        pool.stats().live_chunks,
        arena_kit::size_class::CACHE_BATCH,
        "served from the cache"
    );
    for p in [first, second] {
        // SAFETY: both from this pool with this layout, not used again.
        unsafe { pool.deallocate(p, layout) };
    }

    // Filling the cache past two batches gives one batch back.
    let many: Vec<_> = (0..3 * arena_kit::size_class::CACHE_BATCH)
        .map(|_| pool.allocate(layout).unwrap())
        .collect();
    for p in many {
        // SAFETY: from this pool with this layout, not used again.
        unsafe { pool.deallocate(p, layout) };
    }
    // Batches wait in the depot (counted live) until a trim gives them to the classes.
    pool.flush();
    assert!(pool.stats().live_chunks > 0);
    assert!(pool.trim() > 0, "the empty class gave its block back");
    assert_eq!(pool.stats().live_chunks, 0);
}

#[test]
fn a_limit_on_the_locked_pool_is_an_error_not_a_crash() {
    let pool = SyncSizeClassPool::new();
    pool.set_limit(Some(0));
    let err = pool.allocate(Layout::new::<[u8; 24]>()).unwrap_err();
    assert!(matches!(err, AllocError::LimitReached { .. }), "{err}");
    // Above the classes: the system allocator, not limited.
    let big = Layout::from_size_align(4096, 8).unwrap();
    let p = pool.allocate(big).unwrap();
    // SAFETY: from this pool with this layout, not used again.
    unsafe { pool.deallocate(p, big) };
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "is not a chunk of class")]
fn a_wrong_pool_is_caught_in_debug_builds() {
    let a = SyncSizeClassPool::new();
    let b = SyncSizeClassPool::new();
    let layout = Layout::new::<[u8; 64]>();
    let p = a.allocate(layout).unwrap();
    let _q = b.allocate(layout).unwrap();
    // SAFETY: not upheld on purpose: `p` is `a`'s, which the debug check must catch.
    unsafe { b.deallocate(p, layout) };
}

#[cfg(feature = "allocator-api2")]
/// A pool that lives for the whole test binary, as one used from thread-local
/// destructors must (they run after the thread's closure returns).
fn static_size_class_pool() -> &'static SyncSizeClassPool {
    static POOL: std::sync::OnceLock<SyncSizeClassPool> = std::sync::OnceLock::new();
    POOL.get_or_init(SyncSizeClassPool::new)
}

#[cfg(feature = "allocator-api2")]
#[test]
fn thread_local_destructors_may_free_and_allocate_in_the_locked_size_class_pool() {
    use std::cell::RefCell;

    struct Held(RefCell<Vec<ApiVec<u64, &'static SyncSizeClassPool>>>);
    impl Drop for Held {
        fn drop(&mut self) {
            // Runs while the thread exits, possibly after the pool's per-thread state
            // is gone: a free and a fresh allocation must both take the locked path.
            let pool = static_size_class_pool();
            let mut late = ApiVec::new_in(pool);
            late.extend_from_slice(&[7_u64; 4]);
            assert_eq!(late.iter().sum::<u64>(), 28);
            self.0.borrow_mut().clear();
        }
    }
    thread_local! {
        static HELD: Held = const { Held(RefCell::new(Vec::new())) };
    }

    let pool = static_size_class_pool();
    std::thread::spawn(move || {
        // `HELD` first, then the pool's per-thread state: thread-local destructors run
        // newest first, so the pool's state is gone when `HELD` drops.
        HELD.with(|held| {
            let mut v = ApiVec::new_in(pool);
            v.extend_from_slice(&[1_u64, 2, 3]);
            held.0.borrow_mut().push(v);
        });
        // And a thread whose state the pool registers before `HELD`'s.
        let warm = ApiVec::<u8, _>::with_capacity_in(8, pool);
        drop(warm);
    })
    .join()
    .expect("the thread exits without panicking (or aborting)");
    std::thread::spawn(move || {
        let warm = ApiVec::<u8, _>::with_capacity_in(8, pool);
        drop(warm);
        HELD.with(|held| {
            let mut v = ApiVec::new_in(pool);
            v.push(5_u64);
            held.0.borrow_mut().push(v);
        });
    })
    .join()
    .expect("the thread exits without panicking (or aborting)");
}

#[test]
#[should_panic(expected = "called back into the same shard")]
fn a_with_value_closure_that_inserts_into_its_own_shard_panics_instead_of_hanging() {
    arena_kit::Brand::with(|brand| {
        let pool = SyncPool::new_in(brand, 1); // one shard: every value in it
        let h = pool.insert(1_u32);
        let _ = pool.with_value(&h, |v| pool.insert(*v + 1));
    });
}

#[test]
#[should_panic(expected = "called back into the same shard")]
fn a_with_value_mut_closure_that_asks_the_len_panics_instead_of_hanging() {
    SyncPool::with(|pool| {
        let h = pool.insert(1_u32);
        pool.with_value_mut(&h, |_| pool.len());
    });
}

#[test]
fn after_a_reentrant_call_panicked_the_pool_works_on() {
    arena_kit::Brand::with(|brand| {
        let pool = SyncPool::new_in(brand, 1);
        let h = pool.insert(1_u32);
        let reentered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.with_value(&h, |_| pool.len())
        }));
        assert!(reentered.is_err());
        // The lock was released and the shard unmarked on the way out.
        assert_eq!(pool.len(), 1);
        let other = pool.insert(2);
        // A closure may use another pool, and the same pool after it returns.
        let sum = SyncPool::with(|second| {
            let k = second.insert(10_u32);
            pool.with_value(&h, |v| second.with_value(&k, |w| v + w))
        });
        assert_eq!(sum, 11);
        assert_eq!(pool.remove(other) + pool.remove(h), 3);
    });
}

#[test]
fn sync_keys_cross_threads_go_stale_on_removal_and_never_reach_a_new_value() {
    struct Tagged<'a>(usize, &'a AtomicUsize);
    impl Drop for Tagged<'_> {
        fn drop(&mut self) {
            self.1.fetch_add(1, Ordering::Relaxed);
        }
    }
    let dropped = AtomicUsize::new(0);
    let n = rounds(400);
    SyncPool::with(|pool| {
        let pool = &pool;
        let dropped = &dropped;
        let keys: std::vec::Vec<_> =
            (0..n).map(|i| pool.insert_keyed(Tagged(i, dropped))).collect();
        // Two threads remove alternate keys; each sees its own tag come back.
        std::thread::scope(|s| {
            for parity in 0..2 {
                let keys = &keys;
                s.spawn(move || {
                    for (i, &k) in keys.iter().enumerate().filter(|(i, _)| i % 2 == parity) {
                        let v = pool.remove_key(k).expect("live key");
                        assert_eq!(v.0, i);
                    }
                });
            }
        });
        assert_eq!(dropped.load(Ordering::Relaxed), n);
        assert!(pool.is_empty());
        // Every old key is stale, also once its slot holds a new value.
        let fresh: std::vec::Vec<_> =
            (0..n).map(|i| pool.insert_keyed(Tagged(n + i, dropped))).collect();
        for &k in &keys {
            assert!(!pool.contains_key(k));
            assert_eq!(pool.with_key(k, |v| v.0), None);
            assert!(pool.remove_key(k).is_none());
            assert!(pool.take_handle(k).is_none());
        }
        for (i, &k) in fresh.iter().enumerate() {
            assert_eq!(pool.with_key(k, |v| v.0), Some(n + i));
        }
        // A key turned back into the owning handle, then removed through it.
        let h = pool.take_handle(fresh[0]).expect("live key");
        assert_eq!(pool.key(&h), fresh[0]);
        assert_eq!(pool.remove(h).0, n);
        assert!(pool.with_key_mut(fresh[0], |v| v.0 = 0).is_none());
        // retain sees every key once and drops what it rejects.
        let mut seen = 0;
        pool.retain(|k, v| {
            seen += 1;
            let _ = k;
            v.0 % 2 == 0
        });
        assert_eq!(seen, n - 1);
        let kept = pool.len();
        assert_eq!(kept, (n + 1..2 * n).filter(|i| i % 2 == 0).count());
    });
    assert_eq!(dropped.load(Ordering::Relaxed), 2 * n);
}

#[test]
fn drain_and_iter_mut_visit_every_value_exactly_once() {
    SyncPool::with(|mut pool| {
        for i in 0..64u32 {
            let _ = pool.insert_keyed(i);
        }
        let keys: std::vec::Vec<_> = pool
            .iter_mut()
            .map(|(k, v)| {
                *v += 1000;
                k
            })
            .collect();
        assert_eq!(keys.len(), 64);
        for k in keys {
            assert!(pool.with_key(k, |v| *v >= 1000).unwrap());
        }
        let mut all: std::vec::Vec<u32> = pool.drain().collect();
        all.sort_unstable();
        assert_eq!(all, (1000..1064).collect::<std::vec::Vec<_>>());
    });
}

#[test]
#[should_panic(expected = "called back into the same shard")]
fn a_retain_closure_that_touches_its_own_shard_panics_instead_of_hanging() {
    SyncPool::with(|pool| {
        let k = pool.insert_keyed(1u8);
        pool.retain(|_, _| pool.contains_key(k));
    });
}
