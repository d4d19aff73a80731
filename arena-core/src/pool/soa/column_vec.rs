//! [`ColumnVec`]: rows stored as one column per field, all columns of one length.
//!
//! `#[derive(ArenaAlloc)]` with `#[arena(soa)]` keeps a struct's fields in a `ColumnVec`
//! of the fields' types. It could keep one `Vec` per field (it did), but then every
//! column has a length and a capacity of its own, and the compiler cannot know that they
//! agree: a push tests every column's capacity, and a row read, a `swap_remove` or a pop
//! tests every column's bounds. A `ColumnVec` has one length and one capacity (the
//! smallest column's), so each of those is one test, whatever the number of fields.
//!
//! # Design
//!
//! - The element types form a list, `(A, (B, (C, ())))`: a struct of any number of fields
//!   is a list, with one impl of [`ColumnList`] for the pair and one for `()`. A row goes
//!   in and out as that list of values; [`get`](ColumnVec::get) gives a list of
//!   references, [`slices`](ColumnVec::slices) a list of slices, the same shape.
//! - Each column is a `Vec` whose own length stays 0: it only owns the buffer (its
//!   allocation, growth and release are `Vec`'s, so is the layout of a zero-sized type).
//!   The `ColumnVec` keeps the length (`len`) and the smallest capacity (`cap`).
//! - Its invariant, which every `unsafe` block below relies on (C1): rows `0..len` of
//!   every column hold initialised values, no other row does, and `len <= cap <=` every
//!   column's capacity. Only this module's code changes `len`, `cap` or the buffers.
//! - [`ColumnList`] is sealed: its functions on the raw buffers are `unsafe` and hidden;
//!   the safe API is [`ColumnVec`]'s, which checks every row number against `len`.
//! - Dropping a `ColumnVec` drops every row's fields, column by column; if a destructor
//!   panics, the rest of its column and the later columns are still dropped (as a `Vec`
//!   of structs drops the other fields), and the buffers are freed.
//!
//! # Cost
//!
//! A push is one capacity test and one write per column; a read of a row, one bounds
//! test. Growing a `ColumnVec` grows every column, as separate `Vec`s would.

use alloc::collections::TryReserveError;
use alloc::vec::Vec;
use core::{fmt, ptr, slice};

mod sealed {
    pub trait Sealed {}
    impl Sealed for () {}
    impl<H, T: super::ColumnList> Sealed for (H, T) {}
}

/// The element types of a [`ColumnVec`], as a list: `(A, (B, (C, ())))` for three
/// columns of types `A`, `B` and `C`. A row is a value of the list type itself.
///
/// Implemented for `()` (no column) and for `(H, T)` where `T` is a list; sealed. The
/// associated types have the same shape: [`Refs`](Self::Refs) of `(A, (B, ()))` is
/// `(&A, (&B, ()))`, [`Slices`](Self::Slices) is `(&[A], (&[B], ()))`.
///
/// # Examples
///
/// ```
/// use arena_kit::pool::soa::ColumnVec;
///
/// let mut rows: ColumnVec<(u32, (&str, ()))> = ColumnVec::new();
/// rows.push((7, ("seven", ())));
/// let (numbers, (names, ())) = rows.slices();
/// assert_eq!((numbers, names), (&[7][..], &["seven"][..]));
/// ```
pub trait ColumnList: Sized + sealed::Sealed {
    /// The buffers: a `Vec` of length 0 per column.
    #[doc(hidden)]
    type Raw;
    /// One row, a shared reference per column.
    type Refs<'a>
    where
        Self: 'a;
    /// One row, a mutable reference per column.
    type Muts<'a>
    where
        Self: 'a;
    /// Every column as a shared slice.
    type Slices<'a>
    where
        Self: 'a;
    /// Every column as a mutable slice.
    type SlicesMut<'a>
    where
        Self: 'a;

    /// Empty buffers with room for `capacity` rows each.
    #[doc(hidden)]
    fn raw_with_capacity(capacity: usize) -> Self::Raw;

    /// The smallest capacity of the buffers (`usize::MAX` with none).
    #[doc(hidden)]
    fn raw_capacity(raw: &Self::Raw) -> usize;

