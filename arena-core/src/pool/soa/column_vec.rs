//! [`ColumnVec`]: rows stored as one column per field, all columns of one length.
//!
//! `#[derive(ArenaAlloc)]` with `#[arena(soa)]` keeps a struct's fields in a `ColumnVec`
//! of the fields' types. It could keep one `Vec` per field (it did), but then every
//! column has a length and a capacity of its own, and the compiler cannot know that they
//! agree: a push tests every column's capacity, and a row read, a `swap_remove` or a pop
//! tests every column's bounds. A `ColumnVec` knows they agree, so each of those is one
//! test, whatever the number of fields.
//!
//! # Design
//!
//! - The element types form a list, `(A, (B, (C, ())))`: a struct of any number of fields
//!   is a list, with one impl of [`ColumnList`] for the pair and one for `()`. A row goes
//!   in and out as that list of values; [`get`](ColumnVec::get) gives a list of
//!   references, [`slices`](ColumnVec::slices) a list of slices, the same shape.
//! - Each column is the parts of a `Vec` but its length ([`RawColumn`]: a pointer and a
//!   capacity); the one length, `len`, is the `ColumnVec`'s. A push writes each field
//!   and stores one length, where a `Vec` per column stored one per column (W8's
//!   struct-of-arrays churn counted 10 instructions an operation fewer without them).
//!   Growing, shrinking and dropping rebuild each column's `Vec` from its parts and
//!   `len` for the call, so every allocation decision is still `Vec`'s own, and a
//!   reallocation moves the rows because they are within the rebuilt length.
//! - The invariant every `unsafe` block below relies on (C1): every column is the parts
//!   of a `Vec` holding `len` elements (a heap vector), or `cap` elements of a caller's
//!   storage that only this vector uses while it lives, the first `len` of them
//!   initialised (a vector over storage); and `cap` is at most every column's capacity.
//!   Only this module's code changes the columns, `len` or `cap`, and it restores C1
//!   before anything can panic.
//! - [`ColumnList`] is sealed: its functions on the columns are hidden, those that rely on
//!   C1 are `unsafe`; the safe API is [`ColumnVec`]'s, which checks every row number
//!   against `len`.
//! - Dropping a `ColumnVec` drops its columns, each as the `Vec` it is: if a destructor
//!   panics, the rest of its column and the later columns are still dropped (as a `Vec`
//!   of structs drops the other fields).
//! - **Over a caller's storage** (no allocator): a `ColumnVec<L, Fixed<'s>>` keeps its
//!   columns in a [`ColumnStorage<L, N>`] borrowed for `'s`: an array of `N` elements
//!   per column, each column's pointer into its array and `cap` set to `N`
//!   ([`in_storage`](ColumnVec::in_storage)). Everything but growth is the same code;
//!   a push past `N` panics and [`try_push`](ColumnVec::try_push) hands the row back.
//!   [`in_bytes`](ColumnVec::in_bytes) cuts the columns from a caller's bytes instead,
//!   one after another, each aligned for its type (what a `SoaStorage` is made of).
//!   The memory parameter ([`Memory`]: [`Heap`] or [`Fixed`]) is what keeps the vector
//!   from outliving the storage: `Fixed<'s>` carries the borrow in the vector's type,
//!   so no code, a hand-written `SoaRow` impl included, can keep the vector past `'s`,
//!   and its drop, which drops the rows in the storage, comes before the storage's end
//!   (the drop check sees `Fixed`'s). A heap vector and one over storage are different
//!   types, so `mem::swap` cannot trade their columns. Dropping one drops its rows
//!   (`drop_in_place` over each column's rows, as truncation does) and frees nothing.
//! - The drop check: a `ColumnVec` has a `Drop` impl (its columns do not know their
//!   length), and stable Rust cannot say that it only drops its elements (`Vec`'s
//!   `#[may_dangle]`), so what its rows borrow must outlive it, as for a
//!   [`Pool`](crate::Pool). With a `Vec` per column, rows that borrowed without a
//!   destructor of their own could be dropped after what they borrowed.
//!
//! # Cost
//!
//! A push is one capacity test, a write per column and one length store; a read of a
//! row, one bounds test. Growing a `ColumnVec` grows every column, as separate `Vec`s
//! would. Over storage, the rows are `N` per column in the caller's memory and the
//! vector is the same four-plus-one words per column as on the heap.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::marker::PhantomData;
#[cfg(feature = "alloc")]
use core::mem::ManuallyDrop;
use core::mem::MaybeUninit;
use core::ptr::{self, NonNull};
use core::{fmt, slice};

