//! W3 and W4 on two threads (seed 002's locked pools): the same churn as W3 and W4, split
//! into two jobs, each with its own table (20 000 live slots) and its own random stream,
//! run either one after the other on one thread or at the same time on two threads
//! against one shared structure. The rows of one contender do the same work, so the
//! ratio of its "1 thread" and "2 threads" times is its throughput gain from a second
//! thread (ideal: 2x; the goal: at least 1.7x).
//!
//! W1: scopes on a `SharedBlockPool` through a `LocalBlockPool` per job (the thread cache
//! whose fast path takes no lock), a new scope per round or one per job with a
//! `Scope::scoped` per round, a `BlockPool` per job, `Box` and bumpalo's `reset`.
//! W4: arena-kit's `SyncPool` (sharded by thread), `Mutex<slab::Slab>`, `sharded_slab::Slab`,
//! `Box` (malloc), and an unlocked `Pool` per job as the no-sharing reference. W3:
//! arena-kit's `SyncSizeClassPool` (one lock), a `SizeClassPool` per job (unlocked, each
//! thread its own), `Mutex` over a slab per size class, and `Vec<u8>` (malloc).

use std::sync::Mutex;

use std::hint::black_box;

use arena_kit::{BlockPool, Pool, SharedBlockPool, SizeClassPool, SyncPool, SyncSizeClassPool};

use super::Contender;
use super::fixed_churn::{Object, SLOTS, churn_seeded};
use super::size_classes::{self, SlabClasses, buffer_in, weigh_buffer};

/// Operations per run, over both jobs.
pub const N: usize = 1_000_000;

/// W1 rounds per run, over both jobs: more than W1's 60 000, so that starting two threads
/// (tens of microseconds) is lost in the run.
pub const W1_N: usize = 2_000_000;

/// The two jobs' random streams.
const SEEDS: [u64; 2] = [0x9E37_79B9_7F4A_7C15, 0xD1B5_4A32_D192_ED03];

/// Runs `job(0)` and `job(1)`, on two threads or one after the other; sums their checksums.
fn jobs(two_threads: bool, job: impl Fn(usize) -> u64 + Sync) -> u64 {
    if two_threads {
        std::thread::scope(|s| {
            let job = &job;
            let workers: Vec<_> = (0..2).map(|t| s.spawn(move || job(t))).collect();
            workers.into_iter().map(|w| w.join().expect("a job panicked")).sum()
        })
    } else {
        (0..2).map(job).sum()
    }
}

/// One W1 job: rounds `t * n / 2 .. (t + 1) * n / 2`, each making an allocator (or a
/// scope), allocating one `u32` in it, reading it back and ending it.
#[expect(clippy::cast_possible_truncation, reason = "W1_N fits in u32")]
fn w1_job(t: usize, n: usize, mut round: impl FnMut(u32) -> u32) -> u64 {
    let half = n / 2;
    (t * half..(t + 1) * half).map(|i| u64::from(round(black_box(i as u32)))).sum()
}

fn w1_shared(n: usize, two: bool) -> u64 {
    let shared = SharedBlockPool::new();
    jobs(two, |t| {
        let local = shared.local();
        w1_job(t, n, |i| *black_box(local.scope().alloc(i)))
    })
}

/// A scope per job on the shared pool, and a rewinding nested scope per round
/// (`Scope::scoped`): the shape of bumpalo's reset per job.
fn w1_shared_scoped(n: usize, two: bool) -> u64 {
    let shared = SharedBlockPool::new();
    jobs(two, |t| {
        let local = shared.local();
        let mut scope = local.scope();
        w1_job(t, n, |i| scope.scoped(|s| *black_box(s.alloc(i))))
    })
}

fn w1_pool_per_job(n: usize, two: bool) -> u64 {
    jobs(two, |t| {
        let pool = BlockPool::new();
        w1_job(t, n, |i| *black_box(pool.scope().alloc(i)))
    })
}

