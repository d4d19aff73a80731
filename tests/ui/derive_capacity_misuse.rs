// `capacity` where a fixed pool cannot be made: beside `brand` (a storage made outside
// the pool's closure cannot name the brand made inside it), and without a value. Each is
// an error at the key; the pools still exist (the fallback), so the uses below add no
// error of their own. (With `soa` it is a fixed struct-of-arrays pool: no error.)
use arena_kit::ArenaAlloc;

#[derive(ArenaAlloc)]
#[arena(soa, capacity = 8)]
struct Particle {
    mass: f32,
}

#[derive(ArenaAlloc)]
#[arena(brand = 'id, capacity = 8)]
struct Node<'id> {
    next: Option<NodeKey<'id>>,
}

#[derive(ArenaAlloc)]
#[arena(capacity)]
struct Session {
    peer: u16,
}

fn main() {
    ParticlePool::with(|mut pool| drop(pool.insert(Particle { mass: 1.0 })));
    ParticlePool::with_fixed(|mut pool| drop(pool.insert(Particle { mass: 1.0 })));
    NodePool::with(|mut pool| drop(pool.insert(Node { next: None })));
    SessionPool::with(|mut pool| drop(pool.insert(Session { peer: 1 })));
}
