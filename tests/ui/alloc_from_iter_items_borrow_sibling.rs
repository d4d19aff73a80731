// Slices built from an iterator obey `T: 'p` too: droppable items cannot borrow a sibling
// value of the scope (the scope may drop the sibling first).
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let a = scope.alloc(String::from("a"));
    let items = scope.alloc_from_iter((0..3).map(|_| vec![&*a]));
    println!("{}", items.len());
}
