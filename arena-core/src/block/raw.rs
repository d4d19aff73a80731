//! The one module that talks to the system allocator.
//!
//! Every byte arena-kit holds comes from [`allocate`] (or [`reallocate`]) and goes back
//! through [`deallocate`]; `.clippy.toml` forbids `alloc::alloc::{alloc, dealloc}` everywhere else,
//! so a reviewer auditing raw allocation reads this file and nothing more.
//!
//! It also owns the size arithmetic of seed 001 (libstdc++'s page-rounded strings): a
//! request plus the system allocator's bookkeeping should fill whole pages, or the
//! allocator rounds up anyway and the tail is wasted where nobody can use it.

#[cfg(any(feature = "alloc", feature = "allocator-api2"))]
use core::alloc::Layout;
use core::ptr::NonNull;

/// Page size assumed when rounding block requests. 4 KiB on every platform CI runs on;
/// a larger real page only means a block fills a fraction of a page less perfectly.
pub(crate) const PAGE: usize = 4096;

/// Bytes the system allocator keeps in front of (or around) each chunk: two words, the
/// value seed 001 measured (`__malloc_header_size = 2 * sizeof(void*)`). With glibc on
/// x86-64 a request of `k * 4096 - 16` bytes takes exactly `k` pages.
pub(crate) const MALLOC_OVERHEAD: usize = 2 * size_of::<usize>();

/// Rounds `bytes` up so that `bytes + MALLOC_OVERHEAD` fills what the system allocator
/// would hand out anyway: whole pages above a page, multiples of 256 bytes below (the
/// rule of seed 001's patch, whose small-size bins were 256-byte granular).
///
/// Returns `None` if the rounded size would exceed `isize::MAX` (no layout can hold it).
pub(super) const fn page_fill(bytes: usize) -> Option<usize> {
    let Some(with_header) = bytes.checked_add(MALLOC_OVERHEAD) else {
        return None;
    };
    let unit = if with_header > PAGE { PAGE } else { SMALL_UNIT };
    let Some(rounded) = with_header.checked_next_multiple_of(unit) else {
        return None;
    };
    let filled = rounded - MALLOC_OVERHEAD;
    if filled > isize::MAX as usize { None } else { Some(filled) }
}

/// Granularity below a page (seed 001: 256).
const SMALL_UNIT: usize = 256;

/// A well-aligned, non-null pointer that owns nothing: what a zero-sized request gets.
#[inline]
pub(crate) fn dangling(align: usize) -> NonNull<u8> {
    // `Layout` alignments are non-zero powers of two; `MIN` (1) only for a zero `align`.
    NonNull::new(core::ptr::without_provenance_mut(align.max(1))).unwrap_or(NonNull::dangling())
}

#[cfg(feature = "alloc")]
/// Allocates `layout` from the global allocator; `None` when it refuses. A zero-sized
/// layout allocates nothing and gets [`dangling`] memory.
pub(crate) fn allocate(layout: Layout) -> Option<NonNull<u8>> {
    if layout.size() == 0 {
        return Some(dangling(layout.align()));
    }
    // SAFETY: `layout` has a non-zero size (checked above), `GlobalAlloc::alloc`'s only
    // precondition.
    #[expect(clippy::disallowed_methods, reason = "this is the raw allocation module")]
    let ptr = unsafe { alloc::alloc::alloc(layout) };
    NonNull::new(ptr)
}

#[cfg(feature = "alloc")]
/// `value` in a new `Box`, or `OutOfMemory` (with `value` dropped) when the global
/// allocator refuses: `Box::new` would abort instead.
pub(crate) fn try_box<T>(value: T) -> Result<alloc::boxed::Box<T>, crate::error::AllocError> {
    let layout = Layout::new::<T>();
    let Some(ptr) = allocate(layout) else {
        return Err(crate::error::AllocError::OutOfMemory {
            size: layout.size(),
            align: layout.align(),
        });
    };
    let ptr = ptr.cast::<T>().as_ptr();
    // SAFETY: `ptr` is fresh memory of `T`'s layout (or dangling and aligned for a
    // zero-sized `T`), so writing `value` there is in bounds and aligned.
    unsafe { ptr.write(value) };
    // SAFETY: the memory came from the global allocator with `Layout::new::<T>()` (none
    // for a zero-sized `T`), as `Box` allocates it, and holds an initialised `T` owned
    // by nothing else.
    Ok(unsafe { alloc::boxed::Box::from_raw(ptr) })
}

