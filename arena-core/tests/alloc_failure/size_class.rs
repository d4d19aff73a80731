//! The size-class pools with allocations failing.

use core::alloc::Layout;
use core::ptr::NonNull;

#[cfg(feature = "allocator-api2")]
use arena_kit::allocator_api2::vec::Vec as ApiVec;
use arena_kit::{SizeClassPool, SyncSizeClassPool};

use crate::injector::unarmed;
use crate::{is_oom, scaled, sweep};

/// Layouts of every kind: several classes, above 1024 bytes, over-aligned.
const LAYOUTS: [(usize, usize); 6] = [(8, 8), (100, 4), (1024, 16), (3000, 8), (64, 64), (16, 1)];

/// `SizeClassPool::allocate` and `reserve` with any allocation failing: `OutOfMemory`,
/// and the pool serves the next request; chunks handed out stay intact.
pub(crate) fn size_class_pool_allocations() {
    let points = sweep(|| {
        let pool = SizeClassPool::new();
        let mut live: Vec<(NonNull<u8>, Layout)> = unarmed(|| Vec::with_capacity(64));
        for round in 0..8_u8 {
            for (size, align) in LAYOUTS {
                let layout = Layout::from_size_align(size, align).unwrap();
                match pool.allocate(layout) {
                    Ok(p) => {
                        // SAFETY: a fresh allocation of `layout`.
                        unsafe { p.as_ptr().write_bytes(round, size) };
                        live.push((p, layout));
                    }
                    Err(e) => is_oom(e),
                }
            }
            if let Err(e) = pool.reserve(Layout::new::<[u8; 200]>(), 40) {
                is_oom(e);
            }
        }
        for (p, layout) in live {
            // SAFETY: from this pool, with this layout, given back once.
            unsafe { pool.deallocate(p, layout) };
        }
        pool.trim();
    });
    assert!(points > 5, "the case made {points} allocations");
}

/// The locked pool: allocation through the thread cache, the depot and the classes with
/// any allocation failing, frees that move batches to the depot, `flush` and `trim`.
pub(crate) fn locked_size_class_pool() {
    let points = sweep(|| {
        let pool = unarmed(SyncSizeClassPool::new);
        let mut live: Vec<(NonNull<u8>, Layout)> = unarmed(|| Vec::with_capacity(400));
        for _ in 0..scaled(200) {
            let layout = Layout::new::<[u64; 4]>();
            match pool.allocate(layout) {
                Ok(p) => live.push((p, layout)),
                Err(e) => is_oom(e),
            }
        }
        let large = Layout::from_size_align(5000, 8).unwrap();
        if let Ok(p) = pool.allocate(large) {
            live.push((p, large));
        }
        for (p, layout) in live {
            // SAFETY: from this pool, with this layout, given back once.
            unsafe { pool.deallocate(p, layout) };
        }
        pool.flush();
        pool.trim();
        assert_eq!(pool.stats().live_chunks, 0);
    });
    assert!(points > 3, "the case made {points} allocations");
}

#[cfg(feature = "allocator-api2")]
/// `allocator_api2` vectors on both pools: `try_reserve` fails cleanly and the
/// vector keeps its elements; growing through classes moves them.
pub(crate) fn collections_on_size_classes() {
    let points = sweep(|| {
        let pool = SizeClassPool::new();
        let mut v: ApiVec<u32, &SizeClassPool> = ApiVec::new_in(&pool);
        for i in 0..scaled(600) {
            if v.try_reserve(1).is_ok() {
                v.push(i);
            }
        }
        assert!(v.iter().zip(v.iter().skip(1)).all(|(a, b)| a < b));
        drop(v);
        let locked = unarmed(SyncSizeClassPool::new);
        let mut w: ApiVec<u64, &SyncSizeClassPool> = ApiVec::new_in(&locked);
        for i in 0..u64::from(scaled(300)) {
            if w.try_reserve(1).is_ok() {
                w.push(i);
            }
        }
        assert!(w.iter().zip(w.iter().skip(1)).all(|(a, b)| a < b));
    });
    assert!(points > 5, "the case made {points} allocations");
}
