//! Struct-of-arrays storage: [`SoaPool`], one column per field, rows kept dense, and
//! the views `#[derive(ArenaAlloc)]` with `#[arena(soa)]` generates for it.
//!
//! A struct that derives it implements [`SoaRow`] and [`Views`]: a row seen by
//! reference ([`RowRef`], [`RowMut`]: a reference per field) and all rows seen as
//! columns ([`Columns`], [`ColumnsMut`]: a slice per field). [`Iter`] and [`IterMut`]
//! walk the rows with their handles' keys. The derive keeps the fields in a
//! [`ColumnVec`]: one length and one capacity for every column.
//!
//! Without `alloc` only [`ColumnVec`] is here, over a caller's [`ColumnStorage`]
//! ([`ColumnVec::in_storage`]): struct-of-arrays rows with no allocator; the pool, its
//! views and the derive's `#[arena(soa)]` need `alloc`.

mod column_vec;
#[cfg(feature = "alloc")]
mod compaction;
#[cfg(feature = "alloc")]
mod pool;
#[cfg(feature = "alloc")]
mod row;
#[cfg(feature = "alloc")]
mod row_index;

pub use column_vec::{ColumnList, ColumnStorage, ColumnVec};
#[cfg(feature = "alloc")]
pub use pool::{Iter, IterMut, SoaPool};
#[cfg(feature = "alloc")]
pub use row::{Columns, ColumnsMut, RowMut, RowRef, SoaRow, Views};
/// The handle side of struct-of-arrays storage, which [`SoaPool`] is built on: not a
/// promise.
#[cfg(feature = "alloc")]
#[doc(hidden)]
pub use row_index::RowIndex;
