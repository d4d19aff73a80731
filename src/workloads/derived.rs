//! W8 (the derive): a user struct with `#[derive(ArenaAlloc)]`.
//!
//! - Churn (`W8`): W4's shape on a 7-float particle: a table of 20 000 live particles;
//!   each of 1 000 000 operations removes the particle in a random slot (reading its
//!   mass), inserts a new one there and moves it one step (`pos += vel`, an access
//!   through the new handle). The generated plain pool against the same `Pool` used by
//!   hand (the derive must add no cost), the generated struct-of-arrays pool, `soa_derive`'s
//!   `ParticleVec` with a hand-written free list, `Box`, slab, slotmap and a limit that
//!   replaces each removed particle in place.
//! - Scan (`W8-scan`): count the particles heavier than a threshold, a scan of one field
//!   of 7, over 100 000 particles: the struct-of-arrays column against `soa_derive`'s
//!   column, `Vec<Particle>` and a bare `Vec<f32>`.
//! - Step (`W8-step`): `pos += vel` over every one of 100 000 particles: two columns of
//!   the struct-of-arrays pool borrowed at once through `columns_mut()`, against
//!   `soa_derive`'s slices, the plain pool's `iter_mut()`, `Vec<Particle>` and two bare
//!   `Vec<[f32; 3]>`.
//!
//! - Retain (`W8-retain`): a particle system's despawn: each frame drops a tenth of
//!   100 000 particles (`retain`, the dead chosen by mass and frame) and spawns as many
//!   new ones: the struct-of-arrays pool's and the plain pool's `retain` against
//!   `Vec<Particle>::retain`, `soa_derive`'s `ParticleVec::retain` and slotmap's
//!   `DenseSlotMap::retain` (the dense design the struct-of-arrays pool shares).
//!
//! The scan, step and retain runs build their population once and pass over it
//! `n / POPULATION` times ([`PASSES`] in a full run), so building is a small part of the
//! figure; the report and the criterion bench (`benches/derive.rs`) time these same
//! functions.

#![expect(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "ids below 2^24 are exact in f32, and masses are small whole numbers"
)]

use std::hint::black_box;
use std::sync::{Mutex, PoisonError};

use arena_kit::pool::Memory;
use arena_kit::pool::soa::SoaStorage;
use arena_kit::{ArenaAlloc, Handle, Pool};
use soa_derive::StructOfArray;

use super::Contender;
use super::fixed_churn::{SLOTS, churn};

/// Operations per churn run.
pub const N: usize = 1_000_000;
/// Particles in the scanned population.
pub const POPULATION: usize = 100_000;
/// Passes over the population in a full scan or step run: enough that building the
/// population (a few milliseconds) is about 1% of the run.
pub const PASSES: usize = 2_000;
/// Particle visits per scan run.
pub const SCAN_VISITS: usize = POPULATION * PASSES;
/// Particle visits per step run.
pub const STEP_VISITS: usize = POPULATION * PASSES;
/// Frames in a full retain run.
pub const FRAMES: usize = 50;
/// Particle visits per retain run (a frame visits every particle once).
pub const RETAIN_VISITS: usize = POPULATION * FRAMES;
/// The scan counts particles heavier than this.
const HEAVY: f32 = 500.0;

/// A particle: seven floats. The plain layout for arena-kit; `soa_derive`'s
/// `ParticleVec` (its struct-of-arrays vector) is derived from it too.
#[derive(ArenaAlloc, StructOfArray, Debug, Clone, Copy, Default, PartialEq)]
pub struct Particle {
    /// Position.
    pub pos: [f32; 3],
    /// Velocity.
    pub vel: [f32; 3],
    /// Mass.
    pub mass: f32,
}

/// The same particle stored struct-of-arrays.
#[derive(ArenaAlloc, Debug, Clone, Copy, Default, PartialEq)]
#[arena(soa)]
pub struct SoaParticle {
    /// Position.
    pub pos: [f32; 3],
    /// Velocity.
    pub vel: [f32; 3],
    /// Mass.
    pub mass: f32,
}

impl Particle {
    /// The particle made for operation `id`: its mass is the id, exactly.
    #[must_use]
    pub fn new(id: u64) -> Self {
        let f = id as f32;
        Particle { pos: [f, 0.0, 0.0], vel: [1.0, 2.0, 3.0], mass: f }
    }

