// A boxed value whose destructor reads a borrow must not outlive what it borrows: here the
// string dies before the box that drops the reader (declared earlier, dropped later).
use arena_kit::{ArenaBox, BlockPool};

struct Reader<'a>(&'a String);

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        println!("{}", self.0);
    }
}

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let b;
    let s = String::from("freed before the box drops");
    b = ArenaBox::new_in(Reader(&s), &scope);
    let _ = &b;
}
