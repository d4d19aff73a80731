//! [`Scope`]: a bump arena whose values live exactly as long as it does.
//!
//! # Design
//!
//! A scope is a [`Bump`] (the memory: blocks from a [source](crate::bump::source), a cursor, a
//! limit; see `bump/`) plus the destructor chain ([`drop_list`](crate::scope::drop_list)) and
//! the typed API. Allocating a value bumps room for it (and for a drop node, when it has
//! drop glue); when the scope ends it runs the chain, newest first, and the bump hands
//! every block back.
//!
//! # What the borrow checker proves, and what it cannot
//!
//! `Scope<'p>` has one lifetime, `'p`: the data its values may borrow. It is *invariant*
//! and the scope has a `Drop` impl, so dropck makes `'p` outlive the scope itself.
//!
//! - Every allocation returns `&'s mut T` where `'s` is a borrow of the scope: no value can
//!   be used after the scope ends, moved or dropped.
//! - Values whose destructor will run must satisfy `T: 'p`. A reference to a sibling is a
//!   borrow of the scope, which cannot outlive the scope's own drop, so `T: 'p` rejects
//!   exactly the values whose `Drop` could read a sibling that is already gone (the
//!   typed-arena cycle that scoped-arena accepts and then reads freed memory). Invariance
//!   matters: were `'p` covariant, `&Scope<'long>` could shrink to `&Scope<'short>` and the
//!   bound would no longer reach the drop.
//! - `Copy` values have no destructor, so [`alloc_copy`](Scope::alloc_copy) and the
//!   `_copy` slice methods need no bound: linked structures of `&'s Node<'s>` go there.
//! - [`on_exit`](Scope::on_exit) closures are `'p` too, so a callback can capture nothing
//!   of the scope and can never see a value whose destructor already ran.
//! - A child scope ([`Scope::scope`]) borrows its parent, so it cannot outlive it; its `'p`
//!   is that borrow, so its values may borrow the parent's but never the reverse.
//!
//! What only a runtime check can catch: limits (bytes of blocks held, per scope and per
//! pool), sizes that overflow, and the system allocator refusing; the `try_` methods
//! return those as [`AllocError`] and hand the value back.
//!
//! # Invariants
//!
//! The memory's invariants S1 to S3 and S5 are the bump's (`bump/`); the scope adds:
//!
//! - **(S4) Drop nodes** live in the scope's blocks next to complete values (a node is
//!   pushed only after its values are written) or an `on_exit` closure; the chain runs
//!   before any block is released (the bump drops after the scope's `Drop`), newest
//!   first, each node once.
//!
//! # Nested scopes draw their own blocks, or rewind
//!
//! APR sub-pools either share the parent's block from a checkpoint or take their own. Both
//! are here:
//!
//! - A child ([`Scope::scope`]) takes its own blocks from the same pool, so the parent
//!   stays fully usable (no `&mut` borrow, no compile error for using both). The cost is
//!   one pool pop and push, exactly the cost of a W1 scope, which a pool makes cheap.
//! - [`Scope::scoped`] runs a closure on the scope itself and rewinds to where it stood
//!   before (bump-scope's `scoped`): it saves the cursor and the destructor chain's front,
//!   and afterwards runs the destructors pushed since and moves the cursor back, the cost
//!   of a [`reset`](Scope::reset) (if the closure panics, its values wait for the next
//!   reset or the end). It takes `&mut self`, so no reference from before can
//!   be used inside (the parent is frozen), and the closure gets `&Scope` for a lifetime of
//!   its own (`for<'a> FnOnce(&'a Scope<'p>) -> R`), so nothing it allocates can leave it
//!   in `R` or through a captured variable. The cursor moves back when the current block
//!   is still the one of the start (or the scope had no block then and has one now);
//!   blocks taken inside stay, with their bytes, until the scope resets or ends (the
//!   values in them were dropped all the same).

#![expect(clippy::inline_always, reason = "the bump fast path must inline into callers")]
#![expect(
    clippy::mut_from_ref,
    reason = "an arena hands out fresh memory through `&self`, as bumpalo does"
)]

use core::alloc::Layout;
use core::fmt;
use core::marker::PhantomData;
use core::mem::{self, needs_drop};
use core::ptr::{self, NonNull};

