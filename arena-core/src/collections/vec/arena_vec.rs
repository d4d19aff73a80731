//! [`ArenaVec`]: a growable vector whose buffer lives in a scope, grown the way
//! page-rounded strings taught (docs/seeds.md): fill what the allocator would hand out
//! anyway, never leave a trail of copies.
//!
//! # Growth policy
//!
//! A bump arena cannot free a buffer in the middle, so a vector that doubles blindly
//! leaves every outgrown buffer behind until the scope ends (bumpalo's `String` holds a
//! multiple of its final capacity; BENCHMARKS.md, W6). `ArenaVec` grows in three
//! regimes, each chosen so that the bytes the scope holds stay close to the capacity:
//!
//! 1. **At the tip** (nothing allocated after the buffer): grow in place, doubling, up to
//!    the end of the current block; when doubling would not fit but the request does,
//!    take the rest of the block (fill it). No copy, nothing left behind.
//! 2. **Elsewhere, still small**: move to a new allocation of twice the capacity at the
//!    tip of the scope (the old buffer stays, but it is smaller than a standard block).
//! 3. **Larger than a standard block**: move once into a block of its own, sized so the
//!    request plus the system allocator's header fills whole pages; from then on every
//!    growth is a `realloc` of that block (glibc remaps the pages of a large one instead
//!    of copying), and dropping the vector gives the block back at once.
//!
//! So the bytes held are the final capacity plus at most one standard block and the
//! page rounding (BENCHMARKS.md, W6, has the figures).
//!
//! # Safety
//!
//! - The vector borrows its scope (`'s`), so it cannot outlive it; `Scope::reset` needs
//!   `&mut Scope`, so it cannot run while a vector exists.
//! - The vector drops its own elements (it owns them, as `Vec` does), so element types
//!   need no `'p` bound: the scope never sees them.
//! - Growing at the tip only moves the scope's cursor over bytes past the buffer, and a
//!   child scope bumps in blocks of its own, so a vector of an outer scope can never grow
//!   over an inner scope's values (bump-scope's advisory GHSA-xhx6-q96x-pf9c); tested in
//!   `tests/all/collections/allocator_api.rs`.
//! - A buffer block holds nothing but the buffer and is kept apart from the blocks the
//!   scope bumps in, so resizing or freeing it touches nobody else's memory.
//!
//! # Invariants
//!
//! - **(A1) The buffer**: `ptr` is dangling when `cap` is 0 or `T` is zero-sized; else it
//!   is a live allocation of `cap` elements in the scope, owned by this vector alone: a
//!   bump allocation, or the data start of a buffer block of its own (the bump's S5;
//!   [`Bump::is_buffer`] tells which, so the vector needs no flag and stays four words).
//! - **(A2) The elements**: `len <= cap`, and exactly the first `len` are initialised.

use core::alloc::Layout;
use core::fmt;
use core::marker::PhantomData;
use core::mem;
use core::ops::{Bound, Deref, DerefMut, RangeBounds};
use core::ptr::{self, NonNull};

use super::{Drain, ExtractIf, IntoIter};
use crate::bump::Bump;
use crate::collections::ArenaBox;
use crate::error::{AllocError, TryAllocError, fail};
use crate::scope::Scope;

/// Smallest capacity a vector allocates: tiny vectors would otherwise grow 1, 2, 4...
const fn min_capacity(size: usize) -> usize {
    if size == 1 {
        16
    } else if size <= 64 {
        4
    } else {
        1
    }
}

/// A growable vector whose buffer lives in a [`Scope`] (or an [`Arena`](crate::Arena)).
///
/// Like `Vec<T>`, it owns its elements and drops them when it drops; unlike
/// `allocator_api2::vec::Vec<T, &Scope>`, it grows by filling what its scope holds
/// instead of doubling blindly, so the scope holds little more than the capacity:
///
/// 1. At the tip of the scope (nothing allocated after it), it grows in place, doubling,
///    up to the end of the current block, and takes the rest of the block when doubling
///    would not fit but the request does.
/// 2. Elsewhere, while small, it moves to a doubled allocation at the tip.
/// 3. Once larger than a standard block, it moves into a block of its own, page-filled,
///    which `realloc` resizes from then on (large blocks are remapped, not copied) and
///    which goes back to the pool as soon as the vector drops.
///
/// So the scope holds little more than the final capacity (at most one standard block and
/// the page rounding more; a vector that doubles by copying in a bump arena leaves every
/// outgrown buffer behind). A child scope bumps in blocks of its own, so a vector of an
/// outer scope can never grow over an inner scope's values.
///
/// Build one with [`new_in`](Self::new_in), [`vec!`](crate::vec!)`[in &scope; ..]`,
/// [`from_iter_in`](Self::from_iter_in) or [`collect_in`](crate::CollectIn); when it is
/// complete, keep its elements in the scope with [`Scope::alloc_vec`] (or
/// [`into_slice`](Self::into_slice) for `Copy` elements), or own them with
/// [`into_boxed_slice`](Self::into_boxed_slice).
///
/// # Panics
///
/// The growing methods panic when the scope or its pool reaches a limit, or the size
/// overflows; the `try_` methods return the error (and the value) instead.
///
/// # Examples
///
/// ```
/// use arena_kit::{ArenaVec, BlockPool};
///
/// let pool = BlockPool::new();
/// let scope = pool.scope();
/// let mut squares = ArenaVec::new_in(&scope);
/// for i in 0..10_000_u64 {
///     squares.push(i * i);
/// }
/// assert_eq!(squares[99], 9801);
/// // 80 000 bytes of capacity, and the scope holds little more than that:
/// let held = scope.stats().reserved_bytes;
/// assert!(held < squares.capacity() * 8 + 2 * pool.block_size());
/// ```
///
/// The vector cannot outlive its scope:
///
/// ```compile_fail,E0597
/// use arena_kit::{ArenaVec, BlockPool};
/// let pool = BlockPool::new();
/// let v = {
///     let scope = pool.scope();
///     let mut v = ArenaVec::new_in(&scope);
///     v.push(1);
///     v
/// }; // error: `scope` does not live long enough
/// ```
pub struct ArenaVec<'s, T> {
    ptr: NonNull<T>,
    pub(super) len: usize,
    cap: usize,
    /// The scope's memory (the buffer is in it, A1); covariant, so only the borrow
    /// `'s` of the scope shows in the type.
    pub(super) bump: &'s Bump<'s>,
    /// Owns `T`s (for dropck, as `Vec` does).
    _owns: PhantomData<T>,
}