    /// Gives every buffer room for `total` rows, as `Vec::reserve`.
    #[doc(hidden)]
    fn raw_reserve(raw: &mut Self::Raw, total: usize);

    /// Gives every buffer room for `total` rows, or says why not; the buffers already
    /// grown stay grown.
    #[doc(hidden)]
    fn raw_try_reserve(raw: &mut Self::Raw, total: usize) -> Result<(), TryReserveError>;

    /// Shrinks every buffer's capacity towards `rows`.
    #[doc(hidden)]
    fn raw_shrink_to(raw: &mut Self::Raw, rows: usize);

    /// Moves `value`'s fields into row `row`.
    ///
    /// # Safety
    ///
    /// `row` is below every buffer's capacity and holds no value (none is overwritten).
    #[doc(hidden)]
    unsafe fn raw_write(raw: &mut Self::Raw, row: usize, value: Self);

    /// Moves row `row`'s fields out; the row then holds no value.
    ///
    /// # Safety
    ///
    /// Row `row` holds a value in every buffer.
    #[doc(hidden)]
    unsafe fn raw_read(raw: &mut Self::Raw, row: usize) -> Self;

    /// Moves row `from`'s fields to row `to`; `from` then holds no value.
    ///
    /// # Safety
    ///
    /// `from != to`; row `from` holds a value, row `to` (below every capacity) none.
    #[doc(hidden)]
    unsafe fn raw_move(raw: &mut Self::Raw, from: usize, to: usize);

    /// References to row `row`'s fields.
    ///
    /// # Safety
    ///
    /// Row `row` holds a value in every buffer.
    #[doc(hidden)]
    unsafe fn raw_get<'a>(raw: &'a Self::Raw, row: usize) -> Self::Refs<'a>
    where
        Self: 'a;

    /// Mutable references to row `row`'s fields.
    ///
    /// # Safety
    ///
    /// Row `row` holds a value in every buffer.
    #[doc(hidden)]
    unsafe fn raw_get_mut<'a>(raw: &'a mut Self::Raw, row: usize) -> Self::Muts<'a>
    where
        Self: 'a;

    /// Rows `0..len` of every buffer as slices.
    ///
    /// # Safety
    ///
    /// Rows `0..len` hold values in every buffer.
    #[doc(hidden)]
    unsafe fn raw_slices<'a>(raw: &'a Self::Raw, len: usize) -> Self::Slices<'a>
    where
        Self: 'a;

    /// Rows `0..len` of every buffer as mutable slices.
    ///
    /// # Safety
    ///
    /// Rows `0..len` hold values in every buffer.
    #[doc(hidden)]
    unsafe fn raw_slices_mut<'a>(raw: &'a mut Self::Raw, len: usize) -> Self::SlicesMut<'a>
    where
        Self: 'a;

    /// Drops the fields of rows `from..to`, which then hold no value. A panicking
    /// destructor still leaves every other field of those rows dropped.
    ///
    /// # Safety
    ///
    /// Rows `from..to` hold values in every buffer.
    #[doc(hidden)]
    unsafe fn raw_drop(raw: &mut Self::Raw, from: usize, to: usize);
}

impl ColumnList for () {
    type Raw = ();
    type Refs<'a> = ();
    type Muts<'a> = ();
    type Slices<'a> = ();
    type SlicesMut<'a> = ();

    #[inline]
    fn raw_with_capacity(_: usize) {}
    #[inline]
    fn raw_capacity((): &()) -> usize {
        usize::MAX
    }
    #[inline]
    fn raw_reserve((): &mut (), _: usize) {}
    #[inline]
    fn raw_try_reserve((): &mut (), _: usize) -> Result<(), TryReserveError> {
        Ok(())
    }
    #[inline]
    fn raw_shrink_to((): &mut (), _: usize) {}
    #[inline]
    unsafe fn raw_write((): &mut (), _: usize, (): ()) {}
    #[inline]
    unsafe fn raw_read((): &mut (), _: usize) {}
    #[inline]
    unsafe fn raw_move((): &mut (), _: usize, _: usize) {}
    #[inline]
    unsafe fn raw_get<'a>((): &'a (), _: usize)
    where
        Self: 'a,
    {
    }
    #[inline]
    unsafe fn raw_get_mut<'a>((): &'a mut (), _: usize)
    where
        Self: 'a,
    {
    }
    #[inline]
    unsafe fn raw_slices<'a>((): &'a (), _: usize)
    where
        Self: 'a,
    {
    }
    #[inline]
    unsafe fn raw_slices_mut<'a>((): &'a mut (), _: usize)
    where
        Self: 'a,
    {
    }
    #[inline]
    unsafe fn raw_drop((): &mut (), _: usize, _: usize) {}
}

