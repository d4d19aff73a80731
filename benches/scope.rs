//! W1 and W2 (seed 000; W1 also on two threads over a shared block pool), W6 (seed 001,
//! string growth) and W7 (binary trees; W7-par on all cores with rayon): arena-kit's
//! scopes and arenas against `Box`, bumpalo, typed-arena and a hand-written limit, side by
//! side in one criterion run.
//!
//! `cargo bench --bench scope`; per-element times, as throughput is set to the workload's
//! operation count (W7: the nodes built). The groups are the registry's
//! ([`arena_kit_report::workloads::ALL`], those whose bench is [`BenchFile::Scope`]).

mod common;

use arena_kit_report::workloads::BenchFile;
use criterion::{Criterion, criterion_group, criterion_main};

fn benches(c: &mut Criterion) {
    common::bench_file(c, BenchFile::Scope);
}

criterion_group!(scope, benches);
criterion_main!(scope);
