//! [`SoaRow`]: how a struct is stored as one column per field, for [`SoaPool`].
//!
//! `#[derive(ArenaAlloc)]` with `#[arena(soa)]` implements this trait; [`SoaPool`] is the
//! one pool built on it, so the free list, row bookkeeping, iteration and `retain` exist
//! once, here, instead of once per derived struct.
//!
//! The trait is safe: [`SoaPool`] uses no `unsafe` that relies on it. Every column access
//! goes through slices with bounds checks, so an implementation that breaks the contract
//! below (written by hand) makes the pool panic or hand out the wrong row's fields, never
//! undefined behaviour. The derive keeps the contract by construction: every function it
//! generates touches every column in the same way, and nothing outside the trait's
//! functions can reach the storage (it is a private field of [`SoaPool`]).
//!
//! # The contract
//!
//! - `Storage` holds one column per field, and one more of `u32`s, the *slot column*:
//!   the slot of the pool's index that names each row, which the pool hands to `push`
//!   with the value and reads back wherever it needs the key of a row. Every function
//!   changes every column in the same way (`push` adds one row, `swap_remove` and `pop`
//!   take one, `compact` reorders them), so all columns always have
//!   [`column_len`](SoaRow::column_len) elements, and a row's slot moves with its fields.
//!   (The slot column is why a removal updates one map instead of two: the row of the
//!   value that moves into a hole, and its slot, come out of the same swap.)
//! - After `try_reserve(storage, n)` succeeds, `n` pushes do not allocate (and so do not
//!   fail or panic).
//! - **Two kinds of memory.** `Storage<M>` is the columns on the heap (`M` =
//!   [`Heap`](crate::pool::Heap), made by `new_storage`) or in a caller's bytes borrowed
//!   for `'s` (`M` = [`Fixed<'s>`](crate::pool::Fixed), made by `storage_in`), and
//!   every function works on either. The borrow is in the type, so an
//!   implementation cannot keep the columns past the storage's life (nothing `'static`
//!   can hold a `Storage<Fixed<'s>>`), and `SoaPool` needs no promise from it for that:
//!   the trait stays safe to implement. (Nor does `SoaPool` rely on `Storage<M>` to
//!   carry the borrow for its index, which is in the storage too: a `Storage` that
//!   ignores `M` is allowed, and the pool holds the borrow in a field of its own.) A storage made for `N` rows holds `N`: its
//!   `try_reserve` fails past them, and `SoaPool` never asks for more, since its index
//!   over the same `N` refuses first.
//! - `Columns` and `ColumnsMut` are views of every column as a slice, `Ref` and `Mut`
//!   of one row; `row` and `row_mut` take one row, `split_first_mut` and
//!   `split_last_mut` cut one off a `ColumnsMut`.
//!
//! # Why the views are a second trait
//!
//! The view types borrow for some `'a` and may only exist while the struct outlives
//! `'a`. As generic associated types (`type Mut<'a> where Self: 'a`), a closure that
//! takes a view of any lifetime (`retain`'s `FnMut(Key, R::Mut<'_>)`) would need
//! `for<'a> R: 'a`, that is `R: 'static`, and a struct holding a borrow could not use
//! it. [`Views<'a>`](Views) carries the bound in a defaulted parameter
//! (`Bound = &'a Self`) instead, which the compiler takes as implied wherever the trait
//! is named, also under `for<'a>`.
//!
//! [`SoaPool`]: crate::SoaPool

use core::mem::MaybeUninit;

use crate::error::AllocError;
#[cfg(feature = "alloc")]
use crate::pool::Heap;
use crate::pool::{Fixed, Memory};