    /// One step of motion.
    pub fn step(&mut self) {
        for (p, v) in self.pos.iter_mut().zip(self.vel) {
            *p += v;
        }
    }
}

impl From<Particle> for SoaParticle {
    fn from(p: Particle) -> Self {
        SoaParticle { pos: p.pos, vel: p.vel, mass: p.mass }
    }
}

/// The checksum of what is left in the table: the first coordinate of each particle
/// (id + 1 after its one step).
fn leftover(pos0: impl Iterator<Item = f32>) -> u64 {
    pos0.map(|x| x as u64).sum()
}

/// Every W8 churn contender, arena-kit first, the hand-written limit last.
pub const CONTENDERS: &[Contender] = &[
    Contender { name: "arena-kit derive ParticlePool", run: derived_pool },
    Contender { name: "arena-kit Pool<Particle> by hand", run: hand_pool },
    Contender { name: "arena-kit derive soa pool", run: derived_soa },
    Contender { name: "arena-kit derive soa pool on SoaStorage (no heap)", run: derived_soa_fixed },
    Contender { name: "soa_derive ParticleVec + u32 free list", run: soa_derive_free_list },
    Contender { name: "Box", run: boxed },
    Contender { name: "slab Slab", run: slab },
    Contender { name: "slotmap SlotMap", run: slotmap },
    Contender { name: "limit: Vec, each slot replaced in place", run: limit_free_list },
];

/// The generated plain pool (it derefs to `Pool<'id, Particle>`, so the churn is the same
/// code as [`hand_pool`]'s: any difference is the wrapper's).
#[must_use]
pub fn derived_pool(n: usize) -> u64 {
    ParticlePool::with_capacity(SLOTS, |mut pool| churn_pool(n, &mut pool))
}