impl<H, T: ColumnList> ColumnList for (H, T) {
    type Raw = (Vec<H>, T::Raw);
    type Refs<'a>
        = (&'a H, T::Refs<'a>)
    where
        Self: 'a;
    type Muts<'a>
        = (&'a mut H, T::Muts<'a>)
    where
        Self: 'a;
    type Slices<'a>
        = (&'a [H], T::Slices<'a>)
    where
        Self: 'a;
    type SlicesMut<'a>
        = (&'a mut [H], T::SlicesMut<'a>)
    where
        Self: 'a;

    #[inline]
    fn raw_with_capacity(capacity: usize) -> Self::Raw {
        (Vec::with_capacity(capacity), T::raw_with_capacity(capacity))
    }

    #[inline]
    fn raw_capacity(raw: &Self::Raw) -> usize {
        raw.0.capacity().min(T::raw_capacity(&raw.1))
    }

    fn raw_reserve(raw: &mut Self::Raw, total: usize) {
        // The buffer's own length is 0, so room for `total` more is room for `total`.
        raw.0.reserve(total);
        T::raw_reserve(&mut raw.1, total);
    }

    fn raw_try_reserve(raw: &mut Self::Raw, total: usize) -> Result<(), TryReserveError> {
        raw.0.try_reserve(total)?;
        T::raw_try_reserve(&mut raw.1, total)
    }

    fn raw_shrink_to(raw: &mut Self::Raw, rows: usize) {
        raw.0.shrink_to(rows);
        T::raw_shrink_to(&mut raw.1, rows);
    }

    #[inline]
    unsafe fn raw_write(raw: &mut Self::Raw, row: usize, value: Self) {
        // SAFETY: the caller guarantees `row` is below this buffer's capacity, so the
        // place is inside its allocation, and that it holds no value to overwrite.
        unsafe { raw.0.as_mut_ptr().wrapping_add(row).write(value.0) };
        // SAFETY: the same guarantee, for the other buffers.
        unsafe { T::raw_write(&mut raw.1, row, value.1) };
    }

    #[inline]
    unsafe fn raw_read(raw: &mut Self::Raw, row: usize) -> Self {
        // SAFETY: the caller guarantees row `row` holds a value; it is read once and
        // counts as moved out from here on.
        let head = unsafe { raw.0.as_mut_ptr().wrapping_add(row).read() };
        // SAFETY: the same guarantee, for the other buffers.
        (head, unsafe { T::raw_read(&mut raw.1, row) })
    }

    #[inline]
    unsafe fn raw_move(raw: &mut Self::Raw, from: usize, to: usize) {
        let base = raw.0.as_mut_ptr();
        // SAFETY: the caller guarantees both rows are inside the allocation (`from`
        // holds a value, `to` is below the capacity) and differ, so the one-element
        // copies do not overlap; `from` counts as moved out from here on.
        unsafe { ptr::copy_nonoverlapping(base.wrapping_add(from), base.wrapping_add(to), 1) };
        // SAFETY: the same guarantee, for the other buffers.
        unsafe { T::raw_move(&mut raw.1, from, to) };
    }

