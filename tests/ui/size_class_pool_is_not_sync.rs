// The unlocked size-class pool is `!Sync` (it pays nothing for threads); sharing it across
// threads does not compile. `SyncSizeClassPool` is the locked flavour.
use arena_core::SizeClassPool;

fn main() {
    let pool = SizeClassPool::new();
    std::thread::scope(|s| {
        s.spawn(|| pool.stats());
    });
}
