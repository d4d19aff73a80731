//! Arena allocation whose safety the compiler checks: scoped bump arenas on a recycling
//! block pool, with destructors, limits and fallible variants.
//!
//! arena-kit brings the classic C and C++ pool allocators to Rust (ScopeAlloc and its
//! BlockPool, AutoFreeAlloc, APR pools; see `shared/seeds/` in the repository) and turns
//! what was a convention there into a guarantee here: nothing allocated can outlive its
//! scope, destructors run exactly once, and a value whose destructor could read an
//! already-dropped sibling does not compile.
//!
//! # The pieces
//!
//! - [`BlockPool`]: a cache of page-filling blocks shared by many short-lived scopes.
//! - [`Scope`]: a bump arena drawing blocks from a pool (or from its parent's source, for
//!   a child scope) and giving them back when it ends; destructors and [`Scope::on_exit`]
//!   callbacks run then, newest first.
//! - [`Arena`]: the same bump arena owning its blocks outright.
//! - [`Pool`]: index-based free-list storage for one type, made by [`Pool::with`] with a
//!   brand of its own; [`Handle`] (owning, unchecked access) and [`Key`] (copyable,
//!   generation-checked) name its values; [`SecondaryMap`] holds side data by key.
//!   [`Brand`] hands out a bare brand, for value types that hold keys of their own pool.
//! - [`RowIndex`]: the handle side of struct-of-arrays storage (rows that stay dense).
//! - `#[derive(ArenaAlloc)]` (see [`ArenaAlloc`]): a typed pool for your struct, plain or
//!   struct-of-arrays, built on [`Pool`] and [`RowIndex`]; [`arena_new!`] and
//!   [`try_arena_new!`] are `STD_NEW` for scopes and pools alike.
//! - [`AllocError`] / [`TryAllocError`]: what a `try_` method returns, value included.
//! - `&Scope` implements `allocator_api2::alloc::Allocator`: `allocator_api2::vec::Vec`
//!   and `hashbrown` collections keep their buffers in a scope; the newest allocation
//!   grows and shrinks in place.
//!
//! Data flows one way: system allocator (one private module, `raw`, is the only one that calls
//! it) → block → block pool → scope → your values.
//!
//! # A tour
//!
//! ```
//! use arena_core::{Arena, BlockPool};
//!
//! // Many short scopes recycle blocks through one pool (seed 000's ScopeAlloc).
//! let pool = BlockPool::new();
//! for request in 0..100 {
//!     let scope = pool.scope();
//!     let words = scope.alloc_from_iter(["GET", "/index.html"].map(String::from));
//!     let id = scope.alloc(request);
//!     assert_eq!((words.len(), *id), (2, request));
//! } // words dropped, block back in the pool
//! assert_eq!(pool.stats().system_allocations, 1);
//!
//! // One long-lived batch in an arena (AutoFreeAlloc).
//! let arena = Arena::new();
//! let numbers = arena.alloc_slice_fill_with(1000, |i| i as u64);
//! assert_eq!(numbers.iter().sum::<u64>(), 499_500);
//!
//! // Typed free-list storage with branded handles (seed 003's free list of indices).
//! let sum = arena_core::Pool::with(|mut pool| {
//!     let h = pool.insert(40);
//!     pool[&h] += 2;
//!     pool.remove(h)
//! });
//! assert_eq!(sum, 42);
//! ```
//!
//! # Safety model
//!
//! - Every allocation borrows its scope: use after the scope ends is a compile error.
//! - Values that will be dropped satisfy `T: 'p`, where `'p` (invariant) outlives the
//!   scope: they can borrow data older than the scope but never each other, so no
//!   destructor reads a dropped sibling. `Copy` values may borrow each other freely.
//! - Child scopes borrow their parent; their values cannot escape into it.
//! - Each pool's brand is a fresh invariant lifetime: handles and keys of one pool do not
//!   type-check on another, and none of them leaves `Pool::with`'s closure. `remove`
//!   consumes the owning handle.
//! - `Scope`, `Arena` and `BlockPool` are `!Sync`; `Scope` and `Arena` are `!Send`.
//! - Limits, overflow and out-of-memory are runtime errors from `try_` methods, which hand
//!   the value back; the other methods panic (or call `handle_alloc_error`).
//!
//! # Features
//!
//! - `std` (default): links the standard library. Without it the crate is `no_std` and
//!   needs only `alloc`.
//! - `derive` (default): re-exports `#[derive(ArenaAlloc)]` from `arena-derive`.
#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

mod allocator;
mod arena;
mod block;
mod block_pool;
mod brand;
mod drop_list;
mod error;
mod handle;
mod new_macro;
mod pool;
mod raw;
mod row_index;
mod scope;
mod secondary_map;
mod source;

pub use arena::Arena;
pub use block_pool::{BlockPool, DEFAULT_BLOCK_SIZE, PoolStats};
pub use brand::Brand;
pub use error::{AllocError, LimitKind, TryAllocError};
pub use handle::{Handle, Key};
pub use new_macro::ArenaNew;
pub use pool::{Pool, SlotStats};
pub use row_index::RowIndex;
pub use scope::{Scope, ScopeStats};
pub use secondary_map::SecondaryMap;

/// Types prepared for arena storage by `#[derive(ArenaAlloc)]`.
///
/// The derive checks that the type is a struct (enums and unions are rejected with a
/// spanned error) and implements this trait; typed pools and constructors for such types
/// build on it.
///
/// # Examples
///
/// ```
/// use arena_core::ArenaAlloc;
///
/// #[derive(ArenaAlloc, Default)]
/// struct Particle { pos: [f32; 3], mass: f32 }
///
/// fn assert_arena_alloc<T: ArenaAlloc>() {}
/// assert_arena_alloc::<Particle>();
/// ```
pub trait ArenaAlloc {}

#[cfg(feature = "derive")]
pub use arena_derive::ArenaAlloc;

/// What `#[derive(ArenaAlloc)]` expansions name; not public API.
#[doc(hidden)]
pub mod __private {
    pub use alloc::vec::Vec;
}