    #[inline]
    unsafe fn raw_get<'a>(raw: &'a Self::Raw, row: usize) -> Self::Refs<'a>
    where
        Self: 'a,
    {
        // SAFETY: the caller guarantees row `row` holds a value; the reference lives as
        // long as the shared borrow of the buffer.
        let head = unsafe { &*raw.0.as_ptr().wrapping_add(row) };
        // SAFETY: the same guarantee, for the other buffers.
        (head, unsafe { T::raw_get(&raw.1, row) })
    }

    #[inline]
    unsafe fn raw_get_mut<'a>(raw: &'a mut Self::Raw, row: usize) -> Self::Muts<'a>
    where
        Self: 'a,
    {
        let (head, tail) = raw;
        // SAFETY: the caller guarantees row `row` holds a value; the reference is the
        // only one to it while the buffer is borrowed mutably (`as_mut_ptr` makes no
        // reference to the rest of the buffer).
        let head = unsafe { &mut *head.as_mut_ptr().wrapping_add(row) };
        // SAFETY: the same guarantee, for the other buffers, borrowed apart from this one.
        (head, unsafe { T::raw_get_mut(tail, row) })
    }

    #[inline]
    unsafe fn raw_slices<'a>(raw: &'a Self::Raw, len: usize) -> Self::Slices<'a>
    where
        Self: 'a,
    {
        // SAFETY: the caller guarantees rows `0..len` hold values, one allocation (or
        // zero-sized values on a dangling, aligned pointer).
        let head = unsafe { slice::from_raw_parts(raw.0.as_ptr(), len) };
        // SAFETY: the same guarantee, for the other buffers.
        (head, unsafe { T::raw_slices(&raw.1, len) })
    }

    #[inline]
    unsafe fn raw_slices_mut<'a>(raw: &'a mut Self::Raw, len: usize) -> Self::SlicesMut<'a>
    where
        Self: 'a,
    {
        let (head, tail) = raw;
        // SAFETY: as `raw_slices`; the slice is the only reference to those rows while
        // the buffer is borrowed mutably.
        let head = unsafe { slice::from_raw_parts_mut(head.as_mut_ptr(), len) };
        // SAFETY: the same guarantee, for the other buffers, borrowed apart from this one.
        (head, unsafe { T::raw_slices_mut(tail, len) })
    }

    unsafe fn raw_drop(raw: &mut Self::Raw, from: usize, to: usize) {
        /// Drops the later columns' rows when this column's drop ends, by a panic too.
        struct Rest<'r, T: ColumnList> {
            raw: &'r mut T::Raw,
            from: usize,
            to: usize,
        }
        impl<T: ColumnList> Drop for Rest<'_, T> {
            fn drop(&mut self) {
                // SAFETY: `raw_drop`'s caller guarantees rows `from..to` hold values in
                // every buffer; this is the only drop of the later buffers' rows.
                unsafe { T::raw_drop(self.raw, self.from, self.to) };
            }
        }
        let (head, tail) = raw;
        let _rest = Rest::<T> { raw: tail, from, to };
        // SAFETY: the caller guarantees rows `from..to` hold values; `drop_in_place` of
        // a slice drops every element, the later ones after a panic too.
        unsafe {
            ptr::drop_in_place(ptr::slice_from_raw_parts_mut(
                head.as_mut_ptr().wrapping_add(from),
                to - from,
            ));
        }
    }
}

/// Rows stored as one column per field: a `Vec` per column with one length and one
/// capacity between them, so a push tests the capacity once and a row read tests its
/// bounds once, whatever the number of columns.
///
/// `L` lists the columns' types as `(A, (B, (C, ())))` (see [`ColumnList`]); a row goes
/// in and out as a value of `L`. `#[derive(ArenaAlloc)]` with `#[arena(soa)]` keeps a
/// struct's fields in one; it is public for [`SoaRow`](crate::SoaRow) impls written by
/// hand.
///
/// Growing grows every column (amortised doubling, as `Vec`); `swap_remove` moves the
/// last row into the hole, one copy per column.
///
/// # Examples
///
/// ```
/// use arena_kit::pool::soa::ColumnVec;
///
/// let mut bodies: ColumnVec<(String, ([f32; 2], ()))> = ColumnVec::with_capacity(4);
/// bodies.push(("sun".to_string(), ([0.0, 0.0], ())));
/// bodies.push(("moon".to_string(), ([1.0, 0.5], ())));
///
/// let (name, (pos, ())) = bodies.row_mut(1);
/// pos[0] += 1.0;
/// assert_eq!(name, "moon");
///
/// let (_, (positions, ())) = bodies.slices();
/// assert_eq!(positions, &[[0.0, 0.0], [2.0, 0.5]]);
///
/// let (name, _) = bodies.swap_remove(0); // the moon moves to row 0
/// assert_eq!(name, "sun");
/// assert_eq!(bodies.row(0).0, "moon");
/// ```
pub struct ColumnVec<L: ColumnList> {
    raw: L::Raw,
    /// Rows `0..len` hold values (C1).
    len: usize,
    /// At most every column's capacity (C1).
    cap: usize,
}

