//! Where a scope's blocks come from, and where they go back.
//!
//! A [`Scope`](crate::Scope) made by [`BlockPool::scope`](crate::BlockPool::scope) borrows
//! the pool and recycles its blocks through it. An [`Arena`](crate::Arena) owns its blocks
//! outright (seed 000's AutoFreeAlloc): it asks the system for each one, growing the block
//! size geometrically so that many small values cost few system calls, and frees them when
//! it ends. Both are the same bump allocator; only this choice differs, and it is made on
//! the slow path only (when a block runs out), never per allocation.
#![expect(clippy::inline_always, reason = "a W1 scope takes one block: this path must inline")]

use core::alloc::Layout;
#[cfg(feature = "alloc")]
use core::cell::Cell;

#[cfg(feature = "alloc")]
use crate::block::BLOCK_ALIGN;
use crate::block::BlockCache;
#[cfg(feature = "alloc")]
use crate::block::raw;
use crate::block::{self, Block};
use crate::error::AllocError;

#[cfg(feature = "alloc")]
/// First block of an [`Arena`](crate::Arena): 1 KiB less the malloc header, small enough
/// for the system allocator's per-thread cache (glibc's tcache serves up to 1 KiB), so an
/// arena made for a handful of values costs what a `Box` does.
const FIRST_SYSTEM_BLOCK: usize = 1024 - raw::MALLOC_OVERHEAD;

#[cfg(feature = "alloc")]
/// Largest block an arena grows to on its own (256 pages); bigger requests still get a
/// block of their size.
const MAX_SYSTEM_BLOCK: usize = 256 * raw::PAGE - raw::MALLOC_OVERHEAD;

#[derive(Debug)]
pub(crate) enum Source<'p> {
    /// Recycle through a block pool's cache (a `BlockPool`'s or a thread's
    /// `LocalBlockPool`'s; the cache's own borrow of its upstream is shortened to `'p`).
    Pool(&'p BlockCache<'p>),
    /// Own blocks from the system; the size of the next block.
    #[cfg(feature = "alloc")]
    System(Cell<usize>),
}

impl<'p> Source<'p> {
    /// Blocks owned outright, growing from [`FIRST_SYSTEM_BLOCK`].
    #[cfg(feature = "alloc")]
    pub(crate) fn system() -> Self {
        Source::System(Cell::new(FIRST_SYSTEM_BLOCK))
    }

