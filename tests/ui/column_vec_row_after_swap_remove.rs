//! A row's references borrow the `ColumnVec`: no `swap_remove` (which moves the last row
//! into the hole) while one is held.
use arena_kit::pool::soa::ColumnVec;

fn main() {
    let mut rows: ColumnVec<(String, (u32, ()))> = ColumnVec::new();
    rows.push(("a".to_string(), (1, ())));
    rows.push(("b".to_string(), (2, ())));
    let (name, _) = rows.row(1);
    let _ = rows.swap_remove(0);
    assert_eq!(name, "b");
}
