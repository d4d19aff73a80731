//! W8 (the derive): churn on the pools `#[derive(ArenaAlloc)]` generates against the same
//! `Pool` used by hand, `Box`, slab, slotmap and a hand-written free list; and a one-field
//! scan over the struct-of-arrays column against `Vec<Particle>`, with the population
//! built outside the timed loop.
//!
//! `cargo bench --bench derive`

use std::hint::black_box;

use arena_kit::workloads::derived::{
    self, POPULATION, Particle, ParticlePool, SoaParticlePool, count_heavy, member,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn churn(c: &mut Criterion) {
    let mut group = c.benchmark_group("W8 derive churn");
    group.throughput(Throughput::Elements(derived::N as u64));
    group.sample_size(20);
    for contender in derived::CONTENDERS {
        group.bench_function(contender.name, |b| b.iter(|| (contender.run)(black_box(derived::N))));
    }
    group.finish();
}

fn scan(c: &mut Criterion) {
    let mut group = c.benchmark_group("W8 one-field scan of 100 000");
    group.throughput(Throughput::Elements(POPULATION as u64));
    SoaParticlePool::with_capacity(POPULATION, |mut pool| {
        for i in 0..POPULATION {
            pool.insert_keyed(member(i).into());
        }
        group.bench_function("arena-kit derive soa mass_column()", |b| {
            b.iter(|| count_heavy(black_box(&pool).mass_column().iter()));
        });
    });
    ParticlePool::with_capacity(POPULATION, |mut pool| {
        for i in 0..POPULATION {
            pool.insert_keyed(member(i));
        }
        group.bench_function("arena-kit derive ParticlePool iter()", |b| {
            b.iter(|| count_heavy(black_box(&pool).iter().map(|(_, p)| &p.mass)));
        });
    });
    let particles: Vec<Particle> = (0..POPULATION).map(member).collect();
    group.bench_function("Vec<Particle> (AoS)", |b| {
        b.iter(|| count_heavy(black_box(&particles).iter().map(|p| &p.mass)));
    });
    let masses: Vec<f32> = particles.iter().map(|p| p.mass).collect();
    group.bench_function("limit: Vec<f32> of masses", |b| {
        b.iter(|| count_heavy(black_box(&masses).iter()));
    });
    group.finish();
}

criterion_group!(derive, churn, scan);
criterion_main!(derive);
