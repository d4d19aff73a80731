//! W8 (the derive): churn on the pools `#[derive(ArenaAlloc)]` generates against the same
//! `Pool` used by hand, `Box`, slab, slotmap and a hand-written free list; and a one-field
//! scan over the struct-of-arrays column against `Vec<Particle>`, the same run the report
//! times (the population built once, then scanned 100 times).
//!
//! `cargo bench --bench derive`. The groups are the registry's
//! ([`arena_kit::workloads::ALL`], those whose bench is [`BenchFile::Derive`]).

mod common;

use arena_kit::workloads::BenchFile;
use criterion::{Criterion, criterion_group, criterion_main};

fn benches(c: &mut Criterion) {
    common::bench_file(c, BenchFile::Derive);
}

criterion_group!(derive, benches);
criterion_main!(derive);
