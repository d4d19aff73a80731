// An owning handle cannot be duplicated.
use arena_kit::Pool;

fn main() {
    Pool::with(|mut pool| {
        let h = pool.insert(1_u32);
        let twin = h.clone();
        pool.remove(h);
        pool.remove(twin);
    });
}
