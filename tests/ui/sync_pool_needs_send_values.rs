// A `SyncPool` is shared across threads only if its values may move between threads:
// `Rc` may not, so a pool of `Rc`s cannot be shared.
use std::rc::Rc;

use arena_core::SyncPool;

fn main() {
    SyncPool::with(|pool: SyncPool<'_, Rc<u8>>| {
        std::thread::scope(|s| {
            s.spawn(|| pool.len());
        });
    });
}
