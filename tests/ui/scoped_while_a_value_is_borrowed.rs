// `scoped` takes the scope by `&mut`, so no value allocated before can be used across it
// (it could be the one the rewind hands out again).
fn main() {
    let pool = arena_kit::BlockPool::new();
    let mut scope = pool.scope();
    let x = scope.alloc(1_u32);
    let y = scope.scoped(|s| *s.alloc(2_u32));
    *x += y;
}
