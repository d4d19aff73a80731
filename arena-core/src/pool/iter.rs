//! The iterators of [`Pool`](crate::Pool) and [`KeyPool`](crate::KeyPool): [`Iter`],
//! [`IterMut`], [`Drain`] and [`IntoIter`].
//!
//! Each wraps a walk over the slot storage (`pool/slots.rs`, which reads the values) and turns
//! the index and version of every value into the pool's key type `K` ([`Key<'id>`] or
//! [`TypedKey<T>`]). All of them go in slot order, from either end, and know exactly how
//! many values are left; [`Iter`] is `Clone` too (slotmap's iterators are, but are not
//! double-ended; slab's are double-ended).
//!
//! [`Key<'id>`]: crate::Key
//! [`TypedKey<T>`]: crate::TypedKey

use core::fmt;
use core::iter::FusedIterator;

use crate::pool::SlotKey;
use crate::pool::slots::{RawDrain, RawIntoIter, RawIter, RawIterMut};
use crate::pool::version::Version;

/// Turns a raw item's index and version into a key like `model`.
#[inline]
fn keyed<K: SlotKey, V>(model: K, (index, version, value): (u32, Version, V)) -> (K, V) {
    (model.with_parts(index, version), value)
}

/// The iterator traits of a public pool iterator `$name` (with its lifetime, if any), whose `raw` field walks the
/// storage and whose `model` key makes the keys: `Iterator`, `DoubleEndedIterator`,
/// `ExactSizeIterator`, `FusedIterator` and `Debug`.
macro_rules! keyed_iterator {
    ($name:ident [$($lt:lifetime)?] yields $item:ty) => {
        impl<$($lt,)? K: SlotKey, T> Iterator for $name<$($lt,)? K, T> {
            type Item = $item;

            #[inline]
            fn next(&mut self) -> Option<Self::Item> {
                self.raw.next().map(|item| keyed(self.model, item))
            }

            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                self.raw.size_hint()
            }

            /// The slot walk's own `fold` (no early exit, no meta test in a pool
            /// without holes), so `for_each` and `sum` scan like a slice.
            #[inline]
            fn fold<B, F>(self, init: B, mut f: F) -> B
            where
                F: FnMut(B, Self::Item) -> B,
            {
                let model = self.model;
                self.raw.fold(init, move |acc, item| f(acc, keyed(model, item)))
            }
        }

        impl<$($lt,)? K: SlotKey, T> DoubleEndedIterator for $name<$($lt,)? K, T> {
            #[inline]
            fn next_back(&mut self) -> Option<Self::Item> {
                self.raw.next_back().map(|item| keyed(self.model, item))
            }
        }

        impl<$($lt,)? K: SlotKey, T> ExactSizeIterator for $name<$($lt,)? K, T> {}
        impl<$($lt,)? K: SlotKey, T> FusedIterator for $name<$($lt,)? K, T> {}

        impl<$($lt,)? K: SlotKey, T> fmt::Debug for $name<$($lt,)? K, T> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("remaining", &self.len())
                    .finish_non_exhaustive()
            }
        }
    };
}

/// Every value of a pool with its key, in slot order: [`Pool::iter`](crate::Pool::iter)
/// and [`KeyPool::iter`](crate::KeyPool::iter), or a `for` loop over `&pool`.
///
/// Double-ended, exact-size, fused and `Clone`; each step skips vacant slots, so a walk
/// costs the slot count, not the value count.
///
/// # Examples
///
/// ```
/// let mut pool = arena_kit::KeyPool::new();
/// let keys: Vec<_> = (0..4).map(|i| pool.insert(i)).collect();
/// pool.remove(keys[1]);
/// let iter = pool.iter();
/// assert_eq!(iter.len(), 3);
/// let backwards: Vec<i32> = iter.clone().rev().map(|(_, v)| *v).collect();
/// assert_eq!(backwards, [3, 2, 0]);
/// assert_eq!(iter.map(|(k, _)| k).collect::<Vec<_>>(), [keys[0], keys[2], keys[3]]);
/// ```
pub struct Iter<'a, K, T> {
    raw: RawIter<'a, T>,
    /// A key of the pool, which the others are made like.
    model: K,
}

