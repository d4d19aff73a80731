// The closure gets `&Scope`, and `scoped` needs `&mut`: no nested `scoped` (it would
// rewind under the outer closure's values).
fn main() {
    let pool = arena_kit::BlockPool::new();
    let mut scope = pool.scope();
    scope.scoped(|s| s.scoped(|t| *t.alloc(1_u8)));
}
