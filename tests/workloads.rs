//! Every contender of every workload builds the same thing: equal checksums at a small
//! size, so no benchmark row is faster by doing less.

use arena_kit::workloads::{Contender, expected_sum, many_small, scope_churn};

fn check_all(contenders: &[Contender], n: usize) {
    for contender in contenders {
        assert_eq!((contender.run)(n), expected_sum(n), "{} at n = {n}", contender.name);
    }
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
