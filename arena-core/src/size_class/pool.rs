//! [`SizeClassPool`]: free lists for requests of 1..=1024 bytes (seed 002's random-size
//! workload; `boost::pool` per size, ACE's cached allocators), usable as an `Allocator`.
//!
//! # Classes
//!
//! Twenty classes bound the waste of rounding a request up:
//!
//! - 16, 32, …, 128 (steps of 16): the class is at most 15 bytes above the request;
//! - then four per power of two: 160, 192, 224, 256, 320, 384, 448, 512, 640, 768, 896,
//!   1024: the class is less than a quarter above the request's power of two (at most
//!   about 20 % of the class is waste, e.g. 129 bytes in a 160-byte chunk).
//!
//! Every chunk is a multiple of 16 bytes carved from a 16-aligned block, so chunks are
//! 16-aligned: layouts with alignment up to 16 are served from the classes; larger
//! alignments and sizes above 1024 go to the system allocator, zero-sized layouts get a
//! dangling aligned pointer and allocate nothing.
//!
//! # Memory
//!
//! Each class carves chunks from blocks of an internal [`BlockPool`] (64 KiB, page-filled),
//! bumping through the newest block and keeping freed chunks on an intrusive free list
//! (a freed chunk's first 8 bytes point at the next). Blocks go back to the block pool,
//! and from there to the system, when a class becomes empty and holds more than its
//! high-water mark ([`set_high_water`](SizeClassPool::set_high_water), default one
//! block), and on [`trim`](SizeClassPool::trim): seed 002's complaint was that
//! `boost::pool` never gives memory back. A class that is never empty keeps its blocks
//! (telling which block of a class is empty would need a count per block).
//!
//! # Invariants
//!
//! The pool is `!Sync` (it is all `Cell`s), so one thread at a time.
//!
//! - **(C1) A chunk is in one place**: live (the caller's), on its class's free list, or
//!   not yet carved (between the class's `cursor` and `end`, in its newest block).
//!   `allocate` moves it from the list or the carving range to live, `deallocate`
//!   (`unsafe`: the caller promises the pointer came from this pool with this layout)
//!   back to the list. A listed chunk's first word links the next.
//! - **(C2) A class's blocks** are owned by its `BlockList` and go back only when the class
//!   has no live chunk, its free list and carving range cleared at the same moment.
//!
//! # Debug checks
//!
//! `deallocate` is `unsafe`: a pointer given back twice, or with the wrong layout, is the
//! caller's undefined behaviour, and release builds trust the caller. Builds with debug
//! assertions check, and panic before a free list is corrupted:
//!
//! - **A double free, at any distance.** Each class keeps, in debug builds only, one bit
//!   per chunk of each of its blocks, set while the chunk is free (`FreeBits`):
//!   `deallocate` and `reserve` set it, `allocate` clears it, emptying the class drops
//!   the bits with the blocks. An earlier check walked the 128 most recent links of the
//!   free list, which missed a chunk freed long ago (issue 27: one freed under 999
//!   others was handed out twice). The mark is beside the chunk, not in it: a live
//!   chunk's bytes are the caller's, may be uninitialised, and may hold any pattern.
//! - **A wrong layout or pool**: the pointer must be the start of a chunk in one of the
//!   class's blocks (a walk over them).
//!
//! What the checks cost, in debug builds only: a block's bits are allocated when the
//! block is carved (one bit per chunk: 512 bytes for a block of 16-byte chunks, 0.8 %),
//! so `deallocate` never needs memory (it cannot fail) and a carve that cannot have them
//! fails with [`AllocError::OutOfMemory`] like one without a block; each class
//! `allocate` from the free list and each `deallocate` finds the chunk's block by a
//! binary search over the class's blocks, and `deallocate` also walks them. Release
//! builds have neither the field nor the code: the pool's size and its fast path are
//! the same as without the checks.

#[cfg(debug_assertions)]
use alloc::vec::Vec;
use core::alloc::Layout;
use core::cell::Cell;
#[cfg(debug_assertions)]
use core::cell::RefCell;
use core::fmt;
use core::ptr::{self, NonNull};

#[cfg(feature = "allocator-api2")]
use allocator_api2::alloc::{AllocError as ApiAllocError, Allocator};

