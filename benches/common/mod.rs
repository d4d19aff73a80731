//! The one criterion driver of the three bench targets (`mod common;` in each): every
//! workload of the registry ([`arena_kit_report::workloads::ALL`]) whose bench names the target
//! becomes one criterion group, each contender one benchmark timing its `run` function at
//! the workload's size, the same function the report times. Kept out of the library so
//! criterion stays a dev-dependency.

use std::hint::black_box;

use arena_kit_report::workloads::{self, BenchFile, Workload};
use criterion::{Criterion, Throughput};

/// Times every workload the registry gives to `file`, in the registry's order.
///
/// # Panics
///
/// If `file` is not the bench target this runs in: its name, not the enum, is what
/// `cargo bench --bench <name>` takes.
pub(crate) fn bench_file(c: &mut Criterion, file: BenchFile) {
    assert_eq!(file.name(), env!("CARGO_CRATE_NAME"), "the registry's name for this bench");
    for workload in workloads::in_bench(file) {
        group(c, workload);
    }
}

/// One workload's group: `<group>/<contender name>` per contender, throughput in the
/// workload's operations per run.
fn group(c: &mut Criterion, workload: &Workload) {
    let n = workload.size;
    let mut group = c.benchmark_group(workload.bench.group);
    group.throughput(Throughput::Elements((workload.ops)(n)));
    group.sample_size(workload.bench.samples);
    for contender in workload.contenders {
        group.bench_function(contender.name, |b| b.iter(|| (contender.run)(black_box(n))));
    }
    group.finish();
}
