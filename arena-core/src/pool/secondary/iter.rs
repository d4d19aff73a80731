//! [`Iter`] and [`IterMut`]: a [`SecondaryMap`](crate::SecondaryMap)'s
//! entries with their keys, by reference, as slotmap's `Iter` and `IterMut`, so that
//! `for (key, value) in &map` works.

#![expect(
    clippy::cast_possible_truncation,
    reason = "entries exist only at slot indices, which fit a u32"
)]

use core::fmt;
use core::iter::{Enumerate, FusedIterator};
use core::slice;

use crate::pool::SlotKey;
use crate::pool::version::Version;

/// One entry of a secondary map: the version of the key that set it, and the value.
pub(super) type Tagged<V> = Option<(Version, V)>;

/// `Iterator`, `DoubleEndedIterator`, `ExactSizeIterator`, `FusedIterator` and `Debug`
/// for an iterator with `entries` (the map's entries, enumerated), `remaining` (entries
/// still to yield) and `model` (a key of the map, which the others are rebuilt from).
macro_rules! entry_iterator {
    ($name:ident, $as:ident, $($mut:ident)?) => {
        impl<'a, K: SlotKey, V> Iterator for $name<'a, K, V> {
            type Item = (K, &'a $($mut)? V);

            #[inline]
            fn next(&mut self) -> Option<Self::Item> {
                let model = self.model?;
                for (i, entry) in self.entries.by_ref() {
                    if let Some((version, value)) = entry.$as() {
                        self.remaining -= 1;
                        return Some((model.with_parts(i as u32, *version), value));
                    }
                }
                None
            }

            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                (self.remaining, Some(self.remaining))
            }
        }

        impl<K: SlotKey, V> DoubleEndedIterator for $name<'_, K, V> {
            #[inline]
            fn next_back(&mut self) -> Option<Self::Item> {
                let model = self.model?;
                while let Some((i, entry)) = self.entries.next_back() {
                    if let Some((version, value)) = entry.$as() {
                        self.remaining -= 1;
                        return Some((model.with_parts(i as u32, *version), value));
                    }
                }
                None
            }
        }

        impl<K: SlotKey, V> ExactSizeIterator for $name<'_, K, V> {}
        impl<K: SlotKey, V> FusedIterator for $name<'_, K, V> {}

        impl<K: SlotKey, V> fmt::Debug for $name<'_, K, V> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("remaining", &self.remaining)
                    .finish_non_exhaustive()
            }
        }
    };
}

/// Every entry of a [`SecondaryMap`](crate::SecondaryMap) with its key, in slot order:
/// [`SecondaryMap::iter`](crate::SecondaryMap::iter), or a `for` loop over `&map`.
///
/// Double-ended, exact-size, fused and `Clone`. A walk costs the map's slot count (the
/// highest slot it ever held an entry for), not its entry count.
///
/// # Examples
///
/// ```
/// let mut pool = arena_kit::KeyPool::new();
/// let keys: Vec<_> = (0..3).map(|i| pool.insert(i)).collect();
/// let mut squares = arena_kit::SecondaryMap::new();
/// for &k in &keys {
///     squares.insert(k, pool[k] * pool[k]);
/// }
/// squares.remove(keys[1]);
/// let mut seen = Vec::new();
/// for (key, square) in &squares {
///     seen.push((pool[key], *square));
/// }
/// assert_eq!(seen, [(0, 0), (2, 4)]);
/// assert_eq!(squares.iter().rev().next(), Some((keys[2], &4)));
/// ```
pub struct Iter<'a, K, V> {
    entries: Enumerate<slice::Iter<'a, Tagged<V>>>,
    remaining: usize,
    model: Option<K>,
}

impl<'a, K, V> Iter<'a, K, V> {
    pub(super) fn new(entries: &'a [Tagged<V>], len: usize, model: Option<K>) -> Self {
        Iter { entries: entries.iter().enumerate(), remaining: len, model }
    }
}

entry_iterator!(Iter, as_ref,);

impl<K: SlotKey, V> Clone for Iter<'_, K, V> {
    fn clone(&self) -> Self {
        Iter { entries: self.entries.clone(), remaining: self.remaining, model: self.model }
    }
}

/// Every entry of a [`SecondaryMap`](crate::SecondaryMap) with its key, the values
/// mutably, in slot order: [`SecondaryMap::iter_mut`](crate::SecondaryMap::iter_mut), or
/// a `for` loop over `&mut map`.
///
/// Double-ended, exact-size and fused.
///
/// # Examples
///
/// ```
/// let mut pool = arena_kit::KeyPool::new();
/// let a = pool.insert("a");
/// let b = pool.insert("b");
/// let mut hits = arena_kit::SecondaryMap::new();
/// hits.insert(a, 0);
/// hits.insert(b, 10);
/// for (key, n) in &mut hits {
///     *n += pool[key].len();
/// }
/// assert_eq!((hits[a], hits[b]), (1, 11));
/// ```
pub struct IterMut<'a, K, V> {
    entries: Enumerate<slice::IterMut<'a, Tagged<V>>>,
    remaining: usize,
    model: Option<K>,
}

impl<'a, K, V> IterMut<'a, K, V> {
    pub(super) fn new(entries: &'a mut [Tagged<V>], len: usize, model: Option<K>) -> Self {
        IterMut { entries: entries.iter_mut().enumerate(), remaining: len, model }
    }
}

entry_iterator!(IterMut, as_mut, mut);
