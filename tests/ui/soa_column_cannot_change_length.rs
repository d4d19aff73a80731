// The columns are slices, never `Vec`s, and the storage is private to `SoaPool`: no safe
// call can change one column's length apart from the others (rows would come apart).
use arena_kit::ArenaAlloc;

#[derive(ArenaAlloc)]
#[arena(soa)]
struct Particle {
    pos: f32,
    vel: f32,
}

fn main() {
    ParticlePool::with(|mut pool| {
        pool.insert_keyed(Particle { pos: 0.0, vel: 1.0 });
        let ParticleColumnsMut { pos, .. } = pool.columns_mut();
        pos.push(2.0);
        pool.pos_column_mut().truncate(0);
        let _ = &mut pool.inner.storage;
    });
}