use crate::error::AllocError;
use crate::pool::{Fixed, Heap, Memory};

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
    /// The columns: a buffer per element type, without a length (the `ColumnVec`'s is
    /// every column's).
    #[doc(hidden)]
    type Raw;
    /// `N` elements of each column's type, uninitialised: a [`ColumnStorage`]'s memory.
    #[doc(hidden)]
    type Arrays<const N: usize>;
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

    /// Empty columns with room for `capacity` rows each.
    #[cfg(feature = "alloc")]
    #[doc(hidden)]
    fn raw_with_capacity(capacity: usize) -> Self::Raw;

    /// Empty columns over `arrays`, room for `N` rows each.
    ///
    /// # Safety
    ///
    /// `arrays` is valid for reads and writes for as long as the columns are used, and
    /// nothing else uses it meanwhile.
    #[doc(hidden)]
    unsafe fn raw_fixed<const N: usize>(arrays: *mut Self::Arrays<N>) -> Self::Raw;

    /// Empty columns of room for `rows` elements each, cut from the bytes
    /// `base + at .. base + end` in list order, each aligned for its type (a column of
    /// a zero-sized type takes no bytes); `None` if they do not fit. Only computes
    /// pointers: using them needs the bytes to be the caller's.
    #[doc(hidden)]
    fn raw_carve(base: *mut u8, at: usize, end: usize, rows: usize) -> Option<Self::Raw>;

    /// The smallest capacity of the columns (`usize::MAX` with none).
    #[doc(hidden)]
    fn raw_capacity(raw: &Self::Raw) -> usize;

    /// `Vec::reserve(additional)` on every column.
    ///
    /// # Safety
    ///
    /// Every column holds `len` elements.
    #[cfg(feature = "alloc")]
    #[doc(hidden)]
    unsafe fn raw_reserve(raw: &mut Self::Raw, len: usize, additional: usize);

    /// `Vec::try_reserve(additional)` on every column, up to the first error; the columns
    /// already grown stay grown.
    ///
    /// # Safety
    ///
    /// Every column holds `len` elements.
    #[cfg(feature = "alloc")]
    #[doc(hidden)]
    unsafe fn raw_try_reserve(
        raw: &mut Self::Raw,
        len: usize,
        additional: usize,
    ) -> Result<(), AllocError>;

    /// `Vec::shrink_to_fit` on every column.
    ///
    /// # Safety
    ///
    /// Every column holds `len` elements.
    #[cfg(feature = "alloc")]
    #[doc(hidden)]
    unsafe fn raw_shrink_to_fit(raw: &mut Self::Raw, len: usize);

    /// Drops the elements from `new_len` on in every column (as `Vec::truncate(new_len)`,
    /// on either kind of memory); the later columns are truncated even if a destructor in
    /// an earlier one panics.
    ///
    /// # Safety
    ///
    /// Every column holds `len` elements, and the caller records `new_len` (at most
    /// `len`) as their length before the call: a destructor may panic.
    #[doc(hidden)]
    unsafe fn raw_truncate(raw: &mut Self::Raw, len: usize, new_len: usize);

    /// Drops every column: its elements and its buffer; the later columns are dropped
    /// even if a destructor in an earlier one panics.
    ///
    /// # Safety
    ///
    /// Every column holds `len` elements, and the columns are not used again.
    #[cfg(feature = "alloc")]
    #[doc(hidden)]
    unsafe fn raw_drop(raw: &mut Self::Raw, len: usize);

    /// Writes `value`'s fields as row `len`; the caller then counts it.
    ///
    /// # Safety
    ///
    /// Every column holds `len` elements and has room for more.
    #[doc(hidden)]
    unsafe fn raw_push(raw: &mut Self::Raw, len: usize, value: Self);

    /// Takes the last row, `len - 1`, out.
    ///
    /// # Safety
    ///
    /// Every column's length is `len`, and `len > 0`.
    #[doc(hidden)]
    unsafe fn raw_pop(raw: &mut Self::Raw, len: usize) -> Self;

    /// Takes row `row` out; the last row moves into its place.
    ///
    /// # Safety
    ///
    /// Every column's length is `len`, and `row < len`.
    #[doc(hidden)]
    unsafe fn raw_swap_remove(raw: &mut Self::Raw, row: usize, len: usize) -> Self;

    /// References to row `row`'s fields.
    ///
    /// # Safety
    ///
    /// `row` is below every column's length.
    #[doc(hidden)]
    unsafe fn raw_get<'a>(raw: &'a Self::Raw, row: usize) -> Self::Refs<'a>
    where
        Self: 'a;

    /// Mutable references to row `row`'s fields.
    ///
    /// # Safety
    ///
    /// `row` is below every column's length.
    #[doc(hidden)]
    unsafe fn raw_get_mut<'a>(raw: &'a mut Self::Raw, row: usize) -> Self::Muts<'a>
    where
        Self: 'a;

    /// Every column as a slice of `len` elements.
    ///
    /// # Safety
    ///
    /// Every column's length is `len`.
    #[doc(hidden)]
    unsafe fn raw_slices<'a>(raw: &'a Self::Raw, len: usize) -> Self::Slices<'a>
    where
        Self: 'a;

    /// Every column as a mutable slice of `len` elements.
    ///
    /// # Safety
    ///
    /// Every column's length is `len`.
    #[doc(hidden)]
    unsafe fn raw_slices_mut<'a>(raw: &'a mut Self::Raw, len: usize) -> Self::SlicesMut<'a>
    where
        Self: 'a;
}

impl ColumnList for () {
    type Raw = ();
    type Arrays<const N: usize> = ();
    type Refs<'a> = ();
    type Muts<'a> = ();
    type Slices<'a> = ();
    type SlicesMut<'a> = ();

    #[cfg(feature = "alloc")]
    #[inline]
    fn raw_with_capacity(_: usize) {}
    #[inline]
    unsafe fn raw_fixed<const N: usize>(_: *mut ()) {}
    #[inline]
    fn raw_carve(_: *mut u8, _: usize, _: usize, _: usize) -> Option<()> {
        Some(())
    }
    #[inline]
    fn raw_capacity((): &()) -> usize {
        usize::MAX
    }
    #[cfg(feature = "alloc")]
    #[inline]
    unsafe fn raw_reserve((): &mut (), _: usize, _: usize) {}
    #[cfg(feature = "alloc")]
    #[inline]
    unsafe fn raw_try_reserve((): &mut (), _: usize, _: usize) -> Result<(), AllocError> {
        Ok(())
    }
    #[cfg(feature = "alloc")]
    #[inline]
    unsafe fn raw_shrink_to_fit((): &mut (), _: usize) {}
    #[inline]
    unsafe fn raw_truncate((): &mut (), _: usize, _: usize) {}
    #[cfg(feature = "alloc")]
    #[inline]
    unsafe fn raw_drop((): &mut (), _: usize) {}
    #[inline]
    unsafe fn raw_push((): &mut (), _: usize, (): ()) {}
    #[inline]
    unsafe fn raw_pop((): &mut (), _: usize) {}
    #[inline]
    unsafe fn raw_swap_remove((): &mut (), _: usize, _: usize) {}
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
}

/// One column's buffer: the parts of a `Vec<H>` but its length, which the
/// [`ColumnVec`] keeps once for every column (C1), or a pointer into a caller's
/// [`ColumnStorage`] and its `N`. Not for use outside the crate (a
/// [`ColumnList::Raw`] part, public only as the trait needs).
#[doc(hidden)]
pub struct RawColumn<H> {
    ptr: NonNull<H>,
    cap: usize,
    /// The column owns its elements (as `Vec<H>` does).
    owns: PhantomData<H>,
}

// SAFETY: a `RawColumn<H>` owns its elements as the `Vec<H>` it is the parts of (C1),
// so it may move to or be shared with another thread exactly when `H` may.
unsafe impl<H: Send> Send for RawColumn<H> {}
// SAFETY: as for `Send`: through `&RawColumn<H>` only `&H`s are reached.
unsafe impl<H: Sync> Sync for RawColumn<H> {}

impl<H> fmt::Debug for RawColumn<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RawColumn").field("capacity", &self.cap).finish_non_exhaustive()
    }
}

