//! A block: one system allocation (or one piece of a caller's buffer) with a small header
//! in front of the bytes it serves, and [`BlockList`], the one intrusive list blocks are
//! kept in.
//!
//! ```text
//! base                     data_start                                     end
//!  | next | size | align | pad |  bump-allocated values ...  | free tail  |
//!  '------ BlockHeader ------'
//! ```
//!
//! # Invariants
//!
//! - **(B1) A [`Block`] owns its allocation.** It is neither `Copy` nor `Clone`, exactly
//!   one `Block` exists per live allocation, and the only ways to end one ([`Block::free`],
//!   [`Block::reallocate`]) consume it. So a `Block` in hand always points at a live
//!   header, and every accessor that reads the header is safe.
//! - **(B2) The header's `size` and `align` are the layout the block was allocated with**
//!   (`reallocate` rewrites `size` together with the allocation), so any owner can free it.
//! - **(B3) The header's `next` link belongs to the [`BlockList`] holding the block**: it
//!   is `None` while the block is outside a list, and only this module reads or writes
//!   it. A list owns its blocks through these links, so moving a block between lists
//!   moves ownership, and no block is ever in two lists.
//! - **(B4) A block from [`Block::allocate`] ends at or below address `isize::MAX`**: an
//!   allocation that would end higher is given back and reported as out of memory (no
//!   64-bit platform's heap reaches there; a 32-bit one's might). So a cursor in such a
//!   block plus any padded `Layout`'s size and alignment mask (at most `isize::MAX`
//!   together) never overflows a `usize`, and the bump's fast path needs no overflow
//!   check. [`Block::reallocate`] does not keep B4: it resizes only buffer blocks, which
//!   nothing bumps into (the bump's S5). [`Block::carve`] keeps it too: its caller
//!   checks the end.
//! - **(B5) A block is a system block or a carved one, for good**: [`Block::allocate`]
//!   makes system blocks, [`Block::carve`] carved ones (a piece of a caller's buffer,
//!   `block/buffer.rs`). Only a system block may be freed or resized: [`Block::free`] and
//!   [`Block::reallocate`] require it, and they exist only with the `alloc` feature. A
//!   carved block is owned by the cache of the buffer it was cut from and never leaves
//!   it but to be lent to that cache's scopes.
//!
//! What no type here can prove is whether anything still points into a block's *data*
//! (a scope hands out references into it). Freeing, resizing and recycling a block are
//! therefore `unsafe` at the level that knows: [`Block::free`], [`Block::reallocate`] and
//! the release functions of the block pools and scopes.
//!
//! Standard blocks are aligned to [`BLOCK_ALIGN`] (16, what malloc gives anyway) and their
//! data starts right after the header. A dedicated block for an over-aligned or oversize
//! request is aligned to the request and its data starts at the header size rounded up to
//! that alignment, so the request always fits at the very start.

use core::alloc::Layout;
use core::fmt;
use core::ptr::NonNull;

use crate::block::raw;
use crate::error::AllocError;

/// Header at the start of every block.
#[repr(C, align(16))]
struct BlockHeader {
    /// The next block of the list this one is in (B3).
    next: Option<Block>,
    size: usize,
    align: usize,
    /// `data_offset(align)`, kept in the header's spare word (it is 32 bytes either way)
    /// so that finding the data's start, which every scope reset does, is one load.
    data_offset: usize,
}

/// Alignment of a standard block (and of every block's header).
pub(crate) const BLOCK_ALIGN: usize = align_of::<BlockHeader>();

/// Bytes of header in front of a standard block's data.
pub(crate) const HEADER: usize = size_of::<BlockHeader>();

// The data offset took the header's spare word: the header is still two 16-byte units
// at most (one on 32-bit targets), as before.
const _: () = assert!(HEADER <= 32, "the block header stays 32 bytes");

/// An owned, live block (B1). Dropping a `Block` without [`free`](Block::free) leaks it
/// (safe: nothing else can reach it).
#[must_use = "a block dropped without `free` leaks its memory"]
pub(crate) struct Block(NonNull<BlockHeader>);

