// Nor by a function returning `!` through a panic.
use arena_kit::Pool;

fn same<'id>(_: &Pool<'id, u32>, _: &Pool<'id, u32>) -> ! {
    panic!("never returns")
}

fn main() {
    Pool::with(|a: Pool<'_, u32>| {
        Pool::with(|b: Pool<'_, u32>| {
            same(&a, &b);
        });
    });
}