impl<H> RawColumn<H> {
    /// The `N` elements of `array`, a caller's storage.
    ///
    /// # Safety
    ///
    /// `array` points to a live array (so it is non-null).
    unsafe fn fixed<const N: usize>(array: *mut [MaybeUninit<H>; N]) -> Self {
        // SAFETY: the caller's pointer is to a live array, so non-null.
        let ptr = unsafe { NonNull::new_unchecked(array.cast::<H>()) };
        RawColumn { ptr, cap: N, owns: PhantomData }
    }

    /// The buffer of the empty `vec`.
    #[cfg(feature = "alloc")]
    fn from_empty(vec: Vec<H>) -> Self {
        debug_assert!(vec.is_empty(), "a column starts without rows");
        let mut vec = ManuallyDrop::new(vec);
        let cap = vec.capacity();
        // SAFETY: a `Vec`'s pointer is never null (dangling when it has no allocation).
        let ptr = unsafe { NonNull::new_unchecked(vec.as_mut_ptr()) };
        RawColumn { ptr, cap, owns: PhantomData }
    }

    /// Runs `f` on the `Vec<H>` this column is the parts of, with `len` elements, and
    /// takes its pointer and capacity back afterwards, also when `f` panics (its length
    /// is the caller's to keep).
    ///
    /// # Safety
    ///
    /// The column is a heap column holding `len` elements (C1), and `f` leaves the `Vec`
    /// with the length the caller will record as the `ColumnVec`'s.
    #[cfg(feature = "alloc")]
    unsafe fn with_vec<R>(&mut self, len: usize, f: impl FnOnce(&mut Vec<H>) -> R) -> R {
        /// Takes the `Vec`'s parts back into the column when dropped.
        struct PutBack<'c, H> {
            column: &'c mut RawColumn<H>,
            vec: ManuallyDrop<Vec<H>>,
        }
        impl<H> Drop for PutBack<'_, H> {
            fn drop(&mut self) {
                // SAFETY: as in `from_empty`: a `Vec`'s pointer is never null.
                self.column.ptr = unsafe { NonNull::new_unchecked(self.vec.as_mut_ptr()) };
                self.column.cap = self.vec.capacity();
            }
        }
        // SAFETY: `ptr` and `cap` are the parts of a `Vec<H>` this column owns, holding
        // `len` elements (the caller's guarantee); it is rebuilt once, and its parts
        // taken back by `PutBack` rather than freed.
        let vec = unsafe { Vec::from_raw_parts(self.ptr.as_ptr(), len, self.cap) };
        let mut put_back = PutBack { column: self, vec: ManuallyDrop::new(vec) };
        f(&mut put_back.vec)
    }

    #[inline]
    fn as_ptr(&self) -> *const H {
        self.ptr.as_ptr()
    }

    #[inline]
    fn as_mut_ptr(&mut self) -> *mut H {
        self.ptr.as_ptr()
    }
}

impl<H, T: ColumnList> ColumnList for (H, T) {
    type Raw = (RawColumn<H>, T::Raw);
    type Arrays<const N: usize> = ([MaybeUninit<H>; N], T::Arrays<N>);
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

    #[cfg(feature = "alloc")]
    #[inline]
    fn raw_with_capacity(capacity: usize) -> Self::Raw {
        (RawColumn::from_empty(Vec::with_capacity(capacity)), T::raw_with_capacity(capacity))
    }

    #[inline]
    unsafe fn raw_fixed<const N: usize>(arrays: *mut Self::Arrays<N>) -> Self::Raw {
        // SAFETY: the caller's pointer is valid for the arrays: this is a place in them,
        // and its address (no reference is made) a live array.
        let head = unsafe { &raw mut (*arrays).0 };
        // SAFETY: as for `head`: the arrays of the other columns.
        let tail = unsafe { &raw mut (*arrays).1 };
        // SAFETY: `head` is a live array of the caller's storage.
        let head = unsafe { RawColumn::fixed(head) };
        // SAFETY: the caller's guarantee, for the arrays of the other columns.
        (head, unsafe { T::raw_fixed::<N>(tail) })
    }

    fn raw_carve(base: *mut u8, at: usize, end: usize, rows: usize) -> Option<Self::Raw> {
        let (ptr, next) = if size_of::<H>() == 0 {
            (NonNull::dangling(), at)
        } else {
            let pad = base.wrapping_add(at).addr().wrapping_neg() & (align_of::<H>() - 1);
            let start = at.checked_add(pad)?;
            let next = start.checked_add(rows.checked_mul(size_of::<H>())?)?;
            if next > end {
                return None;
            }
            (NonNull::new(base.wrapping_add(start).cast::<H>())?, next)
        };
        let head = RawColumn { ptr, cap: rows, owns: PhantomData };
        Some((head, T::raw_carve(base, next, end, rows)?))
    }

    #[inline]
    fn raw_capacity(raw: &Self::Raw) -> usize {
        raw.0.cap.min(T::raw_capacity(&raw.1))
    }

    #[cfg(feature = "alloc")]
    unsafe fn raw_reserve(raw: &mut Self::Raw, len: usize, additional: usize) {
        // SAFETY: the caller guarantees the length; `reserve` keeps it.
        unsafe { raw.0.with_vec(len, |v| v.reserve(additional)) };
        // SAFETY: the same guarantee, for the other columns.
        unsafe { T::raw_reserve(&mut raw.1, len, additional) };
    }

    #[cfg(feature = "alloc")]
    unsafe fn raw_try_reserve(
        raw: &mut Self::Raw,
        len: usize,
        additional: usize,
    ) -> Result<(), AllocError> {
        // SAFETY: the caller guarantees the length; `try_reserve` keeps it.
        unsafe { raw.0.with_vec(len, |v| v.try_reserve(additional)) }
            .map_err(|_| column_error::<H>(len.saturating_add(additional)))?;
        // SAFETY: the same guarantee, for the other columns.
        unsafe { T::raw_try_reserve(&mut raw.1, len, additional) }
    }

    #[cfg(feature = "alloc")]
    unsafe fn raw_shrink_to_fit(raw: &mut Self::Raw, len: usize) {
        // SAFETY: the caller guarantees the length; `shrink_to_fit` keeps it.
        unsafe { raw.0.with_vec(len, Vec::shrink_to_fit) };
        // SAFETY: the same guarantee, for the other columns.
        unsafe { T::raw_shrink_to_fit(&mut raw.1, len) };
    }

