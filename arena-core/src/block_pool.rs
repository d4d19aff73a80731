//! [`BlockPool`]: recycles fixed-size blocks between many short-lived scopes.
//!
//! This is ScopeAlloc's `BlockPool` and APR's allocator free list (seed 000): a scope that
//! ends hands its blocks back here instead of to `free`, and the next scope takes them
//! from here instead of from `malloc`, so a scope that allocates one `i32` costs a list pop
//! and a list push rather than a system allocation.
//!
//! Design:
//! - Every standard block has the same size, [`BlockPool::block_size`], chosen so that
//!   the block plus the system allocator's header fills whole pages (seed 001).
//! - A request that does not fit a standard block gets a dedicated block sized (and
//!   aligned) for it; it goes back to the system when its scope ends, never to the cache.
//! - The cache is a singly linked list threaded through the blocks' own headers: no side
//!   allocation, O(1) take and give back.
//! - `max_free` caps how many blocks the cache keeps (APR's `max_free`); [`trim`] gives the
//!   whole cache back; [`set_limit`] caps the bytes held from the system, live and cached.
//! - Unlocked: all state is in `Cell`s, so the pool is `!Sync` and pays nothing for
//!   threads. It is `Send`: moving it moves only owned memory (see the `unsafe impl`).
//!
//! [`trim`]: BlockPool::trim
//! [`set_limit`]: BlockPool::set_limit

#![expect(clippy::inline_always, reason = "a W1 scope takes one block: this path must inline")]

use core::alloc::Layout;
use core::cell::Cell;
use core::fmt;
#[cfg(feature = "std")]
use core::ptr::NonNull;

use crate::block::{self, BLOCK_ALIGN, Block, HEADER};
use crate::error::{AllocError, LimitKind};
use crate::raw;
use crate::scope::Scope;
#[cfg(feature = "std")]
use crate::shared_block_pool::{REFILL_BATCH, SharedBlockPool};

/// Bytes of a standard block of [`BlockPool::new`]: two pages less the system
/// allocator's header (8 176 bytes on 64-bit targets), of which 32 are the block header.
pub const DEFAULT_BLOCK_SIZE: usize = 2 * raw::PAGE - raw::MALLOC_OVERHEAD;

/// A cache of fixed-size memory blocks shared by many short-lived [`Scope`]s.
///
/// # What is freed when
///
/// - A scope takes blocks as it needs them and gives every one back when it ends.
/// - Given-back standard blocks stay cached for the next scope, up to
///   [`max_free`](Self::max_free) of them (unlimited by default, as in APR); the rest,
///   and every dedicated (oversize) block, go back to the system at once.
/// - [`trim`](Self::trim) frees the whole cache; dropping the pool frees it too. The
///   borrow checker keeps the pool alive while any of its scopes is.
///
/// # Examples
///
/// ```
/// use arena_core::BlockPool;
///
/// let pool = BlockPool::new();
/// for i in 0..1000 {
///     let scope = pool.scope();
///     let x = scope.alloc(i);
///     *x += 1;
/// } // each scope hands its block back here
/// let stats = pool.stats();
/// assert_eq!(stats.live_blocks, 0);
/// assert_eq!(stats.cached_blocks, 1); // one block served all thousand scopes
/// assert_eq!(stats.system_allocations, 1);
/// ```
pub struct BlockPool {
    /// The most recently given-back block: the next scope takes it without touching any
    /// list or counter, which is what makes a W1 scope (one block, taken and given back)
    /// cost a load and a store at each end. Counts as cached.
    hot: Cell<Option<Block>>,
    /// The rest of the cache, linked through the blocks' headers.
    free: Cell<Option<Block>>,
    /// Blocks in `free`.
    listed: Cell<usize>,
    block_size: usize,
    max_free: Cell<usize>,
    limit: Cell<Option<usize>>,
    /// Standard blocks allocated from the system and not yet freed: live + cached.
    standard_total: Cell<usize>,
    dedicated_live: Cell<usize>,
    dedicated_bytes: Cell<usize>,
    peak_live: Cell<usize>,
    system_allocations: Cell<u64>,
    /// For a thread's cache of a [`SharedBlockPool`]: where standard blocks come from
    /// when the cache is empty and go when it is full, instead of the system. The
    /// [`LocalBlockPool`](crate::LocalBlockPool) that owns this pool borrows the shared
    /// pool for its whole life, so the pointer stays valid.
    #[cfg(feature = "std")]
    upstream: Option<NonNull<SharedBlockPool>>,
}

