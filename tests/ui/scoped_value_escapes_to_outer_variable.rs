// Nor stored in a variable from outside the closure.
fn main() {
    let pool = arena_kit::BlockPool::new();
    let mut scope = pool.scope();
    let mut kept: Option<&mut u32> = None;
    scope.scoped(|s| kept = Some(s.alloc(1_u32)));
    if let Some(x) = kept {
        *x += 1;
    }
}
