//! [`BlockPool`]: recycles fixed-size blocks between many short-lived scopes.
//!
//! This is ScopeAlloc's `BlockPool` and APR's allocator free list: a scope that ends hands
//! its blocks back here instead of to `free`, and the next scope takes them from here
//! instead of from `malloc`, so a scope that allocates one `i32` costs a list pop and a
//! list push rather than a system allocation.
//!
//! Design:
//! - Every standard block has the same size, [`BlockPool::block_size`], chosen so that
//!   the block plus the system allocator's header fills whole pages.
//! - A request that does not fit a standard block gets a dedicated block sized (and
//!   aligned) for it; it goes back to the system when its scope ends, never to the cache.
//! - The cache is a [`BlockList`] threaded through the blocks' own headers (no side
//!   allocation, O(1) take and give back) plus a "hot" slot ([`HotSlot`]) for the next
//!   scope to start on: it lends its block and keeps the address, so the block's return
//!   is recognised by address and costs a flag store.
//! - `max_free` caps how many blocks the cache keeps (APR's `max_free`); [`trim`] gives the
//!   whole cache back; [`set_limit`] caps the bytes held from the system, live and cached.
//! - Unlocked: all state is in `Cell`s, so the pool is `!Sync` and pays nothing for
//!   threads. It is `Send` because a [`Block`] is (it owns plain bytes).
//!
//! The cache itself is [`BlockCache`], shared by three public types: `BlockPool` (blocks
//! from the system), [`LocalBlockPool`](crate::LocalBlockPool), a thread's cache of a
//! [`SharedBlockPool`](crate::SharedBlockPool) whose blocks come from and go back to an
//! [`Upstream`], and [`BufferBlockPool`](crate::BufferBlockPool), whose blocks are cut
//! from a caller's buffer and never freed. Which of the three a cache is, its
//! [`Origin`], is fixed when it is made; every path that would free a block or ask the
//! system for one matches on it, so a carved block never reaches the system (B5). The
//! cache holds the upstream by plain reference and gives its blocks back to it in its
//! `Drop`, so dropck requires the upstream to outlive the cache: no declaration order,
//! `mem::swap` or struct field can make a cache outlive its shared pool.
//!
//! # Invariants
//!
//! - **(P1) Cached blocks hold no values**: the hot slot and the list hold only empty
//!   standard blocks of `block_size` bytes, owned by the cache (a [`Block`] is owned;
//!   the hot slot owns its block while it is not lent, H1).
//! - **(P2) The counters describe the blocks**: `standard_total` counts standard blocks
//!   obtained and not yet freed or given upstream (live + cached), `dedicated_live` and
//!   `dedicated_bytes` the dedicated blocks handed out and not yet released.
//! - **(P3) The hot slot never raises the peak**: it is filled only by a release and
//!   emptied by the next acquisition of any kind (a dedicated acquisition moves it to the
//!   list first), so taking it back only undoes that release.
//! - **(P4) The cache never holds more than `max_free` blocks**, the hot slot included,
//!   and the hot block lent to a scope keeps its place: the list's length plus one for
//!   a [reserved](HotSlot::reserved) slot is at most `max_free`. So the lent block's
//!   return needs no check, and a block listed or put in an empty slot needs a free
//!   place; lowering `max_free` (or [`reserve`](BlockPool::reserve), which may need the
//!   place) makes the slot give up a lent block's place.
//!
//! [`trim`]: BlockPool::trim
//! [`set_limit`]: BlockPool::set_limit

#![expect(clippy::inline_always, reason = "a W1 scope takes one block: this path must inline")]

use core::alloc::Layout;
use core::cell::Cell;
use core::fmt;

use crate::block::buffer::Carver;
#[cfg(feature = "alloc")]
use crate::block::header::HEADER;
use crate::block::header::{self as block, BLOCK_ALIGN, Block, BlockList};
use crate::block::hot_slot::HotSlot;
use crate::block::raw;
use crate::error::{AllocError, LimitKind};

/// Bytes of a standard block of [`BlockPool::new`]: two pages less the system
/// allocator's header (8 176 bytes on 64-bit targets), of which 32 are the block header.
pub const DEFAULT_BLOCK_SIZE: usize = 2 * raw::PAGE - raw::MALLOC_OVERHEAD;

