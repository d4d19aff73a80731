//! The scope wing: bump arenas whose values borrow them, and what is built on one.
//!
//! - `lifecycle`: `Scope`, its invariants, reset, nested scopes, limits, stats, its end.
//! - `drop_list`: the destructors and callbacks a scope runs at its end.
//! - `view`: `ScopeRef`, a scope seen through one lifetime.
//! - `arena`: `Arena`, a scope that owns its blocks.
//! - `arena_pool`: `ArenaPool`, arenas lent to parallel tasks.
//! - `allocator`: `&Scope` as an `allocator_api2` allocator.

pub(crate) mod allocator;
pub(crate) mod arena;
#[cfg(feature = "std")]
pub(crate) mod arena_pool;
mod drop_list;
pub(crate) mod lifecycle;
pub(crate) mod view;