/// The view types of a [`SoaRow`] struct for borrows of lifetime `'a`: one row
/// ([`Ref`](Self::Ref), [`Mut`](Self::Mut)) and every column as slices
/// ([`Columns`](Self::Columns), [`ColumnsMut`](Self::ColumnsMut)).
///
/// Implemented for every `'a` by `#[derive(ArenaAlloc)]` with `#[arena(soa)]`; name the
/// views through the aliases [`RowRef`], [`RowMut`], [`Columns`] and
/// [`ColumnsMut`]. `Bound` is not for setting: its default, `&'a Self`, is what lets
/// the views exist only while the struct outlives `'a` (see the module docs).
pub trait Views<'a, Bound = &'a Self> {
    /// One row, a shared reference per field.
    type Ref: Copy;
    /// One row, a mutable reference per field.
    type Mut;
    /// Every column as a shared slice.
    type Columns: Copy;
    /// Every column as a mutable slice: the fields can be borrowed apart, the column
    /// lengths cannot change.
    type ColumnsMut;

    /// The first row of `columns` and the columns after it; `None` when empty.
    fn split_first_mut(columns: Self::ColumnsMut) -> Option<(Self::Mut, Self::ColumnsMut)>;

    /// The last row of `columns` and the columns before it; `None` when empty.
    fn split_last_mut(columns: Self::ColumnsMut) -> Option<(Self::Mut, Self::ColumnsMut)>;
}

/// One row of `R`: a shared reference per field (`{Name}Ref<'a>` for a derived `R`).
pub type RowRef<'a, R> = <R as Views<'a>>::Ref;
/// One row of `R`: a mutable reference per field (`{Name}Mut<'a>`).
pub type RowMut<'a, R> = <R as Views<'a>>::Mut;
/// Every column of `R` as a shared slice (`{Name}Columns<'a>`).
pub type Columns<'a, R> = <R as Views<'a>>::Columns;
/// Every column of `R` as a mutable slice (`{Name}ColumnsMut<'a>`).
pub type ColumnsMut<'a, R> = <R as Views<'a>>::ColumnsMut;

/// A struct stored as one column per field (struct-of-arrays) in a
/// [`SoaPool`](crate::SoaPool).
///
/// Implemented by `#[derive(ArenaAlloc)]` with `#[arena(soa)]`, which also generates the
/// view types ([`Views`]): for `struct Particle { pos: [f32; 3], mass: f32 }`,
/// `ParticleRef<'a>` (`pos: &'a [f32; 3]`, `mass: &'a f32`), `ParticleMut<'a>` (`&'a mut`
/// fields), `ParticleColumns<'a>` (`pos: &'a [[f32; 3]]`, `mass: &'a [f32]`) and
/// `ParticleColumnsMut<'a>`. See the `example_generated` module for a whole expansion.
/// Implementing it by hand is safe (see the module docs for what a wrong implementation
/// can and cannot do), but the derive is the intended way.
///
/// # Examples
///
/// ```
/// use arena_kit::{ArenaAlloc, SoaPool, SoaRow};
///
/// #[derive(ArenaAlloc)]
/// #[arena(soa)]
/// struct Point { x: f32, y: f32 }
///
/// // Code generic over any struct-of-arrays pool.
/// fn count<R: SoaRow>(pool: &SoaPool<'_, R>) -> usize {
///     pool.iter().count()
/// }
///
/// PointPool::with(|mut pool| {
///     pool.insert_keyed(Point { x: 1.0, y: 2.0 });
///     assert_eq!(count(&pool), 1);
/// });
/// ```
pub trait SoaRow: Sized + for<'a> Views<'a> {
    /// The columns: the slot column and one per field, on the heap (`M` =
    /// [`Heap`](crate::pool::Heap)) or in a caller's bytes (`M` =
    /// [`Fixed<'s>`](crate::pool::Fixed)). The derive uses a
    /// [`ColumnVec<_, M>`](crate::pool::soa::ColumnVec) whose first column holds the
    /// slots.
    type Storage<M: Memory>;

    /// Empty columns on the heap, with room for `capacity` rows each.
    #[cfg(feature = "alloc")]
    fn new_storage(capacity: usize) -> Self::Storage<Heap>;