    unsafe fn raw_truncate(raw: &mut Self::Raw, len: usize, new_len: usize) {
        /// Truncates the later columns when this column's truncation ends, by a panic too.
        struct Rest<'r, T: ColumnList> {
            raw: &'r mut T::Raw,
            len: usize,
            new_len: usize,
        }
        impl<T: ColumnList> Drop for Rest<'_, T> {
            fn drop(&mut self) {
                // SAFETY: `raw_truncate`'s caller guarantees the other columns' length.
                unsafe { T::raw_truncate(self.raw, self.len, self.new_len) };
            }
        }
        let (head, tail) = raw;
        let _rest = Rest::<T> { raw: tail, len, new_len };
        // The elements cut off: from `new_len` (at most `len`, within the column) on.
        let cut =
            ptr::slice_from_raw_parts_mut(head.as_mut_ptr().wrapping_add(new_len), len - new_len);
        // No `Vec` is rebuilt: the column may be a caller's storage. `drop_in_place` on a
        // slice drops the rest of it if one destructor panics, as `Vec::truncate` does.
        // SAFETY: the caller guarantees the column holds `len` initialised elements and
        // records `new_len` as the length: these are no longer counted, dropped once here.
        unsafe { ptr::drop_in_place(cut) };
    }

    #[cfg(feature = "alloc")]
    unsafe fn raw_drop(raw: &mut Self::Raw, len: usize) {
        /// Drops the later columns when this column's drop ends, by a panic too.
        struct Rest<'r, T: ColumnList> {
            raw: &'r mut T::Raw,
            len: usize,
        }
        impl<T: ColumnList> Drop for Rest<'_, T> {
            fn drop(&mut self) {
                // SAFETY: `raw_drop`'s caller guarantees the other columns' length, and
                // drops them once, here.
                unsafe { T::raw_drop(self.raw, self.len) };
            }
        }
        let (head, tail) = raw;
        let _rest = Rest::<T> { raw: tail, len };
        // SAFETY: the column is the parts of a `Vec<H>` of `len` elements (the caller's
        // guarantee), rebuilt once and dropped: its elements, then its buffer, as a
        // `Vec` drops them (the rest of them too if one destructor panics).
        drop(unsafe { Vec::from_raw_parts(head.as_mut_ptr(), len, head.cap) });
    }

    #[inline]
    unsafe fn raw_push(raw: &mut Self::Raw, len: usize, value: Self) {
        let (head, tail) = raw;
        // SAFETY: the caller guarantees this column's length is `len` and its capacity
        // above it: the place is spare capacity inside the allocation, written once,
        // then counted by the caller's length.
        unsafe { head.as_mut_ptr().wrapping_add(len).write(value.0) };
        // SAFETY: the same guarantee, for the other columns.
        unsafe { T::raw_push(tail, len, value.1) };
    }

    #[inline]
    unsafe fn raw_pop(raw: &mut Self::Raw, len: usize) -> Self {
        let (head, tail) = raw;
        // SAFETY: the caller guarantees the length is `len > 0`, and lowers it: the last
        // element is read out once and no longer counted.
        let value = unsafe { head.as_ptr().wrapping_add(len - 1).read() };
        // SAFETY: the same guarantee, for the other columns.
        (value, unsafe { T::raw_pop(tail, len) })
    }

    #[inline]
    unsafe fn raw_swap_remove(raw: &mut Self::Raw, row: usize, len: usize) -> Self {
        let (head, tail) = raw;
        let last = len - 1;
        let base = head.as_mut_ptr();
        // SAFETY: the caller guarantees `row < len`, the length: row `row` holds a value,
        // read out once here.
        let value = unsafe { base.wrapping_add(row).read() };
        if row != last {
            // SAFETY: rows `last` and `row` differ and are below the length; the last
            // row's value moves into the hole and is no longer counted (the caller
            // lowers the length).
            unsafe { ptr::copy_nonoverlapping(base.wrapping_add(last), base.wrapping_add(row), 1) };
        }
        // SAFETY: the same guarantee, for the other columns.
        (value, unsafe { T::raw_swap_remove(tail, row, len) })
    }

    #[inline]
    unsafe fn raw_get<'a>(raw: &'a Self::Raw, row: usize) -> Self::Refs<'a>
    where
        Self: 'a,
    {
        // SAFETY: the caller guarantees `row` is below the length: an element, borrowed
        // for as long as the column is.
        let head = unsafe { &*raw.0.as_ptr().wrapping_add(row) };
        // SAFETY: the same guarantee, for the other columns.
        (head, unsafe { T::raw_get(&raw.1, row) })
    }

    #[inline]
    unsafe fn raw_get_mut<'a>(raw: &'a mut Self::Raw, row: usize) -> Self::Muts<'a>
    where
        Self: 'a,
    {
        let (head, tail) = raw;
        // SAFETY: the caller guarantees `row` is below the length: an element, borrowed
        // mutably for as long as the column is, so nothing else reaches it.
        let head = unsafe { &mut *head.as_mut_ptr().wrapping_add(row) };
        // SAFETY: the same guarantee, for the other columns, borrowed apart from this one.
        (head, unsafe { T::raw_get_mut(tail, row) })
    }

    #[inline]
    unsafe fn raw_slices<'a>(raw: &'a Self::Raw, len: usize) -> Self::Slices<'a>
    where
        Self: 'a,
    {
        // SAFETY: the caller guarantees the length is `len`: the column's elements, with
        // the length every column shares (so the compiler sees one length for all).
        let head = unsafe { slice::from_raw_parts(raw.0.as_ptr(), len) };
        // SAFETY: the same guarantee, for the other columns.
        (head, unsafe { T::raw_slices(&raw.1, len) })
    }

    #[inline]
    unsafe fn raw_slices_mut<'a>(raw: &'a mut Self::Raw, len: usize) -> Self::SlicesMut<'a>
    where
        Self: 'a,
    {
        let (head, tail) = raw;
        // SAFETY: as `raw_slices`; the slice is the only reference to the column's
        // elements while it is borrowed mutably.
        let head = unsafe { slice::from_raw_parts_mut(head.as_mut_ptr(), len) };
        // SAFETY: the same guarantee, for the other columns, borrowed apart from this one.
        (head, unsafe { T::raw_slices_mut(tail, len) })
    }
}

