//! Hostile programs against the block cache's hot slot (`hot_slot.rs`): the hot block
//! lent to a scope while the slot keeps its address and its place among `max_free`.
//! Through the public API only: scopes dropped in every order, swapped across pools (a
//! `BlockPool` and a `LocalBlockPool` of the same block size), nested, reset, limited,
//! spilling into more blocks and dedicated ones, given back through the `Allocator` impl;
//! `set_max_free`, `reserve`, `trim` and limits at every point while a block is lent;
//! panics inside `scoped`; thread caches of a shared pool on several threads; and a
//! randomized model that checks, after every step, the counters against the scopes, the
//! cache against `max_free` and every value written against what was written.
//!
//! CI runs them under Miri's Stacked Borrows with every other test (smaller under
//! Miri, about two minutes); they are kept out of the `hostile_` set that also runs
//! under Tree Borrows, three times slower, to keep CI within its half hour.

use core::alloc::Layout;
use core::ptr::NonNull;
use std::panic::{AssertUnwindSafe, catch_unwind};

use arena_kit::allocator_api2::alloc::Allocator;
use arena_kit::{
    AllocError, BlockPool, Scope, SharedBlockPool, block::BlockPoolStats, block::LocalBlockPool,
    block::REFILL_BATCH, scope::ScopeStats,
};

use crate::common::scaled;

/// The smallest block a pool makes: one page less malloc's header.
const SMALL: usize = 1;

// ----- helpers ----------------------------------------------------------------------------

/// A small deterministic PRNG (xorshift64*).
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// Byte `i` of allocation `id`: two allocations that overlap disagree somewhere.
fn pattern(id: u32, i: usize) -> u8 {
    ((id.wrapping_mul(0x9E37_79B1) >> 24) as u8) ^ (i as u8).wrapping_mul(13) ^ (id as u8)
}

/// The bytes of an allocation of `len` that are written and checked: every byte
/// natively; under Miri, which runs code about a thousand times slower, both ends and
/// every 61st byte. (Allocations through the slice API are zero-filled first, so one
/// that overlaps another still clobbers its checked bytes.)
fn sampled(len: usize) -> Box<dyn Iterator<Item = usize>> {
    if cfg!(miri) {
        let head = 0..len.min(32);
        let middle = (61..len.saturating_sub(32)).step_by(61);
        let tail = len.saturating_sub(32).max(len.min(32))..len;
        Box::new(head.chain(middle).chain(tail))
    } else {
        Box::new(0..len)
    }
}

/// One allocation a test wrote and will read back.
#[derive(Clone, Copy, Debug)]
struct Rec {
    ptr: *const u8,
    len: usize,
    id: u32,
    /// Set for an allocation made through the `Allocator` impl, which may give it back.
    layout: Option<Layout>,
}

impl Rec {
    fn fill(ptr: *mut u8, len: usize, id: u32, layout: Option<Layout>) -> Rec {
        for i in sampled(len) {
            // SAFETY: `ptr` is a fresh allocation of at least `len` bytes.
            let at = unsafe { ptr.add(i) };
            // SAFETY: as above, `at` is inside it.
            unsafe { at.write(pattern(id, i)) };
        }
        Rec { ptr, len, id, layout }
    }

    fn of_slice(slice: &mut [u8], id: u32) -> Rec {
        let len = slice.len();
        for i in sampled(len) {
            slice[i] = pattern(id, i);
        }
        Rec { ptr: slice.as_ptr(), len, id, layout: None }
    }

    /// Panics if any byte written changed since.
    fn check(&self) {
        for i in sampled(self.len) {
            // SAFETY: the allocation is live (the test drops its record with its scope,
            // reset or `scoped` call).
            let at = unsafe { self.ptr.add(i) };
            // SAFETY: as above, `at` is inside it.
            let b = unsafe { at.read() };
            assert_eq!(b, pattern(self.id, i), "allocation {} overwritten at byte {i}", self.id);
        }
    }
}

/// The API of both pool types, for tests that run on either.
trait PoolApi {
    fn open(&self) -> Scope<'_>;
    fn stats(&self) -> BlockPoolStats;
    fn max_free(&self) -> usize;
    fn set_max_free(&self, max_free: usize);
    fn reserve(&self, blocks: usize) -> Result<(), AllocError>;
    fn trim(&self) -> usize;
    fn set_limit(&self, limit: Option<usize>);
    fn block_size(&self) -> usize;
    /// A thread's cache may be overfilled by a refill (see
    /// `a_refill_overfills_a_thread_cache_past_max_free`): the bound the model checks.
    fn cache_bound(&self) -> usize;
    fn counts_every_block_as_a_system_allocation(&self) -> bool;
}