impl<'s, T> ArenaVec<'s, T> {
    /// An empty vector in `scope`; allocates nothing until the first push.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.push('a');
    /// assert_eq!(v.as_slice(), ['a']);
    /// ```
    #[must_use]
    pub fn new_in<'p>(scope: &'s Scope<'p>) -> Self
    where
        'p: 's,
    {
        Self::new_in_bump(scope.bump())
    }

    /// An empty vector on `bump` (a sibling of an existing vector).
    pub(crate) fn new_in_bump(bump: &'s Bump<'s>) -> Self {
        let cap = if size_of::<T>() == 0 { usize::MAX } else { 0 };
        ArenaVec { ptr: NonNull::dangling(), len: 0, cap, bump, _owns: PhantomData }
    }

    /// Collects `iter` into a new vector in `scope` (bumpalo's `Vec::from_iter_in`; see
    /// also [`CollectIn`](crate::CollectIn)).
    ///
    /// # Panics
    ///
    /// If the vector cannot grow.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let v = arena_kit::ArenaVec::from_iter_in((1..=3).map(|i| i * 10), &scope);
    /// assert_eq!(v, [10, 20, 30]);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn from_iter_in<'p, I: IntoIterator<Item = T>>(iter: I, scope: &'s Scope<'p>) -> Self
    where
        'p: 's,
    {
        let mut v = Self::new_in(scope);
        v.extend(iter);
        v
    }

    /// An empty vector in `scope` with room for at least `capacity` elements.
    ///
    /// # Panics
    ///
    /// If the scope cannot provide the room (limit reached, size overflow).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let v = arena_kit::ArenaVec::<u32>::with_capacity_in(100, &scope);
    /// assert!(v.capacity() >= 100);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn with_capacity_in<'p>(capacity: usize, scope: &'s Scope<'p>) -> Self
    where
        'p: 's,
    {
        let mut v = Self::new_in(scope);
        v.reserve(capacity);
        v
    }

    /// Elements in the vector.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.extend([1, 2, 3]);
    /// assert_eq!(v.len(), 3);
    /// ```
    #[must_use]
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the vector has no elements.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let v = arena_kit::ArenaVec::<u8>::new_in(&arena);
    /// assert!(v.is_empty());
    /// ```
    #[must_use]
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Elements the vector can hold without growing.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.push(1_u8);
    /// assert!(v.capacity() >= 1);
    /// ```
    #[must_use]
    #[inline]
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// Appends `value`.
    ///
    /// # Panics
    ///
    /// If the vector must grow and the scope cannot provide the room (see
    /// [`try_push`](Self::try_push)).
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.push(String::from("dropped with the vector"));
    /// assert_eq!(v[0].len(), 23);
    /// ```
    #[inline]
    #[track_caller]
    pub fn push(&mut self, value: T) {
        let len = self.len;
        if len == self.cap {
            (self.ptr, self.cap) = Self::grown_by_one(self.bump, self.ptr, len, self.cap);
        }
        // The length is read before the element is written and not after: a byte
        // store could alias it for all the compiler knows, and a reload would chain
        // each push to the one before through memory.
        // SAFETY: A1, A2: `len < cap`: the slot is inside the buffer and uninitialised.
        unsafe { self.slot(len).write(value) };
        self.len = len + 1;
    }

    /// Appends `value`, or hands it back with the reason the vector could not grow.
    ///
    /// # Errors
    ///
    /// [`AllocError::LimitReached`], [`AllocError::SizeOverflow`] or out of memory.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// scope.set_limit(Some(0));
    /// let mut v = arena_kit::ArenaVec::new_in(&scope);
    /// let err = v.try_push(7_u32).unwrap_err();
    /// assert_eq!(err.into_value(), 7);
    /// ```
    #[inline]
    pub fn try_push(&mut self, value: T) -> Result<(), TryAllocError<T>> {
        let len = self.len;
        if len == self.cap {
            if let Err(error) = self.grow_for(1) {
                return Err(TryAllocError::new(error, value));
            }
        }
        // As in `push`: the length is not read again after the write.
        // SAFETY: A1, A2: `len < cap` now: the slot is inside the buffer, uninitialised.
        unsafe { self.slot(len).write(value) };
        self.len = len + 1;
        Ok(())
    }