/// Where a cache's blocks come from and go back to.
pub(crate) enum Origin<'s> {
    /// The system allocator: a [`BlockPool`].
    #[cfg(feature = "alloc")]
    System,
    /// A shared pool's locked list (dedicated blocks still from the system): a
    /// [`LocalBlockPool`](crate::LocalBlockPool).
    #[cfg(feature = "std")]
    Shared(&'s dyn Upstream),
    /// A caller's buffer, cut into standard blocks as they are needed: a
    /// [`BufferBlockPool`](crate::BufferBlockPool). Its blocks are carved (B5): the cache
    /// keeps every one (`max_free` is unlimited), frees none, and has no dedicated ones.
    Buffer(Carver<'s>),
}

impl Origin<'_> {
    fn kind(&self) -> &'static str {
        match self {
            #[cfg(feature = "alloc")]
            Origin::System => "system",
            #[cfg(feature = "std")]
            Origin::Shared(_) => "shared",
            Origin::Buffer(_) => "buffer",
        }
    }

    /// A new standard block of `block_size` bytes, and whether the system made it.
    fn new_standard(&self, block_size: usize) -> Result<(Block, bool), AllocError> {
        match self {
            #[cfg(feature = "alloc")]
            Origin::System => Ok((Block::allocate(block_size, BLOCK_ALIGN)?, true)),
            #[cfg(feature = "std")]
            Origin::Shared(upstream) => Ok((upstream.allocate_block()?, true)),
            Origin::Buffer(carver) => Ok((carver.carve(block_size)?, false)),
        }
    }

    /// A new dedicated block (always the system's: a buffer has none).
    fn new_dedicated(&self, size: usize, align: usize) -> Result<Block, AllocError> {
        match self {
            Origin::Buffer(carver) => Err(carver.refuse(size, align)),
            #[cfg(feature = "alloc")]
            _ => Block::allocate(size, align),
        }
    }

    /// Whether [`give_away`](Self::give_away) takes blocks (a buffer's blocks stay).
    fn gives_blocks_away(&self) -> bool {
        !matches!(self, Origin::Buffer(_))
    }

    /// Gives a standard block away: to the upstream for a thread's cache, to the system
    /// for a system cache. A buffer's block comes back: it has nowhere else to go.
    ///
    /// # Safety
    ///
    /// `block` is a standard block of the cache of this origin, and nothing uses its data
    /// any more.
    unsafe fn give_away(&self, block: Block) -> Result<(), Block> {
        match self {
            #[cfg(feature = "alloc")]
            Origin::System => {
                // SAFETY: a system cache's standard blocks are system blocks (B5); the
                // caller hands the block over and nothing uses its data.
                unsafe { block.free() };
                Ok(())
            }
            #[cfg(feature = "std")]
            Origin::Shared(upstream) => {
                let mut one = BlockList::new();
                one.push(block);
                // SAFETY: a standard block of a thread's cache, from the upstream, its
                // data unused (caller).
                unsafe { upstream.give(one) };
                Ok(())
            }
            Origin::Buffer(_) => Err(block),
        }
    }

    /// Frees a dedicated block.
    ///
    /// # Safety
    ///
    /// `block` is a dedicated block of the cache of this origin, and nothing uses its data
    /// any more.
    #[cfg_attr(
        not(feature = "alloc"),
        expect(clippy::needless_pass_by_value, reason = "without `alloc` it is never called")
    )]
    unsafe fn free_dedicated(&self, block: Block) {
        match self {
            Origin::Buffer(_) => {
                let _ = block;
                unreachable!("a buffer's cache has no dedicated blocks")
            }
            #[cfg(feature = "alloc")]
            // SAFETY: dedicated blocks are system blocks (B5: `new_dedicated`); the caller
            // hands the block over and nothing uses its data.
            _ => unsafe { block.free() },
        }
    }

    /// Resizes a dedicated block; it may move. On failure it comes back unchanged.
    ///
    /// # Safety
    ///
    /// As [`Block::reallocate`], for a dedicated block of the cache of this origin.
    unsafe fn resize_dedicated(
        &self,
        block: Block,
        size: usize,
    ) -> Result<Block, (Block, AllocError)> {
        match self {
            Origin::Buffer(carver) => {
                let error = carver.refuse(size, BLOCK_ALIGN);
                Err((block, error))
            }
            #[cfg(feature = "alloc")]
            // SAFETY: dedicated blocks are system blocks (B5: `new_dedicated`); the rest
            // is forwarded from the caller.
            _ => unsafe { block.reallocate(size) },
        }
    }

    /// Blocks of `block_size` bytes a buffer can still cut (`None` for other origins).
    #[cfg_attr(
        not(feature = "alloc"),
        expect(clippy::unnecessary_wraps, reason = "every origin is a buffer without `alloc`")
    )]
    fn blocks_left(&self, block_size: usize) -> Option<usize> {
        match self {
            Origin::Buffer(carver) => Some(carver.blocks_left(block_size)),
            #[cfg(feature = "alloc")]
            _ => None,
        }
    }
}

/// Where a thread's cache gets standard blocks when it runs empty and sends them when it
/// is full: the locked list of a [`SharedBlockPool`](crate::SharedBlockPool).
#[cfg(feature = "std")]
pub(super) trait Upstream: Sync {
    /// Blocks a cache takes at once when it runs empty.
    fn refill_batch(&self) -> usize;

