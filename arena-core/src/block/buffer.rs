//! [`BufferBlockPool`]: a block pool over a caller's buffer, for code with no allocator.
//!
//! Firmware, kernels and real-time loops often have no heap, or must not touch it. The
//! pool here is ScopeAlloc's `BlockPool` without `malloc`: a buffer the caller lends
//! (`&'b mut [MaybeUninit<u8>]`, a `static` one or a local array) is cut into standard
//! blocks as scopes need them, and a block a scope gives back is kept for the next scope,
//! as a [`BlockPool`](crate::BlockPool) keeps it. Scopes over it are ordinary
//! [`Scope`](crate::Scope)s: the same `alloc`, collections, destructors, `on_exit`,
//! nested scopes and limits.
//!
//! # Design
//!
//! - The pool is a block cache (`block/pool.rs`) whose origin is a [`Carver`]: the part
//!   of the buffer no block was cut from yet. A cache that needs a new standard block
//!   cuts the next one; when the buffer has no room for another, the request fails with
//!   [`AllocError::BufferExhausted`], so every `try_` call reports a full buffer and
//!   the infallible calls panic (there is no allocator whose error handler they could
//!   call). A request that fits no standard block fails the same way: a buffer has no
//!   dedicated blocks.
//! - Blocks are cut lazily and never go back to the buffer: once cut, a block is a
//!   cached or a lent block of this pool until the pool ends. The cache keeps them all
//!   (no `max_free`, no `trim`: there is nowhere else for them to go).
//! - The pool borrows the buffer mutably for `'b`, so nothing else touches it while the
//!   pool or any of its scopes lives, and the buffer outlives them (dropck sees the
//!   borrow in the pool's type, a real `&'b mut` held in the carver's `PhantomData` and
//!   given up only when the pool drops).
//!
//! # Invariant
//!
//! - **(C1) The carver's window** `next..end` is the part of the borrowed buffer that no
//!   block was cut from, and every block cut from it ends at or below `isize::MAX`
//!   (B4): the window is clipped to that address when the pool is made. `next` only
//!   moves up, by whole blocks, so no byte is in two blocks.

use core::cell::Cell;
use core::fmt;
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::ptr::NonNull;

use crate::block::header::{BLOCK_ALIGN, Block, HEADER, ends_low};
use crate::block::pool::{BlockCache, BlockPoolStats, Origin};
use crate::error::AllocError;

/// The uncut part of a caller's buffer (C1).
pub(crate) struct Carver<'b> {
    /// First byte no block was cut from, aligned to [`BLOCK_ALIGN`].
    next: Cell<*mut u8>,
    /// One past the last byte blocks may use (C1).
    end: *mut u8,
    /// Bytes of the buffer, for `Debug` and the docs' arithmetic.
    len: usize,
    /// The exclusive borrow of the buffer the blocks are cut from.
    buffer: PhantomData<&'b mut [MaybeUninit<u8>]>,
}

// SAFETY: the carver stands for a `&'b mut [MaybeUninit<u8>]` (plain bytes, `Send`) and
// the position in it; moving it to another thread moves that exclusive borrow.
unsafe impl Send for Carver<'_> {}

impl<'b> Carver<'b> {
    /// The window of `buffer` blocks can be cut from: its start aligned up to
    /// [`BLOCK_ALIGN`], its end clipped at `isize::MAX` (B4).
    fn new(buffer: &'b mut [MaybeUninit<u8>]) -> Self {
        let len = buffer.len();
        let range = buffer.as_mut_ptr_range();
        let start = range.start.cast::<u8>();
        let start_addr = start.addr();
        let pad = start_addr
            .checked_next_multiple_of(BLOCK_ALIGN)
            .map_or(len, |aligned| aligned - start_addr)
            .min(len);
        let highest = (isize::MAX as usize).saturating_sub(start_addr);
        let usable = len.min(highest);
        // SAFETY: `usable <= len`, so this stays within the buffer or one past its end.
        let end = unsafe { start.add(usable) };
        // SAFETY: as `end`, at or before it.
        let next = unsafe { start.add(pad.min(usable)) };
        Carver { next: Cell::new(next), end, len, buffer: PhantomData }
    }

    /// Bytes left in the window.
    fn room(&self) -> usize {
        // Both pointers lie in the buffer, `next <= end` (C1).
        self.end.addr() - self.next.get().addr()
    }

    /// How many more blocks of `block_size` bytes the window holds.
    pub(super) fn blocks_left(&self, block_size: usize) -> usize {
        self.room() / block_size
    }

