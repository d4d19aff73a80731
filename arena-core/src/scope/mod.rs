//! Scopes and arenas: bump allocation whose values borrow the allocator.
//!
//! The types a program chooses between are at the crate root: [`Scope`] (blocks from a
//! pool, given back at its end), [`Arena`] (a scope that owns its blocks) and
//! [`ArenaPool`] (arenas lent to parallel tasks). Here are what they report
//! ([`ScopeStats`], [`ArenaPoolStats`]), the guard an arena pool lends
//! ([`PooledArena`]), and [`ScopeView`], a scope seen through one lifetime.

// The wing inside: `lifecycle` (a scope's invariants, reset, nested scopes, limits,
// stats, its end), `drop_list` (the destructors and callbacks run at the end), `view`,
// `arena`, `arena_pool`, `allocator` (`&Scope` as an `allocator_api2` allocator).

mod alloc;
#[cfg(feature = "allocator-api2")]
mod allocator;
#[cfg(feature = "alloc")]
mod arena;
#[cfg(feature = "std")]
mod arena_pool;
mod drop_list;
mod lifecycle;
mod view;

#[cfg(feature = "alloc")]
pub use arena::Arena;
#[cfg(feature = "std")]
pub use arena_pool::{ArenaPool, ArenaPoolStats, PooledArena};
pub use lifecycle::{Scope, ScopeStats};
pub use view::ScopeView;
