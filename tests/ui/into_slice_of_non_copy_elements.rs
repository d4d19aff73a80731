// `into_slice` hands the buffer to the scope with no destructor record, so it exists only
// for `Copy` elements: elements the scope must drop go through `Scope::alloc_vec`.
use arena_kit::{ArenaVec, BlockPool};

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v = ArenaVec::new_in(&scope);
    v.push(String::from("would never be dropped"));
    let s: &mut [String] = v.into_slice();
    s[0].push('!');
}
