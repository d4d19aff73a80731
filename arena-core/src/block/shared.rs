//! [`SharedBlockPool`]: one block pool for scopes on many threads, with a cache per
//! thread ([`LocalBlockPool`]) so that the fast path takes no lock.
//!
//! Seed 002 measured its pools "with and without locks"; seed 000's `BlockPool` is
//! unlocked. Here the unlocked [`BlockPool`] stays the default (`!Sync`, no atomics), and
//! this module is the locked flavour, built as a two-level cache (the magazine design of
//! Bonwick's slab allocator and of tcmalloc's thread caches):
//!
//! ```text
//!   thread 1: LocalBlockPool (a BlockPool: hot slot + list, no lock) --.
//!   thread 2: LocalBlockPool (a BlockPool: hot slot + list, no lock) --+-- SharedBlockPool
//!   ...                                                                 |   Mutex<list>
//!                                                                      '-- the system
//! ```
//!
//! - A scope of a [`LocalBlockPool`] is an ordinary [`Scope`](crate::Scope): it takes and
//!   gives back blocks through the local cache exactly as with a `BlockPool`, the same
//!   code, with no lock and no atomic operation.
//! - When the local cache is empty it takes a batch of up to [`REFILL_BATCH`] blocks
//!   from the shared list under one lock (or a new block from the system if the list is
//!   empty); when it is full (its `max_free`, [`LOCAL_MAX_FREE`] by default) it gives
//!   the block and half its list back under one lock. A local cache that drops, or is
//!   trimmed, gives every cached block to the shared list.
//! - Dedicated (oversize) blocks never enter either cache: they go to the system.
//! - The shared list is capped by [`SharedBlockPool::set_max_free`];
//!   [`SharedBlockPool::trim`] frees it.
//!
//! # Why it is sound
//!
//! - A block is in exactly one place at a time: a scope, a local cache or the shared
//!   list. A [`Block`] is an owned token and every list is a `BlockList` owning its
//!   blocks, so moving one between a cache and the shared list is a move in the type
//!   system, done under the list's `Mutex`: no block is handed out twice and none is
//!   lost. The loom model at the bottom of this file checks this under every
//!   interleaving of two threads and a concurrent `trim`, and
//!   `tests/all/block/shared_block_pool.rs` stresses it.
//! - `SharedBlockPool` is `Send` and `Sync` by composition (a `Mutex` over a list of
//!   blocks, which are `Send`, and atomics): no `unsafe impl` here.
//! - A `LocalBlockPool<'s>` holds `&'s SharedBlockPool` and gives its blocks back to it
//!   in its `Drop`, so dropck requires the shared pool to be alive whenever a cache
//!   drops, whatever the declaration order, struct nesting or `mem::swap`
//!   (`tests/ui/local_block_pool_*.rs`). It is `Send` (a thread may hand its cache to
//!   another) and `!Sync` (its cache is unsynchronised, like `BlockPool`'s).

use core::fmt;

use crate::block::header::{BLOCK_ALIGN, Block, BlockList};
use crate::block::local::LocalBlockPool;
use crate::block::pool::{BlockCache, DEFAULT_BLOCK_SIZE, Origin, Upstream, standard_block_size};
use crate::error::AllocError;
use crate::sync::{AtomicU64, AtomicUsize, Mutex, Ordering, lock};

/// Blocks a thread's cache keeps before it gives some back to the shared pool.
///
/// A tuning value, exported for tests and benchmarks that size against it: not a promise,
/// it may change in any release.
pub const LOCAL_MAX_FREE: usize = 16;

/// Blocks a thread's cache takes from the shared pool at once when it runs empty.
///
/// A tuning value, exported for tests and benchmarks that size against it: not a promise,
/// it may change in any release.
pub const REFILL_BATCH: usize = 8;