/// `Pool<'id, Particle>` used by hand: what the generated pool must match.
#[must_use]
pub fn hand_pool(n: usize) -> u64 {
    Pool::with_capacity(SLOTS, |mut pool: Pool<'_, Particle>| churn_pool(n, &mut pool))
}

/// W8's churn on a plain pool of particles.
fn churn_pool(n: usize, pool: &mut Pool<'_, Particle>) -> u64 {
    let mut table: Vec<Option<Handle<'_>>> = (0..SLOTS).map(|_| None).collect();
    let sum = churn(n, |slot, id| {
        let freed = table[slot].take().map_or(0, |h| pool.remove(h).mass as u64);
        let h = pool.insert(Particle::new(id));
        pool[&h].step();
        table[slot] = Some(h);
        freed
    });
    sum + leftover(table.iter().flatten().map(|h| pool[h].pos[0]))
}

/// The generated struct-of-arrays pool (rows move on removal: one more indirection).
#[must_use]
pub fn derived_soa(n: usize) -> u64 {
    SoaParticlePool::with_capacity(SLOTS, |mut pool| churn_soa(n, &mut pool))
}

/// The storage of [`derived_soa_fixed`]: a `static`, as firmware keeps it (about 1 MiB),
/// behind a lock only because tests may run contenders at once.
static SOA_STORAGE: Mutex<SoaStorage<SoaParticle, SLOTS>> = Mutex::new(SoaStorage::new());

/// The generated struct-of-arrays pool over a `SoaStorage` of exactly `SLOTS` rows: the
/// same pool code on fixed memory (the pool never calls an allocator; the table of
/// handles is the workload's, as for every contender).
#[must_use]
pub fn derived_soa_fixed(n: usize) -> u64 {
    let mut storage = SOA_STORAGE.lock().unwrap_or_else(PoisonError::into_inner);
    SoaParticlePool::with_storage(&mut storage, |mut pool| churn_soa(n, &mut pool))
}

/// W8's churn on a generated struct-of-arrays pool, on either memory.
fn churn_soa<M: Memory>(n: usize, pool: &mut SoaParticlePool<'_, M>) -> u64 {
    let mut table: Vec<Option<SoaParticleHandle<'_>>> = (0..SLOTS).map(|_| None).collect();
    let sum = churn(n, |slot, id| {
        let freed = table[slot].take().map_or(0, |h| pool.remove(h).mass as u64);
        let h = pool.insert(Particle::new(id).into());
        let row = pool.get_mut(&h);
        for (p, v) in row.pos.iter_mut().zip(*row.vel) {
            *p += v;
        }
        table[slot] = Some(h);
        freed
    });
    sum + leftover(table.iter().flatten().map(|h| pool.pos(h)[0]))
}

/// `soa_derive`'s `ParticleVec` (one `Vec` per field, no removal by key) with a
/// hand-written `u32` free list: a vacant row is overwritten in place.
///
/// # Panics
///
/// Never: the table holds `SLOTS` indices.
#[must_use]
pub fn soa_derive_free_list(n: usize) -> u64 {
    let mut particles = ParticleVec::with_capacity(SLOTS);
    let mut free: Vec<u32> = Vec::with_capacity(SLOTS);
    let mut table: Vec<Option<u32>> = vec![None; SLOTS];
    let sum = churn(n, |slot, id| {
        let freed = table[slot].take().map_or(0, |i| {
            free.push(i);
            particles.mass[i as usize] as u64
        });
        let particle = Particle::new(id);
        let index = if let Some(i) = free.pop() {
            particles.replace(i as usize, particle);
            i
        } else {
            particles.push(particle);
            u32::try_from(particles.len() - 1).expect("below SLOTS")
        };
        let i = index as usize;
        let vel = particles.vel[i];
        for (p, v) in particles.pos[i].iter_mut().zip(vel) {
            *p += v;
        }
        table[slot] = Some(index);
        freed
    });
    sum + leftover(table.iter().flatten().map(|&i| particles.pos[i as usize][0]))
}

/// `Box::new` and drop.
#[must_use]
pub fn boxed(n: usize) -> u64 {
    let mut table: Vec<Option<Box<Particle>>> = (0..SLOTS).map(|_| None).collect();
    let sum = churn(n, |slot, id| {
        let freed = table[slot].take().map_or(0, |b| b.mass as u64);
        let mut b = Box::new(Particle::new(id));
        b.step();
        table[slot] = Some(b);
        freed
    });
    sum + leftover(table.iter().flatten().map(|b| b.pos[0]))
}

/// `slab::Slab`.
#[must_use]
pub fn slab(n: usize) -> u64 {
    let mut slab: slab::Slab<Particle> = slab::Slab::with_capacity(SLOTS);
    let mut table: Vec<Option<usize>> = vec![None; SLOTS];
    let sum = churn(n, |slot, id| {
        let freed = table[slot].take().map_or(0, |k| slab.remove(k).mass as u64);
        let k = slab.insert(Particle::new(id));
        slab[k].step();
        table[slot] = Some(k);
        freed
    });
    sum + leftover(table.iter().flatten().map(|&k| slab[k].pos[0]))
}

/// `slotmap::SlotMap`.
#[must_use]
pub fn slotmap(n: usize) -> u64 {
    let mut map = slotmap::SlotMap::with_capacity(SLOTS);
    let mut table: Vec<Option<slotmap::DefaultKey>> = vec![None; SLOTS];
    let sum = churn(n, |slot, id| {
        let freed =
            table[slot].take().and_then(|k| map.remove(k)).map_or(0, |p: Particle| p.mass as u64);
        let k = map.insert(Particle::new(id));
        map[k].step();
        table[slot] = Some(k);
        freed
    });
    sum + leftover(table.iter().flatten().map(|&k| map[k].pos[0]))
}

/// The limit: particles in a `Vec`, each removal's slot taken by the insert that follows
/// it, in place (what a free list of one entry comes to when every removal is followed by
/// an insert), so no free list is kept at all; indexed without bounds checks, the
/// indices being the `Vec`'s own.
///
/// # Panics
///
/// Never: the table holds `SLOTS` indices.
#[must_use]
pub fn limit_free_list(n: usize) -> u64 {
    let mut particles: Vec<Particle> = Vec::with_capacity(SLOTS);
    let mut table: Vec<Option<u32>> = vec![None; SLOTS];
    let sum = churn(n, |slot, id| {
        let particle = Particle::new(id);
        let (freed, index) = if let Some(i) = table[slot] {
            debug_assert!((i as usize) < particles.len());
            // SAFETY: every index in `table` was the length of `particles` when it was
            // pushed, and nothing is ever removed from `particles`.
            let p = unsafe { particles.get_unchecked_mut(i as usize) };
            let freed = p.mass as u64;
            *p = particle;
            (freed, i)
        } else {
            particles.push(particle);
            (0, u32::try_from(particles.len() - 1).expect("below SLOTS"))
        };
        // SAFETY: as above: `index` is below the length.
        unsafe { particles.get_unchecked_mut(index as usize) }.step();
        table[slot] = Some(index);
        freed
    });
    sum + leftover(table.iter().flatten().map(|&i| particles[i as usize].pos[0]))
}

/// Every W8 scan contender, arena-kit first, the hand-written limit last.
pub const SCAN_CONTENDERS: &[Contender] = &[
    Contender { name: "arena-kit derive soa mass_column()", run: scan_soa },
    Contender { name: "arena-kit derive ParticlePool iter()", run: scan_pool },
    Contender { name: "soa_derive ParticleVec .mass", run: scan_soa_derive },
    Contender { name: "Vec<Particle> (AoS)", run: scan_vec },
    Contender { name: "limit: Vec<f32> of masses", run: scan_limit },
];

/// The particle at `i` of the scanned population: masses cycle through 0..1000.
#[must_use]
fn member(i: usize) -> Particle {
    Particle::new((i % 1000) as u64)
}

/// Scans over the population in a run of `visits`.
fn scans(visits: usize) -> usize {
    visits.div_ceil(POPULATION)
}

/// Counts the heavy values among `masses`: one scan.
fn count_heavy<'a>(masses: impl Iterator<Item = &'a f32>) -> u64 {
    masses.filter(|&&m| m > HEAVY).count() as u64
}

