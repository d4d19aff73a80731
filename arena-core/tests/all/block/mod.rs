//! Blocks and block pools: `BlockPool`, `SharedBlockPool` and its thread caches, the hot slot.

mod block_pool;
#[cfg(feature = "allocator-api2")]
mod hot_slot_attacks;
mod shared_block_pool;