/// A block pool shared by scopes on many threads: each thread takes a
/// [`LocalBlockPool`] (a cache with no lock on its fast path) with [`local`](Self::local).
///
/// # What is freed when
///
/// - Blocks move between thread caches and the shared list in batches; a thread's
///   cache gives its blocks to the shared list when it drops.
/// - The shared list keeps at most [`max_free`](Self::max_free) blocks (unlimited by
///   default) and frees the rest; [`trim`](Self::trim) frees it all; dropping the pool
///   frees it too (no cache or scope can outlive the pool: they borrow it).
///
/// # Examples
///
/// ```
/// use arena_kit::SharedBlockPool;
///
/// let shared = SharedBlockPool::new();
/// std::thread::scope(|s| {
///     for t in 0..2_u64 {
///         let shared = &shared;
///         s.spawn(move || {
///             let local = shared.local(); // this thread's cache
///             for i in 0..1000 {
///                 let scope = local.scope();
///                 let x = scope.alloc(t * 1000 + i);
///                 assert_eq!(*x, t * 1000 + i);
///             }
///         });
///     }
/// });
/// let stats = shared.stats();
/// assert_eq!(stats.cached_blocks, stats.blocks); // every block came back
/// assert!(stats.blocks <= 2);
/// ```
pub struct SharedBlockPool {
    /// Empty standard blocks (`BlockList` is `Send`: blocks own plain bytes).
    list: Mutex<BlockList>,
    block_size: usize,
    max_free: AtomicUsize,
    /// Standard blocks allocated from the system and not yet freed, wherever they are.
    total: AtomicUsize,
    system_allocations: AtomicU64,
}

/// A snapshot of a [`SharedBlockPool`]'s counters.
///
/// # Examples
///
/// ```
/// let shared = arena_kit::SharedBlockPool::new();
/// shared.reserve(2).unwrap();
/// let s = shared.stats();
/// assert_eq!((s.blocks, s.cached_blocks, s.system_allocations), (2, 2, 2));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct SharedBlockPoolStats {
    /// Bytes of every standard block.
    pub block_size: usize,
    /// Standard blocks held from the system: in the shared list, in thread caches, or
    /// in use by scopes.
    pub blocks: usize,
    /// Of those, blocks in the shared list.
    pub cached_blocks: usize,
    /// Standard blocks ever requested from the system allocator.
    pub system_allocations: u64,
}

impl SharedBlockPool {
    /// A shared pool of [`DEFAULT_BLOCK_SIZE`]-byte blocks; allocates nothing yet.
    ///
    /// # Examples
    ///
    /// ```
    /// let shared = arena_kit::SharedBlockPool::new();
    /// assert_eq!(shared.stats().blocks, 0);
    /// ```
    #[must_use]
    pub fn new() -> Self {
        Self::with_exact_block_size(DEFAULT_BLOCK_SIZE)
    }

    /// A shared pool whose blocks hold at least `bytes` bytes, rounded as
    /// [`BlockPool::with_block_size`](crate::BlockPool::with_block_size) rounds them (whole pages with malloc's header).
    ///
    /// # Panics
    ///
    /// If `bytes` plus the header cannot be a layout.
    ///
    /// # Examples
    ///
    /// ```
    /// let shared = arena_kit::SharedBlockPool::with_block_size(5_000);
    /// assert_eq!(shared.block_size(), arena_kit::BlockPool::with_block_size(5_000).block_size());
    /// ```
    #[must_use]
    #[track_caller]
    pub fn with_block_size(bytes: usize) -> Self {
        Self::with_exact_block_size(standard_block_size(bytes))
    }

    fn with_exact_block_size(block_size: usize) -> Self {
        SharedBlockPool {
            list: Mutex::new(BlockList::new()),
            block_size,
            max_free: AtomicUsize::new(usize::MAX),
            total: AtomicUsize::new(0),
            system_allocations: AtomicU64::new(0),
        }
    }

