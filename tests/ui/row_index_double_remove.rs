// `RowIndex::remove` consumes the handle: a row cannot be swap-removed twice through it.
use arena_kit::pool::soa::RowIndex;

fn main() {
    RowIndex::with(|mut index| {
        let h = index.insert(0);
        let _ = index.insert(0);
        index.remove(h);
        index.remove(h);
    });
}
