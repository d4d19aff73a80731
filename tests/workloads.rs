//! Every contender of every workload builds the same thing: equal checksums at a small
//! size, so no benchmark row is faster by doing less.

use arena_kit::workloads::{
    Contender, binary_trees, expected_sum, fixed_churn, many_small, scope_churn, string_growth,
    two_pools,
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
    for workload in arena_kit::workloads::ALL {
        // W7's size is a tree depth; the others are counts.
        let n = if workload.id == "W7" { 6 } else { (workload.quick_size / 20).max(3) };
        agree(workload.contenders, n);
        assert!(workload.contenders.iter().all(|c| !c.name.is_empty()));
    }
}