/// Rows stored as one column per field: a buffer per column and one length for all, so
/// a push tests the capacity once and a row read tests its bounds once, whatever the
/// number of columns.
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
pub struct ColumnVec<L: ColumnList, M: Memory = Heap> {
    raw: L::Raw,
    /// Every column's length (C1).
    len: usize,
    /// At most every column's capacity (C1).
    cap: usize,
    /// Where the columns are: [`Heap`], or [`Fixed`] with the storage's borrow (see the
    /// module docs).
    memory: PhantomData<M>,
}

#[cfg(feature = "alloc")]
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
        ColumnVec { raw, len: 0, cap, memory: PhantomData }
    }
}

impl<'s, L: ColumnList> ColumnVec<L, Fixed<'s>> {
    /// No rows, in the caller's `storage`: room for `N` rows, never more, and no
    /// allocator call, ever. The vector's type carries the borrow, so it cannot outlive
    /// the storage; dropping it drops its rows and leaves the storage to be used again.
    ///
    /// # Examples
    ///
    /// A log of readings, one column per field, on the stack:
    ///
    /// ```
    /// use arena_kit::pool::soa::{ColumnStorage, ColumnVec};
    ///
    /// let mut storage = ColumnStorage::<(u32, (f32, ())), 3>::new();
    /// let mut log = ColumnVec::in_storage(&mut storage);
    /// for (at, celsius) in [(10, 21.5), (20, 22.0), (30, 21.0)] {
    ///     log.push((at, (celsius, ())));
    /// }
    /// assert_eq!(log.try_push((40, (20.5, ()))), Err((40, (20.5, ())))); // full
    ///
    /// let (_, (temperatures, ())) = log.slices();
    /// assert_eq!(temperatures.iter().copied().fold(f32::MIN, f32::max), 22.0);
    /// ```
    ///
    /// The vector cannot outlive its storage:
    ///
    /// ```compile_fail,E0597
    /// use arena_kit::pool::soa::{ColumnStorage, ColumnVec};
    ///
    /// let log = {
    ///     let mut storage = ColumnStorage::<(u32, ()), 4>::new();
    ///     ColumnVec::in_storage(&mut storage)
    /// };
    /// drop(log);
    /// ```
    #[must_use]
    pub fn in_storage<const N: usize>(storage: &'s mut ColumnStorage<L, N>) -> Self {
        // SAFETY: the arrays are borrowed uniquely for `'s`, which the vector's type
        // carries (`Fixed<'s>`): valid, and used by nothing else, while it lives (C1).
        let raw = unsafe { L::raw_fixed::<N>(storage.arrays.as_mut_ptr()) };
        ColumnVec { raw, len: 0, cap: N, memory: PhantomData }
    }

    /// No rows, with room for `rows` in every column, cut from the caller's `bytes`: a
    /// column after another, each aligned for its type, in list order. `None` if the
    /// bytes cannot hold them. The vector's type carries the borrow, as
    /// [`in_storage`](Self::in_storage)'s does; a buffer of any type seen as bytes will
    /// do (a `SoaStorage` is one).
    ///
    /// # Examples
    ///
    /// ```
    /// use core::mem::MaybeUninit;
    /// use arena_kit::pool::soa::ColumnVec;
    ///
    /// let mut bytes = [MaybeUninit::uninit(); 64];
    /// let mut rows = ColumnVec::<(u8, (u32, ())), _>::in_bytes(&mut bytes, 8).unwrap();
    /// rows.push((1, (10, ())));
    /// assert_eq!((rows.capacity(), rows.slices().1.0), (8, &[10][..]));
    ///
    /// let mut few = [MaybeUninit::uninit(); 8];
    /// assert!(ColumnVec::<(u8, (u32, ())), _>::in_bytes(&mut few, 8).is_none());
    /// ```
    #[must_use]
    pub fn in_bytes(bytes: &'s mut [MaybeUninit<u8>], rows: usize) -> Option<Self> {
        let (base, end) = (bytes.as_mut_ptr().cast::<u8>(), bytes.len());
        // C1 for a vector over storage: each column is `rows` elements of `bytes`, apart
        // from the others, borrowed uniquely for `'s`, which `Fixed<'s>` carries.
        let raw = L::raw_carve(base, 0, end, rows)?;
        Some(ColumnVec { raw, len: 0, cap: rows, memory: PhantomData })
    }
}

impl<L: ColumnList, M: Memory> ColumnVec<L, M> {
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

    /// How many rows fit without growing: the smallest column's capacity (over
    /// storage, its `N`).
    #[inline]
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// Grows every column of a heap vector for `additional` more rows.
    #[cfg(feature = "alloc")]
    #[cold]
    #[inline(never)]
    fn grow(&mut self, additional: usize) {
        debug_assert!(!M::FIXED, "only a heap vector grows");
        // Only a list of no columns can get here past `usize::MAX` rows; a `Vec` panics
        // on its own.
        assert!(self.len.checked_add(additional).is_some(), "capacity overflow");
        // SAFETY: every column is a heap column holding `len` elements (C1).
        unsafe { L::raw_reserve(&mut self.raw, self.len, additional) };
        self.cap = L::raw_capacity(&self.raw);
    }

    /// Tries to grow every column of a heap vector for `additional` more rows.
    #[cfg(feature = "alloc")]
    #[cold]
    #[inline(never)]
    fn try_grow(&mut self, additional: usize) -> Result<(), AllocError> {
        debug_assert!(!M::FIXED, "only a heap vector grows");
        let result = match self.len.checked_add(additional) {
            // SAFETY: every column is a heap column holding `len` elements (C1).
            Some(_) => unsafe { L::raw_try_reserve(&mut self.raw, self.len, additional) },
            None => Err(AllocError::SizeOverflow),
        };
        self.cap = L::raw_capacity(&self.raw);
        result
    }

    /// Room for `additional` more rows, past the capacity: a heap vector grows, one over
    /// storage panics.
    #[cold]
    #[inline(never)]
    #[track_caller]
    fn grow_or_fail(&mut self, additional: usize) {
        assert!(
            !M::FIXED,
            "arena-kit: a ColumnVec over storage of {} rows has no room for {additional} more",
            self.cap
        );
        #[cfg(feature = "alloc")]
        self.grow(additional);
    }

