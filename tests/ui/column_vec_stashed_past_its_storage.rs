//! A column vector over a local storage moved into a `static`: what a hand-written
//! `SoaRow` impl would try in order to keep columns past the storage. The vector's type
//! carries the storage's borrow, which is not `'static`.
use std::sync::Mutex;

use arena_kit::pool::Fixed;
use arena_kit::pool::soa::{ColumnStorage, ColumnVec};

static STASH: Mutex<Option<ColumnVec<(u32, ()), Fixed<'static>>>> = Mutex::new(None);

fn main() {
    let mut storage = ColumnStorage::<(u32, ()), 4>::new();
    let rows = ColumnVec::in_storage(&mut storage);
    *STASH.lock().unwrap() = Some(rows);
}
