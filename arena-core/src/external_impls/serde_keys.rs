//! `serde` support for keys (feature `serde`, no allocator needed): [`TypedKey`] and
//! [`KeyData`] are `{ "index": u32, "version": u32 }`, as slotmap's keys are, and so is
//! every key type of `new_key_type!` (it serialises its `KeyData`). A key that comes in
//! is parsed, not trusted (`pool/version.rs`): a version no pool gives its keys makes a
//! key that names no value. The pools' own impls, which need `alloc`, are in `serde.rs`.

use core::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::pool::{KeyData, PoolKey, TypedKey};

impl Serialize for KeyData {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_key(*self, "KeyData", serializer)
    }
}

impl<'de> Deserialize<'de> for KeyData {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_key("KeyData", deserializer)
    }
}

impl<T> Serialize for TypedKey<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_key(self.data(), "TypedKey", serializer)
    }
}

impl<'de, T> Deserialize<'de> for TypedKey<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_key("TypedKey", deserializer).map(TypedKey::from_data)
    }
}

/// A key as the struct `name { index, version }`: [`TypedKey`]'s form, and every named
/// key type's (they serialise their [`KeyData`]).
fn serialize_key<S: Serializer>(
    data: KeyData,
    name: &'static str,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut s = serializer.serialize_struct(name, 2)?;
    s.serialize_field("index", &data.slot())?;
    s.serialize_field("version", &data.version().bits())?;
    s.end()
}

/// A key written by [`serialize_key`], as a map or a sequence. Any pair is a key, parsed as
/// [`KeyData::from_raw`] parses one: a version no pool gives its keys becomes a key that
/// names no value.
fn deserialize_key<'de, D: Deserializer<'de>>(
    name: &'static str,
    deserializer: D,
) -> Result<KeyData, D::Error> {
    struct KeyVisitor;

    impl<'de> Visitor<'de> for KeyVisitor {
        type Value = KeyData;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a key: index and version")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<KeyData, A::Error> {
            let (mut index, mut version) = (None, None);
            while let Some(field) = map.next_key::<&str>()? {
                match field {
                    "index" => index = Some(map.next_value::<u32>()?),
                    "version" => version = Some(map.next_value::<u32>()?),
                    other => return Err(de::Error::unknown_field(other, KEY_FIELDS)),
                }
            }
            let index = index.ok_or_else(|| de::Error::missing_field("index"))?;
            let version = version.ok_or_else(|| de::Error::missing_field("version"))?;
            Ok(key(index, version))
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<KeyData, A::Error> {
            let index = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
            let version = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(1, &self))?;
            Ok(key(index, version))
        }
    }

    fn key(index: u32, version: u32) -> KeyData {
        KeyData::from_raw((u64::from(version) << 32) | u64::from(index))
    }

    const KEY_FIELDS: &[&str] = &["index", "version"];
    deserializer.deserialize_struct(name, KEY_FIELDS, KeyVisitor)
}
