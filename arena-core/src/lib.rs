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
//! # Which type do I need
//!
//! | you have | use | why |
//! |---|---|---|
//! | many short batches (a request, a frame, a parse) | [`BlockPool`] + [`Scope`] | a scope per batch takes the block the last one gave back; ending it is one step |
//! | the same with no heap (firmware, a real-time loop) | [`BufferBlockPool`] + [`Scope`] | blocks cut from a buffer you lend; a full buffer is an error, never a `malloc` |
//! | a pool with no heap | [`Pool::with_storage`] over a [`PoolStorage`](pool::PoolStorage) | `N` slots in your memory, the same handles and keys; a full pool is an error that hands the value back |
//! | boxes shared with interrupt handlers, no heap | [`AtomicPool`](pool::AtomicPool) in a `static` | lock-free: a compare-and-swap to take a slot, one to give it back |
//! | one batch that lives a while | [`Arena`] | a scope that owns its blocks, growing as it goes |
//! | scopes on many threads | [`SharedBlockPool`] | a block cache per thread over one locked list: scopes take no lock |
//! | results of parallel tasks | [`ArenaPool`] | arenas lent to tasks one at a time; the values outlive the task |
//! | values you add and remove, named by handle | [`Pool`] | a free list in one buffer; a [`Handle`] needs no run-time check, a [`Key`] is checked by its generation |
//! | a pool kept in a struct, a `static` or a task | [`KeyPool`] | the same storage without a brand; [`TypedKey`]s (or key types named with [`new_key_type!`]) are checked at run time |
//! | the same with no heap | [`FixedKeyPool`](pool::FixedKeyPool) over a [`PoolStorage`](pool::PoolStorage) | a `KeyPool` in your memory, its type carrying the storage's borrow |
//! | a pool shared by threads | [`SyncPool`] | a pool per shard behind its own lock; handles work from any thread |
//! | side data for a pool's values | [`SecondaryMap`] | a table by slot, tagged with the key that set each entry |
//! | the same with no heap | [`FixedSecondaryMap`](pool::secondary::FixedSecondaryMap) over a [`SecondaryStorage`](pool::secondary::SecondaryStorage) | entries for slots `0..N` in your memory |
//! | scans over one field of many values | [`SoaPool`] (via `#[derive(ArenaAlloc)]`, `#[arena(soa)]`) | a column per field, rows kept dense |
//! | a malloc-like allocator for collections | [`SizeClassPool`], [`SyncSizeClassPool`] | free lists per size class for 1 to 1024 bytes, an `allocator_api2` allocator |
//! | a growable vector or string, a box | [`ArenaVec`], [`ArenaString`], [`ArenaBox`] | in a scope, growing in place at its tip |
//!
//! Everything else is one module down, beside the type it belongs to: counters,
//! iterators, entries and views in [`block`], [`scope`], [`pool`] (with
//! [`pool::secondary`] and [`pool::soa`]), [`collections`] and [`size_class`].
//!
//! - `#[derive(ArenaAlloc)]` (see [`ArenaAlloc`]) generates a typed pool for your struct,
//!   plain or struct-of-arrays; [`arena_new!`] and [`try_arena_new!`] are `STD_NEW` for
//!   scopes and pools alike. [`Brand`] hands out a bare brand, for value types that hold
//!   keys of their own pool.
//! - A `try_` method returns [`AllocError`] or [`TryAllocError`] (the value handed back).
//! - [`vec!`] and [`format!`] build collections in a scope (`vec![in &scope; 1, 2]`),
//!   [`CollectIn`] collects into them. With the `allocator-api2` feature `&Scope` is an
//!   `allocator_api2` allocator, so `allocator_api2::vec::Vec` and `hashbrown` keep
//!   their buffers in a scope.
//! - The thread-safe flavours ([`SharedBlockPool`], [`SyncPool`], [`SyncSizeClassPool`],
//!   [`ArenaPool`]; feature `std`) are separate types, so the unlocked ones pay nothing
//!   for threads.
//!
//! Data flows one way: system allocator (one private module is the only one that calls
//! it) → block → block pool → scope → your values. The repository's
//! `docs/coming-from-bumpalo.md`, `coming-from-slab-slotmap.md` and
//! `coming-from-typed-arena.md` map those crates' APIs to these.
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
//! - [`ArenaPool`]'s arenas move between threads inside a [`PooledArena`](scope::PooledArena) guard (`Send`,
//!   `!Sync`): only `Send` values with destructors enter them, and nothing else of the
//!   scope (callbacks, child scopes, collections) is reachable through the guard.
//! - Limits, overflow and out-of-memory are runtime errors from `try_` methods, which hand
//!   the value back; the other methods panic (or call `handle_alloc_error`).
//!
//! # Features
//!
//! - `std` (default): links the standard library and brings the thread-safe flavours
//!   (their locks are this crate's own spin locks: no dependency). Implies `alloc`.
//! - `alloc` (with `std`): links the `alloc` crate: [`BlockPool`], [`Arena`], the typed
//!   pools and the size classes take memory from the global allocator. Without it
//!   (`default-features = false`) the crate needs no allocator at all: scopes and
//!   collections over a caller's buffer ([`BufferBlockPool`]), pools over a caller's
//!   storage ([`Pool::with_storage`], [`SoaPool::with_storage`]), struct-of-arrays rows
//!   over a caller's storage
//!   ([`ColumnVec::in_storage`](pool::soa::ColumnVec::in_storage)), checked on a target
//!   without one (the
//!   repository's `docs/no-allocator.md`).
//! - `derive` (default): re-exports `#[derive(ArenaAlloc)]` from `arena-kit-derive`.
//!   Without `alloc` its pools (plain and `#[arena(soa)]`) have `with_storage` (and,
//!   with `#[arena(capacity = N)]`, `with_fixed`) only.
//! - `serde`: `Serialize`/`Deserialize` for [`TypedKey`] (and the key types of
//!   [`new_key_type!`]), [`KeyPool`] and a
//!   [`SecondaryMap`] of pool keys (a round trip keeps every key valid, and stale keys
//!   stale; these with `alloc`), `Serialize` for [`ArenaVec`], [`ArenaString`] and
//!   [`ArenaBox`].
//! - `allocator-api2`: `allocator_api2::alloc::Allocator` for `&Scope`, `ScopeView`, `&SizeClassPool`
//!   and `&SyncSizeClassPool`, and the `allocator_api2` crate re-exported. Off by
//!   default, as in bumpalo: a dependent that does not use it builds one crate fewer.
#![cfg_attr(not(feature = "std"), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod block;
mod brand;
mod bump;
pub mod collections;
mod error;
mod external_impls;
#[cfg(all(test, loom))]
mod loom_models;
mod new_macro;
pub mod pool;
pub mod scope;
#[cfg(feature = "alloc")]
pub mod size_class;
#[cfg(feature = "std")]
mod sync;

