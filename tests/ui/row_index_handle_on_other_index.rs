// A handle of one `RowIndex` is a type error on another: each has its own brand.
use arena_kit::pool::soa::RowIndex;

fn main() {
    RowIndex::with(|mut a| {
        RowIndex::with(|mut b| {
            let h = a.insert(0);
            let _ = b.insert(0);
            let _ = b.remove(h);
        });
    });
}
