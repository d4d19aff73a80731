//! A block: one system allocation with a small header in front of the bytes it serves.
//!
//! ```text
//! base                     data_start                                     end
//!  | prev | size | align | pad |  bump-allocated values ...  | free tail  |
//!  '------ BlockHeader ------'
//! ```
//!
//! The header's `prev` links a block into whichever list owns it: a scope's chain of
//! blocks in use, or a block pool's free list; a block is in exactly one list at a time.
//! `size` and `align` are the [`Layout`] it was allocated with, so any owner can free it.
//!
//! Standard blocks are aligned to [`BLOCK_ALIGN`] (16, what malloc gives anyway) and their
//! data starts right after the header. A dedicated block for an over-aligned or oversize
//! request is aligned to the request and its data starts at the header size rounded up to
//! that alignment, so the request always fits at the very start.

use core::alloc::Layout;
use core::ptr::NonNull;

use crate::error::AllocError;
use crate::raw;

/// Header at the start of every block.
#[repr(C, align(16))]
struct BlockHeader {
    prev: Option<Block>,
    size: usize,
    align: usize,
}

/// Alignment of a standard block (and of every block's header).
pub(crate) const BLOCK_ALIGN: usize = align_of::<BlockHeader>();

/// Bytes of header in front of a standard block's data.
pub(crate) const HEADER: usize = size_of::<BlockHeader>();

/// A pointer to a live block. `Copy`: ownership is tracked by the list it sits in, not by
/// this handle. Every method is safe to call while the block is allocated; freeing it is
/// the `unsafe` [`Block::free`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Block(NonNull<BlockHeader>);

/// Bytes of a block aligned to `align` that come before its data.
#[inline]
const fn data_offset(align: usize) -> usize {
    if align > HEADER { align } else { HEADER }
}

/// Bytes of a dedicated block for `layout` (aligned to `max(layout.align(), BLOCK_ALIGN)`,
/// `layout` at the start of its data), rounded up to fill whole pages where that still
/// makes a valid size.
pub(crate) fn dedicated_size(layout: Layout) -> Result<usize, AllocError> {
    let align = layout.align().max(BLOCK_ALIGN);
    let size = data_offset(align)
        .checked_add(layout.size())
        .filter(|&n| n <= isize::MAX as usize - (align - 1))
        .ok_or(AllocError::LayoutTooLarge { size: layout.size(), align: layout.align() })?;
    Ok(raw::page_fill(size).unwrap_or(size))
}

/// Whether `layout` surely fits in a fresh standard block of `block_size` bytes, whatever
/// padding its alignment needs after the 16-aligned data start.
#[inline]
pub(crate) fn fits_standard(layout: Layout, block_size: usize) -> bool {
    let worst_pad = layout.align().saturating_sub(BLOCK_ALIGN);
    let capacity = block_size - HEADER;
    layout.size() <= capacity && worst_pad <= capacity - layout.size()
}

impl Block {
    /// Allocates a block of `size` bytes aligned to `align` (a power of two, at least
    /// [`BLOCK_ALIGN`]) from the system and writes its header.
    pub(crate) fn allocate(size: usize, align: usize) -> Result<Block, AllocError> {
        debug_assert!(align >= BLOCK_ALIGN && align.is_power_of_two(), "bad block align {align}");
        debug_assert!(size >= data_offset(align), "block of {size} bytes cannot hold its header");
        let layout = Layout::from_size_align(size, align)
            .map_err(|_| AllocError::LayoutTooLarge { size, align })?;
        let base = raw::allocate(layout).ok_or(AllocError::OutOfMemory { size, align })?;
        let header = base.cast::<BlockHeader>();
        // SAFETY: `base` is a fresh allocation of `size >= HEADER` bytes aligned to at
        // least `align_of::<BlockHeader>()`, so a header fits at its start.
        unsafe { header.write(BlockHeader { prev: None, size, align }) };
        Ok(Block(header))
    }

    /// The block whose data starts at `data` and which was allocated aligned to `align`.
    ///
    /// # Safety
    ///
    /// `data` is `block.data_start()` of a live block allocated with alignment `align`.
    pub(crate) unsafe fn from_data_start(data: NonNull<u8>, align: usize) -> Block {
        // SAFETY: the caller guarantees `data` is that block's data start, which lies
        // `data_offset(align)` bytes after its header, within the same allocation.
        let base = unsafe { data.sub(data_offset(align)) };
        Block(base.cast())
    }