    /// Up to `want` (at least one) empty standard blocks, and how many of them are new
    /// from the system.
    fn take(&self, want: usize) -> Result<(BlockList, usize), AllocError>;

    /// One new standard block from the system (counted by the upstream).
    fn allocate_block(&self) -> Result<Block, AllocError>;

    /// Takes back empty standard blocks.
    ///
    /// # Safety
    ///
    /// Every block of `blocks` came from this upstream ([`take`](Self::take) or
    /// [`allocate_block`](Self::allocate_block)) and nothing uses its data any more.
    unsafe fn give(&self, blocks: BlockList);
}

/// The cache behind [`BlockPool`] and [`LocalBlockPool`](crate::LocalBlockPool): a hot
/// slot and a list of empty standard blocks, counters, and where blocks come from.
///
/// `'s` is the borrow of the upstream (`'static` with none). The `Drop` impl gives the
/// cached blocks back to it, so dropck requires `'s` to be live when the cache drops.
pub(crate) struct BlockCache<'s> {
    /// The most recently given-back block: the next scope takes it without touching any
    /// list or counter, which is what makes a W1 scope (one block, taken and given back)
    /// cost a few loads and a store of a flag at each end. Counts as cached while it is
    /// not lent out (P1, P3).
    hot: HotSlot,
    /// The rest of the cache (P1).
    free: Cell<BlockList>,
    block_size: usize,
    max_free: Cell<usize>,
    limit: Cell<Option<usize>>,
    /// The limit of every scope of this cache that sets none of its own, read only when
    /// a scope takes a block (never when it starts on the hot one).
    scope_limit: Cell<Option<usize>>,
    /// Standard blocks held now, live + cached (P2).
    standard_total: Cell<usize>,
    dedicated_live: Cell<usize>,
    dedicated_bytes: Cell<usize>,
    peak_live: Cell<usize>,
    system_allocations: Cell<u64>,
    /// Where blocks come from and go back to: the system, a shared pool's list (for a
    /// thread's cache of it) or a caller's buffer.
    origin: Origin<'s>,
}

/// A cache of fixed-size memory blocks shared by many short-lived [`Scope`](crate::Scope)s.
///
/// # What is freed when
///
/// - A scope takes blocks as it needs them and gives every one back when it ends.
/// - Given-back standard blocks stay cached for the next scope, up to
///   [`max_free`](Self::max_free) of them (unlimited by default, as in APR); the rest,
///   and every dedicated (oversize) block, go back to the system at once.
/// - [`trim`](Self::trim) frees the whole cache; dropping the pool frees it too. The
///   borrow checker keeps the pool alive while any of its scopes is.
/// - So after a spike the cache holds the spike's blocks until one of those. The cache is
///   unlimited by default on purpose: a cap below a program's working set frees blocks at
///   the end of every cycle and asks the system for them again at the start of the next
///   (a scope per tree of a few MiB, as the repository's W7 workload builds, would pay
///   that on every tree), and only the program knows its working set. A server that
///   must give a spike back sets [`max_free`](Self::set_max_free) to its usual peak, or
///   calls `trim` when idle; [`set_scope_limit`](Self::set_scope_limit) keeps one
///   scope from making the spike.
///
/// # Cost
///
/// A scope that fits one block takes the block the last scope gave back and gives it
/// back when it ends: a few loads and the store of a flag at each end, no system call.
/// A block request past the cache is one system allocation; the cache is a list through
/// the blocks' own headers, so keeping blocks costs no memory beyond them.
///
/// # Examples
///
/// ```
/// use arena_kit::BlockPool;
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
#[cfg(feature = "alloc")]
pub struct BlockPool {
    cache: BlockCache<'static>,
}

/// A snapshot of a [`BlockPool`]'s counters.
///
/// # Examples
///
/// ```
/// use arena_kit::BlockPool;
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
pub struct BlockPoolStats {
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

#[cfg(feature = "alloc")]
impl BlockPool {
    /// A pool of [`DEFAULT_BLOCK_SIZE`]-byte blocks with an unlimited cache and no limit.
    ///
    /// Allocates nothing until the first scope needs a block.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// assert_eq!(pool.stats().cached_blocks, 0);
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        BlockPool { cache: BlockCache::new(DEFAULT_BLOCK_SIZE, usize::MAX, Origin::System) }
    }