use crate::block::BlockList;
use crate::block::BlockPool;
use crate::block::raw;
use crate::error::AllocError;
use crate::size_class::chunk_stack::ChunkStack;

/// Number of size classes.
pub(super) const CLASSES: usize = 20;
/// The largest request served from a class.
pub const MAX_CLASS_SIZE: usize = 1024;
/// The largest alignment served from a class.
const CLASS_ALIGN: usize = 16;
/// The blocks classes carve from: 64 KiB with the malloc header.
const CARVE_BLOCK: usize = 16 * raw::PAGE - raw::MALLOC_OVERHEAD;

/// The chunk size of class `i`.
const fn class_size(i: usize) -> usize {
    if i < 8 {
        16 * (i + 1)
    } else {
        let group = (i - 8) / 4;
        let step = (i - 8) % 4;
        let base = 128 << group;
        base + (step + 1) * (base / 4)
    }
}

/// Every class size is a multiple of 16, so the class of a size depends only on how
/// many 16-byte units it spans: [`CLASS_OF`] is indexed by `(size - 1) / 16`.
const UNIT_SHIFT: u32 = 4;

/// The class of each size from 1 to [`MAX_CLASS_SIZE`] by `(size - 1) >> UNIT_SHIFT`:
/// the smallest class that holds the unit's largest size. A load instead of the
/// leading-zero count, shifts and subtractions of a formula (W3 computes a class twice
/// per operation, for the allocation and for its release).
const CLASS_OF: [u8; MAX_CLASS_SIZE >> UNIT_SHIFT] = {
    let mut table = [0; MAX_CLASS_SIZE >> UNIT_SHIFT];
    let mut unit = 0;
    let mut class = 0;
    while unit < table.len() {
        let largest = (unit + 1) << UNIT_SHIFT;
        while class_size(class) < largest {
            class += 1;
        }
        // Below `CLASSES` (20): the largest class is `MAX_CLASS_SIZE` itself.
        #[expect(clippy::cast_possible_truncation, reason = "a class index, below 20")]
        let index = class as u8;
        table[unit] = index;
        unit += 1;
    }
    table
};

/// The class of a non-zero `size` up to [`MAX_CLASS_SIZE`].
#[inline]
const fn class_of(size: usize) -> usize {
    CLASS_OF[(size - 1) >> UNIT_SHIFT] as usize
}

/// One class: its free list, the carving range of its newest block, its blocks.
struct Class {
    /// The free chunks of this class (C1; a `ChunkStack`'s K1).
    free: ChunkStack,
    /// The next chunk to carve and the end of the newest block's data.
    cursor: Cell<*mut u8>,
    end: Cell<*mut u8>,
    /// The class's blocks, newest first (C2).
    blocks: Cell<BlockList>,
    held: Cell<usize>,
    live: Cell<usize>,
    /// Debug builds: which chunks are free, for the double-free check (module docs).
    #[cfg(debug_assertions)]
    freed: FreeBits,
}

impl Class {
    const fn new() -> Self {
        Class {
            free: ChunkStack::new(),
            cursor: Cell::new(ptr::null_mut()),
            end: Cell::new(ptr::null_mut()),
            blocks: Cell::new(BlockList::new()),
            held: Cell::new(0),
            live: Cell::new(0),
            #[cfg(debug_assertions)]
            freed: FreeBits::new(),
        }
    }
}

/// Debug builds: one bit per chunk of each block of a class, set while the chunk is free
/// (module docs, "Debug checks"), so a double free is caught however deep in the free
/// list the chunk lies. Beside the chunks, never in them: it reads no chunk.
#[cfg(debug_assertions)]
struct FreeBits {
    /// The class's blocks by data start, ascending.
    blocks: RefCell<Vec<BlockBits>>,
}

/// The bits of one block: its carvable range and one bit per chunk of it.
#[cfg(debug_assertions)]
struct BlockBits {
    start: usize,
    end: usize,
    bits: Vec<u64>,
}

#[cfg(debug_assertions)]
impl FreeBits {
    const fn new() -> Self {
        FreeBits { blocks: RefCell::new(Vec::new()) }
    }

