//! `SharedBlockPool` and its thread caches under real threads: bounded stress runs with
//! every allocation tagged and checked (a block handed out twice would show as a
//! foreign tag), and the block counts balanced at the end (none lost). The exhaustive
//! interleavings are the loom model in `src/shared_block_pool.rs`.

use std::sync::atomic::{AtomicBool, Ordering};

use arena_kit::{SharedBlockPool, block::LOCAL_MAX_FREE};

/// One worker: scopes nested up to three deep, each filling a block-sized tag array
/// with its own tag and checking it before the scope ends.
fn work(shared: &SharedBlockPool, thread: u64, rounds: usize) {
    let local = shared.local();
    local.set_max_free(2); // a small cache: blocks travel to and from the shared list
    let words = (shared.block_size() - 64) / 8;
    for round in 0..rounds as u64 {
        let tag = thread << 32 | round;
        let outer = local.scope();
        let a = outer.alloc_slice_fill_copy(words, tag);
        let inner = outer.scope();
        let b = inner.alloc_slice_fill_copy(words, !tag);
        if round % 3 == 0 {
            let third = inner.scope();
            let c = third.alloc_slice_fill_copy(words, tag ^ 0x55);
            assert!(c.iter().all(|&w| w == tag ^ 0x55), "a block shared with another scope");
        }
        assert!(b.iter().all(|&w| w == !tag), "a block shared with another scope");
        drop(inner);
        assert!(a.iter().all(|&w| w == tag), "a block shared with another scope");
    }
}

#[test]
fn threads_never_share_a_block_and_every_block_comes_back() {
    let shared = SharedBlockPool::with_block_size(1024);
    let stop = AtomicBool::new(false);
    let rounds = if cfg!(miri) { 20 } else { 3000 };
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|t| {
                s.spawn({
                    let shared = &shared;
                    move || work(shared, t, rounds)
                })
            })
            .collect();
        // A concurrent trimmer: blocks leave the shared list while workers use it.
        s.spawn(|| {
            while !stop.load(Ordering::Relaxed) {
                shared.trim();
                std::thread::yield_now();
            }
        });
        for w in workers {
            w.join().unwrap();
        }
        stop.store(true, Ordering::Relaxed);
    });
    let stats = shared.stats();
    assert_eq!(stats.blocks, stats.cached_blocks, "every block is back in the shared list");
    assert_eq!(shared.trim(), stats.blocks);
    assert_eq!(shared.stats().blocks, 0);
}

#[test]
fn a_thread_cache_takes_batches_and_keeps_its_fast_path_lock_free() {
    let shared = SharedBlockPool::new();
    shared.reserve(20).unwrap();
    let local = shared.local();
    let scope = local.scope();
    scope.alloc(1_u8);
    // One refill took a batch: the cache lists the rest.
    assert_eq!(shared.stats().cached_blocks, 20 - arena_kit::block::REFILL_BATCH);
    assert_eq!(local.stats().cached_blocks, arena_kit::block::REFILL_BATCH - 1);
    drop(scope);
    for _ in 0..100 {
        local.scope().alloc(2_u8); // hot slot: the shared list is not touched
    }
    assert_eq!(shared.stats().cached_blocks, 20 - arena_kit::block::REFILL_BATCH);
    drop(local);
    assert_eq!(shared.stats().cached_blocks, 20, "the cache gave everything back");
}

#[test]
fn a_full_thread_cache_gives_half_back() {
    let shared = SharedBlockPool::new();
    let local = shared.local();
    assert_eq!(local.max_free(), LOCAL_MAX_FREE);
    {
        let scopes: Vec<_> = (0..LOCAL_MAX_FREE + 4)
            .map(|_| {
                let s = local.scope();
                s.alloc(0_u64);
                s
            })
            .collect();
        assert_eq!(shared.stats().blocks, LOCAL_MAX_FREE + 4);
        drop(scopes);
    }
    let cached_locally = local.stats().cached_blocks;
    assert!(cached_locally <= LOCAL_MAX_FREE);
    assert_eq!(shared.stats().cached_blocks, LOCAL_MAX_FREE + 4 - cached_locally);
    assert_eq!(local.trim(), cached_locally, "trim gives the cache to the shared pool");
    assert_eq!(shared.stats().cached_blocks, LOCAL_MAX_FREE + 4);
}

#[test]
fn limits_oversize_blocks_and_a_capped_shared_list() {
    let shared = SharedBlockPool::new();
    shared.set_max_free(1);
    let local = shared.local();
    local.set_limit(Some(2 * shared.block_size()));
    let a = local.scope();
    a.alloc(1_u8);
    let b = local.scope();
    b.alloc(1_u8);
    let c = local.scope();
    assert!(c.try_alloc(1_u8).is_err(), "the cache's limit holds");
    // Oversize requests bypass both caches.
    let other = shared.local();
    let big = other.scope();
    // Under Miri, two blocks' worth (still oversize) rather than 100 000 bytes to fill.
    let big_len = if cfg!(miri) { 2 * shared.block_size() } else { 100_000 };
    big.alloc_slice_fill_copy(big_len, 0_u8);
    assert_eq!(other.stats().dedicated_blocks, 1);
    assert_eq!(shared.stats().blocks, 2, "a dedicated block is not the shared pool's");
    drop(big);
    assert_eq!(other.stats().live_blocks, 0);
    drop((a, b, c));
    local.set_max_free(0);
    assert_eq!(shared.stats().cached_blocks, 1, "the shared list keeps max_free");
    assert_eq!(shared.stats().blocks, 1, "the rest went back to the system");
}

#[test]
fn a_thread_cache_can_move_to_another_thread() {
    let shared = SharedBlockPool::new();
    let local = shared.local();
    local.scope().alloc(7_u32);
    std::thread::scope(|s| {
        s.spawn(move || {
            let scope = local.scope();
            assert_eq!(*scope.alloc(8_u32), 8);
        });
    });
    assert_eq!(shared.stats().cached_blocks, 1);
}