impl<L: ColumnList> ColumnVec<L> {
    /// No rows, no allocation.
    ///
    /// # Examples
    ///
    /// ```
    /// let rows = arena_kit::pool::soa::ColumnVec::<(u8, ())>::new();
    /// assert!(rows.is_empty());
    /// ```
    #[must_use]
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// No rows, room for `capacity` in every column.
    ///
    /// # Panics
    ///
    /// As `Vec::with_capacity`: if a column's buffer would exceed `isize::MAX` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// let rows = arena_kit::pool::soa::ColumnVec::<(u8, (u64, ()))>::with_capacity(10);
    /// assert!(rows.capacity() >= 10);
    /// ```
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        let raw = L::raw_with_capacity(capacity);
        let cap = L::raw_capacity(&raw);
        ColumnVec { raw, len: 0, cap }
    }

    /// The number of rows.
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no row.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many rows fit without growing: the smallest column's capacity.
    #[inline]
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// Makes room for `additional` more rows in every column (as `Vec::reserve`).
    ///
    /// # Panics
    ///
    /// If the number of rows would overflow `usize`, or as `Vec::reserve`.
    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        if self.cap - self.len < additional {
            self.grow(additional);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, additional: usize) {
        let total = self.len.checked_add(additional).expect("capacity overflow");
        L::raw_reserve(&mut self.raw, total);
        self.cap = L::raw_capacity(&self.raw);
    }

    /// Makes room for `additional` more rows in every column, or says why not (as
    /// `Vec::try_reserve`).
    ///
    /// # Errors
    ///
    /// The first column's error; columns already grown stay grown.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut rows = arena_kit::pool::soa::ColumnVec::<(u8, ())>::new();
    /// assert!(rows.try_reserve(usize::MAX).is_err());
    /// assert!(rows.try_reserve(8).is_ok());
    /// ```
    #[inline]
    pub fn try_reserve(&mut self, additional: usize) -> Result<(), TryReserveError> {
        if self.cap - self.len >= additional {
            return Ok(());
        }
        self.try_grow(additional)
    }

    #[cold]
    #[inline(never)]
    fn try_grow(&mut self, additional: usize) -> Result<(), TryReserveError> {
        let result = match self.len.checked_add(additional) {
            Some(total) => L::raw_try_reserve(&mut self.raw, total),
            None => Err(capacity_overflow()),
        };
        self.cap = L::raw_capacity(&self.raw);
        result
    }

    /// Gives unused capacity back in every column.
    pub fn shrink_to_fit(&mut self) {
        L::raw_shrink_to(&mut self.raw, self.len);
        self.cap = L::raw_capacity(&self.raw);
    }

    /// Appends `row` as the last row, one field per column.
    ///
    /// # Panics
    ///
    /// As `Vec::push`, if the columns must grow and cannot.
    #[inline]
    pub fn push(&mut self, row: L) {
        if self.len == self.cap {
            self.grow(1);
        }
        // SAFETY: `len < cap`, which is at most every column's capacity, and row `len`
        // holds no value (C1); it does from here on, and `len` says so.
        unsafe { L::raw_write(&mut self.raw, self.len, row) };
        self.len += 1;
    }

    /// Takes the last row out, if any.
    #[inline]
    pub fn pop(&mut self) -> Option<L> {
        let last = self.len.checked_sub(1)?;
        self.len = last;
        // SAFETY: row `last` was below `len`, so it holds a value (C1); with `len`
        // lowered it is read out once.
        Some(unsafe { L::raw_read(&mut self.raw, last) })
    }

    /// Takes row `row` out; the last row moves into its place.
    ///
    /// # Panics
    ///
    /// If `row` is out of bounds.
    #[inline]
    #[track_caller]
    pub fn swap_remove(&mut self, row: usize) -> L {
        let len = self.len;
        if row >= len {
            out_of_bounds(row, len);
        }
        // SAFETY: `row < len` holds a value (C1); it is read out once, then refilled from
        // the last row below, or is the last row, which `len` then drops.
        let value = unsafe { L::raw_read(&mut self.raw, row) };
        let last = len - 1;
        if row != last {
            // SAFETY: `last < len` holds a value, `row` no longer does, they differ, and
            // both are below the capacity.
            unsafe { L::raw_move(&mut self.raw, last, row) };
        }
        self.len = last;
        value
    }

    /// Drops every row past the first `len` (none if there are fewer).
    pub fn truncate(&mut self, len: usize) {
        let old = self.len;
        if len < old {
            // Lowered first: a panicking destructor leaves no row counted twice.
            self.len = len;
            // SAFETY: rows `len..old` were below the old length, so they hold values (C1);
            // no longer counted, they are dropped once.
            unsafe { L::raw_drop(&mut self.raw, len, old) };
        }
    }

    /// Drops every row; the capacity stays.
    pub fn clear(&mut self) {
        self.truncate(0);
    }

    /// Row `row`, a shared reference per column, or `None` if out of bounds.
    #[inline]
    #[must_use]
    pub fn get(&self, row: usize) -> Option<L::Refs<'_>> {
        // SAFETY: `row < len` holds a value (C1).
        (row < self.len).then(|| unsafe { L::raw_get(&self.raw, row) })
    }

    /// Row `row`, a mutable reference per column, or `None` if out of bounds.
    #[inline]
    #[must_use]
    pub fn get_mut(&mut self, row: usize) -> Option<L::Muts<'_>> {
        if row < self.len {
            // SAFETY: `row < len` holds a value (C1).
            Some(unsafe { L::raw_get_mut(&mut self.raw, row) })
        } else {
            None
        }
    }

    /// Row `row`, a shared reference per column.
    ///
    /// # Panics
    ///
    /// If `row` is out of bounds.
    #[inline]
    #[must_use]
    #[track_caller]
    pub fn row(&self, row: usize) -> L::Refs<'_> {
        if row >= self.len {
            out_of_bounds(row, self.len);
        }
        // SAFETY: `row < len` holds a value (C1).
        unsafe { L::raw_get(&self.raw, row) }
    }

    /// Row `row`, a mutable reference per column.
    ///
    /// # Panics
    ///
    /// If `row` is out of bounds.
    #[inline]
    #[must_use]
    #[track_caller]
    pub fn row_mut(&mut self, row: usize) -> L::Muts<'_> {
        if row >= self.len {
            out_of_bounds(row, self.len);
        }
        // SAFETY: `row < len` holds a value (C1).
        unsafe { L::raw_get_mut(&mut self.raw, row) }
    }

    /// Every column as a shared slice of `len()` elements.
    #[inline]
    #[must_use]
    pub fn slices(&self) -> L::Slices<'_> {
        // SAFETY: rows `0..len` hold values (C1).
        unsafe { L::raw_slices(&self.raw, self.len) }
    }

    /// Every column as a mutable slice of `len()` elements.
    #[inline]
    #[must_use]
    pub fn slices_mut(&mut self) -> L::SlicesMut<'_> {
        // SAFETY: rows `0..len` hold values (C1).
        unsafe { L::raw_slices_mut(&mut self.raw, self.len) }
    }
}

