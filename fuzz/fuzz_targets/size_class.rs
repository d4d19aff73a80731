//! `SizeClassPool` (and, single-threaded, `SyncSizeClassPool`) against a list of live
//! allocations: allocate, grow, shrink and deallocate of arbitrary sizes and alignments,
//! trim, limits, high-water marks and pre-carving; every live allocation is checked
//! byte for byte and for overlap after every step, and the counters against the list.
#![no_main]

use core::alloc::Layout;
use core::ptr::NonNull;

use allocator_api2::alloc::Allocator;
use arbitrary::Arbitrary;
use arena_kit::{AllocError, SizeClassPool, SyncSizeClassPool, allocator_api2};
use arena_kit_fuzz::{assert_disjoint, check, fill, start};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    sync: bool,
    ops: Vec<Op>,
}

#[derive(Arbitrary, Debug)]
enum Op {
    Allocate {
        size: u16,
        align_log: u8,
    },
    Deallocate(u8),
    Grow {
        which: u8,
        size: u16,
        align_log: u8,
    },
    Shrink {
        which: u8,
        size: u16,
        align_log: u8,
    },
    Trim,
    SetLimit(Option<u16>),
    SetHighWater(u32),
    Reserve {
        size: u16,
        count: u8,
    },
    /// `SyncSizeClassPool::flush` (nothing on the unlocked pool).
    Flush,
}

/// The two pools behind one interface.
enum Pool {
    Plain(SizeClassPool),
    Sync(SyncSizeClassPool),
}

impl Pool {
    fn allocate(&self, layout: Layout) -> Result<NonNull<u8>, AllocError> {
        match self {
            Pool::Plain(p) => p.allocate(layout),
            Pool::Sync(p) => p.allocate(layout),
        }
    }

    /// # Safety
    ///
    /// As `SizeClassPool::deallocate`.
    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: forwarded.
        unsafe {
            match self {
                Pool::Plain(p) => p.deallocate(ptr, layout),
                Pool::Sync(p) => p.deallocate(ptr, layout),
            }
        }
    }

    /// # Safety
    ///
    /// `ptr` is live with `old`; `new` is at least as large (grow) or at most (shrink).
    unsafe fn resize(&self, ptr: NonNull<u8>, old: Layout, new: Layout) -> Option<NonNull<u8>> {
        let grow = new.size() >= old.size();
        // SAFETY: forwarded.
        let r = unsafe {
            match (self, grow) {
                (Pool::Plain(p), true) => p.grow(ptr, old, new),
                (Pool::Plain(p), false) => p.shrink(ptr, old, new),
                (Pool::Sync(p), true) => p.grow(ptr, old, new),
                (Pool::Sync(p), false) => p.shrink(ptr, old, new),
            }
        };
        r.ok().map(|s| {
            assert!(s.len() >= new.size(), "a resize gives at least the new size");
            s.cast()
        })
    }

    fn set_limit(&self, limit: Option<usize>) {
        match self {
            Pool::Plain(p) => p.set_limit(limit),
            Pool::Sync(p) => p.set_limit(limit),
        }
    }
}

struct Live {
    ptr: NonNull<u8>,
    layout: Layout,
    seed: u64,
}

fn layout(size: u16, align_log: u8) -> Layout {
    // Mostly class sizes, sometimes large ones (the system allocator's path).
    let size = usize::from(size) % 1600;
    Layout::from_size_align(size, 1 << (align_log % 7)).unwrap()
}

fn served(l: Layout) -> bool {
    (1..=1024).contains(&l.size()) && l.align() <= 16
}

