// A row view borrows the pool: it cannot leave the closure that owns the pool.
use arena_kit::ArenaAlloc;

#[derive(ArenaAlloc)]
#[arena(soa)]
struct Particle {
    mass: f32,
}

fn main() {
    let view = ParticlePool::with(|mut pool| {
        let k = pool.insert_keyed(Particle { mass: 1.0 });
        pool.get_key(k)
    });
    let _ = view;
}