macro_rules! pool_api {
    ($ty:ty, $bound:expr, $counts:expr) => {
        impl PoolApi for $ty {
            fn open(&self) -> Scope<'_> {
                self.scope()
            }
            fn stats(&self) -> BlockPoolStats {
                self.stats()
            }
            fn max_free(&self) -> usize {
                self.max_free()
            }
            fn set_max_free(&self, max_free: usize) {
                self.set_max_free(max_free);
            }
            fn reserve(&self, blocks: usize) -> Result<(), AllocError> {
                self.reserve(blocks)
            }
            fn trim(&self) -> usize {
                self.trim()
            }
            fn set_limit(&self, limit: Option<usize>) {
                self.set_limit(limit);
            }
            fn block_size(&self) -> usize {
                self.block_size()
            }
            fn cache_bound(&self) -> usize {
                let bound: fn(usize) -> usize = $bound;
                bound(self.max_free())
            }
            fn counts_every_block_as_a_system_allocation(&self) -> bool {
                $counts
            }
        }
    };
}

pool_api!(BlockPool, |max_free| max_free, true);
pool_api!(LocalBlockPool<'_>, |max_free| max_free, false);

/// What the model knows of a pool.
#[derive(Default)]
struct PoolModel {
    /// Held bytes (live and cached) may not pass this (the limit, or what was held when
    /// it was set, if more).
    held_cap: Option<usize>,
    /// The most live blocks seen at any check.
    live_seen: usize,
    last_peak: usize,
    last_allocations: u64,
}

/// A scope of the model and what it wrote.
struct Live<'p> {
    scope: Scope<'p>,
    pool: usize,
    recs: Vec<Rec>,
    /// Reserved bytes may not pass this (the scope's limit, or what it held when it was
    /// set, if more).
    cap: Option<usize>,
}

/// A scope the checks count besides the model's (one inside `scoped`, a child): its
/// counters now and what it wrote.
struct Extra<'a> {
    stats: ScopeStats,
    pool: usize,
    recs: &'a [Rec],
}