    /// Room for `additional` more rows, past the capacity, if a heap vector can grow.
    #[cold]
    #[inline(never)]
    #[cfg_attr(
        not(feature = "alloc"),
        expect(unused_variables, reason = "without `alloc` a vector never grows")
    )]
    fn try_grow_or_fail(&mut self, additional: usize) -> Result<(), AllocError> {
        if M::FIXED {
            return Err(AllocError::CapacityExceeded { max: self.cap });
        }
        #[cfg(feature = "alloc")]
        return self.try_grow(additional);
        #[cfg(not(feature = "alloc"))]
        unreachable!("without `alloc` every ColumnVec is over storage")
    }

    /// Makes room for `additional` more rows in every column (as `Vec::reserve` on the
    /// heap; over storage, checks that they fit).
    ///
    /// # Panics
    ///
    /// Over storage, if they do not fit; on the heap, if the number of rows would
    /// overflow `usize`, or as `Vec::reserve`.
    #[inline]
    #[track_caller]
    pub fn reserve(&mut self, additional: usize) {
        if self.cap - self.len < additional {
            self.grow_or_fail(additional);
        }
    }

    /// Makes room for `additional` more rows in every column, or says why not (as
    /// `Vec::try_reserve` on the heap).
    ///
    /// # Errors
    ///
    /// Over storage, [`AllocError::CapacityExceeded`] if they do not fit. On the heap,
    /// [`AllocError::SizeOverflow`] past `usize::MAX` rows or `isize::MAX` bytes, and
    /// [`AllocError::OutOfMemory`] (with the size of the column that could not grow to
    /// `len + additional` rows) if the allocator refuses; columns already grown stay
    /// grown.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::AllocError;
    /// use arena_kit::pool::soa::{ColumnStorage, ColumnVec};
    ///
    /// let mut rows = ColumnVec::<(u8, ())>::new();
    /// assert_eq!(rows.try_reserve(usize::MAX), Err(AllocError::SizeOverflow));
    /// assert!(rows.try_reserve(8).is_ok());
    ///
    /// let mut storage = ColumnStorage::<(u8, ()), 4>::new();
    /// let mut rows = ColumnVec::in_storage(&mut storage);
    /// assert!(rows.try_reserve(4).is_ok());
    /// assert_eq!(rows.try_reserve(5), Err(AllocError::CapacityExceeded { max: 4 }));
    /// ```
    #[inline]
    pub fn try_reserve(&mut self, additional: usize) -> Result<(), AllocError> {
        if self.cap - self.len >= additional {
            return Ok(());
        }
        self.try_grow_or_fail(additional)
    }

    /// Gives unused capacity back in every column of a heap vector (over storage,
    /// nothing: the storage is the caller's).
    pub fn shrink_to_fit(&mut self) {
        if !M::FIXED {
            // SAFETY: every column is a heap column holding `len` elements (C1).
            #[cfg(feature = "alloc")]
            unsafe {
                L::raw_shrink_to_fit(&mut self.raw, self.len);
            }
            self.cap = L::raw_capacity(&self.raw);
        }
    }

    /// Appends `row` as the last row, one field per column.
    ///
    /// # Panics
    ///
    /// Over storage, if it is full (see [`try_push`](Self::try_push)); on the heap, as
    /// `Vec::push`, if the columns must grow and cannot.
    #[inline]
    #[track_caller]
    pub fn push(&mut self, row: L) {
        if self.len == self.cap {
            self.grow_or_fail(1);
        }
        // SAFETY: every column's length is `len` (C1), and its capacity at least `cap`,
        // which is above `len`.
        unsafe { L::raw_push(&mut self.raw, self.len, row) };
        self.len += 1;
    }

    /// Appends `row` as the last row, or hands it back: over storage when it is full,
    /// on the heap when the columns cannot grow.
    ///
    /// # Errors
    ///
    /// `row` itself, unchanged, when there is no room for it.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::pool::soa::{ColumnStorage, ColumnVec};
    ///
    /// let mut storage = ColumnStorage::<(char, ()), 1>::new();
    /// let mut rows = ColumnVec::in_storage(&mut storage);
    /// assert_eq!(rows.try_push(('a', ())), Ok(()));
    /// assert_eq!(rows.try_push(('b', ())), Err(('b', ())));
    /// ```
    #[inline]
    pub fn try_push(&mut self, row: L) -> Result<(), L> {
        if self.len == self.cap && self.try_grow_or_fail(1).is_err() {
            return Err(row);
        }
        // SAFETY: as in `push`: room was made above.
        unsafe { L::raw_push(&mut self.raw, self.len, row) };
        self.len += 1;
        Ok(())
    }

    /// Takes the last row out, if any.
    #[inline]
    pub fn pop(&mut self) -> Option<L> {
        let len = self.len;
        if len == 0 {
            return None;
        }
        self.len = len - 1;
        // SAFETY: every column's length was `len` (C1), which is above 0; they are now
        // one shorter, as `self.len`.
        Some(unsafe { L::raw_pop(&mut self.raw, len) })
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
        self.len = len - 1;
        // SAFETY: every column's length was `len` (C1) and `row < len`; they are now one
        // shorter, as `self.len`.
        unsafe { L::raw_swap_remove(&mut self.raw, row, len) }
    }

    /// Drops every row past the first `len` (none if there are fewer).
    pub fn truncate(&mut self, len: usize) {
        let old = self.len;
        if len < old {
            // Lowered first, and every column is truncated even if a destructor panics,
            // so the lengths agree again (C1) whatever happens.
            self.len = len;
            // SAFETY: every column held `old` elements (C1); `len` is recorded.
            unsafe { L::raw_truncate(&mut self.raw, old, len) };
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
        // SAFETY: `row < len`, every column's length (C1).
        (row < self.len).then(|| unsafe { L::raw_get(&self.raw, row) })
    }

    /// Row `row`, a mutable reference per column, or `None` if out of bounds.
    #[inline]
    #[must_use]
    pub fn get_mut(&mut self, row: usize) -> Option<L::Muts<'_>> {
        if row < self.len {
            // SAFETY: `row < len`, every column's length (C1).
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
        match self.get(row) {
            Some(refs) => refs,
            None => out_of_bounds(row, self.len),
        }
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
        let len = self.len;
        match self.get_mut(row) {
            Some(muts) => muts,
            None => out_of_bounds(row, len),
        }
    }

    /// Every column as a shared slice of `len()` elements.
    #[inline]
    #[must_use]
    pub fn slices(&self) -> L::Slices<'_> {
        // SAFETY: every column's length is `len` (C1).
        unsafe { L::raw_slices(&self.raw, self.len) }
    }

    /// Every column as a mutable slice of `len()` elements.
    #[inline]
    #[must_use]
    pub fn slices_mut(&mut self) -> L::SlicesMut<'_> {
        // SAFETY: every column's length is `len` (C1).
        unsafe { L::raw_slices_mut(&mut self.raw, self.len) }
    }
}