    /// Removes and returns the last element.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.push(1);
    /// assert_eq!((v.pop(), v.pop()), (Some(1), None));
    /// ```
    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: A2: the slot at the old last index is initialised and now outside
        // `len`, so it is read exactly once.
        Some(unsafe { self.slot(self.len).read() })
    }

    /// Makes room for at least `additional` more elements.
    ///
    /// # Panics
    ///
    /// If the scope cannot provide the room (see [`try_reserve`](Self::try_reserve)).
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::<u64>::new_in(&arena);
    /// v.reserve(10);
    /// assert!(v.capacity() >= 10);
    /// ```
    #[track_caller]
    pub fn reserve(&mut self, additional: usize) {
        self.try_reserve(additional).unwrap_or_else(|e| fail(e));
    }

    /// Makes room for at least `additional` more elements, or says why it cannot.
    ///
    /// # Errors
    ///
    /// [`AllocError::SizeOverflow`] if the capacity would overflow, a limit, or out of
    /// memory; the vector is unchanged then.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::AllocError;
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::<u64>::new_in(&arena);
    /// assert_eq!(v.try_reserve(usize::MAX), Err(AllocError::SizeOverflow));
    /// ```
    pub fn try_reserve(&mut self, additional: usize) -> Result<(), AllocError> {
        if self.cap - self.len >= additional { Ok(()) } else { self.grow_for(additional) }
    }

    /// Makes room for `additional` more elements without growing ahead: the capacity
    /// becomes `len + additional` where the scope can place exactly that (at its tip, or
    /// a new allocation), and a page-filled buffer block's worth once the vector has a
    /// block of its own.
    ///
    /// # Panics
    ///
    /// If the scope cannot provide the room (see
    /// [`try_reserve_exact`](Self::try_reserve_exact)).
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::<u64>::new_in(&arena);
    /// v.reserve_exact(10);
    /// assert_eq!(v.capacity(), 10);
    /// ```
    #[track_caller]
    pub fn reserve_exact(&mut self, additional: usize) {
        self.try_reserve_exact(additional).unwrap_or_else(|e| fail(e));
    }

    /// Like [`reserve_exact`](Self::reserve_exact), saying why it cannot.
    ///
    /// # Errors
    ///
    /// As [`try_reserve`](Self::try_reserve); the vector is unchanged then.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// scope.set_limit(Some(pool.block_size()));
    /// let mut v = arena_kit::ArenaVec::<u8>::new_in(&scope);
    /// assert!(v.try_reserve_exact(100).is_ok());
    /// assert!(v.try_reserve_exact(pool.block_size()).is_err()); // past the limit
    /// assert_eq!(v.capacity(), 100);
    /// ```
    pub fn try_reserve_exact(&mut self, additional: usize) -> Result<(), AllocError> {
        if self.cap - self.len >= additional { Ok(()) } else { self.grow(additional, true) }
    }

    /// Gives back the capacity past the length where the scope can take it back: at the
    /// tip of the scope (nothing allocated after the buffer) the capacity becomes the
    /// length; a buffer in a block of its own is resized (or, once small enough, moved
    /// back among the scope's blocks and its block freed). Elsewhere in the scope the
    /// bytes cannot be reused, so the capacity stays.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let mut v = arena_kit::ArenaVec::<u32>::with_capacity_in(100, &scope);
    /// v.extend([1, 2, 3]);
    /// let before = scope.stats().allocated_bytes;
    /// v.shrink_to_fit(); // the vector is the tip: 97 * 4 bytes go back
    /// assert_eq!(v.capacity(), 3);
    /// assert_eq!(scope.stats().allocated_bytes, before - 97 * 4);
    /// ```
    pub fn shrink_to_fit(&mut self) {
        let size = size_of::<T>();
        if size == 0 || self.cap == self.len {
            return;
        }
        if self.len == 0 {
            // SAFETY: A2: no element is initialised, so nothing uses the buffer now.
            unsafe { self.release_buffer() };
            self.ptr = NonNull::dangling();
            self.cap = 0;
            return;
        }
        let (Ok(old), Ok(new)) = (Layout::array::<T>(self.cap), Layout::array::<T>(self.len))
        else {
            unreachable!("`cap` elements were allocated, `len <= cap`")
        };
        let old_ptr = self.ptr.cast::<u8>();
        if self.bump.is_buffer(old_ptr) {
            if new.size() > self.bump.standard_capacity() {
                // SAFETY: A1: the vector's own buffer block, aligned for `T`; on success
                // only the returned pointer is used.
                if let Ok((ptr, bytes)) = unsafe { self.bump.grow_buffer(old_ptr, new) } {
                    self.ptr = ptr.cast();
                    self.cap = bytes / size;
                }
            } else if let Ok(ptr) = self.bump.alloc(new) {
                // Small enough for the scope's blocks: move there, free the block.
                // SAFETY: both buffers are live and distinct, and hold `len` elements.
                unsafe {
                    ptr::copy_nonoverlapping(self.ptr.as_ptr(), ptr.cast::<T>().as_ptr(), self.len);
                };
                // SAFETY: A1: the old buffer block is this vector's; its elements were
                // moved out above, so nothing uses it any more.
                unsafe { self.bump.release_buffer(old_ptr) };
                self.ptr = ptr.cast();
                self.cap = self.len;
            }
        // SAFETY: A1: a live bump allocation of `old`; the bytes past `len` elements hold
        // nothing and are not used afterwards.
        } else if unsafe { self.bump.resize_tip(old_ptr, old, new) } {
            self.cap = self.len;
        }
    }

    /// Shortens the vector to `len` elements, dropping the rest (no effect if it is
    /// already shorter). The capacity stays.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.extend(0..10);
    /// v.truncate(3);
    /// assert_eq!(v.as_slice(), [0, 1, 2]);
    /// ```
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        let tail = ptr::slice_from_raw_parts_mut(
            // SAFETY: `len < self.len <= cap`: inside the buffer.
            unsafe { self.ptr.add(len) }.as_ptr(),
            self.len - len,
        );
        // Shorten first: if a destructor panics, the rest are leaked, never dropped twice.
        self.len = len;
        // SAFETY: the tail was initialised and is now outside `len`: dropped once.
        unsafe { ptr::drop_in_place(tail) };
    }

    /// Inserts `value` at `index`, shifting the elements after it up by one.
    ///
    /// # Panics
    ///
    /// If `index > len`, or if the vector must grow and cannot.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.extend([1, 3]);
    /// v.insert(1, 2);
    /// assert_eq!(v.as_slice(), [1, 2, 3]);
    /// ```
    #[track_caller]
    pub fn insert(&mut self, index: usize, value: T) {
        let len = self.len;
        assert!(index <= len, "insertion index (is {index}) should be <= len (is {len})");
        if len == self.cap {
            self.grow_for(1).unwrap_or_else(|e| fail(e));
        }
        let at = self.ptr.as_ptr().wrapping_add(index);
        // SAFETY: `len < cap` now, so the `len - index` elements from `index` move up by
        // one within the buffer (`copy` allows the overlap), leaving slot `index` free.
        unsafe { ptr::copy(at, at.wrapping_add(1), len - index) };
        // SAFETY: slot `index` is inside the buffer and its old value was moved out.
        unsafe { at.write(value) };
        self.len = len + 1;
    }

    /// Removes and returns the element at `index`, shifting the ones after it down.
    ///
    /// # Panics
    ///
    /// If `index >= len`.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.extend(['a', 'b', 'c']);
    /// assert_eq!(v.remove(0), 'a');
    /// assert_eq!(v.as_slice(), ['b', 'c']);
    /// ```
    #[track_caller]
    pub fn remove(&mut self, index: usize) -> T {
        let len = self.len;
        assert!(index < len, "removal index (is {index}) should be < len (is {len})");
        let at = self.ptr.as_ptr().wrapping_add(index);
        // SAFETY: `index < len`: the slot holds an initialised value, read once here.
        let value = unsafe { at.read() };
        // SAFETY: the `len - index - 1` elements after it move down by one, within the
        // initialised part of the buffer (`copy` allows the overlap).
        unsafe { ptr::copy(at.wrapping_add(1), at, len - index - 1) };
        self.len = len - 1;
        value
    }

    /// Removes and returns the element at `index`, moving the last one into its place
    /// (O(1); the order changes).
    ///
    /// # Panics
    ///
    /// If `index >= len`.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.extend([1, 2, 3, 4]);
    /// assert_eq!(v.swap_remove(0), 1);
    /// assert_eq!(v.as_slice(), [4, 2, 3]);
    /// ```
    #[track_caller]
    pub fn swap_remove(&mut self, index: usize) -> T {
        let len = self.len;
        assert!(index < len, "swap_remove index (is {index}) should be < len (is {len})");
        self.as_mut_slice().swap(index, len - 1);
        self.pop().unwrap_or_else(|| unreachable!("the vector is not empty"))
    }

    /// Keeps only the elements for which `keep` returns `true`, in order; drops the rest.
    /// If `keep` or a destructor panics, every element is still either kept or dropped
    /// exactly once.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.extend(0..10);
    /// v.retain(|&x| x % 3 == 0);
    /// assert_eq!(v.as_slice(), [0, 3, 6, 9]);
    /// ```
    pub fn retain<F: FnMut(&T) -> bool>(&mut self, mut keep: F) {
        self.retain_mut(|x| keep(x));
    }

    /// Like [`retain`](Self::retain), with mutable access to each element as it is
    /// visited (kept elements keep the changes).
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.extend([1, 2, 3, 4]);
    /// v.retain_mut(|x| {
    ///     *x *= 10;
    ///     *x != 20
    /// });
    /// assert_eq!(v, [10, 30, 40]);
    /// ```
    pub fn retain_mut<F: FnMut(&mut T) -> bool>(&mut self, mut keep: F) {
        /// Closes the holes over the unprocessed tail and sets the length, also when
        /// `keep` or a destructor panics half-way.
        struct Compact<'v, 's, T> {
            vec: &'v mut ArenaVec<'s, T>,
            processed: usize,
            deleted: usize,
            original: usize,
        }
        impl<T> Drop for Compact<'_, '_, T> {
            fn drop(&mut self) {
                if self.deleted > 0 {
                    let base = self.vec.ptr.as_ptr();
                    // SAFETY: elements `processed..original` are initialised and not yet
                    // moved; they move down over the `deleted` holes before them, inside
                    // the buffer (`copy` allows the overlap).
                    unsafe {
                        ptr::copy(
                            base.wrapping_add(self.processed),
                            base.wrapping_add(self.processed - self.deleted),
                            self.original - self.processed,
                        );
                    }
                }
                self.vec.len = self.original - self.deleted;
            }
        }
        let original = self.len;
        // While compacting, the guard owns the length: nothing is dropped twice if a
        // panic unwinds through here.
        self.len = 0;
        let mut g = Compact { vec: self, processed: 0, deleted: 0, original };
        while g.processed < original {
            let cur = g.vec.ptr.as_ptr().wrapping_add(g.processed);
            // SAFETY: `processed < original`: an initialised element not yet moved, and
            // the only reference to it while `keep` runs.
            if keep(unsafe { &mut *cur }) {
                if g.deleted > 0 {
                    // SAFETY: the hole `deleted` places down was dropped or moved out;
                    // both are inside the buffer and distinct.
                    unsafe { ptr::copy_nonoverlapping(cur, cur.wrapping_sub(g.deleted), 1) };
                }
                g.processed += 1;
            } else {
                // Counted first: if its destructor panics it is not moved or dropped again.
                g.processed += 1;
                g.deleted += 1;
                // SAFETY: the element is initialised and dropped once, here.
                unsafe { ptr::drop_in_place(cur) };
            }
        }
    }

    /// Drops every element; the capacity stays.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.push(1);
    /// v.clear();
    /// assert!(v.is_empty() && v.capacity() > 0);
    /// ```
    pub fn clear(&mut self) {
        self.truncate(0);
    }

    /// Splits the vector in two at `at`: `self` keeps `[0, at)`, the returned vector (in
    /// the same scope) gets `[at, len)`. `self`'s capacity stays.
    ///
    /// # Panics
    ///
    /// If `at > len`, or the new vector cannot be allocated (`self` is unchanged then).
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.extend(['a', 'b', 'c']);
    /// let tail = v.split_off(1);
    /// assert_eq!((v.as_slice(), tail.as_slice()), (&['a'][..], &['b', 'c'][..]));
    /// ```
    #[must_use = "use `truncate` to drop the tail"]
    #[track_caller]
    pub fn split_off(&mut self, at: usize) -> Self {
        let len = self.len;
        assert!(at <= len, "`at` split index (is {at}) should be <= len (is {len})");
        let mut tail = Self::new_in_bump(self.bump);
        tail.reserve_exact(len - at);
        // The source is `slot_ptr`, not `slot`: `at` may be `len == cap` (an empty
        // vector's `split_off(0)`, a full one's `split_off(len)`), one past the end, which
        // is no element's slot but a valid start for a copy of zero elements.
        // SAFETY: A2: elements `at..len` are initialised (`at <= len <= cap`, so the
        // source is inside the buffer or one past its end); `tail`'s buffer is a distinct
        // allocation of at least `len - at` elements. They move: `self` forgets them next.
        unsafe { ptr::copy_nonoverlapping(self.slot_ptr(at), tail.ptr.as_ptr(), len - at) };
        self.len = at;
        tail.len = len - at;
        tail
    }

    /// Moves every element of `other` (of this scope or another) to the end of this
    /// vector, leaving `other` empty (its capacity stays).
    ///
    /// # Panics
    ///
    /// If this vector cannot grow (both are unchanged then).
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut a = arena_kit::ArenaVec::new_in(&arena);
    /// let mut b = arena_kit::ArenaVec::new_in(&arena);
    /// a.extend([1, 2]);
    /// b.extend([3, 4]);
    /// a.append(&mut b);
    /// assert_eq!((a.as_slice(), b.len()), (&[1, 2, 3, 4][..], 0));
    /// ```
    #[track_caller]
    pub fn append(&mut self, other: &mut ArenaVec<'_, T>) {
        let count = other.len;
        self.reserve(count);
        // SAFETY: A2: `other`'s `count` elements are initialised; this buffer has room
        // for `count` more past `len` (reserved above); two vectors never share a buffer
        // (A1). They move: `other` forgets them next.
        unsafe { ptr::copy_nonoverlapping(other.ptr.as_ptr(), self.slot_ptr(self.len), count) };
        other.len = 0;
        self.len += count;
    }

    /// Removes the elements in `range` and returns them as an iterator; the elements
    /// after the range move down when the iterator is dropped. Elements the iterator did
    /// not yield are dropped then. If the iterator is leaked (`mem::forget`), the vector
    /// keeps only the elements before the range (the others leak, never drop twice).
    ///
    /// # Panics
    ///
    /// If the range is decreasing or ends past the length.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.extend(0..6);
    /// let middle: Vec<i32> = v.drain(1..4).collect();
    /// assert_eq!((middle, v.as_slice()), (vec![1, 2, 3], &[0, 4, 5][..]));
    /// ```
    #[track_caller]
    pub fn drain<R: RangeBounds<usize>>(&mut self, range: R) -> Drain<'_, 's, T> {
        let (start, end) = bounds(&range, self.len);
        Drain::new(self, start, end)
    }

    /// An iterator that removes and yields the elements in `range` for which `pred`
    /// returns `true` (it may change the elements it sees). Elements it keeps close up in
    /// order. Stopping early, dropping the iterator or a panic in `pred` keeps the rest:
    /// every element is either yielded or left in the vector, exactly once.
    ///
    /// # Panics
    ///
    /// If the range is decreasing or ends past the length.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{ArenaVec, CollectIn};
    ///
    /// let arena = arena_kit::Arena::new();
    /// let mut numbers = ArenaVec::from_iter_in(1..=6, &arena);
    /// let evens: ArenaVec<'_, i32> = numbers.extract_if(.., |x| *x % 2 == 0).collect_in(&arena);
    /// assert_eq!((numbers.as_slice(), evens.as_slice()), (&[1, 3, 5][..], &[2, 4, 6][..]));
    /// ```
    #[track_caller]
    pub fn extract_if<F, R>(&mut self, range: R, pred: F) -> ExtractIf<'_, 's, T, F>
    where
        F: FnMut(&mut T) -> bool,
        R: RangeBounds<usize>,
    {
        let (start, end) = bounds(&range, self.len);
        ExtractIf::new(self, start, end, pred)
    }

    /// Turns the vector into an owning box of its elements (bumpalo's
    /// `into_boxed_slice`), giving back the capacity past the length where it can (see
    /// [`shrink_to_fit`](Self::shrink_to_fit)). The box drops the elements; their bytes
    /// stay in the scope until it ends.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{ArenaBox, ArenaVec};
    ///
    /// let arena = arena_kit::Arena::new();
    /// let mut v = ArenaVec::new_in(&arena);
    /// v.push(String::from("owned"));
    /// let boxed: ArenaBox<'_, [String]> = v.into_boxed_slice();
    /// assert_eq!(&*boxed, ["owned"]);
    /// ```
    #[must_use]
    pub fn into_boxed_slice(mut self) -> ArenaBox<'s, [T]> {
        self.shrink_to_fit();
        let (data, len) = self.into_raw_parts();
        let slice = NonNull::slice_from_raw_parts(data, len);
        // SAFETY: A1, A2: `len` initialised elements in the scope's memory, which stays
        // allocated for `'s` (the buffer was given up by the vector just above), owned by
        // nobody else.
        unsafe { ArenaBox::from_raw(slice) }
    }

    /// Whether this vector's buffer is in `bump`'s memory (a vector of that scope).
    fn is_in(&self, bump: &Bump<'_>) -> bool {
        ptr::addr_eq(self.bump, bump)
    }

    /// Gives the buffer up: the `len` initialised elements at the returned pointer are
    /// the caller's now, in memory that stays allocated until the scope ends (nothing
    /// frees a buffer the vector gave up, A1).
    fn into_raw_parts(self) -> (NonNull<T>, usize) {
        let this = mem::ManuallyDrop::new(self);
        (this.ptr, this.len)
    }

    /// Gives the buffer's memory back to the scope: frees its block, or the bytes if it
    /// is the tip. Leaves `ptr` and `cap` as they are.
    ///
    /// # Safety
    ///
    /// Nothing uses the buffer afterwards (its elements were dropped or moved out), and
    /// the vector is dropped or given a new buffer before it is used again.
    unsafe fn release_buffer(&mut self) {
        if self.cap == 0 || size_of::<T>() == 0 {
            return;
        }
        let ptr = self.ptr.cast::<u8>();
        if self.bump.is_buffer(ptr) {
            // SAFETY: A1: the buffer is this vector's own block, unused from here on
            // (caller).
            unsafe { self.bump.release_buffer(ptr) };
        } else if let Ok(layout) = Layout::array::<T>(self.cap) {
            // SAFETY: A1: a live allocation of `layout`, unused from here on (caller).
            unsafe { self.bump.give_back_tip(ptr, layout) };
        }
    }

    /// The elements as a slice.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.push(3);
    /// assert_eq!(v.as_slice(), [3]);
    /// ```
    #[must_use]
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: A1: `ptr` is aligned and non-null (dangling only when `len` is 0 or `T`
        // is zero-sized); A2: the first `len` elements are initialised.
        unsafe { &*ptr::slice_from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// The elements as a mutable slice.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.push(3);
    /// v.as_mut_slice()[0] = 4;
    /// assert_eq!(v[0], 4);
    /// ```
    #[must_use]
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as in `as_slice`, and `&mut self` makes the borrow unique.
        unsafe { &mut *ptr::slice_from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }

    /// A pointer to element `index` (`index <= cap`; one past the end allowed), for the
    /// iterators, which track the initialised elements themselves, and for the start or
    /// end of a run that may be empty (`split_off`, `append`).
    #[inline]
    pub(super) fn slot_ptr(&self, index: usize) -> *mut T {
        self.ptr.as_ptr().wrapping_add(index)
    }

    /// The element slot at `index < cap` (checked in debug builds): a slot that is
    /// written or read. A run's start, which may be one past the end, is `slot_ptr`.
    #[inline]
    fn slot(&self, index: usize) -> NonNull<T> {
        debug_assert!(index < self.cap, "slot {index} past the capacity");
        // SAFETY: callers pass `index < cap`, so the offset stays inside the buffer (or
        // is zero bytes for a zero-sized `T`).
        unsafe { self.ptr.add(index) }
    }

    /// [`push`](Self::push)'s growth: the buffer and capacity of a full vector of these
    /// parts after growing by the policy of the module docs (panicking as `push` does on
    /// failure). It takes the parts by value and returns them, so the vector's address
    /// never leaves the caller: the compiler then knows that a store of an element
    /// cannot change the vector's fields, and keeps the buffer pointer in a register
    /// across pushes instead of loading it again after each store (W6).
    #[cold]
    #[inline(never)]
    fn grown_by_one(
        bump: &'s Bump<'s>,
        ptr: NonNull<T>,
        len: usize,
        cap: usize,
    ) -> (NonNull<T>, usize) {
        // A copy of the parts that owns nothing: the caller's vector still owns the
        // buffer (also if growing fails and this panics) and takes the new parts.
        let mut parts =
            mem::ManuallyDrop::new(ArenaVec { ptr, len, cap, bump, _owns: PhantomData });
        parts.grow(1, false).unwrap_or_else(|e| fail(e));
        (parts.ptr, parts.cap)
    }

    /// Grows so that `additional` more elements fit, by the policy of the module docs.
    #[cold]
    #[inline(never)]
    fn grow_for(&mut self, additional: usize) -> Result<(), AllocError> {
        self.grow(additional, false)
    }

    /// Grows so that `additional` more elements fit: doubling (by the policy of the module
    /// docs), or to exactly that many where the scope can place it if `exact`.
    fn grow(&mut self, additional: usize, exact: bool) -> Result<(), AllocError> {
        let size = size_of::<T>();
        let needed = self.len.checked_add(additional).ok_or(AllocError::SizeOverflow)?;
        if size == 0 {
            // `cap` is `usize::MAX` for zero-sized types: only the count can overflow.
            return Err(AllocError::SizeOverflow);
        }
        let want = if exact {
            needed
        } else {
            needed.max(self.cap.saturating_mul(2)).max(min_capacity(size))
        };
        let layout_for = |cap: usize| Layout::array::<T>(cap).map_err(|_| AllocError::SizeOverflow);
        let wanted = layout_for(want)?;
        let old = layout_for(self.cap)?;
        let old_ptr = self.ptr.cast::<u8>();
        if self.cap > 0 && self.bump.is_buffer(old_ptr) {
            // Regime 3: resize the block (`realloc`), page-filled.
            // SAFETY: A1: `ptr` is this vector's own buffer block, allocated with `T`'s
            // alignment, and only the returned pointer is used afterwards.
            let (ptr, bytes) = unsafe { self.bump.grow_buffer(old_ptr, wanted) }?;
            self.ptr = ptr.cast();
            self.cap = bytes / size;
            return Ok(());
        }
        let tip_room = if self.cap > 0 { self.bump.tip_room(old_ptr, old) } else { None };
        if let Some(room) = tip_room.filter(|room| room / size >= needed) {
            // Regime 1: in place at the tip, doubling, or filling the block.
            let cap = want.min(room / size);
            let new = layout_for(cap)?;
            // SAFETY: the buffer is a live allocation of `old` from this scope.
            let grown = unsafe { self.bump.resize_tip(old_ptr, old, new) };
            debug_assert!(grown, "the tip has room for it");
            if grown {
                self.cap = cap;
                return Ok(());
            }
        }
        let (ptr, cap) = if wanted.size() <= self.bump.standard_capacity() {
            // Regime 2: a new, doubled allocation at the tip.
            (self.bump.alloc(wanted)?, want)
        } else {
            // Regime 3 begins: a block of its own.
            let (ptr, bytes) = self.bump.alloc_buffer(wanted)?;
            (ptr, bytes / size)
        };
        if self.cap > 0 {
            // SAFETY: both buffers are live, distinct allocations of at least `len`
            // elements; the old one is not used again.
            unsafe {
                ptr::copy_nonoverlapping(self.ptr.as_ptr(), ptr.cast::<T>().as_ptr(), self.len);
            };
            // SAFETY: the old buffer is a live allocation of `old` (a bump allocation:
            // only the tip gives bytes back) and is no longer used.
            unsafe { self.bump.give_back_tip(old_ptr, old) };
        }
        self.ptr = ptr.cast();
        self.cap = cap;
        Ok(())
    }
}

impl<'s, T: Copy> ArenaVec<'s, T> {
    /// Turns the vector into a slice that lives as long as the scope (bumpalo's
    /// `into_bump_slice`). Only for `Copy` elements: nothing will drop them, and a `Copy`
    /// type has nothing to drop. Elements with destructors go through
    /// [`Scope::alloc_vec`], which makes the scope drop them.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let mut v = arena_kit::ArenaVec::new_in(&scope);
    /// v.extend_from_slice(&[1, 2, 3]);
    /// let s: &mut [i32] = v.into_slice();
    /// s[0] = 9;
    /// assert_eq!(s, [9, 2, 3]);
    /// ```
    #[must_use]
    pub fn into_slice(self) -> &'s mut [T] {
        let this = mem::ManuallyDrop::new(self);
        // SAFETY: the buffer stays allocated until the scope ends (`'s`), is no longer
        // owned by the vector (never dropped or freed: `ManuallyDrop`), and its first
        // `len` elements are initialised.
        unsafe { &mut *ptr::slice_from_raw_parts_mut(this.ptr.as_ptr(), this.len) }
    }

    /// Appends a copy of `items` with one copy of memory (bumpalo's
    /// `extend_from_slice_copy`).
    ///
    /// # Panics
    ///
    /// If the vector cannot grow.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.extend_from_slice_copy(b"abc");
    /// v.extend_from_slice_copy(b"");
    /// assert_eq!(v, *b"abc");
    /// ```
    #[track_caller]
    pub fn extend_from_slice_copy(&mut self, items: &[T]) {
        self.try_extend_from_slice_copy(items).unwrap_or_else(|e| fail(e));
    }

    /// Appends copies of every slice of `slices`, growing once (bumpalo's
    /// `extend_from_slices_copy`).
    ///
    /// # Panics
    ///
    /// If the vector cannot grow, or the total length overflows.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.extend_from_slices_copy(&[&[1, 2], &[], &[3]]);
    /// assert_eq!(v, [1, 2, 3]);
    /// ```
    #[track_caller]
    pub fn extend_from_slices_copy(&mut self, slices: &[&[T]]) {
        let total = slices
            .iter()
            .try_fold(0_usize, |n, s| n.checked_add(s.len()))
            .unwrap_or_else(|| fail(AllocError::SizeOverflow));
        self.reserve(total);
        for items in slices {
            self.extend_from_slice_copy(items);
        }
    }

    /// Appends a copy of `items`, or says why the vector could not grow (unchanged then).
    fn try_extend_from_slice_copy(&mut self, items: &[T]) -> Result<(), AllocError> {
        self.try_reserve(items.len())?;
        // SAFETY: room for `items.len()` more past `len` (reserved above); `items` cannot
        // overlap the buffer, which only `&mut self` reaches.
        unsafe { ptr::copy_nonoverlapping(items.as_ptr(), self.slot_ptr(self.len), items.len()) };
        self.len += items.len();
        Ok(())
    }
}

