//! `SizeClassPool`: every size from 1 to 1024, alignment, reuse, large and zero-sized
//! layouts, giving blocks back, pre-allocation, and collections on it; a random churn
//! that checks no two live chunks overlap (each chunk filled with its own tag).

use core::alloc::Layout;
use core::ptr::NonNull;

#[cfg(feature = "allocator-api2")]
use allocator_api2::vec::Vec as ApiVec;
use arena_kit::{SizeClassPool, size_class::MAX_CLASS_SIZE};

fn layout(size: usize, align: usize) -> Layout {
    Layout::from_size_align(size, align).unwrap()
}

/// Fills `len` bytes at `p` with `tag`.
fn fill(p: NonNull<u8>, len: usize, tag: u8) {
    // SAFETY: `p` is a live allocation of at least `len` bytes (callers).
    unsafe { p.as_ptr().write_bytes(tag, len) };
}

/// Whether all `len` bytes at `p` still hold `tag`.
fn holds(p: NonNull<u8>, len: usize, tag: u8) -> bool {
    // SAFETY: as in `fill`; the bytes were written by `fill`.
    unsafe { core::slice::from_raw_parts(p.as_ptr(), len) }.iter().all(|&b| b == tag)
}

#[test]
fn every_size_gets_a_distinct_aligned_chunk_of_its_class() {
    let pool = SizeClassPool::new();
    let step = if cfg!(miri) { 37 } else { 1 };
    let live: Vec<_> = (1..=MAX_CLASS_SIZE)
        .step_by(step)
        .map(|size| {
            let align = [1, 2, 4, 8, 16][size % 5];
            let l = layout(size, align);
            let p = pool.allocate(l).unwrap();
            assert_eq!(p.as_ptr() as usize % align, 0);
            fill(p, size, size as u8);
            (p, l)
        })
        .collect();
    for &(p, l) in &live {
        assert!(holds(p, l.size(), l.size() as u8), "chunk of {} bytes overwritten", l.size());
    }
    assert_eq!(pool.stats().live_chunks, live.len());
    for (p, l) in live {
        // SAFETY: allocated above with `l`, freed once.
        unsafe { pool.deallocate(p, l) };
    }
    assert_eq!(pool.stats().live_chunks, 0);
}

#[test]
fn freed_chunks_are_reused_lifo_within_their_class() {
    let pool = SizeClassPool::new();
    let l = layout(40, 8);
    let a = pool.allocate(l).unwrap();
    let b = pool.allocate(l).unwrap();
    // SAFETY: from this pool with `l`, freed once.
    unsafe { pool.deallocate(a, l) };
    // SAFETY: as above.
    unsafe { pool.deallocate(b, l) };
    assert_eq!(pool.allocate(l).unwrap(), b);
    assert_eq!(pool.allocate(layout(48, 16)).unwrap(), a, "40 and 48 share the 48 class");
}

#[test]
fn large_over_aligned_and_zero_sized_layouts() {
    let pool = SizeClassPool::new();
    let big = layout(MAX_CLASS_SIZE + 1, 8);
    let aligned = layout(64, 64);
    let p = pool.allocate(big).unwrap();
    let q = pool.allocate(aligned).unwrap();
    assert_eq!(q.as_ptr() as usize % 64, 0);
    fill(p, big.size(), 1);
    assert_eq!(pool.stats().large_live, 2);
    let z = pool.allocate(layout(0, 32)).unwrap();
    assert_eq!(z.as_ptr() as usize % 32, 0);
    // SAFETY: from this pool with `big`, freed once.
    unsafe { pool.deallocate(p, big) };
    // SAFETY: from this pool with `aligned`, freed once.
    unsafe { pool.deallocate(q, aligned) };
    // SAFETY: zero-sized, from this pool with this layout.
    unsafe { pool.deallocate(z, layout(0, 32)) };
    assert_eq!(pool.stats().large_live, 0);
    assert_eq!(pool.stats().held_bytes, 0, "nothing came from the classes");
}

#[test]
fn an_emptied_class_gives_its_blocks_back_past_the_high_water_mark() {
    let pool = SizeClassPool::new();
    pool.set_high_water(0);
    let l = layout(256, 8);
    let p = pool.allocate(l).unwrap();
    assert!(pool.stats().held_bytes > 0);
    // SAFETY: from this pool with `l`, freed once.
    unsafe { pool.deallocate(p, l) };
    assert_eq!(pool.stats().held_bytes, 0);
    // The class starts over cleanly.
    let again = pool.allocate(l).unwrap();
    fill(again, 256, 9);
    // SAFETY: as above.
    unsafe { pool.deallocate(again, l) };
}

