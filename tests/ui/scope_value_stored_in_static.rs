// A scope's value cannot be stored in a thread-local or a static: those need `'static`.
use std::cell::Cell;

use arena_kit::BlockPool;

thread_local! {
    static KEPT: Cell<Option<&'static u32>> = const { Cell::new(None) };
}

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let x: &u32 = scope.alloc(5);
    KEPT.with(|k| k.set(Some(x)));
}
