//! Sticky particles in a box: when two touch, the heavier swallows the lighter
//! (momentum is kept). The particles live in a `KeyPool`; a collision updates both at
//! once with `get_disjoint_mut`, a particle swallowed earlier in the step shows up as a
//! stale key and is skipped, and when more than half the slots are holes the pool is
//! compacted, with `compact` telling which keys moved so the named probes follow their
//! particles.
//!
//! `cargo run --example particles`; `cargo test --example particles` checks that mass
//! and momentum are conserved and that every probe still names a live particle.

use std::collections::HashMap;

use arena_kit::{GetDisjointMutError, KeyPool, TypedKey};

/// Side of the square box (it wraps around).
const SIZE: f64 = 100.0;
/// Particles closer than this stick together.
const REACH: f64 = 1.5;

#[derive(Debug, Clone)]
struct Particle {
    /// Which particle this was at the start (the swallower keeps its own).
    id: u32,
    pos: [f64; 2],
    vel: [f64; 2],
    mass: f64,
}

type Key = TypedKey<Particle>;

/// What a run did, for the report and the checks.
#[derive(Debug, Default)]
struct Tally {
    merges: usize,
    stale_pairs: usize,
    compactions: usize,
    moved: usize,
}

struct World {
    particles: KeyPool<Particle>,
    /// Particles followed by name; a probe follows its particle when it is swallowed.
    probes: HashMap<&'static str, Key>,
    tally: Tally,
}

/// A small deterministic generator (xorshift64*), so runs repeat.
struct Rng(u64);

impl Rng {
    fn next_f64(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let bits = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11;
        #[expect(clippy::cast_precision_loss, reason = "53 random bits fit an f64 exactly")]
        let unit = bits as f64 / (1_u64 << 53) as f64;
        unit
    }
}

impl World {
    fn new(count: u32, seed: u64) -> World {
        let mut rng = Rng(seed);
        let mut particles = KeyPool::with_capacity(count as usize);
        for id in 0..count {
            let mut r = || rng.next_f64();
            particles.insert(Particle {
                id,
                pos: [r() * SIZE, r() * SIZE],
                vel: [r() - 0.5, r() - 0.5],
                mass: 1.0 + r() * 4.0,
            });
        }
        let probes = ["alpha", "beta", "gamma"].into_iter().zip(particles.keys()).collect();
        World { particles, probes, tally: Tally::default() }
    }

    /// Total mass and momentum: what every step must keep.
    fn totals(&self) -> (f64, [f64; 2]) {
        self.particles.values().fold((0.0, [0.0; 2]), |(m, p), q| {
            (m + q.mass, [p[0] + q.mass * q.vel[0], p[1] + q.mass * q.vel[1]])
        })
    }

    fn step(&mut self) {
        for p in self.particles.values_mut() {
            for axis in 0..2 {
                p.pos[axis] = (p.pos[axis] + p.vel[axis]).rem_euclid(SIZE);
            }
        }
        // Candidate pairs by a sweep along x (wrapping ignored: a near miss at the edge).
        let mut by_x: Vec<(f64, Key)> = self.particles.iter().map(|(k, p)| (p.pos[0], k)).collect();
        by_x.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (i, &(x, a)) in by_x.iter().enumerate() {
            for &(other_x, b) in &by_x[i + 1..] {
                if other_x - x > REACH {
                    break;
                }
                self.collide(a, b);
            }
        }
        if self.particles.stats().free > self.particles.len() {
            self.compact();
        }
    }

    /// Merges `a` and `b` if both are still there and touch.
    fn collide(&mut self, a: Key, b: Key) {
        let [pa, pb] = match self.particles.get_disjoint_mut([a, b]) {
            Ok(pair) => pair,
            Err(GetDisjointMutError::StaleKey) => {
                // One of them was swallowed earlier in this step.
                self.tally.stale_pairs += 1;
                return;
            }
            Err(e) => unreachable!("the sweep never pairs a key with itself: {e}"),
        };
        let (dx, dy) = (pa.pos[0] - pb.pos[0], pa.pos[1] - pb.pos[1]);
        if dx.hypot(dy) >= REACH {
            return;
        }
        let (big, small, survivor, victim) =
            if pa.mass >= pb.mass { (pa, pb, a, b) } else { (pb, pa, b, a) };
        let mass = big.mass + small.mass;
        for axis in 0..2 {
            big.vel[axis] = (big.mass * big.vel[axis] + small.mass * small.vel[axis]) / mass;
            big.pos[axis] = (big.mass * big.pos[axis] + small.mass * small.pos[axis]) / mass;
        }
        big.mass = mass;
        self.particles.remove(victim);
        for probe in self.probes.values_mut() {
            if *probe == victim {
                *probe = survivor;
            }
        }
        self.tally.merges += 1;
    }

    /// Packs the particles into the lowest slots; the probes follow the ones that move.
    fn compact(&mut self) {
        let (probes, tally) = (&mut self.probes, &mut self.tally);
        self.particles.compact(|_, old, new| {
            for probe in probes.values_mut() {
                if *probe == old {
                    *probe = new;
                }
            }
            tally.moved += 1;
            true
        });
        tally.compactions += 1;
    }
}

/// Runs `steps` steps of `count` particles; returns the world, checking the totals
/// after every step.
fn run(count: u32, steps: usize) -> World {
    let mut world = World::new(count, 0x00C0_FFEE);
    let (mass, momentum) = world.totals();
    for _ in 0..steps {
        world.step();
        let (m, p) = world.totals();
        assert!((m - mass).abs() < 1e-9 * mass, "mass is kept");
        for axis in 0..2 {
            assert!((p[axis] - momentum[axis]).abs() < 1e-9 * mass, "momentum is kept");
        }
        for (name, &key) in &world.probes {
            assert!(world.particles.contains_key(key), "probe {name} names a live particle");
        }
    }
    world
}

fn main() {
    let world = run(400, 80);
    let t = &world.tally;
    println!(
        "400 particles -> {} after 80 steps: {} merges ({} pairs met a swallowed particle)",
        world.particles.len(),
        t.merges,
        t.stale_pairs
    );
    println!("compacted {} times, moving {} particles", t.compactions, t.moved);
    let mut probes: Vec<_> = world.probes.iter().collect();
    probes.sort();
    for (name, &key) in probes {
        let p = &world.particles[key];
        println!("{name:>5}: particle #{} of mass {:.1} in slot {}", p.id, p.mass, key.index());
    }
}

#[test]
fn mass_momentum_and_probes_survive_merges_and_compaction() {
    let world = run(400, 80);
    let t = &world.tally;
    assert!(t.merges > 0 && t.compactions > 0 && t.moved > 0, "the run exercises it all: {t:?}");
    assert_eq!(world.particles.len() + t.merges, 400, "each merge removes one particle");
    assert!(world.particles.stats().free <= world.particles.len(), "compaction keeps holes few");
    let ids: std::collections::HashSet<_> = world.particles.values().map(|p| p.id).collect();
    assert_eq!(ids.len(), world.particles.len(), "every survivor keeps its own id");
}
