// `capacity` without a value: an error at the key; the pool still exists (the fallback),
// so the use below adds no error of its own. (With `soa` it is a fixed struct-of-arrays
// pool, and with `brand` a storage alias that names the brand: no error, and
// `derive_brand_capacity` has their uses.)
use arena_kit::ArenaAlloc;

#[derive(ArenaAlloc)]
#[arena(soa, capacity = 8)]
struct Particle {
    mass: f32,
}

#[derive(ArenaAlloc)]
#[arena(capacity)]
struct Session {
    peer: u16,
}

fn main() {
    ParticlePool::with(|mut pool| drop(pool.insert(Particle { mass: 1.0 })));
    ParticlePool::with_fixed(|mut pool| drop(pool.insert(Particle { mass: 1.0 })));
    SessionPool::with(|mut pool| drop(pool.insert(Session { peer: 1 })));
}
