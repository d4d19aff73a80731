//! Implementations of other crates' traits, each behind the feature of its name.

#[cfg(all(feature = "serde", feature = "alloc"))]
mod serde;
#[cfg(feature = "serde")]
mod serde_collections;
#[cfg(feature = "serde")]
mod serde_keys;