/// Every invariant, for every pool: counters against the scopes, the cache against
/// `max_free`, limits, the peak, and every byte written.
fn check_all(
    pools: &[&dyn PoolApi],
    models: &mut [PoolModel],
    lives: &[Live<'_>],
    extras: &[Extra<'_>],
) {
    for (k, (pool, model)) in pools.iter().zip(models.iter_mut()).enumerate() {
        let s = pool.stats();
        let mut blocks = 0;
        let mut bytes = 0;
        for live in lives.iter().filter(|l| l.pool == k) {
            let st = live.scope.stats();
            blocks += st.blocks;
            bytes += st.reserved_bytes;
        }
        for extra in extras.iter().filter(|e| e.pool == k) {
            let st = extra.stats;
            blocks += st.blocks;
            bytes += st.reserved_bytes;
        }
        assert_eq!(s.live_blocks, blocks, "pool {k}: live blocks vs the scopes' blocks: {s:?}");
        assert_eq!(s.live_bytes, bytes, "pool {k}: live bytes vs the scopes' bytes: {s:?}");
        assert!(
            s.cached_blocks <= pool.cache_bound(),
            "pool {k}: {} cached blocks, max_free {}",
            s.cached_blocks,
            pool.max_free()
        );
        assert_eq!(s.cached_bytes, s.cached_blocks * pool.block_size(), "pool {k}: {s:?}");
        assert!(s.dedicated_blocks <= s.live_blocks, "pool {k}: {s:?}");
        model.live_seen = model.live_seen.max(s.live_blocks);
        assert!(s.peak_live_blocks >= model.live_seen, "pool {k}: peak below live: {s:?}");
        assert!(s.peak_live_blocks >= model.last_peak, "pool {k}: the peak went down: {s:?}");
        model.last_peak = s.peak_live_blocks;
        assert!(s.system_allocations >= model.last_allocations, "pool {k}: {s:?}");
        model.last_allocations = s.system_allocations;
        if pool.counts_every_block_as_a_system_allocation() {
            assert!(
                s.system_allocations >= (s.live_blocks + s.cached_blocks) as u64,
                "pool {k}: more blocks held than ever allocated: {s:?}"
            );
        }
        if let Some(cap) = model.held_cap {
            assert!(s.live_bytes + s.cached_bytes <= cap, "pool {k}: past its limit: {s:?}");
        }
    }
    for live in lives {
        if let Some(cap) = live.cap {
            assert!(live.scope.stats().reserved_bytes <= cap, "a scope past its limit");
        }
        live.recs.iter().for_each(Rec::check);
    }
    for extra in extras {
        extra.recs.iter().for_each(Rec::check);
    }
}

/// Writes `len` patterned bytes into `scope` (fallibly: limits may refuse).
fn write(scope: &Scope<'_>, len: usize, id: u32) -> Option<Rec> {
    let slice = scope.try_alloc_slice_fill_copy(len, 0_u8).ok()?;
    Some(Rec::of_slice(slice, id))
}

/// Allocates through the `Allocator` impl and writes the requested bytes.
fn write_raw(scope: &Scope<'_>, layout: Layout, id: u32) -> Option<Rec> {
    let ptr = scope.allocate(layout).ok()?;
    let ptr = ptr.cast::<u8>().as_ptr();
    assert!(ptr.addr() % layout.align() == 0, "misaligned allocation");
    Some(Rec::fill(ptr, layout.size(), id, Some(layout)))
}

/// A length: small, spilling into another standard block, or dedicated.
fn some_len(rng: &mut Rng, block: usize) -> usize {
    match rng.below(8) {
        0..=3 => 1 + rng.below(64),
        4..=5 => block / 4 + rng.below(block / 2),
        6 => block / 2 + rng.below(block / 2),
        _ => block + rng.below(block),
    }
}

fn some_layout(rng: &mut Rng, block: usize) -> Layout {
    let align = match rng.below(10) {
        0 => 4096,
        1..=2 => 64,
        _ => 1 << rng.below(4),
    };
    let size = some_len(rng, block).max(1);
    Layout::from_size_align(size, align).unwrap()
}

/// The randomized model: `steps` operations chosen by `seed` on scopes of `pools`.
#[expect(clippy::too_many_lines, reason = "one match arm per operation")]
fn run_model(pools: &[&dyn PoolApi], seed: u64, steps: usize) {
    let mut rng = Rng::new(seed);
    let mut models: Vec<PoolModel> = pools.iter().map(|_| PoolModel::default()).collect();
    let mut lives: Vec<Live<'_>> = Vec::new();
    let mut next_id = 0_u32;
    let mut id = || {
        next_id += 1;
        next_id
    };
    for _ in 0..steps {
        let op = rng.below(18);
        let pick = |rng: &mut Rng, n: usize| if n == 0 { None } else { Some(rng.below(n)) };
        match op {
            // Open a scope (on a random pool); often write at once, which takes the hot
            // block or a block from the slow path.
            0 | 1 if lives.len() < 6 => {
                let k = rng.below(pools.len());
                let scope = pools[k].open();
                let mut recs = Vec::new();
                if rng.chance(2) {
                    recs.extend(write(&scope, 1 + rng.below(32), id()));
                }
                lives.push(Live { scope, pool: k, recs, cap: None });
            }
            // Drop a scope, any of them.
            2 | 3 => {
                if let Some(i) = pick(&mut rng, lives.len()) {
                    drop(lives.remove(i));
                }
            }
            // Write into a scope: small, spilling, or dedicated.
            4..=6 => {
                if let Some(i) = pick(&mut rng, lives.len()) {
                    let block = pools[lives[i].pool].block_size();
                    let len = some_len(&mut rng, block);
                    let rec = write(&lives[i].scope, len, id());
                    lives[i].recs.extend(rec);
                }
            }
            // Through the `Allocator` impl: buffers, lone blocks, over-aligned blocks.
            7 => {
                if let Some(i) = pick(&mut rng, lives.len()) {
                    let block = pools[lives[i].pool].block_size();
                    let layout = some_layout(&mut rng, block);
                    let rec = write_raw(&lives[i].scope, layout, id());
                    lives[i].recs.extend(rec);
                }
            }
            // Give back an allocation made through the `Allocator` impl (the newest is
            // the tip, or a lone block's, or a buffer).
            8 => {
                if let Some(i) = pick(&mut rng, lives.len()) {
                    let live = &mut lives[i];
                    let newest = rng.chance(2);
                    let found = if newest {
                        live.recs.iter().rposition(|r| r.layout.is_some())
                    } else {
                        let raws: Vec<usize> = (0..live.recs.len())
                            .filter(|&j| live.recs[j].layout.is_some())
                            .collect();
                        pick(&mut rng, raws.len()).map(|j| raws[j])
                    };
                    if let Some(j) = found {
                        let rec = live.recs.remove(j);
                        rec.check();
                        let ptr = NonNull::new(rec.ptr.cast_mut()).unwrap();
                        // SAFETY: a live allocation of this layout from this scope, not
                        // used again (its record is gone).
                        unsafe { (&live.scope).deallocate(ptr, rec.layout.unwrap()) };
                    }
                }
            }
            // Reset a scope.
            9 => {
                if let Some(i) = pick(&mut rng, lives.len()) {
                    lives[i].recs.clear();
                    lives[i].scope.reset();
                }
            }
            // `scoped`, with writes, a child scope, checks inside, and sometimes a panic.
            10 | 11 => {
                if let Some(i) = pick(&mut rng, lives.len()) {
                    let mut live = lives.swap_remove(i);
                    let block = pools[live.pool].block_size();
                    let writes = rng.below(4);
                    let child = rng.chance(2);
                    let panics = rng.chance(4);
                    let mut inside: Vec<Rec> = Vec::new();
                    let lens: Vec<usize> =
                        (0..writes + 3).map(|_| some_len(&mut rng, block)).collect();
                    let ids: Vec<u32> = (0..writes + 3).map(|_| id()).collect();
                    let pool = live.pool;
                    let outer_recs = live.recs.clone();
                    let result = catch_unwind(AssertUnwindSafe(|| {
                        live.scope.scoped(|s| {
                            for w in 0..writes {
                                inside.extend(write(s, lens[w], ids[w]));
                            }
                            if child {
                                let c = s.scope();
                                let mut child_recs = Vec::new();
                                child_recs.extend(write(&c, lens[writes], ids[writes]));
                                child_recs.extend(write(&c, lens[writes + 1], ids[writes + 1]));
                                inside.extend(write(s, lens[writes + 2], ids[writes + 2]));
                                let mut all = outer_recs.clone();
                                all.extend(inside.iter().copied());
                                check_all(
                                    pools,
                                    &mut models,
                                    &lives,
                                    &[
                                        Extra { stats: s.stats(), pool, recs: &all },
                                        Extra { stats: c.stats(), pool, recs: &child_recs },
                                    ],
                                );
                                assert!(!panics || rng.chance(2), "a panic with a live child");
                            }
                            let mut all = outer_recs.clone();
                            all.extend(inside.iter().copied());
                            check_all(
                                pools,
                                &mut models,
                                &lives,
                                &[Extra { stats: s.stats(), pool, recs: &all }],
                            );
                            assert!(!panics, "a panic inside `scoped`");
                        });
                    }));
                    if result.is_err() {
                        // Nothing is rewound after a panic: those bytes stay until the
                        // scope resets or ends, and must not be handed out again.
                        live.recs.extend(inside);
                    }
                    lives.push(live);
                }
            }
            // Swap two scopes (possibly of two pools) in place.
            12 => {
                if lives.len() >= 2 {
                    let i = rng.below(lives.len());
                    let j = (i + 1 + rng.below(lives.len() - 1)) % lives.len();
                    let (lo, hi) = (i.min(j), i.max(j));
                    let (left, right) = lives.split_at_mut(hi);
                    let (a, b) = (&mut left[lo], &mut right[0]);
                    std::mem::swap(&mut a.scope, &mut b.scope);
                    std::mem::swap(&mut a.pool, &mut b.pool);
                    std::mem::swap(&mut a.recs, &mut b.recs);
                    std::mem::swap(&mut a.cap, &mut b.cap);
                }
            }
            // The cache's own controls, whatever is lent.
            13 => {
                let k = rng.below(pools.len());
                let max_free = [0, 1, 2, 3, usize::MAX][rng.below(5)];
                pools[k].set_max_free(max_free);
            }
            14 => {
                let k = rng.below(pools.len());
                if rng.chance(2) {
                    pools[k].trim();
                } else {
                    let _ = pools[k].reserve(rng.below(4));
                }
            }
            // A limit on a pool (or none), at or above what it holds now or below.
            15 => {
                let k = rng.below(pools.len());
                let s = pools[k].stats();
                let held = s.live_bytes + s.cached_bytes;
                let limit = match rng.below(4) {
                    0 => None,
                    1 => Some(rng.below(held + 1)),
                    _ => Some(held + rng.below(4) * pools[k].block_size()),
                };
                pools[k].set_limit(limit);
                models[k].held_cap = limit.map(|l| l.max(held));
            }
            // A limit on a scope (or none): a fresh scope's unused hot block goes back.
            16 => {
                if let Some(i) = pick(&mut rng, lives.len()) {
                    let live = &mut lives[i];
                    let held = live.scope.stats().reserved_bytes;
                    let block = pools[live.pool].block_size();
                    let limit = match rng.below(4) {
                        0 => None,
                        1 => Some(rng.below(held + 1)),
                        _ => Some(held + rng.below(3 * block)),
                    };
                    live.scope.set_limit(limit);
                    live.cap = limit.map(|l| l.max(held));
                }
            }
            // A short-lived child of a scope, which may take the hot block.
            _ => {
                if let Some(i) = pick(&mut rng, lives.len()) {
                    let pool = lives[i].pool;
                    let block = pools[pool].block_size();
                    let child = lives[i].scope.scope();
                    let mut recs = Vec::new();
                    for _ in 0..=rng.below(3) {
                        recs.extend(write(&child, some_len(&mut rng, block), id()));
                    }
                    check_all(
                        pools,
                        &mut models,
                        &lives,
                        &[Extra { stats: child.stats(), pool, recs: &recs }],
                    );
                }
            }
        }
        check_all(pools, &mut models, &lives, &[]);
    }
    // Every scope ends, in a random order; then nothing is live.
    while !lives.is_empty() {
        let i = rng.below(lives.len());
        drop(lives.remove(i));
        check_all(pools, &mut models, &lives, &[]);
    }
    for pool in pools {
        assert_eq!(pool.stats().live_blocks, 0);
    }
}

fn model_rounds() -> (u64, usize) {
    if cfg!(miri) { (1, 40) } else { (120, 300) }
}

// ----- the model, on each kind of pool ------------------------------------------------

#[test]
fn model_two_block_pools_with_scopes_swapped_between_them() {
    let (seeds, steps) = model_rounds();
    for seed in 0..seeds {
        let a = BlockPool::with_block_size(SMALL);
        let b = BlockPool::with_block_size(SMALL);
        run_model(&[&a, &b], seed, steps);
    }
}

#[test]
fn model_one_block_pool_alone() {
    let (seeds, steps) = model_rounds();
    for seed in 0..seeds {
        let a = BlockPool::with_block_size(SMALL);
        run_model(&[&a], 1000 + seed, steps);
    }
}

#[test]
fn model_a_block_pool_and_two_thread_caches_of_one_shared_pool() {
    let (seeds, steps) = model_rounds();
    for seed in 0..seeds {
        let shared = SharedBlockPool::with_block_size(SMALL);
        {
            let pool = BlockPool::with_block_size(SMALL);
            let l1 = shared.local();
            let l2 = shared.local();
            run_model(&[&pool, &l1, &l2], 2000 + seed, steps);
            // Every standard block is in one place: a thread cache or the shared list.
            let s = shared.stats();
            let cached = l1.stats().cached_blocks + l2.stats().cached_blocks;
            assert_eq!(s.blocks, s.cached_blocks + cached, "{s:?}");
        }
        let s = shared.stats();
        assert_eq!(s.blocks, s.cached_blocks, "the thread caches gave every block back");
    }
}

// ----- targeted programs ----------------------------------------------------------------

/// Checks that the pool's counters match the given scopes' and every record's bytes.
fn check_pool(pool: &dyn PoolApi, scopes: &[(ScopeStats, &[Rec])]) {
    let s = pool.stats();
    let blocks: usize = scopes.iter().map(|(sc, _)| sc.blocks).sum();
    let bytes: usize = scopes.iter().map(|(sc, _)| sc.reserved_bytes).sum();
    assert_eq!((s.live_blocks, s.live_bytes), (blocks, bytes), "{s:?}");
    assert!(s.cached_blocks <= pool.max_free(), "{s:?} max_free {}", pool.max_free());
    assert!(s.peak_live_blocks >= s.live_blocks, "{s:?}");
    for (_, recs) in scopes {
        recs.iter().for_each(Rec::check);
    }
}

/// All orders of `n` items.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut all = Vec::new();
    for rest in permutations(n - 1) {
        for at in 0..=rest.len() {
            let mut p = rest.clone();
            p.insert(at, n - 1);
            all.push(p);
        }
    }
    all
}

#[test]
fn three_scopes_dropped_in_every_order_under_every_small_max_free() {
    let mut id = 0;
    let max_frees: &[usize] =
        if cfg!(miri) { &[0, 1, usize::MAX] } else { &[0, 1, 2, 3, usize::MAX] };
    // Under Miri, a third of the drop orders (each order's first scope differs).
    let orders = permutations(3).into_iter().step_by(if cfg!(miri) { 3 } else { 1 });
    for &max_free in max_frees {
        for order in orders.clone() {
            // Sizes: one block (the hot one), a spill into a second, a dedicated block.
            for shape in 0..3 {
                let pool = BlockPool::with_block_size(SMALL);
                let block = pool.block_size();
                pool.scope().alloc(0_u8); // one block, hot
                pool.set_max_free(max_free);
                let scopes = [pool.scope(), pool.scope(), pool.scope()];
                let mut recs: [Vec<Rec>; 3] = Default::default();
                for (n, scope) in scopes.iter().enumerate() {
                    id += 1;
                    recs[n].extend(write(scope, 16, id));
                    // Under Miri, which fills slowly, just past what the block holds.
                    let len = match (shape + n) % 3 {
                        0 => 32,
                        1 => block * 3 / 4,
                        _ if cfg!(miri) => block,
                        _ => block * 2,
                    };
                    id += 1;
                    recs[n].extend(write(scope, len, id));
                }
                let mut scopes: Vec<Option<Scope<'_>>> = scopes.into_iter().map(Some).collect();
                for &i in &order {
                    scopes[i] = None;
                    let alive: Vec<(ScopeStats, &[Rec])> = scopes
                        .iter()
                        .zip(&recs)
                        .filter_map(|(s, r)| s.as_ref().map(|s| (s.stats(), r.as_slice())))
                        .collect();
                    check_pool(&pool, &alive);
                }
                // The cache serves three new scopes with distinct blocks.
                let again = [pool.scope(), pool.scope(), pool.scope()];
                let mut again_recs: [Vec<Rec>; 3] = Default::default();
                for (n, scope) in again.iter().enumerate() {
                    id += 1;
                    again_recs[n].extend(write(scope, block / 2, id));
                }
                let alive: Vec<(ScopeStats, &[Rec])> =
                    again.iter().zip(&again_recs).map(|(s, r)| (s.stats(), r.as_slice())).collect();
                check_pool(&pool, &alive);
                drop(again);
                let s = pool.stats();
                assert_eq!(s.live_blocks, 0);
                assert!(s.cached_blocks <= max_free.min(3), "{s:?}");
            }
        }
    }
}

#[test]
fn the_hot_block_is_never_lent_to_two_live_scopes() {
    let pool = BlockPool::with_block_size(SMALL);
    let mut id = 0;
    for round in 0..scaled(50) {
        let a = pool.scope();
        id += 1;
        let ra = write(&a, 64, id).unwrap();
        let b = pool.scope();
        id += 1;
        let rb = write(&b, 64, id).unwrap();
        // `a` or `b` goes back first; the next scope may take its block, not the other's.
        let (keep, rk) = if round % 2 == 0 {
            drop(a);
            (b, rb)
        } else {
            drop(b);
            (a, ra)
        };
        let c = pool.scope();
        id += 1;
        let rc = write(&c, 64, id).unwrap();
        let d = keep.scope(); // a child, which may take a block of its own
        id += 1;
        let rd = write(&d, 64, id).unwrap();
        for r in [rk, rc, rd] {
            r.check();
        }
        check_pool(&pool, &[(keep.stats(), &[rk]), (c.stats(), &[rc]), (d.stats(), &[rd])]);
        drop(d);
        if round % 3 == 0 {
            drop(keep);
            drop(c);
        } else {
            drop(c);
            drop(keep);
        }
        assert_eq!(pool.stats().live_blocks, 0);
    }
    assert_eq!(pool.stats().system_allocations, 3, "three blocks serve every round");
}

#[test]
fn max_free_reserve_and_trim_at_every_point_while_the_hot_block_is_lent() {
    type Control = fn(&BlockPool);
    let controls: [Control; 8] = [
        |p| p.set_max_free(0),
        |p| p.set_max_free(1),
        |p| p.set_max_free(2),
        |p| {
            p.trim();
        },
        |p| p.reserve(1).unwrap(),
        |p| p.reserve(2).unwrap(),
        |p| p.set_max_free(usize::MAX),
        |p| p.reserve(0).unwrap(),
    ];
    for point in 0..6 {
        for (c, control) in controls.iter().enumerate() {
            let seconds = [None, Some((c + 3) % controls.len())];
            // Under Miri, one of the two per point and control, alternating: every control
            // still runs at every point, alone at three points and followed by its second
            // control at the other three (96 runs natively, 48 under Miri).
            let seconds = if cfg!(miri) { &seconds[(point + c) % 2..][..1] } else { &seconds[..] };
            for &second in seconds {
                let pool = BlockPool::with_block_size(SMALL);
                pool.scope().alloc(0_u8); // the hot block
                let run = |at: usize| {
                    if at == point {
                        control(&pool);
                        if let Some(s) = second {
                            controls[s](&pool);
                        }
                    }
                };
                run(0);
                let sa = pool.scope(); // lent the hot block, or not
                let ra = write(&sa, 100, 1).unwrap();
                run(1);
                let sb = pool.scope();
                let rb = write(&sb, 100, 2).unwrap();
                run(2);
                check_pool(&pool, &[(sa.stats(), &[ra]), (sb.stats(), &[rb])]);
                drop(sb);
                run(3);
                check_pool(&pool, &[(sa.stats(), &[ra])]);
                let sc = pool.scope();
                let rc = write(&sc, 100, 3).unwrap();
                run(4);
                check_pool(&pool, &[(sa.stats(), &[ra]), (sc.stats(), &[rc])]);
                drop(sa);
                run(5);
                check_pool(&pool, &[(sc.stats(), &[rc])]);
                drop(sc);
                check_pool(&pool, &[]);
                // And the cache still serves distinct blocks.
                let sd = pool.scope();
                let se = pool.scope();
                let (rd, re) = (write(&sd, 100, 4).unwrap(), write(&se, 100, 5).unwrap());
                check_pool(&pool, &[(sd.stats(), &[rd]), (se.stats(), &[re])]);
            }
        }
    }
}

#[test]
fn scopes_swapped_between_a_block_pool_and_a_thread_cache_go_home() {
    let shared = SharedBlockPool::with_block_size(SMALL);
    let local = shared.local();
    let pool = BlockPool::with_block_size(SMALL);
    assert_eq!(pool.block_size(), local.block_size());
    pool.scope().alloc(0_u8);
    local.scope().alloc(0_u8);
    let (pool_hot, local_hot) = {
        let a = pool.scope();
        let b = local.scope();
        (core::ptr::from_ref(a.alloc(0_u8)).addr(), core::ptr::from_ref(b.alloc(0_u8)).addr())
    };
    for round in 0..scaled(20) {
        let mut a = pool.scope(); // the pool's hot block
        let mut b = local.scope(); // the thread cache's hot block
        let ra = write(&a, 50, 1).unwrap();
        let rb = write(&b, 50, 2).unwrap();
        std::mem::swap(&mut a, &mut b);
        // `a` now draws from the thread cache and holds its block.
        let ra2 = write(&a, 50, 3).unwrap();
        let rb2 = write(&b, 50, 4).unwrap();
        check_pool(&local, &[(a.stats(), &[rb, ra2])]);
        check_pool(&pool, &[(b.stats(), &[ra, rb2])]);
        if round % 2 == 0 {
            drop(a);
            drop(b);
        } else {
            drop(b);
            drop(a);
        }
        // Each block went back to its own cache, into its hot slot.
        let (ps, ls) = (pool.stats(), local.stats());
        assert_eq!((ps.live_blocks, ps.cached_blocks), (0, 1), "{ps:?}");
        assert_eq!((ls.live_blocks, ls.cached_blocks), (0, 1), "{ls:?}");
        let a = pool.scope();
        let b = local.scope();
        assert_eq!(core::ptr::from_ref(a.alloc(0_u8)).addr(), pool_hot);
        assert_eq!(core::ptr::from_ref(b.alloc(0_u8)).addr(), local_hot);
    }
    assert_eq!(pool.stats().system_allocations, 1);
    assert_eq!(shared.stats().system_allocations, 1);
}

#[test]
fn a_scope_limit_gives_the_lent_hot_block_back_and_another_scope_takes_it() {
    let pool = BlockPool::with_block_size(SMALL);
    pool.scope().alloc(0_u8);
    let a = pool.scope(); // lent the hot block, unused
    a.set_limit(Some(100)); // below a block: the unused block goes back at once
    assert_eq!(a.stats().blocks, 0);
    assert_eq!(pool.stats().cached_blocks, 1);
    let b = pool.scope(); // takes it
    let rb = write(&b, 200, 1).unwrap();
    // `a` gets a small block of its own under its limit; the two never share.
    let ra = write(&a, 40, 2).unwrap();
    assert!(write(&a, 200, 3).is_none(), "past the scope's limit");
    check_pool(&pool, &[(a.stats(), &[ra]), (b.stats(), &[rb])]);
    drop(b);
    let c = pool.scope();
    let rc = write(&c, 200, 4).unwrap();
    check_pool(&pool, &[(a.stats(), &[ra]), (c.stats(), &[rc])]);
    drop(a); // a small block: freed, not cached
    drop(c);
    let s = pool.stats();
    assert_eq!((s.live_blocks, s.cached_blocks, s.dedicated_blocks), (0, 1, 0), "{s:?}");
}

#[test]
fn a_pool_limit_while_the_hot_block_is_lent_counts_it_as_held() {
    let pool = BlockPool::with_block_size(SMALL);
    let block = pool.block_size();
    pool.scope().alloc(0_u8);
    let a = pool.scope();
    let ra = write(&a, 10, 1).unwrap();
    pool.set_limit(Some(block)); // exactly the lent block
    let b = pool.scope();
    assert!(write(&b, 10, 2).is_none(), "the lent block counts against the limit");
    assert!(pool.reserve(1).is_err());
    drop(a); // back into the slot
    let rb = write(&b, 10, 3).unwrap(); // `b` takes it: no new block
    check_pool(&pool, &[(b.stats(), &[rb])]);
    let c = pool.scope();
    assert!(write(&c, 10, 4).is_none());
    drop(c);
    drop(b);
    assert_eq!(pool.stats().system_allocations, 1);
    let _ = ra;
}

#[test]
fn a_panic_inside_scoped_with_a_child_on_the_hot_block_keeps_the_cache_sound() {
    let pool = BlockPool::with_block_size(SMALL);
    let block = pool.block_size();
    pool.scope().alloc(0_u8); // the hot block
    let mut outer = pool.scope(); // lent it
    let r0 = write(&outer, 64, 1).unwrap();
    let mut kept = Vec::new();
    for round in 0..scaled(20) {
        let before = pool.stats();
        let result = catch_unwind(AssertUnwindSafe(|| {
            outer.scoped(|s| {
                let child = s.scope(); // the hot block when one is cached
                let rc = write(&child, 128, 100 + round as u32).unwrap();
                let rs =
                    write(s, if round % 2 == 0 { 64 } else { block }, 200 + round as u32).unwrap();
                kept.push(rs);
                rc.check();
                assert!(round % 3 != 0, "panic on purpose in round {round}");
            });
        }));
        if result.is_ok() {
            kept.pop(); // rewound: its bytes may be handed out again
        }
        r0.check();
        kept.iter().for_each(Rec::check);
        let s = pool.stats();
        assert_eq!(s.live_blocks, outer.stats().blocks, "{s:?} before {before:?}");
        assert!(s.peak_live_blocks >= s.live_blocks);
    }
    outer.reset();
    kept.clear();
    let r1 = write(&outer, 64, 2).unwrap();
    check_pool(&pool, &[(outer.stats(), &[r1])]);
    drop(outer);
    assert_eq!(pool.stats().live_blocks, 0);
}

#[test]
fn a_lone_standard_block_given_back_through_the_allocator_returns_to_the_slot() {
    let pool = BlockPool::with_block_size(SMALL);
    let block = pool.block_size();
    let cap = block - 32;
    pool.scope().alloc(0_u8); // the hot block
    let filler = pool.scope();
    filler.alloc(0_u8); // a second block, lent the hot one: the slot keeps its address
    let a = pool.scope();
    let ra = write_raw(&a, Layout::from_size_align(cap / 4, 8).unwrap(), 1).unwrap();
    // More than the room left but less than a block: a standard block with less room
    // after it than the current one, so it is retired at once (a lone allocation).
    let rb = write_raw(&a, Layout::from_size_align(cap * 7 / 8, 8).unwrap(), 2).unwrap();
    let live = pool.stats().live_blocks;
    // SAFETY: the allocation just made, of this layout, not used again.
    unsafe { (&a).deallocate(NonNull::new(rb.ptr.cast_mut()).unwrap(), rb.layout.unwrap()) };
    assert_eq!(pool.stats().live_blocks, live - 1, "the lone block went back");
    let b = pool.scope();
    let rb2 = write(&b, cap / 2, 3).unwrap();
    check_pool(&pool, &[(filler.stats(), &[]), (a.stats(), &[ra]), (b.stats(), &[rb2])]);
    drop(filler);
    drop(a);
    drop(b);
    let s = pool.stats();
    assert_eq!((s.live_blocks, s.cached_blocks), (0, 3), "{s:?}");
}

#[test]
fn thread_caches_on_several_threads_never_share_a_block() {
    let shared = SharedBlockPool::with_block_size(SMALL);
    let threads = if cfg!(miri) { 2 } else { 4 };
    let rounds = scaled(200);
    std::thread::scope(|s| {
        for t in 0..threads {
            let shared = &shared;
            s.spawn(move || {
                let local = shared.local();
                local.set_max_free(1 + t % 3);
                let mut rng = Rng::new(77 + t as u64);
                let block = local.block_size();
                let mut lives: Vec<(Scope<'_>, Vec<Rec>)> = Vec::new();
                let mut id = (t as u32) << 24;
                for _ in 0..rounds {
                    match rng.below(6) {
                        0 | 1 if lives.len() < 4 => lives.push((local.scope(), Vec::new())),
                        2 if !lives.is_empty() => {
                            let i = rng.below(lives.len());
                            drop(lives.remove(i));
                        }
                        3 if !lives.is_empty() => {
                            let i = rng.below(lives.len());
                            lives[i].1.clear();
                            lives[i].0.reset();
                        }
                        5 => {
                            local.set_max_free([0, 1, 2, usize::MAX][rng.below(4)]);
                        }
                        _ if !lives.is_empty() => {
                            let i = rng.below(lives.len());
                            id += 1;
                            let len = some_len(&mut rng, block);
                            let rec = write(&lives[i].0, len, id);
                            lives[i].1.extend(rec);
                        }
                        _ => {}
                    }
                    let mut blocks = 0;
                    for (scope, recs) in &lives {
                        recs.iter().for_each(Rec::check);
                        blocks += scope.stats().blocks;
                    }
                    assert_eq!(local.stats().live_blocks, blocks);
                }
            });
        }
    });
    let s = shared.stats();
    assert_eq!(s.blocks, s.cached_blocks, "every block came back: {s:?}");
}

/// A thread cache with a small `max_free` that runs empty takes no more of a refill
/// batch than `max_free` lets it keep (P4; a refill once listed the whole batch).
#[test]
fn a_refill_never_fills_a_thread_cache_past_max_free() {
    let shared = SharedBlockPool::with_block_size(SMALL);
    shared.reserve(REFILL_BATCH).unwrap();
    let local = shared.local();
    local.set_max_free(1);
    let scope = local.scope();
    scope.alloc(0_u8); // the cache is empty: a refill
    let s = local.stats();
    drop(scope);
    assert!(s.cached_blocks <= local.max_free(), "{} cached, max_free 1", s.cached_blocks);
}

#[test]
fn a_size_class_pool_carving_from_lent_hot_blocks_never_hands_out_a_chunk_twice() {
    // A `SizeClassPool` carves its classes from an inner `BlockPool` (max_free 2): each
    // class's newest block may be the lent hot one, and an emptied class gives its
    // blocks back (high water 0) while other classes keep theirs.
    let pool = arena_kit::SizeClassPool::new();
    pool.set_high_water(0);
    let mut rng = Rng::new(5);
    let mut live: Vec<(Rec, Layout)> = Vec::new();
    let sizes = [8, 48, 256, 1024];
    for id in 0..(if cfg!(miri) { 60 } else { 3000 }) {
        match rng.below(8) {
            0..=3 => {
                let layout = Layout::from_size_align(sizes[rng.below(sizes.len())], 8).unwrap();
                let p = pool.allocate(layout).unwrap();
                live.push((Rec::fill(p.as_ptr(), layout.size(), id, None), layout));
            }
            4..=6 if !live.is_empty() => {
                // Often a whole class at once, so that it empties and gives blocks back.
                let size = live[rng.below(live.len())].1.size();
                let all = rng.chance(3);
                let mut k = 0;
                while k < live.len() {
                    if live[k].1.size() == size && (all || rng.chance(2)) {
                        let (rec, layout) = live.swap_remove(k);
                        rec.check();
                        // SAFETY: from this pool with this layout, not used again.
                        unsafe {
                            pool.deallocate(NonNull::new(rec.ptr.cast_mut()).unwrap(), layout);
                        };
                    } else {
                        k += 1;
                    }
                }
            }
            _ => {
                pool.trim();
            }
        }
        if id % 16 == 0 || cfg!(miri) {
            for (rec, _) in &live {
                rec.check();
            }
        }
        assert_eq!(pool.stats().live_chunks, live.len());
    }
    for (rec, layout) in live.drain(..) {
        rec.check();
        // SAFETY: from this pool with this layout, not used again.
        unsafe { pool.deallocate(NonNull::new(rec.ptr.cast_mut()).unwrap(), layout) };
    }
    pool.trim();
    assert_eq!(pool.stats().held_bytes, 0);
}
