//! [`PoolKey`]: the key types of a [`KeyPool`](crate::KeyPool), and [`KeyData`], what every
//! one of them is made of: slotmap's `Key` and `KeyData`, with [`new_key_type!`] to name
//! one.
//!
//! # Design
//!
//! A `KeyPool<T, K>` hands out keys of type `K`. By default `K` is
//! [`TypedKey<T>`](crate::TypedKey), typed by the values, which keeps a `KeyPool<Node>`'s
//! keys off a `KeyPool<Edge>`. Two pools of the *same* value type (two `KeyPool<u32>`, or
//! two pools of `String` that mean different things) would share that key type; a named
//! key type, `new_key_type! { struct CityKey; }`, gives each its own, checked by the type
//! checker as slotmap's are.
//!
//! - Every key type is a [`KeyData`] (a slot index and a parsed version, 8 bytes, with a
//!   niche so `Option<K>` is 8 bytes too) under another name: [`PoolKey::from_data`] and
//!   [`PoolKey::data`] convert, and the pools work on the `KeyData`.
//! - The trait is safe to implement. Nothing `unsafe` trusts a key: every key is checked
//!   against the slot it names on every use, and any `KeyData` is a key (forged ones too:
//!   `docs/keys-from-outside.md`). So a hand-written `PoolKey` whose `data` lies gets wrong
//!   answers, never undefined behaviour. Write key types with [`new_key_type!`], which
//!   also gives them `Debug`, ordering, hashing and (feature `serde`) the wire form.
//! - Every `PoolKey` is a [`SlotKey`](crate::SlotKey), so [`SecondaryMap`](crate::SecondaryMap)
//!   and the pools' iterators take named keys as they take `TypedKey`s.

use core::fmt;
use core::hash::{Hash, Hasher};

use crate::pool::slot_key::{SlotKey, sealed::KeyParts};
use crate::pool::version::{self, Version};

/// What every key of a [`KeyPool`](crate::KeyPool) is made of: a slot index and that
/// slot's version, 8 bytes (`Option<KeyData>` too). Its `u64` form is
/// [`to_raw`](Self::to_raw); any `u64` parses back to one ([`from_raw`](Self::from_raw)),
/// and keys are checked on every use, so forged data names no removed value.
///
/// # Examples
///
/// ```
/// use arena_kit::{KeyPool, PoolKey};
///
/// let mut pool = KeyPool::new();
/// let k = pool.insert("a");
/// let data = k.data();
/// assert_eq!(data.index(), 0);
/// assert_eq!(arena_kit::pool::KeyData::from_raw(data.to_raw()), data);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct KeyData {
    index: u32,
    /// The slot's version when the key was made: salted generation, `OCCUPIED` bit set.
    version: Version,
}

impl KeyData {
    /// The data of slot `index` at `version`.
    pub(super) fn new(index: u32, version: Version) -> Self {
        KeyData { index, version }
    }

    /// A key's data the pools' iterators make their keys like (only its type matters).
    pub(crate) fn model() -> Self {
        KeyData::new(0, Version::FIRST)
    }

    /// The slot index, as stored.
    pub(crate) fn slot(self) -> u32 {
        self.index
    }

    /// The version, as stored.
    pub(crate) fn version(self) -> Version {
        self.version
    }

    /// The slot index.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::PoolKey;
    ///
    /// let mut pool = arena_kit::KeyPool::new();
    /// pool.insert('a');
    /// assert_eq!(pool.insert('b').data().index(), 1);
    /// ```
    #[must_use]
    pub fn index(&self) -> usize {
        self.index as usize
    }

    /// The data as one `u64` (version in the high half, index in the low), for FFI,
    /// databases and wire formats; [`from_raw`](Self::from_raw) turns it back.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::PoolKey;
    ///
    /// let mut pool = arena_kit::KeyPool::new();
    /// let raw = pool.insert(1).data().to_raw();
    /// assert_eq!(pool.get(arena_kit::TypedKey::from_raw(raw)), Some(&1));
    /// ```
    #[must_use]
    pub fn to_raw(self) -> u64 {
        version::to_raw(self.index, self.version)
    }

    /// Key data from a `u64`, parsed: safe for any bits, whoever sent them. A word that
    /// [`to_raw`](Self::to_raw) made comes back as the same data; a word whose version
    /// half no pool ever gives a key becomes data that names no value in any pool (as
    /// [`TypedKey::from_raw`](crate::TypedKey::from_raw), which says more).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::pool::KeyData;
    ///
    /// let data = KeyData::from_raw(0xdead_beef);
    /// assert_eq!(KeyData::from_raw(data.to_raw()), data);
    /// ```
    #[must_use]
    pub fn from_raw(raw: u64) -> Self {
        let (index, version) = version::from_raw(raw);
        KeyData::new(index, version)
    }
}

impl Hash for KeyData {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.to_raw().hash(state);
    }
}

impl fmt::Debug for KeyData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{:x}", self.index, self.version.generation())
    }
}

