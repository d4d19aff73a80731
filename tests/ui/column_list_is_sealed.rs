//! `ColumnList` is sealed: a list of its own would supply the raw buffers that
//! `ColumnVec`'s `unsafe` code trusts.
use arena_kit::pool::soa::ColumnList;

struct Mine;

impl ColumnList for Mine {
    type Raw = ();
    type Refs<'a> = ();
    type Muts<'a> = ();
    type Slices<'a> = ();
    type SlicesMut<'a> = ();
}

fn main() {}
