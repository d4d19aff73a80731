// A collection whose buffer lives in a `SizeClassPool` cannot outlive the pool, which frees
// every block when it drops.
use allocator_api2::vec::Vec;
use arena_kit::SizeClassPool;

fn main() {
    let escaped;
    {
        let pool = SizeClassPool::new();
        let mut v = Vec::new_in(&pool);
        v.push(1_u32);
        escaped = v;
    }
    println!("{:?}", escaped.first());
}
