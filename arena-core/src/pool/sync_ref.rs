//! [`SyncRef`] and [`SyncRefMut`]: a [`SyncPool`](crate::SyncPool) value borrowed under
//! its shard's lock, as a `MutexGuard` borrows a mutex's value.
//!
//! A guard holds the shard's lock from [`SyncPool::get`](crate::SyncPool::get) (or
//! `get_mut`, `get_by_key`, `get_by_key_mut`) until it drops, and the value derefs from
//! it: the borrow checker ties every reference to the guard, so none outlives the lock.
//! While it lives, this thread is marked as the shard's holder (`held_shards.rs`), so a
//! call into the same shard from the same thread panics instead of waiting forever, as
//! inside a `with_value` closure; other threads wait. A guard is not `Send` (it must
//! unlock on the thread that locked); `mem::forget` of one leaves its shard locked, as
//! forgetting a `MutexGuard` does, never unsound.
//!
//! A handle's guard borrows the handle, so the value cannot be removed while the guard
//! lives. A key's guard keeps the key, checked once when the guard is made: under the
//! lock nothing can remove the value, so each deref finds it again.

use core::fmt;
use core::ops::{Deref, DerefMut};

use crate::pool::held_shards::Held;
use crate::pool::{Handle, Key, Pool};
use crate::sync::spin_lock::SpinGuard;

/// What a guard's value is found by.
pub(super) enum At<'a, 'id> {
    Handle(&'a Handle<'id>),
    /// A key checked under the lock the guard holds.
    Key(Key<'id>),
}

/// The shard's lock and the mark that this thread holds it, in the order they must end:
/// fields drop in declaration order, so the mark goes before the lock is released.
struct Locked<'a, 'id, T> {
    _held: Held,
    shard: SpinGuard<'a, Pool<'id, T>>,
    at: At<'a, 'id>,
}

impl<T> Locked<'_, '_, T> {
    fn get(&self) -> &T {
        match self.at {
            At::Handle(handle) => self.shard.get(handle),
            At::Key(key) => match self.shard.get_key(key) {
                Some(value) => value,
                None => unreachable!("a key checked under the lock names its value while held"),
            },
        }
    }

    fn get_mut(&mut self) -> &mut T {
        match self.at {
            At::Handle(handle) => self.shard.get_mut(handle),
            At::Key(key) => match self.shard.get_key_mut(key) {
                Some(value) => value,
                None => unreachable!("a key checked under the lock names its value while held"),
            },
        }
    }
}

/// A shared borrow of a [`SyncPool`](crate::SyncPool) value, holding its shard's lock
/// until it drops: from [`SyncPool::get`](crate::SyncPool::get) or
/// [`get_by_key`](crate::SyncPool::get_by_key). Other threads' calls on that shard wait
/// for it; a call on that shard from this thread while it lives panics (it would wait
/// for itself). Keep it short, as a `MutexGuard`.
///
/// # Examples
///
/// ```
/// arena_kit::SyncPool::with(|pool| {
///     let h = pool.insert(String::from("kept"));
///     let value = pool.get(&h);
///     assert_eq!(value.len(), 4);
///     drop(value); // unlocks the shard
///     pool.remove(h);
/// });
/// ```
#[must_use = "the guard holds its shard's lock until it drops"]
pub struct SyncRef<'a, 'id, T>(Locked<'a, 'id, T>);

/// An exclusive borrow of a [`SyncPool`](crate::SyncPool) value, holding its shard's lock
/// until it drops: from [`SyncPool::get_mut`](crate::SyncPool::get_mut) or
/// [`get_by_key_mut`](crate::SyncPool::get_by_key_mut). As [`SyncRef`], mutably.
///
/// # Examples
///
/// ```
/// arena_kit::SyncPool::with(|pool| {
///     let h = pool.insert(vec![1]);
///     pool.get_mut(&h).push(2);
///     assert_eq!(pool.remove(h), [1, 2]);
/// });
/// ```
#[must_use = "the guard holds its shard's lock until it drops"]
pub struct SyncRefMut<'a, 'id, T>(Locked<'a, 'id, T>);

impl<'a, 'id, T> SyncRef<'a, 'id, T> {
    /// The guard of the value `at` names in `shard`, this thread marked as its holder by
    /// `held`. `at` names a live value of `shard` (a handle of it, or a key just checked).
    pub(super) fn new(held: Held, shard: SpinGuard<'a, Pool<'id, T>>, at: At<'a, 'id>) -> Self {
        SyncRef(Locked { _held: held, shard, at })
    }
}

impl<'a, 'id, T> SyncRefMut<'a, 'id, T> {
    /// As [`SyncRef::new`].
    pub(super) fn new(held: Held, shard: SpinGuard<'a, Pool<'id, T>>, at: At<'a, 'id>) -> Self {
        SyncRefMut(Locked { _held: held, shard, at })
    }
}

impl<T> Deref for SyncRef<'_, '_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.0.get()
    }
}

impl<T> Deref for SyncRefMut<'_, '_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.0.get()
    }
}

impl<T> DerefMut for SyncRefMut<'_, '_, T> {
    fn deref_mut(&mut self) -> &mut T {
        self.0.get_mut()
    }
}

impl<T: fmt::Debug> fmt::Debug for SyncRef<'_, '_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T: fmt::Debug> fmt::Debug for SyncRefMut<'_, '_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}
