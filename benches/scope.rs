//! W1 and W2 (seed 000; W1 also on two threads over a shared block pool), W6 (seed 001, string growth) and W7 (binary trees): arena-kit's scopes and arenas against
//! `Box`, bumpalo, typed-arena and a hand-written limit, side by side in one criterion run.
//!
//! `cargo bench --bench scope`; per-element times, as throughput is set to the workload's
//! allocation count.

use std::hint::black_box;

use arena_kit::workloads::{
    Contender, binary_trees, many_small, scope_churn, string_growth, threads,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn group(c: &mut Criterion, name: &str, n: usize, contenders: &[Contender]) {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(n as u64));
    for contender in contenders {
        group.bench_function(contender.name, |b| b.iter(|| (contender.run)(black_box(n))));
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    group(c, "W1 scope churn", scope_churn::N, scope_churn::CONTENDERS);
    group(c, "W1 on one and two threads", threads::W1_N, threads::W1_CONTENDERS);
    group(c, "W2 many small", many_small::N, many_small::CONTENDERS);
    group(c, "W6 string growth 100k", string_growth::N_SMALL, string_growth::CONTENDERS);
    group(c, "W6 string growth 1M", string_growth::N_LARGE, string_growth::CONTENDERS);
    let mut trees = c.benchmark_group("W7 binary trees");
    trees.sample_size(10);
    trees.throughput(Throughput::Elements(binary_trees::expected(binary_trees::DEPTH)));
    for contender in binary_trees::CONTENDERS {
        trees.bench_function(contender.name, |b| {
            b.iter(|| (contender.run)(black_box(binary_trees::DEPTH)));
        });
    }
    trees.finish();
}

criterion_group!(scope, benches);
criterion_main!(scope);