    /// Makes the (clear) bits of a new block whose chunks of `size` bytes lie in
    /// `start..end`: the one place that allocates, so that marking never needs memory.
    fn add_block(&self, start: *mut u8, end: *mut u8, size: usize) -> Result<(), AllocError> {
        let (start, end) = (start.addr(), end.addr());
        let words = ((end - start) / size).div_ceil(64);
        let oom = |bytes| AllocError::OutOfMemory { size: bytes, align: align_of::<u64>() };
        let mut bits = Vec::new();
        bits.try_reserve_exact(words).map_err(|_| oom(words * size_of::<u64>()))?;
        bits.resize(words, 0);
        let mut blocks = self.blocks.borrow_mut();
        blocks.try_reserve(1).map_err(|_| oom(size_of::<BlockBits>()))?;
        let at = blocks.partition_point(|b| b.start < start);
        blocks.insert(at, BlockBits { start, end, bits });
        Ok(())
    }

    /// The word and bit of `chunk`, a chunk of `size` bytes in one of the blocks; `None`
    /// if it is none (a wrong layout or pool, which `class_owns` reports).
    fn locate(blocks: &[BlockBits], chunk: NonNull<u8>, size: usize) -> Option<(usize, usize)> {
        let p = chunk.addr().get();
        let block = blocks.partition_point(|b| b.start <= p).checked_sub(1)?;
        let b = &blocks[block];
        let offset = p - b.start;
        (p < b.end && offset % size == 0).then(|| (block, offset / size))
    }

    /// Sets `chunk`'s bit to `free`; its previous value, `None` if it is no chunk of the
    /// blocks.
    fn set(&self, chunk: NonNull<u8>, size: usize, free: bool) -> Option<bool> {
        let mut blocks = self.blocks.borrow_mut();
        let (block, n) = Self::locate(&blocks, chunk, size)?;
        let (word, mask) = (&mut blocks[block].bits[n / 64], 1_u64 << (n % 64));
        let was = *word & mask != 0;
        if free {
            *word |= mask;
        } else {
            *word &= !mask;
        }
        Some(was)
    }

    /// Whether `chunk` is a free chunk of `size` bytes of the blocks.
    fn is_free(&self, chunk: NonNull<u8>, size: usize) -> bool {
        let blocks = self.blocks.borrow();
        Self::locate(&blocks, chunk, size)
            .is_some_and(|(block, n)| blocks[block].bits[n / 64] & (1 << (n % 64)) != 0)
    }

    /// Drops every block's bits (the blocks go back).
    fn clear(&self) {
        *self.blocks.borrow_mut() = Vec::new();
    }
}

/// Free-list pools for 1..=1024-byte requests, in twenty size classes.
///
/// Use [`allocate`](Self::allocate) / [`deallocate`](Self::deallocate) directly, or
/// `&SizeClassPool` as an `allocator_api2` allocator for collections (the
/// `allocator-api2` feature). `Send` but `!Sync`: one thread at a time;
/// [`SyncSizeClassPool`](crate::SyncSizeClassPool) is the locked flavour for many.
///
/// # Examples
///
/// ```
/// use core::alloc::Layout;
/// use arena_kit::SizeClassPool;
///
/// let pool = SizeClassPool::new();
/// let layout = Layout::new::<[u64; 4]>();
/// let chunk = pool.allocate(layout).unwrap();
/// assert_eq!(pool.stats().live_chunks, 1);
/// // SAFETY: `chunk` came from this pool with this layout and is not used again.
/// unsafe { pool.deallocate(chunk, layout) };
/// assert_eq!(pool.stats().live_chunks, 0);
/// ```
///
/// With the `allocator-api2` feature, collections keep their buffers in the pool:
///
/// ```
/// # #[cfg(feature = "allocator-api2")] {
/// use arena_kit::SizeClassPool;
/// use arena_kit::allocator_api2::vec::Vec;
///
/// let pool = SizeClassPool::new();
/// let mut v: Vec<u32, &SizeClassPool> = Vec::new_in(&pool);
/// v.extend(0..100);
/// assert_eq!(v.iter().sum::<u32>(), 4950);
/// assert_eq!(pool.stats().live_chunks, 1);
/// drop(v);
/// assert_eq!(pool.stats().live_chunks, 0);
/// # }
/// ```
pub struct SizeClassPool {
    classes: [Class; CLASSES],
    blocks: BlockPool,
    high_water: Cell<usize>,
    large_live: Cell<usize>,
}

