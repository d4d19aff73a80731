//! loom models of the thread-safe flavours (`RUSTFLAGS="--cfg loom"`, run by `.ci/run`):
//! each explores every interleaving of a few threads on one structure, up to a bound on
//! preemptions, and checks that no memory is handed out twice or lost.
//!
//! The shared block pool's model lives beside it (`block/shared.rs`); these need
//! the pools' internals too, one model per file.

mod atomic_pool;
mod spin_lock;
mod sync_pool;
mod sync_size_class;
