//! W3 (seed 002, variable size: `SizeClassPool` against malloc and a per-class free list),
//! W4 and W5 (seeds 002 and 003): arena-kit's branded `Pool` against `Box`, slab,
//! slotmap, bumpalo and hand-written limits, side by side in one criterion run; and
//! handle access (`get`) against slab's and slotmap's; W3 and W4 on one thread and on two
//! (the locked and sharded pools against `Mutex<Slab>`, sharded-slab and malloc).
//!
//! `cargo bench --bench pool`

use std::hint::black_box;

use arena_kit::workloads::{Contender, fixed_churn, size_classes, threads, two_pools};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn group(c: &mut Criterion, name: &str, n: usize, contenders: &[Contender]) {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(n as u64));
    group.sample_size(20);
    for contender in contenders {
        group.bench_function(contender.name, |b| b.iter(|| (contender.run)(black_box(n))));
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    group(c, "W3 variable-size churn, 20 000 live", size_classes::N, size_classes::CONTENDERS_20K);
    group(c, "W3 variable-size churn, 50 000 live", size_classes::N, size_classes::CONTENDERS_50K);
    group(c, "W4 fixed-size churn", fixed_churn::N, fixed_churn::CONTENDERS);
    group(c, "W4 handle access", fixed_churn::N, fixed_churn::GET_CONTENDERS);
    group(c, "W5 two pools", two_pools::N, two_pools::CONTENDERS);
    group(c, "W3 on one and two threads", threads::N, threads::W3_CONTENDERS);
    group(c, "W4 on one and two threads", threads::N, threads::W4_CONTENDERS);
}

criterion_group!(pool, benches);
criterion_main!(pool);
