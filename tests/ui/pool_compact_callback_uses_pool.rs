// The callback `compact` announces each move to may not reach the pool: the pool's free
// list is being rebuilt while it runs.
use arena_kit::KeyPool;

fn main() {
    let mut pool = KeyPool::new();
    let k = pool.insert(1);
    pool.compact(|_, _, _| pool.contains_key(k));
}
