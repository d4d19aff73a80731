// A thread's cache has no `BlockPool` inside to swap out: one swapped out would outlive
// the `SharedBlockPool` it gives blocks back to.
use arena_kit::{BlockPool, SharedBlockPool};

fn main() {
    let escaped;
    {
        let shared = SharedBlockPool::new();
        #[allow(unused_mut)] // the `mut` is the attempt
        let mut local = shared.local();
        escaped = std::mem::replace(&mut *local, BlockPool::new());
    }
    drop(escaped);
}
