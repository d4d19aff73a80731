//! [`SlotBuf`]: the buffer a pool's slots live in, growable on the heap or fixed in the
//! caller's storage.
//!
//! A `Vec` in all but where its memory comes from: a pointer, a length and a capacity,
//! read the same way on every access (a slice of `len` elements at `ptr`), so the pools'
//! fast paths compile as they did over a `Vec`. What differs is growth, which only the
//! cold paths ask for:
//!
//! - **Heap** (feature `alloc`): the parts of a `Vec<E>`. Growing and shrinking rebuild
//!   that `Vec` from its parts for the call and take its parts back after, so every
//!   allocation decision is `Vec`'s own.
//! - **Fixed**: `cap` elements of a caller's storage ([`PoolStorage`]); it never grows,
//!   and a request past `cap` is refused ([`try_reserve_one`](SlotBuf::try_reserve_one))
//!   or panics ([`reserve`](SlotBuf::reserve)).
//!
//! # Invariants
//!
//! - **(F1) The parts describe the buffer**: `ptr` is valid for `cap` elements, the first
//!   `len` initialised, `len <= cap`; for a heap buffer, `(ptr, len, cap)` are the parts
//!   of a `Vec<E>` this buffer owns (with `alloc` only), for a fixed one `cap` elements
//!   of storage that outlives the buffer and that nothing else uses while it lives (the
//!   caller of [`SlotBuf::fixed`] promises it).
//!
//! [`PoolStorage`]: crate::pool::PoolStorage

#![expect(clippy::inline_always, reason = "the pools' fast paths read the buffer as a `Vec`'s")]

#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::marker::PhantomData;
#[cfg(feature = "alloc")]
use core::mem::ManuallyDrop;
use core::mem::MaybeUninit;
use core::ops::{Deref, DerefMut};
use core::ptr::{self, NonNull};

/// Why a buffer could not make room.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NoRoom {
    /// A fixed buffer is full; its capacity.
    Fixed(usize),
    /// The heap refused.
    #[cfg(feature = "alloc")]
    OutOfMemory,
}

/// A pool's slot buffer; see the module docs.
pub(super) struct SlotBuf<E> {
    ptr: NonNull<E>,
    len: usize,
    cap: usize,
    /// Whether the buffer is a caller's storage (F1).
    fixed: bool,
    /// The buffer owns its elements.
    owns: PhantomData<E>,
}

// SAFETY: a `SlotBuf<E>` owns its elements as a `Vec<E>` does (F1: a heap buffer is one,
// a fixed buffer's storage is lent to it alone), so it may move to or be shared with
// another thread exactly when `E` may.
unsafe impl<E: Send> Send for SlotBuf<E> {}
// SAFETY: as for `Send`: `&SlotBuf<E>` gives only `&E`s.
unsafe impl<E: Sync> Sync for SlotBuf<E> {}

impl<E> SlotBuf<E> {
    /// An empty heap buffer with room for `capacity` elements.
    #[cfg(feature = "alloc")]
    pub(super) fn with_capacity(capacity: usize) -> Self {
        Self::from_vec(Vec::with_capacity(capacity))
    }

    /// The buffer of `vec`.
    #[cfg(feature = "alloc")]
    fn from_vec(vec: Vec<E>) -> Self {
        let mut vec = ManuallyDrop::new(vec);
        let (len, cap) = (vec.len(), vec.capacity());
        // SAFETY: a `Vec`'s pointer is never null (dangling when it has no allocation).
        let ptr = unsafe { NonNull::new_unchecked(vec.as_mut_ptr()) };
        // F1: the parts of a `Vec` given up to this buffer (`ManuallyDrop`).
        SlotBuf { ptr, len, cap, fixed: false, owns: PhantomData }
    }

    /// An empty buffer over the caller's `storage`, which it never grows past.
    ///
    /// # Safety
    ///
    /// Nothing else reads or writes `storage` while the buffer (or anything it becomes)
    /// lives, and `storage` outlives it (F1).
    pub(super) unsafe fn fixed(storage: &mut [MaybeUninit<E>]) -> Self {
        let cap = storage.len();
        let ptr = NonNull::from(storage).cast::<E>();
        SlotBuf { ptr, len: 0, cap, fixed: true, owns: PhantomData }
    }

    /// An empty fixed buffer of no capacity (owning nothing).
    #[cfg(not(feature = "alloc"))]
    fn empty_fixed() -> Self {
        SlotBuf { ptr: NonNull::dangling(), len: 0, cap: 0, fixed: true, owns: PhantomData }
    }

    /// Elements in the buffer.
    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Elements the buffer holds without growing.
    #[inline]
    pub(super) fn capacity(&self) -> usize {
        self.cap
    }

    /// The start of the buffer, for writes past `len` (within `cap`).
    #[inline(always)]
    pub(super) fn as_mut_ptr(&mut self) -> *mut E {
        self.ptr.as_ptr()
    }

    /// Sets the length.
    ///
    /// # Safety
    ///
    /// `len <= capacity()`, and the first `len` elements are initialised.
    #[inline(always)]
    pub(super) unsafe fn set_len(&mut self, len: usize) {
        debug_assert!(len <= self.cap, "F1: within the capacity");
        self.len = len;
    }

