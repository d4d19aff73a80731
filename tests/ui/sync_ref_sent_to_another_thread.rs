// A `SyncRef` holds its shard's lock and the mark that this thread holds it: it must be
// dropped on the thread that locked, so it is not `Send`.
use arena_kit::SyncPool;

fn main() {
    SyncPool::with(|pool| {
        let h = pool.insert(1_u32);
        std::thread::scope(|s| {
            let guard = pool.get(&h);
            s.spawn(move || drop(guard));
        });
        pool.remove(h);
    });
}
