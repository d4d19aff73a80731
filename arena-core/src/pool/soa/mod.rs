//! Struct-of-arrays storage: [`SoaPool`], one column per field, rows kept dense, and
//! the views `#[derive(ArenaAlloc)]` with `#[arena(soa)]` generates for it.
//!
//! A struct that derives it implements [`SoaRow`] and [`Views`]: a row seen by
//! reference ([`RowRef`], [`RowMut`]: a reference per field) and all rows seen as
//! columns ([`Columns`], [`ColumnsMut`]: a slice per field). [`Iter`] and [`IterMut`]
//! walk the rows with their handles' keys. The derive keeps the fields in a
//! [`ColumnVec`]: one length and one capacity for every column.
//!
//! Without an allocator, a [`SoaPool`] runs over a caller's [`SoaStorage`]
//! ([`SoaPool::with_storage`]), and a [`ColumnVec`] over a [`ColumnStorage`]
//! ([`ColumnVec::in_storage`]): the same code, `N` rows at most, no allocator call.
mod column_vec;
mod compaction;
mod pool;
mod row;
mod row_index;
mod storage;

pub use column_vec::{ColumnList, ColumnStorage, ColumnVec};
pub use pool::{Iter, IterMut, SoaPool};
pub use row::{Columns, ColumnsMut, RowMut, RowRef, SoaRow, Views};
/// The handle side of struct-of-arrays storage, which [`SoaPool`] is built on: not a
/// promise.
#[doc(hidden)]
pub use row_index::RowIndex;
pub use storage::SoaStorage;
