//! Arena allocation whose safety the compiler checks: scoped bump arenas on a recycling
//! block pool, with destructors, limits and fallible variants.
//!
//! arena-kit brings the classic C and C++ pool allocators to Rust (ScopeAlloc and its
//! BlockPool, AutoFreeAlloc, APR pools, `boost::pool`; the repository's `docs/seeds.md`
//! tells their story) and turns
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
//! - [`SizeClassPool`]: free lists in twenty size classes for 1..=1024-byte requests
//!   (`boost::pool` per size), giving blocks back when a class empties; `&SizeClassPool` is an
//!   `allocator_api2` allocator.
//! - [`RowIndex`]: the handle side of struct-of-arrays storage (rows that stay dense).
//! - `#[derive(ArenaAlloc)]` (see [`ArenaAlloc`]): a typed pool for your struct, plain or
//!   struct-of-arrays, built on [`Pool`] and [`RowIndex`]; [`arena_new!`] and
//!   [`try_arena_new!`] are `STD_NEW` for scopes and pools alike.
//! - [`AllocError`] / [`TryAllocError`]: what a `try_` method returns, value included.
//! - [`ArenaVec`] and [`ArenaString`]: growable collections in a scope that grow in place
//!   at the tip and then in a page-filled block of their own, so the scope
//!   holds little more than their capacity; [`vec!`] and [`format!`] build them
//!   (`vec![in &scope; 1, 2]`), [`CollectIn`] collects into them.
//! - [`ArenaBox`]: an owning pointer into a scope, dropping its value when it drops:
//!   recursive types, trait objects, values that borrow the scope's other values.
//!   `docs/coming-from-bumpalo.md` maps bumpalo's API to these.
//! - `&Scope` implements `allocator_api2::alloc::Allocator`: `allocator_api2::vec::Vec`
//!   and `hashbrown` collections keep their buffers in a scope; the newest allocation
//!   grows and shrinks in place.
//! - Thread-safe flavours (the locked pools; feature `std`), separate types so the
//!   unlocked ones pay nothing for threads:
//!   [`SharedBlockPool`] with a [`LocalBlockPool`] cache per thread (scopes take no lock),
//!   [`SyncSizeClassPool`] (per-thread chunk caches over a locked depot and classes,
//!   an `allocator_api2` allocator too) and [`SyncPool`] (a branded typed pool in
//!   per-thread shards, [`SyncHandle`]s usable from any thread).
//! - [`ArenaPool`] (feature `std`): arenas lent to parallel tasks one at a time
//!   ([`PooledArena`], bump-scope's `BumpPool`); the values borrow the pool, not the
//!   task, so they can be sent back to the spawning thread and live until the pool is
//!   reset or dropped.
//!
//! Data flows one way: system allocator (one private module, `raw`, is the only one that calls
//! it) → block → block pool → scope → your values.
//!
//! # A tour
//!
//! ```
//! use arena_kit::{Arena, BlockPool};
//!
//! // Many short scopes recycle blocks through one pool (ScopeAlloc's BlockPool).
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
//! // Typed free-list storage with branded handles (a C free list of indices).
//! let sum = arena_kit::Pool::with(|mut pool| {
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
//! - `Scope`, `Arena`, `BlockPool`, `SizeClassPool` and `Pool`'s brand-mates are `!Sync`
//!   (no atomics); `Scope` and `Arena` are `!Send`. The thread-safe flavours are `Sync`
//!   by composition (locks and atomics around `Send` parts); each `unsafe impl Send`
//!   says why moving the raw memory it owns is sound, `SyncPool`'s shard lock says why
//!   sharing it is, and loom models check the shared block list, the size-class depot
//!   and the shards.
//! - [`ArenaPool`]'s arenas move between threads inside a [`PooledArena`] guard (`Send`,
//!   `!Sync`): only `Send` values with destructors enter them, and nothing else of the
//!   scope (callbacks, child scopes, collections) is reachable through the guard.
//! - Limits, overflow and out-of-memory are runtime errors from `try_` methods, which hand
//!   the value back; the other methods panic (or call `handle_alloc_error`).
//!
//! # Features
//!
//! - `std` (default): links the standard library and brings the thread-safe flavours
//!   (with `parking_lot`). Without it the crate is `no_std` and needs
//!   only `alloc`.
//! - `derive` (default): re-exports `#[derive(ArenaAlloc)]` from `arena-kit-derive`.
//! - `serde`: `Serialize`/`Deserialize` for [`PoolKey`], [`KeyPool`] and a
//!   [`SecondaryMap`] of pool keys (a round trip keeps every key valid, and stale keys
//!   stale), `Serialize` for [`ArenaVec`], [`ArenaString`] and [`ArenaBox`].
#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

