//! arena-kit's workspace package: the seed workloads shared by the benchmarks and the
//! report binary, and the workspace-wide integration tests.
//!
//! Each workload lives in [`workloads`] once, as plain functions per contender, and is
//! registered once in [`workloads::ALL`] with everything its consumers need (sizes, what
//! the size counts, its criterion group), so the criterion benches (`benches/`, loops over
//! the registry) and `cargo run --release` measure the same code the same way.

pub mod report;
pub mod workloads;

/// The README's code blocks, compiled and run by `cargo test` so the tour cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The code blocks of docs/no-allocator.md, compiled and run by `cargo test`.
#[cfg(doctest)]
#[doc = include_str!("../docs/no-allocator.md")]
struct NoAllocatorDoctests;