#[expect(
    clippy::mut_from_ref,
    reason = "the scope takes over the vector's elements, as `Scope::alloc` takes a value"
)]
impl<'p> Scope<'p> {
    /// Hands a vector's elements to the scope: they stay where they are, as a slice that
    /// lives as long as the scope, and the scope drops them when it ends (bumpalo's
    /// `into_bump_slice` for any element type; [`ArenaVec::into_slice`] is the shortcut
    /// for `Copy` elements).
    ///
    /// The vector's unused capacity is given back first when it is the scope's newest
    /// allocation. A vector of another scope (a parent's, a child's) has its elements
    /// moved into this one, and its buffer freed.
    ///
    /// `T: 'p`, as for [`alloc`](Self::alloc): elements the scope will drop may not
    /// borrow the scope's own values (a vector may hold such borrows while it drops its
    /// elements itself; it cannot be handed over then).
    ///
    /// # Panics
    ///
    /// If a limit is reached (see [`try_alloc_vec`](Self::try_alloc_vec)).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{ArenaVec, BlockPool};
    ///
    /// let pool = BlockPool::new();
    /// let scope = pool.scope();
    /// let mut names = ArenaVec::new_in(&scope);
    /// names.push(String::from("ada"));
    /// names.push(String::from("grace"));
    /// let names: &mut [String] = scope.alloc_vec(names);
    /// names[1].make_ascii_uppercase();
    /// assert_eq!(names, ["ada", "GRACE"]);
    /// // both strings are dropped when `scope` ends
    /// ```
    #[track_caller]
    pub fn alloc_vec<T: 'p>(&self, vec: ArenaVec<'_, T>) -> &mut [T] {
        self.try_alloc_vec(vec).unwrap_or_else(|e| fail(e.error()))
    }

    /// Like [`alloc_vec`](Self::alloc_vec), handing the vector back, untouched, if there
    /// is no room for the destructor record (or, for another scope's vector, for the
    /// elements).
    ///
    /// # Errors
    ///
    /// As [`try_alloc`](Self::try_alloc), with the vector inside the [`TryAllocError`].
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let parent = pool.scope();
    /// let child = parent.scope();
    /// let mut v = arena_kit::ArenaVec::new_in(&child);
    /// v.push(String::from("moved"));
    /// let kept = parent.try_alloc_vec(v).unwrap(); // moved into the parent
    /// drop(child);
    /// assert_eq!(kept, ["moved"]);
    /// ```
    pub fn try_alloc_vec<'v, T: 'p>(
        &self,
        mut vec: ArenaVec<'v, T>,
    ) -> Result<&mut [T], TryAllocError<ArenaVec<'v, T>>> {
        if !vec.is_in(self.bump()) {
            let mut values = vec.into_iter();
            return match self.try_alloc_from_iter(values.by_ref()) {
                Ok(slice) => Ok(slice),
                // Nothing was taken: the iterator turns back into the whole vector.
                Err(e) => Err(TryAllocError::new(e.error(), values.into_vec())),
            };
        }
        vec.shrink_to_fit();
        let (data, len) = (vec.ptr, vec.len);
        // SAFETY: A1, A2: `len` initialised elements in this scope's memory (the vector
        // is this scope's), given up by the vector right below if this succeeds, so the
        // scope alone drops them; `T: 'p`.
        if let Err(e) = unsafe { self.adopt(data, len) } {
            return Err(TryAllocError::new(e, vec));
        }
        let _ = vec.into_raw_parts();
        // SAFETY: `len` initialised elements in the scope's memory, owned by the scope
        // now; the slice borrows `self`, so it ends with the scope (S2, S3 of `bump/`).
        Ok(unsafe { &mut *ptr::slice_from_raw_parts_mut(data.as_ptr(), len) })
    }
}