#[test]
fn trim_releases_empty_classes_only() {
    let pool = SizeClassPool::new();
    pool.set_high_water(usize::MAX);
    let (small, large) = (layout(16, 1), layout(1000, 8));
    let keep = pool.allocate(small).unwrap();
    let gone = pool.allocate(large).unwrap();
    // SAFETY: from this pool with `large`, freed once.
    unsafe { pool.deallocate(gone, large) };
    let before = pool.stats().held_bytes;
    let given = pool.trim();
    assert!(given > 0 && pool.stats().held_bytes == before - given);
    fill(keep, 16, 3);
    assert!(holds(keep, 16, 3));
    // SAFETY: from this pool with `small`, freed once.
    unsafe { pool.deallocate(keep, small) };
}

#[test]
fn reserve_carves_ahead_so_allocation_takes_no_block() {
    let pool = SizeClassPool::new();
    let l = layout(100, 4);
    let count = if cfg!(miri) { 50 } else { 2000 };
    pool.reserve(l, count).unwrap();
    let held = pool.stats().held_bytes;
    let chunks: Vec<_> = (0..count).map(|_| pool.allocate(l).unwrap()).collect();
    assert_eq!(pool.stats().held_bytes, held);
    for p in chunks {
        // SAFETY: from this pool with `l`, freed once.
        unsafe { pool.deallocate(p, l) };
    }
}

#[cfg(feature = "allocator-api2")]
#[test]
fn collections_grow_in_their_class_and_move_between_classes() {
    let pool = SizeClassPool::new();
    let mut v: ApiVec<u8, &SizeClassPool> = ApiVec::with_capacity_in(17, &pool);
    v.push(1);
    let first = v.as_ptr();
    v.reserve_exact(32 - v.len()); // 17 -> 32 bytes: the same 32-byte class
    assert_eq!(v.as_ptr(), first, "grown in place within the class");
    v.extend(core::iter::repeat_n(7, 2000)); // past 1024: the system allocator
    assert_eq!(pool.stats().large_live, 1);
    v.truncate(10);
    v.shrink_to_fit();
    assert_eq!(pool.stats().large_live, 0);
    assert_eq!(&v[..2], &[1, 7]);

    let mut map = hashbrown::HashMap::new_in(&pool);
    for i in 0..if cfg!(miri) { 50 } else { 1000 } {
        map.insert(i, i * 2);
    }
    assert_eq!(map[&21], 42);
    drop((v, map));
    assert_eq!(pool.stats().live_chunks + pool.stats().large_live, 0);
}

#[test]
fn random_churn_never_overlaps_live_chunks() {
    let pool = SizeClassPool::new();
    pool.set_high_water(0);
    let slots = if cfg!(miri) { 16 } else { 500 };
    // Under Miri, 100 ops over the 16 slots: still most of them free a chunk and take
    // another, of every class and of large sizes.
    let ops = if cfg!(miri) { 100 } else { 20_000 };
    let mut table: Vec<Option<(NonNull<u8>, Layout, u8)>> = vec![None; slots];
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    for op in 0..ops {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let slot = (x % slots as u64) as usize;
        let size = (x >> 20) as usize % 1100 + 1;
        if let Some((p, l, tag)) = table[slot].take() {
            assert!(holds(p, l.size(), tag), "op {op}: a live chunk was overwritten");
            // SAFETY: allocated below with `l`, freed once.
            unsafe { pool.deallocate(p, l) };
        }
        let l = layout(size, 1 << ((x >> 40) % 5));
        let p = pool.allocate(l).unwrap();
        let tag = op as u8;
        fill(p, size, tag);
        table[slot] = Some((p, l, tag));
    }
    for (p, l, tag) in table.into_iter().flatten() {
        assert!(holds(p, l.size(), tag));
        // SAFETY: as above.
        unsafe { pool.deallocate(p, l) };
    }
    let s = pool.stats();
    assert_eq!((s.live_chunks, s.large_live, s.held_bytes), (0, 0, 0));
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "is not a chunk of the 32-byte class")]
fn a_wrong_layout_is_caught_in_debug_builds() {
    let pool = arena_kit::SizeClassPool::new();
    let layout = core::alloc::Layout::new::<[u8; 100]>();
    let p = pool.allocate(layout).unwrap();
    let _other = pool.allocate(core::alloc::Layout::new::<[u8; 32]>()).unwrap();
    // SAFETY: not upheld on purpose: the wrong layout, which the debug check must catch
    // before the chunk reaches the 32-byte free list.
    unsafe { pool.deallocate(p, core::alloc::Layout::new::<[u8; 32]>()) };
}