impl<H: Copy, T: ColumnList, M: Memory> ColumnVec<(H, T), M> {
    /// [`swap_remove`](Self::swap_remove), and the first column's element of the row
    /// that moved into `row`: `None` if `row` was the last row. For a first column that
    /// names the rows (as the slot column of a [`SoaPool`](crate::SoaPool) does), what
    /// the swap moved is known without a second lookup.
    ///
    /// # Panics
    ///
    /// If `row` is out of bounds.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::pool::soa::ColumnVec;
    ///
    /// let mut rows: ColumnVec<(u32, (char, ()))> = ColumnVec::new();
    /// rows.push((10, ('a', ())));
    /// rows.push((11, ('b', ())));
    /// assert_eq!(rows.swap_remove_and_head(0), ((10, ('a', ())), Some(11)));
    /// assert_eq!(rows.swap_remove_and_head(0), ((11, ('b', ())), None));
    /// ```
    #[inline]
    #[track_caller]
    pub fn swap_remove_and_head(&mut self, row: usize) -> ((H, T), Option<H>) {
        let removed = self.swap_remove(row);
        // The head column holds `self.len` elements (C1), so this bounds test is the
        // test of whether a row moved.
        (removed, self.slices().0.get(row).copied())
    }
}

impl<L: ColumnList, M: Memory> Drop for ColumnVec<L, M> {
    fn drop(&mut self) {
        if M::FIXED {
            // SAFETY: every column holds `len` elements (C1), dropped once, here; the
            // storage keeps its memory.
            unsafe { L::raw_truncate(&mut self.raw, self.len, 0) };
        } else {
            // SAFETY: every column is a heap column holding `len` elements (C1), and is
            // dropped once, here. (Without `alloc` no heap vector exists.)
            #[cfg(feature = "alloc")]
            unsafe {
                L::raw_drop(&mut self.raw, self.len);
            }
        }
    }
}

#[cfg(feature = "alloc")]
impl<L: ColumnList> Default for ColumnVec<L> {
    fn default() -> Self {
        Self::new()
    }
}

impl<L: ColumnList, M: Memory> fmt::Debug for ColumnVec<L, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ColumnVec")
            .field("len", &self.len)
            .field("capacity", &self.cap)
            .finish_non_exhaustive()
    }
}

/// Room for `N` rows of a [`ColumnVec`] in memory the caller owns: an array of `N`
/// elements per column, uninitialised until rows are pushed. A local, a field, or a
/// `static` (through a crate such as `static_cell`, which lends a `&'static mut`
/// once); [`ColumnVec::in_storage`] keeps its rows here, with no allocator.
///
/// # Cost
///
/// `N` elements of each column's type, each array aligned as its type; nothing else.
/// Making one writes nothing.
///
/// # Examples
///
/// ```
/// use arena_kit::pool::soa::{ColumnStorage, ColumnVec};
///
/// type Samples = ColumnStorage<(u16, (i8, ())), 64>;
/// const _: () = assert!(Samples::CAPACITY == 64);
///
/// let mut storage = Samples::new();
/// let mut samples = ColumnVec::in_storage(&mut storage);
/// samples.push((1, (-3, ())));
/// assert_eq!(samples.capacity(), 64);
/// ```
pub struct ColumnStorage<L: ColumnList, const N: usize> {
    /// The arrays; every element of them is a `MaybeUninit`, so uninitialised memory
    /// is a valid value.
    arrays: MaybeUninit<L::Arrays<N>>,
}

impl<L: ColumnList, const N: usize> ColumnStorage<L, N> {
    /// `N`, as a constant: the rows a vector over this storage holds at once.
    pub const CAPACITY: usize = N;

    /// Room for `N` rows; `const`, so it can initialise a `static`.
    #[must_use]
    pub const fn new() -> Self {
        ColumnStorage { arrays: MaybeUninit::uninit() }
    }

    /// `N`: the rows a vector over this storage holds at once.
    #[must_use]
    pub const fn capacity(&self) -> usize {
        N
    }
}

impl<L: ColumnList, const N: usize> Default for ColumnStorage<L, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<L: ColumnList, const N: usize> fmt::Debug for ColumnStorage<L, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ColumnStorage").field("capacity", &N).finish_non_exhaustive()
    }
}

