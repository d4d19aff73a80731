// Two brands cannot be unified by a function that takes both at one lifetime, even one
// that never returns (the attack that defeats macro-made brands).
use arena_kit::{Handle, Pool};

fn unify<'id>(_: &Pool<'id, u32>, _: &Pool<'id, u32>) -> ! {
    loop {}
}

fn steal<'id>(_: &Pool<'id, u32>, _: Handle<'id>) {}

fn main() {
    Pool::with(|mut a| {
        Pool::with(|b| {
            let h = a.insert(1_u32);
            if false {
                unify(&a, &b);
            }
            steal(&b, h);
        });
    });
}
