// A struct-of-arrays pool drops its fields when it is dropped: a field whose destructor
// reads a borrow must not be dropped after what it borrows. `name` is declared after the
// pool, so it is dropped first, and the pool's drop would have `Loud` read it.
use arena_kit::{ArenaAlloc, Brand};

struct Loud<'a>(&'a String);

impl Drop for Loud<'_> {
    fn drop(&mut self) {
        println!("{}", self.0);
    }
}

#[derive(ArenaAlloc)]
#[arena(soa)]
struct Row<'a> {
    loud: Loud<'a>,
}

fn main() {
    Brand::with(|brand| {
        let mut pool = RowPool::new_in(brand);
        let name = String::from("row");
        pool.insert_keyed(Row { loud: Loud(&name) });
    });
}
