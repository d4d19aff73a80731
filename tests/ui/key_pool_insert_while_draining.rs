// A drain borrows the pool until it is dropped: nothing can be inserted meanwhile.
use arena_kit::KeyPool;

fn main() {
    let mut pool = KeyPool::new();
    pool.insert(1);
    let mut drain = pool.drain();
    pool.insert(2);
    drain.next();
}
