//! [`SecondaryMap`], side data for the values of one pool, keyed by its keys
//! (slotmap's `SecondaryMap`), with its iterators ([`Iter`], [`IterMut`]) and the slot
//! entry of [`SecondaryMap::entry`] ([`Entry`]).

mod iter;
mod map;
mod storage;

pub use iter::{Iter, IterMut};
pub use map::{Entry, FixedSecondaryMap, SecondaryMap};
pub use storage::SecondaryStorage;
