//! [`Bump`]: the bump allocator under every scope, with no notion of types or destructors.
//!
//! A scope ([`Scope`](crate::Scope)) is a `Bump` plus a destructor chain and the typed
//! API; the growable collections hold a plain `&Bump` (as bumpalo's `RawVec` holds
//! `&Bump`), so a vector is four words and grows with direct calls.
//!
//! # Design
//!
//! The bump moves a cursor upward through the current block: an allocation is an
//! align-up, a compare and a store. When the block is full it takes another from its
//! [`Source`] (a block pool's cache, or the system for an [`Arena`](crate::Arena)) and
//! keeps the old one in `chain`; at the end every block goes back. Bumping upward lets the
//! newest allocation (the *tip*) grow and shrink in place: collections and the
//! `Allocator` impl use that.
//!
//! A collection that outgrows a standard block gets a *buffer block* of its own, kept in
//! `buffers` and never bumped into: it is resized with `realloc` (pages remapped, not
//! copied) and given back when the collection drops, instead of leaving every outgrown
//! buffer in the scope until it ends (what keeps bytes held close to the capacity, W6).
//!
//! A bump that never needs more than its current block (a scope made per request, W1)
//! should cost no more than its cursor: such a scope is bound by the stores that build
//! and tear it down. So the bump itself is seven words on a 64-bit target (cursor, end,
//! current block, source, a 64-bit count of block changes, a pointer), and everything
//! only a bigger bump needs (older blocks, buffer blocks, their byte counts, the limit)
//! lives in a [`Cold`] part behind that pointer, allocated the first time it is needed
//! (a second block, a buffer, a limit) and kept until the bump ends. Built without the
//! `alloc` feature there is no allocator to box it: the cold part is then a field of the
//! bump itself, made at the same moments ([`ColdBox`]).
//!
//! # Its lifetime
//!
//! `Bump<'p>` holds its source by reference (`&'p BlockCache<'p>`), so it is tied to the
//! pool for real; it is *covariant* in `'p`, so a `&'s Bump<'p>` is a `&'s Bump<'s>` and a
//! collection's type names only the borrow `'s`. (The scope that owns it is invariant in
//! `'p`: that is where the `T: 'p` rule for destructors lives, not here.)
//!
//! # Words
//!
//! A block is *released* when it goes back to its source (the pool's cache, or the
//! system for an arena's blocks and dedicated ones); an allocation is *given back* when
//! the bump undoes it in place (the cursor moves back over the tip, or the lone
//! allocation's block is released); the system allocator *frees* (`block/raw.rs`).
//! Blocks the bump has moved past are *outgrown*.
//!
//! # Invariants
//!
//! Every `unsafe` block in this file relies on one of these, and says which.
//!
//! - **(S1) The bump window** `cur..end` lies in the current block's data (or both are
//!   the dangling sentinel, with no current block), and no byte of it was handed out.
//! - **(S2) Blocks stay until released**: every block in `head`, `chain` and `buffers` came
//!   from `source` and goes back only in [`release_all`](Bump::release_all) (the owner's
//!   end), [`release_outgrown`](Bump::release_outgrown) (a scope's `reset`, under
//!   `&mut`), [`set_limit`](Bump::set_limit) (a current block nothing was allocated in),
//!   [`release_buffer`](Bump::release_buffer) (by the collection that owns the buffer) or
//!   [`give_back_lone`](Bump::give_back_lone) (the block of one oversize allocation,
//!   given back by its user).
//! - **(S3) Memory handed out is never handed out again** while the bump lives: it lies
//!   behind `cur` (or in an outgrown or buffer block), and only `rewind` and `rewind_to`,
//!   which need `&mut self`, move `cur` back over it.
//! - **(S5) A buffer block** holds one collection's buffer and nothing else; it is never
//!   bumped into, and only that collection resizes or frees it, naming it by its data
//!   pointer.
//! - **(S6) The lone allocation**: `lone`, when not null, is the start of the one
//!   allocation in the block at the front of `chain`, which [`alloc_slow`](Bump::alloc_slow)
//!   took for it alone and moved past at once; nothing else was ever allocated in that
//!   block. Any other change to `chain` clears it.
//!
//! (S4, the destructor chain, is the scope's: `scope/lifecycle.rs`.)

#![expect(clippy::inline_always, reason = "the bump fast path must inline into callers")]

pub(crate) mod source;

#[cfg(feature = "alloc")]
use alloc::boxed::Box;
use core::alloc::Layout;
use core::cell::{Cell, OnceCell};
use core::fmt;
use core::mem::ManuallyDrop;
use core::ptr::NonNull;

use crate::block::raw;
use crate::block::{self, BLOCK_ALIGN, Block, BlockList};
#[cfg(feature = "alloc")]
use crate::block::{BlockInfo, BlockKind};
use crate::bump::source::Source;
use crate::error::{AllocError, LimitKind};