// Why `Send` holds: a `SizeClassPool` owns its blocks (through its `BlockPool`, itself `Send`) and
// every raw pointer in it (free lists, carving cursors) points into those blocks; moving
// the pool to another thread moves that ownership, and nothing else points into its free
// chunks. Chunks handed out are raw memory: using them after the move is governed by
// `deallocate`'s `# Safety` contract, and an `allocator_api2` collection borrows the pool,
// so no such collection can exist during the move. It stays `!Sync` (`Cell`s);
// `SyncSizeClassPool` is the locked flavour.
// SAFETY: as argued above.
unsafe impl Send for SizeClassPool {}

/// A snapshot of a [`SizeClassPool`]'s counters.
///
/// # Examples
///
/// ```
/// use core::alloc::Layout;
///
/// let pool = arena_kit::SizeClassPool::new();
/// let p = pool.allocate(Layout::from_size_align(100, 8).unwrap()).unwrap();
/// let s = pool.stats();
/// assert_eq!((s.live_chunks, s.live_bytes), (1, 112)); // 100 bytes -> the 112 class
/// # // SAFETY: from this pool with this layout, given back once.
/// # unsafe { pool.deallocate(p, Layout::from_size_align(100, 8).unwrap()) };
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct SizeClassStats {
    /// Chunks handed out and not given back.
    pub live_chunks: usize,
    /// Their bytes, at class size.
    pub live_bytes: usize,
    /// Bytes of the blocks the classes hold (live, free and not yet carved).
    pub held_bytes: usize,
    /// Allocations above 1024 bytes or 16-byte alignment, on the system allocator.
    pub large_live: usize,
}

impl SizeClassPool {
    /// The chunk sizes of the twenty classes, smallest first.
    pub const CLASS_SIZES: [usize; CLASSES] = {
        let mut sizes = [0; CLASSES];
        let mut i = 0;
        while i < CLASSES {
            sizes[i] = class_size(i);
            i += 1;
        }
        sizes
    };

    /// An empty pool; blocks are taken on demand.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::SizeClassPool::new();
    /// assert_eq!(pool.stats().held_bytes, 0);
    /// ```
    #[must_use]
    pub fn new() -> Self {
        let blocks = BlockPool::with_block_size(CARVE_BLOCK);
        // A class that empties gives its blocks back; the block pool keeps two for the
        // next class that needs one and returns the rest to the system.
        blocks.set_max_free(2);
        SizeClassPool {
            classes: [const { Class::new() }; CLASSES],
            high_water: Cell::new(blocks.block_size()),
            blocks,
            large_live: Cell::new(0),
        }
    }

    /// Memory for `layout`: a chunk of its class, or the system allocator's for sizes
    /// above 1024 or alignments above 16; a dangling aligned pointer for size 0.
    ///
    /// # Errors
    ///
    /// [`AllocError::OutOfMemory`] when a block or a large allocation cannot be had.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    ///
    /// let pool = arena_kit::SizeClassPool::new();
    /// let layout = Layout::new::<[u64; 4]>();
    /// let p = pool.allocate(layout).unwrap();
    /// assert_eq!(p.as_ptr() as usize % 8, 0);
    /// // SAFETY: `p` came from this pool with this layout and is not used afterwards.
    /// unsafe { pool.deallocate(p, layout) };
    /// ```
    #[inline]
    pub fn allocate(&self, layout: Layout) -> Result<NonNull<u8>, AllocError> {
        let size = layout.size();
        if size == 0 {
            return Ok(raw::dangling(layout.align()));
        }
        if size > MAX_CLASS_SIZE || layout.align() > CLASS_ALIGN {
            return self.allocate_large(layout);
        }
        let index = class_of(size);
        let class = &self.classes[index];
        let chunk = match class.free.pop() {
            Some(chunk) => {
                #[cfg(debug_assertions)]
                {
                    let was = class.freed.set(chunk, class_size(index), false);
                    debug_assert!(was == Some(true), "allocate: {chunk:p} listed, not free");
                }
                chunk
            }
            None => self.carve(index)?,
        };
        class.live.set(class.live.get() + 1);
        Ok(chunk)
    }

