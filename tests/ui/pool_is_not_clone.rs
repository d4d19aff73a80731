// A pool cannot be cloned: a clone would share the brand, and a slot free in one copy
// could be owned in the other.
use arena_kit::Pool;

fn main() {
    Pool::with(|mut pool| {
        let twin = pool.clone();
        let h = pool.insert(1_u32);
        drop((twin, h));
    });
}
