//! [`Memory`]: where a [`KeyPool`](crate::KeyPool) keeps its slots (and a
//! [`SecondaryMap`](crate::SecondaryMap) its entries), as a type parameter.
//!
//! A `KeyPool<T, K, Heap>` (the default, `KeyPool<T>`) grows a heap buffer; a
//! `KeyPool<T, K, Fixed<'s>>` ([`FixedKeyPool<'s, T>`](crate::pool::FixedKeyPool)) lives in
//! a caller's [`PoolStorage`](crate::pool::PoolStorage) borrowed for `'s`, and never calls
//! an allocator. The two share every method that neither grows nor gives the buffer away.
//! A `SecondaryMap<K, V, M>` is the same with a
//! [`SecondaryStorage`](crate::pool::secondary::SecondaryStorage)
//! ([`FixedSecondaryMap`](crate::pool::secondary::FixedSecondaryMap)).
//!
//! The parameter is what keeps a pool over storage from outliving the storage. The
//! storage is borrowed for `'s`, and `Fixed<'s>` carries that borrow in the pool's type.
//! So the borrow checker ends the pool's life before the storage's, whatever the pool is
//! moved into, and the drop check makes the pool's drop (which drops the values in the
//! storage) come first too (`StorageBorrow`). A heap pool and a pool over storage are different types, so `mem::swap`
//! cannot trade one buffer for the other. What would hand the slots out without the
//! borrow (the by-value iterator, `Clone` into a new buffer, deserialising) exists for
//! `Heap` only.

use core::marker::PhantomData;

/// Where a [`KeyPool`](crate::KeyPool) keeps its slots (or a
/// [`SecondaryMap`](crate::SecondaryMap) its entries, a
/// [`ColumnVec`](crate::pool::soa::ColumnVec) its columns): [`Heap`] or [`Fixed`].
/// Sealed: these two are the only kinds.
pub trait Memory: sealed::Sealed {
    /// Whether the memory is a caller's storage, which never grows.
    #[doc(hidden)]
    const FIXED: bool;
}

/// A [`KeyPool`](crate::KeyPool) whose slots are in a heap buffer it grows (the
/// default). A marker type, never a value.
///
/// # Examples
///
/// ```
/// use arena_kit::KeyPool;
/// use arena_kit::pool::Heap;
///
/// let pool: KeyPool<u8, arena_kit::TypedKey<u8>, Heap> = KeyPool::new();
/// assert!(pool.is_empty());
/// ```
#[derive(Debug)]
pub enum Heap {}

/// A [`KeyPool`](crate::KeyPool) whose slots are in a caller's
/// [`PoolStorage`](crate::pool::PoolStorage), borrowed for `'s` (see
/// [`FixedKeyPool`](crate::pool::FixedKeyPool)). A marker type, never a value.
///
/// # Examples
///
/// ```compile_fail,E0597
/// use arena_kit::pool::{FixedKeyPool, PoolStorage};
///
/// let pool: FixedKeyPool<'_, u8> = {
///     let mut storage = PoolStorage::<u8, 4>::new();
///     FixedKeyPool::in_storage(&mut storage)
/// }; // the storage ends here, and the pool's type says it borrows it
/// drop(pool);
/// ```
#[derive(Debug)]
pub struct Fixed<'s> {
    /// The storage's borrow; private, so no value of the marker is ever made.
    _borrow: PhantomData<StorageBorrow<'s>>,
}

/// The borrow of a pool's storage, as the drop check sees it. The pool's destructor
/// drops the values in the storage through a raw pointer, which the drop check does not
/// follow, and a bare `PhantomData<&'s mut ()>` asks nothing of `'s` at a drop. This
/// type's (empty) `Drop` impl does: a `PhantomData` counts as owning one, so the storage
/// must still be live when the pool is dropped, whatever order the variables were
/// declared in (the ui case `fixed_key_pool_declared_before_its_storage`).
struct StorageBorrow<'s>(PhantomData<&'s mut ()>);

impl Drop for StorageBorrow<'_> {
    fn drop(&mut self) {}
}

impl Memory for Heap {
    const FIXED: bool = false;
}
impl Memory for Fixed<'_> {
    const FIXED: bool = true;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Heap {}
    impl Sealed for super::Fixed<'_> {}
}
