//! Hostile programs against `SyncSizeClassPool`: chunks allocated by threads that have
//! exited and freed by others, round after round; hashbrown maps built on several threads
//! and each freed on yet another.

use core::alloc::Layout;
use core::ptr::NonNull;

use arena_kit::SyncSizeClassPool;

use crate::common::scaled;

/// A chunk handed to the thread that frees it.
struct SendPtr(NonNull<u8>);

// SAFETY: the chunk is plain memory owned by whichever thread holds the pointer.
unsafe impl Send for SendPtr {}

// SAFETY: shared only to be read and handed over; nothing writes through it.
unsafe impl Sync for SendPtr {}

#[test]
fn chunks_freed_by_other_threads_after_their_owners_exited_are_reused_and_all_come_back() {
    let pool = SyncSizeClassPool::new();
    let layout = Layout::new::<[u64; 4]>();
    for _round in 0..if cfg!(miri) { 2 } else { 4 } {
        let ptrs: Vec<SendPtr> = std::thread::scope(|s| {
            s.spawn(|| (0..scaled(200)).map(|_| SendPtr(pool.allocate(layout).unwrap())).collect())
                .join()
                .unwrap()
        });
        std::thread::scope(|s| {
            s.spawn(|| {
                for p in &ptrs {
                    // SAFETY: allocated from this pool with this layout above, freed once.
                    unsafe { pool.deallocate(p.0, layout) };
                }
            });
        });
    }
    pool.flush();
    pool.trim();
    let inner = pool.into_inner();
    assert_eq!(inner.stats().live_chunks, 0);
}

#[cfg(feature = "allocator-api2")]
#[test]
fn hashbrown_maps_built_on_several_threads_and_freed_on_others_give_every_chunk_back() {
    let n = if cfg!(miri) { 64 } else { 2000 };
    let pool = SyncSizeClassPool::new();
    std::thread::scope(|s| {
        for t in 0..3_u64 {
            let pool = &pool;
            s.spawn(move || {
                let mut m = hashbrown::HashMap::new_in(pool);
                for i in 0..n {
                    m.insert(i, i * t);
                }
                m.retain(|k, _| k % 2 == 0);
                m.shrink_to_fit();
                for (k, v) in &m {
                    assert_eq!(*v, k * t);
                }
                // Hands the map to another thread to free.
                std::thread::scope(|s2| {
                    s2.spawn(move || drop(m));
                });
            });
        }
    });
    let inner = pool.into_inner();
    assert_eq!(inner.stats().live_chunks, 0);
    assert_eq!(inner.stats().large_live, 0);
}
