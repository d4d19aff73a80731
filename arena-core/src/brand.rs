//! Generative brands: a lifetime that makes every pool a type of its own.
//!
//! A brand is an *invariant* lifetime `'id` that nothing outside one closure call can
//! name. [`Pool::with`](crate::Pool::with) calls its closure with `for<'id>`: the closure
//! must work for every `'id`, so the compiler treats the one it gets as a fresh lifetime,
//! equal to no other. Two pools opened by two calls have two brands; a handle of one has
//! a different type from a handle of the other, and nothing can unify them:
//!
//! - invariance (`fn(&'id ()) -> &'id ()`) stops subtyping from shrinking or growing a
//!   brand into another;
//! - the closure's result type `R` is chosen outside the `for<'id>`, so it cannot mention
//!   `'id`: no pool, handle or key escapes through the return value, a captured variable,
//!   a channel or a `'static` box;
//! - a function that takes two pools of one brand (`fn f<'a>(x: Pool<'a, T>, y: Pool<'a,
//!   T>) -> !`) cannot be called with two brands, diverging or not: the brands are
//!   universally quantified, so they are never provably equal (the hole that defeats
//!   macro-made brands such as `compact_arena`'s, whose lifetimes are ordinary local ones);
//! - nothing in the crate makes a brand except that closure call: there is no `'static`
//!   pool and no pool whose brand the caller picks.
//!
//! This is the technique of `generativity` and `ghost-cell`'s closure form, written here
//! without a macro; its proof is the type of [`Brand::with`], so it needs no `unsafe`.
//! `tests/ui/brand_*.rs` are the attacks that must not compile.
//!
//! # `Brand`: one fresh brand, for exactly one pool
//!
//! [`Pool::with`](crate::Pool::with) fixes the value type *outside* the `for<'id>`, so a
//! value type that mentions the brand (a linked node holding `Key<'id>`s of its own pool)
//! cannot be named there. [`Brand::with`] hands out the bare brand instead, and
//! [`Pool::new_in`](crate::Pool::new_in) turns it into a pool whose value type is chosen
//! inside the closure. A `Brand` is neither `Copy` nor `Clone` and every constructor that
//! takes one consumes it, so one brand still names one pool: two pools sharing a brand
//! would accept each other's handles.

use core::fmt;
use core::marker::PhantomData;

/// The brand of one pool: a zero-sized, `Copy` token carrying the invariant lifetime `'id`.
///
/// Only [`Brand::with`] makes one (inside a [`Brand`]). It is `Send` and `Sync`: it holds no
/// data, and a brand crossing threads proves nothing about any pool by itself.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Id<'id> {
    _invariant: PhantomData<fn(&'id ()) -> &'id ()>,
}

impl Id<'_> {
    /// A brand token for `'id`, minted without proof.
    ///
    /// # Safety
    ///
    /// `'id` is universally quantified right here by the caller: `Brand::with`'s
    /// `for<'id>` closure, the one place a brand is made. A token made any other way
    /// could brand a second pool whose handles the first would accept unchecked. (Code
    /// that needs a token of an existing brand copies it from a branded value, as
    /// `SecondaryMap` does from a key.)
    pub(crate) const unsafe fn fresh() -> Self {
        Id { _invariant: PhantomData }
    }
}

impl fmt::Debug for Id<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Id<'_>")
    }
}

/// A fresh brand, not yet given to a pool: the generative lifetime `'id` as a value.
///
/// Made only by [`Brand::with`]; consumed by [`Pool::new_in`](crate::Pool::new_in) or
/// [`SoaPool::new_in`](crate::SoaPool::new_in) (and the pools `#[derive(ArenaAlloc)]`
/// generates), so one brand names exactly one pool. Needed where the pool's value type
/// mentions the brand itself (linked structures); [`Pool::with`](crate::Pool::with) is the
/// shorter form otherwise.
///
/// # Examples
///
/// A singly linked list whose nodes hold keys of their own pool:
///
/// ```
/// use arena_kit::{Brand, Key, Pool};
///
/// struct Node<'id> { value: u32, next: Option<Key<'id>> }
///
/// let sum = Brand::with(|brand| {
///     let mut pool: Pool<'_, Node<'_>> = Pool::new_in(brand);
///     let tail = pool.insert_keyed(Node { value: 2, next: None });
///     let head = pool.insert_keyed(Node { value: 1, next: Some(tail) });
///     let (mut sum, mut at) = (0, Some(head));
///     while let Some(key) = at {
///         let node = pool.get_key(key).unwrap();
///         sum += node.value;
///         at = node.next;
///     }
///     sum
/// });
/// assert_eq!(sum, 3);
/// ```
///
/// A brand names one pool only:
///
/// ```compile_fail,E0382
/// use arena_kit::{Brand, Pool};
/// Brand::with(|brand| {
///     let a: Pool<'_, u8> = Pool::new_in(brand);
///     let b: Pool<'_, u8> = Pool::new_in(brand); // use of moved value
/// });
/// ```
pub struct Brand<'id> {
    id: Id<'id>,
}

impl Brand<'_> {
    /// Runs `f` with a brand no other call has, and returns what `f` returns.
    ///
    /// As with [`Pool::with`](crate::Pool::with), `f` must accept *any* brand
    /// (`for<'id>`), so nothing that mentions it can be returned.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{Brand, Pool};
    ///
    /// let n = Brand::with(|brand| {
    ///     let mut pool = Pool::new_in(brand);
    ///     let h = pool.insert("x");
    ///     pool.remove(h).len()
    /// });
    /// assert_eq!(n, 1);
    /// ```
    pub fn with<R>(f: impl for<'id> FnOnce(Brand<'id>) -> R) -> R {
        // SAFETY: `'id` is universally quantified by `f`'s `for<'id>` bound: this call is
        // the only place the lifetime is chosen, and `f` must work for every choice, so
        // the brand equals no other (see the module docs).
        f(Brand { id: unsafe { Id::fresh() } })
    }
}

impl<'id> Brand<'id> {
    /// A brand for `id` again, so that several pools share one brand.
    ///
    /// # Safety
    ///
    /// Handles and keys made by the pools that share the brand must each only ever reach
    /// the pool that made them: [`SyncPool`](crate::SyncPool)'s shards never expose
    /// their `Pool`, and every `SyncHandle` routes its handle to the shard that made it.
    #[cfg(feature = "std")]
    pub(crate) unsafe fn from_id(id: Id<'id>) -> Self {
        Brand { id }
    }

    /// Gives the brand up for the one pool that will carry it.
    pub(crate) fn into_id(self) -> Id<'id> {
        self.id
    }
}

impl fmt::Debug for Brand<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Brand<'_>")
    }
}