#[cfg(feature = "alloc")]
use crate::block::BlockInfo;
#[cfg(feature = "alloc")]
use crate::block::BlockPool;
#[cfg(feature = "std")]
use crate::block::LocalBlockPool;
use crate::block::{BlockCache, BufferBlockPool};
use crate::bump::Bump;
use crate::bump::source::Source;
use crate::error::{AllocError, TryAllocError, fail};
use crate::scope::ScopeView;
use crate::scope::drop_list::{DropList, DropMark, DropNode};

/// A bump arena whose values are dropped, newest first, when it ends.
///
/// Made by [`BlockPool::scope`](crate::BlockPool::scope) (blocks recycled through the pool), by
/// [`Scope::scope`] (a child), or as an [`Arena`](crate::Arena) (blocks owned outright).
///
/// # What is freed when
///
/// - Allocating returns `&mut T` borrowed from the scope; it cannot outlive the scope.
/// - When the scope ends, destructors and [`on_exit`](Self::on_exit) callbacks run in
///   reverse order of registration, then every block goes back to where it came from.
///   This happens during unwinding too. Types without drop glue cost nothing at the end.
/// - If a destructor panics, the rest still run and the blocks are still returned; the
///   panic then continues (a second panic during that unwinding aborts, as for `Vec`).
/// - A value is never moved: addresses stay valid until the scope ends.
///
/// # Limits
///
/// [`set_limit`](Self::set_limit) caps the bytes of blocks the scope holds; a block pool
/// can cap its own total. Past a limit the `try_` methods return
/// [`AllocError::LimitReached`] with the value, and the others panic.
///
/// # Examples
///
/// ```
/// use arena_kit::BlockPool;
///
/// let pool = BlockPool::new();
/// let scope = pool.scope();
/// let n = scope.alloc(41);
/// *n += 1;
/// let name = scope.alloc(String::from("dropped when the scope ends"));
/// let squares = scope.alloc_slice_fill_with(4, |i| i * i);
/// assert_eq!((*n, squares.len(), name.len()), (42, 4, 27));
///
/// // Linked structures of `Copy` nodes may borrow each other:
/// #[derive(Clone, Copy)]
/// struct Node<'a> { value: i32, next: Option<&'a Node<'a>> }
/// let tail = scope.alloc_copy(Node { value: 2, next: None });
/// let head = scope.alloc_copy(Node { value: 1, next: Some(tail) });
/// assert_eq!(head.next.unwrap().value, 2);
/// ```
///
/// A value whose destructor would run may not borrow a sibling:
///
/// ```compile_fail,E0597
/// use arena_kit::BlockPool;
/// let pool = BlockPool::new();
/// let scope = pool.scope();
/// let a = scope.alloc(String::from("a"));
/// let b = scope.alloc(vec![&*a]); // error: `scope` does not live long enough
/// ```
pub struct Scope<'p> {
    /// The memory: blocks, cursor, limit (S1-S3, S5 live there).
    pub(super) bump: Bump<'p>,
    pub(super) drops: DropList,
    /// Invariant in `'p` (see the module docs: covariance would unsound the `T: 'p` bound).
    _invariant: PhantomData<fn(&'p ()) -> &'p ()>,
}

/// A snapshot of a scope's counters.
///
/// # Examples
///
/// ```
/// let pool = arena_kit::BlockPool::new();
/// let scope = pool.scope();
/// scope.alloc(0_u64);
/// let s = scope.stats();
/// assert_eq!((s.allocated_bytes, s.reserved_bytes, s.blocks), (8, pool.block_size(), 1));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ScopeStats {
    /// Bytes handed out, alignment padding included (not the unused tail of a block).
    pub allocated_bytes: usize,
    /// Bytes of the blocks the scope holds, headers included.
    pub reserved_bytes: usize,
    /// Blocks the scope holds.
    pub blocks: usize,
}

/// Where a value (or run of values) goes, and the drop node to link once it is built.
pub(super) struct Reserved<T> {
    pub(super) data: NonNull<T>,
    pub(super) node: Option<NonNull<DropNode>>,
    /// The whole reservation (node included), its padded layout and the cursor before
    /// it, to give it back (padding included) when nothing is built after all.
    base: NonNull<u8>,
    layout: Layout,
    before: *mut u8,
}

impl<T> Clone for Reserved<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Reserved<T> {}