    /// Returns the block to the system.
    ///
    /// # Safety
    ///
    /// - the block is in no list any more (nobody else will free it);
    /// - no reference into its data is used afterwards.
    pub(crate) unsafe fn free(self) {
        let layout = self.layout();
        // SAFETY: the block was allocated by `Block::allocate` with exactly this layout
        // (its header records it, and nobody writes `size`/`align` after creation), and
        // the caller guarantees it is freed once and not used afterwards.
        unsafe { raw::deallocate(self.0.cast(), layout) };
    }

    /// Resizes the block to `size` bytes (same alignment), keeping its header and the
    /// data in front of the new end; the block may move. On failure the block is
    /// unchanged and still owned by the caller.
    ///
    /// # Safety
    ///
    /// Every pointer to the block (a list's link, a scope's cursor) is updated to the
    /// returned block by the caller: the old address is dead on success.
    pub(crate) unsafe fn reallocate(self, size: usize) -> Result<Block, AllocError> {
        let old = self.layout();
        let align = old.align();
        debug_assert!(size >= data_offset(align), "block of {size} bytes cannot hold its header");
        if Layout::from_size_align(size, align).is_err() {
            return Err(AllocError::LayoutTooLarge { size, align });
        }
        // SAFETY: the block is live memory of `raw::allocate` with exactly `old` (its
        // header records it); `size` is non-zero (it holds a header) and forms a valid
        // layout with `align` (checked above).
        let base = unsafe { raw::reallocate(self.0.cast(), old, size) }
            .ok_or(AllocError::OutOfMemory { size, align })?;
        let header = base.cast::<BlockHeader>();
        // SAFETY: `base` is the live, resized allocation; the header was moved with the
        // data and only its `size` changes.
        unsafe { (*header.as_ptr()).size = size };
        Ok(Block(header))
    }

    #[inline]
    fn header(&self) -> &BlockHeader {
        // SAFETY: a `Block` points at a header written by `allocate` that lives until
        // `free`; headers are only written through `set_prev`, which takes `&self` on a
        // `Copy` handle but never runs while this shared borrow is alive (both are
        // private to this module and return before the other is called).
        unsafe { self.0.as_ref() }
    }

    /// Total bytes of the block, header included.
    #[inline]
    pub(crate) fn size(self) -> usize {
        self.header().size
    }

    /// Alignment the block was allocated with.
    #[inline]
    pub(crate) fn align(self) -> usize {
        self.header().align
    }

    #[inline]
    fn layout(self) -> Layout {
        let h = self.header();
        // SAFETY: the same size and align formed a valid layout in `allocate`.
        unsafe { Layout::from_size_align_unchecked(h.size, h.align) }
    }

    /// The next block in whatever list this one sits in.
    #[inline]
    pub(crate) fn prev(self) -> Option<Block> {
        self.header().prev
    }

    /// Links this block in front of `prev`.
    #[inline]
    pub(crate) fn set_prev(self, prev: Option<Block>) {
        // SAFETY: the header is live (see `header`) and no reference to it is held across
        // this write: `header()` borrows end before any call returns.
        unsafe { (*self.0.as_ptr()).prev = prev };
    }

    /// First byte of the block (its header).
    #[inline]
    pub(crate) fn base(self) -> *mut u8 {
        self.0.as_ptr().cast()
    }

    /// First byte of the block's data.
    #[inline]
    pub(crate) fn data_start(self) -> *mut u8 {
        let offset = data_offset(self.align());
        // SAFETY: `allocate` checked `size >= data_offset(align)`, so the offset stays
        // within (or one past the end of) the allocation.
        unsafe { self.0.as_ptr().cast::<u8>().add(offset) }
    }

    /// One past the last byte of the block.
    #[inline]
    pub(crate) fn data_end(self) -> *mut u8 {
        let size = self.size();
        // SAFETY: one past the end of the `size`-byte allocation.
        unsafe { self.0.as_ptr().cast::<u8>().add(size) }
    }
}
