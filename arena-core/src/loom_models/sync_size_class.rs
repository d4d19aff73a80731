//! `SyncSizeClassPool`'s thread caches and depot under loom.
//!
//! The main thread fills the depot with one batch of a class (64 frees through its cache
//! give 32 chunks back as a batch); two threads then allocate from that class, each from
//! an empty cache, so both refill at once: one takes the batch, the other carves from the
//! class, under every interleaving. Each thread writes a tag into its chunks, takes the
//! lock again (a point where the other may run), checks its tags, and frees its chunks,
//! one of them on the other thread. At the end every cache goes back (`into_inner`): no
//! chunk is live, none was handed out twice (the tags) or lost (the counts).
//!
//! Seeded race (checked when this model was written, then removed): `refill` looked at
//! the depot under one lock and popped the batch under a second one. The model failed
//! within a second, on the interleaving where the other thread took the only batch
//! between the two locks (the pop found the depot empty).

use core::alloc::Layout;
use core::ptr::NonNull;

use loom::sync::Arc;
use loom::thread;

use crate::size_class::{CACHE_BATCH, SyncSizeClassPool};

/// A chunk's address, to move between threads (the pool's memory, handed over whole).
struct Chunk(NonNull<u8>);

// SAFETY: the chunk is memory the receiving thread owns from then on (it frees it); the
// pool is `Sync` and takes frees from any thread.
unsafe impl Send for Chunk {}

const LAYOUT: Layout = match Layout::from_size_align(48, 16) {
    Ok(layout) => layout,
    Err(_) => panic!("a valid layout"),
};

/// Allocates `n` chunks, tags each with `tag` (a byte pattern over the whole chunk).
fn take(pool: &SyncSizeClassPool, n: usize, tag: u8) -> Vec<NonNull<u8>> {
    (0..n)
        .map(|_| {
            let p = pool.allocate(LAYOUT).expect("memory to spare");
            // SAFETY: a fresh chunk of `LAYOUT`, ours.
            unsafe { p.as_ptr().write_bytes(tag, LAYOUT.size()) };
            p
        })
        .collect()
}

/// Checks that `chunks` still hold `tag`: nobody else was handed one of them.
fn check(chunks: &[NonNull<u8>], tag: u8) {
    for p in chunks {
        // SAFETY: live chunks of `LAYOUT`, ours.
        let bytes = unsafe { core::slice::from_raw_parts(p.as_ptr(), LAYOUT.size()) };
        assert!(bytes.iter().all(|&b| b == tag), "a chunk was handed out twice");
    }
}

#[test]
fn two_threads_refilling_from_one_depot_batch_never_share_a_chunk() {
    let mut model = loom::model::Builder::new();
    model.preemption_bound = Some(3);
    model.check(|| {
        let pool = Arc::new(SyncSizeClassPool::new());
        let index = crate::size_class::class_index(LAYOUT).unwrap();
        // One batch in the depot: 64 frees through the main thread's cache.
        let mine = take(&pool, 2 * CACHE_BATCH, 0xEE);
        for p in mine {
            // SAFETY: from this pool with `LAYOUT`, given back once.
            unsafe { pool.deallocate(p, LAYOUT) };
        }
        assert_eq!(pool.depot_batches(index), 1, "the setup leaves one batch");
        let workers: Vec<_> = (1..=2_u8)
            .map(|tag| {
                let pool = Arc::clone(&pool);
                thread::spawn(move || {
                    let chunks = take(&pool, 2, tag);
                    let _ = pool.stats(); // takes the lock: the other thread may run here
                    check(&chunks, tag);
                    // SAFETY: from this pool with `LAYOUT`, given back once.
                    unsafe { pool.deallocate(chunks[0], LAYOUT) };
                    Chunk(chunks[1])
                })
            })
            .collect();
        let handed: Vec<Chunk> = workers.into_iter().map(|w| w.join().unwrap()).collect();
        for Chunk(p) in handed {
            // SAFETY: from this pool with `LAYOUT`, given back once (freed on another
            // thread than the one that allocated it).
            unsafe { pool.deallocate(p, LAYOUT) };
        }
        let pool = Arc::try_unwrap(pool).unwrap_or_else(|_| unreachable!("the workers ended"));
        let inner = pool.into_inner();
        let stats = inner.stats();
        assert_eq!(stats.live_chunks, 0, "every chunk came back once: {stats:?}");
        inner.trim();
        assert_eq!(inner.stats().held_bytes, 0, "and every block with them");
    });
}