    /// A pool whose standard blocks hold at least `bytes` bytes of data.
    ///
    /// The block is rounded up so that it and the system allocator's header fill whole
    /// pages: asking for 5 000 bytes gives 8 176-byte blocks on a 64-bit target, since
    /// malloc would have spent those bytes anyway. Below a page, blocks come in 256-byte
    /// steps (with the header: 240, 496, ... bytes): small blocks for many small, idle
    /// scopes (a scope per connection, holding a few hundred bytes each), which then
    /// hold a block of a few hundred bytes each instead of the default 8 KiB. A value
    /// larger than a block gets a block of its own, as always.
    ///
    /// # Panics
    ///
    /// If `bytes` plus the header cannot be a layout (more than `isize::MAX`).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::with_block_size(5_000);
    /// assert!(pool.block_capacity() >= 5_000);
    /// assert_eq!((pool.block_size() + 16) % 4096, 0);
    ///
    /// let small = arena_kit::BlockPool::with_block_size(400);
    /// assert_eq!(small.block_size(), 496); // 512 bytes with malloc's header
    /// assert!(small.block_capacity() >= 400);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn with_block_size(bytes: usize) -> Self {
        BlockPool { cache: BlockCache::new(standard_block_size(bytes), usize::MAX, Origin::System) }
    }

    /// The cache, for the scopes and pools built on it.
    #[inline(always)]
    pub(crate) fn cache(&self) -> &BlockCache<'static> {
        &self.cache
    }
}

#[cfg(feature = "alloc")]
/// The size of a standard block holding at least `bytes` bytes of data: page-filled
/// (256-byte steps below a page).
///
/// # Panics
///
/// If no layout can hold it.
#[track_caller]
pub(super) fn standard_block_size(bytes: usize) -> usize {
    let size = bytes
        .checked_add(HEADER)
        .and_then(raw::page_fill)
        .filter(|&s| s <= isize::MAX as usize - (BLOCK_ALIGN - 1));
    match size {
        Some(size) => size,
        None => panic!("arena-kit: a block of {bytes} bytes cannot be allocated"),
    }
}