    /// A chunk from the newest block's uncarved range, or from a new block.
    #[cold]
    #[inline(never)]
    fn carve(&self, index: usize) -> Result<NonNull<u8>, AllocError> {
        let class = &self.classes[index];
        let size = class_size(index);
        let room = |cursor: &NonNull<u8>| class.end.get().addr() - cursor.as_ptr().addr() >= size;
        if let Some(cursor) = NonNull::new(class.cursor.get()).filter(room) {
            // SAFETY: C1: `cursor + size <= end`, both in the newest block's data.
            class.cursor.set(unsafe { cursor.as_ptr().add(size) });
            return Ok(cursor);
        }
        let layout =
            Layout::from_size_align(size, CLASS_ALIGN).map_err(|_| AllocError::SizeOverflow)?;
        let block = self.blocks.cache().acquire(layout)?;
        #[cfg(debug_assertions)]
        if let Err(error) = class.freed.add_block(block.data_start(), block.data_end(), size) {
            // SAFETY: the block came from this cache's `acquire` just now, and nothing
            // was carved from it.
            unsafe { self.blocks.cache().release(block) };
            return Err(error);
        }
        class.held.set(class.held.get() + block.size());
        let start = block.data_start();
        // SAFETY: the block's data holds at least one chunk (`acquire` sized it for
        // `layout`), so `start + size` is within it.
        class.cursor.set(unsafe { start.add(size) });
        class.end.set(block.data_end());
        let mut blocks = class.blocks.take();
        blocks.push(block);
        class.blocks.set(blocks);
        // SAFETY: a block's data start lies inside its allocation, so it is non-null.
        Ok(unsafe { NonNull::new_unchecked(start) })
    }

    #[cold]
    fn allocate_large(&self, layout: Layout) -> Result<NonNull<u8>, AllocError> {
        let p = raw::allocate(layout)
            .ok_or(AllocError::OutOfMemory { size: layout.size(), align: layout.align() })?;
        self.large_live.set(self.large_live.get() + 1);
        Ok(p)
    }

