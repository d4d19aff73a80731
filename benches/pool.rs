//! W3 (seed 002, variable size: `SizeClassPool` against malloc and a per-class free list),
//! W4 and W5 (seeds 002 and 003): arena-kit's branded `Pool` against `Box`, slab,
//! slotmap, bumpalo and hand-written limits, side by side in one criterion run; and
//! handle access (`get`) against slab's and slotmap's; W3 and W4 on one thread and on two
//! (the locked and sharded pools against `Mutex<Slab>`, sharded-slab and malloc).
//!
//! `cargo bench --bench pool`. The groups are the registry's
//! ([`arena_kit_report::workloads::ALL`], those whose bench is [`BenchFile::Pool`]).

mod common;

use arena_kit_report::workloads::BenchFile;
use criterion::{Criterion, criterion_group, criterion_main};

fn benches(c: &mut Criterion) {
    common::bench_file(c, BenchFile::Pool);
}

criterion_group!(pool, benches);
criterion_main!(pool);