impl<'a, K, T> Iter<'a, K, T> {
    pub(super) fn new(raw: RawIter<'a, T>, model: K) -> Self {
        Iter { raw, model }
    }
}

keyed_iterator!(Iter['a] yields (K, &'a T));

impl<K: SlotKey, T> Clone for Iter<'_, K, T> {
    fn clone(&self) -> Self {
        Iter { raw: self.raw.clone(), model: self.model }
    }
}

/// Every value of a pool with its key, mutably, in slot order:
/// [`Pool::iter_mut`](crate::Pool::iter_mut) and
/// [`KeyPool::iter_mut`](crate::KeyPool::iter_mut), or a `for` loop over `&mut pool`.
///
/// Double-ended, exact-size and fused (not `Clone`: two copies would lend the same value
/// mutably twice).
///
/// # Examples
///
/// ```
/// let mut pool = arena_kit::KeyPool::new();
/// let a = pool.insert(1);
/// let b = pool.insert(2);
/// for (key, value) in &mut pool {
///     if key == b {
///         *value *= 100;
///     }
/// }
/// assert_eq!((pool[a], pool[b]), (1, 200));
/// ```
pub struct IterMut<'a, K, T> {
    raw: RawIterMut<'a, T>,
    /// A key of the pool, which the others are made like.
    model: K,
}

impl<'a, K, T> IterMut<'a, K, T> {
    pub(super) fn new(raw: RawIterMut<'a, T>, model: K) -> Self {
        IterMut { raw, model }
    }
}

keyed_iterator!(IterMut['a] yields (K, &'a mut T));

/// Removes values from a pool as it yields them with their (now stale) keys, in slot
/// order: [`KeyPool::drain`](crate::KeyPool::drain) (every value) and
/// [`Pool::drain_keyed`](crate::Pool::drain_keyed) (every value no handle owns).
///
/// Double-ended, exact-size and fused. The pool stays usable: dropping the drain removes
/// (and drops) the values it did not reach; leaking it (`mem::forget`) leaves them in the
/// pool, which stays consistent either way. If a value's destructor panics while the
/// drain is dropped, the others are still dropped, each once.
///
/// # Examples
///
/// ```
/// let mut pool = arena_kit::KeyPool::new();
/// let keys: Vec<_> = (0..5).map(|i| pool.insert(i)).collect();
/// let mut drain = pool.drain();
/// assert_eq!(drain.len(), 5);
/// assert_eq!(drain.next(), Some((keys[0], 0)));
/// assert_eq!(drain.next_back(), Some((keys[4], 4)));
/// drop(drain); // removes 1, 2 and 3 too
/// assert!(pool.is_empty());
/// assert_eq!(pool.get(keys[2]), None);
/// ```
pub struct Drain<'a, K, T> {
    raw: RawDrain<'a, T>,
    /// A key of the pool, which the others are made like.
    model: K,
}

impl<'a, K, T> Drain<'a, K, T> {
    pub(super) fn new(raw: RawDrain<'a, T>, model: K) -> Self {
        Drain { raw, model }
    }
}

keyed_iterator!(Drain['a] yields (K, T));

/// Every value of a consumed pool with its key, in slot order: `pool.into_iter()` on a
/// [`Pool`](crate::Pool) (values owned by handles too: the pool is gone, so no handle can
/// reach it) or a [`KeyPool`](crate::KeyPool).
///
/// Double-ended, exact-size and fused; the values it does not reach are dropped with it.
///
/// # Examples
///
/// ```
/// let mut pool = arena_kit::KeyPool::new();
/// for word in ["to", "be", "or"] {
///     pool.insert(word.to_string());
/// }
/// let words: Vec<String> = pool.into_iter().rev().map(|(_, w)| w).collect();
/// assert_eq!(words, ["or", "be", "to"]);
/// ```
pub struct IntoIter<K, T> {
    raw: RawIntoIter<T>,
    /// A key of the pool, which the others are made like.
    model: K,
}

impl<K, T> IntoIter<K, T> {
    pub(super) fn new(raw: RawIntoIter<T>, model: K) -> Self {
        IntoIter { raw, model }
    }
}

keyed_iterator!(IntoIter[] yields (K, T));
