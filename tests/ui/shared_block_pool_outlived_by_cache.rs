// A thread's cache borrows its shared pool: the pool cannot drop while a cache lives.
use arena_kit::SharedBlockPool;

fn main() {
    let shared = SharedBlockPool::new();
    let local = shared.local();
    drop(shared);
    local.scope().alloc(1_u8);
}
