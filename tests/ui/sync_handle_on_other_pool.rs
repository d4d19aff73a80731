// A handle of one `SyncPool` is a type error on another: each pool has its own brand.
use arena_kit::SyncPool;

fn main() {
    SyncPool::with(|a: SyncPool<'_, u32>| {
        SyncPool::with(|b: SyncPool<'_, u32>| {
            let h = a.insert(1);
            let _ = b.remove(h);
        });
    });
}
