//! arena-kit's workspace package: the seed workloads shared by the benchmarks and the
//! report binary, and the workspace-wide integration tests.
//!
//! Each workload lives in [`workloads`] once, as plain functions per contender, so the
//! criterion benches (`benches/`) and `cargo run --release` measure the same code.

pub mod report;
pub mod workloads;

/// The README's code blocks, compiled and run by `cargo test` so the tour cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