#[cfg(feature = "alloc")]
pub use block::BlockPool;
pub use block::BufferBlockPool;
#[cfg(feature = "std")]
pub use block::SharedBlockPool;
pub use brand::Brand;
pub use collections::{ArenaBox, ArenaString, ArenaVec, CollectIn, FromIteratorIn};
pub use error::{AllocError, AllocOrInitError, LimitKind, TryAllocError};
pub use new_macro::ArenaNew;
pub use pool::secondary::SecondaryMap;
pub use pool::soa::{SoaPool, SoaRow};
pub use pool::{GetDisjointMutError, Handle, Key, Pool, SlotKey};
pub use pool::{KeyPool, PoolKey, TypedKey};
#[cfg(feature = "std")]
pub use pool::{SyncHandle, SyncKey, SyncPool};
#[cfg(feature = "alloc")]
pub use scope::Arena;
#[cfg(feature = "std")]
pub use scope::ArenaPool;
pub use scope::Scope;
#[cfg(feature = "alloc")]
pub use size_class::SizeClassPool;
#[cfg(feature = "std")]
pub use size_class::SyncSizeClassPool;

/// Types with typed pool storage generated by `#[derive(ArenaAlloc)]`.
///
/// # What the derive generates
///
/// For `struct Particle { .. }` (with the struct's visibility, and its generics after the
/// brand):
///
/// - `ParticlePool<'id>`: free-list storage for `Particle` values, made by
///   `ParticlePool::with(|pool| ..)` (a fresh brand, as [`Pool::with`]) or
///   `ParticlePool::new_in(brand)` (see [`Brand`]). `for (key, value) in &pool` and
///   `&mut pool` iterate as on the pool it wraps.
///   - Plain layout (the default): a newtype over [`Pool<'id, Particle>`](Pool) that derefs
///     to it: `insert`, `get`, `remove`, keys, `retain`, stats are the pool's. Add your
///     own inherent methods to it as to any type of yours. Also
///     `ParticlePool::with_storage(&mut storage, |pool| ..)`, over a
///     [`PoolStorage`](pool::PoolStorage) (as [`Pool::with_storage`]; not with
///     `#[arena(brand = ..)]`). With `#[arena(capacity = N)]`, the alias
///     `ParticleStorage` (a `PoolStorage<Particle, N>`, for a `static`, a struct field or
///     a [`FixedKeyPool`](pool::FixedKeyPool)) and `ParticlePool::with_fixed(|pool| ..)`,
///     a pool over one made on the stack: no heap, and no `alloc` needed. With
///     `#[arena(brand = 'id, capacity = N)]` only the alias, `ParticleStorage<'id>`, for
///     [`Pool::with_storage_in`] inside [`Brand::with`].
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
///     fields are stored apart). Also `ParticlePool::with_storage(&mut storage, |pool|
///     ..)` over a [`SoaStorage`](pool::soa::SoaStorage) (the pool is then a
///     `ParticlePool<'id, Fixed<'s>>`, the same methods), and with
///     `#[arena(capacity = N)]` the alias `ParticleStorage` and
///     `ParticlePool::with_fixed(|pool| ..)`, as for the plain layout.
///     `ParticlePool::new_in_storage(&mut storage, brand)` (as
///     [`SoaPool::new_in_storage`]) is the constructor over storage with a caller's
///     brand, the only one over storage with `#[arena(brand = ..)]`.
///     [`example_generated`] shows a whole expansion.
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
/// structures); `#[arena(capacity = N)]` fixes a pool's capacity (`N` a literal,
/// a constant or a const parameter of the struct; `{ expr }` for anything else), for
/// code without a heap; `#[arena(pool = Name)]` renames the pool; `#[arena(crate = path)]` for
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
/// A table of four sessions, with no heap (`arena-kit` with `default-features = false,
/// features = ["derive"]` builds this too):
///
/// ```
/// use arena_kit::ArenaAlloc;
///
/// #[derive(ArenaAlloc)]
/// #[arena(capacity = 4)]
/// struct Session { peer: u16 }
///
/// SessionPool::with_fixed(|mut sessions| {
///     let keys = [1, 2, 3, 4].map(|peer| sessions.insert_keyed(Session { peer }));
///     let full = sessions.try_insert(Session { peer: 5 }).unwrap_err();
///     assert_eq!(full.into_value().peer, 5); // handed back
///     sessions.remove_key(keys[0]);
///     assert!(sessions.get_key(keys[0]).is_none());
/// });
/// assert_eq!(SessionStorage::CAPACITY, 4);
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
#[cfg(feature = "allocator-api2")]
pub use allocator_api2;

/// What `#[derive(ArenaAlloc)]` generates, shown on an example (rustdoc only, as
/// bitflags does): every type and method below was written by the derive.
#[cfg(all(doc, feature = "derive", feature = "alloc"))]
pub mod example_generated;

/// Passes its tokens through when arena-kit has `alloc`, and drops them when it has not:
/// how a `#[derive(ArenaAlloc)]` expansion, compiled in a crate that cannot see
/// arena-kit's features, offers its heap constructors only where they exist. Not public
/// API.
#[cfg(feature = "alloc")]
#[doc(hidden)]
#[macro_export]
macro_rules! __with_alloc {
    ($($tokens:tt)*) => { $($tokens)* };
}

/// Passes its tokens through when arena-kit has `alloc`, and drops them when it has not
/// (see the other arm). Not public API.
#[cfg(not(feature = "alloc"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __with_alloc {
    ($($tokens:tt)*) => {};
}

/// What `#[derive(ArenaAlloc)]` expansions name; not public API.
#[doc(hidden)]
pub mod __private {
    #[cfg(feature = "alloc")]
    pub use alloc::vec::Vec;
    #[cfg(feature = "alloc")]
    pub use alloc::{format, vec};
    #[cfg(feature = "serde")]
    pub use serde;
}
