// Two mutable row views of one pool at once would alias if both named the same row.
use arena_kit::ArenaAlloc;

#[derive(ArenaAlloc)]
#[arena(soa)]
struct Particle {
    mass: f32,
}

fn main() {
    ParticlePool::with(|mut pool| {
        let a = pool.insert(Particle { mass: 1.0 });
        let b = pool.insert(Particle { mass: 2.0 });
        let first = pool.get_mut(&a);
        let second = pool.get_mut(&b);
        *first.mass += *second.mass;
        pool.remove(a);
        pool.remove(b);
    });
}