    /// For a system source, makes the next block at least `size` bytes (past the usual
    /// cap on growth: a size that one cycle of the arena needed); a pool's blocks have
    /// one size, so for a pool source this does nothing.
    #[cfg_attr(
        not(feature = "alloc"),
        expect(clippy::unused_self, reason = "only an arena's system source grows")
    )]
    pub(super) fn grow_next_to(&self, size: usize) {
        #[cfg(feature = "alloc")]
        if let Source::System(next) = self {
            next.set(next.get().max(size));
        }
        #[cfg(not(feature = "alloc"))]
        let _ = size;
    }

    /// `"pool"` or `"system"`, for `Debug` output.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Source::Pool(_) => "pool",
            #[cfg(feature = "alloc")]
            Source::System(_) => "system",
        }
    }

    /// The source of a child bump: the same pool, or a fresh system source.
    #[inline]
    pub(crate) fn child(&self) -> Source<'p> {
        match self {
            Source::Pool(pool) => Source::Pool(pool),
            #[cfg(feature = "alloc")]
            Source::System(_) => Source::system(),
        }
    }

    /// The block a new bump starts on, with its data bounds: a pool's hot block (the one
    /// the last bump gave back), so that a scope which fits one block never takes the
    /// slow path. Its bounds follow from the pool's block size without reading it.
    #[inline(always)]
    pub(super) fn first_block(&self) -> Option<(Block, *mut u8, *mut u8)> {
        match self {
            Source::Pool(pool) => {
                let block = pool.take_hot()?;
                let (start, end) = block.standard_data(pool.block_size());
                Some((block, start, end))
            }
            #[cfg(feature = "alloc")]
            Source::System(_) => None,
        }
    }

    /// Bytes a collection may take in bump blocks before it gets a block of its own: a
    /// standard block's data for a pool; for the system, the first block's (an arena's
    /// blocks grow, 1 KiB, 2, 4, ...: a buffer moving through each would leave them all
    /// behind).
    #[inline]
    pub(super) fn standard_capacity(&self) -> usize {
        match self {
            Source::Pool(pool) => pool.block_size() - block::HEADER,
            #[cfg(feature = "alloc")]
            Source::System(_) => FIRST_SYSTEM_BLOCK - block::HEADER,
        }
    }

    /// The limit of a bump that sets none of its own: its pool's scope limit (none for
    /// the system).
    #[inline]
    pub(super) fn scope_limit(&self) -> Option<usize> {
        match self {
            Source::Pool(pool) => pool.scope_limit(),
            #[cfg(feature = "alloc")]
            Source::System(_) => None,
        }
    }

    /// Whether [`acquire`](Self::acquire) hands out a pool's standard block for `layout`
    /// (never for the system, whose blocks grow).
    pub(super) fn is_standard(&self, layout: Layout) -> bool {
        match self {
            Source::Pool(pool) => block::fits_standard(layout, pool.block_size()),
            #[cfg(feature = "alloc")]
            Source::System(_) => false,
        }
    }

    /// Bytes of the block [`acquire`](Self::acquire) would hand out for `layout`, so a
    /// scope can check its limit before anything is taken.
    pub(super) fn block_size_for(&self, layout: Layout) -> Result<usize, AllocError> {
        match self {
            Source::Pool(pool) if block::fits_standard(layout, pool.block_size()) => {
                Ok(pool.block_size())
            }
            Source::Pool(_) => block::dedicated_size(layout),
            #[cfg(feature = "alloc")]
            Source::System(next) => Ok(block::dedicated_size(layout)?.max(next.get())),
        }
    }

    /// A block whose data holds `layout` at its start (after alignment padding).
    #[inline(always)]
    pub(super) fn acquire(&self, layout: Layout) -> Result<Block, AllocError> {
        match self {
            Source::Pool(pool) => pool.acquire(layout),
            #[cfg(feature = "alloc")]
            Source::System(next) => {
                let size = self.block_size_for(layout)?;
                let block = Block::allocate(size, layout.align().max(BLOCK_ALIGN))?;
                // Double the next block: k * unit - overhead -> 2k * unit - overhead.
                let doubled =
                    (next.get() + raw::MALLOC_OVERHEAD).saturating_mul(2) - raw::MALLOC_OVERHEAD;
                next.set(doubled.min(MAX_SYSTEM_BLOCK));
                Ok(block)
            }
        }
    }

    /// A block of exactly [`block::dedicated_size`] for `layout`, never a standard or a
    /// geometrically grown one: a growing collection's buffer, alone in its block.
    pub(super) fn acquire_dedicated(&self, layout: Layout) -> Result<Block, AllocError> {
        match self {
            Source::Pool(pool) => pool.acquire_dedicated(layout),
            #[cfg(feature = "alloc")]
            Source::System(_) => {
                Block::allocate(block::dedicated_size(layout)?, layout.align().max(BLOCK_ALIGN))
            }
        }
    }

    /// A block of exactly `size` bytes aligned to `align` (at least `BLOCK_ALIGN`, and
    /// `size` at least [`block::smallest_size`] of what it is for), outside the standard
    /// sizes and the arena's growth: what a scope takes when its limit leaves no room for
    /// the block [`acquire`](Self::acquire) would hand out. Freed when it comes back.
    pub(super) fn acquire_sized(&self, size: usize, align: usize) -> Result<Block, AllocError> {
        match self {
            Source::Pool(pool) => pool.acquire_sized(size, align),
            #[cfg(feature = "alloc")]
            Source::System(_) => Block::allocate(size, align),
        }
    }

    /// Resizes a block from [`acquire_dedicated`](Self::acquire_dedicated); it may move.
    ///
    /// # Safety
    ///
    /// `block` came from this source's `acquire_dedicated`, and on success nothing uses
    /// pointers into its old data. On failure the block comes back unchanged.
    pub(super) unsafe fn resize_dedicated(
        &self,
        block: Block,
        size: usize,
    ) -> Result<Block, (Block, AllocError)> {
        match self {
            // SAFETY: forwarded from the caller; the pool made the block.
            Source::Pool(pool) => unsafe { pool.resize_dedicated(block, size) },
            #[cfg(feature = "alloc")]
            // SAFETY: forwarded from the caller; an arena's blocks are system blocks (B5),
            // owned by this source.
            Source::System(_) => unsafe { block.reallocate(size) },
        }
    }

    /// Gives back a pool's hot block to the slot it was lent from; hands any other block
    /// (and every block of a system source) back, for [`release`](Self::release).
    ///
    /// # Safety
    ///
    /// As [`release`](Self::release).
    #[inline(always)]
    pub(super) unsafe fn release_hot(&self, block: Block) -> Result<(), Block> {
        match self {
            // SAFETY: forwarded from the caller; a pool source's blocks come from `pool`.
            Source::Pool(pool) => unsafe { pool.release_hot(block) },
            #[cfg(feature = "alloc")]
            Source::System(_) => Err(block),
        }
    }

    /// Gives a block back.
    ///
    /// # Safety
    ///
    /// `block` came from this source's `acquire`, `acquire_dedicated` or `acquire_sized`, and
    /// nothing uses its data afterwards.
    #[inline(always)]
    pub(super) unsafe fn release(&self, block: Block) {
        match self {
            // SAFETY: forwarded from the caller; a pool source's blocks come from `pool`.
            Source::Pool(pool) => unsafe { pool.release(block) },
            #[cfg(feature = "alloc")]
            // SAFETY: forwarded from the caller; an arena's blocks are system blocks (B5),
            // owned by this source.
            Source::System(_) => unsafe { block.free() },
        }
    }
}
