// `into_slice` leaks the buffer into the scope without dropping it, so it exists only for
// `Copy` elements: a vector of `String`s would leak them (and the scope must not drop them).
use arena_core::{ArenaVec, BlockPool};

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v = ArenaVec::new_in(&scope);
    v.push(String::from("would never be dropped"));
    let s: &mut [String] = v.into_slice();
    s[0].push('!');
}
