// The unlocked pool is `Send`, but it cannot move (to another thread or anywhere) while a
// collection borrows it.
use allocator_api2::vec::Vec;
use arena_kit::SizeClassPool;

fn main() {
    let pool = SizeClassPool::new();
    let mut v = Vec::new_in(&pool);
    v.push(1_u64);
    std::thread::spawn(move || drop(pool));
    v.push(2);
}
