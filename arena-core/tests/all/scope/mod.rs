//! Scopes and arenas: lifecycle, nesting, limits, drops, `&Scope` as an allocator, the bump's cold part, and the peers' (bumpalo, typed-arena) suites.

#[cfg(feature = "allocator-api2")]
mod allocator_buffers;
mod arena;
mod arena_pool;
mod cold_part;
mod drops;
#[cfg(feature = "allocator-api2")]
mod hostile_allocator;
mod hostile_arena;
mod hostile_scope;
mod lifecycle;
mod model;
mod nested;
mod peer_bumpalo;
mod peer_typed_arena;
mod scope_limits;
mod scoped;
mod small_limits;
