//! `allocator_api2::Allocator` for scopes: collections that live in a scope.
//!
//! `&Scope` (and so `&Arena`) is an allocator: `allocator_api2::vec::Vec<T, &Scope>`,
//! `hashbrown::HashMap<K, V, S, &Scope>` and friends put their buffers in the scope. So
//! is a [`ScopeView`], which parsers store where bumpalo users store `&Bump`. Both
//! forward to one implementation over the scope's bump (`BumpAllocator`, private).
//!
//! - The newest allocation (the *tip*) grows in place when the block has room, and
//!   shrinking or freeing it gives the bytes back: a vector filled with nothing else
//!   allocated in between never copies until its block is full.
//! - Anything else "freed" stays until the scope ends (a bump arena frees nothing in the
//!   middle); growing it copies to the tip.
//! - An allocation larger than a standard block's data (a pool's block, or an arena's
//!   first block) gets a *buffer block* of its own, as `ArenaVec` does: growing or
//!   shrinking it reallocates that block (pages remapped, not copied), and freeing it, or
//!   outgrowing it, gives the block back at once. So a vector or map that grows big in a
//!   scope holds about its capacity, not every buffer it outgrew.
//! - Safety across nesting: a child scope bumps in blocks of its own, so a collection of
//!   the parent can never grow over a child's values, nor a child's over the parent's (the
//!   problem of bump-scope's advisory GHSA-xhx6-q96x-pf9c cannot arise); the borrow of
//!   `&Scope` keeps every collection inside its scope's lifetime, and `reset` needs
//!   `&mut Scope`, so it cannot run while a collection is alive.

use core::alloc::Layout;
use core::ptr::NonNull;

use allocator_api2::alloc::{AllocError as ApiAllocError, Allocator};

use crate::block::raw::relocate;
use crate::bump::Bump;
use crate::scope::{Scope, ScopeView};

/// The allocator over a scope's bump that `&Scope` and `ScopeView` forward to: its
/// memory lives as long as the bump, which outlives every copy of either.
#[derive(Clone, Copy)]
struct BumpAllocator<'a, 'p>(&'a Bump<'p>);

// Why this impl keeps `Allocator`'s contract:
// (1) blocks returned by `allocate` are fresh bump allocations or buffer blocks of at
// least the requested size and alignment, valid until the scope ends (or the buffer is
// given back); every copy of a `BumpAllocator` borrows the scope's bump (as do the
// `&Scope` and the `ScopeView` it came from), so none outlives that memory, and `reset`,
// which needs `&mut Scope`, cannot run while one lives;
// (2) moving or copying it does not move the memory; (3) `deallocate`, `grow`
// and `shrink` only move the bump cursor back when the block is the tip
// (`Scope::is_tip`), so they never hand out bytes in use; (4) an allocation is a buffer
// block exactly when its size is above the standard capacity (`is_big`): `allocate`,
// `grow` and `shrink` put every such size in a buffer and every other size in the bump,
// and the caller passes a size the allocation fits (between the size asked for and the
// size returned, both on the same side), so a buffer is resized or freed only as a
// buffer, by the one collection that owns it (S5).
// SAFETY: (1) to (4) above.
unsafe impl Allocator for BumpAllocator<'_, '_> {
    #[inline]
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, ApiAllocError> {
        if is_big(*self, layout) {
            return new_buffer(*self, layout);
        }
        let ptr = self.0.alloc(layout.pad_to_align()).map_err(|_| ApiAllocError)?;
        Ok(NonNull::slice_from_raw_parts(ptr, layout.size()))
    }

