//! arena-kit's integration tests, one binary (bumpalo's `tests/all` layout) so Miri and
//! valgrind start one process. Sizes shrink under `cfg(miri)`.
//!
//! Filed by subject, a folder per wing of the crate (`block`, `scope`, `collections`,
//! `pool`, `size_class`): a subject's tests, its hostile programs (`hostile_*`, the ones
//! written to break the unsafe code; Tree Borrows runs them), the peers' suites ported
//! to it (`peer_*`) and its models sit together. What crosses wings (errors, `Send` and
//! `Sync`, the locked pools under threads) is at the top.
#![expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "tests cast small loop counters into ids and byte patterns"
)]
#![expect(clippy::ref_as_ptr, reason = "tests read addresses to check alignment and overlap")]

mod auto_traits;
mod block;
mod collections;
mod common;
mod errors;
mod pool;
mod scope;
mod size_class;
mod sync_pools;