/// The public API of a block cache, shared by [`BlockPool`] and
/// [`LocalBlockPool`](crate::LocalBlockPool): every method forwards to the cache. (Their
/// `scope` method lives with [`Scope`](crate::Scope), in `scope/lifecycle.rs`: the pools know
/// nothing of scopes.)
/// `$setup` is the doc examples' first line, making `pool`.
#[cfg(feature = "alloc")]
macro_rules! block_cache_api {
    ($ty:ty, $setup:literal) => {
        impl $ty {
            /// Total bytes of a standard block, header included (what is asked of malloc).
            ///
            /// # Examples
            ///
            /// ```
            #[doc = $setup]
            /// assert_eq!(pool.block_size(), arena_kit::block::DEFAULT_BLOCK_SIZE);
            /// ```
            #[must_use]
            pub fn block_size(&self) -> usize {
                self.cache.block_size()
            }

            /// Bytes of a standard block available to values (its size less the 32-byte
            /// header).
            ///
            /// # Examples
            ///
            /// ```
            #[doc = $setup]
            /// assert_eq!(pool.block_capacity(), pool.block_size() - 32);
            /// ```
            #[must_use]
            pub fn block_capacity(&self) -> usize {
                self.cache.block_size() - $crate::block::header::HEADER
            }

            /// How many given-back blocks the cache keeps at most.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = $setup]
            /// pool.set_max_free(3);
            /// assert_eq!(pool.max_free(), 3);
            /// ```
            #[must_use]
            pub fn max_free(&self) -> usize {
                self.cache.max_free()
            }

            /// Caps the cache at `max_free` blocks (APR's `max_free`), giving any excess
            /// back now.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = $setup]
            /// pool.reserve(4).unwrap();
            /// pool.set_max_free(1);
            /// assert_eq!(pool.stats().cached_blocks, 1);
            /// ```
            pub fn set_max_free(&self, max_free: usize) {
                self.cache.set_max_free(max_free);
            }

            /// The byte limit on blocks held (live and cached), if any.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = $setup]
            /// pool.set_limit(Some(1 << 20));
            /// assert_eq!(pool.limit(), Some(1 << 20));
            /// ```
            #[must_use]
            pub fn limit(&self) -> Option<usize> {
                self.cache.limit()
            }

            /// Limits the bytes of blocks this pool holds, live and cached.
            ///
            /// A scope that needs a new block past the limit gets
            /// [`AllocError::LimitReached`](crate::AllocError::LimitReached) from its
            /// `try_` methods (and a panic from the others). Taking a cached block never
            /// counts against it. Lowering the limit below what is held frees nothing; it
            /// only stops further growth.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = $setup]
            /// pool.set_limit(Some(pool.block_size()));
            /// let scope = pool.scope();
            /// scope.alloc(1_u32); // takes the one block the limit allows
            /// let other = pool.scope();
            /// assert!(other.try_alloc(2_u32).is_err());
            /// ```
            pub fn set_limit(&self, limit: Option<usize>) {
                self.cache.set_limit(limit);
            }

            /// The limit every scope of this pool has unless it sets its own, if any
            /// (see [`set_scope_limit`](Self::set_scope_limit)).
            ///
            /// # Examples
            ///
            /// ```
            #[doc = $setup]
            /// assert_eq!(pool.scope_limit(), None);
            /// pool.set_scope_limit(Some(64 << 10));
            /// assert_eq!(pool.scope_limit(), Some(64 << 10));
            /// assert_eq!(pool.scope().limit(), Some(64 << 10));
            /// ```
            #[must_use]
            pub fn scope_limit(&self) -> Option<usize> {
                self.cache.scope_limit()
            }

            /// Gives every scope of this pool (nested ones too, and those already open) a
            /// limit on the bytes of blocks it holds, unless the scope sets its own with
            /// [`Scope::set_limit`](crate::Scope::set_limit): a per-request budget for a
            /// server, set once. [`limit`](Self::limit) caps the pool as a whole; this caps
            /// each scope.
            ///
            /// It costs nothing until a scope takes a block: the limit is read then, not
            /// when a scope opens, and a scope that stays in one block makes no
            /// bookkeeping for it (a scope's own limit does). A scope always gets its
            /// first standard block; the limit decides every block after it and every
            /// oversize one. As with a scope's own limit, blocks count whole (header
            /// included), and past the limit the `try_` methods return
            /// [`AllocError::LimitReached`](crate::AllocError::LimitReached). A scope that
            /// must not be limited sets `Some(usize::MAX)`.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = $setup]
            /// pool.set_scope_limit(Some(2 * pool.block_size()));
            /// let request = pool.scope();
            /// assert!(request.try_alloc_slice_fill_copy(1 << 20, 0_u8).is_err()); // over budget
            /// let small = request.alloc_slice_fill_copy(4000, 1_u8); // within it
            /// assert_eq!(small.len(), 4000);
            /// let admin = pool.scope();
            /// admin.set_limit(Some(usize::MAX)); // its own limit wins
            /// assert!(admin.try_alloc_slice_fill_copy(1 << 20, 0_u8).is_ok());
            /// ```
            pub fn set_scope_limit(&self, limit: Option<usize>) {
                self.cache.set_scope_limit(limit);
            }

            /// Fills the cache with new blocks until it holds at least `blocks`, raising
            /// [`max_free`](Self::max_free) to `blocks` if it was lower (a pre-allocated
            /// pool).
            ///
            /// # Errors
            ///
            /// [`AllocError::LimitReached`](crate::AllocError::LimitReached) or
            /// [`AllocError::OutOfMemory`](crate::AllocError::OutOfMemory); the blocks
            /// obtained before the failure stay cached.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = $setup]
            /// pool.reserve(3)?;
            /// assert_eq!(pool.stats().cached_blocks, 3);
            /// # Ok::<(), arena_kit::AllocError>(())
            /// ```
            pub fn reserve(&self, blocks: usize) -> Result<(), $crate::AllocError> {
                self.cache.reserve(blocks)
            }

            /// Gives every cached block back (to the system, or a thread's cache to its
            /// shared pool); returns how many.
            ///
            /// Live blocks are untouched: scopes keep working and later scopes refill the
            /// cache.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = $setup]
            /// pool.reserve(2).unwrap();
            /// assert_eq!(pool.trim(), 2);
            /// assert_eq!(pool.stats().cached_bytes, 0);
            /// ```
            pub fn trim(&self) -> usize {
                self.cache.trim()
            }

            /// The pool's counters now.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = $setup]
            /// {
            ///     let scope = pool.scope();
            ///     scope.alloc_slice_fill_copy(100_000, 0_u8); // oversize: a dedicated block
            ///     assert_eq!(pool.stats().dedicated_blocks, 1);
            /// }
            /// let stats = pool.stats();
            /// assert_eq!((stats.live_blocks, stats.dedicated_blocks), (0, 0));
            /// ```
            #[must_use]
            pub fn stats(&self) -> $crate::block::BlockPoolStats {
                self.cache.stats()
            }
        }
    };
}
#[cfg(feature = "std")]
pub(crate) use block_cache_api;

#[cfg(feature = "alloc")]
block_cache_api!(BlockPool, "let pool = arena_kit::BlockPool::new();");

#[cfg(feature = "alloc")]
impl Default for BlockPool {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(feature = "alloc")]
impl fmt::Debug for BlockPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlockPool").field("cache", &self.cache).finish()
    }
}

impl<'s> BlockCache<'s> {
    /// An empty cache of `block_size`-byte blocks keeping at most `max_free`, drawing
    /// from `origin`.
    pub(super) const fn new(block_size: usize, max_free: usize, origin: Origin<'s>) -> Self {
        BlockCache {
            hot: HotSlot::new(),
            free: Cell::new(BlockList::new()),
            block_size,
            max_free: Cell::new(max_free),
            limit: Cell::new(None),
            scope_limit: Cell::new(None),
            standard_total: Cell::new(0),
            dedicated_live: Cell::new(0),
            dedicated_bytes: Cell::new(0),
            peak_live: Cell::new(0),
            system_allocations: Cell::new(0),
            origin,
        }
    }