/// A bump allocator over blocks from a [`Source`]; see the module docs.
///
/// Seven words on a 64-bit target: what a bump on one block uses. Everything else
/// (older blocks, buffer blocks, their counters, the limit) is in [`Cold`], made the
/// first time it is needed, so that a new bump stores seven words and not fifteen: a
/// scope made and dropped per request is bound by its stores.
pub(crate) struct Bump<'p> {
    /// Next free byte of the current block.
    cur: Cell<*mut u8>,
    /// End of the current block's data. `cur <= end`, both in the same block (or both
    /// the dangling sentinel before the first block) (S1).
    end: Cell<*mut u8>,
    /// The current block, the one `cur` and `end` point into. `Drop` moves it out
    /// without writing anything back (a `Block` has no destructor; the field is never
    /// read after), one store fewer for a scope made and dropped per request.
    head: ManuallyDrop<Cell<Option<Block>>>,
    source: Source<'p>,
    /// Older blocks, buffer blocks and the limit, once there were any (none: empty
    /// lists, zero counters, no limit). `Drop` takes the box out and frees it on its
    /// out-of-line path, so the drop of a bump that never made its cold part frees
    /// nothing and calls nothing but the source's release.
    cold: ManuallyDrop<OnceCell<ColdBox>>,
    /// Times the current block changed: replaced by a new one, installed where there was
    /// none, or given back with nothing in its place ([`set_limit`](Self::set_limit)). A
    /// [`BumpMark`] names its block by this count, not by address: a later block may lie
    /// at the address of one given back. 64 bits on every target, so it never wraps.
    block_changes: Cell<u64>,
}

/// Where a bump keeps its [`Cold`] part: in a box of its own with `alloc` (a bump on one
/// block then stays seven words), in the bump itself without.
struct ColdBox(ColdPlace);

#[cfg(feature = "alloc")]
type ColdPlace = Box<Cold>;
#[cfg(not(feature = "alloc"))]
type ColdPlace = Cold;

impl ColdBox {
    /// A new, empty cold part.
    #[cfg_attr(
        not(feature = "alloc"),
        expect(clippy::unnecessary_wraps, reason = "only a box can fail to be made")
    )]
    fn new() -> Result<ColdBox, AllocError> {
        #[cfg(feature = "alloc")]
        return raw::try_box(Cold::default()).map(ColdBox);
        #[cfg(not(feature = "alloc"))]
        Ok(ColdBox(Cold::default()))
    }
}

impl core::ops::Deref for ColdBox {
    type Target = Cold;

    #[inline]
    fn deref(&self) -> &Cold {
        &self.0
    }
}

/// The part of a [`Bump`] a bump on one block never needs.
struct Cold {
    /// Older blocks (and dedicated blocks of oversize values), holding allocations.
    chain: Cell<BlockList>,
    /// Blocks of growing collections, one buffer each and nothing else (S5).
    buffers: Cell<BlockList>,
    /// The most bytes of blocks the bump may hold.
    limit: Cell<Option<usize>>,
    /// Bytes of the blocks in `chain` and `buffers` (the current block's are its size).
    reserved: Cell<usize>,
    /// Bytes handed out from blocks other than the current one (the outgrown blocks:
    /// "retired" is the word of the typed pools, for a slot whose generations are spent).
    outgrown: Cell<usize>,
    /// The allocation alone in the block at the front of `chain`, or null (S6).
    lone: Cell<*mut u8>,
    /// The bytes `lone` added to `outgrown` (its padding and size when it was allocated):
    /// what giving it back subtracts, whatever layout its user names then (an
    /// `Allocator` user may have shrunk it in place).
    lone_bytes: Cell<usize>,
}

impl Cold {
    /// Whether no block other than the current one is held.
    fn is_empty(&self) -> bool {
        with_list(&self.chain, |chain| chain.is_empty())
            && with_list(&self.buffers, |buffers| buffers.is_empty())
    }

    fn add_reserved(&self, bytes: usize) {
        self.reserved.set(self.reserved.get() + bytes);
    }

    fn sub_reserved(&self, bytes: usize) {
        self.reserved.set(self.reserved.get() - bytes);
    }

    fn add_outgrown(&self, bytes: usize) {
        self.outgrown.set(self.outgrown.get() + bytes);
    }

    fn sub_outgrown(&self, bytes: usize) {
        self.outgrown.set(self.outgrown.get() - bytes);
    }
}

impl Default for Cold {
    fn default() -> Self {
        Cold {
            chain: Cell::new(BlockList::new()),
            buffers: Cell::new(BlockList::new()),
            limit: Cell::new(None),
            reserved: Cell::new(0),
            outgrown: Cell::new(0),
            lone: Cell::new(core::ptr::null_mut()),
            lone_bytes: Cell::new(0),
        }
    }
}

/// Where a bump stood when [`Bump::mark`] was called: what [`Bump::rewind_to`] returns to.
pub(crate) struct BumpMark {
    /// The cursor: the dangling sentinel if the bump had no block.
    cur: *mut u8,
    /// Names the current block of the mark: the count of block changes then.
    block_changes: u64,
}

/// The bump's counters, for [`ScopeStats`](crate::ScopeStats).
pub(crate) struct BumpStats {
    pub(crate) allocated_bytes: usize,
    pub(crate) reserved_bytes: usize,
    pub(crate) blocks: usize,
}

/// A buffer block's data start and the bytes it holds.
fn buffer_of(block: &Block) -> (NonNull<u8>, usize) {
    // SAFETY: a block's data start lies inside its allocation, so it is non-null.
    let data = unsafe { NonNull::new_unchecked(block.data_start()) };
    (data, block.capacity())
}

/// Runs `f` on a list of blocks held in a `Cell`: taken out and put back; list
/// operations do not panic, so nothing is lost on the way.
#[inline]
fn with_list<R>(list: &Cell<BlockList>, f: impl FnOnce(&mut BlockList) -> R) -> R {
    let mut blocks = list.take();
    let result = f(&mut blocks);
    list.set(blocks);
    result
}

