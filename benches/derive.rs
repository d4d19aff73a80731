//! W8 (the derive): churn on the pools `#[derive(ArenaAlloc)]` generates against the same
//! `Pool` used by hand, `soa_derive`, `Box`, slab, slotmap and a hand-written free list; a
//! one-field scan and a two-field step over the struct-of-arrays columns against
//! `soa_derive` and `Vec<Particle>`; a despawn by `retain` against `Vec::retain`,
//! `soa_derive` and slotmap's `DenseSlotMap`: the same runs the report times (the population built
//! once, then passed over many times).
//!
//! `cargo bench --bench derive`. The groups are the registry's
//! ([`arena_kit_report::workloads::ALL`], those whose bench is [`BenchFile::Derive`]).

mod common;

use arena_kit_report::workloads::BenchFile;
use criterion::{Criterion, criterion_group, criterion_main};

fn benches(c: &mut Criterion) {
    common::bench_file(c, BenchFile::Derive);
}

criterion_group!(derive, benches);
criterion_main!(derive);