/// Layout of a drop node followed by `value` (padded to its alignment, as the bump
/// needs), and the value's offset in it.
fn with_node(value: Layout) -> Result<(Layout, usize), AllocError> {
    let (layout, offset) =
        Layout::new::<DropNode>().extend(value).map_err(|_| AllocError::SizeOverflow)?;
    Ok((layout.pad_to_align(), offset))
}

impl<'p> Scope<'p> {
    /// A scope on `source`; a pool's scope starts on the block the last scope gave back
    /// (the pool's hot block), so its first allocation is a plain bump: a W1 scope then
    /// costs one take and one give-back of that slot and no slow-path call.
    #[inline]
    fn with_source(source: Source<'p>) -> Self {
        Scope { bump: Bump::new(source), drops: DropList::new(), _invariant: PhantomData }
    }

    /// A scope drawing blocks from a block pool's cache.
    #[inline]
    fn from_pool(pool: &'p BlockCache<'p>) -> Self {
        Self::with_source(Source::Pool(pool))
    }

    /// A scope owning its blocks outright (an arena).
    #[cfg(feature = "alloc")]
    pub(super) fn from_system() -> Self {
        Self::with_source(Source::system())
    }

    /// The bump allocator, for the collections and the `Allocator` impl.
    #[inline]
    pub(crate) fn bump(&self) -> &Bump<'p> {
        &self.bump
    }

    /// A `Copy` view of this scope with a single lifetime, for values without destructors:
    /// what a parser stores where a bumpalo user stores `&'a Bump` (see [`ScopeView`]).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let view = scope.view();
    /// let word: &str = view.alloc_str("let");
    /// let n: &i32 = view.alloc(7);
    /// assert_eq!((word, *n), ("let", 7));
    /// ```
    #[inline]
    #[must_use]
    pub fn view(&self) -> ScopeView<'_> {
        ScopeView::new(&self.bump)
    }

    /// Opens a child scope (an APR sub-pool): it takes its own blocks from the same
    /// source and gives them back when it ends, while this scope stays usable.
    ///
    /// The child borrows this scope, so it cannot outlive it, and its values may borrow
    /// this scope's values; this scope's values can never borrow the child's.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let parent = pool.scope();
    /// let config = parent.alloc(String::from("shared"));
    /// for i in 0..3 {
    ///     let child = parent.scope();
    ///     let line = child.alloc(format!("{config} {i}"));
    ///     parent.alloc(i); // the parent stays usable
    ///     assert!(line.ends_with(&i.to_string()));
    /// } // each child's block goes back to the pool here
    /// assert_eq!(pool.stats().live_blocks, 1);
    /// ```
    #[inline]
    #[must_use]
    pub fn scope(&self) -> Scope<'_> {
        Scope::with_source(self.bump.source().child())
    }

    #[cfg(feature = "alloc")]
    /// Makes a fresh block that can hold `layout` the current one, before any allocation
    /// (`Arena::try_with_capacity`).
    pub(super) fn try_prepare_block(&self, layout: Layout) -> Result<(), AllocError> {
        self.bump.prepare(layout)
    }

    /// Moves `value`, of a type without drop glue, into the scope: the bump writes it
    /// before moving the cursor past it ([`Bump::bump_value`]), so that a run of such
    /// allocations reads the cursor once. `Err` hands the value back with the error.
    ///
    /// A type with drop glue would never be dropped (a leak, checked in debug builds):
    /// those take `reserve_one` and `commit_one`, which link a drop node.
    #[inline(always)]
    pub(super) fn place<T>(&self, value: T) -> Result<&mut T, (AllocError, T)> {
        debug_assert!(!needs_drop::<T>(), "place is for values without drop glue");
        let place = match self.bump.bump_value(value) {
            Ok(place) => place,
            Err(value) => self.bump.alloc_value_slow(value)?,
        };
        // SAFETY: S3: initialised just now in this scope's memory, handed to no one
        // else; borrowed from `self`, so it ends with the scope (S2).
        Ok(unsafe { &mut *place.as_ptr() })
    }

    /// Room for one `T`, plus a drop node when `T` has drop glue.
    #[inline(always)]
    pub(super) fn reserve_one<T>(&self) -> Result<Reserved<T>, AllocError> {
        self.reserve_as::<T>(needs_drop::<T>())
    }

    /// Room for one `R`, plus a drop node if `with_node`.
    #[inline(always)]
    pub(super) fn reserve_as<R>(&self, with_node: bool) -> Result<Reserved<R>, AllocError> {
        if with_node {
            self.reserve_with_node::<R>()
        } else {
            let layout = Layout::new::<R>();
            let before = self.bump.cursor();
            let base = self.bump.alloc(layout)?;
            Ok(Reserved { data: base.cast(), node: None, base, layout, before })
        }
    }

    /// Room for a drop node followed by one `T`, in one bump.
    #[inline(always)]
    fn reserve_with_node<T>(&self) -> Result<Reserved<T>, AllocError> {
        self.reserve_after_node(Layout::new::<T>())
    }

    /// Room for a drop node followed by `value` (one `T` or an array of them), in one bump.
    #[inline(always)]
    fn reserve_after_node<T>(&self, value: Layout) -> Result<Reserved<T>, AllocError> {
        let (layout, offset) = with_node(value)?;
        let before = self.bump.cursor();
        let base = self.bump.alloc(layout)?;
        // SAFETY: `offset` is within the `layout` just allocated at `base`.
        let data = unsafe { base.add(offset) }.cast();
        Ok(Reserved { data, node: Some(base.cast()), base, layout, before })
    }

    /// Room for `len` values of `T`, plus a drop node when they need dropping.
    #[inline]
    pub(super) fn reserve_slice<T>(&self, len: usize) -> Result<Reserved<T>, AllocError> {
        let array = Layout::array::<T>(len).map_err(|_| AllocError::SizeOverflow)?;
        if needs_drop::<T>() && len > 0 {
            self.reserve_after_node(array)
        } else {
            let before = self.bump.cursor();
            let base = self.bump.alloc(array)?;
            Ok(Reserved { data: base.cast(), node: None, base, layout: array, before })
        }
    }

    /// Gives an unused reservation back, if nothing was allocated after it (otherwise its
    /// bytes stay unused until the scope ends).
    ///
    /// # Safety
    ///
    /// `slot` came from this scope's `reserve_*`, holds no value that anything will use or
    /// drop, and is not used afterwards.
    #[inline]
    pub(super) unsafe fn give_back<T>(&self, slot: Reserved<T>) {
        // SAFETY: S3: the reservation is a live allocation of `slot.layout` from this
        // bump, and its only user gives it up (caller).
        unsafe { self.bump.give_back_tip_from(slot.before, slot.base, slot.layout) };
    }

    /// Makes the scope drop `len` values at `data` when it ends (a collection handing its
    /// elements over): allocates their drop node, if they need one, and links it.
    ///
    /// # Safety
    ///
    /// The `len` values are initialised, lie in memory that stays allocated until the
    /// scope ends (this scope's own memory), and from now on nothing but the scope drops
    /// them or uses them past the scope's end; `T: 'p` (the values may borrow nothing of
    /// the scope, S4's premise for running their destructors last).
    pub(crate) unsafe fn adopt<T: 'p>(
        &self,
        data: NonNull<T>,
        len: usize,
    ) -> Result<(), AllocError> {
        if needs_drop::<T>() && len > 0 {
            let node = self.bump.alloc(Layout::new::<DropNode>())?.cast::<DropNode>();
            // SAFETY: S4: the node is fresh memory in this scope's blocks; the values are
            // initialised, stay allocated and are dropped by nobody else (caller).
            unsafe { self.drops.push(node, DropNode::drop_slice(data, len)) };
        }
        Ok(())
    }

    /// Moves `value` into `slot` and links its drop node.
    ///
    /// # Safety
    ///
    /// `slot` came from `reserve_one::<T>`/`reserve_with_node::<T>` of this scope and is
    /// used once.
    #[inline(always)]
    pub(super) unsafe fn commit_one<T>(&self, slot: Reserved<T>, value: T) -> &mut T {
        // SAFETY: (1) S3: the slot is fresh memory for one `T`, aligned, owned by this
        // scope.
        unsafe { slot.data.write(value) };
        if let Some(node) = slot.node {
            // SAFETY: (2) S4: the node slot lives in this scope's blocks until they are
            // released, after the chain runs; the value is initialised and only reachable
            // through the `&mut` returned below, which cannot outlive the scope.
            unsafe { self.drops.push(node, DropNode::drop_slice(slot.data, 1)) };
        }
        // SAFETY: (3) initialised above; borrowed from `self`, so it ends with the scope
        // (S2, S3).
        unsafe { &mut *slot.data.as_ptr() }
    }

    /// Fills `slot` with up to `len` values from `next`, stopping early at `None`; links
    /// the drop node for the values written. If `next` panics, the values written so far
    /// are dropped, nothing is linked and the reservation is given back (when nothing was
    /// allocated after it).
    ///
    /// # Safety
    ///
    /// `slot` came from `reserve_slice::<T>(len)` of this scope and is used once.
    #[inline]
    pub(super) unsafe fn fill_slice<T>(
        &self,
        slot: Reserved<T>,
        len: usize,
        mut next: impl FnMut(usize) -> Option<T>,
    ) -> &mut [T] {
        // SAFETY: forwarded from the caller.
        let filled: Result<_, core::convert::Infallible> =
            unsafe { self.try_fill_slice(slot, len, |i| next(i).map(Ok)) };
        match filled {
            Ok(slice) => slice,
            Err(never) => match never {},
        }
    }

    /// [`fill_slice`](Self::fill_slice) whose values may fail to build: at the first
    /// `Some(Err(e))` the values written so far are dropped, the reservation is given back
    /// (when nothing was allocated after it) and `e` is returned.
    ///
    /// # Safety
    ///
    /// As [`fill_slice`](Self::fill_slice).
    pub(super) unsafe fn try_fill_slice<T, E>(
        &self,
        slot: Reserved<T>,
        len: usize,
        mut next: impl FnMut(usize) -> Option<Result<T, E>>,
    ) -> Result<&mut [T], E> {
        /// Drops the initialised prefix and gives the reservation back if `next` panics
        /// or fails.
        struct Partial<'a, 'p, T> {
            scope: &'a Scope<'p>,
            slot: Reserved<T>,
            init: usize,
        }
        impl<T> Drop for Partial<'_, '_, T> {
            fn drop(&mut self) {
                let init = ptr::slice_from_raw_parts_mut(self.slot.data.as_ptr(), self.init);
                // SAFETY: exactly the first `init` values were written, and nothing else
                // will drop them: the node was not linked and no reference escaped.
                unsafe { ptr::drop_in_place(init) };
                // SAFETY: the values were just dropped and the node was never linked, so
                // the reservation holds nothing in use (if a destructor above panicked,
                // this does not run: the bytes then simply stay unused).
                unsafe { self.scope.give_back(self.slot) };
            }
        }

        let mut partial = Partial { scope: self, slot, init: 0 };
        while partial.init < len {
            let value = match next(partial.init) {
                None => break,
                Some(Ok(value)) => value,
                Some(Err(e)) => return Err(e), // `partial` cleans up
            };
            // SAFETY: `init < len` and the slot holds `len` values.
            let place = unsafe { slot.data.add(partial.init) };
            // SAFETY: `place` is in the slot, aligned and not yet initialised.
            unsafe { place.write(value) };
            partial.init += 1;
        }
        let init = partial.init;
        mem::forget(partial);
        if let (Some(node), true) = (slot.node, init > 0) {
            // SAFETY: S4: the node slot lives in this scope's blocks; the `init` values are
            // initialised and only reachable through the slice returned below.
            unsafe { self.drops.push(node, DropNode::drop_slice(slot.data, init)) };
        }
        // SAFETY: `init` values are initialised, aligned, in memory owned by the scope
        // and handed out once (S3); the slice borrows `self`.
        Ok(unsafe { core::slice::from_raw_parts_mut(slot.data.as_ptr(), init) })
    }

    // ----- cleanup --------------------------------------------------------------------

    /// Registers `f` to run when the scope ends (APR's cleanup registration), in LIFO
    /// order together with the destructors of the scope's values: a callback registered
    /// after a value runs before that value is dropped. Runs during unwinding too.
    ///
    /// `F: 'p` means a callback can capture nothing of the scope itself, so it can never
    /// observe a value whose destructor already ran.
    ///
    /// # Panics
    ///
    /// If a limit is reached (`f` is dropped uncalled then; see
    /// [`try_on_exit`](Self::try_on_exit)).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::cell::RefCell;
    ///
    /// let log = RefCell::new(Vec::new());
    /// let pool = arena_kit::BlockPool::new();
    /// {
    ///     let scope = pool.scope();
    ///     scope.on_exit(|| log.borrow_mut().push("first registered"));
    ///     scope.on_exit(|| log.borrow_mut().push("last registered"));
    /// }
    /// assert_eq!(*log.borrow(), ["last registered", "first registered"]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn on_exit<F: FnOnce() + 'p>(&self, f: F) {
        if let Err(e) = self.try_on_exit(f) {
            fail(e.error())
        }
    }

    /// Like [`on_exit`](Self::on_exit), handing the callback back if there is no room.
    ///
    /// # Errors
    ///
    /// As [`try_alloc`](Self::try_alloc), with `f` inside the [`TryAllocError`].
    ///
    /// # Examples
    ///
    /// ```
    /// let called = std::cell::Cell::new(false);
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// scope.set_limit(Some(0));
    /// let f = match scope.try_on_exit(|| called.set(true)) {
    ///     Ok(()) => unreachable!("no block may be taken"),
    ///     Err(e) => e.into_value(),
    /// };
    /// f(); // handed back, uncalled: the caller decides
    /// assert!(called.get());
    /// ```
    #[inline]
    pub fn try_on_exit<F: FnOnce() + 'p>(&self, f: F) -> Result<(), TryAllocError<F>> {
        let slot = match self.reserve_with_node::<F>() {
            Ok(slot) => slot,
            Err(e) => return Err(TryAllocError::new(e, f)),
        };
        // SAFETY: the slot is fresh memory for one `F`, aligned, owned by this scope.
        unsafe { slot.data.write(f) };
        if let Some(node) = slot.node {
            // SAFETY: S4: the closure is initialised, the node lives in this scope's
            // blocks until the chain has run, and nothing else can reach its bytes.
            unsafe { self.drops.push(node, DropNode::call_once(slot.data)) };
        }
        Ok(())
    }

    // ----- limits and counters ------------------------------------------------------------

    /// The limit on bytes of blocks this scope holds, if any: its own
    /// ([`set_limit`](Self::set_limit)), or else its pool's
    /// ([`BlockPool::set_scope_limit`](crate::BlockPool::set_scope_limit)).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// assert_eq!(pool.scope().limit(), None);
    /// ```
    #[must_use]
    pub fn limit(&self) -> Option<usize> {
        self.bump.limit()
    }

    /// Limits the bytes of blocks this scope may hold (headers included).
    ///
    /// Checked only when a new block is needed, so it costs nothing per allocation and
    /// counts whole blocks: with a pool of 8 KiB blocks a limit of 10 000 bytes allows
    /// one block. Lowering it below what is held frees nothing that is in use; it stops
    /// further growth. A scope that has allocated nothing yet gives back the block it
    /// may have started with (see [`BlockPool::scope`](crate::BlockPool::scope)) if the limit is below it, so a
    /// limit set right after creation holds from the first byte.
    ///
    /// The first limit set on a scope allocates the scope's bookkeeping for more than one
    /// block (a few words, which a scope also makes when it takes a second block) with the
    /// global allocator; like `Box::new`, this aborts if the system refuses them. (A
    /// pool's [scope limit](crate::BlockPool::set_scope_limit) needs none of that, and
    /// applies to every scope that sets no limit of its own; `set_limit(None)` goes back
    /// to it.)
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// scope.set_limit(Some(pool.block_size()));
    /// scope.alloc([0_u8; 4000]);
    /// scope.alloc([0_u8; 4000]);
    /// assert!(scope.try_alloc([0_u8; 4000]).is_err()); // would need a second block
    /// ```
    pub fn set_limit(&self, limit: Option<usize>) {
        self.bump.set_limit(limit);
    }

    /// The scope's counters now.
    ///
    /// A scope made from a pool may start with the block the previous scope gave back
    /// (so `blocks` can be 1 before the first allocation); one made from a pool that has
    /// none takes its first block when it first allocates.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// assert_eq!(scope.stats().blocks, 0); // nothing taken before the first allocation
    /// scope.alloc_str("abc");
    /// assert_eq!(scope.stats().allocated_bytes, 3);
    /// ```
    #[must_use]
    pub fn stats(&self) -> ScopeStats {
        let stats = self.bump.stats();
        ScopeStats {
            allocated_bytes: stats.allocated_bytes,
            reserved_bytes: stats.reserved_bytes,
            blocks: stats.blocks,
        }
    }

    /// Bytes left in the current block: what can be allocated (alignment padding
    /// included) before the scope takes another block. 0 before the first block
    /// (bumpalo's `chunk_capacity`).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// scope.alloc(0_u8);
    /// let room = scope.block_room();
    /// scope.alloc_slice_fill_copy(room, 0_u8); // fills the block exactly
    /// assert_eq!((scope.block_room(), scope.stats().blocks), (0, 1));
    /// ```
    #[must_use]
    #[inline]
    pub fn block_room(&self) -> usize {
        self.bump.room()
    }

    #[cfg(feature = "alloc")]
    /// The blocks the scope holds now: the current one first, then the older ones (newest
    /// first), then the blocks of growing collections. A snapshot: allocating while
    /// iterating does not change it.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{block::BlockKind, BlockPool};
    ///
    /// let pool = BlockPool::new();
    /// let scope = pool.scope();
    /// for _ in 0..3 {
    ///     scope.alloc([0_u8; 3000]); // 2 fit in a block of 8 KiB
    /// }
    /// let blocks: Vec<_> = scope.blocks().collect();
    /// assert_eq!(blocks.len(), 2);
    /// assert_eq!((blocks[0].kind, blocks[1].kind), (BlockKind::Current, BlockKind::Retired));
    /// let held: usize = blocks.iter().map(|b| b.size).sum();
    /// assert_eq!(held, scope.stats().reserved_bytes);
    /// ```
    #[must_use]
    pub fn blocks(&self) -> impl ExactSizeIterator<Item = BlockInfo> + use<> {
        self.bump.block_infos().into_iter()
    }

    /// Drops every value and runs every callback now, keeps the current block for reuse
    /// and gives the others back: bumpalo's `reset`, with destructors.
    ///
    /// Takes `&mut self`, so no reference into the scope survives it.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let mut scope = pool.scope();
    /// for round in 0..3 {
    ///     let v = scope.alloc(vec![round; 100]);
    ///     assert_eq!(v[0], round);
    ///     scope.reset();
    /// }
    /// assert_eq!(scope.stats().blocks, 1);
    /// ```
    #[inline]
    pub fn reset(&mut self) {
        if !self.drops.is_empty() {
            // SAFETY: S4: `&mut self`: no reference to any value survives, and the nodes
            // live in blocks that are still held.
            unsafe { self.drops.run_all() };
        }
        // SAFETY: S2, S3: `&mut self`: no reference into the scope's memory survives
        // (values, collections and their buffers all borrow the scope), and every value
        // was dropped just above.
        unsafe { self.bump.rewind() };
    }

    /// Runs `f` on this scope, then drops everything `f` allocated, runs the callbacks it
    /// registered and gives its memory back for the next allocation: a nested scope with
    /// no block of its own, bump-scope's `scoped`. It costs what a
    /// [`reset`](Self::reset) costs.
    ///
    /// The closure gets the scope for a lifetime of its own, so nothing it allocates can
    /// be returned or stored outside; `&mut self` means nothing allocated before can be
    /// used inside (use [`scope`](Self::scope) for a child that lets the parent allocate
    /// too). If what `f` allocated took new blocks, the values are still dropped at the
    /// end, but those blocks and their bytes stay until the scope resets or ends (and if
    /// a new block became the current one, the old one's tail is not reclaimed either).
    /// If `f` panics, nothing is rewound: its values are dropped, and their bytes given
    /// back, at the scope's next reset or its end. Inside, `f` can open a child scope
    /// ([`scope`](Self::scope)) but not a nested `scoped`, which needs `&mut`.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let mut scope = pool.scope();
    /// let total: usize = (0..1000)
    ///     .map(|n| scope.scoped(|s| s.alloc(vec![n; 16]).iter().sum::<usize>()))
    ///     .sum();
    /// assert_eq!(total, 16 * (999 * 1000 / 2));
    /// // Every round reused the same bytes.
    /// assert_eq!(scope.stats().allocated_bytes, 0);
    /// ```
    ///
    /// What `f` allocates cannot leave it:
    ///
    /// ```compile_fail,E0521
    /// let pool = arena_kit::BlockPool::new();
    /// let mut scope = pool.scope();
    /// let mut escaped: Option<&mut u32> = None;
    /// scope.scoped(|s| escaped = Some(s.alloc(1_u32)));
    /// ```
    #[inline]
    pub fn scoped<R>(&mut self, f: impl FnOnce(&Scope<'p>) -> R) -> R {
        let drops = self.drops.mark();
        let bump = self.bump.mark();
        // No guard: if `f` panics, its values simply stay (S4 runs them at the next
        // reset or the end) and so do its bytes. A guard would keep the marks in memory
        // across every call `f` makes, which cost W1 a fifth of its round.
        let result = f(self);
        if !self.drops.is_at(drops) {
            // SAFETY: `drops` was taken just above, before `f`, which could not run the
            // nodes linked then (it had `&Scope` only, and earlier values were out of
            // its reach under `&mut self`); `f` has returned, so no reference to what it
            // allocated is used again.
            unsafe { self.run_drops_until(drops) };
        }
        // SAFETY: S3: everything allocated since the bump mark belongs to `f`, whose
        // borrow has ended and whose values were dropped just above.
        unsafe { self.bump.rewind_to(&bump) };
        result
    }

    /// Runs the destructors pushed since `mark`, out of line (S4): the slow path of
    /// [`scoped`](Self::scoped) and of the scope's end.
    ///
    /// # Safety
    ///
    /// `mark` came from this scope's drop chain, the nodes linked then are still linked,
    /// and no reference to a value whose node was pushed since is used again.
    #[inline(never)]
    unsafe fn run_drops_until(&mut self, mark: DropMark) {
        // SAFETY: forwarded from the caller.
        unsafe { self.drops.run_until(mark) };
    }
}