    /// Total bytes of a standard block.
    #[inline(always)]
    pub(crate) fn block_size(&self) -> usize {
        self.block_size
    }

    #[cfg(feature = "alloc")]
    pub(super) fn max_free(&self) -> usize {
        self.max_free.get()
    }

    pub(super) fn limit(&self) -> Option<usize> {
        self.limit.get()
    }

    pub(super) fn set_limit(&self, limit: Option<usize>) {
        self.limit.set(limit);
    }

    /// The limit of the scopes that set none of their own, if any.
    #[inline]
    pub(crate) fn scope_limit(&self) -> Option<usize> {
        self.scope_limit.get()
    }

    pub(super) fn set_scope_limit(&self, limit: Option<usize>) {
        self.scope_limit.set(limit);
    }

    #[cfg(feature = "alloc")]
    pub(super) fn set_max_free(&self, max_free: usize) {
        self.max_free.set(max_free);
        while self.places_used() > max_free {
            if !self.free_one_cached() {
                // Only the place of a lent block is left to give up (P4).
                self.hot.unreserve();
            }
        }
    }

    pub(super) fn reserve(&self, blocks: usize) -> Result<(), AllocError> {
        if self.max_free.get() < blocks {
            self.max_free.set(blocks);
        }
        if !self.hot.holds() {
            // P4: the new blocks may need the place a lent block keeps; it is given
            // back like any other when it comes back.
            self.hot.unreserve();
        }
        while self.cached() < blocks {
            let block = self.new_standard_block()?;
            self.standard_total.set(self.standard_total.get() + 1);
            self.with_free(|free| free.push(block));
        }
        Ok(())
    }

    /// Frees the cache; a buffer's cache has nothing to free and keeps its blocks.
    pub(super) fn trim(&self) -> usize {
        let mut freed = 0;
        while self.free_one_cached() {
            freed += 1;
        }
        freed
    }