impl<T: Clone> ArenaVec<'_, T> {
    /// Resizes to `new_len`: truncates, or appends clones of `value`.
    ///
    /// # Panics
    ///
    /// If the vector must grow and cannot.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.resize(3, 'x');
    /// v.resize(1, 'y');
    /// assert_eq!(v.as_slice(), ['x']);
    /// ```
    #[track_caller]
    pub fn resize(&mut self, new_len: usize, value: T) {
        if new_len <= self.len {
            self.truncate(new_len);
            return;
        }
        self.reserve(new_len - self.len);
        while self.len < new_len {
            self.push(value.clone());
        }
    }

    /// Appends clones of every element of `items`.
    ///
    /// # Panics
    ///
    /// If the vector cannot grow (see [`try_reserve`](Self::try_reserve)).
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::new_in(&arena);
    /// v.extend_from_slice(&["a", "b"]);
    /// assert_eq!(v.len(), 2);
    /// ```
    #[track_caller]
    pub fn extend_from_slice(&mut self, items: &[T]) {
        self.reserve(items.len());
        for item in items {
            self.push(item.clone());
        }
    }
}

impl<T> Drop for ArenaVec<'_, T> {
    fn drop(&mut self) {
        /// Frees the buffer even if an element's destructor panics.
        struct FreeBuffer<'a, 'b, T>(&'a mut ArenaVec<'b, T>);
        impl<T> Drop for FreeBuffer<'_, '_, T> {
            fn drop(&mut self) {
                // SAFETY: the vector is being dropped, its elements just were: nothing
                // uses the buffer afterwards.
                unsafe { self.0.release_buffer() };
            }
        }
        let guard = FreeBuffer(self);
        let v = &mut *guard.0;
        // SAFETY: A2: the first `len` elements are initialised and dropped once here.
        unsafe { ptr::drop_in_place(ptr::slice_from_raw_parts_mut(v.ptr.as_ptr(), v.len)) };
    }
}

