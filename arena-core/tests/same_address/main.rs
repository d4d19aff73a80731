//! A block given back and a new one at the same address, inside `Scope::scoped`.
//!
//! `scoped` must know whether the block its mark was taken in is still the current one
//! (it once told by where the block's data ends; it now counts every change of the
//! current block). Inside the closure, `set_limit` can give an unused current block
//! back, and the next block may then come from the same address: with a smaller size it
//! ends where the old one ended but starts higher, so moving the cursor back to the mark
//! would put it below the new block, into memory the system allocator hands out again. On glibc that took a 64 MiB
//! block (mmap places the smaller one at the top of the freed hole); here this binary's
//! global allocator, a stack that reuses the newest freed bytes, makes it happen every
//! time, natively and under Miri.
//!
//! Its own harness (`harness = false`): the allocator must serve this one program only.
//! It answers `--list --format terse` as libtest does, so `cargo nextest` runs it too.

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicUsize, Ordering};
use std::alloc::System;

use arena_kit::Arena;

/// Bytes the stack allocator serves; larger requests go to the system.
const HEAP: usize = 1 << 20;

#[repr(C, align(4096))]
struct Heap(UnsafeCell<[u8; HEAP]>);

// SAFETY: the bytes are reached only through pointers `Stack` hands out, each to one
// owner at a time.
unsafe impl Sync for Heap {}

static HEAP_BYTES: Heap = Heap(UnsafeCell::new([0; HEAP]));

/// Allocates downward from the top of `HEAP_BYTES`; freeing the newest allocation gives
/// its bytes back, so the next allocation reuses that address. Other frees leak (this
/// program is short). One thread only: the test runs in `main`.
struct Stack {
    /// Offset of the lowest byte handed out.
    top: AtomicUsize,
    /// The `top` before each live allocation, newest last (up to `tops.len()` deep).
    tops: [AtomicUsize; 256],
    depth: AtomicUsize,
}

#[global_allocator]
static STACK: Stack = Stack {
    top: AtomicUsize::new(HEAP),
    tops: [const { AtomicUsize::new(0) }; 256],
    depth: AtomicUsize::new(0),
};

// SAFETY: every pointer handed out is a distinct, aligned range of `HEAP_BYTES` not
// handed out again until it is freed (only the newest one is reused), or comes from
// `System`; `dealloc` gives each back to where it came from.
unsafe impl GlobalAlloc for Stack {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let top = self.top.load(Ordering::Relaxed);
        let depth = self.depth.load(Ordering::Relaxed);
        let start = top.checked_sub(layout.size()).map(|s| s & !(layout.align() - 1));
        match start {
            Some(start) if depth < self.tops.len() => {
                self.tops[depth].store(top, Ordering::Relaxed);
                self.depth.store(depth + 1, Ordering::Relaxed);
                self.top.store(start, Ordering::Relaxed);
                HEAP_BYTES.0.get().cast::<u8>().wrapping_add(start)
            }
            // SAFETY: forwarded from the caller.
            _ => unsafe { System.alloc(layout) },
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let base = HEAP_BYTES.0.get().cast::<u8>().addr();
        if !(base..base + HEAP).contains(&ptr.addr()) {
            // SAFETY: not from the heap, so from `System` with this layout.
            unsafe { System.dealloc(ptr, layout) };
            return;
        }
        let depth = self.depth.load(Ordering::Relaxed);
        if ptr.addr() - base == self.top.load(Ordering::Relaxed) && depth > 0 {
            self.depth.store(depth - 1, Ordering::Relaxed);
            self.top.store(self.tops[depth - 1].load(Ordering::Relaxed), Ordering::Relaxed);
        }
    }
}

const NAME: &str = "set_limit_inside_scoped_then_a_block_at_the_same_address";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--list") {
        println!("{NAME}: test");
        return;
    }
    set_limit_inside_scoped_then_a_block_at_the_same_address();
    println!("test {NAME} ... ok");
}

fn set_limit_inside_scoped_then_a_block_at_the_same_address() {
    let mut arena = Arena::new();
    // The first limit makes the arena's bookkeeping for more than one block: before the
    // block, so that the block is the newest allocation and its bytes are reused.
    arena.set_limit(Some(usize::MAX));
    arena.set_limit(None);
    arena.alloc_layout(Layout::from_size_align(64 * 1024, 1).expect("a layout"));
    arena.reset(); // the block stays, unused
    let old = arena.blocks().next().expect("a block");
    let new = arena.scoped(|s| {
        s.set_limit(Some(0)); // the current block is unused: it goes back now
        s.set_limit(None);
        s.alloc_layout(Layout::from_size_align(32 * 1024, 1).expect("a layout"));
        s.blocks().next().expect("a block")
    });
    assert_eq!(old.addr + old.capacity, new.addr + new.capacity, "the setup: the same end");
    assert!(new.addr > old.addr, "the setup: the new block starts higher");
    // The cursor must still lie in the current block.
    let current = arena.blocks().next().expect("a block");
    assert!(arena.block_room() <= current.capacity, "the cursor left its block");
    let gap = arena.block_room();
    let slice: &mut [u8] = arena.alloc_slice_fill_copy(gap, 0xAA);
    let at = slice.as_ptr().addr();
    assert!((current.addr..current.addr + current.capacity).contains(&at));
    let boxed = Box::new([0x55_u8; 64]); // the system's next bytes
    assert!(slice.iter().all(|&b| b == 0xAA), "a Box landed in the arena's slice");
    assert_eq!(boxed[63], 0x55);
}
