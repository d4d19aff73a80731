// Every malformed `#[arena]` key is reported in one compilation, each at its token, and
// the struct's pool still exists (the fallback), so the use below adds no error.
use arena_kit::ArenaAlloc;

#[derive(ArenaAlloc)]
#[arena(soa = true, sao, crate = 5, brand = "id", pool = 1)]
#[arena(soa, soa, crate = arena_kit, crate = arena_kit)]
#[arena(row_derive = Debug, row_derive(Debug = 1))]
struct Particle {
    mass: f32,
}

fn main() {
    ParticlePool::with(|mut pool| {
        let h = pool.insert(Particle { mass: 1.0 });
        pool.remove(h);
    });
}