fn w1_boxed(n: usize, two: bool) -> u64 {
    jobs(two, |t| w1_job(t, n, |i| *black_box(Box::new(i))))
}

fn w1_bumpalo_reset(n: usize, two: bool) -> u64 {
    jobs(two, |t| {
        let mut bump = bumpalo::Bump::new();
        w1_job(t, n, |i| {
            let x = *black_box(bump.alloc(i));
            bump.reset();
            x
        })
    })
}

/// Every W1 two-thread contender, one row per thread count.
pub const W1_CONTENDERS: &[Contender] = &[
    Contender { name: "arena-kit SharedBlockPool, 1 thread", run: |n| w1_shared(n, false) },
    Contender { name: "arena-kit SharedBlockPool, 2 threads", run: |n| w1_shared(n, true) },
    Contender {
        name: "arena-kit SharedBlockPool, Scope::scoped, 1 thread",
        run: |n| w1_shared_scoped(n, false),
    },
    Contender {
        name: "arena-kit SharedBlockPool, Scope::scoped, 2 threads",
        run: |n| w1_shared_scoped(n, true),
    },
    Contender { name: "arena-kit BlockPool per job, 1 thread", run: |n| w1_pool_per_job(n, false) },
    Contender { name: "arena-kit BlockPool per job, 2 threads", run: |n| w1_pool_per_job(n, true) },
    Contender { name: "Box, 1 thread", run: |n| w1_boxed(n, false) },
    Contender { name: "Box, 2 threads", run: |n| w1_boxed(n, true) },
    Contender {
        name: "bumpalo Bump::reset per job, 1 thread",
        run: |n| w1_bumpalo_reset(n, false),
    },
    Contender {
        name: "bumpalo Bump::reset per job, 2 threads",
        run: |n| w1_bumpalo_reset(n, true),
    },
];

/// One W4 job: `n / 2` operations on a table of [`SLOTS`], `insert` and `remove` on
/// whatever structure the contender shares; the checksum sums the freed ids and the ids
/// left at the end.
fn w4_job<H>(
    t: usize,
    n: usize,
    mut insert: impl FnMut(Object) -> H,
    mut remove: impl FnMut(H) -> Object,
) -> u64 {
    let mut table: Vec<Option<H>> = (0..SLOTS).map(|_| None).collect();
    let sum = churn_seeded(SEEDS[t], n / 2, |slot, id| {
        let freed = table[slot].take().map_or(0, |h| remove(h).id());
        table[slot] = Some(insert(Object::untracked(id)));
        freed
    });
    sum + table.into_iter().flatten().map(|h| remove(h).id()).sum::<u64>()
}

fn w4_sync_pool(n: usize, two: bool) -> u64 {
    SyncPool::with(|pool| {
        jobs(two, |t| {
            pool.reserve(SLOTS); // in this thread's shard, as `Pool::with_capacity` below
            w4_job(t, n, |o| pool.insert(o), |h| pool.remove(h))
        })
    })
}

fn w4_pool_per_job(n: usize, two: bool) -> u64 {
    jobs(two, |t| {
        Pool::with_capacity(SLOTS, |mut pool| {
            let pool = std::cell::RefCell::new(&mut pool);
            w4_job(t, n, |o| pool.borrow_mut().insert(o), |h| pool.borrow_mut().remove(h))
        })
    })
}

fn w4_mutex_slab(n: usize, two: bool) -> u64 {
    let slab = Mutex::new(slab::Slab::with_capacity(2 * SLOTS));
    let lock = || slab.lock().expect("no job panics holding it");
    jobs(two, |t| w4_job(t, n, |o| lock().insert(o), |k| lock().remove(k)))
}

fn w4_sharded_slab(n: usize, two: bool) -> u64 {
    let slab = sharded_slab::Slab::new();
    jobs(two, |t| {
        w4_job(
            t,
            n,
            |o| slab.insert(o).expect("sharded-slab has room for 40 000"),
            |k| slab.take(k).expect("a live key"),
        )
    })
}