    #[inline]
    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        if is_big(*self, layout) {
            debug_assert!(self.0.is_buffer(ptr), "(4): a big allocation is a buffer");
            // SAFETY: (4): a big allocation is a buffer of this scope; the caller gives
            // it up.
            unsafe { self.0.release_buffer(ptr) };
            return;
        }
        // SAFETY: the caller guarantees `ptr` is a live allocation of `layout` from us.
        unsafe { self.0.give_back_tip(ptr, layout) };
    }

    unsafe fn grow(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, ApiAllocError> {
        if is_big(*self, new_layout) {
            // SAFETY: the caller guarantees `ptr` is a live allocation of `old_layout`,
            // which is no larger than `new_layout`.
            return unsafe { resize_to_buffer(*self, ptr, old_layout, new_layout) };
        }
        // SAFETY: the caller guarantees `ptr` is a live allocation of `old_layout`.
        if unsafe { self.0.resize_tip(ptr, old_layout, new_layout) } {
            return Ok(NonNull::slice_from_raw_parts(ptr, new_layout.size()));
        }
        // SAFETY: growing means `old_layout.size() <= new_layout.size()`; `ptr` is live.
        unsafe { relocate(*self, ptr, new_layout, old_layout.size()) }
    }

    /// Grows in place at the tip like [`grow`](Allocator::grow) (allocator-api2's default
    /// would allocate anew and copy), then zeroes the new bytes.
    unsafe fn grow_zeroed(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, ApiAllocError> {
        // SAFETY: forwarded from the caller (`ptr` is a live allocation of `old_layout`,
        // `new_layout` is at least as large).
        let grown = unsafe { self.grow(ptr, old_layout, new_layout) }?;
        let old = old_layout.size();
        // SAFETY: the block holds `new_layout.size() >= old` bytes, all of them ours.
        let tail = unsafe { grown.cast::<u8>().add(old) };
        // SAFETY: as above: `new_layout.size() - old` bytes from `tail` are in the block.
        unsafe { tail.write_bytes(0, new_layout.size() - old) };
        Ok(grown)
    }

    unsafe fn shrink(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, ApiAllocError> {
        if is_big(*self, new_layout) {
            // SAFETY: the caller guarantees `ptr` is a live allocation of `old_layout`,
            // which is at least as large as `new_layout`, so big as well: a buffer (4).
            return unsafe { resize_to_buffer(*self, ptr, old_layout, new_layout) };
        }
        if is_big(*self, old_layout) {
            // Out of its buffer into the bump, and the buffer goes back.
            // SAFETY: the caller guarantees `ptr` is a live allocation of `old_layout`.
            return unsafe { move_out(*self, ptr, old_layout, new_layout) };
        }
        // SAFETY: the caller guarantees `ptr` is a live allocation of `old_layout`.
        if unsafe { self.0.resize_tip(ptr, old_layout, new_layout) } {
            return Ok(NonNull::slice_from_raw_parts(ptr, new_layout.size()));
        }
        if ptr.as_ptr().addr() % new_layout.align() == 0 {
            // Not the tip, but already aligned: keep the bytes where they are.
            return Ok(NonNull::slice_from_raw_parts(ptr, new_layout.size()));
        }
        // SAFETY: shrinking means `new_layout.size() <= old_layout.size()`; `ptr` is live.
        unsafe { relocate(*self, ptr, new_layout, new_layout.size()) }
    }
}

/// Whether `layout` is too big for a standard block's data: such an allocation is a
/// buffer block of its own (4).
#[inline]
fn is_big(alloc: BumpAllocator<'_, '_>, layout: Layout) -> bool {
    layout.size() > alloc.0.standard_capacity()
}

/// A new buffer block for a big `layout`, all its bytes offered to the caller.
fn new_buffer(
    alloc: BumpAllocator<'_, '_>,
    layout: Layout,
) -> Result<NonNull<[u8]>, ApiAllocError> {
    let (ptr, bytes) = alloc.0.alloc_buffer(layout).map_err(|_| ApiAllocError)?;
    Ok(NonNull::slice_from_raw_parts(ptr, bytes))
}

/// `grow` or `shrink` to a big `new_layout`: the buffer is reallocated if `ptr` is one
/// of the same alignment; otherwise the bytes move to a new buffer, and the old
/// allocation goes back (a buffer at once, a bump allocation if it is the tip).
///
/// # Safety
///
/// `ptr` is a live allocation of `old_layout` from `alloc`; `new_layout` is big. On
/// success the caller uses only the returned pointer.
unsafe fn resize_to_buffer(
    alloc: BumpAllocator<'_, '_>,
    ptr: NonNull<u8>,
    old_layout: Layout,
    new_layout: Layout,
) -> Result<NonNull<[u8]>, ApiAllocError> {
    if is_big(alloc, old_layout) && old_layout.align() == new_layout.align() {
        // SAFETY: (4): `ptr` is a buffer of this scope, of this alignment, and big
        // `new_layout` keeps it a buffer; the caller moves to the returned pointer.
        let (ptr, bytes) =
            unsafe { alloc.0.grow_buffer(ptr, new_layout) }.map_err(|_| ApiAllocError)?;
        return Ok(NonNull::slice_from_raw_parts(ptr, bytes));
    }
    // SAFETY: forwarded from the caller.
    unsafe { move_out(alloc, ptr, old_layout, new_layout) }
}

/// Moves an allocation to a new one of `new_layout` (a buffer if big, (4)), keeping what
/// fits of its bytes, and gives the old one back as `deallocate` does (a buffer at once,
/// a bump allocation if it is the tip).
///
/// # Safety
///
/// `ptr` is a live allocation of `old_layout` from `alloc`. On success the caller uses
/// only the returned pointer.
unsafe fn move_out(
    alloc: BumpAllocator<'_, '_>,
    ptr: NonNull<u8>,
    old_layout: Layout,
    new_layout: Layout,
) -> Result<NonNull<[u8]>, ApiAllocError> {
    let keep = old_layout.size().min(new_layout.size());
    // SAFETY: `ptr` is live with `old_layout.size() >= keep` bytes, `keep` fits the new
    // layout.
    let new = unsafe { relocate(alloc, ptr, new_layout, keep) }?;
    // SAFETY: a live allocation of `old_layout` from `alloc` (caller), copied out above;
    // the caller uses only the new pointer from here on.
    unsafe { alloc.deallocate(ptr, old_layout) };
    Ok(new)
}

/// `Allocator` for a type that reaches a scope's bump, forwarding every method to its
/// [`BumpAllocator`] (whose contract, above, is what these keep).
macro_rules! forward_to_bump {
    ($ty:ty, |$this:ident| $bump:expr) => {
        // SAFETY: every method forwards to the `BumpAllocator` of the same bump, which
        // keeps the contract ((1) to (4) above); the memory lives as long as the bump,
        // which this type borrows, and copies of it reach the same bump.
        unsafe impl Allocator for $ty {
            #[inline]
            fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, ApiAllocError> {
                let $this = self;
                BumpAllocator($bump).allocate(layout)
            }

            #[inline]
            unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
                let $this = self;
                // SAFETY: forwarded from the caller, to the same bump's allocator.
                unsafe { BumpAllocator($bump).deallocate(ptr, layout) }
            }

            #[inline]
            unsafe fn grow(
                &self,
                ptr: NonNull<u8>,
                old_layout: Layout,
                new_layout: Layout,
            ) -> Result<NonNull<[u8]>, ApiAllocError> {
                let $this = self;
                // SAFETY: forwarded from the caller, to the same bump's allocator.
                unsafe { BumpAllocator($bump).grow(ptr, old_layout, new_layout) }
            }

            #[inline]
            unsafe fn grow_zeroed(
                &self,
                ptr: NonNull<u8>,
                old_layout: Layout,
                new_layout: Layout,
            ) -> Result<NonNull<[u8]>, ApiAllocError> {
                let $this = self;
                // SAFETY: forwarded from the caller, to the same bump's allocator.
                unsafe { BumpAllocator($bump).grow_zeroed(ptr, old_layout, new_layout) }
            }

            #[inline]
            unsafe fn shrink(
                &self,
                ptr: NonNull<u8>,
                old_layout: Layout,
                new_layout: Layout,
            ) -> Result<NonNull<[u8]>, ApiAllocError> {
                let $this = self;
                // SAFETY: forwarded from the caller, to the same bump's allocator.
                unsafe { BumpAllocator($bump).shrink(ptr, old_layout, new_layout) }
            }
        }
    };
}

forward_to_bump!(&Scope<'_>, |scope| scope.bump());
forward_to_bump!(ScopeView<'_>, |view| view.bump());