/// A key type of a [`KeyPool`](crate::KeyPool): [`TypedKey<T>`](crate::TypedKey) (the
/// default), or one named with [`new_key_type!`](crate::new_key_type). A `KeyPool<T, K>`
/// takes and gives keys of type `K` only, so keys of two pools with different key types
/// do not type-check on each other, whatever their values.
///
/// Every key type is a [`KeyData`] under its own name; implement it with
/// [`new_key_type!`](crate::new_key_type). A hand-written implementation is not unsound
/// (every key is checked on every use), but one whose [`data`](Self::data) does not
/// return what [`from_data`](Self::from_data) was given gets wrong answers.
///
/// # Examples
///
/// ```
/// use arena_kit::{KeyPool, PoolKey};
///
/// arena_kit::new_key_type! {
///     /// A city of the map.
///     struct CityKey;
///     /// A road of the map.
///     struct RoadKey;
/// }
///
/// let mut cities: KeyPool<String, CityKey> = KeyPool::with_key();
/// let mut roads: KeyPool<String, RoadKey> = KeyPool::with_key();
/// let york: CityKey = cities.insert("York".to_owned());
/// let a1: RoadKey = roads.insert("A1".to_owned());
/// assert_eq!(cities[york], "York");
/// assert_eq!(roads[a1], "A1");
/// // `roads[york]` does not compile: a `CityKey` is not a `RoadKey`.
/// assert_eq!(CityKey::from_data(york.data()), york);
/// ```
pub trait PoolKey: Copy + Eq + Ord + Hash + fmt::Debug {
    /// The key of `data`.
    #[must_use]
    fn from_data(data: KeyData) -> Self;

    /// The key's data: the slot index and version it names.
    #[must_use]
    fn data(self) -> KeyData;
}

impl<K: PoolKey> KeyParts for K {
    #[inline]
    fn slot(self) -> u32 {
        self.data().slot()
    }
    #[inline]
    fn version(self) -> Version {
        self.data().version()
    }
    #[inline]
    fn with_parts(self, slot: u32, version: Version) -> Self {
        K::from_data(KeyData::new(slot, version))
    }
}
impl<K: PoolKey> SlotKey for K {}

/// Declares key types for [`KeyPool`](crate::KeyPool)s, as slotmap's macro of the same
/// name does: each `struct Name;` becomes a [`PoolKey`], a `Copy` newtype of
/// [`KeyData`] (8 bytes, `Option<Name>` too) with `Debug`, `Eq`, `Ord`, `Hash`,
/// `From<KeyData>` and, with arena-kit's `serde` feature, `Serialize` and `Deserialize`
/// in [`TypedKey`](crate::TypedKey)'s form (`{ "index", "version" }`). Attributes and doc
/// comments before a `struct` go to it; its visibility is the one written.
///
/// A pool takes its key type as its second parameter, and is made with
/// [`KeyPool::with_key`](crate::KeyPool::with_key).
///
/// # Examples
///
/// ```
/// use arena_kit::{KeyPool, SecondaryMap};
///
/// arena_kit::new_key_type! {
///     /// A node of the graph.
///     pub struct NodeKey;
/// }
///
/// let mut nodes: KeyPool<u32, NodeKey> = KeyPool::with_key();
/// let a = nodes.insert(1);
/// let b = nodes.insert(2);
/// let mut label = SecondaryMap::new();
/// label.insert(a, "start");
/// assert_eq!(label.get(a), Some(&"start"));
/// assert_eq!(label.get(b), None);
/// assert!(format!("{a:?}").starts_with("NodeKey(0v"));
/// ```
#[macro_export]
macro_rules! new_key_type {
    ($($(#[$attr:meta])* $vis:vis struct $name:ident;)*) => {$(
        $(#[$attr])*
        #[derive(
            ::core::clone::Clone,
            ::core::marker::Copy,
            ::core::cmp::PartialEq,
            ::core::cmp::Eq,
            ::core::cmp::PartialOrd,
            ::core::cmp::Ord,
            ::core::hash::Hash
        )]
        #[repr(transparent)]
        $vis struct $name($crate::pool::KeyData);

        impl $crate::PoolKey for $name {
            #[inline]
            fn from_data(data: $crate::pool::KeyData) -> Self {
                $name(data)
            }
            #[inline]
            fn data(self) -> $crate::pool::KeyData {
                self.0
            }
        }

        impl ::core::convert::From<$crate::pool::KeyData> for $name {
            #[inline]
            fn from(data: $crate::pool::KeyData) -> Self {
                $name(data)
            }
        }

        impl ::core::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::core::write!(f, "{}({:?})", ::core::stringify!($name), self.0)
            }
        }

        $crate::__key_serde!($name);
    )*};
}

/// `Serialize` and `Deserialize` for a [`new_key_type!`] key, when arena-kit has `serde`:
/// how an expansion in a crate that cannot see arena-kit's features gets them only where
/// they exist. Not public API.
#[cfg(feature = "serde")]
#[doc(hidden)]
#[macro_export]
macro_rules! __key_serde {
    ($name:ident) => {
        impl $crate::__private::serde::Serialize for $name {
            fn serialize<S: $crate::__private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                $crate::__private::serde::Serialize::serialize(&self.0, serializer)
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                ::core::result::Result::map(
                    <$crate::pool::KeyData as $crate::__private::serde::Deserialize<'de>>::deserialize(
                        deserializer,
                    ),
                    $name,
                )
            }
        }
    };
}

/// Nothing: arena-kit has no `serde` (see the other arm). Not public API.
#[cfg(not(feature = "serde"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __key_serde {
    ($name:ident) => {};
}
