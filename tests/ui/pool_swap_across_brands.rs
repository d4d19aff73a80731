// Two pools of different brands cannot be swapped (or replaced) to re-pair handles.
use arena_kit::Pool;

fn main() {
    Pool::with(|mut a: Pool<'_, u32>| {
        Pool::with(|mut b: Pool<'_, u32>| {
            std::mem::swap(&mut a, &mut b);
        });
    });
}