// SAFETY: a `Block` owns its allocation (B1): plain bytes and a header that only its
// owner reads or writes. Sending it to another thread sends that ownership; whatever the
// data holds is governed by the owner (a scope, which is `!Send`, or a pool's cache,
// which holds only empty blocks).
unsafe impl Send for Block {}

/// The address of a block whose `Block` was given up with [`Block::into_addr`]: a plain
/// value to keep and compare, which only [`Block::from_addr`] turns back into the owning
/// `Block`. It reads nothing and frees nothing by itself.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct BlockAddr(NonNull<BlockHeader>);

impl BlockAddr {
    /// An address no block has (dangling: a block is a live allocation).
    pub(super) const NONE: BlockAddr = BlockAddr(NonNull::dangling());
}

// SAFETY: a `BlockAddr` gives no access to the block: using it takes `Block::from_addr`,
// whose caller must hold the ownership the address stands for, and a `Block` is `Send`.
unsafe impl Send for BlockAddr {}

/// Bytes of a block aligned to `align` that come before its data.
#[inline]
const fn data_offset(align: usize) -> usize {
    if align > HEADER { align } else { HEADER }
}

/// Bytes of a dedicated block for `layout` (aligned to `max(layout.align(), BLOCK_ALIGN)`,
/// `layout` at the start of its data), rounded up to fill whole pages where that still
/// makes a valid size.
pub(crate) fn dedicated_size(layout: Layout) -> Result<usize, AllocError> {
    let size = smallest_size(layout)?;
    Ok(raw::page_fill(size).unwrap_or(size))
}

/// Bytes of the smallest block that holds `layout` at the start of its data (aligned to
/// `max(layout.align(), BLOCK_ALIGN)`), unrounded: what a scope under a tight limit takes.
pub(crate) fn smallest_size(layout: Layout) -> Result<usize, AllocError> {
    let align = layout.align().max(BLOCK_ALIGN);
    data_offset(align)
        .checked_add(layout.size())
        .filter(|&n| n <= isize::MAX as usize - (align - 1))
        .ok_or(AllocError::LayoutTooLarge { size: layout.size(), align: layout.align() })
}

/// Whether `layout` surely fits in a fresh standard block of `block_size` bytes, whatever
/// padding its alignment needs after the 16-aligned data start.
#[inline]
pub(crate) fn fits_standard(layout: Layout, block_size: usize) -> bool {
    let worst_pad = layout.align().saturating_sub(BLOCK_ALIGN);
    let capacity = block_size - HEADER;
    layout.size() <= capacity && worst_pad <= capacity - layout.size()
}

/// Whether an allocation of `size` bytes (at most `isize::MAX`, as every layout's) at
/// `base` ends at or below `isize::MAX` (B4).
#[inline]
pub(super) fn ends_low(base: NonNull<u8>, size: usize) -> bool {
    debug_assert!(isize::try_from(size).is_ok(), "a layout's size");
    base.addr().get() <= isize::MAX as usize - size
}

/// Gives back an allocation that ends above `isize::MAX` (B4) and says why: out of
/// memory, as far as the caller is concerned.
///
/// # Safety
///
/// `base` came from `raw::allocate(layout)`, and nothing else holds it.
#[cfg(feature = "alloc")]
#[cold]
#[inline(never)]
unsafe fn refuse_high(base: NonNull<u8>, layout: Layout) -> AllocError {
    // SAFETY: forwarded from the caller.
    unsafe { raw::deallocate(base, layout) };
    AllocError::OutOfMemory { size: layout.size(), align: layout.align() }
}

impl Block {
    /// Makes a carved block (B5) of `size` bytes at `base`, a piece of a caller's buffer,
    /// and writes its header. Its alignment is [`BLOCK_ALIGN`].
    ///
    /// # Safety
    ///
    /// - `base` is aligned to [`BLOCK_ALIGN`] and valid for reads and writes of `size`
    ///   bytes, and `size` is at least [`HEADER`];
    /// - nothing else reads or writes those bytes while the block, or any block made from
    ///   it by [`into_addr`](Self::into_addr) and [`from_addr`](Self::from_addr), lives
    ///   (the carver hands each piece out once, from a buffer it borrows exclusively);
    /// - they end at or below `isize::MAX` (B4).
    pub(crate) unsafe fn carve(base: NonNull<u8>, size: usize) -> Block {
        debug_assert!(size >= HEADER && ends_low(base, size), "a carved block");
        let header = base.cast::<BlockHeader>();
        let fields = BlockHeader { next: None, size, align: BLOCK_ALIGN, data_offset: HEADER };
        // SAFETY: the caller hands over `size >= HEADER` bytes at `base`, aligned for the
        // header and used by nothing else.
        unsafe { header.write(fields) };
        Block(header)
    }