impl<L: ColumnList> Drop for ColumnVec<L> {
    fn drop(&mut self) {
        // The buffers themselves (each a `Vec` of length 0) are freed after this.
        self.clear();
    }
}

impl<L: ColumnList> Default for ColumnVec<L> {
    fn default() -> Self {
        Self::new()
    }
}

impl<L: ColumnList> fmt::Debug for ColumnVec<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ColumnVec")
            .field("len", &self.len)
            .field("capacity", &self.cap)
            .finish_non_exhaustive()
    }
}

/// The error `Vec::try_reserve` gives for a size past `isize::MAX` bytes (its kind
/// cannot be built directly on stable Rust); no allocator is asked.
fn capacity_overflow() -> TryReserveError {
    match Vec::<u8>::new().try_reserve(usize::MAX) {
        Err(error) => error,
        Ok(()) => unreachable!("a buffer of usize::MAX bytes exceeds isize::MAX"),
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn out_of_bounds(row: usize, len: usize) -> ! {
    panic!("row {row} is out of bounds: the columns have {len} rows")
}

#[cfg(test)]
mod tests {
    use alloc::rc::Rc;
    use alloc::string::{String, ToString};
    use core::cell::Cell;

    use super::ColumnVec;

    type Rows = ColumnVec<(String, (u32, ((), ())))>;

    #[test]
    fn push_read_and_remove_keep_the_columns_together() {
        let mut rows = Rows::new();
        for i in 0..5_u32 {
            rows.push((i.to_string(), (i * 10, ((), ()))));
        }
        assert_eq!(rows.len(), 5);
        let (name, (n, _)) = rows.swap_remove(1);
        assert_eq!((name.as_str(), n), ("1", 10));
        let (names, (numbers, (units, ()))) = rows.slices();
        assert_eq!(names, ["0", "4", "2", "3"]);
        assert_eq!(numbers, [0, 40, 20, 30]);
        assert_eq!(units.len(), 4);
        *rows.row_mut(3).1.0 += 1;
        assert_eq!(rows.get(3).map(|(_, (n, _))| *n), Some(31));
        assert!(rows.get(4).is_none());
        assert_eq!(rows.pop().map(|(name, _)| name), Some("3".to_string()));
        let (last, _) = rows.swap_remove(2);
        assert_eq!(last, "2");
        rows.truncate(1);
        assert_eq!(rows.slices().0, ["0"]);
    }

    #[test]
    fn growing_keeps_every_row() {
        let mut rows = ColumnVec::<(u8, (u64, ()))>::new();
        assert_eq!(rows.capacity(), 0);
        for i in 0..100_u8 {
            rows.push((i, (u64::from(i) << 40, ())));
            assert!(rows.capacity() >= rows.len());
        }
        rows.shrink_to_fit();
        assert_eq!(rows.capacity(), 100);
        let (small, (big, ())) = rows.slices();
        assert!(small.iter().zip(big).all(|(&s, &b)| b == u64::from(s) << 40));
        rows.try_reserve(10).unwrap();
        assert!(rows.capacity() >= 110);
        assert!(rows.try_reserve(usize::MAX).is_err());
    }

    #[test]
    fn only_zero_sized_columns_never_allocate() {
        let mut rows = ColumnVec::<((), ())>::new();
        assert_eq!(rows.capacity(), usize::MAX);
        rows.push(((), ()));
        assert!(rows.try_reserve(usize::MAX).is_err());
        assert_eq!(rows.slices().0.len(), 1);
    }

    #[test]
    #[should_panic(expected = "row 2 is out of bounds: the columns have 2 rows")]
    fn a_row_past_the_end_panics() {
        let mut rows = ColumnVec::<(u8, ())>::new();
        rows.push((1, ()));
        rows.push((2, ()));
        let _ = rows.swap_remove(2);
    }

    /// Counts its drops; panics in its own if told to.
    struct Noisy(Rc<Cell<u32>>, bool);

    impl Drop for Noisy {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
            assert!(!self.1, "a destructor panics");
        }
    }

    #[test]
    #[cfg(feature = "std")]
    fn every_field_is_dropped_once_even_when_a_destructor_panics() {
        let drops = Rc::new(Cell::new(0));
        let noisy = |panics| Noisy(Rc::clone(&drops), panics);
        let mut rows = ColumnVec::<(Noisy, (Noisy, ()))>::new();
        for i in 0..4 {
            rows.push((noisy(i == 1), (noisy(false), ())));
        }
        drop(rows.swap_remove(0)); // two drops; row 3 moves to row 0
        assert_eq!(drops.get(), 2);
        let caught = std::panic::catch_unwind(core::panic::AssertUnwindSafe(|| drop(rows)));
        assert!(caught.is_err());
        assert_eq!(drops.get(), 8, "all six fields left were dropped");
    }
}