mod alloc_or_init_error;
mod block;
mod brand;
mod bump;
mod collections;
mod error;
mod external_impls;
#[cfg(all(test, loom))]
mod loom_models;
mod new_macro;
mod pool;
mod scope;
mod size_class;
#[cfg(feature = "std")]
mod sync;

pub use alloc_or_init_error::AllocOrInitError;
pub use scope::arena::Arena;
pub use collections::boxed::ArenaBox;
#[cfg(feature = "std")]
pub use scope::arena_pool::{ArenaPool, ArenaPoolStats, PooledArena};
pub use block::info::{BlockInfo, BlockKind};
pub use block::pool::{BlockPool, BlockPoolStats, DEFAULT_BLOCK_SIZE};
pub use brand::Brand;
pub use collections::collect_in::{CollectIn, FromIteratorIn};
pub use error::{AllocError, LimitKind, TryAllocError};
pub use pool::handle::{Handle, Key};
pub use pool::key_pool::{KeyPool, KeyVacantEntry, PoolKey};
pub use new_macro::ArenaNew;
pub use pool::branded::{Pool, PoolStats, VacantEntry};
pub use pool::soa::row_index::RowIndex;
pub use scope::lifecycle::{Scope, ScopeStats};
pub use scope::view::ScopeRef;
pub use pool::secondary::iter::{SecondaryIter, SecondaryIterMut};
pub use pool::secondary::{SecondaryEntry, SecondaryMap};
#[cfg(feature = "std")]
pub use block::shared::{
    LOCAL_MAX_FREE, LocalBlockPool, REFILL_BATCH, SharedBlockPool, SharedBlockPoolStats,
};
pub use size_class::{MAX_CLASS_SIZE, SizeClassPool, SizeClassStats};
pub use pool::iter::{PoolDrain, PoolIntoIter, PoolIter, PoolIterMut};
pub use pool::key::SlotKey;
pub use pool::slots::GetDisjointMutError;
pub use pool::soa::{SoaIter, SoaIterMut, SoaPool};
pub use pool::soa::row::{SoaColumns, SoaColumnsMut, SoaMut, SoaRef, SoaRow, SoaViews};
pub use collections::string::ArenaString;
#[cfg(feature = "std")]
pub use pool::sync_pool::{SyncHandle, SyncKey, SyncPool};
#[cfg(feature = "std")]
pub use size_class::sync::{CACHE_BATCH, SyncSizeClassPool};
pub use collections::vec::{ArenaVec, ArenaVecDrain, ArenaVecExtractIf, ArenaVecIntoIter};