    /// Allocates a block of `size` bytes aligned to `align` from the system and writes its
    /// header.
    ///
    /// # Errors
    ///
    /// [`AllocError::LayoutTooLarge`] if `size` and `align` form no layout,
    /// [`AllocError::OutOfMemory`] if the system refuses.
    ///
    /// # Panics
    ///
    /// If `align` is below [`BLOCK_ALIGN`] or `size` cannot hold the header and its
    /// padding: a bug in the caller, checked on this cold path so that no argument can
    /// make the header write land outside the allocation.
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn allocate(size: usize, align: usize) -> Result<Block, AllocError> {
        assert!(
            align >= BLOCK_ALIGN && size >= data_offset(align),
            "arena-kit: a block of {size} bytes aligned to {align} cannot hold its header"
        );
        let layout = Layout::from_size_align(size, align)
            .map_err(|_| AllocError::LayoutTooLarge { size, align })?;
        let base = raw::allocate(layout).ok_or(AllocError::OutOfMemory { size, align })?;
        if !ends_low(base, size) {
            // SAFETY: `base` came from `raw::allocate(layout)` just now, and nothing else
            // holds it.
            return Err(unsafe { refuse_high(base, layout) });
        }
        let header = base.cast::<BlockHeader>();
        let fields = BlockHeader { next: None, size, align, data_offset: data_offset(align) };
        // SAFETY: `base` is a fresh allocation of `size >= HEADER` bytes (asserted above)
        // aligned to `align >= align_of::<BlockHeader>()`, so a header fits at its start.
        unsafe { header.write(fields) };
        Ok(Block(header))
    }

    /// Gives up the `Block` but not the allocation: whoever keeps the address owns the
    /// block, and takes it back with [`from_addr`](Self::from_addr).
    #[inline]
    pub(super) fn into_addr(self) -> BlockAddr {
        BlockAddr(self.0)
    }

    /// The block's address, to compare with a kept [`BlockAddr`].
    #[inline]
    pub(super) fn addr(&self) -> BlockAddr {
        BlockAddr(self.0)
    }

    /// The `Block` whose ownership [`into_addr`](Self::into_addr) gave up.
    ///
    /// # Safety
    ///
    /// `addr` came from `into_addr`, and the caller holds the ownership given up with it:
    /// no `Block` for that allocation exists now and none was made from `addr` since
    /// (B1: one `Block` per live allocation).
    #[inline]
    pub(super) unsafe fn from_addr(addr: BlockAddr) -> Block {
        Block(addr.0)
    }

    /// Returns the block to the system.
    ///
    /// # Safety
    ///
    /// The block is a system block (B5: it came from [`allocate`](Self::allocate), not
    /// [`carve`](Self::carve)). Nothing reads or writes the block's data afterwards: every pointer into it that
    /// was handed out (a scope's values, a collection's buffer, a free chunk) is dead.
    #[cfg(feature = "alloc")]
    pub(crate) unsafe fn free(self) {
        debug_assert!(self.next().is_none(), "a listed block is freed through its list");
        let layout = self.layout();
        // SAFETY: the block owns an allocation of `raw::allocate` (a system block, B5, as
        // the caller guarantees) with exactly this layout (B1, B2); consuming `self` frees it once, and the caller guarantees nothing uses
        // its data afterwards.
        unsafe { raw::deallocate(self.0.cast(), layout) };
    }

