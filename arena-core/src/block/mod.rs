//! The block wing: system memory in page-filling blocks, and the caches that recycle
//! them between scopes.
//!
//! - `raw`: the one module that calls the system allocator.
//! - `header`: a [`Block`](header::Block), one allocation with its header, owned as a
//!   token, and the intrusive list blocks are kept in.
//! - `info`: what a block is, as the public API reports it.
//! - `hot_slot`: the most recently returned block, kept by address for the next scope.
//! - `pool`: `BlockPool` and the cache under it.
//! - `shared`: `SharedBlockPool` and its per-thread `LocalBlockPool` caches.

pub(crate) mod header;
mod hot_slot;
pub(crate) mod info;
pub(crate) mod pool;
pub(crate) mod raw;
#[cfg(feature = "std")]
pub(crate) mod shared;