/// A double free of a recently freed chunk panics in debug builds before it could put
/// the chunk on the free list twice (and hand it to two owners), on both pools; the
/// pool stays usable and its counters right.
#[test]
#[cfg(debug_assertions)]
fn a_double_free_is_caught_in_debug_builds() {
    use core::alloc::Layout;
    use std::panic::{AssertUnwindSafe, catch_unwind};

    use arena_kit::{SizeClassPool, SyncSizeClassPool};

    let message = |r: std::thread::Result<()>| {
        let payload = r.expect_err("a double free panics");
        payload.downcast_ref::<String>().cloned().unwrap_or_default()
    };
    let layout = Layout::new::<[u8; 48]>();
    let pool = SizeClassPool::new();
    let first = pool.allocate(layout).unwrap();
    let second = pool.allocate(layout).unwrap();
    let kept = pool.allocate(layout).unwrap(); // the class has a live chunk all along
    // SAFETY: from this pool with this layout, given back once.
    unsafe { pool.deallocate(first, layout) };
    // SAFETY: likewise.
    unsafe { pool.deallocate(second, layout) };
    // SAFETY: not upheld on purpose: `first` was given back already, under `second`.
    let again = catch_unwind(AssertUnwindSafe(|| unsafe { pool.deallocate(first, layout) }));
    assert!(message(again).contains("is already free: a double free"));
    assert_eq!(pool.stats().live_chunks, 1, "the refused free changed nothing");
    let (one, two) = (pool.allocate(layout).unwrap(), pool.allocate(layout).unwrap());
    assert_ne!(one, two, "no chunk is handed out twice");
    // SAFETY: from this pool with this layout, given back once.
    unsafe { pool.deallocate(one, layout) };
    // SAFETY: likewise.
    unsafe { pool.deallocate(two, layout) };
    // SAFETY: likewise.
    unsafe { pool.deallocate(kept, layout) };

    let locked = SyncSizeClassPool::new();
    let chunk = locked.allocate(layout).unwrap();
    // SAFETY: from this pool with this layout, given back once.
    unsafe { locked.deallocate(chunk, layout) };
    // SAFETY: not upheld on purpose: `chunk` is in this thread's cache already.
    let again = catch_unwind(AssertUnwindSafe(|| unsafe { locked.deallocate(chunk, layout) }));
    assert!(message(again).contains("is already free: a double free"));
    locked.flush();
    locked.trim();
    assert_eq!(locked.stats().live_chunks, 0, "the chunk was cached once");
}

/// 1000 chunks of the 32-byte class (one block: the class keeps it when it empties); 150
/// under Miri, as the debug double-free check walks the free list (quadratic cost): still
/// a chunk under many others, and still far past a cache batch (`CACHE_BATCH`, 32).
#[cfg(debug_assertions)]
const FAR: usize = if cfg!(miri) { 150 } else { 1000 };
#[cfg(debug_assertions)]
const FAR_LAYOUT: Layout = Layout::new::<[u8; 32]>();

/// A double free is caught however long ago the chunk was freed, not only among the most
/// recent frees: here it lies under `FAR - 1` others (999; 149 under Miri), the class empty.
#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "is already free: a double free")]
fn a_double_free_of_a_chunk_freed_long_ago_is_caught_in_debug_builds() {
    let pool = SizeClassPool::new();
    let chunks: Vec<_> = (0..FAR).map(|_| pool.allocate(FAR_LAYOUT).unwrap()).collect();
    for &chunk in &chunks {
        // SAFETY: from this pool with this layout, given back once.
        unsafe { pool.deallocate(chunk, FAR_LAYOUT) };
    }
    // SAFETY: not upheld on purpose: `chunks[0]` was given back first of all.
    unsafe { pool.deallocate(chunks[0], FAR_LAYOUT) };
}

