//! [`Drain`]: a range of an [`ArenaVec`] removed as an iterator.
//!
//! While the iterator lives the vector's length is the start of the range, so leaking the
//! iterator leaks the range and the tail but never drops anything twice. The elements
//! of the range not yet yielded are `next..end`; the tail `tail_start..tail_start +
//! tail_len` moves down to the vector's length when the iterator drops.

use core::fmt;
use core::iter::FusedIterator;
use core::ptr;

use super::ArenaVec;

/// The elements of a range of an [`ArenaVec`], removed (see [`ArenaVec::drain`]).
///
/// # Examples
///
/// ```
/// let arena = arena_kit::Arena::new();
/// let mut v = arena_kit::ArenaVec::from_iter_in(1..=5, &arena);
/// let mut d = v.drain(1..);
/// assert_eq!((d.next(), d.next_back()), (Some(2), Some(5)));
/// drop(d); // 3 and 4 are dropped here
/// assert_eq!(v, [1]);
/// ```
pub struct Drain<'a, 's, T> {
    vec: &'a mut ArenaVec<'s, T>,
    /// The range's elements not yielded yet.
    next: usize,
    end: usize,
    /// The elements after the range, to move down at the end.
    tail_start: usize,
    tail_len: usize,
}

impl<'a, 's, T> Drain<'a, 's, T> {
    /// Drains `start..end` (checked by the caller: `start <= end <= len`).
    pub(super) fn new(vec: &'a mut ArenaVec<'s, T>, start: usize, end: usize) -> Self {
        let len = vec.len;
        debug_assert!(start <= end && end <= len, "drain range checked by the caller");
        vec.len = start;
        Drain { vec, next: start, end, tail_start: end, tail_len: len - end }
    }

    /// The elements of the range not yielded yet.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut v = arena_kit::ArenaVec::from_iter_in(['a', 'b', 'c'], &arena);
    /// let mut d = v.drain(..);
    /// d.next();
    /// assert_eq!(d.as_slice(), ['b', 'c']);
    /// ```
    #[must_use]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: `next..end` are initialised elements of the buffer, not yielded yet.
        unsafe { &*ptr::slice_from_raw_parts(self.vec.slot_ptr(self.next), self.end - self.next) }
    }
}

impl<T> Iterator for Drain<'_, '_, T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        if self.next == self.end {
            return None;
        }
        let at = self.next;
        self.next += 1;
        // SAFETY: `at` was in `next..end`: initialised, and read exactly once.
        Some(unsafe { self.vec.slot_ptr(at).read() })
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.end - self.next;
        (n, Some(n))
    }
}

impl<T> DoubleEndedIterator for Drain<'_, '_, T> {
    #[inline]
    fn next_back(&mut self) -> Option<T> {
        if self.next == self.end {
            return None;
        }
        self.end -= 1;
        // SAFETY: the old last element of `next..end`: initialised, read exactly once.
        Some(unsafe { self.vec.slot_ptr(self.end).read() })
    }
}

impl<T> ExactSizeIterator for Drain<'_, '_, T> {}

impl<T> FusedIterator for Drain<'_, '_, T> {}

impl<T> Drop for Drain<'_, '_, T> {
    fn drop(&mut self) {
        /// Moves the tail down and restores the length, also if a destructor panics.
        struct MoveTail<'b, 'a, 's, T>(&'b mut Drain<'a, 's, T>);
        impl<T> Drop for MoveTail<'_, '_, '_, T> {
            fn drop(&mut self) {
                let d = &mut *self.0;
                let len = d.vec.len;
                if d.tail_len > 0 && d.tail_start != len {
                    // SAFETY: the tail is initialised and moves down within the buffer,
                    // over elements that were yielded or dropped (`copy` allows overlap).
                    unsafe {
                        ptr::copy(d.vec.slot_ptr(d.tail_start), d.vec.slot_ptr(len), d.tail_len);
                    };
                }
                d.vec.len = len + d.tail_len;
            }
        }

        let rest =
            ptr::slice_from_raw_parts_mut(self.vec.slot_ptr(self.next), self.end - self.next);
        self.next = self.end;
        let guard = MoveTail(self);
        // SAFETY: `rest` was exactly the range's elements not yielded: initialised and
        // dropped once here (marked taken above, so a panic drops none of them twice).
        unsafe { ptr::drop_in_place(rest) };
        drop(guard);
    }
}

impl<T: fmt::Debug> fmt::Debug for Drain<'_, '_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Drain").field(&self.as_slice()).finish()
    }
}
