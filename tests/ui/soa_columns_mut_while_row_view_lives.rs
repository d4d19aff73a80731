// `columns_mut` borrows the whole pool mutably: not while a row view still reads it.
use arena_kit::ArenaAlloc;

#[derive(ArenaAlloc)]
#[arena(soa)]
struct Particle {
    pos: f32,
    vel: f32,
}

fn main() {
    ParticlePool::with(|mut pool| {
        let h = pool.insert(Particle { pos: 0.0, vel: 1.0 });
        let row = pool.get(&h);
        let ParticleColumnsMut { pos, .. } = pool.columns_mut();
        pos[0] = *row.vel;
        pool.remove(h);
    });
}
