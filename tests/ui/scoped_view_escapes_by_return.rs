// A `Copy` view of the scope inside `scoped` is as short-lived as the closure's borrow:
// returning it, to allocate after the rewind, does not compile.
fn main() {
    let pool = arena_kit::BlockPool::new();
    let mut scope = pool.scope();
    let view = scope.scoped(|s| s.view());
    let x = view.alloc(1_u8);
    println!("{x}");
}