    /// Gives memory from [`allocate`](Self::allocate) back: a chunk goes on its class's
    /// free list (and the class's blocks to the block pool if that emptied the class and
    /// it holds more than the high-water mark).
    ///
    /// # Safety
    ///
    /// `ptr` came from this pool's `allocate` (or its `Allocator` impl) with this exact
    /// `layout` (same size and alignment), has not been given back since, and is not used
    /// afterwards. Release builds trust the caller and check nothing.
    ///
    /// # Panics
    ///
    /// Only in builds with debug assertions, and only when the caller broke the contract
    /// above (module docs, "Debug checks"), before anything changed:
    ///
    /// - "is already free: a double free": `ptr` is on its class's free list, however
    ///   long ago it was freed, or is a chunk [`reserve`](Self::reserve) carved and
    ///   nobody allocated;
    /// - "has no live chunk": no chunk of `layout`'s class is live (a double free after
    ///   the class gave its blocks back, or a pointer from elsewhere);
    /// - "is not a chunk of the N-byte class": `ptr` is not a chunk of `layout`'s class
    ///   of this pool (a wrong layout or pool).
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    ///
    /// let pool = arena_kit::SizeClassPool::new();
    /// let layout = Layout::array::<u8>(300).unwrap();
    /// let a = pool.allocate(layout).unwrap();
    /// // SAFETY: `a` came from this pool with `layout`, and is not used again.
    /// unsafe { pool.deallocate(a, layout) };
    /// let b = pool.allocate(layout).unwrap();
    /// assert_eq!(a, b); // LIFO reuse of the class's free chunk
    /// # // SAFETY: from this pool with this layout, given back once.
    /// # unsafe { pool.deallocate(b, layout) };
    /// ```
    #[inline]
    pub unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        let size = layout.size();
        if size == 0 {
            return;
        }
        if size > MAX_CLASS_SIZE || layout.align() > CLASS_ALIGN {
            debug_assert!(self.large_live.get() > 0, "deallocate: no large allocation is live");
            self.large_live.set(self.large_live.get() - 1);
            // SAFETY: the caller guarantees `ptr` came from `allocate(layout)`, which sent
            // this layout to `raw::allocate`.
            unsafe { raw::deallocate(ptr, layout) };
            return;
        }
        let index = class_of(size);
        let class = &self.classes[index];
        // First: a double free of the class's last live chunk is named as such.
        #[cfg(debug_assertions)]
        debug_assert!(
            !class.freed.is_free(ptr, class_size(index)),
            "deallocate: {ptr:p} is already free: a double free"
        );
        debug_assert!(class.live.get() > 0, "deallocate: class {index} has no live chunk");
        debug_assert!(
            self.class_owns(index, ptr),
            "deallocate: {ptr:p} is not a chunk of the {}-byte class: wrong layout or pool",
            class_size(index)
        );
        // SAFETY: C1: the caller guarantees `ptr` is a live chunk of this class that
        // nobody uses any more.
        unsafe { class.free.push(ptr) };
        #[cfg(debug_assertions)]
        class.freed.set(ptr, class_size(index), true);
        let live = class.live.get() - 1;
        class.live.set(live);
        if live == 0 && class.held.get() > self.high_water.get() {
            self.release_class(index);
        }
    }

    /// Whether `ptr` is the start of a chunk carved for class `index` (a walk over the
    /// class's blocks: for `debug_assert!`s, which catch a deallocation with the wrong
    /// layout or the wrong pool before it could corrupt a free list).
    pub(super) fn class_owns(&self, index: usize, ptr: NonNull<u8>) -> bool {
        let size = class_size(index);
        let p = ptr.as_ptr().addr();
        let blocks = self.classes[index].blocks.take();
        let owns = blocks.iter().any(|block| {
            let (start, end) = (block.data_start().addr(), block.data_end().addr());
            (start..end).contains(&p) && (p - start) % size == 0
        });
        self.classes[index].blocks.set(blocks);
        owns
    }

    /// Whether `ptr` is marked free in class `index` (on its free list at any depth, or
    /// parked by [`mark_parked`](Self::mark_parked)): debug builds' double-free check,
    /// module docs.
    #[cfg(debug_assertions)]
    #[cfg_attr(not(feature = "std"), expect(dead_code, reason = "the locked pool's check"))]
    pub(super) fn is_free(&self, index: usize, ptr: NonNull<u8>) -> bool {
        self.classes[index].freed.is_free(ptr, class_size(index))
    }

    /// Marks `chunk`, a chunk of class `index` that counts as live here, as free while it
    /// waits elsewhere (`parked`: the locked pool's depot), or as taken again: debug
    /// builds' double-free check then sees it there too. Allocates nothing.
    #[cfg(debug_assertions)]
    #[cfg_attr(not(feature = "std"), expect(dead_code, reason = "the locked pool's depot"))]
    pub(super) fn mark_parked(&self, index: usize, chunk: NonNull<u8>, parked: bool) {
        let was = self.classes[index].freed.set(chunk, class_size(index), parked);
        debug_assert!(was == Some(!parked), "mark_parked: {chunk:p} parked twice or unknown");
    }

    /// Gives every block of an empty class back to the block pool; does nothing while the
    /// class has a live chunk (its blocks are in use).
    fn release_class(&self, index: usize) {
        let class = &self.classes[index];
        if class.live.get() != 0 {
            return;
        }
        let mut blocks = class.blocks.take();
        while let Some(block) = blocks.pop() {
            // SAFETY: C2: the block came from this block pool's `acquire`, and the class
            // has no live chunk in it: free-list and carving pointers into it are cleared
            // right below, before any further use.
            unsafe { self.blocks.cache().release(block) };
        }
        class.free.forget_all();
        #[cfg(debug_assertions)]
        class.freed.clear();
        class.cursor.set(ptr::null_mut());
        class.end.set(ptr::null_mut());
        class.held.set(0);
    }

    /// Gives back the blocks of every class with no live chunk (to the block pool and
    /// from there to the system); returns the bytes given back.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    ///
    /// let pool = arena_kit::SizeClassPool::new();
    /// let layout = Layout::new::<u64>();
    /// let p = pool.allocate(layout).unwrap();
    /// // SAFETY: from this pool, with this layout, not used again.
    /// unsafe { pool.deallocate(p, layout) };
    /// assert!(pool.trim() > 0);
    /// assert_eq!(pool.stats().held_bytes, 0);
    /// ```
    pub fn trim(&self) -> usize {
        let mut given = 0;
        for (index, class) in self.classes.iter().enumerate() {
            if class.live.get() == 0 && class.held.get() > 0 {
                given += class.held.get();
                self.release_class(index);
            }
        }
        self.blocks.trim();
        given
    }

    /// Caps the bytes of carving blocks the pool holds (live and cached); past it,
    /// [`allocate`](Self::allocate) returns [`AllocError::LimitReached`]. Requests above
    /// 1024 bytes go to the system allocator and are not counted.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    /// use arena_kit::{AllocError, SizeClassPool};
    ///
    /// let pool = SizeClassPool::new();
    /// pool.set_limit(Some(0));
    /// let err = pool.allocate(Layout::new::<u64>()).unwrap_err();
    /// assert!(matches!(err, AllocError::LimitReached { .. }));
    /// ```
    pub fn set_limit(&self, limit: Option<usize>) {
        self.blocks.set_limit(limit);
    }

    /// Bytes an empty class may keep; past them its blocks go back as it empties.
    /// `0` gives blocks back whenever a class empties; `usize::MAX` never.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::SizeClassPool::new();
    /// pool.set_high_water(0);
    /// ```
    pub fn set_high_water(&self, bytes: usize) {
        self.high_water.set(bytes);
    }

    /// Carves `count` chunks for `layout` ahead of time, so that the first `count`
    /// allocations of that size find their chunk on the free list (a pre-allocated pool).
    ///
    /// # Errors
    ///
    /// [`AllocError::OutOfMemory`] if blocks cannot be had; chunks carved so far stay.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    ///
    /// let pool = arena_kit::SizeClassPool::new();
    /// pool.reserve(Layout::new::<[u8; 64]>(), 1000).unwrap();
    /// assert!(pool.stats().held_bytes >= 64_000);
    /// ```
    pub fn reserve(&self, layout: Layout, count: usize) -> Result<(), AllocError> {
        if layout.size() == 0 || layout.size() > MAX_CLASS_SIZE || layout.align() > CLASS_ALIGN {
            return Ok(());
        }
        let index = class_of(layout.size());
        let class = &self.classes[index];
        for _ in 0..count {
            let chunk = self.carve(index)?;
            // SAFETY: C1: a freshly carved chunk of this class (16-aligned, at least 16
            // bytes) that nobody holds.
            unsafe { class.free.push(chunk) };
            #[cfg(debug_assertions)]
            class.freed.set(chunk, class_size(index), true);
        }
        Ok(())
    }

    /// The pool's counters.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(arena_kit::SizeClassPool::new().stats().live_chunks, 0);
    /// ```
    #[must_use]
    pub fn stats(&self) -> SizeClassStats {
        let (mut live_chunks, mut live_bytes, mut held_bytes) = (0, 0, 0);
        for (index, class) in self.classes.iter().enumerate() {
            live_chunks += class.live.get();
            live_bytes += class.live.get() * class_size(index);
            held_bytes += class.held.get();
        }
        SizeClassStats { live_chunks, live_bytes, held_bytes, large_live: self.large_live.get() }
    }

    /// The class size a request of `size` bytes gets, or `None` above 1024 bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::SizeClassPool;
    /// assert_eq!(SizeClassPool::class_size_for(1), Some(16));
    /// assert_eq!(SizeClassPool::class_size_for(129), Some(160));
    /// assert_eq!(SizeClassPool::class_size_for(1025), None);
    /// ```
    #[must_use]
    pub fn class_size_for(size: usize) -> Option<usize> {
        (1..=MAX_CLASS_SIZE).contains(&size).then(|| class_size(class_of(size)))
    }
}