/// The error for a column of `H` that could not grow to `rows` rows: the size it
/// needed, or an overflow if that size is past `isize::MAX` bytes.
#[cfg(feature = "alloc")]
fn column_error<H>(rows: usize) -> AllocError {
    match rows.checked_mul(size_of::<H>()) {
        Some(size) if size <= isize::MAX.unsigned_abs() => {
            AllocError::OutOfMemory { size, align: align_of::<H>() }
        }
        _ => AllocError::SizeOverflow,
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn out_of_bounds(row: usize, len: usize) -> ! {
    panic!("row {row} is out of bounds: the columns have {len} rows")
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use alloc::rc::Rc;
    use alloc::string::{String, ToString};
    use core::cell::Cell;

    use super::{ColumnStorage, ColumnVec};

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
        rows.push((noisy(true), (noisy(false), ()))); // row 3, whose drop panics
        let caught = std::panic::catch_unwind(core::panic::AssertUnwindSafe(|| rows.truncate(3)));
        assert!(caught.is_err());
        assert_eq!(drops.get(), 4, "both fields of the row cut off were dropped");
        assert_eq!((rows.len(), rows.slices().0.len(), rows.slices().1.0.len()), (3, 3, 3));
        let caught = std::panic::catch_unwind(core::panic::AssertUnwindSafe(|| drop(rows)));
        assert!(caught.is_err());
        assert_eq!(drops.get(), 10, "all six fields left were dropped");
    }

    #[test]
    fn over_storage_the_columns_fill_up_and_hand_rows_back() {
        let mut storage = ColumnStorage::<(String, (u16, ((), ()))), 3>::new();
        let mut rows = ColumnVec::in_storage(&mut storage);
        assert_eq!((rows.len(), rows.capacity()), (0, 3));
        for i in 0..3_u16 {
            assert!(rows.try_push((i.to_string(), (i, ((), ())))).is_ok());
        }
        let (name, (n, _)) = rows.try_push(("3".to_string(), (3, ((), ())))).unwrap_err();
        assert_eq!((name.as_str(), n), ("3", 3), "the row comes back whole");
        let (name, (n, _)) = rows.swap_remove(0);
        assert_eq!((name.as_str(), n), ("0", 0));
        let (names, (numbers, (units, ()))) = rows.slices();
        assert_eq!(
            (names, numbers, units.len()),
            (&["2".to_string(), "1".to_string()][..], &[2, 1][..], 2)
        );
        rows.push(("4".to_string(), (4, ((), ())))); // the freed room is used again
        *rows.row_mut(0).1.0 += 10;
        assert_eq!(rows.row(0).1.0, &12);
        assert_eq!(rows.pop().map(|(name, _)| name), Some("4".to_string()));
        rows.truncate(1);
        assert_eq!(rows.slices().0, ["2"]);
        rows.clear();
        assert!(rows.is_empty());
        assert_eq!(rows.capacity(), 3, "storage never grows nor shrinks");
    }

    #[test]
    #[should_panic(expected = "a ColumnVec over storage of 1 rows has no room for 1 more")]
    fn a_push_into_full_storage_panics() {
        let mut storage = ColumnStorage::<(u8, ()), 1>::new();
        let mut rows = ColumnVec::in_storage(&mut storage);
        rows.push((1, ()));
        rows.push((2, ()));
    }

    #[test]
    fn storage_of_no_rows_and_of_zero_sized_columns() {
        let mut none = ColumnStorage::<(u64, ()), 0>::new();
        let mut rows = ColumnVec::in_storage(&mut none);
        assert_eq!(rows.try_push((1, ())), Err((1, ())));
        let mut units = ColumnStorage::<((), ((), ())), 2>::new();
        let mut rows = ColumnVec::in_storage(&mut units);
        rows.push(((), ((), ())));
        rows.push(((), ((), ())));
        assert!(rows.try_push(((), ((), ()))).is_err(), "N bounds zero-sized rows too");
        assert_eq!(rows.slices().1.0.len(), 2);
    }

    #[test]
    #[cfg(feature = "std")]
    fn over_storage_every_field_is_dropped_once_and_the_storage_serves_again() {
        let drops = Rc::new(Cell::new(0));
        let noisy = |panics| Noisy(Rc::clone(&drops), panics);
        let mut storage = ColumnStorage::<(Noisy, (Noisy, ())), 4>::new();
        let mut rows = ColumnVec::in_storage(&mut storage);
        for i in 0..4 {
            rows.push((noisy(i == 2), (noisy(false), ())));
        }
        drop(rows.swap_remove(0)); // row 3 moves to row 0
        assert_eq!(drops.get(), 2);
        let caught = std::panic::catch_unwind(core::panic::AssertUnwindSafe(|| drop(rows)));
        assert!(caught.is_err(), "row 2's first field panics in its destructor");
        assert_eq!(drops.get(), 8, "all six fields left were dropped, none twice");

        // The storage is the caller's again: a second vector starts empty in it.
        let mut rows = ColumnVec::in_storage(&mut storage);
        assert!(rows.is_empty());
        rows.push((noisy(false), (noisy(false), ())));
        drop(rows);
        assert_eq!(drops.get(), 10);
    }

    #[test]
    fn a_forgotten_vector_leaves_its_storage_to_the_next() {
        let mut storage = ColumnStorage::<(u8, (char, ())), 2>::new();
        let mut rows = ColumnVec::in_storage(&mut storage);
        rows.push((1, ('a', ())));
        core::mem::forget(rows); // its row is leaked: never dropped, never read again
        let mut rows = ColumnVec::in_storage(&mut storage);
        assert!(rows.is_empty());
        rows.push((2, ('b', ())));
        rows.push((3, ('c', ())));
        assert_eq!(rows.slices().1.0, ['b', 'c']);
    }

    #[test]
    fn vectors_over_two_storages_swap_whole() {
        let (mut a, mut b) =
            (ColumnStorage::<(u8, ()), 2>::new(), ColumnStorage::<(u8, ()), 3>::new());
        let mut x = ColumnVec::in_storage(&mut a);
        let mut y = ColumnVec::in_storage(&mut b);
        x.push((1, ()));
        core::mem::swap(&mut x, &mut y);
        assert_eq!((x.len(), x.capacity(), y.len(), y.capacity()), (0, 3, 1, 2));
        assert_eq!(y.slices().0, [1]);
        x.push((2, ()));
        x.push((3, ()));
        x.push((4, ()));
        assert_eq!(x.slices().0, [2, 3, 4]);
    }

    #[test]
    fn columns_cut_from_bytes_are_aligned_apart_and_bounded() {
        let mut buf = [core::mem::MaybeUninit::<u8>::uninit(); 80];
        // An odd start: every column after the first needs padding.
        let bytes = &mut buf[1..];
        let mut rows = ColumnVec::<(u8, (u64, ((), (u16, ())))), _>::in_bytes(bytes, 5).unwrap();
        for i in 0..5_u8 {
            rows.push((i, (u64::from(i) << 40, ((), (u16::from(i) * 3, ())))));
        }
        assert!(rows.try_push((9, (9, ((), (9, ()))))).is_err(), "five rows, no more");
        let (a, (b, (units, (c, ())))) = rows.slices();
        assert_eq!((a.len(), units.len()), (5, 5));
        assert!(b.as_ptr().is_aligned() && c.as_ptr().is_aligned());
        let (a_end, b_start) = (a.as_ptr_range().end.addr(), b.as_ptr().addr());
        assert!(a_end <= b_start && b.as_ptr_range().end.addr() <= c.as_ptr().addr());
        assert_eq!(b[4], 4 << 40);
        assert_eq!(c, [0, 3, 6, 9, 12]);
        drop(rows);
        // Too few bytes for the rows asked: none is made.
        let mut small = [core::mem::MaybeUninit::<u8>::uninit(); 16];
        assert!(ColumnVec::<(u8, (u64, ())), _>::in_bytes(&mut small, 2).is_none());
        assert!(ColumnVec::<(u8, (u64, ())), _>::in_bytes(&mut small, 0).is_some());
        assert!(ColumnVec::<((), ()), _>::in_bytes(&mut [], usize::MAX).is_some());
        assert!(ColumnVec::<(u8, ()), _>::in_bytes(&mut small, usize::MAX).is_none());
    }
}