impl<T> Deref for ArenaVec<'_, T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T> DerefMut for ArenaVec<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T> Extend<T> for ArenaVec<'_, T> {
    #[track_caller]
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        self.reserve(iter.size_hint().0);
        for item in iter {
            self.push(item);
        }
    }
}

impl<'s, T> IntoIterator for ArenaVec<'s, T> {
    type Item = T;
    type IntoIter = IntoIter<'s, T>;

    /// Moves the elements out one by one; those not taken are dropped with the iterator,
    /// which then gives the buffer back.
    fn into_iter(self) -> IntoIter<'s, T> {
        IntoIter::new(self)
    }
}

impl<'a, T> IntoIterator for &'a ArenaVec<'_, T> {
    type Item = &'a T;
    type IntoIter = core::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<'a, T> IntoIterator for &'a mut ArenaVec<'_, T> {
    type Item = &'a mut T;
    type IntoIter = core::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_mut_slice().iter_mut()
    }
}

impl<'a, T: Copy + 'a> Extend<&'a T> for ArenaVec<'_, T> {
    #[track_caller]
    fn extend<I: IntoIterator<Item = &'a T>>(&mut self, iter: I) {
        self.extend(iter.into_iter().copied());
    }
}

impl<T: fmt::Debug> fmt::Debug for ArenaVec<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<T: PartialEq> PartialEq for ArenaVec<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Eq> Eq for ArenaVec<'_, T> {}

