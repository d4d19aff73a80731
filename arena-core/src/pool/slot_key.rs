//! [`SlotKey`]: the keys that name a slot of the typed pools' storage (`pool/slots.rs`), for
//! the code generic over them: [`SecondaryMap`](crate::SecondaryMap) and the pools'
//! iterators (`pool/iter.rs`).
//!
//! The trait is sealed: the branded [`Key`] (`pool/key.rs`) implements it, and so does every
//! [`PoolKey`] (`pool/pool_key.rs`: [`TypedKey`] and the types of `new_key_type!`), through
//! its [`KeyData`](crate::pool::KeyData). So a key is always a slot index and a version,
//! checked on every use.
//!
//! [`Key`]: crate::Key
//! [`PoolKey`]: crate::PoolKey
//! [`TypedKey`]: crate::TypedKey

pub(super) mod sealed {
    use crate::pool::version::Version;

    /// What generic code needs of a key. Private: only the kit's keys implement it.
    pub trait KeyParts: Copy {
        /// The slot index.
        fn slot(self) -> u32;
        /// The slot's version the key names.
        fn version(self) -> Version;
        /// A key of the same pool (brand or type) for another slot and version.
        fn with_parts(self, slot: u32, version: Version) -> Self;
    }
}

/// A key a [`SecondaryMap`](crate::SecondaryMap) can be keyed by, and that the pools'
/// iterators yield: the branded [`Key`](crate::Key) of a [`Pool`](crate::Pool), and every
/// [`PoolKey`](crate::PoolKey) of a [`KeyPool`](crate::KeyPool) ([`TypedKey`](crate::TypedKey)
/// and the types of [`new_key_type!`](crate::new_key_type)). Implemented through those
/// two, not directly.
///
/// # Examples
///
/// ```
/// use arena_kit::{KeyPool, SlotKey};
///
/// fn first_key<K: SlotKey>(keys: impl IntoIterator<Item = K>) -> Option<K> {
///     keys.into_iter().next()
/// }
///
/// let mut pool = KeyPool::new();
/// let k = pool.insert("a");
/// assert_eq!(first_key(pool.keys()), Some(k));
/// ```
pub trait SlotKey: sealed::KeyParts {}