// Why `Send` holds: a `BlockPool` owns its cached blocks outright (plain bytes, no values
// in them) and its counters; moving it to another thread moves that ownership. Scopes
// borrow the pool, so none can be alive during the move; blocks of a scope leaked with
// `mem::forget` are never touched by the pool again. A thread's cache of a
// `SharedBlockPool` also points at that pool, which is `Sync` and used only through
// `&self`, so calling it from the new thread is as sound as from the old. It stays
// `!Sync`: its `Cell`s are unsynchronised.
// SAFETY: as argued above.
unsafe impl Send for BlockPool {}

/// A snapshot of a [`BlockPool`]'s counters.
///
/// # Examples
///
/// ```
/// use arena_core::BlockPool;
///
/// let pool = BlockPool::new();
/// let scope = pool.scope();
/// scope.alloc([0_u8; 100]);
/// let s = pool.stats();
/// assert_eq!((s.live_blocks, s.cached_blocks, s.peak_live_blocks), (1, 0, 1));
/// assert_eq!(s.live_bytes, pool.block_size());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct PoolStats {
    /// Bytes of every standard block.
    pub block_size: usize,
    /// Blocks held by scopes now, dedicated ones included.
    pub live_blocks: usize,
    /// Of those, dedicated (oversize or over-aligned) blocks.
    pub dedicated_blocks: usize,
    /// Blocks waiting in the cache.
    pub cached_blocks: usize,
    /// Most blocks ever live at once.
    pub peak_live_blocks: usize,
    /// Bytes of the live blocks.
    pub live_bytes: usize,
    /// Bytes of the cached blocks.
    pub cached_bytes: usize,
    /// Blocks ever requested from the system allocator.
    pub system_allocations: u64,
}