impl<'p> Bump<'p> {
    /// A bump on `source`, starting with the block the source hands a new bump (a block
    /// pool's hot block), if any.
    #[inline]
    pub(crate) fn new(source: Source<'p>) -> Self {
        let sentinel = NonNull::<u8>::dangling().as_ptr();
        let bump = Bump {
            cur: Cell::new(sentinel),
            end: Cell::new(sentinel),
            head: ManuallyDrop::new(Cell::new(None)),
            source,
            cold: ManuallyDrop::new(OnceCell::new()),
            block_changes: Cell::new(0),
        };
        if let Some((block, start, end)) = bump.source.first_block() {
            bump.cur.set(start);
            bump.end.set(end);
            bump.head.set(Some(block));
        }
        bump
    }

    /// The cold part, made now if it was not yet.
    fn cold(&self) -> Result<&Cold, AllocError> {
        if let Some(cold) = self.cold.get() {
            return Ok(cold);
        }
        let cold = ColdBox::new()?;
        Ok(self.cold.get_or_init(|| cold))
    }

    /// Whether the bump holds no block but the current one.
    #[inline]
    fn holds_one_block_at_most(&self) -> bool {
        self.cold.get().is_none_or(|cold| cold.is_empty())
    }

    /// Bytes of the blocks held (headers included).
    fn reserved(&self) -> usize {
        let head = self.with_head(Block::size).unwrap_or(0);
        head + self.cold.get().map_or(0, |cold| cold.reserved.get())
    }

    /// Bytes handed out from blocks other than the current one (the outgrown blocks:
    /// "retired" is the word of the typed pools, for a slot whose generations are spent).
    fn outgrown(&self) -> usize {
        self.cold.get().map_or(0, |cold| cold.outgrown.get())
    }