/// The struct-of-arrays column.
#[must_use]
pub fn scan_soa(visits: usize) -> u64 {
    SoaParticlePool::with_capacity(POPULATION, |mut pool| {
        for i in 0..POPULATION {
            pool.insert_keyed(member(i).into());
        }
        (0..scans(visits)).map(|_| count_heavy(black_box(&pool).mass_column().iter())).sum()
    })
}

/// The plain generated pool, through `Pool::iter` (keys and occupancy per slot).
#[must_use]
pub fn scan_pool(visits: usize) -> u64 {
    ParticlePool::with_capacity(POPULATION, |mut pool| {
        for i in 0..POPULATION {
            pool.insert_keyed(member(i));
        }
        (0..scans(visits)).map(|_| count_heavy(black_box(&pool).iter().map(|(_, p)| &p.mass))).sum()
    })
}

/// `soa_derive`'s `ParticleVec`: its `mass` field is the column.
#[must_use]
pub fn scan_soa_derive(visits: usize) -> u64 {
    let particles: ParticleVec = (0..POPULATION).map(member).collect();
    (0..scans(visits)).map(|_| count_heavy(black_box(&particles).mass.iter())).sum()
}

/// `Vec<Particle>`: the array-of-structs layout.
#[must_use]
pub fn scan_vec(visits: usize) -> u64 {
    let particles: Vec<Particle> = (0..POPULATION).map(member).collect();
    (0..scans(visits)).map(|_| count_heavy(black_box(&particles).iter().map(|p| &p.mass))).sum()
}

/// A bare `Vec<f32>`: the scan with nothing but the field.
#[must_use]
pub fn scan_limit(visits: usize) -> u64 {
    let masses: Vec<f32> = (0..POPULATION).map(|i| member(i).mass).collect();
    (0..scans(visits)).map(|_| count_heavy(black_box(&masses).iter())).sum()
}

/// Every W8 step contender, arena-kit first, the hand-written limit last.
pub const STEP_CONTENDERS: &[Contender] = &[
    Contender { name: "arena-kit derive soa columns_mut()", run: step_soa },
    Contender { name: "arena-kit derive ParticlePool iter_mut()", run: step_pool },
    Contender { name: "soa_derive ParticleVec as_mut_slice()", run: step_soa_derive },
    Contender { name: "Vec<Particle> (AoS)", run: step_vec },
    Contender { name: "limit: Vec of [pos, vel] pairs", run: step_limit },
];

