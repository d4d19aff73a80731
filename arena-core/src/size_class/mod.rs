//! Size-class pools: free lists of fixed-size chunks for requests of 1 to
//! [`MAX_CLASS_SIZE`] bytes (`boost::pool` per size), carved from pool blocks and
//! usable as an `allocator_api2` allocator.
//!
//! [`SizeClassPool`] (one thread) and [`SyncSizeClassPool`] (per-thread chunk caches
//! over locked classes) are at the crate root; [`SizeClassStats`] is what both report.

mod chunk_stack;
mod pool;
#[cfg(feature = "std")]
mod sync;

#[cfg(all(test, loom))]
pub(crate) use pool::class_index;
pub use pool::{MAX_CLASS_SIZE, SizeClassPool, SizeClassStats};
/// The locked pool's batch between a thread's cache and the shared classes: not a
/// promise.
#[cfg(feature = "std")]
#[doc(hidden)]
pub use sync::CACHE_BATCH;
#[cfg(feature = "std")]
pub use sync::SyncSizeClassPool;
