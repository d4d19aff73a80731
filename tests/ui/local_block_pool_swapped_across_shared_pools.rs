// Swapping two thread caches unifies their borrows: the cache of the inner shared pool,
// moved out, would outlive that pool.
use arena_kit::SharedBlockPool;

fn main() {
    let outer_shared = SharedBlockPool::new();
    let mut outer = outer_shared.local();
    {
        let inner_shared = SharedBlockPool::new();
        let mut inner = inner_shared.local();
        inner.scope().alloc(1_u8);
        std::mem::swap(&mut outer, &mut inner);
    } // `outer` now caches for `inner_shared`, and drops after it
}