    /// Resizes the block to `size` bytes (same alignment), keeping its header and the
    /// data in front of the new end; the block may move. On failure the block comes back
    /// unchanged with the error.
    ///
    /// # Safety
    ///
    /// The block is a system block (B5). On success, pointers into the old block's data
    /// are dead: the caller uses only the returned block's
    /// [`data_start`](Self::data_start) from then on.
    #[cfg(feature = "alloc")]
    pub(crate) unsafe fn reallocate(self, size: usize) -> Result<Block, (Block, AllocError)> {
        debug_assert!(self.next().is_none(), "a listed block is resized outside its list");
        let old = self.layout();
        let align = old.align();
        if size < data_offset(align) || Layout::from_size_align(size, align).is_err() {
            return Err((self, AllocError::LayoutTooLarge { size, align }));
        }
        // SAFETY: a live system block (B5, caller) of exactly `old` (B1, B2); `size` is
        // non-zero and a valid layout with `align` (checked above); on success `self` is
        // consumed and the caller gives up its data pointers.
        match unsafe { raw::reallocate(self.0.cast(), old, size) } {
            Some(base) => {
                let header = base.cast::<BlockHeader>();
                // SAFETY: `base` is the live, resized allocation (at least a header, see
                // above); the header moved with the data and only its `size` changes (B2).
                unsafe { (*header.as_ptr()).size = size };
                Ok(Block(header))
            }
            None => Err((self, AllocError::OutOfMemory { size, align })),
        }
    }

    #[inline]
    fn header(&self) -> &BlockHeader {
        // SAFETY: the header is live while `self` exists (B1). Its `size` and `align` are
        // written only by `reallocate`, which consumes the only `Block`, and its link only
        // through `&mut Block` or `&mut BlockList` (B3), neither of which can coexist
        // with this shared borrow of `self`.
        unsafe { self.0.as_ref() }
    }

    /// Total bytes of the block, header included.
    #[inline]
    pub(crate) fn size(&self) -> usize {
        self.header().size
    }

    /// Alignment the block was allocated with.
    #[inline]
    pub(super) fn align(&self) -> usize {
        self.header().align
    }

    #[cfg(feature = "alloc")]
    #[inline]
    fn layout(&self) -> Layout {
        // SAFETY: the same size and align formed a valid layout when the block was
        // allocated or resized (B2).
        unsafe { Layout::from_size_align_unchecked(self.size(), self.align()) }
    }

    /// The block after this one in its list.
    #[inline]
    fn next(&self) -> Option<&Block> {
        self.header().next.as_ref()
    }

    /// Unlinks and returns the block after this one.
    #[inline]
    fn take_next(&mut self) -> Option<Block> {
        // SAFETY: the header is live (B1) and `&mut self` is the only access to its link.
        unsafe { (*self.0.as_ptr()).next.take() }
    }

    /// Sets the link to the block after this one; the old link must be empty.
    #[inline]
    fn set_next(&mut self, next: Option<Block>) {
        debug_assert!(self.next().is_none(), "a link is overwritten, leaking a block");
        // SAFETY: the header is live (B1) and `&mut self` is the only access to its link;
        // the old value is `None` (a block outside a list, B3), so nothing is leaked.
        unsafe { (*self.0.as_ptr()).next = next };
    }

    /// First byte of the block (its header): the address that identifies it.
    #[inline]
    pub(super) fn base(&self) -> *mut u8 {
        self.0.as_ptr().cast()
    }

    /// First byte of the block's data.
    #[inline]
    pub(crate) fn data_start(&self) -> *mut u8 {
        let offset = self.header().data_offset;
        debug_assert_eq!(offset, data_offset(self.align()), "the header's data offset");
        // SAFETY: the header's `data_offset` is `data_offset(align)`, written with `align`
        // when the block was made and never changed; `allocate` checked
        // `size >= data_offset(align)` (and `reallocate` keeps it), so the offset stays
        // within (or one past the end of) the allocation.
        unsafe { self.base().add(offset) }
    }

    /// One past the last byte of the block.
    #[inline]
    pub(crate) fn data_end(&self) -> *mut u8 {
        let size = self.size();
        // SAFETY: one past the end of the `size`-byte allocation (B2).
        unsafe { self.base().add(size) }
    }

