//! Every contender of every workload builds the same thing: equal checksums at a small
//! size, so no benchmark row is faster by doing less.

use arena_kit_report::workloads::{
    ALL, BenchFile, Contender, SizeKind, binary_trees, binary_trees_par, expected_sum, fixed_churn,
    in_bench, many_small, scope_churn, string_growth, two_pools,
};

/// Every contender's checksum equals `expected` (the first contender's when `None`).
fn agree_on(contenders: &[Contender], n: usize, expected: Option<u64>) {
    let expected = expected.unwrap_or_else(|| (contenders[0].run)(n));
    for contender in contenders {
        assert_eq!((contender.run)(n), expected, "{} at n = {n}", contender.name);
    }
}

fn check_all(contenders: &[Contender], n: usize) {
    agree_on(contenders, n, Some(expected_sum(n)));
}

fn agree(contenders: &[Contender], n: usize) {
    agree_on(contenders, n, None);
}

#[test]
fn w1_contenders_agree() {
    for n in [0, 1, 1000] {
        check_all(scope_churn::CONTENDERS, n);
    }
}

#[test]
fn w2_contenders_agree() {
    for n in [0, 1, 5000] {
        check_all(many_small::CONTENDERS, n);
    }
}

#[test]
fn the_seed_sizes_are_kept() {
    assert_eq!((scope_churn::N, many_small::N), (60_000, 60_000));
}

#[test]
fn w4_churn_contenders_agree() {
    for n in [0, 1, 50_000] {
        agree(fixed_churn::CONTENDERS, n);
    }
}

#[test]
fn w4_handle_access_contenders_agree() {
    agree(fixed_churn::GET_CONTENDERS, 10_000);
}

#[test]
fn w5_contenders_agree() {
    for n in [0, 1, 10_000] {
        agree(two_pools::CONTENDERS, n);
    }
}

#[test]
fn w7_contenders_build_every_node() {
    for depth in [6, 10] {
        for contender in binary_trees::CONTENDERS {
            assert_eq!((contender.run)(depth), binary_trees::expected(depth), "{}", contender.name);
        }
    }
}

#[test]
fn w7_par_contenders_reach_the_sequential_w7_checksum() {
    for depth in [6, 10, 12] {
        let sequential = (binary_trees::CONTENDERS[0].run)(depth);
        assert_eq!(sequential, binary_trees::expected(depth));
        for contender in binary_trees_par::CONTENDERS {
            assert_eq!((contender.run)(depth), sequential, "{} at depth {depth}", contender.name);
        }
    }
}

#[test]
fn w6_contenders_agree() {
    for n in [0, 1, 20_000] {
        agree(string_growth::CONTENDERS, n);
    }
}

#[test]
fn w6_arena_strings_hold_at_most_a_tenth_more_than_their_capacity() {
    for n in [string_growth::N_SMALL, string_growth::N_LARGE] {
        for probe in string_growth::MEMORY {
            let held = (probe.held)(n);
            assert!(held.capacity >= n, "{} reached {} for {n}", probe.name, held.capacity);
            if probe.name.contains("ArenaString") {
                assert!(held.bytes * 10 <= held.capacity * 11, "{}: {held:?}", probe.name);
            }
        }
    }
}

#[test]
fn every_workload_s_contenders_agree_at_a_small_size() {
    for workload in ALL {
        let n = match workload.size_kind {
            SizeKind::Depth => 6,
            SizeKind::Count => (workload.quick_size / 20).max(3),
        };
        agree(workload.contenders, n);
        assert!(workload.contenders.iter().all(|c| !c.name.is_empty()));
    }
}

#[test]
fn a_count_is_scaled_and_a_depth_is_not() {
    assert_eq!(SizeKind::Count.scaled(60_000, 100), 600);
    assert_eq!(SizeKind::Count.scaled(50, 100), 1);
    assert_eq!(SizeKind::Depth.scaled(16, 100), 16);
    // Binary trees, on one thread and on all cores, are the workloads sized by depth.
    let names = |c: &[Contender]| c.iter().map(|c| c.name).collect::<Vec<_>>();
    let depths: Vec<_> = ALL.iter().filter(|w| w.size_kind == SizeKind::Depth).collect();
    assert_eq!(depths.len(), 2);
    assert_eq!(names(depths[0].contenders), names(binary_trees::CONTENDERS));
    assert_eq!(names(depths[1].contenders), names(binary_trees_par::CONTENDERS));
}

#[test]
fn every_workload_has_one_bench_group_of_its_own() {
    let groups: Vec<(&str, &str)> = BenchFile::ALL
        .into_iter()
        .flat_map(|file| in_bench(file).map(move |w| (file.name(), w.bench.group)))
        .collect();
    assert_eq!(groups.len(), ALL.len(), "each workload in exactly one bench target");
    let mut names: Vec<&str> = groups.iter().map(|&(_, group)| group).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), ALL.len(), "criterion ids `group/contender` are unique");
    // criterion refuses fewer than 10 samples.
    assert!(ALL.iter().all(|w| w.bench.samples >= 10));
    // The ids the benches have always produced (BENCHMARKS.md quotes them).
    let by_file = |name: &str| -> Vec<&str> {
        groups.iter().filter(|&&(file, _)| file == name).map(|&(_, group)| group).collect()
    };
    assert_eq!(
        by_file("scope"),
        [
            "W1 scope churn",
            "W1 on one and two threads",
            "W2 many small",
            "W6 string growth 100k",
            "W6 string growth 1M",
            "W7 binary trees",
            "W7 binary trees on all cores",
        ]
    );
    assert_eq!(
        by_file("pool"),
        [
            "W3 variable-size churn, 20 000 live",
            "W3 variable-size churn, 50 000 live",
            "W3 on one and two threads",
            "W4 fixed-size churn",
            "W4 handle access",
            "W4 on one and two threads",
            "W5 two pools",
            "W9 lookups",
        ]
    );
    assert_eq!(
        by_file("derive"),
        [
            "W8 derive churn",
            "W8 one-field scan of 100 000",
            "W8 position step of 100 000",
            "W8 retain a tenth of 100 000",
        ]
    );
}
