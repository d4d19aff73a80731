// `RowIndex::remove` consumes the handle: a row cannot be swap-removed twice through it.
use arena_kit::pool::soa::RowIndex;

fn main() {
    RowIndex::with(|mut index| {
        let h = index.insert();
        let _ = index.insert();
        index.remove(h);
        index.remove(h);
    });
}