impl<T: PartialEq<U>, U> PartialEq<[U]> for ArenaVec<'_, T> {
    fn eq(&self, other: &[U]) -> bool {
        self.as_slice() == other
    }
}

impl<T: PartialEq<U>, U> PartialEq<&[U]> for ArenaVec<'_, T> {
    fn eq(&self, other: &&[U]) -> bool {
        self.as_slice() == *other
    }
}

impl<T: PartialEq<U>, U, const N: usize> PartialEq<[U; N]> for ArenaVec<'_, T> {
    fn eq(&self, other: &[U; N]) -> bool {
        self.as_slice() == other
    }
}

/// Appends the bytes; running out of room (a limit) is an `OutOfMemory` I/O error and
/// leaves the vector unchanged.
#[cfg(feature = "std")]
impl std::io::Write for ArenaVec<'_, u8> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.try_extend_from_slice_copy(buf)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::OutOfMemory, e))?;
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.write(buf).map(drop)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The `(start, end)` of `range` over `len` elements.
///
/// # Panics
///
/// If the range is decreasing, ends past `len`, or its bounds overflow.
#[track_caller]
fn bounds(range: &impl RangeBounds<usize>, len: usize) -> (usize, usize) {
    let start = match range.start_bound() {
        Bound::Included(&start) => start,
        Bound::Excluded(&start) => {
            start.checked_add(1).unwrap_or_else(|| panic!("range start overflows usize"))
        }
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(&end) => {
            end.checked_add(1).unwrap_or_else(|| panic!("range end overflows usize"))
        }
        Bound::Excluded(&end) => end,
        Bound::Unbounded => len,
    };
    assert!(start <= end, "range starts at {start} but ends at {end}");
    assert!(end <= len, "range end {end} out of range for a vector of length {len}");
    (start, end)
}