/// The class serving `layout`, or `None` for zero sizes, sizes above 1024 bytes and
/// alignments above 16 (the system allocator's, or dangling).
#[cfg_attr(
    not(any(feature = "std", feature = "allocator-api2")),
    expect(dead_code, reason = "the locked pool's and the allocators' class test")
)]
pub(crate) fn class_index(layout: Layout) -> Option<usize> {
    let served = (1..=MAX_CLASS_SIZE).contains(&layout.size()) && layout.align() <= CLASS_ALIGN;
    served.then(|| class_of(layout.size()))
}

/// The layout every chunk of class `index` is allocated with (its full class size).
#[cfg_attr(not(feature = "std"), expect(dead_code, reason = "the locked pool's depot"))]
pub(super) fn class_layout(index: usize) -> Layout {
    Layout::from_size_align(class_size(index), CLASS_ALIGN).unwrap_or_else(|_| unreachable!())
}

/// Whether both layouts are served by one class (so a chunk of one fits the other).
#[cfg(feature = "allocator-api2")]
fn same_class(a: Layout, b: Layout) -> bool {
    class_index(a).is_some_and(|i| class_index(b) == Some(i))
}

impl Default for SizeClassPool {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for SizeClassPool {
    fn drop(&mut self) {
        // Blocks of classes with live chunks go back too: no chunk can be used after the
        // pool is gone (collections borrow it; raw users promised as much).
        for index in 0..CLASSES {
            self.classes[index].live.set(0);
            self.release_class(index);
        }
    }
}

impl fmt::Debug for SizeClassPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SizeClassPool").field("stats", &self.stats()).finish_non_exhaustive()
    }
}