    /// A cache of this pool for the calling thread (or whoever holds it): make scopes
    /// with [`scope`](LocalBlockPool::scope) through it, as with a [`BlockPool`](crate::BlockPool).
    ///
    /// Its `max_free` starts at [`LOCAL_MAX_FREE`]; `trim` on it gives its cached blocks
    /// to this pool rather than to the system. It has no limit unless one is set on it.
    ///
    /// # Examples
    ///
    /// ```
    /// let shared = arena_kit::SharedBlockPool::new();
    /// let local = shared.local();
    /// let scope = local.scope();
    /// assert_eq!(*scope.alloc(5), 5);
    /// ```
    #[must_use]
    pub fn local(&self) -> LocalBlockPool<'_> {
        LocalBlockPool::new(BlockCache::new(self.block_size, LOCAL_MAX_FREE, Origin::Shared(self)))
    }

    /// Total bytes of a standard block, header included.
    ///
    /// # Examples
    ///
    /// ```
    /// let shared = arena_kit::SharedBlockPool::new();
    /// assert_eq!(shared.block_size(), arena_kit::block::DEFAULT_BLOCK_SIZE);
    /// ```
    #[must_use]
    pub fn block_size(&self) -> usize {
        self.block_size
    }

    /// How many blocks the shared list keeps at most.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(arena_kit::SharedBlockPool::new().max_free(), usize::MAX);
    /// ```
    #[must_use]
    pub fn max_free(&self) -> usize {
        self.max_free.load(Ordering::Relaxed)
    }

    /// Caps the shared list at `max_free` blocks, freeing any excess now.
    ///
    /// # Examples
    ///
    /// ```
    /// let shared = arena_kit::SharedBlockPool::new();
    /// shared.reserve(4).unwrap();
    /// shared.set_max_free(1);
    /// assert_eq!(shared.stats().cached_blocks, 1);
    /// ```
    pub fn set_max_free(&self, max_free: usize) {
        self.max_free.store(max_free, Ordering::Relaxed);
        let excess = {
            let mut list = lock(&self.list);
            let extra = list.len().saturating_sub(max_free);
            list.split_front(extra)
        };
        self.free_list(excess);
    }

    /// Fills the shared list with system blocks until it holds at least `blocks`
    /// (raising [`max_free`](Self::max_free) if it was lower): the pre-allocated pool.
    ///
    /// # Errors
    ///
    /// [`AllocError::OutOfMemory`]; the blocks allocated before stay listed.
    ///
    /// # Examples
    ///
    /// ```
    /// let shared = arena_kit::SharedBlockPool::new();
    /// shared.reserve(3)?;
    /// assert_eq!(shared.stats().cached_blocks, 3);
    /// # Ok::<(), arena_kit::AllocError>(())
    /// ```
    pub fn reserve(&self, blocks: usize) -> Result<(), AllocError> {
        self.max_free.fetch_max(blocks, Ordering::Relaxed);
        while lock(&self.list).len() < blocks {
            let block = self.new_block()?;
            lock(&self.list).push(block);
        }
        Ok(())
    }

    /// Frees every block of the shared list; returns how many. Blocks in thread caches
    /// and in use are untouched.
    ///
    /// # Examples
    ///
    /// ```
    /// let shared = arena_kit::SharedBlockPool::new();
    /// shared.reserve(2).unwrap();
    /// assert_eq!(shared.trim(), 2);
    /// assert_eq!(shared.stats().blocks, 0);
    /// ```
    pub fn trim(&self) -> usize {
        let all = core::mem::take(&mut *lock(&self.list));
        self.free_list(all)
    }

    /// The pool's counters now (a consistent snapshot of the list; the totals may move
    /// while other threads work).
    ///
    /// # Examples
    ///
    /// ```
    /// let shared = arena_kit::SharedBlockPool::new();
    /// {
    ///     let local = shared.local();
    ///     local.scope().alloc(1_u8);
    /// } // the local cache gave its block back
    /// let s = shared.stats();
    /// assert_eq!((s.blocks, s.cached_blocks), (1, 1));
    /// ```
    #[must_use]
    pub fn stats(&self) -> SharedBlockPoolStats {
        let cached = lock(&self.list).len();
        SharedBlockPoolStats {
            block_size: self.block_size,
            blocks: self.total.load(Ordering::Relaxed),
            cached_blocks: cached,
            system_allocations: self.system_allocations.load(Ordering::Relaxed),
        }
    }

    /// A new standard block from the system, counted.
    fn new_block(&self) -> Result<Block, AllocError> {
        let block = Block::allocate(self.block_size, BLOCK_ALIGN)?;
        self.total.fetch_add(1, Ordering::Relaxed);
        self.system_allocations.fetch_add(1, Ordering::Relaxed);
        Ok(block)
    }

    /// Frees blocks unlinked from the list (outside the lock); returns how many.
    fn free_list(&self, mut blocks: BlockList) -> usize {
        let count = blocks.len();
        while let Some(block) = blocks.pop() {
            // SAFETY: the blocks were unlinked from the shared list under its lock, so
            // this thread owns them; listed blocks hold no values.
            unsafe { block.free() };
        }
        self.total.fetch_sub(count, Ordering::Relaxed);
        count
    }
}