impl BlockPool {
    /// A pool of [`DEFAULT_BLOCK_SIZE`]-byte blocks with an unlimited cache and no limit.
    ///
    /// Allocates nothing until the first scope needs a block.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_core::BlockPool::new();
    /// assert_eq!(pool.stats().cached_blocks, 0);
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        Self::with_block_size_unchecked(DEFAULT_BLOCK_SIZE)
    }

    /// A pool whose standard blocks hold at least `bytes` bytes of data (and are at
    /// least a page).
    ///
    /// The block is rounded up so that it and the system allocator's header fill whole
    /// pages (seed 001's lesson): asking for 5 000 bytes gives 8 176-byte blocks on a
    /// 64-bit target, since malloc would have spent those bytes anyway.
    ///
    /// # Panics
    ///
    /// If `bytes` plus the header cannot be a layout (more than `isize::MAX`).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_core::BlockPool::with_block_size(5_000);
    /// assert!(pool.block_capacity() >= 5_000);
    /// assert_eq!((pool.block_size() + 16) % 4096, 0);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn with_block_size(bytes: usize) -> Self {
        let size = bytes
            .checked_add(HEADER)
            .map(|b| b.max(raw::PAGE - raw::MALLOC_OVERHEAD))
            .and_then(raw::page_fill)
            .filter(|&s| s <= isize::MAX as usize - (BLOCK_ALIGN - 1));
        match size {
            Some(size) => Self::with_block_size_unchecked(size),
            None => panic!("arena-kit: a block of {bytes} bytes cannot be allocated"),
        }
    }

    const fn with_block_size_unchecked(block_size: usize) -> Self {
        BlockPool {
            hot: Cell::new(None),
            free: Cell::new(None),
            listed: Cell::new(0),
            block_size,
            max_free: Cell::new(usize::MAX),
            limit: Cell::new(None),
            standard_total: Cell::new(0),
            dedicated_live: Cell::new(0),
            dedicated_bytes: Cell::new(0),
            peak_live: Cell::new(0),
            system_allocations: Cell::new(0),
            #[cfg(feature = "std")]
            upstream: None,
        }
    }

    /// A thread's cache over `shared`: standard blocks come from and go back to it.
    ///
    /// # Safety
    ///
    /// `shared` outlives the returned pool (its owner, `LocalBlockPool<'s>`, borrows it).
    #[cfg(feature = "std")]
    pub(crate) unsafe fn with_upstream(shared: &SharedBlockPool, max_free: usize) -> Self {
        let mut pool = Self::with_block_size_unchecked(shared.block_size());
        pool.max_free = Cell::new(max_free);
        pool.upstream = Some(NonNull::from(shared));
        pool
    }

    /// The shared pool this one caches for, if any.
    #[cfg(feature = "std")]
    #[inline]
    fn upstream(&self) -> Option<&SharedBlockPool> {
        // SAFETY: `with_upstream`'s caller keeps the shared pool alive as long as `self`.
        self.upstream.map(|p| unsafe { p.as_ref() })
    }

    /// Opens a scope that draws its blocks from this pool and gives them back when it ends.
    ///
    /// If the pool has a block that a scope just gave back (its "hot" block), the new
    /// scope starts with it, so its first allocation is a plain bump; otherwise it takes
    /// a block at its first allocation.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_core::BlockPool::new();
    /// let scope = pool.scope();
    /// let s = scope.alloc_str("hello");
    /// assert_eq!(s, "hello");
    /// ```
    #[inline]
    #[must_use]
    pub fn scope(&self) -> Scope<'_> {
        Scope::from_pool(self)
    }

    /// Total bytes of a standard block, header included (what is asked of malloc).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::{BlockPool, DEFAULT_BLOCK_SIZE};
    /// assert_eq!(BlockPool::new().block_size(), DEFAULT_BLOCK_SIZE);
    /// ```
    #[must_use]
    pub fn block_size(&self) -> usize {
        self.block_size
    }

    /// Bytes of a standard block available to values (its size less the 32-byte header).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_core::BlockPool::new();
    /// assert_eq!(pool.block_capacity(), pool.block_size() - 32);
    /// ```
    #[must_use]
    pub fn block_capacity(&self) -> usize {
        self.block_size - HEADER
    }

    /// How many given-back blocks the cache keeps at most.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(arena_core::BlockPool::new().max_free(), usize::MAX);
    /// ```
    #[must_use]
    pub fn max_free(&self) -> usize {
        self.max_free.get()
    }

    /// Caps the cache at `max_free` blocks (APR's `max_free`), freeing any excess now.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_core::BlockPool::new();
    /// pool.reserve(4).unwrap();
    /// pool.set_max_free(1);
    /// assert_eq!(pool.stats().cached_blocks, 1);
    /// ```
    pub fn set_max_free(&self, max_free: usize) {
        self.max_free.set(max_free);
        while self.cached() > max_free {
            self.free_one_cached();
        }
    }

    /// The byte limit on blocks held from the system (live and cached), if any.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_core::BlockPool::new();
    /// pool.set_limit(Some(1 << 20));
    /// assert_eq!(pool.limit(), Some(1 << 20));
    /// ```
    #[must_use]
    pub fn limit(&self) -> Option<usize> {
        self.limit.get()
    }

    /// Limits the bytes of blocks this pool holds from the system, live and cached.
    ///
    /// A scope that needs a new system block past the limit gets
    /// [`AllocError::LimitReached`] from its `try_` methods (and a panic from the others).
    /// Taking a cached block never counts against it. Lowering the limit below what is
    /// held frees nothing; it only stops further growth.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::BlockPool;
    ///
    /// let pool = BlockPool::new();
    /// pool.set_limit(Some(pool.block_size()));
    /// let scope = pool.scope();
    /// scope.alloc(1_u32); // takes the one block the limit allows
    /// let other = pool.scope();
    /// assert!(other.try_alloc(2_u32).is_err());
    /// ```
    pub fn set_limit(&self, limit: Option<usize>) {
        self.limit.set(limit);
    }

    /// Fills the cache with system blocks until it holds at least `blocks`, raising
    /// [`max_free`](Self::max_free) to `blocks` if it was lower (the seed's pre-allocated pool).
    ///
    /// # Errors
    ///
    /// [`AllocError::LimitReached`] or [`AllocError::OutOfMemory`]; the blocks allocated
    /// before the failure stay cached.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_core::BlockPool::new();
    /// pool.reserve(3)?;
    /// assert_eq!(pool.stats().cached_blocks, 3);
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn reserve(&self, blocks: usize) -> Result<(), AllocError> {
        if self.max_free.get() < blocks {
            self.max_free.set(blocks);
        }
        while self.cached() < blocks {
            let block = self.new_standard_block()?;
            self.standard_total.set(self.standard_total.get() + 1);
            self.push_free(block);
        }
        Ok(())
    }

    /// Gives every cached block back to the system; returns how many.
    ///
    /// Live blocks are untouched: scopes keep working and later scopes refill the cache.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_core::BlockPool::new();
    /// pool.reserve(2).unwrap();
    /// assert_eq!(pool.trim(), 2);
    /// assert_eq!(pool.stats().cached_bytes, 0);
    /// ```
    pub fn trim(&self) -> usize {
        let freed = self.cached();
        while self.cached() > 0 {
            self.free_one_cached();
        }
        freed
    }

    /// The pool's counters now.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_core::BlockPool::new();
    /// {
    ///     let scope = pool.scope();
    ///     scope.alloc_slice_fill_copy(100_000, 0_u8); // oversize: a dedicated block
    ///     assert_eq!(pool.stats().dedicated_blocks, 1);
    /// }
    /// let stats = pool.stats();
    /// assert_eq!((stats.live_blocks, stats.cached_blocks), (0, 0));
    /// ```
    #[must_use]
    pub fn stats(&self) -> PoolStats {
        let cached = self.cached();
        let standard_live = self.standard_total.get() - cached;
        let dedicated = self.dedicated_live.get();
        PoolStats {
            block_size: self.block_size,
            live_blocks: standard_live + dedicated,
            dedicated_blocks: dedicated,
            cached_blocks: cached,
            peak_live_blocks: self.peak_live.get(),
            live_bytes: standard_live * self.block_size + self.dedicated_bytes.get(),
            cached_bytes: cached * self.block_size,
            system_allocations: self.system_allocations.get(),
        }
    }

    /// Blocks in the cache: the list and the hot slot.
    #[inline]
    fn cached(&self) -> usize {
        self.listed.get() + usize::from(self.hot.get().is_some())
    }

    /// Bytes held from the system now, live and cached.
    fn held_bytes(&self) -> usize {
        self.standard_total.get() * self.block_size + self.dedicated_bytes.get()
    }

    /// A block whose data can hold `layout`: the hot block, a listed or new standard
    /// block when it fits one, else a dedicated block sized and aligned for it.
    #[inline(always)]
    pub(crate) fn acquire(&self, layout: Layout) -> Result<Block, AllocError> {
        if block::fits_standard(layout, self.block_size) {
            // No counter changes: see `note_live` for why the peak needs none either.
            match self.hot.take() {
                Some(block) => Ok(block),
                None => self.acquire_standard_slow(),
            }
        } else {
            self.acquire_dedicated(layout)
        }
    }

    /// The hot block, if there is one, for a new scope to start with. Its `prev` link is
    /// `None` (cleared when it was given back), so it is a whole chain by itself.
    #[inline]
    pub(crate) fn take_hot(&self) -> Option<Block> {
        self.hot.take()
    }

    /// A standard block from the list or the system; the hot slot is empty.
    #[inline(never)]
    fn acquire_standard_slow(&self) -> Result<Block, AllocError> {
        let block = if let Some(block) = self.free.get() {
            self.free.set(block.prev());
            self.listed.set(self.listed.get() - 1);
            block
        } else {
            #[cfg(feature = "std")]
            if let Some(shared) = self.upstream() {
                let block = self.refill(shared)?;
                self.note_live();
                return Ok(block);
            }
            let block = self.allocate_block(self.block_size, BLOCK_ALIGN)?;
            self.standard_total.set(self.standard_total.get() + 1);
            block
        };
        self.note_live();
        Ok(block)
    }

    /// Takes a batch of blocks from the shared pool (one lock), returns the first and
    /// lists the rest; the batch is cut short by this pool's limit.
    #[cfg(feature = "std")]
    #[cold]
    fn refill(&self, shared: &SharedBlockPool) -> Result<Block, AllocError> {
        let mut want = REFILL_BATCH;
        if let Some(limit) = self.limit.get() {
            LimitKind::Pool.check(limit, self.held_bytes(), self.block_size)?;
            want = want.min((limit - self.held_bytes()) / self.block_size);
        }
        let (block, count, fresh) = shared.take(want)?;
        self.standard_total.set(self.standard_total.get() + count);
        self.system_allocations.set(self.system_allocations.get() + u64::from(fresh));
        let mut rest = block.prev();
        block.set_prev(None);
        while let Some(next) = rest {
            rest = next.prev();
            self.push_free(next);
        }
        Ok(block)
    }

    /// A block of its own for `layout`, even if a standard block could hold it: what a
    /// growing collection asks for once it outgrows standard blocks.
    #[cold]
    #[inline(never)]
    pub(crate) fn acquire_dedicated(&self, layout: Layout) -> Result<Block, AllocError> {
        let size = block::dedicated_size(layout)?;
        let block = self.allocate_block(size, layout.align().max(BLOCK_ALIGN))?;
        self.dedicated_live.set(self.dedicated_live.get() + 1);
        self.dedicated_bytes.set(self.dedicated_bytes.get() + size);
        self.note_live();
        Ok(block)
    }

    /// Records the peak of live blocks. Called on every acquisition except from the hot
    /// slot, which never sets a new peak: the hot slot is filled by a release and emptied
    /// by the very next standard acquisition (every acquisition tries it first), so taking
    /// it back only undoes that release, and live returns to a value already recorded.
    fn note_live(&self) {
        let live = self.standard_total.get() - self.cached() + self.dedicated_live.get();
        if live > self.peak_live.get() {
            self.peak_live.set(live);
        }
    }

    /// Resizes a dedicated block to `size` bytes, within the pool's limit; the block may
    /// move. On failure it is unchanged.
    ///
    /// # Safety
    ///
    /// `block` is a live dedicated block of this pool (from
    /// [`acquire_dedicated`](Self::acquire_dedicated), larger than a standard block), and
    /// the caller replaces every pointer to it with the returned block.
    pub(crate) unsafe fn resize_dedicated(
        &self,
        block: Block,
        size: usize,
    ) -> Result<Block, AllocError> {
        let old = block.size();
        debug_assert!(old > self.block_size && size > self.block_size, "not a dedicated block");
        if let (Some(limit), Some(more)) = (self.limit.get(), size.checked_sub(old)) {
            LimitKind::Pool.check(limit, self.held_bytes(), more)?;
        }
        // SAFETY: forwarded from the caller.
        let block = unsafe { block.reallocate(size) }?;
        self.dedicated_bytes.set(self.dedicated_bytes.get() - old + size);
        Ok(block)
    }

    /// Takes back a block from [`acquire`](Self::acquire): standard blocks are cached
    /// (up to `max_free`), dedicated ones freed.
    ///
    /// # Safety
    ///
    /// `block` came from this pool's `acquire`, is in no list (its `prev` link is `None`:
    /// the hot slot hands it to the next scope as a whole chain), and nothing uses its
    /// data afterwards.
    #[inline]
    pub(crate) unsafe fn release(&self, block: Block) {
        if block.size() == self.block_size && block.align() == BLOCK_ALIGN {
            if self.hot.get().is_none() && self.max_free.get() > 0 {
                debug_assert!(
                    block.prev().is_none(),
                    "a scope installs the hot block as its whole chain"
                );
                self.hot.set(Some(block));
                return;
            }
            if self.cached() < self.max_free.get() {
                self.push_free(block);
                return;
            }
            #[cfg(feature = "std")]
            if let Some(shared) = self.upstream() {
                self.flush(shared, block);
                return;
            }
            self.standard_total.set(self.standard_total.get() - 1);
        } else {
            self.dedicated_live.set(self.dedicated_live.get() - 1);
            self.dedicated_bytes.set(self.dedicated_bytes.get() - block.size());
        }
        // SAFETY: the caller hands the block over: it is in no list and unused.
        unsafe { block.free() };
    }

    /// The cache is full: gives `block` and half the list to the shared pool (one lock).
    #[cfg(feature = "std")]
    #[cold]
    fn flush(&self, shared: &SharedBlockPool, block: Block) {
        let mut count = 1;
        let mut tail = block;
        for _ in 0..self.listed.get() / 2 {
            let Some(next) = self.free.get() else { break };
            self.free.set(next.prev());
            self.listed.set(self.listed.get() - 1);
            tail.set_prev(Some(next));
            tail = next;
            count += 1;
        }
        tail.set_prev(None);
        self.standard_total.set(self.standard_total.get() - count);
        // SAFETY: `block..=tail` holds `count` blocks unlinked from this cache just now,
        // of the shared pool's block size and alignment, holding no values.
        unsafe { shared.give(block, tail, count) };
    }

    #[inline]
    fn push_free(&self, block: Block) {
        block.set_prev(self.free.get());
        self.free.set(Some(block));
        self.listed.set(self.listed.get() + 1);
    }

    /// Frees one cached block, from the list first, then the hot slot; a thread's cache
    /// gives it to its shared pool instead.
    fn free_one_cached(&self) {
        let block = if let Some(block) = self.free.get() {
            self.free.set(block.prev());
            self.listed.set(self.listed.get() - 1);
            block
        } else if let Some(block) = self.hot.take() {
            block
        } else {
            return;
        };
        self.standard_total.set(self.standard_total.get() - 1);
        block.set_prev(None);
        #[cfg(feature = "std")]
        if let Some(shared) = self.upstream() {
            // SAFETY: one block, unlinked from the cache just now, holding no values.
            unsafe { shared.give(block, block, 1) };
            return;
        }
        // SAFETY: the block was just unlinked from the cache, the only place it was, and
        // cached blocks hold no values.
        unsafe { block.free() };
    }

    /// A new standard block from the system (through the shared pool, for a thread's
    /// cache, so that it counts the block), if the limit allows it.
    fn new_standard_block(&self) -> Result<Block, AllocError> {
        #[cfg(feature = "std")]
        if let Some(shared) = self.upstream() {
            if let Some(limit) = self.limit.get() {
                LimitKind::Pool.check(limit, self.held_bytes(), self.block_size)?;
            }
            let block = shared.allocate_block()?;
            self.system_allocations.set(self.system_allocations.get() + 1);
            return Ok(block);
        }
        self.allocate_block(self.block_size, BLOCK_ALIGN)
    }

    /// A new system block, if the pool's limit allows it.
    fn allocate_block(&self, size: usize, align: usize) -> Result<Block, AllocError> {
        if let Some(limit) = self.limit.get() {
            LimitKind::Pool.check(limit, self.held_bytes(), size)?;
        }
        let block = Block::allocate(size, align)?;
        self.system_allocations.set(self.system_allocations.get() + 1);
        Ok(block)
    }
}

impl Default for BlockPool {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for BlockPool {
    fn drop(&mut self) {
        self.trim();
    }
}

impl fmt::Debug for BlockPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlockPool")
            .field("stats", &self.stats())
            .field("max_free", &self.max_free.get())
            .field("limit", &self.limit.get())
            .finish_non_exhaustive()
    }
}