/// One step of every particle stored as two columns: the loop every column contender
/// shares, kept out of line so each runs the same machine code.
#[inline(never)]
fn step_columns(pos: &mut [[f32; 3]], vel: &[[f32; 3]]) {
    for (p, v) in pos.iter_mut().zip(vel) {
        for (x, dx) in p.iter_mut().zip(v) {
            *x += dx;
        }
    }
}

/// The checksum of a stepped population: the first coordinates, summed.
fn positions<'a>(pos: impl Iterator<Item = &'a [f32; 3]>) -> u64 {
    pos.map(|p| p[0] as u64).sum()
}

/// The struct-of-arrays pool: `pos` and `vel` borrowed together through `columns_mut()`.
#[must_use]
pub fn step_soa(visits: usize) -> u64 {
    SoaParticlePool::with_capacity(POPULATION, |mut pool| {
        for i in 0..POPULATION {
            pool.insert_keyed(member(i).into());
        }
        for _ in 0..scans(visits) {
            let columns = black_box(&mut pool).columns_mut();
            step_columns(columns.pos, columns.vel);
        }
        positions(pool.pos_column().iter())
    })
}

/// The plain generated pool, through `Pool::iter_mut` (a value at a time).
#[must_use]
pub fn step_pool(visits: usize) -> u64 {
    ParticlePool::with_capacity(POPULATION, |mut pool| {
        for i in 0..POPULATION {
            pool.insert_keyed(member(i));
        }
        for _ in 0..scans(visits) {
            black_box(&mut pool).iter_mut().for_each(|(_, p)| p.step());
        }
        positions(pool.iter().map(|(_, p)| &p.pos))
    })
}

/// `soa_derive`'s `ParticleVec`, its columns through `as_mut_slice()`.
#[must_use]
pub fn step_soa_derive(visits: usize) -> u64 {
    let mut particles: ParticleVec = (0..POPULATION).map(member).collect();
    for _ in 0..scans(visits) {
        let slices = black_box(&mut particles).as_mut_slice();
        step_columns(slices.pos, slices.vel);
    }
    positions(particles.pos.iter())
}

/// `Vec<Particle>`: the array-of-structs layout, a particle at a time.
#[must_use]
pub fn step_vec(visits: usize) -> u64 {
    let mut particles: Vec<Particle> = (0..POPULATION).map(member).collect();
    for _ in 0..scans(visits) {
        black_box(&mut particles).iter_mut().for_each(Particle::step);
    }
    positions(particles.iter().map(|p| &p.pos))
}

/// The limit: one bare vector of the two fields side by side, so the step reads and
/// writes nothing but them and follows one pointer (the columns follow two).
#[must_use]
pub fn step_limit(visits: usize) -> u64 {
    let mut pairs: Vec<[[f32; 3]; 2]> =
        (0..POPULATION).map(|i| [member(i).pos, member(i).vel]).collect();
    for _ in 0..scans(visits) {
        for [p, v] in black_box(&mut pairs).iter_mut() {
            for (x, dx) in p.iter_mut().zip(&*v) {
                *x += dx;
            }
        }
    }
    positions(pairs.iter().map(|[p, _]| p))
}

/// Every W8 retain contender, arena-kit first.
pub const RETAIN_CONTENDERS: &[Contender] = &[
    Contender { name: "arena-kit derive soa pool retain", run: retain_soa },
    Contender { name: "arena-kit derive ParticlePool retain", run: retain_pool },
    Contender { name: "Vec<Particle>::retain", run: retain_vec },
    Contender { name: "soa_derive ParticleVec::retain", run: retain_soa_derive },
    Contender { name: "slotmap DenseSlotMap::retain", run: retain_dense_slotmap },
    Contender { name: "limit: each dead particle replaced in place", run: retain_limit },
];

/// Whether the particle of `mass` dies in `frame`: a tenth of the population each frame,
/// a different tenth the next.
fn dies(mass: f32, frame: usize) -> bool {
    (mass as usize + frame).is_multiple_of(10)
}

