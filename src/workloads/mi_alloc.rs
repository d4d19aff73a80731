//! [`MiAlloc`]: mimalloc as an `allocator_api2` allocator, so one contender can put its
//! `Box`es and `Vec`s on mimalloc (`Box::new_in(x, MiAlloc)`, `Vec::with_capacity_in(n,
//! MiAlloc)`) while the rest of the process keeps its own global allocator: the "Box with
//! mimalloc" rows of W1, W3, W4 and W7, what a user gets by switching allocators instead
//! of adopting an arena.
//!
//! mimalloc takes its memory from the system itself, so a counting global allocator
//! (the report's) would not see these blocks: [`set_meter`] lets it count them too, at
//! the same cost per allocation as the others pay.
//!
//! Invariant M1: every non-empty block [`MiAlloc`] hands out comes from `MiMalloc`'s
//! `GlobalAlloc::alloc` with the same layout it is later freed with, and empty blocks
//! (size 0) never reach mimalloc: they are dangling pointers aligned to the layout.

use core::alloc::GlobalAlloc;
use core::ptr::NonNull;
use std::sync::OnceLock;

use allocator_api2::alloc::{AllocError, Allocator, Layout};
use mimalloc::MiMalloc;

/// Counts the bytes of blocks taken from an allocator other than the global one.
pub trait ByteMeter: Sync {
    /// A block of `bytes` was handed out.
    fn add(&self, bytes: usize);
    /// A block of `bytes` was given back.
    fn sub(&self, bytes: usize);
}

static METER: OnceLock<&'static dyn ByteMeter> = OnceLock::new();

/// Makes every [`MiAlloc`] block from now on count in `meter`; the first call wins.
/// Returns whether `meter` is the one in place.
///
/// # Examples
///
/// ```
/// use arena_kit_report::workloads::mi_alloc::{self, ByteMeter, MiAlloc};
/// use std::sync::atomic::{AtomicUsize, Ordering};
///
/// struct Held(AtomicUsize);
/// impl ByteMeter for Held {
///     fn add(&self, bytes: usize) { self.0.fetch_add(bytes, Ordering::Relaxed); }
///     fn sub(&self, bytes: usize) { self.0.fetch_sub(bytes, Ordering::Relaxed); }
/// }
/// static HELD: Held = Held(AtomicUsize::new(0));
/// assert!(mi_alloc::set_meter(&HELD));
/// let b = allocator_api2::boxed::Box::new_in(1_u64, MiAlloc);
/// assert_eq!(HELD.0.load(Ordering::Relaxed), 8);
/// drop(b);
/// assert_eq!(HELD.0.load(Ordering::Relaxed), 0);
/// ```
pub fn set_meter(meter: &'static dyn ByteMeter) -> bool {
    let set = METER.get_or_init(|| meter);
    core::ptr::addr_eq(*set, meter)
}

/// mimalloc through `allocator_api2`'s [`Allocator`] trait; a zero-sized handle, every
/// call a call into mimalloc's thread-local heaps.
///
/// # Examples
///
/// ```
/// use allocator_api2::boxed::Box;
/// use allocator_api2::vec::Vec;
/// use arena_kit_report::workloads::mi_alloc::MiAlloc;
///
/// let b = Box::new_in(41_u32, MiAlloc);
/// let mut v = Vec::with_capacity_in(3, MiAlloc);
/// v.extend([1_u32, 2, 3]);
/// assert_eq!(*b + v.len() as u32, 44);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MiAlloc;

// SAFETY: M1: a block is valid until `deallocate`, since mimalloc frees it only there;
// `MiAlloc` has no state, so its copies are interchangeable and free each other's blocks.
unsafe impl Allocator for MiAlloc {
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, AllocError> {
        if layout.size() == 0 {
            let dangling = NonNull::new(core::ptr::without_provenance_mut::<u8>(layout.align()))
                .ok_or(AllocError)?;
            return Ok(NonNull::slice_from_raw_parts(dangling, 0));
        }
        // SAFETY: M1: the layout's size is not zero, as `GlobalAlloc::alloc` requires.
        let ptr = unsafe { MiMalloc.alloc(layout) };
        let ptr = NonNull::new(ptr).ok_or(AllocError)?;
        if let Some(meter) = METER.get() {
            meter.add(layout.size());
        }
        Ok(NonNull::slice_from_raw_parts(ptr, layout.size()))
    }

    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        if layout.size() != 0 {
            // SAFETY: M1: the caller hands back a block of this allocator with its layout,
            // and a non-empty one came from `MiMalloc.alloc` with that layout.
            unsafe { MiMalloc.dealloc(ptr.as_ptr(), layout) };
            if let Some(meter) = METER.get() {
                meter.sub(layout.size());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_vectors_and_empty_blocks_round_trip() {
        let b = allocator_api2::boxed::Box::new_in([7_u64; 4], MiAlloc);
        assert_eq!(b.iter().sum::<u64>(), 28);
        let mut v = allocator_api2::vec::Vec::new_in(MiAlloc);
        v.extend(0..1000_u32);
        assert_eq!(v.iter().map(|&x| u64::from(x)).sum::<u64>(), 499_500);
        let empty = Layout::from_size_align(0, 64).unwrap();
        let block = MiAlloc.allocate(empty).unwrap();
        assert_eq!(block.cast::<u8>().as_ptr() as usize % 64, 0);
        // SAFETY: `block` came from `MiAlloc` with `empty`.
        unsafe { MiAlloc.deallocate(block.cast(), empty) };
    }
}