#[cfg(feature = "alloc")]
impl BlockPool {
    /// Opens a scope that draws its blocks from this pool and gives them back when it
    /// ends.
    ///
    /// If the pool has a block that a scope just gave back (its "hot" block), the new
    /// scope starts with it, so its first allocation is a plain bump; otherwise it takes
    /// a block at its first allocation.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let s = scope.alloc_str("hello");
    /// assert_eq!(s, "hello");
    /// ```
    #[inline]
    #[must_use]
    pub fn scope(&self) -> Scope<'_> {
        Scope::from_pool(self.cache())
    }
}

impl BufferBlockPool<'_> {
    /// Opens a scope that takes its blocks from this pool's buffer and gives them back
    /// when it ends: the scope of a [`BlockPool`](crate::BlockPool), with no allocator.
    /// A scope that needs a block when none is left gets
    /// [`AllocError::BufferExhausted`] from its `try_` methods.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::mem::MaybeUninit;
    ///
    /// let mut buffer = [MaybeUninit::uninit(); 2048];
    /// let pool = arena_kit::BufferBlockPool::new(&mut buffer);
    /// let scope = pool.scope();
    /// let s = scope.alloc_str("hello");
    /// assert_eq!(s, "hello");
    /// ```
    #[inline]
    #[must_use]
    pub fn scope(&self) -> Scope<'_> {
        Scope::from_pool(self.cache())
    }
}

