//! [`ChunkStack`]: free chunks linked through their own first word, the one intrusive
//! chunk list of the crate (a size class's free list, a thread cache's lists, the depot's
//! batches), so the raw link reads and writes, and their argument, live here only.
//!
//! # Invariant
//!
//! **(K1)** Every chunk in a stack is free memory owned by the stack: at least a pointer
//! wide, aligned for one, used by nobody else; its first word holds the next chunk (null
//! at the bottom). [`push`](ChunkStack::push) is where a caller
//! vouches for a chunk (`unsafe`); everything else keeps K1 by construction.
//!
//! What a stack cannot know is the chunks' *size*: its owner (a size class) keeps one
//! class per stack, and moving chunks between stacks of different classes is `unsafe` at
//! that level.

use core::cell::Cell;
use core::fmt;
use core::ptr::{self, NonNull};

/// A LIFO stack of free chunks (K1): one pointer, no count (the size classes' fast path
/// pays nothing for one; an owner that needs the count keeps it). Dropping a non-empty
/// stack forgets its chunks (they live in blocks their owner frees).
#[derive(Default)]
pub(super) struct ChunkStack {
    head: Cell<Option<NonNull<u8>>>,
}

// SAFETY: K1: the chunks are memory owned by the stack and used by nobody else; sending
// the stack sends that ownership. (`Sync` stays off: the `Cell` is unsynchronised.)
unsafe impl Send for ChunkStack {}

impl ChunkStack {
    /// An empty stack.
    pub(super) const fn new() -> Self {
        ChunkStack { head: Cell::new(None) }
    }

    /// Whether the stack holds no chunk.
    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.head.get().is_none()
    }

    /// Pushes a free chunk.
    ///
    /// # Safety
    ///
    /// `chunk` is at least a pointer wide and aligned for one, in no stack, and nobody
    /// uses it until it is popped again (K1).
    #[inline]
    pub(super) unsafe fn push(&self, chunk: NonNull<u8>) {
        let next = self.head.get().map_or(ptr::null_mut(), NonNull::as_ptr);
        // SAFETY: the caller hands over an unused chunk, aligned and at least a word
        // long, so its first word is ours to hold the link.
        unsafe { chunk.cast::<*mut u8>().write(next) };
        self.head.set(Some(chunk));
    }

    /// Pops a free chunk, if any; it is the caller's from now on.
    #[inline]
    pub(super) fn pop(&self) -> Option<NonNull<u8>> {
        let head = self.head.get()?;
        // SAFETY: K1: a listed chunk's first word holds the next link.
        self.head.set(NonNull::new(unsafe { head.cast::<*mut u8>().read() }));
        Some(head)
    }

    /// Unlinks up to `count` chunks from the top as a stack of their own (walking them),
    /// and says how many it took.
    #[cfg_attr(not(feature = "std"), expect(dead_code, reason = "the thread caches' batches"))]
    pub(super) fn split_top(&self, count: usize) -> (ChunkStack, usize) {
        let top = ChunkStack::new();
        let Some(first) = self.head.get() else { return (top, 0) };
        if count == 0 {
            return (top, 0);
        }
        let mut last = first;
        let mut taken = 1;
        // SAFETY: K1: `last` is a listed chunk; its first word links the next.
        let mut rest = unsafe { last.cast::<*mut u8>().read() };
        while taken < count {
            let Some(next) = NonNull::new(rest) else { break };
            last = next;
            taken += 1;
            // SAFETY: K1: as above.
            rest = unsafe { last.cast::<*mut u8>().read() };
        }
        // SAFETY: K1: `last` is a listed chunk, now the bottom of the new stack.
        unsafe { last.cast::<*mut u8>().write(ptr::null_mut()) };
        self.head.set(NonNull::new(rest));
        top.head.set(Some(first));
        (top, taken)
    }

    /// Puts `other`'s chunks in place of this stack's, which it returns.
    #[cfg_attr(not(feature = "std"), expect(dead_code, reason = "the thread caches' batches"))]
    pub(super) fn replace(&self, other: ChunkStack) -> ChunkStack {
        let ChunkStack { head } = other;
        ChunkStack { head: Cell::new(self.head.replace(head.get())) }
    }

    /// Whether `chunk` is among the top `window` chunks of the stack (a walk of at most
    /// `window` links): what debug builds of the locked pool ask of a thread's cache list
    /// (at most `2 * CACHE_BATCH` chunks) before a chunk is pushed, to catch a double free.
    #[cfg_attr(not(feature = "std"), expect(dead_code, reason = "the locked pool's check"))]
    pub(super) fn contains_near(&self, chunk: NonNull<u8>, window: usize) -> bool {
        let mut next = self.head.get();
        for _ in 0..window {
            let Some(listed) = next else { return false };
            if listed == chunk {
                return true;
            }
            // SAFETY: K1: a listed chunk's first word holds the next link.
            next = NonNull::new(unsafe { listed.cast::<*mut u8>().read() });
        }
        false
    }

    /// Calls `f` with every chunk, top first (a walk of the whole stack): debug builds
    /// record the chunks of a depot batch with it.
    #[cfg(debug_assertions)]
    #[cfg_attr(not(feature = "std"), expect(dead_code, reason = "the locked pool's depot"))]
    pub(super) fn for_each(&self, mut f: impl FnMut(NonNull<u8>)) {
        let mut next = self.head.get();
        while let Some(listed) = next {
            f(listed);
            // SAFETY: K1: a listed chunk's first word holds the next link.
            next = NonNull::new(unsafe { listed.cast::<*mut u8>().read() });
        }
    }

    /// Forgets every chunk without touching them (their blocks are about to be freed).
    pub(super) fn forget_all(&self) {
        self.head.set(None);
    }
}

impl fmt::Debug for ChunkStack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChunkStack").field("empty", &self.is_empty()).finish_non_exhaustive()
    }
}
