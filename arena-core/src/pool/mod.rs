//! Typed pools: free-list storage for one type, values named by handles and keys.
//!
//! [`AtomicPool`] (lock-free boxes in a `static`, no allocator) and [`PoolStorage`] (a
//! pool's slots in the caller's memory) are here. The other pools a program chooses
//! between are at the crate root: [`Pool`] (branded: handles
//! and keys that only type-check on it, inside a closure), [`KeyPool`] (storable
//! anywhere, keys checked at run time), [`SyncPool`] (shared by threads),
//! [`SecondaryMap`](crate::SecondaryMap) (side data by key) and
//! [`SoaPool`](crate::SoaPool) (struct-of-arrays). Here are their iterators ([`Iter`],
//! [`IterMut`], [`Drain`], [`IntoIter`]), the claimed slot of `vacant_entry`
//! ([`VacantEntry`], [`KeyVacantEntry`]), a `SyncPool` value's lock guards (`SyncRef`,
//! `SyncRefMut`), what every key of a `KeyPool` is made of
//! ([`KeyData`]) and their counters ([`PoolStats`]);
//! [`secondary`] and [`soa`] hold the side table's and the struct-of-arrays pool's.

// The wing inside: `slots` (the storage and its invariants), `slot_buf` (its buffer, a
// `Vec`'s parts or a caller's storage), `storage` (`PoolStorage`), `atomic_pool`, `version` (a slot's meta
// word and the version keys carry, parsed from outside bits), `key` (the sealed key
// trait), `handle`, `iter`, `branded` (`Pool`), `key_pool`, `pool_key` (`PoolKey`,
// `KeyData`, `new_key_type!`), `sync_pool`, `sync_ref` (its guards), `held_shards` (the
// shards a thread holds while its caller's code runs).

#[cfg(target_has_atomic = "32")]
mod atomic_pool;
mod branded;
mod handle;
#[cfg(feature = "std")]
mod held_shards;
mod iter;
mod key;
mod key_pool;
mod memory;
mod pool_key;
pub mod secondary;
mod slot_buf;
mod slot_key;
mod slots;
pub mod soa;
mod stats;
mod storage;
#[cfg(feature = "std")]
mod sync_pool;
#[cfg(feature = "std")]
mod sync_ref;
mod version;

#[cfg(target_has_atomic = "32")]
pub use atomic_pool::{AtomicBox, AtomicPool};
pub use branded::{Pool, VacantEntry};
pub use handle::Handle;
pub use iter::{Drain, IntoIter, Iter, IterMut};
pub use key::Key;
pub use key_pool::{FixedKeyPool, KeyPool, KeyVacantEntry, TypedKey};
pub use memory::{Fixed, Heap, Memory};
pub use pool_key::{KeyData, PoolKey};
pub use slot_key::SlotKey;
pub use slots::GetDisjointMutError;
#[cfg(all(feature = "serde", feature = "alloc"))]
pub(crate) use slots::MAX_SLOTS;
pub use stats::PoolStats;
pub use storage::PoolStorage;
#[cfg(feature = "std")]
pub use sync_pool::{SyncHandle, SyncKey, SyncPool};
#[cfg(feature = "std")]
pub use sync_ref::{SyncRef, SyncRefMut};
#[cfg(all(feature = "serde", feature = "alloc"))]
pub(crate) use version::Version;