    /// The next block of `block_size` bytes (a multiple of [`BLOCK_ALIGN`], at least
    /// [`HEADER`]), or [`AllocError::BufferExhausted`].
    pub(super) fn carve(&self, block_size: usize) -> Result<Block, AllocError> {
        debug_assert!(block_size >= HEADER && block_size % BLOCK_ALIGN == 0);
        if self.room() < block_size {
            return Err(self.refuse(block_size, BLOCK_ALIGN));
        }
        let base = self.next.get();
        // SAFETY: `block_size <= room`, so the new `next` is within the window (C1).
        self.next.set(unsafe { base.add(block_size) });
        // SAFETY: a pointer into a live buffer is not null.
        let base = unsafe { NonNull::new_unchecked(base) };
        debug_assert!(ends_low(base, block_size));
        // SAFETY: `base` is aligned to `BLOCK_ALIGN` (the window starts aligned and moves
        // by multiples of it), valid for `block_size >= HEADER` bytes of the buffer this
        // carver borrows exclusively, cut once (the window moved past it just now), and
        // ends at or below `isize::MAX` (C1).
        Ok(unsafe { Block::carve(base, block_size) })
    }

    /// The error for a block of `size` bytes aligned to `align` that the buffer cannot
    /// give.
    pub(super) fn refuse(&self, size: usize, align: usize) -> AllocError {
        AllocError::BufferExhausted { size, align, left: self.room() }
    }
}

impl fmt::Debug for Carver<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Carver").field("len", &self.len).field("uncut", &self.room()).finish()
    }
}

/// A block pool over a caller's buffer: scopes with no allocator at all.
///
/// The buffer is cut into standard blocks as scopes need them; a scope gives its blocks
/// back when it ends and the next scope takes them, as with a
/// [`BlockPool`](crate::BlockPool). [`new`](Self::new) makes the whole buffer one block
/// (a scope over a caller's memory); [`with_block_size`](Self::with_block_size) cuts it
/// into many, for nested scopes, or scopes on several tasks' buffers in turn.
///
/// # What is freed when
///
/// Nothing is ever freed: the values of a scope are dropped when it ends (destructors and
/// `on_exit` callbacks run as in any scope), and its blocks go back to this pool. The
/// buffer is the caller's again when the pool ends; the borrow checker keeps it borrowed
/// until then, and keeps the pool alive while any of its scopes is.
///
/// # When the buffer is full
///
/// A scope that needs a block when every block is cut and in use gets
/// [`AllocError::BufferExhausted`] from its `try_` methods (which hand the value back);
/// its other methods panic. A value larger than a block fails the same way: there are no
/// dedicated blocks. No call ever reaches a global allocator for a block.
///
/// With the `alloc` feature enabled, a scope that comes to hold more than one block (or
/// a collection's buffer block, or a limit) keeps a few words of bookkeeping for them on
/// the heap, once per scope; a block the buffer cannot give makes none. Built without
/// `alloc` (`default-features = false`), that bookkeeping lives in the scope itself and
/// nothing in the crate can call an allocator.
///
/// # Cost
///
/// As a [`BlockPool`](crate::BlockPool): a scope that fits one block takes the block the
/// last scope gave back, a few loads and a store at each end; cutting a new block is an
/// addition and a compare. Each block gives up its first 32 bytes to a header, and the
/// buffer's start is aligned to 16 bytes.
///
/// # Examples
///
/// ```
/// use core::mem::MaybeUninit;
/// use arena_kit::{AllocError, BufferBlockPool};
///
/// let mut buffer = [MaybeUninit::uninit(); 4096];
/// let pool = BufferBlockPool::with_block_size(&mut buffer, 992); // four 1 KiB blocks
/// assert_eq!(pool.block_size(), 1024);
/// for message in ["ping", "pong"] {
///     let scope = pool.scope();
///     let echo = scope.alloc_str(message);
///     let words = arena_kit::vec![in &scope; echo.len(); 3];
///     assert_eq!(words.len(), 3);
/// } // the block is back in the pool, ready for the next message
/// assert_eq!(pool.stats().cached_blocks, 1);
///
/// // A request the buffer cannot hold is an error, never a call to an allocator.
/// let scope = pool.scope();
/// let err = scope.try_alloc([0_u8; 2000]).unwrap_err();
/// assert!(matches!(err.error(), AllocError::BufferExhausted { .. }));
/// ```
pub struct BufferBlockPool<'b> {
    cache: BlockCache<'b>,
}

