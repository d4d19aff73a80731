//! [`IntoIter`]: an [`ArenaVec`] taken apart by value.
//!
//! The iterator keeps the vector itself, emptied (`len` 0), so the vector's `Drop` still
//! gives the buffer back, also when an element's destructor panics; the elements not yet
//! taken are `head..tail` of the buffer (its A2 invariant moves here: exactly those are
//! initialised).

use core::fmt;
use core::iter::FusedIterator;
use core::ptr;

use super::ArenaVec;

/// The elements of an [`ArenaVec`], moved out one by one (its `IntoIterator` by value).
///
/// Elements not taken are dropped with the iterator, which then gives the buffer back to
/// the scope (frees its block, or its bytes when it is the scope's tip).
///
/// # Examples
///
/// ```
/// let arena = arena_kit::Arena::new();
/// let mut v = arena_kit::ArenaVec::new_in(&arena);
/// v.extend([String::from("a"), String::from("b"), String::from("c")]);
/// let mut it = v.into_iter();
/// assert_eq!(it.next().as_deref(), Some("a"));
/// assert_eq!(it.next_back().as_deref(), Some("c"));
/// assert_eq!(it.as_slice(), ["b"]);
/// ```
pub struct IntoIter<'s, T> {
    /// The buffer, its length set to 0: only `head..tail` is initialised.
    vec: ArenaVec<'s, T>,
    head: usize,
    tail: usize,
}

impl<'s, T> IntoIter<'s, T> {
    pub(super) fn new(mut vec: ArenaVec<'s, T>) -> Self {
        let tail = vec.len;
        // The iterator owns the elements now: leaking it leaks them, never drops twice.
        vec.len = 0;
        IntoIter { vec, head: 0, tail }
    }

    /// The elements not taken yet.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut it = arena_kit::ArenaVec::from_iter_in([1, 2, 3], &arena).into_iter();
    /// it.next();
    /// assert_eq!(it.as_slice(), [2, 3]);
    /// ```
    #[must_use]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: `head..tail` are initialised elements of the buffer, inside it.
        unsafe { &*ptr::slice_from_raw_parts(self.vec.slot_ptr(self.head), self.tail - self.head) }
    }

    /// The elements not taken yet, mutably.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut it = arena_kit::ArenaVec::from_iter_in([1, 2], &arena).into_iter();
    /// it.as_mut_slice()[1] = 5;
    /// assert_eq!(it.collect::<Vec<_>>(), [1, 5]);
    /// ```
    #[must_use]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        let len = self.tail - self.head;
        // SAFETY: as in `as_slice`, and `&mut self` makes the borrow unique.
        unsafe { &mut *ptr::slice_from_raw_parts_mut(self.vec.slot_ptr(self.head), len) }
    }

    /// The elements not taken yet, as a vector again (moved to the front of the buffer).
    pub(super) fn into_vec(mut self) -> ArenaVec<'s, T> {
        let remaining = self.tail - self.head;
        // SAFETY: `head..tail` are initialised; they move to the front of the same buffer
        // (`copy` allows the overlap), where the vector's length then covers exactly them.
        unsafe { ptr::copy(self.vec.slot_ptr(self.head), self.vec.slot_ptr(0), remaining) };
        self.head = 0;
        self.tail = 0;
        let bump = self.vec.bump;
        let mut vec = core::mem::replace(&mut self.vec, ArenaVec::new_in_bump(bump));
        vec.len = remaining;
        vec
    }
}

impl<T> Iterator for IntoIter<'_, T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        if self.head == self.tail {
            return None;
        }
        let at = self.head;
        self.head += 1;
        // SAFETY: `at` was in `head..tail`, initialised; it is outside it now, so it is
        // read exactly once.
        Some(unsafe { self.vec.slot_ptr(at).read() })
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.tail - self.head;
        (n, Some(n))
    }
}

impl<T> DoubleEndedIterator for IntoIter<'_, T> {
    #[inline]
    fn next_back(&mut self) -> Option<T> {
        if self.head == self.tail {
            return None;
        }
        self.tail -= 1;
        // SAFETY: the old last element of `head..tail`, initialised and now outside it,
        // so it is read exactly once.
        Some(unsafe { self.vec.slot_ptr(self.tail).read() })
    }
}

impl<T> ExactSizeIterator for IntoIter<'_, T> {}

impl<T> FusedIterator for IntoIter<'_, T> {}

impl<T> Drop for IntoIter<'_, T> {
    fn drop(&mut self) {
        let rest =
            ptr::slice_from_raw_parts_mut(self.vec.slot_ptr(self.head), self.tail - self.head);
        // Marked taken first: if a destructor panics the others still drop (slice drop
        // glue goes on), and nothing is dropped twice. The emptied vector gives the
        // buffer back when it drops right after, unwinding or not.
        self.head = self.tail;
        // SAFETY: `rest` was exactly the initialised elements not taken, dropped once.
        unsafe { ptr::drop_in_place(rest) };
    }
}

impl<T: fmt::Debug> fmt::Debug for IntoIter<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("IntoIter").field(&self.as_slice()).finish()
    }
}
