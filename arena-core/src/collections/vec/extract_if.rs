//! [`ExtractIf`]: the elements of a range of an [`ArenaVec`] that a predicate picks,
//! removed as an iterator (std's `Vec::extract_if`; bumpalo's `drain_filter`).
//!
//! While the iterator lives the vector's length is 0, so leaking it leaks every element
//! but drops none twice. `idx` is the next element to ask the predicate about; `del`
//! elements before it were yielded, and the kept ones were moved down over them, so
//! `0..idx - del` and `idx..old_len` are the initialised elements.

use core::fmt;
use core::ptr;

use super::ArenaVec;

/// The elements of an [`ArenaVec`]'s range that a predicate picks, removed (see
/// [`ArenaVec::extract_if`]).
///
/// Unlike bumpalo's `drain_filter`, which leaks the element whose predicate panicked,
/// every element is either yielded or kept: a panic, stopping early or dropping the
/// iterator keeps the rest, as std's `extract_if` does.
///
/// # Examples
///
/// ```
/// let arena = arena_kit::Arena::new();
/// let mut v = arena_kit::ArenaVec::from_iter_in(1..=8, &arena);
/// let small: Vec<_> = v.extract_if(..4, |x| *x % 2 == 0).collect();
/// assert_eq!((small, v.as_slice()), (vec![2, 4], &[1, 3, 5, 6, 7, 8][..]));
/// ```
pub struct ExtractIf<'a, 's, T, F> {
    vec: &'a mut ArenaVec<'s, T>,
    /// The next element to ask about.
    idx: usize,
    /// End of the range to look at.
    end: usize,
    /// Elements yielded so far.
    del: usize,
    /// The vector's length before.
    old_len: usize,
    pred: F,
}

impl<'a, 's, T, F> ExtractIf<'a, 's, T, F> {
    /// Over `start..end` (checked by the caller: `start <= end <= len`).
    pub(super) fn new(vec: &'a mut ArenaVec<'s, T>, start: usize, end: usize, pred: F) -> Self {
        let old_len = vec.len;
        debug_assert!(start <= end && end <= old_len, "extract_if range checked by the caller");
        vec.len = 0;
        ExtractIf { vec, idx: start, end, del: 0, old_len, pred }
    }
}

impl<T, F: FnMut(&mut T) -> bool> Iterator for ExtractIf<'_, '_, T, F> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        while self.idx < self.end {
            let at = self.vec.slot_ptr(self.idx);
            // SAFETY: `idx < end <= old_len`: an initialised element, not moved yet, and
            // the only reference to it while the predicate runs.
            let picked = (self.pred)(unsafe { &mut *at });
            // Counted after the predicate: if it panics, this element is kept.
            self.idx += 1;
            if picked {
                self.del += 1;
                // SAFETY: initialised, and now outside both initialised runs: read once.
                return Some(unsafe { at.read() });
            }
            if self.del > 0 {
                // SAFETY: the slot `del` places down was yielded (or moved out); both are
                // inside the buffer and distinct.
                unsafe { ptr::copy_nonoverlapping(at, at.wrapping_sub(self.del), 1) };
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.end - self.idx))
    }
}

impl<T, F> Drop for ExtractIf<'_, '_, T, F> {
    fn drop(&mut self) {
        if self.del > 0 && self.idx < self.old_len {
            let tail = self.old_len - self.idx;
            let from = self.vec.slot_ptr(self.idx);
            // SAFETY: `idx..old_len` are initialised and move down by `del` over yielded
            // slots, inside the buffer (`copy` allows the overlap).
            unsafe { ptr::copy(from, from.wrapping_sub(self.del), tail) };
        }
        self.vec.len = self.old_len - self.del;
    }
}

impl<T: fmt::Debug, F> fmt::Debug for ExtractIf<'_, '_, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seen = self.idx - self.del;
        f.debug_struct("ExtractIf")
            .field("kept", &seen)
            .field("extracted", &self.del)
            .field("remaining", &(self.end - self.idx))
            .finish()
    }
}