    /// Runs `f` on the heap buffer as the `Vec` it is, taking its parts back after (also
    /// if `f` panics).
    #[cfg(feature = "alloc")]
    fn with_vec<R>(&mut self, f: impl FnOnce(&mut Vec<E>) -> R) -> R {
        /// Puts the `Vec`'s parts back into the buffer, however `f` ends.
        struct PutBack<'a, E> {
            buf: &'a mut SlotBuf<E>,
            vec: ManuallyDrop<Vec<E>>,
        }
        impl<E> Drop for PutBack<'_, E> {
            fn drop(&mut self) {
                let vec = &mut self.vec;
                // SAFETY: a `Vec`'s pointer is never null.
                self.buf.ptr = unsafe { NonNull::new_unchecked(vec.as_mut_ptr()) };
                self.buf.len = vec.len();
                self.buf.cap = vec.capacity();
            }
        }
        debug_assert!(!self.fixed, "a heap buffer");
        // SAFETY: F1: a heap buffer's parts are a `Vec<E>`'s, owned by this buffer; the
        // `Vec` is rebuilt once and its parts put back before anyone reads them again.
        let vec = unsafe { Vec::from_raw_parts(self.ptr.as_ptr(), self.len, self.cap) };
        let mut guard = PutBack { buf: self, vec: ManuallyDrop::new(vec) };
        f(&mut guard.vec)
    }

    /// Makes room for one more element.
    ///
    /// # Errors
    ///
    /// [`NoRoom::Fixed`] if a fixed buffer is full, [`NoRoom::OutOfMemory`] if the heap
    /// refuses.
    pub(super) fn try_reserve_one(&mut self) -> Result<(), NoRoom> {
        if self.len < self.cap {
            return Ok(());
        }
        if self.fixed {
            return Err(NoRoom::Fixed(self.cap));
        }
        #[cfg(feature = "alloc")]
        return self.with_vec(|v| v.try_reserve(1)).map_err(|_| NoRoom::OutOfMemory);
        #[cfg(not(feature = "alloc"))]
        unreachable!("without `alloc` every buffer is fixed")
    }

    /// Makes room for `additional` more elements.
    ///
    /// # Panics
    ///
    /// If a fixed buffer cannot hold them, or as `Vec::reserve` does.
    #[track_caller]
    pub(super) fn reserve(&mut self, additional: usize) {
        if self.cap - self.len >= additional {
            return;
        }
        assert!(
            !self.fixed,
            "arena-kit: a pool over fixed storage of {} slots cannot hold {additional} more",
            self.cap
        );
        #[cfg(feature = "alloc")]
        self.with_vec(|v| v.reserve(additional));
    }

    /// Gives back the unused capacity of a heap buffer (a fixed one keeps its storage).
    #[cfg_attr(
        not(feature = "alloc"),
        expect(clippy::unused_self, reason = "a fixed buffer keeps its storage")
    )]
    pub(super) fn shrink_to_fit(&mut self) {
        #[cfg(feature = "alloc")]
        if !self.fixed {
            self.with_vec(Vec::shrink_to_fit);
        }
    }

    /// Appends `element`.
    ///
    /// # Panics
    ///
    /// If the buffer is full and cannot grow (a fixed one, or the heap's refusal).
    #[track_caller]
    pub(super) fn push(&mut self, element: E) {
        if self.len == self.cap {
            self.reserve(1);
        }
        // SAFETY: F1: `len < cap` now, so the slot is within the buffer.
        let end = unsafe { self.ptr.as_ptr().add(self.len) };
        // SAFETY: and unused: nothing past `len` is initialised.
        unsafe { end.write(element) };
        self.len += 1;
    }

    /// Removes and returns the last element.
    pub(super) fn pop(&mut self) -> Option<E> {
        self.len = self.len.checked_sub(1)?;
        // SAFETY: F1: element `len` (the old last) is within the buffer.
        let last = unsafe { self.ptr.as_ptr().add(self.len) };
        // SAFETY: it is initialised, and no longer counted: read out once.
        Some(unsafe { last.read() })
    }

    /// Keeps the first `len` elements, dropping the rest.
    pub(super) fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        let tail = ptr::slice_from_raw_parts_mut(
            // SAFETY: `len < self.len <= cap`: within the buffer.
            unsafe { self.ptr.as_ptr().add(len) },
            self.len - len,
        );
        self.len = len;
        // SAFETY: F1: the tail's elements are initialised and no longer counted, so
        // each is dropped once (a panic leaks the rest, as `Vec::truncate` would not, but
        // slots have no drop glue).
        unsafe { ptr::drop_in_place(tail) };
    }

    /// Drops every element, keeping the buffer.
    pub(super) fn clear(&mut self) {
        self.truncate(0);
    }
}

impl<E> Deref for SlotBuf<E> {
    type Target = [E];

    #[inline(always)]
    fn deref(&self) -> &[E] {
        // SAFETY: F1: `len` initialised elements at `ptr`, owned by this buffer.
        unsafe { &*ptr::slice_from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<E> DerefMut for SlotBuf<E> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [E] {
        // SAFETY: F1, as `deref`, through `&mut self`.
        unsafe { &mut *ptr::slice_from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<E> Default for SlotBuf<E> {
    /// An empty heap buffer (without `alloc`, an empty fixed one).
    fn default() -> Self {
        #[cfg(feature = "alloc")]
        let empty = Self::from_vec(Vec::new());
        #[cfg(not(feature = "alloc"))]
        let empty = Self::empty_fixed();
        empty
    }
}

impl<E> Drop for SlotBuf<E> {
    fn drop(&mut self) {
        if self.fixed {
            self.clear();
        } else {
            // SAFETY: F1: a heap buffer's parts are a `Vec`'s, owned by this buffer, which
            // ends here: the `Vec` drops its elements and frees the allocation once.
            #[cfg(feature = "alloc")]
            drop(unsafe { Vec::from_raw_parts(self.ptr.as_ptr(), self.len, self.cap) });
        }
    }
}