/// Types with typed pool storage generated by `#[derive(ArenaAlloc)]`.
///
/// # What the derive generates
///
/// For `struct Particle { .. }` (with the struct's visibility, and its generics after the
/// brand):
///
/// - `ParticlePool<'id>`: free-list storage for `Particle` values, made by
///   `ParticlePool::with(|pool| ..)` (a fresh brand, as [`Pool::with`]) or
///   `ParticlePool::new_in(brand)` (see [`Brand`]).
///   - Plain layout (the default): a newtype over [`Pool<'id, Particle>`](Pool) that derefs
///     to it: `insert`, `get`, `remove`, keys, `retain`, stats are the pool's. Add your
///     own inherent methods to it as to any type of yours.
///   - `#[arena(soa)]`: struct-of-arrays, one column per field, rows kept dense. A
///     newtype that derefs to [`SoaPool<'id, Particle>`](SoaPool): `insert`, `remove`
///     (gathers the fields back), keys, `get(&h)` / `get_mut(&h)` as row views,
///     `columns()` / `columns_mut()` borrowing every column at once as slices, `iter`,
///     `iter_mut`, one-pass `retain`. Per field `f` (with the field's visibility):
///     `f(&h)`, `f_mut(&h)`, `f_by_key(k)`, `f_by_key_mut(k)`, `f_column()`,
///     `f_column_mut()`. The views: `ParticleRef<'a>` / `ParticleMut<'a>` (a reference
///     per field), `ParticleColumns<'a>` / `ParticleColumnsMut<'a>` (a slice per field),
///     and `impl SoaRow for Particle`. Removing swap-removes the row: rows move, handles
///     and keys do not. Needs named fields; the struct must not implement `Drop` (its
///     fields are stored apart). [`example_generated`] shows a whole expansion.
/// - `ParticleHandle<'id>` and `ParticleKey<'id>`: aliases of [`Handle`] and [`Key`].
/// - `impl ArenaNew<Particle> for &mut ParticlePool<'_>`: [`arena_new!`] and
///   [`try_arena_new!`] return handles on the pool.
/// - `impl ArenaAlloc for Particle`.
///
/// The expansion contains no `unsafe`, uses absolute paths only, and documents every
/// public item: it compiles under `#![forbid(unsafe_code)]`, `#![deny(warnings,
/// missing_docs, clippy::pedantic)]` and `#![no_implicit_prelude]`.
///
/// # Attributes
///
/// `#[arena(soa)]`; `#[arena(soa, row_derive(Debug, PartialEq))]` derives traits for the
/// four views (the shared views are always `Clone` and `Copy`); `#[arena(brand = 'id)]` names the struct's lifetime parameter that is
/// the pool's own brand, so fields can hold `ParticleKey<'id>`s of the same pool (linked
/// structures); `#[arena(pool = Name)]` renames the pool; `#[arena(crate = path)]` for
/// crates that re-export arena-kit. Enums, unions, unknown or repeated keys and values
/// of the wrong kind are errors at the offending token, all reported at once.
///
/// # Examples
///
/// ```
/// use arena_kit::{ArenaAlloc, arena_new};
///
/// #[derive(ArenaAlloc, Default)]
/// #[arena(soa)]
/// struct Particle { pos: [f32; 3], vel: [f32; 3], mass: f32 }
///
/// let total_mass = ParticlePool::with(|mut pool| {
///     let light = arena_new!(pool, Particle { mass: 1.0, ..Default::default() });
///     let heavy = arena_new!(pool, Particle { mass: 5.0, ..Default::default() });
///     pool.vel_mut(&heavy)[0] = 2.0;
///     assert_eq!(pool.vel(&heavy)[0], 2.0);
///     // Every column borrowed at once: positions move by their velocities.
///     let ParticleColumnsMut { pos, vel, .. } = pool.columns_mut();
///     for (p, v) in pos.iter_mut().zip(vel.iter()) {
///         p[0] += v[0];
///     }
///     assert_eq!(pool.get(&heavy).pos[0], 2.0);
///     let total: f32 = pool.columns().mass.iter().sum(); // a scan over one column
///     pool.remove(light);
///     # drop(heavy);
///     total
/// });
/// assert_eq!(total_mass, 6.0);
/// ```
///
/// A linked list whose nodes hold keys of their own pool:
///
/// ```
/// use arena_kit::ArenaAlloc;
///
/// #[derive(ArenaAlloc)]
/// #[arena(brand = 'id)]
/// struct Node<'id> { value: u32, next: Option<NodeKey<'id>> }
///
/// NodePool::with(|mut pool| {
///     let tail = pool.insert_keyed(Node { value: 2, next: None });
///     let head = pool.insert_keyed(Node { value: 1, next: Some(tail) });
///     let next = pool.get_key(head).unwrap().next.unwrap();
///     assert_eq!(pool.get_key(next).unwrap().value, 2);
/// });
/// ```
pub trait ArenaAlloc {}

#[cfg(feature = "derive")]
pub use arena_kit_derive::ArenaAlloc;

/// The `allocator_api2` crate this one implements `Allocator` for (version 0.2): use its
/// collections through this path (`arena_kit::allocator_api2::vec::Vec<T, &Scope>`) and
/// the trait always matches, whatever version your own dependencies pull in.
pub use allocator_api2;

/// What `#[derive(ArenaAlloc)]` generates, shown on an example (rustdoc only, as
/// bitflags does): every type and method below was written by the derive.
#[cfg(all(doc, feature = "derive"))]
pub mod example_generated;

/// What `#[derive(ArenaAlloc)]` expansions name; not public API.
#[doc(hidden)]
pub mod __private {
    pub use alloc::collections::TryReserveError;
    pub use alloc::vec::Vec;
    pub use alloc::{format, vec};
}
