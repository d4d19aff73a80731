//! The seed workloads of `shared/WORKLOADS.md`, one module each, every contender a plain
//! function `fn(n) -> u64` that runs the workload at size `n` and returns a checksum of
//! what it built. Equal checksums across contenders show that none is faster by doing
//! less; the tests check them and the benches time them.

pub mod binary_trees;
pub mod fixed_churn;
pub mod many_small;
pub mod scope_churn;
pub mod two_pools;

/// One way of running a workload.
#[derive(Debug, Clone, Copy)]
pub struct Contender {
    /// Short name shown in tables: crate and type, e.g. `"bumpalo Bump::reset"`.
    pub name: &'static str,
    /// Runs the workload at size `n`; returns its checksum.
    pub run: fn(usize) -> u64,
}

/// The checksum every contender must reach for `n` allocations of the values `0..n`.
#[must_use]
pub fn expected_sum(n: usize) -> u64 {
    let n = n as u64;
    n * n.saturating_sub(1) / 2
}

/// The values `0..n` a workload allocates, as `u32` (the seeds allocate `int`s).
///
/// # Panics
///
/// If `n` does not fit in a `u32`: no workload is that large.
#[must_use]
pub fn values(n: usize) -> std::ops::Range<u32> {
    0..u32::try_from(n).expect("workload sizes fit in u32")
}

/// Runs `n` rounds of `round(i)` for `i` in [`values(n)`](values), summing what each
/// round read back: the shape of W1, one allocator per round.
pub fn sum_rounds(n: usize, mut round: impl FnMut(u32) -> u32) -> u64 {
    values(n).map(|i| u64::from(round(std::hint::black_box(i)))).sum()
}

/// Allocates the values `0..n` with `alloc`, reading each back: the shape of W2, one
/// allocator for all of them.
pub fn sum_allocs<'a>(n: usize, mut alloc: impl FnMut(u32) -> &'a mut u32) -> u64 {
    values(n).map(|i| u64::from(*std::hint::black_box(alloc(std::hint::black_box(i))))).sum()
}