/// As above with a chunk of the class live, so that nothing but the double-free check
/// stands between the chunk and a second place on the free list; the refused free
/// changes nothing, and no chunk is handed out twice afterwards.
#[test]
#[cfg(debug_assertions)]
fn a_double_free_under_many_frees_of_a_busy_class_is_refused_in_debug_builds() {
    use std::collections::HashSet;
    use std::panic::{AssertUnwindSafe, catch_unwind};

    let pool = SizeClassPool::new();
    let kept = pool.allocate(FAR_LAYOUT).unwrap();
    let chunks: Vec<_> = (0..FAR).map(|_| pool.allocate(FAR_LAYOUT).unwrap()).collect();
    for &chunk in &chunks {
        // SAFETY: from this pool with this layout, given back once.
        unsafe { pool.deallocate(chunk, FAR_LAYOUT) };
    }
    // SAFETY: not upheld on purpose: `chunks[0]` is on the free list under `FAR - 1` others.
    let again = catch_unwind(AssertUnwindSafe(|| unsafe {
        pool.deallocate(chunks[0], FAR_LAYOUT);
    }));
    let payload = again.expect_err("a double free panics");
    let message = payload.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("is already free: a double free"), "{message}");
    assert_eq!(pool.stats().live_chunks, 1, "the refused free changed nothing");
    let again: Vec<_> = (0..=FAR).map(|_| pool.allocate(FAR_LAYOUT).unwrap()).collect();
    let distinct: HashSet<_> = again.iter().chain([&kept]).collect();
    assert_eq!(distinct.len(), FAR + 2, "no chunk is handed out twice");
    for chunk in again.into_iter().chain([kept]) {
        // SAFETY: from this pool with this layout, given back once.
        unsafe { pool.deallocate(chunk, FAR_LAYOUT) };
    }
    assert_eq!(pool.stats().live_chunks, 0);
}

/// A chunk reserved ahead of time is free: giving it back without allocating it first
/// is caught like a double free.
#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "is already free: a double free")]
fn freeing_a_reserved_chunk_never_allocated_is_caught_in_debug_builds() {
    let pool = SizeClassPool::new();
    let kept = pool.allocate(FAR_LAYOUT).unwrap();
    pool.reserve(FAR_LAYOUT, 300).unwrap();
    // The first reserved chunk is the one carved right after `kept`, under 299 others.
    let reserved = NonNull::new(kept.as_ptr().wrapping_add(32)).unwrap();
    // SAFETY: not upheld on purpose: `reserved` is on the free list, never allocated.
    unsafe { pool.deallocate(reserved, FAR_LAYOUT) };
}

/// The locked pool catches the same double free wherever the chunk waits under the lock:
/// in the depot (a flushed batch) or back in the shared class (a trim), under `FAR - 1`
/// later frees (hundreds; over a hundred under Miri, still several depot batches).
#[test]
#[cfg(debug_assertions)]
fn the_locked_pool_catches_a_double_free_in_its_depot_or_classes_in_debug_builds() {
    use std::panic::{AssertUnwindSafe, catch_unwind};

    use arena_kit::SyncSizeClassPool;

    for trim in [false, true] {
        let pool = SyncSizeClassPool::new();
        let kept = pool.allocate(FAR_LAYOUT).unwrap(); // the class never empties
        let chunks: Vec<_> = (0..FAR).map(|_| pool.allocate(FAR_LAYOUT).unwrap()).collect();
        // SAFETY: from this pool with this layout, given back once.
        unsafe { pool.deallocate(chunks[0], FAR_LAYOUT) };
        pool.flush();
        for &chunk in &chunks[1..] {
            // SAFETY: from this pool with this layout, given back once.
            unsafe { pool.deallocate(chunk, FAR_LAYOUT) };
        }
        pool.flush();
        if trim {
            pool.trim();
        }
        // SAFETY: not upheld on purpose: `chunks[0]` waits in the depot or the class.
        let again = catch_unwind(AssertUnwindSafe(|| unsafe {
            pool.deallocate(chunks[0], FAR_LAYOUT);
        }));
        let payload = again.expect_err("a double free panics");
        let message = payload.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(message.contains("is already free: a double free"), "trim {trim}: {message}");
        // SAFETY: from this pool with this layout, given back once.
        unsafe { pool.deallocate(kept, FAR_LAYOUT) };
        pool.flush();
        pool.trim();
        assert_eq!(pool.stats().live_chunks, 0, "trim {trim}: every chunk back once");
    }
}
