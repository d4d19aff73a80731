//! Typed pools: `Pool`, `KeyPool`, `SyncPool`, `SecondaryMap`, `SoaPool`, keys from outside, serde, and the peers' (slab, slotmap) suites.

mod branded;
mod forged_keys;
mod hostile_pool_parity;
mod hostile_secondary_map;
mod hostile_sync_pool;
mod key_pool;
mod named_keys;
mod peer_slab;
mod peer_slotmap;
mod pool_model;
mod row_index;
mod secondary_map;
mod serde;
mod soa_pool;
