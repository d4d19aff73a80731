//! The typed-pool wing: free-list storage by index and version, the ways of naming its
//! values, and the pools built on it.
//!
//! - `slots`: the storage and its invariants; `version`: a slot's meta word and the
//!   version keys carry, parsed from outside bits.
//! - `key`: the sealed trait of keys; `handle`: `Handle` and `Key`; `iter`: the pools'
//!   iterators.
//! - `branded`: `Pool`; `key_pool`: `KeyPool`; `sync_pool`: `SyncPool`.
//! - `secondary`: `SecondaryMap`; `soa`: struct-of-arrays storage.

pub(crate) mod branded;
pub(crate) mod handle;
pub(crate) mod iter;
pub(crate) mod key;
pub(crate) mod key_pool;
pub(crate) mod secondary;
pub(crate) mod slots;
pub(crate) mod soa;
#[cfg(feature = "std")]
pub(crate) mod sync_pool;
pub(crate) mod version;
