//! Implementations of other crates' traits, each behind the feature of its name.

#[cfg(feature = "serde")]
mod serde;