#[cfg(feature = "std")]
impl LocalBlockPool<'_> {
    /// Opens a scope that draws its blocks from this thread's cache (and through it from
    /// the shared pool) and gives them back when it ends: no lock while the cache has
    /// blocks.
    ///
    /// # Examples
    ///
    /// ```
    /// let shared = arena_kit::SharedBlockPool::new();
    /// let local = shared.local();
    /// let scope = local.scope();
    /// assert_eq!(scope.alloc_str("hello"), "hello");
    /// ```
    #[inline]
    #[must_use]
    pub fn scope(&self) -> Scope<'_> {
        Scope::from_pool(self.cache())
    }
}

impl Drop for Scope<'_> {
    /// Runs the destructors and callbacks, newest first; the blocks go back when the
    /// bump drops right after (also if a destructor panics: the panic unwinds through
    /// the field drops).
    #[inline]
    fn drop(&mut self) {
        if !self.drops.is_empty() {
            // SAFETY: S4: the scope is ending, so no reference to its values can be used
            // again (they all borrow the scope), and the nodes' blocks are released after,
            // when the bump drops. The empty mark is every node's.
            unsafe { self.run_drops_until(DropMark::EMPTY) };
        }
    }
}

impl fmt::Debug for Scope<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scope")
            .field("source", &self.bump.source().kind())
            .field("stats", &self.stats())
            .field("limit", &self.limit())
            .finish()
    }
}
