//! `serde` support for the collections (feature `serde`, no allocator needed):
//! [`ArenaVec`] serialises as a sequence, [`ArenaString`] as a string and [`ArenaBox`] as
//! its value, as `Vec`, `String` and `Box` do. There is no `Deserialize`: there is no
//! scope to deserialise into.

use serde::ser::{Serialize, Serializer};

use crate::collections::ArenaBox;
use crate::collections::ArenaString;
use crate::collections::vec::ArenaVec;

impl<T: Serialize> Serialize for ArenaVec<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl Serialize for ArenaString<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self)
    }
}

impl<T: Serialize + ?Sized> Serialize for ArenaBox<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(serializer)
    }
}
