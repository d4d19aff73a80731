//! Blocks and the caches that recycle them: what a [`BlockPool`], a [`SharedBlockPool`]
//! or a [`BufferBlockPool`] hands to scopes, and what they report.
//!
//! A block is one allocation from the system allocator, sized so that it and the
//! allocator's bookkeeping fill whole pages ([`DEFAULT_BLOCK_SIZE`]). A scope takes its
//! blocks from a pool and gives them back at its end; the pool keeps them for the next
//! scope, up to its `max_free`. The pools are at the crate root; here are their
//! counters ([`BlockPoolStats`], [`SharedBlockPoolStats`]), a block as a scope
//! describes it ([`BlockInfo`], [`BlockKind`]), and a thread's cache over a shared pool
//! ([`LocalBlockPool`]).

// The wing inside: `raw` (the one module that calls the system allocator), `buffer`
// (`BufferBlockPool`: blocks cut from a caller's buffer), `header` (a
// block and its header, owned as a token, and the intrusive list blocks are kept in),
// `info`, `hot_slot` (the last block given back, lent to the next scope by address),
// `pool` (`BlockPool` and the cache under it), `shared` (`SharedBlockPool`), `local`
// (its per-thread `LocalBlockPool`).

mod buffer;
mod header;
mod hot_slot;
mod info;
#[cfg(feature = "std")]
mod local;
mod pool;
pub(crate) mod raw;
#[cfg(feature = "std")]
mod shared;

pub use buffer::BufferBlockPool;
pub(crate) use header::{
    BLOCK_ALIGN, Block, BlockList, HEADER, dedicated_size, fits_standard, smallest_size,
};
pub use info::{BlockInfo, BlockKind};
#[cfg(feature = "std")]
pub use local::LocalBlockPool;
pub(crate) use pool::BlockCache;
#[cfg(feature = "alloc")]
pub use pool::BlockPool;
pub use pool::{BlockPoolStats, DEFAULT_BLOCK_SIZE};
/// Tuning constants of the shared pool's per-thread caches: not a promise.
#[cfg(feature = "std")]
#[doc(hidden)]
pub use shared::{LOCAL_MAX_FREE, REFILL_BATCH};
#[cfg(feature = "std")]
pub use shared::{SharedBlockPool, SharedBlockPoolStats};
