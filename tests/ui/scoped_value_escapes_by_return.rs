// A value allocated inside `Scope::scoped` cannot be returned out of the closure: the
// closure's scope borrow is its own, and the rewind at the end would hand its bytes out
// again.
fn main() {
    let pool = arena_kit::BlockPool::new();
    let mut scope = pool.scope();
    let escaped: &mut u32 = scope.scoped(|s| s.alloc(1_u32));
    *escaped += 1;
}