/// Runs the frames of a retain run of `visits` on `store`, a population of `POPULATION`:
/// `retain(store, frame)` drops the dead, `spawn(store, id)` adds a new particle, `len`
/// counts them. The checksum is the dead counted plus `sum`'s total of the survivors'
/// masses at the end, the same in every layout.
fn frames<S>(
    visits: usize,
    mut store: S,
    len: impl Fn(&S) -> usize,
    mut retain: impl FnMut(&mut S, usize),
    mut spawn: impl FnMut(&mut S, u64),
    sum: impl FnOnce(&S) -> u64,
) -> u64 {
    let mut next = 0;
    for _ in 0..POPULATION {
        spawn(&mut store, next);
        next += 1;
    }
    let mut dead = 0;
    for frame in 0..visits.div_ceil(POPULATION) {
        let before = len(&store);
        retain(&mut store, frame);
        let dropped = before - len(&store);
        for _ in 0..dropped {
            spawn(&mut store, next);
            next += 1;
        }
        dead += dropped as u64;
    }
    dead + sum(&store)
}

/// The generated struct-of-arrays pool's `retain`: rows stay dense.
#[must_use]
pub fn retain_soa(visits: usize) -> u64 {
    SoaParticlePool::with_capacity(POPULATION, |pool| {
        frames(
            visits,
            pool,
            |pool| pool.len(),
            |pool, frame| pool.retain(|_, p| !dies(*p.mass, frame)),
            |pool, id| {
                pool.insert_keyed(Particle::new(id).into());
            },
            |pool| pool.mass_column().iter().map(|&m| m as u64).sum(),
        )
    })
}

/// The generated plain pool's `retain` (slots stay where they are).
#[must_use]
pub fn retain_pool(visits: usize) -> u64 {
    ParticlePool::with_capacity(POPULATION, |pool| {
        frames(
            visits,
            pool,
            |pool| pool.len(),
            |pool, frame| pool.retain(|_, p| !dies(p.mass, frame)),
            |pool, id| {
                pool.insert_keyed(Particle::new(id));
            },
            |pool| pool.iter().map(|(_, p)| p.mass as u64).sum(),
        )
    })
}

/// `Vec<Particle>::retain`: what dense storage without keys costs.
#[must_use]
pub fn retain_vec(visits: usize) -> u64 {
    frames(
        visits,
        Vec::with_capacity(POPULATION),
        Vec::len,
        |particles, frame| particles.retain(|p: &Particle| !dies(p.mass, frame)),
        |particles, id| particles.push(Particle::new(id)),
        |particles| particles.iter().map(|p| p.mass as u64).sum(),
    )
}

/// `soa_derive`'s `ParticleVec::retain`: struct-of-arrays without keys.
#[must_use]
pub fn retain_soa_derive(visits: usize) -> u64 {
    frames(
        visits,
        ParticleVec::with_capacity(POPULATION),
        ParticleVec::len,
        |particles, frame| particles.retain(|p| !dies(*p.mass, frame)),
        |particles, id| particles.push(Particle::new(id)),
        |particles| particles.mass.iter().map(|&m| m as u64).sum(),
    )
}

/// slotmap's `DenseSlotMap::retain`: dense values with keys, the design the
/// struct-of-arrays pool shares (one value array, one key indirection).
#[must_use]
pub fn retain_dense_slotmap(visits: usize) -> u64 {
    frames(
        visits,
        slotmap::DenseSlotMap::with_capacity(POPULATION),
        slotmap::DenseSlotMap::len,
        |map, frame| map.retain(|_, p: &mut Particle| !dies(p.mass, frame)),
        |map, id| {
            map.insert(Particle::new(id));
        },
        |map| map.values().map(|p| p.mass as u64).sum(),
    )
}

/// The limit: each particle that dies is replaced, in its place, by the one spawned for
/// it, so nothing is compacted or moved. The same particles live after every frame as in
/// the other rows (who dies depends on the mass and the frame, not on the order), so the
/// checksum is theirs.
#[must_use]
pub fn retain_limit(visits: usize) -> u64 {
    let mut next = POPULATION as u64;
    let mut particles: Vec<Particle> = (0..next).map(Particle::new).collect();
    let mut dead = 0;
    for frame in 0..visits.div_ceil(POPULATION) {
        for particle in &mut particles {
            if dies(particle.mass, frame) {
                *particle = Particle::new(next);
                next += 1;
                dead += 1;
            }
        }
    }
    dead + particles.iter().map(|p| p.mass as u64).sum::<u64>()
}