impl<'b> BufferBlockPool<'b> {
    /// A pool whose one block is the whole buffer (less up to 15 bytes to align its
    /// start): a scope over the caller's memory. A child scope needs a block of its own,
    /// so with one block only [`Scope::scoped`](crate::Scope::scoped) nests; use
    /// [`with_block_size`](Self::with_block_size) for more.
    ///
    /// A buffer too small for a block header (under 48 bytes) gives a pool whose scopes
    /// cannot allocate anything.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::mem::MaybeUninit;
    ///
    /// let mut buffer = [MaybeUninit::uninit(); 1024];
    /// let pool = arena_kit::BufferBlockPool::new(&mut buffer);
    /// let mut scope = pool.scope();
    /// let total = scope.scoped(|s| s.alloc_slice_fill_with(100, |i| i as u32).iter().sum::<u32>());
    /// assert_eq!(total, 4950);
    /// assert!(pool.block_capacity() >= 1024 - 48);
    /// ```
    #[must_use]
    pub fn new(buffer: &'b mut [MaybeUninit<u8>]) -> Self {
        let carver = Carver::new(buffer);
        let whole = carver.room() / BLOCK_ALIGN * BLOCK_ALIGN;
        Self::from_carver(carver, whole.max(HEADER))
    }

    /// A pool that cuts the buffer into blocks holding at least `bytes` bytes of data
    /// each: the block size is `bytes` plus the 32-byte header, rounded up to a multiple
    /// of 16. The buffer holds `len / block_size` of them (after aligning its start).
    ///
    /// # Panics
    ///
    /// If `bytes` plus the header overflows `isize`.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::mem::MaybeUninit;
    ///
    /// let mut buffer = [MaybeUninit::uninit(); 2048 + 16];
    /// let pool = arena_kit::BufferBlockPool::with_block_size(&mut buffer, 480);
    /// assert_eq!(pool.block_size(), 512);
    /// assert!(pool.blocks_left() >= 4);
    /// let outer = pool.scope();
    /// outer.alloc(0_u64); // a scope takes its first block at its first value
    /// let inner = outer.scope();
    /// inner.alloc(1_u64); // a second block, cut from the buffer
    /// assert_eq!(pool.stats().live_blocks, 2);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn with_block_size(buffer: &'b mut [MaybeUninit<u8>], bytes: usize) -> Self {
        let size = bytes
            .checked_add(HEADER)
            .and_then(|n| n.checked_next_multiple_of(BLOCK_ALIGN))
            .filter(|&n| isize::try_from(n).is_ok());
        let Some(size) = size else {
            panic!("arena-kit: a block of {bytes} bytes cannot be cut from a buffer");
        };
        Self::from_carver(Carver::new(buffer), size)
    }

    fn from_carver(carver: Carver<'b>, block_size: usize) -> Self {
        BufferBlockPool { cache: BlockCache::new(block_size, usize::MAX, Origin::Buffer(carver)) }
    }

    /// The cache, for the scopes built on it.
    #[inline]
    pub(crate) fn cache(&self) -> &BlockCache<'b> {
        &self.cache
    }

    /// Total bytes of a block, header included.
    ///
    /// # Examples
    ///
    /// ```
    /// # use core::mem::MaybeUninit;
    /// let mut buffer = [MaybeUninit::uninit(); 1000];
    /// let pool = arena_kit::BufferBlockPool::with_block_size(&mut buffer, 100);
    /// assert_eq!(pool.block_size(), 144); // 100 + 32, rounded up to 16
    /// ```
    #[must_use]
    pub fn block_size(&self) -> usize {
        self.cache.block_size()
    }

    /// Bytes of a block available to values (its size less the 32-byte header).
    ///
    /// # Examples
    ///
    /// ```
    /// # use core::mem::MaybeUninit;
    /// let mut buffer = [MaybeUninit::uninit(); 1000];
    /// let pool = arena_kit::BufferBlockPool::with_block_size(&mut buffer, 100);
    /// assert_eq!(pool.block_capacity(), 112);
    /// ```
    #[must_use]
    pub fn block_capacity(&self) -> usize {
        self.cache.block_size() - HEADER
    }

    /// Blocks not yet cut from the buffer. Blocks cut and given back are in
    /// [`stats`](Self::stats)`().cached_blocks`.
    ///
    /// # Examples
    ///
    /// ```
    /// # use core::mem::MaybeUninit;
    /// let mut buffer = [MaybeUninit::uninit(); 64 * 10 + 15];
    /// let pool = arena_kit::BufferBlockPool::with_block_size(&mut buffer, 32);
    /// assert_eq!(pool.blocks_left(), 10);
    /// pool.scope().alloc(1_u8);
    /// assert_eq!((pool.blocks_left(), pool.stats().cached_blocks), (9, 1));
    /// ```
    #[must_use]
    pub fn blocks_left(&self) -> usize {
        self.cache.blocks_left().unwrap_or(0)
    }

    /// Cuts blocks ahead of time until `blocks` are cached, so the scopes that take them
    /// later do no cutting.
    ///
    /// # Errors
    ///
    /// [`AllocError::BufferExhausted`] if the buffer holds fewer, or
    /// [`AllocError::LimitReached`] past the [limit](Self::set_limit); the blocks cut
    /// until then stay cached.
    ///
    /// # Examples
    ///
    /// ```
    /// # use core::mem::MaybeUninit;
    /// let mut buffer = [MaybeUninit::uninit(); 4096];
    /// let pool = arena_kit::BufferBlockPool::with_block_size(&mut buffer, 480);
    /// pool.reserve(3)?;
    /// assert_eq!(pool.stats().cached_blocks, 3);
    /// assert!(pool.reserve(100).is_err());
    /// # Ok::<(), arena_kit::AllocError>(())
    /// ```
    pub fn reserve(&self, blocks: usize) -> Result<(), AllocError> {
        self.cache.reserve(blocks)
    }

    /// The most bytes of blocks this pool's scopes may hold at once, if limited.
    ///
    /// # Examples
    ///
    /// ```
    /// # use core::mem::MaybeUninit;
    /// let mut buffer = [MaybeUninit::uninit(); 4096];
    /// let pool = arena_kit::BufferBlockPool::with_block_size(&mut buffer, 480);
    /// assert_eq!(pool.limit(), None);
    /// ```
    #[must_use]
    pub fn limit(&self) -> Option<usize> {
        self.cache.limit()
    }

    /// Caps the bytes of blocks cut from the buffer (live and cached): a budget below the
    /// buffer's size, for a buffer shared with other uses by offset. Past it, scopes get
    /// [`AllocError::LimitReached`].
    ///
    /// # Examples
    ///
    /// ```
    /// # use core::mem::MaybeUninit;
    /// let mut buffer = [MaybeUninit::uninit(); 4096];
    /// let pool = arena_kit::BufferBlockPool::with_block_size(&mut buffer, 480);
    /// pool.set_limit(Some(1024)); // two blocks
    /// let a = pool.scope();
    /// a.alloc(1);
    /// let b = pool.scope();
    /// b.alloc(2);
    /// let c = pool.scope();
    /// assert!(c.try_alloc(3).is_err());
    /// ```
    pub fn set_limit(&self, limit: Option<usize>) {
        self.cache.set_limit(limit);
    }

    /// The limit every scope of this pool has unless it sets its own, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// # use core::mem::MaybeUninit;
    /// let mut buffer = [MaybeUninit::uninit(); 4096];
    /// let pool = arena_kit::BufferBlockPool::with_block_size(&mut buffer, 480);
    /// assert_eq!(pool.scope_limit(), None);
    /// ```
    #[must_use]
    pub fn scope_limit(&self) -> Option<usize> {
        self.cache.scope_limit()
    }

    /// Gives every scope of this pool a limit on the bytes of blocks it holds, unless the
    /// scope sets its own: so one message cannot take the whole buffer from the others.
    /// As [`BlockPool::set_scope_limit`](crate::BlockPool::set_scope_limit) (read only
    /// when a scope takes a block; a scope always gets its first one).
    ///
    /// # Examples
    ///
    /// ```
    /// # use core::mem::MaybeUninit;
    /// let mut buffer = [MaybeUninit::uninit(); 4096];
    /// let pool = arena_kit::BufferBlockPool::with_block_size(&mut buffer, 480);
    /// pool.set_scope_limit(Some(2 * pool.block_size())); // two blocks per scope
    /// let greedy = pool.scope();
    /// while greedy.try_alloc([0_u8; 100]).is_ok() {}
    /// assert_eq!(greedy.stats().blocks, 2);
    /// let next = pool.scope(); // the buffer has room left for it
    /// assert!(next.try_alloc([0_u8; 100]).is_ok());
    /// ```
    pub fn set_scope_limit(&self, limit: Option<usize>) {
        self.cache.set_scope_limit(limit);
    }

    /// A snapshot of the pool's counters; `system_allocations` is always 0.
    ///
    /// # Examples
    ///
    /// ```
    /// # use core::mem::MaybeUninit;
    /// let mut buffer = [MaybeUninit::uninit(); 4096];
    /// let pool = arena_kit::BufferBlockPool::with_block_size(&mut buffer, 480);
    /// let scope = pool.scope();
    /// scope.alloc([0_u8; 100]);
    /// let s = pool.stats();
    /// assert_eq!((s.live_blocks, s.cached_blocks, s.system_allocations), (1, 0, 0));
    /// ```
    #[must_use]
    pub fn stats(&self) -> BlockPoolStats {
        self.cache.stats()
    }
}

impl fmt::Debug for BufferBlockPool<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BufferBlockPool").field("cache", &self.cache).finish()
    }
}
