//! [`CollectIn`] and [`FromIteratorIn`]: `collect` into a scope (bumpalo's
//! `collections::CollectIn`).
//!
//! `Iterator::collect` builds a collection from nothing; a scope's collections need their
//! scope, so `iter.collect_in::<ArenaVec<_>>(&scope)` passes it along.

use crate::collections::ArenaBox;
use crate::collections::ArenaString;
use crate::collections::vec::ArenaVec;
use crate::scope::Scope;

/// A collection that can be built from an iterator in a scope: what
/// [`CollectIn::collect_in`] builds.
///
/// # Examples
///
/// ```
/// use arena_kit::{ArenaVec, FromIteratorIn};
///
/// let arena = arena_kit::Arena::new();
/// let v = <ArenaVec<'_, u8> as FromIteratorIn<'_, u8>>::from_iter_in(0..3, &arena);
/// assert_eq!(v, [0, 1, 2]);
/// ```
pub trait FromIteratorIn<'s, A>: Sized {
    /// The collection of `iter`'s items, in `scope`.
    ///
    /// # Panics
    ///
    /// If the collection cannot grow (a limit).
    fn from_iter_in<'p, I: IntoIterator<Item = A>>(iter: I, scope: &'s Scope<'p>) -> Self;
}

/// `collect` into a scope, for every iterator.
///
/// # Examples
///
/// ```
/// use arena_kit::{ArenaString, ArenaVec, CollectIn};
///
/// let pool = arena_kit::BlockPool::new();
/// let scope = pool.scope();
/// let squares = (1..=4).map(|i| i * i).collect_in::<ArenaVec<_>>(&scope);
/// assert_eq!(squares, [1, 4, 9, 16]);
/// let shout: ArenaString = "hey".chars().map(|c| c.to_ascii_uppercase()).collect_in(&scope);
/// assert_eq!(shout, "HEY");
/// ```
pub trait CollectIn: Iterator + Sized {
    /// Collects the items into a `C` in `scope`.
    ///
    /// # Panics
    ///
    /// If the collection cannot grow (a limit).
    #[track_caller]
    fn collect_in<'s, 'p, C: FromIteratorIn<'s, Self::Item>>(self, scope: &'s Scope<'p>) -> C {
        C::from_iter_in(self, scope)
    }
}

impl<I: Iterator> CollectIn for I {}

impl<'s, T> FromIteratorIn<'s, T> for ArenaVec<'s, T> {
    #[track_caller]
    fn from_iter_in<'p, I: IntoIterator<Item = T>>(iter: I, scope: &'s Scope<'p>) -> Self {
        ArenaVec::from_iter_in(iter, scope)
    }
}

/// Collected in an [`ArenaVec`] first, then boxed without its spare capacity.
impl<'s, T> FromIteratorIn<'s, T> for ArenaBox<'s, [T]> {
    #[track_caller]
    fn from_iter_in<'p, I: IntoIterator<Item = T>>(iter: I, scope: &'s Scope<'p>) -> Self {
        ArenaVec::from_iter_in(iter, scope).into_boxed_slice()
    }
}

impl<'s> FromIteratorIn<'s, char> for ArenaString<'s> {
    #[track_caller]
    fn from_iter_in<'p, I: IntoIterator<Item = char>>(iter: I, scope: &'s Scope<'p>) -> Self {
        let mut s = ArenaString::new_in(scope);
        s.extend(iter);
        s
    }
}

impl<'s, 'a> FromIteratorIn<'s, &'a char> for ArenaString<'s> {
    #[track_caller]
    fn from_iter_in<'p, I: IntoIterator<Item = &'a char>>(iter: I, scope: &'s Scope<'p>) -> Self {
        let mut s = ArenaString::new_in(scope);
        s.extend(iter);
        s
    }
}

impl<'s, 'a> FromIteratorIn<'s, &'a str> for ArenaString<'s> {
    #[track_caller]
    fn from_iter_in<'p, I: IntoIterator<Item = &'a str>>(iter: I, scope: &'s Scope<'p>) -> Self {
        let mut s = ArenaString::new_in(scope);
        s.extend(iter);
        s
    }
}
