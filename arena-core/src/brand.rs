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
//! without a macro; its proof is the type of [`Pool::with`](crate::Pool::with), so it
//! needs no `unsafe`. `tests/ui/brand_*.rs` are the attacks that must not compile.

use core::fmt;
use core::marker::PhantomData;

/// The brand of one pool: a zero-sized, `Copy` token carrying the invariant lifetime `'id`.
///
/// Only [`Pool::with`](crate::Pool::with) makes one. It is `Send` and `Sync`: it holds no
/// data, and a brand crossing threads proves nothing about any pool by itself.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Id<'id> {
    _invariant: PhantomData<fn(&'id ()) -> &'id ()>,
}

impl Id<'_> {
    /// A brand token for `'id`. Crate-private. Making a *pool* with it is sound only where
    /// `'id` is universally quantified by the caller (`Pool::with`'s `for<'id>` closure);
    /// rebuilding a checked `Key<'id>` from the parts of an earlier key of the same brand
    /// (`SecondaryMap::retain`) is sound anywhere, since keys are checked on every use.
    pub(crate) const fn fresh() -> Self {
        Id { _invariant: PhantomData }
    }
}

impl fmt::Debug for Id<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Id<'_>")
    }
}