    pub(super) fn stats(&self) -> BlockPoolStats {
        let cached = self.cached();
        let standard_live = self.standard_total.get() - cached;
        let dedicated = self.dedicated_live.get();
        BlockPoolStats {
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

    /// Runs `f` on the list of cached blocks. `Cell` holds it by value, so it is taken
    /// out and put back; list operations do not panic, so nothing is lost on the way.
    #[inline]
    fn with_free<R>(&self, f: impl FnOnce(&mut BlockList) -> R) -> R {
        let mut free = self.free.take();
        let result = f(&mut free);
        self.free.set(free);
        result
    }

    /// Blocks in the cache: the list and the hot slot.
    #[inline]
    fn cached(&self) -> usize {
        self.with_free(|free| free.len()) + usize::from(self.hot.holds())
    }

    /// Places of the cache in use (P4): the list, and the hot slot if it owns a block
    /// or keeps the place of the one it lent.
    #[inline]
    fn places_used(&self) -> usize {
        self.with_free(|free| free.len()) + usize::from(self.hot.reserved())
    }

    /// Bytes held now, live and cached.
    fn held_bytes(&self) -> usize {
        self.standard_total.get() * self.block_size + self.dedicated_bytes.get()
    }

    /// A block whose data can hold `layout`: the hot block, a listed or new standard
    /// block when it fits one, else a dedicated block sized and aligned for it.
    #[inline(always)]
    pub(crate) fn acquire(&self, layout: Layout) -> Result<Block, AllocError> {
        if block::fits_standard(layout, self.block_size) {
            // No counter changes: the hot block never raises the peak (P3).
            match self.hot.lend() {
                Some(block) => Ok(block),
                None => self.acquire_standard_slow(),
            }
        } else {
            self.acquire_dedicated(layout)
        }
    }

    /// The hot block, if there is one, for a new scope to start with (P3: no peak).
    #[inline(always)]
    pub(crate) fn take_hot(&self) -> Option<Block> {
        self.hot.lend()
    }

    /// A standard block from the list, the upstream or the system; the hot slot is empty.
    #[inline(never)]
    fn acquire_standard_slow(&self) -> Result<Block, AllocError> {
        let block = if let Some(block) = self.with_free(BlockList::pop) {
            block
        } else {
            #[cfg(feature = "std")]
            if let Origin::Shared(upstream) = self.origin {
                let block = self.refill(upstream)?;
                self.note_live();
                return Ok(block);
            }
            let block = self.new_standard_block()?;
            self.standard_total.set(self.standard_total.get() + 1);
            block
        };
        self.note_live();
        Ok(block)
    }

    /// Takes a batch of blocks from the upstream (one lock), returns the first and lists
    /// the rest; the batch is cut short by this cache's limit and by `max_free` (P4).
    #[cfg(feature = "std")]
    #[cold]
    fn refill(&self, upstream: &dyn Upstream) -> Result<Block, AllocError> {
        // P4: the first block is handed out, the rest listed, within `max_free`.
        let room = self.max_free.get().saturating_sub(self.places_used());
        let mut want = upstream.refill_batch().min(room.saturating_add(1));
        if let Some(limit) = self.limit.get() {
            LimitKind::BlockPool.check(limit, self.held_bytes(), self.block_size)?;
            want = want.min((limit - self.held_bytes()) / self.block_size);
        }
        let (mut batch, fresh) = upstream.take(want)?;
        self.standard_total.set(self.standard_total.get() + batch.len());
        self.system_allocations.set(self.system_allocations.get() + fresh as u64);
        let first = batch.pop().unwrap_or_else(|| unreachable!("an upstream batch is not empty"));
        self.with_free(|free| free.prepend(batch));
        Ok(first)
    }

    /// A block of its own for `layout`, even if a standard block could hold it: what a
    /// growing collection asks for once it outgrows standard blocks.
    #[cold]
    #[inline(never)]
    pub(crate) fn acquire_dedicated(&self, layout: Layout) -> Result<Block, AllocError> {
        self.acquire_sized(block::dedicated_size(layout)?, layout.align().max(BLOCK_ALIGN))
    }

    /// A block of exactly `size` bytes aligned to `align` (at least `BLOCK_ALIGN`), never
    /// cached: a dedicated block, or one smaller than standard for a scope whose limit
    /// leaves no room for a standard one. Freed when it comes back.
    #[cold]
    #[inline(never)]
    pub(crate) fn acquire_sized(&self, size: usize, align: usize) -> Result<Block, AllocError> {
        debug_assert!(
            size != self.block_size || align != BLOCK_ALIGN,
            "a standard block would be cached when it comes back"
        );
        if let Some(hot) = self.hot.take() {
            // P3: the hot block joins the list, so the next standard acquisition takes
            // the slow path and records the peak that this block adds to.
            self.with_free(|free| free.push(hot));
        }
        let block = self.allocate_dedicated(size, align)?;
        self.dedicated_live.set(self.dedicated_live.get() + 1);
        self.dedicated_bytes.set(self.dedicated_bytes.get() + size);
        self.note_live();
        Ok(block)
    }

    /// Records the peak of live blocks. Called on every acquisition except from the hot
    /// slot, which never sets a new peak (P3).
    fn note_live(&self) {
        let live = self.standard_total.get() - self.cached() + self.dedicated_live.get();
        if live > self.peak_live.get() {
            self.peak_live.set(live);
        }
    }

    /// Resizes a dedicated block to `size` bytes, within the limit; the block may move.
    /// On failure it comes back unchanged.
    ///
    /// # Safety
    ///
    /// `block` is a live dedicated block of this cache (from
    /// [`acquire_dedicated`](Self::acquire_dedicated), so a system block: a buffer's
    /// cache has none), and on success nothing uses pointers into its old data.
    pub(crate) unsafe fn resize_dedicated(
        &self,
        block: Block,
        size: usize,
    ) -> Result<Block, (Block, AllocError)> {
        let old = block.size();
        debug_assert!(old > self.block_size && size > self.block_size, "not a dedicated block");
        if let (Some(limit), Some(more)) = (self.limit.get(), size.checked_sub(old)) {
            if let Err(e) = LimitKind::BlockPool.check(limit, self.held_bytes(), more) {
                return Err((block, e));
            }
        }
        // SAFETY: a dedicated block of this cache, as the caller guarantees; the rest is
        // forwarded from the caller.
        let block = unsafe { self.origin.resize_dedicated(block, size) }?;
        self.dedicated_bytes.set(self.dedicated_bytes.get() - old + size);
        Ok(block)
    }

    /// Takes back a block from [`acquire`](Self::acquire) or
    /// [`acquire_dedicated`](Self::acquire_dedicated): standard blocks are cached (up to
    /// `max_free`, the excess going upstream or to the system), dedicated ones freed.
    ///
    /// # Safety
    ///
    /// `block` came from this cache, and nothing uses its data any more (P1: it may be
    /// handed to the next scope at once).
    #[inline(always)]
    pub(crate) unsafe fn release(&self, block: Block) {
        // SAFETY: forwarded from the caller.
        if let Err(block) = unsafe { self.release_hot(block) } {
            // SAFETY: forwarded from the caller.
            unsafe { self.release_other(block) };
        }
    }

    /// Takes back the hot block from the scope it was lent to, or hands `block` back if
    /// it is another: the part of [`release`](Self::release) a scope's drop inlines.
    /// The lent block's place in the cache was kept (P4), and its address says it is a
    /// standard block of this cache, so nothing else is checked.
    ///
    /// # Safety
    ///
    /// As [`release`](Self::release).
    #[inline(always)]
    pub(crate) unsafe fn release_hot(&self, block: Block) -> Result<(), Block> {
        self.hot.take_back(block)
    }

    /// The rest of [`release`](Self::release): a block other than the lent hot one.
    ///
    /// # Safety
    ///
    /// As [`release`](Self::release).
    #[inline(never)]
    unsafe fn release_other(&self, block: Block) {
        if block.size() == self.block_size && block.align() == BLOCK_ALIGN {
            // P4: a slot waiting for a lent block passes its place on; an empty slot
            // needs a free place (a slot that owns a block refuses it in `put`).
            let fits = self.hot.reserved() || self.places_used() < self.max_free.get();
            let block = if fits {
                match self.hot.put(block) {
                    Ok(()) => return,
                    Err(block) => block,
                }
            } else {
                block
            };
            // SAFETY: forwarded from the caller.
            unsafe { self.release_standard_slow(block) };
        } else {
            // SAFETY: forwarded from the caller.
            unsafe { self.release_dedicated(block) };
        }
    }

    /// Lists a standard block, or gives it (and half the list) away when the cache is full.
    ///
    /// # Safety
    ///
    /// As [`release`](Self::release), for a standard block.
    #[inline(never)]
    unsafe fn release_standard_slow(&self, block: Block) {
        if self.places_used() < self.max_free.get() {
            self.with_free(|free| free.push(block));
            return;
        }
        #[cfg(feature = "std")]
        if let Origin::Shared(upstream) = self.origin {
            // The cache is full: the block and half the list go upstream (one lock).
            let mut batch = self.with_free(|free| free.split_front(free.len() / 2));
            batch.push(block);
            self.standard_total.set(self.standard_total.get() - batch.len());
            // SAFETY: standard blocks of this cache, which came from the upstream; the
            // caller gives up `block`'s data and listed blocks hold no values (P1).
            unsafe { upstream.give(batch) };
            return;
        }
        // SAFETY: a standard block of this cache, which the caller hands over.
        match unsafe { self.origin.give_away(block) } {
            Ok(()) => self.standard_total.set(self.standard_total.get() - 1),
            // A carved block stays (a buffer's cache has no `max_free`).
            Err(block) => self.with_free(|free| free.push(block)),
        }
    }

    /// Frees a dedicated block.
    ///
    /// # Safety
    ///
    /// As [`release`](Self::release), for a dedicated block.
    #[cold]
    unsafe fn release_dedicated(&self, block: Block) {
        self.dedicated_live.set(self.dedicated_live.get() - 1);
        self.dedicated_bytes.set(self.dedicated_bytes.get() - block.size());
        // SAFETY: a dedicated block of this cache, which the caller hands over.
        unsafe { self.origin.free_dedicated(block) };
    }

    /// Gives one cached block away, from the list first, then the hot slot: to the
    /// upstream for a thread's cache, else to the system. `false` if none was cached,
    /// or if the cache is a buffer's (its blocks have nowhere else to go).
    fn free_one_cached(&self) -> bool {
        if !self.origin.gives_blocks_away() {
            return false;
        }
        let Some(block) = self.with_free(BlockList::pop).or_else(|| self.hot.take()) else {
            return false;
        };
        // SAFETY: a cached standard block of this cache, unlinked just now, holding no
        // values (P1).
        match unsafe { self.origin.give_away(block) } {
            Ok(()) => self.standard_total.set(self.standard_total.get() - 1),
            Err(block) => self.with_free(|free| free.push(block)),
        }
        true
    }

    /// A new standard block (through the upstream for a thread's cache, so that it is
    /// counted there; cut from the buffer for a buffer's), if the limit allows it.
    fn new_standard_block(&self) -> Result<Block, AllocError> {
        if let Some(limit) = self.limit.get() {
            LimitKind::BlockPool.check(limit, self.held_bytes(), self.block_size)?;
        }
        let (block, from_system) = self.origin.new_standard(self.block_size)?;
        self.system_allocations.set(self.system_allocations.get() + u64::from(from_system));
        Ok(block)
    }

    /// A new dedicated block from the system, if the limit allows it; a buffer has none
    /// to give.
    fn allocate_dedicated(&self, size: usize, align: usize) -> Result<Block, AllocError> {
        if let Some(limit) = self.limit.get() {
            LimitKind::BlockPool.check(limit, self.held_bytes(), size)?;
        }
        let block = self.origin.new_dedicated(size, align)?;
        self.system_allocations.set(self.system_allocations.get() + 1);
        Ok(block)
    }

    /// Blocks a buffer's cache can still cut from its buffer (`None` for any other).
    pub(super) fn blocks_left(&self) -> Option<usize> {
        self.origin.blocks_left(self.block_size)
    }
}

impl Drop for BlockCache<'_> {
    fn drop(&mut self) {
        self.trim();
    }
}

impl fmt::Debug for BlockCache<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlockCache")
            .field("stats", &self.stats())
            .field("max_free", &self.max_free.get())
            .field("limit", &self.limit.get())
            .field("origin", &self.origin.kind())
            .finish()
    }
}
