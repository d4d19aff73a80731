//! [`Key`]: the copyable, generation-checked name of a value in a branded
//! [`Pool`](crate::Pool) (see `handle.rs` for how it differs from an owning
//! [`Handle`](crate::Handle)).

use core::fmt;

use crate::brand::Id;
use crate::pool::slot_key::{SlotKey, sealed::KeyParts};
use crate::pool::version::{self, Version};

/// A copyable key to a value in a [`Pool`](crate::Pool), checked by a generation.
///
/// A key whose value was removed is *stale*: every lookup with it returns `None`, never
/// another value, even after the slot is reused (the slot's generation moved on; a slot
/// whose generation would wrap is retired instead of reused). 8 bytes, and `Option<Key>`
/// is 8 bytes too.
///
/// # Examples
///
/// ```
/// use arena_kit::{Key, Pool};
///
/// assert_eq!(size_of::<Option<Key<'_>>>(), 8);
/// Pool::with(|mut pool| {
///     let k = pool.insert_keyed(1);
///     let copy = k;
///     assert_eq!(pool.remove_key(k), Some(1));
///     assert_eq!(pool.get_key(copy), None); // stale
///     let _other = pool.insert_keyed(2); // reuses the slot
///     assert_eq!(pool.get_key(copy), None); // still stale
/// });
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key<'id> {
    index: u32,
    /// The slot's version when the key was made: `generation << 2 | OCCUPIED`.
    version: Version,
    brand: Id<'id>,
}

impl<'id> Key<'id> {
    /// A key for slot `index` at `version`. Safe: a key is checked on every use, so one
    /// that names no value reaches none.
    pub(super) fn new(index: u32, version: Version, brand: Id<'id>) -> Self {
        Key { index, version, brand }
    }

    /// A key of brand `'id` from a raw word, parsed (`version::from_raw`): safe for any
    /// bits, since a key is checked on every use.
    pub(super) fn from_raw_in(raw: u64, brand: Id<'id>) -> Self {
        let (index, version) = version::from_raw(raw);
        Key { index, version, brand }
    }

    /// The version as stored.
    pub(super) fn version(self) -> Version {
        self.version
    }

    /// The slot index.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     pool.insert_keyed('a');
    ///     assert_eq!(pool.insert_keyed('b').index(), 1);
    /// });
    /// ```
    #[must_use]
    pub fn index(&self) -> usize {
        self.index as usize
    }

    pub(super) fn slot(self) -> u32 {
        self.index
    }

    /// The key as one `u64` (version in the high half, index in the low), the layout of
    /// [`TypedKey::to_raw`](crate::TypedKey::to_raw); [`Pool::key_from_raw`](crate::Pool::key_from_raw)
    /// turns it back into a key of the pool's brand.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed("saved");
    ///     let raw: u64 = k.to_raw();
    ///     assert_eq!(pool.key_from_raw(raw), k);
    /// });
    /// ```
    #[must_use]
    pub fn to_raw(self) -> u64 {
        version::to_raw(self.index, self.version)
    }
}

impl KeyParts for Key<'_> {
    #[inline]
    fn slot(self) -> u32 {
        self.index
    }
    #[inline]
    fn version(self) -> Version {
        self.version
    }
    #[inline]
    fn with_parts(self, slot: u32, version: Version) -> Self {
        Key::new(slot, version, self.brand)
    }
}
impl SlotKey for Key<'_> {}

impl fmt::Debug for Key<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Key({}v{})", self.index, self.version.generation())
    }
}
