//! `serde` support for the pools (features `serde` and `alloc`): storable pools that
//! survive a round trip. (The keys' impls, which need no allocator, are in
//! `serde_keys.rs`.)
//!
//! - [`KeyPool`] (of any key type) is `{ "salt", "floor", "slots": [[meta, value or null], ...] }`: every
//!   slot with its meta word (generation and occupancy), so after a round trip every key
//!   that named a value names it again, every stale key stays stale, and keys of other
//!   pools stay out (the salt travels too). Deserialising checks that a slot holds a value
//!   exactly when its meta word says so and that no slot is owned, and rebuilds the free
//!   list and the count from the slots (neither is in the document, so neither can
//!   disagree with them).
//! - [`SecondaryMap`] of [`PoolKey`]s is a sequence of its slots up to the last entry, each
//!   `null` or `[version, value]` (slotmap's form): the map is as long as the document,
//!   so a few bytes cannot make it allocate for a far index.
//!
//! (The collections' `Serialize` impls, which need no allocator, are in
//! `serde_collections.rs`.)
//!
//! Every key that comes in is parsed, not trusted (`pool/version.rs`): a version no pool gives
//! its keys makes a key that names no value, or an error inside a side table. No
//! document makes a pool or a map whose later use reaches a vacant slot.

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeSeq, SerializeStruct, Serializer};

use crate::pool::MAX_SLOTS;
use crate::pool::Version;
use crate::pool::secondary::SecondaryMap;
use crate::pool::{KeyData, KeyPool, Memory, PoolKey};

impl<T: Serialize, K: PoolKey, M: Memory> Serialize for KeyPool<T, K, M> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (salt, floor, slots) = self.parts();
        let mut s = serializer.serialize_struct("KeyPool", 3)?;
        s.serialize_field("salt", &salt)?;
        s.serialize_field("floor", &floor)?;
        s.serialize_field("slots", &SlotsOut(slots))?;
        s.end()
    }
}

/// The slots of a pool as a sequence of `(meta, value)`, its length known up front (as
/// postcard and bincode require).
struct SlotsOut<I>(I);

impl<'a, T: Serialize + 'a, I> Serialize for SlotsOut<I>
where
    I: ExactSizeIterator<Item = (u32, Option<&'a T>)> + Clone,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for slot in self.0.clone() {
            seq.serialize_element(&slot)?;
        }
        seq.end()
    }
}

impl<'de, T: Deserialize<'de>, K: PoolKey> Deserialize<'de> for KeyPool<T, K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PoolVisitor<T, K>(PhantomData<T>, PhantomData<fn(K) -> K>);

        impl<'de, T: Deserialize<'de>, K: PoolKey> Visitor<'de> for PoolVisitor<T, K> {
            type Value = KeyPool<T, K>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a KeyPool: salt, floor and slots")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<KeyPool<T, K>, A::Error> {
                let (mut salt, mut floor, mut slots) = (None, None, None);
                while let Some(field) = map.next_key::<&str>()? {
                    match field {
                        "salt" => salt = Some(map.next_value()?),
                        "floor" => floor = Some(map.next_value()?),
                        "slots" => slots = Some(map.next_value::<Vec<(u32, Option<T>)>>()?),
                        other => return Err(de::Error::unknown_field(other, FIELDS)),
                    }
                }
                let salt = salt.ok_or_else(|| de::Error::missing_field("salt"))?;
                let floor = floor.ok_or_else(|| de::Error::missing_field("floor"))?;
                let slots = slots.ok_or_else(|| de::Error::missing_field("slots"))?;
                KeyPool::from_parts(salt, floor, slots).map_err(de::Error::custom)
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<KeyPool<T, K>, A::Error> {
                let salt =
                    seq.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let floor =
                    seq.next_element()?.ok_or_else(|| de::Error::invalid_length(1, &self))?;
                let slots: Vec<(u32, Option<T>)> =
                    seq.next_element()?.ok_or_else(|| de::Error::invalid_length(2, &self))?;
                KeyPool::from_parts(salt, floor, slots).map_err(de::Error::custom)
            }
        }

        const FIELDS: &[&str] = &["salt", "floor", "slots"];
        deserializer.deserialize_struct("KeyPool", FIELDS, PoolVisitor(PhantomData, PhantomData))
    }
}

impl<K: PoolKey, V: Serialize, M: Memory> Serialize for SecondaryMap<K, V, M> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Slot by slot up to the last entry, `null` where there is none: a document
        // describes every slot it sizes (see `Deserialize`).
        let entries = self.entries();
        let span = entries.iter().rposition(Option::is_some).map_or(0, |last| last + 1);
        let mut seq = serializer.serialize_seq(Some(span))?;
        for entry in &entries[..span] {
            seq.serialize_element(&entry.as_ref().map(|(version, value)| (version.bits(), value)))?;
        }
        seq.end()
    }
}

impl<'de, K: PoolKey, V: Deserialize<'de>> Deserialize<'de> for SecondaryMap<K, V> {
    /// Reads the slots one by one: the map is as long as the document's sequence, so
    /// `n` bytes of input size it by at most `n` slots (no index in the input can make
    /// it allocate ahead). An entry's version must be one a pool gives its keys.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let slots = Vec::<Option<(u32, V)>>::deserialize(deserializer)?;
        if slots.len() > MAX_SLOTS {
            return Err(de::Error::custom("a side table has at most u32::MAX - 1 slots"));
        }
        let mut entries = Vec::with_capacity(slots.len());
        for slot in slots {
            entries.push(match slot {
                None => None,
                Some((bits, value)) => Some((
                    Version::from_bits(bits).ok_or_else(|| {
                        de::Error::custom(
                            "a side table entry's version is not a key's (bit 0 set, bit 1 clear)",
                        )
                    })?,
                    value,
                )),
            });
        }
        Ok(SecondaryMap::from_entries(entries, K::from_data(KeyData::model())))
    }
}
