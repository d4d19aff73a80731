//! A column vector declared before its storage, so the storage is dropped first: the
//! vector's destructor, which drops the rows in the storage, would run on dead storage.
//! The drop check sees the storage's borrow in the vector's type (`Fixed<'_>`) and
//! refuses, whatever the rows are.
use arena_kit::pool::soa::{ColumnStorage, ColumnVec};
fn main() {
    let mut rows;
    let mut storage = ColumnStorage::<(u32, (String, ())), 4>::new();
    rows = ColumnVec::in_storage(&mut storage);
    rows.push((1, (String::from("x"), ())));
}