fn w4_boxed(n: usize, two: bool) -> u64 {
    jobs(two, |t| w4_job(t, n, Box::new, |b| *b))
}

/// Every W4 two-thread contender, one row per thread count.
pub const W4_CONTENDERS: &[Contender] = &[
    Contender { name: "arena-kit SyncPool, 1 thread", run: |n| w4_sync_pool(n, false) },
    Contender { name: "arena-kit SyncPool, 2 threads", run: |n| w4_sync_pool(n, true) },
    Contender { name: "arena-kit Pool per job, 1 thread", run: |n| w4_pool_per_job(n, false) },
    Contender { name: "arena-kit Pool per job, 2 threads", run: |n| w4_pool_per_job(n, true) },
    Contender { name: "Mutex<Slab>, 1 thread", run: |n| w4_mutex_slab(n, false) },
    Contender { name: "Mutex<Slab>, 2 threads", run: |n| w4_mutex_slab(n, true) },
    Contender { name: "sharded-slab Slab, 1 thread", run: |n| w4_sharded_slab(n, false) },
    Contender { name: "sharded-slab Slab, 2 threads", run: |n| w4_sharded_slab(n, true) },
    Contender { name: "Box, 1 thread", run: |n| w4_boxed(n, false) },
    Contender { name: "Box, 2 threads", run: |n| w4_boxed(n, true) },
];

/// One W3 job: `n / 2` operations on a table of 20 000 random-size buffers.
fn w3_job<B>(
    t: usize,
    n: usize,
    alloc: impl FnMut(usize, u8) -> B,
    free: impl FnMut(B) -> u64,
) -> u64 {
    size_classes::churn_seeded(SEEDS[t], n / 2, size_classes::SLOTS_SMALL, alloc, free)
}

fn w3_sync_pool(n: usize, two: bool) -> u64 {
    let pool = SyncSizeClassPool::new();
    jobs(two, |t| w3_job(t, n, |size, tag| buffer_in(&pool, size, tag), weigh_buffer))
}

fn w3_pool_per_job(n: usize, two: bool) -> u64 {
    jobs(two, |t| {
        let pool = SizeClassPool::new();
        w3_job(t, n, |size, tag| buffer_in(&pool, size, tag), weigh_buffer)
    })
}

fn w3_mutex_slabs(n: usize, two: bool) -> u64 {
    let slabs = Mutex::new(SlabClasses::new());
    let lock = || slabs.lock().expect("no job panics holding it");
    jobs(two, |t| w3_job(t, n, |size, tag| lock().alloc(size, tag), |c| lock().free(c)))
}

fn w3_malloc(n: usize, two: bool) -> u64 {
    jobs(two, |t| {
        w3_job(t, n, |size, tag| buffer_in(allocator_api2::alloc::Global, size, tag), weigh_buffer)
    })
}

/// Every W3 two-thread contender, one row per thread count.
pub const W3_CONTENDERS: &[Contender] = &[
    Contender { name: "arena-kit SyncSizeClassPool, 1 thread", run: |n| w3_sync_pool(n, false) },
    Contender { name: "arena-kit SyncSizeClassPool, 2 threads", run: |n| w3_sync_pool(n, true) },
    Contender {
        name: "arena-kit SizeClassPool per job, 1 thread",
        run: |n| w3_pool_per_job(n, false),
    },
    Contender {
        name: "arena-kit SizeClassPool per job, 2 threads",
        run: |n| w3_pool_per_job(n, true),
    },
    Contender { name: "Mutex<slab per size class>, 1 thread", run: |n| w3_mutex_slabs(n, false) },
    Contender { name: "Mutex<slab per size class>, 2 threads", run: |n| w3_mutex_slabs(n, true) },
    Contender { name: "Vec<u8> (malloc), 1 thread", run: |n| w3_malloc(n, false) },
    Contender { name: "Vec<u8> (malloc), 2 threads", run: |n| w3_malloc(n, true) },
];
