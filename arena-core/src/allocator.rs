//! `allocator_api2::Allocator` for scopes: collections that live in a scope.
//!
//! `&Scope` (and so `&Arena`) is an allocator: `allocator_api2::vec::Vec<T, &Scope>`,
//! `hashbrown::HashMap<K, V, S, &Scope>` and friends put their buffers in the scope.
//!
//! - The newest allocation (the *tip*) grows in place when the block has room, and
//!   shrinking or freeing it gives the bytes back: a vector filled with nothing else
//!   allocated in between never copies until its block is full.
//! - Anything else "freed" stays until the scope ends (a bump arena frees nothing in the
//!   middle); growing it copies to the tip.
//! - Safety across nesting: a child scope bumps in blocks of its own, so a collection of
//!   the parent can never grow over a child's values, nor a child's over the parent's (the
//!   problem of bump-scope's advisory GHSA-xhx6-q96x-pf9c cannot arise); the borrow of
//!   `&Scope` keeps every collection inside its scope's lifetime, and `reset` needs
//!   `&mut Scope`, so it cannot run while a collection is alive.

use core::alloc::Layout;
use core::ptr::{self, NonNull};

use allocator_api2::alloc::{AllocError as ApiAllocError, Allocator};

use crate::scope::Scope;

// Why this impl keeps `Allocator`'s contract:
// (1) blocks returned by `allocate` are fresh bump allocations of at least the requested
// size and alignment, valid until the scope ends; every copy of `&Scope` borrows the
// scope, so none outlives that memory; (2) moving or copying the `&Scope` does not move
// the memory; (3) `deallocate`, `grow` and `shrink` only move the bump cursor back when
// the block is the tip (`Scope::is_tip`), so they never hand out bytes in use.
// SAFETY: (1) to (3) above.
unsafe impl Allocator for &Scope<'_> {
    #[inline]
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, ApiAllocError> {
        let ptr = self.try_alloc_layout(layout).map_err(|_| ApiAllocError)?;
        Ok(NonNull::slice_from_raw_parts(ptr, layout.size()))
    }

    #[inline]
    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: the caller guarantees `ptr` is a live allocation of `layout` from us.
        unsafe { self.bump().give_back_tip(ptr, layout) };
    }

    unsafe fn grow(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, ApiAllocError> {
        // SAFETY: the caller guarantees `ptr` is a live allocation of `old_layout`.
        if unsafe { self.bump().resize_tip(ptr, old_layout, new_layout) } {
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
        // SAFETY: the caller guarantees `ptr` is a live allocation of `old_layout`.
        if unsafe { self.bump().resize_tip(ptr, old_layout, new_layout) } {
            return Ok(NonNull::slice_from_raw_parts(ptr, new_layout.size()));
        }
        if ptr.as_ptr().addr().is_multiple_of(new_layout.align()) {
            // Not the tip, but already aligned: keep the bytes where they are.
            return Ok(NonNull::slice_from_raw_parts(ptr, new_layout.size()));
        }
        // SAFETY: shrinking means `new_layout.size() <= old_layout.size()`; `ptr` is live.
        unsafe { relocate(*self, ptr, new_layout, new_layout.size()) }
    }
}

/// Allocates `new_layout` from `alloc` and copies the first `keep` bytes of `ptr` there:
/// the path of `grow` and `shrink` when a block cannot be resized in place (for a scope,
/// the new block is at the tip).
///
/// # Safety
///
/// `ptr` is a live allocation of at least `keep` bytes, and `keep <= new_layout.size()`.
pub(crate) unsafe fn relocate(
    alloc: impl Allocator,
    ptr: NonNull<u8>,
    new_layout: Layout,
    keep: usize,
) -> Result<NonNull<[u8]>, ApiAllocError> {
    let new = alloc.allocate(new_layout)?;
    let dst = new.cast::<u8>().as_ptr();
    // SAFETY: the new block is fresh, so it cannot overlap `ptr`, and both hold `keep`
    // bytes (caller).
    unsafe { ptr::copy_nonoverlapping(ptr.as_ptr(), dst, keep) };
    Ok(new)
}
