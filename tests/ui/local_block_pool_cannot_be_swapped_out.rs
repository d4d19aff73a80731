// A thread's cache derefs to a `BlockPool` but never mutably: swapping the pool out of it
// would let it outlive the `SharedBlockPool` it gives blocks back to.
use arena_core::{BlockPool, SharedBlockPool};

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