    /// The data bounds of a standard block of `block_size` bytes, without reading the
    /// header: what a scope starting on a cached block needs on its fast path.
    #[inline]
    pub(crate) fn standard_data(&self, block_size: usize) -> (*mut u8, *mut u8) {
        debug_assert!(
            self.size() == block_size && self.align() == BLOCK_ALIGN,
            "a standard block of {block_size} bytes"
        );
        // SAFETY: a standard block is `block_size >= HEADER` bytes (asserted in debug
        // builds; `Block::allocate` checked the size), so the data start is within it.
        let start = unsafe { self.base().add(HEADER) };
        // SAFETY: as above, one past its end.
        let end = unsafe { self.base().add(block_size) };
        (start, end)
    }

    /// Bytes of data the block holds.
    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.size() - data_offset(self.align())
    }
}

impl fmt::Debug for Block {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Block").field("base", &self.0).field("size", &self.size()).finish()
    }
}

/// A singly linked list of owned blocks, threaded through their headers (B3): a stack,
/// newest first, with its length. Every list of blocks in the crate is one of these (a
/// block pool's cache, the shared pool's list, a scope's outgrown blocks and buffers, a
/// size class's blocks), so the link reads and writes live here only.
///
/// Dropping a non-empty list leaks its blocks (its owner frees them with [`pop`](Self::pop)
/// and the `unsafe` release of its level).
#[derive(Default)]
pub(crate) struct BlockList {
    head: Option<Block>,
    len: usize,
}

impl BlockList {
    /// An empty list.
    pub(crate) const fn new() -> Self {
        BlockList { head: None, len: 0 }
    }

    /// Blocks in the list.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Whether the list holds no block.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.head.is_none()
    }

    /// Links `block` in front.
    #[inline]
    pub(crate) fn push(&mut self, mut block: Block) {
        block.set_next(self.head.take());
        self.head = Some(block);
        self.len += 1;
    }

    /// Unlinks the front block.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<Block> {
        let mut block = self.head.take()?;
        self.head = block.take_next();
        self.len -= 1;
        Some(block)
    }

    #[cfg(feature = "std")]
    /// Unlinks up to `count` blocks from the front, as a list of their own (in order).
    pub(super) fn split_front(&mut self, count: usize) -> BlockList {
        if count >= self.len {
            return core::mem::take(self);
        }
        let mut front = BlockList::new();
        for _ in 0..count {
            let Some(block) = self.pop() else { break };
            front.push(block);
        }
        front.reverse();
        front
    }

    /// Moves every block of `other` in front of this list's blocks.
    pub(crate) fn prepend(&mut self, mut other: BlockList) {
        other.reverse();
        while let Some(block) = other.pop() {
            self.push(block);
        }
    }

    /// Reverses the list in place.
    fn reverse(&mut self) {
        let mut reversed = BlockList::new();
        while let Some(block) = self.pop() {
            reversed.push(block);
        }
        *self = reversed;
    }

    /// Unlinks the block whose data starts at `data`, if it is in the list.
    pub(crate) fn remove_by_data(&mut self, data: *mut u8) -> Option<Block> {
        let mut skipped = BlockList::new();
        let mut found = None;
        while let Some(block) = self.pop() {
            if block.data_start() == data {
                found = Some(block);
                break;
            }
            skipped.push(block);
        }
        while let Some(block) = skipped.pop() {
            self.push(block);
        }
        found
    }

    /// The blocks, front first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Block> {
        core::iter::successors(self.head.as_ref(), |block| block.next())
    }
}

impl fmt::Debug for BlockList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// B4's test, at the edge: an allocation may end at `isize::MAX`, not a byte past.
    #[test]
    fn a_block_may_end_at_isize_max_and_no_higher() {
        let at = |addr: usize| NonNull::new(core::ptr::without_provenance_mut(addr)).unwrap();
        let top = isize::MAX as usize;
        assert!(ends_low(at(top - 100), 100));
        assert!(!ends_low(at(top - 100), 101));
        assert!(!ends_low(at(usize::MAX - 8), 16), "an end past usize::MAX");
        assert!(ends_low(at(16), 4096));
    }
}
