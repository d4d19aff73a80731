// Nor can a child scope opened inside `scoped` leave it.
fn main() {
    let pool = arena_kit::BlockPool::new();
    let mut scope = pool.scope();
    let child = scope.scoped(|s| s.scope());
    child.alloc(1_u8);
}
