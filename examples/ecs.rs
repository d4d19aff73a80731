//! An ECS-style frame loop over a struct-of-arrays pool: a fountain emits sparks every
//! frame, the physics system moves them with two columns borrowed at once
//! (`columns_mut()`), the ageing system counts down one column, and the despawn system
//! removes burnt-out or grounded sparks in one `retain` pass. A side table
//! (`SecondaryMap`) names a few sparks by key; the keys stay valid while `retain` moves
//! rows around, and the table forgets a spark when it is despawned.
//!
//! `cargo run --example ecs`; `cargo test --example ecs` replays the same frames on a
//! `Vec` of structs and checks that both worlds hold the same sparks, bit for bit.

use arena_kit::{ArenaAlloc, Key, SecondaryMap};

/// Gravity, in units per frame squared.
const GRAVITY: f32 = 0.05;
/// Sparks the fountain emits per frame.
const EMIT: u32 = 64;
/// Every this many sparks, one is named in the side table.
const NAME_EVERY: u32 = 97;

/// One spark: each field is a column of the generated `SparkPool`.
#[derive(ArenaAlloc, Debug, Clone, Copy, PartialEq)]
#[arena(soa)]
struct Spark {
    /// Which emission this was (for the checks).
    id: u32,
    pos: [f32; 2],
    vel: [f32; 2],
    /// Frames left to burn.
    life: u32,
}

/// The spark emitted `id`-th: a deterministic spread of angles, speeds and lifetimes.
fn emit(id: u32) -> Spark {
    let h = id.wrapping_mul(2_654_435_761); // Knuth's multiplicative hash
    let dx = f32::from(u16::try_from(h % 200).unwrap_or(0)) / 100.0 - 1.0;
    let up = 1.0 + f32::from(u16::try_from((h >> 8) % 100).unwrap_or(0)) / 100.0;
    Spark { id, pos: [0.0, 0.0], vel: [dx, up], life: 20 + (h >> 16) % 40 }
}

/// What a run saw.
#[derive(Debug, Default, PartialEq)]
struct Tally {
    spawned: u32,
    despawned: usize,
    /// Live sparks after each frame.
    live: Vec<usize>,
    /// The sparks left at the end, sorted by id.
    survivors: Vec<Spark>,
    /// The named sparks left at the end: (id, name).
    named: Vec<(u32, String)>,
}

/// A spark the despawn system keeps: still burning and above the ground.
fn alive(pos: [f32; 2], life: u32) -> bool {
    life > 0 && pos[1] >= 0.0
}

/// The physics system on two columns: the same code for the pool's columns and for the
/// model, so both worlds compute bit-identical positions.
fn integrate(pos: &mut [f32; 2], vel: &mut [f32; 2]) {
    vel[1] -= GRAVITY;
    pos[0] += vel[0];
    pos[1] += vel[1];
}

/// Runs `frames` frames of the fountain on the struct-of-arrays pool.
fn run(frames: u32) -> Tally {
    SparkPool::with(|mut sparks| {
        let mut names: SecondaryMap<Key<'_>, String> = SecondaryMap::new();
        let mut tally = Tally::default();
        for _ in 0..frames {
            // Spawn.
            for _ in 0..EMIT {
                let id = tally.spawned;
                let key = sparks.insert_keyed(emit(id));
                if id % NAME_EVERY == 0 {
                    names.insert(key, format!("spark #{id}"));
                }
                tally.spawned += 1;
            }
            // Physics: positions and velocities, two columns borrowed together.
            let columns = sparks.columns_mut();
            for (pos, vel) in columns.pos.iter_mut().zip(columns.vel.iter_mut()) {
                integrate(pos, vel);
            }
            // Ageing: one column, a loop the compiler vectorises.
            for life in sparks.life_column_mut() {
                *life = life.saturating_sub(1);
            }
            // Despawn, in one pass; the side table forgets the sparks that go.
            let before = sparks.len();
            sparks.retain(|key, spark| {
                let keep = alive(*spark.pos, *spark.life);
                if !keep {
                    names.remove(key);
                }
                keep
            });
            tally.despawned += before - sparks.len();
            tally.live.push(sparks.len());
        }
        // Every name left points at a live spark, whose row moved any number of times.
        for (key, name) in &names {
            let spark = sparks.get_key(key).expect("a named spark is alive");
            assert_eq!(*name, format!("spark #{}", spark.id));
            tally.named.push((*spark.id, name.clone()));
        }
        tally.named.sort();
        tally.survivors = sparks
            .iter()
            .map(|(_, s)| Spark { id: *s.id, pos: *s.pos, vel: *s.vel, life: *s.life })
            .collect();
        tally.survivors.sort_by_key(|s| s.id);
        tally
    })
}

fn main() {
    let tally = run(120);
    let peak = tally.live.iter().max().copied().unwrap_or(0);
    println!(
        "{} sparks spawned, {} despawned, {} alive at the end (peak {peak}); {} named sparks left",
        tally.spawned,
        tally.despawned,
        tally.survivors.len(),
        tally.named.len()
    );
    if let Some(highest) = tally.survivors.iter().max_by(|a, b| a.pos[1].total_cmp(&b.pos[1])) {
        println!("highest spark: #{} at {:?}", highest.id, highest.pos);
    }
}

/// The same frames on a `Vec<Spark>` with `Vec::retain`: the reference the pool must match.
#[cfg(test)]
fn run_model(frames: u32) -> Tally {
    let mut sparks: Vec<Spark> = Vec::new();
    let mut tally = Tally::default();
    for _ in 0..frames {
        for _ in 0..EMIT {
            sparks.push(emit(tally.spawned));
            tally.spawned += 1;
        }
        for s in &mut sparks {
            integrate(&mut s.pos, &mut s.vel);
            s.life = s.life.saturating_sub(1);
        }
        let before = sparks.len();
        sparks.retain(|s| alive(s.pos, s.life));
        tally.despawned += before - sparks.len();
        tally.live.push(sparks.len());
    }
    tally.named = sparks
        .iter()
        .filter(|s| s.id % NAME_EVERY == 0)
        .map(|s| (s.id, format!("spark #{}", s.id)))
        .collect();
    sparks.sort_by_key(|s| s.id);
    tally.survivors = sparks;
    tally
}

#[test]
fn the_pool_world_matches_a_vec_of_structs_frame_by_frame() {
    let frames = if cfg!(miri) { 8 } else { 120 };
    let pool = run(frames);
    assert_eq!(pool, run_model(frames));
    assert!(pool.despawned > 0, "some sparks must burn out: {pool:?}");
    assert!(!pool.survivors.is_empty() && !pool.named.is_empty());
}
