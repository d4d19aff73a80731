//! Which types cross threads: `Send` and `Sync` checked at compile time, against the
//! public types only. A type that must not be `Send` (or `Sync`) is checked by
//! [`assert_not_impl!`], which stops compiling the moment the type gains the trait; the
//! positive side by plain bounds. Unlike a compile-fail snapshot, neither names the
//! private types a public one is built of, so a private refactor changes nothing here.

use std::rc::Rc;

use arena_kit::{
    Arena, ArenaBox, ArenaString, ArenaVec, BlockPool, Handle, Key, KeyPool, Pool, Scope,
    SecondaryMap, SizeClassPool, TypedKey,
};
#[cfg(feature = "std")]
use arena_kit::{ArenaPool, SharedBlockPool, SyncPool, SyncSizeClassPool, scope::PooledArena};

/// Compiles only while `$t` does not implement `$trait`: with the impl, the second
/// blanket impl applies too and `<$t as AmbiguousIfImpl<_>>::some_item` is ambiguous
/// (E0283). The technique of the `static_assertions` crate's `assert_not_impl_any!`.
macro_rules! assert_not_impl {
    ($t:ty: $trait:path) => {
        const _: fn() = || {
            trait AmbiguousIfImpl<A> {
                fn some_item() {}
            }
            impl<T: ?Sized> AmbiguousIfImpl<()> for T {}
            #[allow(dead_code)]
            struct Invalid;
            impl<T: ?Sized + $trait> AmbiguousIfImpl<Invalid> for T {}
            let _ = <$t as AmbiguousIfImpl<_>>::some_item;
        };
    };
}

const fn is_send<T: Send + ?Sized>() {}
const fn is_sync<T: Sync + ?Sized>() {}

// A scope and an arena hand out `&mut` into memory they reach through raw pointers and
// `Cell`s, without atomics: neither moves nor is shared across threads, and neither do
// the collections and boxes that point into them.
assert_not_impl!(Scope<'static>: Send);
assert_not_impl!(Scope<'static>: Sync);
assert_not_impl!(Arena: Send);
assert_not_impl!(Arena: Sync);
assert_not_impl!(ArenaVec<'static, u64>: Send);
assert_not_impl!(ArenaString<'static>: Send);
assert_not_impl!(ArenaBox<'static, Rc<u8>>: Send);

// The unlocked pools may move to another thread but not be shared: they count and cache
// through `Cell`s.
assert_not_impl!(BlockPool: Sync);
assert_not_impl!(SizeClassPool: Sync);
const _: () = is_send::<BlockPool>();

// Typed pools are `Send` and `Sync` as their values are; keys hold no value.
assert_not_impl!(Pool<'static, Rc<u8>>: Send);
assert_not_impl!(KeyPool<Rc<u8>>: Send);
const _: () = is_send::<Pool<'static, String>>();
const _: () = is_sync::<Pool<'static, String>>();
const _: () = is_send::<KeyPool<String>>();
const _: () = is_sync::<KeyPool<String>>();
const _: () = is_send::<TypedKey<Rc<u8>>>();
const _: () = is_sync::<TypedKey<Rc<u8>>>();
const _: () = is_send::<Key<'static>>();
const _: () = is_send::<Handle<'static>>();
const _: () = is_sync::<SecondaryMap<TypedKey<u8>, String>>();

// The thread-safe flavours.
#[cfg(feature = "std")]
const _: () = {
    is_send::<SharedBlockPool>();
    is_sync::<SharedBlockPool>();
    is_sync::<SyncSizeClassPool>();
    is_sync::<SyncPool<'static, String>>();
    is_sync::<ArenaPool>();
    // A lent arena moves to the task's thread, but two threads never share it.
    is_send::<PooledArena<'static, 'static>>();
};
#[cfg(feature = "std")]
assert_not_impl!(PooledArena<'static, 'static>: Sync);
#[cfg(feature = "std")]
assert_not_impl!(SyncPool<'static, Rc<u8>>: Sync);