    /// The source, for a child bump on the same one.
    #[inline]
    pub(crate) fn source(&self) -> &Source<'p> {
        &self.source
    }

    /// Runs `f` on the current block, if there is one.
    #[inline]
    fn with_head<R>(&self, f: impl FnOnce(&Block) -> R) -> Option<R> {
        let head = self.head.take();
        let result = head.as_ref().map(f);
        self.head.set(head);
        result
    }

    #[cfg(feature = "alloc")]
    /// Makes `block` the current block of a bump that has none.
    fn install_first(&self, block: Block) {
        self.cur.set(block.data_start());
        self.end.set(block.data_end());
        self.count_block_change();
        let previous = self.head.replace(Some(block));
        debug_assert!(previous.is_none(), "install_first on a bump that has a block");
    }

    // ----- allocation ------------------------------------------------------------------

    /// Bump within the current block, or `None`.
    ///
    /// S1 and the block's B4 keep `cur` at or below `isize::MAX`, so the sum below needs
    /// no overflow check: the fast path is an add, a mask, a compare and a store.
    ///
    /// `layout.size()` must be a multiple of `layout.align()` (true of every Rust type and
    /// array; other layouts are padded first). Then the end of the new allocation is
    /// `align_up(cur + size)`, so the loop-carried chain through `cur` is one add and one
    /// mask, as short as bumpalo's downward bump, while bumping upward.
    #[inline(always)]
    fn bump(&self, layout: Layout) -> Option<NonNull<u8>> {
        let (start, new_end) = self.fit(layout)?;
        self.cur.set(new_end);
        Some(start)
    }

    /// Where [`bump`](Self::bump) would put `layout` (a padded, non-zero size): its start
    /// and the cursor after it, or `None` if the current block has no room. Moves
    /// nothing.
    #[inline(always)]
    fn fit(&self, layout: Layout) -> Option<(NonNull<u8>, *mut u8)> {
        debug_assert!(layout.size() % layout.align() == 0, "bump needs a padded layout");
        let cur = self.cur.get();
        let mask = layout.align() - 1;
        // No overflow: a padded `Layout` bounds `size + mask` by `isize::MAX`, and `cur`
        // lies in a block that ends at or below `isize::MAX` (the block's B4), or is the
        // dangling sentinel, a small address.
        let new_end = (cur.addr() + (layout.size() + mask)) & !mask;
        if new_end <= self.end.get().addr() {
            // `new_end - size >= cur` is aligned (both terms are multiples of `align`),
            // and `new_end <= end`: the allocation lies within the current block.
            let start = cur.with_addr(new_end - layout.size());
            // SAFETY: S1: `start` is inside the current block, so non-null (zero sizes
            // never get here: the callers answer them without bumping).
            Some((unsafe { NonNull::new_unchecked(start) }, cur.with_addr(new_end)))
        } else {
            None
        }
    }

    /// Moves `value` into the current block, and only then moves the cursor past it;
    /// `Err(value)` if the block has no room (the caller takes
    /// [`alloc_value_slow`](Self::alloc_value_slow)). Never handed out again (S3).
    ///
    /// The same bump as [`alloc`](Self::alloc)'s, in the other order: with the cursor's
    /// store after the value's, the next allocation's read of the cursor follows that
    /// store with no store between them, so the compiler reuses the register it stored
    /// instead of reading the cursor again (a value written through a pointer may, as
    /// far as it knows, overwrite the cursor). Only for a value already made: nothing runs
    /// between the bump and the cursor's move that could allocate here.
    #[inline(always)]
    pub(crate) fn bump_value<T>(&self, value: T) -> Result<NonNull<T>, T> {
        let layout = Layout::new::<T>();
        if layout.size() == 0 {
            let place = raw::dangling(layout.align()).cast::<T>();
            // SAFETY: a zero-sized write needs only an aligned, non-null pointer.
            unsafe { place.write(value) };
            return Ok(place);
        }
        let Some((start, new_end)) = self.fit(layout) else { return Err(value) };
        let place = start.cast::<T>();
        // SAFETY: S1: `start..new_end` lies in the bump window, aligned for `T` (`fit`),
        // and no byte of it was handed out; the move below cannot panic or call out, so
        // nothing allocates before the cursor moves past it on the next line (S3).
        unsafe { place.write(value) };
        self.cur.set(new_end);
        Ok(place)
    }

    /// [`bump_value`](Self::bump_value)'s slow path: `value` in a new block, or the error
    /// with the value handed back. Inlined, so that the caller calls the (out-of-line)
    /// [`alloc_slow`](Self::alloc_slow) directly, as [`alloc`](Self::alloc) does.
    #[inline(always)]
    pub(crate) fn alloc_value_slow<T>(&self, value: T) -> Result<NonNull<T>, (AllocError, T)> {
        match self.alloc_slow(Layout::new::<T>()) {
            Ok(start) => {
                let place = start.cast::<T>();
                // SAFETY: S3: fresh memory for one `T`, aligned (`alloc_slow`).
                unsafe { place.write(value) };
                Ok(place)
            }
            Err(e) => Err((e, value)),
        }
    }

    /// Memory for `layout` (whose size is a multiple of its alignment): dangling if
    /// zero-sized, else bumped, else from a new block. Never handed out again (S3).
    #[inline(always)]
    pub(crate) fn alloc(&self, layout: Layout) -> Result<NonNull<u8>, AllocError> {
        if layout.size() == 0 {
            return Ok(raw::dangling(layout.align()));
        }
        match self.bump(layout) {
            Some(p) => Ok(p),
            None => self.alloc_slow(layout),
        }
    }

    /// Takes a block that fits `layout` and allocates from it. The new block becomes the
    /// current one if it has more room left than the current one; otherwise (an oversize
    /// request with a dedicated block) it is outgrown at once, and bumping continues where it
    /// was.
    #[cold]
    #[inline(never)]
    fn alloc_slow(&self, layout: Layout) -> Result<NonNull<u8>, AllocError> {
        let block = self.take_block(layout)?;
        // Where the current block or the new one will go, made once a block is had: a
        // request the source refuses makes nothing (a buffer's scope, with `alloc`,
        // touches no heap for a block it cannot get).
        let cold = if self.with_head(|_| ()).is_some() {
            match self.cold() {
                Ok(cold) => Some(cold),
                // SAFETY: S2: the block came from the source just now and holds nothing.
                Err(e) => return Err(unsafe { self.give_up_block(block, e) }),
            }
        } else {
            None
        };
        let start = block.data_start();
        let end = block.data_end();
        let pad = start.addr().wrapping_neg() & (layout.align() - 1);
        debug_assert!(
            pad + layout.size() <= end.addr() - start.addr(),
            "a fresh block must hold the request it was acquired for"
        );
        // SAFETY: the source sized the block so that `layout` fits after padding (checked
        // above in debug builds), so this stays within the block.
        let p = unsafe { start.add(pad) };
        // SAFETY: as above, `p + size <= end`.
        let next = unsafe { p.add(layout.size()) };
        let new_room = end.addr() - next.addr();
        let old_room = self.end.get().addr() - self.cur.get().addr();
        // `cold` is there when the bump has a current block (made above).
        if let Some(cold) = cold {
            if new_room <= old_room {
                cold.add_outgrown(pad + layout.size());
                cold.add_reserved(block.size());
                with_list(&cold.chain, |chain| chain.push(block));
                // S6: the block holds this allocation alone, at the front of `chain`.
                cold.lone.set(p);
                cold.lone_bytes.set(pad + layout.size());
                // SAFETY: `p` points into a live block, so it is non-null.
                return Ok(unsafe { NonNull::new_unchecked(p) });
            }
            if let Some(head) = self.head.take() {
                let used = self.cur.get().addr() - head.data_start().addr();
                cold.add_outgrown(used);
                cold.add_reserved(head.size());
                with_list(&cold.chain, |chain| chain.push(head));
                cold.lone.set(core::ptr::null_mut());
            }
        }
        self.head.set(Some(block));
        self.cur.set(next);
        self.end.set(end);
        self.count_block_change();
        // SAFETY: `p` points into a live block, so it is non-null.
        Ok(unsafe { NonNull::new_unchecked(p) })
    }

    #[cfg(feature = "alloc")]
    /// Makes a fresh block that can hold `layout` the current one, before any allocation
    /// (`Arena::with_capacity`).
    pub(crate) fn prepare(&self, layout: Layout) -> Result<(), AllocError> {
        let block = self.take_block(layout)?;
        self.install_first(block);
        Ok(())
    }

    /// Gives back a block just taken, when the cold part it needed could not be made,
    /// and returns the error.
    ///
    /// # Safety
    ///
    /// `block` came from this bump's source just now, and nothing was allocated in it.
    #[cold]
    unsafe fn give_up_block(&self, block: Block, error: AllocError) -> AllocError {
        // SAFETY: forwarded from the caller: the source's block, holding nothing.
        unsafe { self.source.release(block) };
        error
    }

    /// A block from the source that can hold `layout`, if the limit allows it. A pool's
    /// scope limit does not count a first standard block (a bump on the pool's hot block
    /// starts with one unchecked, so one that starts without gets the same).
    #[inline(always)]
    fn take_block(&self, layout: Layout) -> Result<Block, AllocError> {
        let limit = match self.own_limit() {
            Some(limit) => Some(limit),
            None => self
                .source
                .scope_limit()
                .filter(|_| self.with_head(|_| ()).is_some() || !self.source.is_standard(layout)),
        };
        let block = match limit {
            None => self.source.acquire(layout)?,
            Some(limit) => self.take_block_limited(limit, layout)?,
        };
        Ok(block)
    }

    /// [`take_block`](Self::take_block) under a limit: the block the source would hand
    /// out if it fits under the limit; otherwise (as bumpalo takes a smaller chunk) a
    /// smaller block filling the room the limit leaves, if that still holds `layout`.
    #[cold]
    fn take_block_limited(&self, limit: usize, layout: Layout) -> Result<Block, AllocError> {
        let held = self.reserved();
        let size = self.source.block_size_for(layout)?;
        if LimitKind::Scope.check(limit, held, size).is_ok() {
            return self.source.acquire(layout);
        }
        let smallest = block::smallest_size(layout)?;
        LimitKind::Scope.check(limit, held, smallest)?;
        // All the room under the limit (a multiple of the block alignment), so that the
        // small allocations after this one fit in the same block; never less than the
        // request needs. `held + smallest <= limit` was just checked.
        let size = ((limit - held) & !(BLOCK_ALIGN - 1)).max(smallest);
        self.source.acquire_sized(size, layout.align().max(BLOCK_ALIGN))
    }

    // ----- the tip -----------------------------------------------------------------------

    /// Whether `[ptr, ptr + layout padded)` is the newest allocation: it ends at the
    /// cursor. Only then may the cursor move back over it.
    #[inline]
    fn is_tip(&self, ptr: NonNull<u8>, layout: Layout) -> bool {
        let padded = layout.pad_to_align().size();
        padded > 0 && ptr.as_ptr().addr().checked_add(padded) == Some(self.cur.get().addr())
    }

    /// Gives the bytes of the tip allocation back (anything else stays until the end).
    ///
    /// # Safety
    ///
    /// `ptr` is a live allocation of `layout` from this bump, and is not used afterwards.
    #[inline]
    pub(crate) unsafe fn give_back_tip(&self, ptr: NonNull<u8>, layout: Layout) {
        if self.is_tip(ptr, layout) {
            // S3 holds: the bytes are given up by their only user (caller).
            self.cur.set(self.cur.get().with_addr(ptr.as_ptr().addr()));
        } else if let Some(cold) = self.cold.get().filter(|cold| ptr.as_ptr() == cold.lone.get()) {
            // SAFETY: forwarded from the caller.
            unsafe { self.give_back_lone(cold, ptr, layout) };
        }
    }

    /// Gives back the block that [`alloc_slow`](Self::alloc_slow) took for `ptr` alone
    /// (S6), to the source, now.
    ///
    /// # Safety
    ///
    /// `ptr` is the lone allocation (S6), of `layout` or of a smaller layout it was
    /// shrunk to in place (the counts use what was allocated, `lone_bytes`), and its only
    /// user gives it up: not used afterwards.
    #[cold]
    unsafe fn give_back_lone(&self, cold: &Cold, ptr: NonNull<u8>, layout: Layout) {
        debug_assert!(ptr.as_ptr() == cold.lone.get(), "not the lone allocation");
        cold.lone.set(core::ptr::null_mut());
        let Some(block) = with_list(&cold.chain, BlockList::pop) else {
            unreachable!("S6: the lone allocation's block is at the front of the chain")
        };
        debug_assert!(
            ptr.as_ptr().addr() - block.data_start().addr() + layout.pad_to_align().size()
                <= cold.lone_bytes.get(),
            "a lone allocation given back with a layout larger than it was allocated with"
        );
        cold.sub_outgrown(cold.lone_bytes.get());
        cold.sub_reserved(block.size());
        // SAFETY: S2, S6: the block came from this source and held this allocation alone,
        // which its user gives up (caller); it was unlinked just above.
        unsafe { self.source.release(block) };
    }

    /// The cursor now: taken before an allocation, it lets
    /// [`give_back_tip_from`](Self::give_back_tip_from) return the alignment padding too.
    #[inline(always)]
    pub(crate) fn cursor(&self) -> *mut u8 {
        self.cur.get()
    }

    /// Gives the tip allocation back like [`give_back_tip`](Self::give_back_tip), and the
    /// alignment padding in front of it: the cursor returns to `before` (the
    /// [`cursor`](Self::cursor) taken before the allocation) if that lies in the current
    /// block, at or below `ptr` (the allocation did not take a new block).
    ///
    /// # Safety
    ///
    /// As [`give_back_tip`](Self::give_back_tip); `before` was the cursor right before
    /// `ptr` was allocated.
    #[inline]
    pub(crate) unsafe fn give_back_tip_from(
        &self,
        before: *mut u8,
        ptr: NonNull<u8>,
        layout: Layout,
    ) {
        if !self.is_tip(ptr, layout) {
            // SAFETY: forwarded from the caller.
            unsafe { self.give_back_tip(ptr, layout) };
            return;
        }
        let at = ptr.as_ptr().addr();
        let same_block =
            self.with_head(|head| head.data_start().addr() <= before.addr()) == Some(true);
        let to = if same_block && before.addr() <= at { before.addr() } else { at };
        // S3 holds: the bytes from `to` on are the allocation, given up by its only user
        // (caller), and padding nobody was handed.
        self.cur.set(self.cur.get().with_addr(to));
    }

    /// Resizes the tip allocation in place if it is the tip, stays aligned for
    /// `new_layout`, and fits in the current block; returns whether it did.
    ///
    /// # Safety
    ///
    /// `ptr` is a live allocation of `old_layout` from this bump; on shrinking, the bytes
    /// past the new size are not used afterwards.
    pub(crate) unsafe fn resize_tip(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> bool {
        if !self.is_tip(ptr, old_layout) || ptr.as_ptr().addr() % new_layout.align() != 0 {
            return false;
        }
        let new_padded = new_layout.pad_to_align().size();
        let room = self.end.get().addr() - ptr.as_ptr().addr();
        if new_padded == 0 || new_padded > room {
            return false;
        }
        // S1 holds: the cursor stays inside the current block, `ptr + new_padded <= end`.
        self.cur.set(self.cur.get().with_addr(ptr.as_ptr().addr() + new_padded));
        true
    }

    /// Bytes from `ptr` to the end of the current block, if `[ptr, ptr + layout)` is the
    /// tip: what a collection there could grow to in place.
    #[inline]
    pub(crate) fn tip_room(&self, ptr: NonNull<u8>, layout: Layout) -> Option<usize> {
        self.is_tip(ptr, layout).then(|| self.end.get().addr() - ptr.as_ptr().addr())
    }

    // ----- buffer blocks (S5) ---------------------------------------------------------

    /// Bytes a collection may take in the bump blocks; a bigger one gets a buffer block.
    #[inline]
    pub(crate) fn standard_capacity(&self) -> usize {
        self.source.standard_capacity()
    }

    /// A block of its own for `layout`, kept in the buffer list; returns its data start
    /// (aligned for `layout`) and the bytes it holds (at least `layout.size()`, the
    /// page-filled rest included).
    ///
    /// Only for a layout that does not fit a standard block (a pool would otherwise
    /// take the block for a standard one when it comes back).
    pub(crate) fn alloc_buffer(&self, layout: Layout) -> Result<(NonNull<u8>, usize), AllocError> {
        debug_assert!(layout.size() > self.standard_capacity(), "buffer fits a standard block");
        let size = block::dedicated_size(layout)?;
        if let Some(limit) = self.limit() {
            LimitKind::Scope.check(limit, self.reserved(), size)?;
        }
        let block = self.source.acquire_dedicated(layout)?;
        let cold = match self.cold() {
            Ok(cold) => cold,
            // SAFETY: S2: the block came from the source just now and holds nothing.
            Err(e) => return Err(unsafe { self.give_up_block(block, e) }),
        };
        let (data, bytes) = buffer_of(&block);
        cold.add_reserved(block.size());
        cold.add_outgrown(bytes);
        with_list(&cold.buffers, |buffers| buffers.push(block));
        Ok((data, bytes))
    }

    /// Whether `ptr` is the data start of one of this bump's buffer blocks.
    #[inline]
    pub(crate) fn is_buffer(&self, ptr: NonNull<u8>) -> bool {
        self.cold.get().is_some_and(|cold| {
            with_list(&cold.buffers, |buffers| {
                !buffers.is_empty() && buffers.iter().any(|b| b.data_start() == ptr.as_ptr())
            })
        })
    }

    /// The cold part of a bump that has a buffer (made by [`alloc_buffer`](Self::alloc_buffer)).
    fn cold_of_buffers(&self) -> &Cold {
        self.cold.get().expect("a buffer is in its bump's buffer list")
    }

    /// Resizes a buffer from [`alloc_buffer`](Self::alloc_buffer) to hold `new_layout`
    /// (same alignment; larger or smaller, but still more than a standard block holds); it
    /// may move. Returns the new data start and the bytes it holds. On failure the buffer
    /// is unchanged.
    ///
    /// # Safety
    ///
    /// `ptr` is the data start of a buffer of this bump whose alignment is
    /// `new_layout`'s, and on success the caller uses only the returned pointer.
    pub(crate) unsafe fn grow_buffer(
        &self,
        ptr: NonNull<u8>,
        new_layout: Layout,
    ) -> Result<(NonNull<u8>, usize), AllocError> {
        debug_assert!(new_layout.size() > self.standard_capacity(), "buffer fits a standard block");
        let size = block::dedicated_size(new_layout)?;
        let cold = self.cold_of_buffers();
        let keep = |block| with_list(&cold.buffers, |buffers| buffers.push(block));
        let Some(block) = with_list(&cold.buffers, |b| b.remove_by_data(ptr.as_ptr())) else {
            unreachable!("a buffer is in its bump's buffer list")
        };
        let old_size = block.size();
        let (old_data, old_bytes) = buffer_of(&block);
        if size == old_size {
            // Page filling makes this request the size the buffer already has.
            keep(block);
            return Ok((old_data, old_bytes));
        }
        if let (Some(limit), Some(more)) = (self.limit(), size.checked_sub(old_size)) {
            if let Err(error) = LimitKind::Scope.check(limit, self.reserved(), more) {
                keep(block);
                return Err(error);
            }
        }
        // SAFETY: S5: the block came from this source's `acquire_dedicated`
        // (`alloc_buffer`), and on success the caller uses only the returned pointer.
        let block = match unsafe { self.source.resize_dedicated(block, size) } {
            Ok(block) => block,
            Err((block, error)) => {
                keep(block);
                return Err(error);
            }
        };
        cold.sub_reserved(old_size);
        cold.add_reserved(block.size());
        let (data, bytes) = buffer_of(&block);
        cold.sub_outgrown(old_bytes);
        cold.add_outgrown(bytes);
        keep(block);
        Ok((data, bytes))
    }

    /// Unlinks a buffer's block and releases it to the source now.
    ///
    /// # Safety
    ///
    /// `ptr` is the data start of a buffer of this bump, and nothing uses the buffer
    /// afterwards.
    pub(crate) unsafe fn release_buffer(&self, ptr: NonNull<u8>) {
        let cold = self.cold_of_buffers();
        let Some(block) = with_list(&cold.buffers, |b| b.remove_by_data(ptr.as_ptr())) else {
            unreachable!("a buffer is in its bump's buffer list")
        };
        cold.sub_reserved(block.size());
        cold.sub_outgrown(buffer_of(&block).1);
        // SAFETY: S2, S5: the block came from this source (`alloc_buffer`), is unlinked
        // just above, and the caller no longer uses its data.
        unsafe { self.source.release(block) };
    }

    // ----- limits, counters, the end ----------------------------------------------------

    /// The limit on bytes of blocks held: the bump's own, or else its source's scope
    /// limit. Read on the slow paths only (a new block, a buffer), so a pool's scope
    /// limit costs a scope nothing until it takes a block.
    #[inline]
    pub(crate) fn limit(&self) -> Option<usize> {
        match self.own_limit() {
            Some(limit) => Some(limit),
            None => self.source.scope_limit(),
        }
    }

    /// The bump's own limit, set with [`set_limit`](Self::set_limit).
    #[inline]
    fn own_limit(&self) -> Option<usize> {
        self.cold.get().and_then(|cold| cold.limit.get())
    }

    /// Sets the limit on bytes of blocks held. A current block nothing was allocated in,
    /// with no older block, goes back at once if the limit is below what is held, so a
    /// limit set right after creation holds from the first byte.
    ///
    /// The first limit makes the cold part, and aborts (as `Box::new` does) if the system
    /// refuses its few words (with `alloc`; without, it cannot fail).
    pub(crate) fn set_limit(&self, limit: Option<usize>) {
        let cold = match (limit, self.cold.get()) {
            (None, None) => return,
            (_, Some(cold)) => cold,
            // As `Box::new` would: the documented abort of an infallible allocation.
            (Some(_), None) => self.cold().unwrap_or_else(|_| {
                crate::error::fail(AllocError::OutOfMemory {
                    size: size_of::<Cold>(),
                    align: align_of::<Cold>(),
                })
            }),
        };
        cold.limit.set(limit);
        let Some(limit) = limit else { return };
        let unused = self.with_head(|head| self.cur.get() == head.data_start()) == Some(true);
        let bare = unused
            && self.reserved() > limit
            && self.cold.get().is_none_or(|cold| with_list(&cold.chain, |chain| chain.is_empty()));
        if let Some(head) = if bare { self.head.take() } else { None } {
            let sentinel = NonNull::<u8>::dangling().as_ptr();
            self.cur.set(sentinel);
            self.end.set(sentinel);
            self.count_block_change();
            // SAFETY: S2: nothing was allocated from the block (the cursor is at its start
            // and no older block exists, so nothing at all lives in the bump blocks), and
            // it was just unlinked.
            unsafe { self.source.release(head) };
        }
    }

    /// Bytes left in the current block (none without a block): what can be bumped before
    /// the next block is taken.
    #[inline]
    pub(crate) fn room(&self) -> usize {
        self.end.get().addr() - self.cur.get().addr()
    }

    /// Every block held: the current one, then the older ones, newest first, then the
    /// buffer blocks.
    #[cfg(feature = "alloc")]
    pub(crate) fn block_infos(&self) -> alloc::vec::Vec<BlockInfo> {
        // Room for all of them first: nothing below may panic while a list is taken out.
        let mut infos = alloc::vec::Vec::with_capacity(self.stats().blocks);
        let info = |kind, block: &Block, room| {
            BlockInfo::new(kind, block.size(), block.data_start().addr(), block.capacity(), room)
        };
        if let Some(current) = self.with_head(|head| info(BlockKind::Current, head, self.room())) {
            infos.push(current);
        }
        if let Some(cold) = self.cold.get() {
            with_list(&cold.chain, |chain| {
                infos.extend(chain.iter().map(|b| info(BlockKind::Retired, b, 0)));
            });
            with_list(&cold.buffers, |buffers| {
                infos.extend(buffers.iter().map(|b| info(BlockKind::Buffer, b, 0)));
            });
        }
        infos
    }

    pub(crate) fn stats(&self) -> BumpStats {
        let current =
            self.with_head(|head| self.cur.get().addr() - head.data_start().addr()).unwrap_or(0);
        let older = self.cold.get().map_or(0, |cold| {
            with_list(&cold.chain, |chain| chain.len())
                + with_list(&cold.buffers, |buffers| buffers.len())
        });
        BumpStats {
            allocated_bytes: self.outgrown() + current,
            reserved_bytes: self.reserved(),
            blocks: usize::from(self.with_head(|_| ()).is_some()) + older,
        }
    }

    /// Empties the bump for reuse: every block but the current one goes back, and the
    /// cursor returns to the current block's start.
    ///
    /// # Safety
    ///
    /// Nothing uses memory handed out by this bump any more (S3 is re-established from
    /// scratch).
    #[inline]
    pub(crate) unsafe fn rewind(&mut self) {
        if let Some(cold) = self.cold.get_mut() {
            if cold.is_empty() {
                // Nothing held but the current block: nothing is outgrown either.
                cold.outgrown.set(0);
            } else {
                // SAFETY: forwarded from the caller.
                unsafe { self.release_outgrown() };
            }
        }
        let Some(head) = self.head.get_mut() else { return };
        self.cur.set(head.data_start());
    }

    /// Records that the current block changed (see `block_changes`).
    #[inline]
    fn count_block_change(&self) {
        self.block_changes.set(self.block_changes.get() + 1);
    }

    /// Where the bump stands now, for [`rewind_to`](Self::rewind_to).
    #[inline]
    pub(crate) fn mark(&self) -> BumpMark {
        BumpMark { cur: self.cur.get(), block_changes: self.block_changes.get() }
    }

    /// Moves the cursor back to `mark` if the current block is still the block of the
    /// mark, or to the current block's start if the bump held no block at the mark and
    /// holds only the current one now. Blocks taken since (an oversize value's, or a new
    /// current block's) stay until [`rewind`](Self::rewind) or the end, with what was
    /// allocated in them.
    ///
    /// # Safety
    ///
    /// `mark` came from [`mark`](Self::mark) of this bump, and nothing allocated since is
    /// used again (S3: this hands that memory out again).
    #[inline]
    pub(crate) unsafe fn rewind_to(&mut self, mark: &BumpMark) {
        if self.block_changes.get() == mark.block_changes {
            // S1: the same current block (or still none): every change of it counts, so
            // an equal count rules out a replacement and a block at the same address
            // after a release (which could start above the mark's cursor).
            // The mark's cursor lay in its window then; nothing allocated before the mark
            // was given back since (only the tip can be, and the caller's code could not
            // reach those allocations), so it still does. What was allocated in other
            // blocks since stays there, counted as outgrown (S3 holds: those bytes are not
            // handed out again).
            debug_assert!(mark.cur <= self.cur.get(), "the cursor never goes below a mark");
            self.cur.set(mark.cur);
        } else if mark.cur == NonNull::<u8>::dangling().as_ptr() && self.holds_one_block_at_most() {
            // SAFETY: a mark taken with no current block, and no outgrown or buffer block
            // now: those are never given back by code that cannot reach their values, so
            // the bump held none at the mark either, and everything it holds (the current
            // block's contents, if any) came after the mark, which the caller gives up.
            unsafe { self.rewind() };
        }
    }

    /// Releases every block but the current one to the source.
    ///
    /// An arena (blocks from the system) also sizes its next block to hold every bump
    /// block this cycle held (buffer blocks are sized by their collections), so that a next cycle of the same size takes at most one more
    /// block, which the reset after it keeps: as bumpalo's doubling chunks converge on
    /// one chunk that fits a repeated cycle, instead of taking and freeing the same
    /// blocks every cycle.
    ///
    /// # Safety
    ///
    /// As [`rewind`](Self::rewind).
    #[cold]
    #[inline(never)]
    unsafe fn release_outgrown(&mut self) {
        let Some(cold) = self.cold.get_mut() else { return };
        cold.lone.set(core::ptr::null_mut());
        cold.reserved.set(0);
        cold.outgrown.set(0);
        let mut older = cold.chain.take();
        if !older.is_empty() {
            // The bump blocks of this cycle only: buffers are sized by their collections.
            let head = self.head.get_mut().as_ref().map_or(0, Block::size);
            self.source
                .grow_next_to(older.iter().map(Block::size).fold(head, usize::saturating_add));
        }
        older.prepend(cold.buffers.take());
        // SAFETY: S2: forwarded from the caller.
        unsafe { self.release_list(&mut older) };
    }

    /// Releases every block of `list` to the source.
    ///
    /// # Safety
    ///
    /// The blocks came from this bump's source and nothing uses their data again.
    unsafe fn release_list(&self, list: &mut BlockList) {
        while let Some(block) = list.pop() {
            // SAFETY: forwarded from the caller, one block at a time.
            unsafe { self.source.release(block) };
        }
    }
}