fuzz_target!(|input: Input| {
    start();
    let pool = if input.sync {
        Pool::Sync(SyncSizeClassPool::new())
    } else {
        Pool::Plain(SizeClassPool::new())
    };
    let mut live: Vec<Live> = Vec::new();
    let mut limited = false;
    let mut seed = 0_u64;
    for op in input.ops {
        match op {
            Op::Allocate { size, align_log } => {
                let layout = layout(size, align_log);
                match pool.allocate(layout) {
                    Ok(ptr) => {
                        assert!(ptr.as_ptr().addr().is_multiple_of(layout.align()), "misaligned");
                        seed += 1;
                        // SAFETY: a fresh allocation of `layout`.
                        unsafe { fill(ptr.as_ptr(), layout.size(), seed) };
                        live.push(Live { ptr, layout, seed });
                    }
                    Err(e) => {
                        assert!(limited && served(layout), "allocate failed: {e:?}");
                        assert!(matches!(e, AllocError::LimitReached { .. }), "{e:?}");
                    }
                }
            }
            Op::Deallocate(i) => {
                if !live.is_empty() {
                    let a = live.swap_remove(usize::from(i) % live.len());
                    // SAFETY: live, from this pool, with this layout; forgotten by the model.
                    unsafe { pool.deallocate(a.ptr, a.layout) };
                }
            }
            Op::Grow { which, size, align_log } | Op::Shrink { which, size, align_log } => {
                if live.is_empty() {
                    continue;
                }
                let i = usize::from(which) % live.len();
                let (old, mut new) = (live[i].layout, layout(size, align_log));
                let grow = matches!(op, Op::Grow { .. });
                if grow != (new.size() >= old.size()) {
                    // Keep the direction the op names: swap the size onto the right side.
                    new = Layout::from_size_align(old.size(), new.align()).unwrap();
                }
                // SAFETY: live with `old`; `new` is on the right side of it.
                match unsafe { pool.resize(live[i].ptr, old, new) } {
                    Some(ptr) => {
                        assert!(ptr.as_ptr().addr().is_multiple_of(new.align()), "misaligned");
                        let keep = old.size().min(new.size());
                        // SAFETY: the first `keep` bytes moved with the allocation.
                        unsafe { check(ptr.as_ptr(), keep, live[i].seed, "resized allocation") };
                        seed += 1;
                        // SAFETY: the resized allocation holds `new.size()` bytes.
                        unsafe { fill(ptr.as_ptr(), new.size(), seed) };
                        live[i] = Live { ptr, layout: new, seed };
                    }
                    None => assert!(limited, "a resize failed with no limit"),
                }
            }
            Op::Trim => match &pool {
                Pool::Plain(p) => {
                    p.trim();
                }
                Pool::Sync(p) => {
                    p.trim();
                }
            },
            Op::SetLimit(limit) => {
                let limit = limit.map(|l| usize::from(l) * 64);
                pool.set_limit(limit);
                limited = limit.is_some();
            }
            Op::SetHighWater(bytes) => match &pool {
                Pool::Plain(p) => p.set_high_water(bytes as usize),
                Pool::Sync(p) => p.set_high_water(bytes as usize),
            },
            Op::Reserve { size, count } => {
                let layout = layout(size, 0);
                let r = match &pool {
                    Pool::Plain(p) => p.reserve(layout, usize::from(count)),
                    Pool::Sync(p) => p.reserve(layout, usize::from(count)),
                };
                assert!(r.is_ok() || limited, "reserve failed with no limit");
            }
            Op::Flush => {
                if let Pool::Sync(p) = &pool {
                    p.flush();
                }
            }
        }
        let mut ranges = Vec::new();
        for a in &live {
            // SAFETY: live allocations of `layout.size()` bytes.
            unsafe { check(a.ptr.as_ptr(), a.layout.size(), a.seed, "allocation") };
            ranges.push((a.ptr.as_ptr().addr(), a.layout.size()));
        }
        assert_disjoint(&mut ranges, "two live allocations overlap");
        let chunks = live.iter().filter(|a| served(a.layout)).count();
        let large = live.iter().filter(|a| a.layout.size() > 0 && !served(a.layout)).count();
        let class_bytes: usize = live
            .iter()
            .filter(|a| served(a.layout))
            .map(|a| SizeClassPool::class_size_for(a.layout.size()).unwrap())
            .sum();
        match &pool {
            Pool::Plain(p) => {
                let s = p.stats();
                assert_eq!((s.live_chunks, s.large_live), (chunks, large), "{s:?}");
                assert_eq!(s.live_bytes, class_bytes);
                assert!(s.held_bytes >= s.live_bytes);
            }
            Pool::Sync(p) => {
                // Cached chunks count as live too.
                let s = p.stats();
                assert!(s.live_chunks >= chunks, "{s:?}");
                assert_eq!(s.large_live, large);
            }
        }
    }
    for a in live {
        // SAFETY: live, from this pool, with this layout.
        unsafe { pool.deallocate(a.ptr, a.layout) };
    }
    match pool {
        Pool::Plain(p) => {
            let s = p.stats();
            assert_eq!((s.live_chunks, s.large_live), (0, 0));
            p.trim();
            assert_eq!(p.stats().held_bytes, 0, "an empty pool gives every block back");
        }
        Pool::Sync(p) => {
            let p = p.into_inner();
            let s = p.stats();
            assert_eq!((s.live_chunks, s.large_live), (0, 0), "every cached chunk came back");
            p.trim();
            assert_eq!(p.stats().held_bytes, 0);
        }
    }
});