// The protocol of a thread's cache with this pool: batches in under one lock, batches
// out under one lock, the list capped at `max_free`.
impl Upstream for SharedBlockPool {
    fn refill_batch(&self) -> usize {
        REFILL_BATCH
    }

    fn take(&self, want: usize) -> Result<(BlockList, usize), AllocError> {
        let batch = lock(&self.list).split_front(want.max(1));
        if !batch.is_empty() {
            return Ok((batch, 0));
        }
        let mut fresh = BlockList::new();
        fresh.push(self.new_block()?);
        Ok((fresh, 1))
    }

    fn allocate_block(&self) -> Result<Block, AllocError> {
        self.new_block()
    }

    unsafe fn give(&self, blocks: BlockList) {
        debug_assert!(
            blocks.iter().all(|b| b.size() == self.block_size && b.align() == BLOCK_ALIGN),
            "only standard blocks of this pool come back"
        );
        let max_free = self.max_free.load(Ordering::Relaxed);
        let excess = {
            let mut list = lock(&self.list);
            list.prepend(blocks);
            let extra = list.len().saturating_sub(max_free);
            list.split_front(extra)
        };
        self.free_list(excess);
    }
}

impl Default for SharedBlockPool {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for SharedBlockPool {
    fn drop(&mut self) {
        self.trim();
    }
}

impl fmt::Debug for SharedBlockPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SharedBlockPool")
            .field("stats", &self.stats())
            .field("max_free", &self.max_free())
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, loom))]
mod loom_model {
    use loom::sync::Arc;
    use loom::thread;

    use super::SharedBlockPool;

    /// Every block the shared list holds, in order, checked for repeats.
    fn listed(shared: &SharedBlockPool) -> Vec<usize> {
        let list = crate::sync::lock(&shared.list);
        let blocks: Vec<usize> = list.iter().map(|b| b.base().addr()).collect();
        assert_eq!(blocks.len(), list.len(), "the list's count matches its links");
        let mut sorted = blocks.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), blocks.len(), "a block is listed twice");
        blocks
    }

    #[test]
    fn two_threads_and_a_trim_never_share_or_lose_a_block() {
        // Three preemptions (loom suggests two or three) find a seeded race in the list
        // (a pop split over two locks) in a second; the unbounded search takes minutes.
        let mut model = loom::model::Builder::new();
        model.preemption_bound = Some(3);
        model.check(|| {
            let shared = Arc::new(SharedBlockPool::with_block_size(64));
            shared.reserve(1).unwrap();
            let workers: Vec<_> = (0..2_u64)
                .map(|t| {
                    let shared = Arc::clone(&shared);
                    thread::spawn(move || {
                        let local = shared.local();
                        // A one-block cache: every second block goes back to the list.
                        local.set_max_free(1);
                        let a = local.scope();
                        let x = a.alloc([t; 4]);
                        let b = local.scope();
                        let y = b.alloc([t + 10; 4]);
                        // Each scope got a block nobody else writes.
                        assert_eq!((*x, *y), ([t; 4], [t + 10; 4]));
                        drop((a, b));
                    })
                })
                .collect();
            shared.trim();
            for w in workers {
                w.join().unwrap();
            }
            let listed = listed(&shared);
            let stats = shared.stats();
            assert_eq!(stats.blocks, listed.len(), "every block is back in the list: none lost");
            assert_eq!(shared.trim(), listed.len());
            assert_eq!(shared.stats().blocks, 0);
        });
    }
}