#[cfg(feature = "alloc")]
/// Returns memory obtained from [`allocate`] (nothing, for a zero-sized layout).
///
/// # Safety
///
/// - `ptr` was returned by [`allocate`] with this exact `layout`;
/// - it has not been deallocated yet, and nothing reads or writes it afterwards.
pub(crate) unsafe fn deallocate(ptr: NonNull<u8>, layout: Layout) {
    if layout.size() == 0 {
        return;
    }
    // SAFETY: the caller guarantees `ptr` came from `allocate(layout)`, which with a
    // non-zero size is the global allocator's memory of this layout, freed exactly once.
    #[expect(clippy::disallowed_methods, reason = "this is the raw allocation module")]
    unsafe {
        alloc::alloc::dealloc(ptr.as_ptr(), layout);
    }
}

#[cfg(feature = "alloc")]
/// Resizes memory obtained from [`allocate`] to `new_size` bytes, keeping its alignment
/// and its first `min(old, new)` bytes; `None` (the old memory untouched) when the
/// allocator refuses. Large blocks are moved by remapping pages rather than copying
/// (glibc's `mremap`), which is what makes a page-rounded string's growth cheap (seed 001).
///
/// # Safety
///
/// - `ptr` was returned by [`allocate`] (or this function) with exactly `layout`, and is live;
/// - `layout` and `new_size` are non-zero (zero sizes go through `allocate`), and
///   `new_size` rounded up to `layout.align()` is at most `isize::MAX`.
///
/// On success the old pointer is dead: only the returned one may be used.
pub(super) unsafe fn reallocate(
    ptr: NonNull<u8>,
    layout: Layout,
    new_size: usize,
) -> Option<NonNull<u8>> {
    debug_assert!(new_size > 0, "raw::reallocate: zero size");
    // SAFETY: the caller guarantees `ptr` is live memory of the global allocator with
    // `layout`, and that `new_size` is non-zero and forms a valid layout with its
    // alignment: `GlobalAlloc::realloc`'s preconditions.
    #[expect(clippy::disallowed_methods, reason = "this is the raw allocation module")]
    let new = unsafe { alloc::alloc::realloc(ptr.as_ptr(), layout, new_size) };
    NonNull::new(new)
}

/// Allocates `new_layout` from `alloc` and copies the first `keep` bytes of `ptr` there:
/// the path of an `allocator_api2` allocator's `grow` and `shrink` when a block cannot
/// be resized in place (a scope's, a size-class pool's).
///
/// # Safety
///
/// `ptr` is a live allocation of at least `keep` bytes, and `keep <= new_layout.size()`.
#[cfg(feature = "allocator-api2")]
pub(crate) unsafe fn relocate(
    alloc: impl allocator_api2::alloc::Allocator,
    ptr: NonNull<u8>,
    new_layout: Layout,
    keep: usize,
) -> Result<NonNull<[u8]>, allocator_api2::alloc::AllocError> {
    let new = alloc.allocate(new_layout)?;
    let dst = new.cast::<u8>().as_ptr();
    // SAFETY: the new block is fresh, so it cannot overlap `ptr`, and both hold `keep`
    // bytes (caller).
    unsafe { core::ptr::copy_nonoverlapping(ptr.as_ptr(), dst, keep) };
    Ok(new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_fill_makes_request_plus_header_whole_pages() {
        for bytes in [PAGE - MALLOC_OVERHEAD + 1, PAGE, 3 * PAGE + 5, 1 << 20] {
            let filled = page_fill(bytes).unwrap();
            assert!(filled >= bytes);
            assert_eq!((filled + MALLOC_OVERHEAD) % PAGE, 0, "bytes = {bytes}");
            assert!(filled - bytes < PAGE, "never more than a page of slack");
        }
    }

    #[test]
    fn page_fill_rounds_small_requests_to_256_bytes() {
        assert_eq!(page_fill(1), Some(256 - MALLOC_OVERHEAD));
        assert_eq!(page_fill(1000), Some(1024 - MALLOC_OVERHEAD));
        assert_eq!(page_fill(PAGE - MALLOC_OVERHEAD), Some(PAGE - MALLOC_OVERHEAD));
    }

    #[test]
    fn page_fill_refuses_sizes_beyond_isize_max() {
        assert_eq!(page_fill(usize::MAX), None);
        assert_eq!(page_fill(isize::MAX as usize), None);
    }
}