#[cfg(feature = "allocator-api2")]
// Why this impl keeps `Allocator`'s contract: (1) `SizeClassPool::allocate` returns a
// chunk of at least the layout's size and alignment that no one else holds until it is
// deallocated, or memory from the system allocator; every `&SizeClassPool` borrows the
// pool, whose drop is the only other way chunks end; (2) moving the reference does not
// move the memory; (3) `grow`/`shrink` keep the pointer only when the old and new layouts
// fall in the same class (the chunk already has the room), and otherwise allocate,
// copy and deallocate with the layouts the caller vouches for.
// SAFETY: (1) to (3) above.
unsafe impl Allocator for &SizeClassPool {
    #[inline]
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, ApiAllocError> {
        let ptr = SizeClassPool::allocate(self, layout).map_err(|_| ApiAllocError)?;
        Ok(NonNull::slice_from_raw_parts(ptr, layout.size()))
    }

    #[inline]
    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: the caller guarantees `ptr` is a live allocation of `layout` from us.
        unsafe { SizeClassPool::deallocate(self, ptr, layout) };
    }

    unsafe fn grow(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, ApiAllocError> {
        // SAFETY: the caller guarantees `ptr` is a live allocation of `old_layout`, and
        // growing means the old size is at most the new one.
        unsafe { resize_in_class(*self, ptr, old_layout, new_layout, old_layout.size()) }
    }

    unsafe fn shrink(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, ApiAllocError> {
        // SAFETY: the caller guarantees `ptr` is a live allocation of `old_layout`, and
        // shrinking means the new size is at most the old one.
        unsafe { resize_in_class(*self, ptr, old_layout, new_layout, new_layout.size()) }
    }
}

/// `grow` and `shrink` of the size-class pools: the same chunk when both layouts fall in
/// one class, else a new allocation holding the first `keep` bytes, the old one given back.
///
/// # Safety
///
/// `ptr` is a live allocation of `old_layout` from `pool`, and `keep` is at most both
/// sizes.
#[cfg(feature = "allocator-api2")]
pub(super) unsafe fn resize_in_class<A: Allocator + Copy>(
    pool: A,
    ptr: NonNull<u8>,
    old_layout: Layout,
    new_layout: Layout,
    keep: usize,
) -> Result<NonNull<[u8]>, ApiAllocError> {
    if same_class(old_layout, new_layout) {
        return Ok(NonNull::slice_from_raw_parts(ptr, new_layout.size()));
    }
    // SAFETY: `ptr` is live with at least `keep` bytes, and `keep <= new_layout.size()`
    // (caller).
    let new = unsafe { raw::relocate(pool, ptr, new_layout, keep) }?;
    // SAFETY: `ptr` is a live allocation of `old_layout` (caller), no longer used.
    unsafe { pool.deallocate(ptr, old_layout) };
    Ok(new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_cover_every_size_and_bound_the_waste() {
        let mut previous = 0;
        for i in 0..CLASSES {
            assert!(class_size(i) > previous && class_size(i) % 16 == 0);
            previous = class_size(i);
        }
        assert_eq!(class_size(CLASSES - 1), MAX_CLASS_SIZE);
        for size in 1..=MAX_CLASS_SIZE {
            let class = class_size(class_of(size));
            assert!(class >= size, "size {size} in class {class}");
            assert!(class_of(size) == 0 || class_size(class_of(size) - 1) < size, "smallest fit");
            if size > 128 {
                assert!((class - size) * 100 / class <= 20, "size {size}: waste above 20 %");
            }
        }
    }
}