    /// Empty columns cut from `bytes`, with room for `rows` rows each and never more;
    /// `None` if the bytes cannot hold them. A
    /// [`SoaStorage<Self, N>`](crate::pool::soa::SoaStorage) hands over bytes enough for
    /// `N` rows of the slot column and of every field, each column aligned for its type
    /// (the derive cuts them with
    /// [`ColumnVec::in_bytes`](crate::pool::soa::ColumnVec::in_bytes)).
    fn storage_in(bytes: &mut [MaybeUninit<u8>], rows: usize) -> Option<Self::Storage<Fixed<'_>>>;

    /// The number of rows (every column's length).
    fn column_len<M: Memory>(storage: &Self::Storage<M>) -> usize;

    /// Makes room for `additional` more rows in every column.
    ///
    /// # Panics
    ///
    /// As `Vec::reserve` on the heap; over storage, if it cannot hold the rows.
    fn reserve<M: Memory>(storage: &mut Self::Storage<M>, additional: usize);

    /// Makes room for `additional` more rows in every column, or says why not.
    ///
    /// # Errors
    ///
    /// As [`ColumnVec::try_reserve`](crate::pool::soa::ColumnVec::try_reserve): out of
    /// memory on the heap (columns already grown stay grown), out of room over storage.
    fn try_reserve<M: Memory>(
        storage: &mut Self::Storage<M>,
        additional: usize,
    ) -> Result<(), AllocError>;

    /// Gives unused capacity back in every column (on the heap; storage stays).
    fn shrink_to_fit<M: Memory>(storage: &mut Self::Storage<M>);

    /// Appends `value` as the last row, one field per column, with `slot` in the slot
    /// column.
    fn push<M: Memory>(storage: &mut Self::Storage<M>, slot: u32, value: Self);

    /// Takes row `row` out of every column (the last row moves into its place) and
    /// gathers the value back, with the slot of the row that moved into `row`: `None`
    /// if `row` was the last row, so that none moved.
    ///
    /// # Panics
    ///
    /// If `row` is out of bounds.
    fn swap_remove<M: Memory>(storage: &mut Self::Storage<M>, row: usize) -> (Self, Option<u32>);

    /// `retain`'s pass: passes every row to `keep`, with its slot, and moves each row
    /// `keep` rejects to the end. From the first row on: a row kept stays where it is and
    /// the next row is passed; a row rejected is swapped, in every column and the slot
    /// column, with the last row not yet rejected, which is passed next in its place.
    /// The rows rejected end up behind all the rows kept (as `swap_remove` would leave
    /// them, but nothing is dropped yet).
    ///
    /// The derive writes the loop once per struct, so that the columns are cut to one
    /// length before it and their bounds checks drop out of it.
    fn compact<M: Memory>(
        storage: &mut Self::Storage<M>,
        keep: impl FnMut(u32, RowMut<'_, Self>) -> bool,
    );

    /// Takes the last row out, if any, with its slot.
    fn pop<M: Memory>(storage: &mut Self::Storage<M>) -> Option<(u32, Self)>;

    /// The slot column: the slot of every row, in row order.
    fn slots<M: Memory>(storage: &Self::Storage<M>) -> &[u32];

    /// Every column as a mutable slice, beside the slot column (shared: the slots move
    /// only with their rows).
    fn slots_and_columns_mut<M: Memory>(
        storage: &mut Self::Storage<M>,
    ) -> (&[u32], ColumnsMut<'_, Self>);

    /// Every column as a shared slice.
    fn columns<M: Memory>(storage: &Self::Storage<M>) -> Columns<'_, Self>;

    /// Every column as a mutable slice.
    fn columns_mut<M: Memory>(storage: &mut Self::Storage<M>) -> ColumnsMut<'_, Self>;

    /// Row `row`, a shared reference per field.
    ///
    /// # Panics
    ///
    /// If `row` is out of bounds.
    fn row<M: Memory>(storage: &Self::Storage<M>, row: usize) -> RowRef<'_, Self>;

    /// Row `row`, a mutable reference per field.
    ///
    /// # Panics
    ///
    /// If `row` is out of bounds.
    fn row_mut<M: Memory>(storage: &mut Self::Storage<M>, row: usize) -> RowMut<'_, Self>;
}
