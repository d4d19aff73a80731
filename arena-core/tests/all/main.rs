//! arena-kit's integration tests, one binary (bumpalo's `tests/all` layout) so Miri and
//! valgrind start one process. Sizes shrink under `cfg(miri)`.
#![expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "tests cast small loop counters into ids and byte patterns"
)]
#![expect(clippy::ref_as_ptr, reason = "tests read addresses to check alignment and overlap")]

mod allocator_buffers;
mod arena;
mod arena_pool;
mod arena_vec;
mod auto_traits;
mod block_pool;
mod cold_part;
mod collections;
mod common;
mod drops;
mod errors;
mod forged_keys;
mod hostile_allocator;
mod hostile_arena;
mod hostile_arena_box;
mod hostile_arena_string;
mod hostile_arena_vec;
mod hostile_pool_parity;
mod hostile_scope;
mod hostile_secondary_map;
mod hostile_sync_pool;
mod hostile_sync_size_class;
mod hostile_vec_ops;
mod hot_slot_attacks;
mod key_pool;
mod model;
mod nested;
mod peer_bumpalo;
mod peer_slab;
mod peer_slotmap;
mod peer_typed_arena;
mod pool;
mod pool_model;
mod row_index;
mod scope;
mod scoped;
mod secondary_map;
mod serde;
mod shared_block_pool;
mod size_class;
mod small_limits;
mod soa_pool;
mod sync_pools;
