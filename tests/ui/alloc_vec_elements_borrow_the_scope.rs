// A vector may hold elements that borrow its scope's values (it drops them itself), but
// it cannot hand them to the scope: the scope could drop them after what they borrow.
use arena_kit::{ArenaVec, BlockPool};

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let name = scope.alloc(String::from("sibling"));
    let mut v = ArenaVec::new_in(&scope);
    v.push(vec![&*name]);
    let kept = scope.alloc_vec(v);
    println!("{}", kept[0][0]);
}
