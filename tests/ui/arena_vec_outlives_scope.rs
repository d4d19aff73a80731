// An `ArenaVec` or `ArenaString` cannot outlive the scope its buffer lives in.
use arena_kit::{ArenaString, ArenaVec, BlockPool};

fn main() {
    let pool = BlockPool::new();
    let (v, s);
    {
        let scope = pool.scope();
        let mut inner = ArenaVec::new_in(&scope);
        inner.push(1_u32);
        v = inner;
        s = ArenaString::from_str_in("gone", &scope);
    }
    println!("{} {}", v.len(), s);
}