impl Drop for Bump<'_> {
    /// Gives every block back: the current one first (a pool's next bump starts on it).
    #[inline(always)]
    fn drop(&mut self) {
        // SAFETY: `drop` runs once, and nothing reads `head` after it: the bump ends here.
        let mut head = unsafe { ManuallyDrop::take(&mut self.head) }.into_inner();
        if self.cold.get().is_none() {
            // The W1 case, inlined: at most the current block, the pool's hot one.
            let Some(block) = head else { return };
            // SAFETY: S2: the bump is ending, and its owner guarantees nothing uses its
            // memory any more (a scope's values borrow it, its destructors ran).
            match unsafe { self.source.release_hot(block) } {
                Ok(()) => return,
                Err(block) => head = Some(block),
            }
        }
        // SAFETY: S2: as above, for every block.
        unsafe { self.release_all(head) };
    }
}

impl Bump<'_> {
    /// The drop of a bump that holds more than its current block, or whose current
    /// block is not a pool's hot one: out of line, so that the common drop (the hot
    /// block back to its slot) inlines into the scope's.
    ///
    /// # Safety
    ///
    /// As [`release_list`](Self::release_list): the bump is ending and nothing uses the
    /// memory of its blocks (`head`, taken out of it, among them) again.
    #[cold]
    #[inline(never)]
    unsafe fn release_all(&mut self, head: Option<Block>) {
        if self.cold.get().is_none() {
            // One block at most: an arena's, or a pool's block that is not the hot one.
            if let Some(head) = head {
                // SAFETY: forwarded from the caller.
                unsafe { self.source.release(head) };
            }
            return;
        }
        let mut blocks = BlockList::new();
        // Out of the `ManuallyDrop`: freed when this returns (nothing else frees it).
        if let Some(cold) = self.cold.take() {
            blocks = cold.chain.take();
            blocks.prepend(cold.buffers.take());
        }
        if let Some(head) = head {
            blocks.push(head);
        }
        // SAFETY: forwarded from the caller.
        unsafe { self.release_list(&mut blocks) };
    }
}

impl fmt::Debug for Bump<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stats = self.stats();
        f.debug_struct("Bump")
            .field("source", &self.source.kind())
            .field("allocated_bytes", &stats.allocated_bytes)
            .field("reserved_bytes", &stats.reserved_bytes)
            .field("blocks", &stats.blocks)
            .finish_non_exhaustive()
    }
}
