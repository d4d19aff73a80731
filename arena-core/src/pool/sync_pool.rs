//! [`SyncPool`]: a branded typed pool usable from many threads at once.
//!
//! The seed's locked pools (002) put one lock around the whole pool; two threads then
//! take turns, and the second thread adds no throughput. `SyncPool` is a set of shards,
//! each an ordinary [`Pool`](crate::Pool) behind its own lock; a thread inserts into the
//! shard picked by its thread index (threads spread over the shards round-robin), so
//! threads that mostly work on their own values mostly take uncontended locks. The lock
//! is a spin lock (`sync/spin_lock.rs`) whose unlock is a plain store: an uncontended
//! lock-and-unlock pair costs less than half of `parking_lot`'s, and every operation
//! takes one (a remove and an insert, two).
//!
//! - An owning [`SyncHandle`] remembers its shard; `remove` and access lock that shard,
//!   from any thread. Like [`Handle`](crate::Handle), it is neither `Copy` nor `Clone` and `remove`
//!   consumes it, so a handle is proof that its value is live: access checks nothing
//!   at run time beyond taking the lock.
//! - Every shard carries the pool's brand: a handle of one `SyncPool` is a type error on
//!   another. Inside one pool, the handle's shard index (private, set by `insert`) routes
//!   it to the one shard that made it; nothing else can name a shard.
//! - `Send`/`Sync` come from the parts: the shard lock is `Sync` when `T: Send` (its one
//!   `unsafe impl`, SL1), so `SyncPool<T>` is shared across threads exactly when its
//!   values may move between threads. Access runs a closure under the shard's lock
//!   (`with_value` / `with_value_mut`), or borrows through a guard that holds the lock
//!   (`get` / `get_mut` and the key forms, `sync_ref.rs`), so no reference outlives the
//!   lock.
//! - Such a closure that calls back into its own shard (`insert` into it, `remove` or
//!   access another of its handles, `len`) would wait for a lock its own thread holds:
//!   instead of hanging, that call panics; so does one while the thread holds a guard of
//!   that shard. The check costs nothing on the fast path: it runs only when a lock is
//!   found taken, against a per-thread list of the shards whose closures or guards are
//!   live (`held_shards.rs`).

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;
use std::cell::Cell;

use crate::brand::{Brand, Id};
use crate::error::TryAllocError;
use crate::pool::Pool;
use crate::pool::held_shards::{Held, held_here};
use crate::pool::sync_ref::{At, SyncRef, SyncRefMut};
use crate::pool::version::{NO_SLOT, Version};
use crate::pool::{Handle, Key};
use crate::sync::spin_lock::{SpinGuard, SpinLock};

/// A shard on a cache line of its own, so that two threads' locks do not false-share.
#[repr(align(128))]
struct Shard<'id, T>(SpinLock<Pool<'id, T>>);

/// An owning handle to a value in a [`SyncPool`]: its shard and its slot. Neither `Copy`
/// nor `Clone`; [`SyncPool::remove`] consumes it. `Send` and `Sync`: a handle may move
/// to the thread that removes its value.
///
/// # Examples
///
/// ```
/// arena_kit::SyncPool::with(|pool| {
///     let h = pool.insert(String::from("a"));
///     std::thread::scope(|s| {
///         s.spawn(|| assert_eq!(pool.remove(h), "a")); // removed on another thread
///     });
/// });
/// ```
#[must_use = "dropping a handle leaves its value in the pool until the pool is dropped"]
pub struct SyncHandle<'id> {
    handle: Handle<'id>,
    shard: u32,
}

impl fmt::Debug for SyncHandle<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SyncHandle")
            .field("shard", &self.shard)
            .field("slot", &self.handle.slot())
            .finish()
    }
}

/// A copyable, checked key to a value in a [`SyncPool`]: its shard and the shard's
/// [`Key`]. Usable from any thread; a stale key gets `None`. 12 bytes; ordered by shard,
/// then slot and version.
///
/// # Examples
///
/// ```
/// arena_kit::SyncPool::with(|pool| {
///     let k = pool.insert_keyed(String::from("session"));
///     let copy = k;
///     std::thread::scope(|s| {
///         s.spawn(|| assert_eq!(pool.with_key(copy, |v| v.len()), Some(7)));
///     });
///     assert_eq!(pool.remove_key(k).as_deref(), Some("session"));
///     assert_eq!(pool.with_key(k, |v| v.len()), None);
/// });
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SyncKey<'id> {
    shard: u32,
    key: Key<'id>,
}

impl SyncKey<'_> {
    /// The key as one `u128`: the shard in bits 64..96, the shard's key
    /// ([`Key::to_raw`]) in bits 0..64; [`SyncPool::key_from_raw`] turns it back.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let k = pool.insert_keyed("session");
    ///     let cookie: u128 = k.to_raw();
    ///     assert_eq!(pool.key_from_raw(cookie), k);
    /// });
    /// ```
    #[must_use]
    pub fn to_raw(self) -> u128 {
        (u128::from(self.shard) << 64) + u128::from(self.key.to_raw())
    }
}

impl fmt::Debug for SyncKey<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SyncKey").field("shard", &self.shard).field("key", &self.key).finish()
    }
}

/// Typed free-list storage shared by many threads: a [`Pool`] per shard, each behind its
/// own lock.
///
/// A thread inserts into the shard of its thread index (threads spread over the shards
/// round-robin; [`default_shards`](SyncPool::default_shards) is twice the parallelism),
/// so threads working on their own values take uncontended locks and a second thread
/// adds throughput, where one lock around one pool would make them take turns. A
/// [`SyncHandle`] remembers its shard, so `remove` and access work from any thread; it is
/// neither `Copy` nor `Clone`, and every shard carries the pool's brand, so a handle is
/// proof of a live value in this pool. `Sync` exactly when `T: Send`. On one thread each
/// call pays an uncontended lock: use [`Pool`] there.
///
/// # Examples
///
/// ```
/// use arena_kit::SyncPool;
///
/// let total = SyncPool::with(|pool| {
///     std::thread::scope(|s| {
///         let workers: Vec<_> = (0..2_u64)
///             .map(|t| {
///                 let pool = &pool;
///                 s.spawn(move || {
///                     let handles: Vec<_> = (0..100).map(|i| pool.insert(t * 100 + i)).collect();
///                     handles.into_iter().map(|h| pool.remove(h)).sum::<u64>()
///                 })
///             })
///             .collect();
///         workers.into_iter().map(|w| w.join().unwrap()).sum::<u64>()
///     })
/// });
/// assert_eq!(total, (0..200).sum());
/// ```
///
/// A handle of one pool does not work on another:
///
/// ```compile_fail,E0521
/// use arena_kit::SyncPool;
/// SyncPool::with(|a: SyncPool<'_, u32>| {
///     SyncPool::with(|b: SyncPool<'_, u32>| {
///         let h = a.insert(1);
///         b.remove(h); // error: lifetime mismatch
///     });
/// });
/// ```
pub struct SyncPool<'id, T> {
    shards: Box<[Shard<'id, T>]>,
    /// The brand every shard carries, for keys made from raw bits.
    brand: Id<'id>,
}

/// The calling thread's shard in a pool of `shards` shards: the thread's index (given
/// out round-robin at its first use of any `SyncPool`) modulo `shards`, so the first
/// `shards` threads get shards of their own.
///
/// The remainder is kept per thread with the shard count it was taken for: a thread
/// working with pools of one shard count divides once, and every insert after that reads
/// its shard from a thread-local instead of dividing (a division is tens of cycles, about
/// what the shard's lock costs).
#[inline]
fn home_shard(shards: usize) -> usize {
    std::thread_local! {
        /// (shard count, shard) of the last division; no pool has zero shards.
        static HOME: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
    }
    HOME.with(|home| match home.get() {
        (count, shard) if count == shards => shard,
        _ => {
            let shard = thread_index() % shards;
            home.set((shards, shard));
            shard
        }
    })
}

/// Index of the calling thread, given out round-robin at its first use of any `SyncPool`.
#[cold]
fn thread_index() -> usize {
    // A plain std atomic even under loom: a counter handing out indices, not modelled.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    std::thread_local! {
        static INDEX: Cell<Option<usize>> = const { Cell::new(None) };
    }
    INDEX.with(|index| {
        index.get().unwrap_or_else(|| {
            let i = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            index.set(Some(i));
            i
        })
    })
}

impl SyncPool<'_, ()> {
    /// Shards a pool gets by default: twice the machine's parallelism, at least 2 and at
    /// most 64.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(arena_kit::SyncPool::default_shards() >= 2);
    /// ```
    #[must_use]
    pub fn default_shards() -> usize {
        std::thread::available_parallelism().map_or(2, |n| 2 * n.get()).clamp(2, 64)
    }
}

impl<T> SyncPool<'_, T> {
    /// Runs `f` with a new, empty pool of [`default_shards`](SyncPool::default_shards)
    /// shards and a brand of its own; nothing that mentions the brand can leave `f`.
    ///
    /// # Examples
    ///
    /// ```
    /// let n = arena_kit::SyncPool::with(|pool| {
    ///     let h = pool.insert(5);
    ///     pool.remove(h)
    /// });
    /// assert_eq!(n, 5);
    /// ```
    pub fn with<R>(f: impl for<'id> FnOnce(SyncPool<'id, T>) -> R) -> R {
        Brand::with(|brand| f(SyncPool::new_in(brand, SyncPool::default_shards())))
    }
}

impl<'id, T> SyncPool<'id, T> {
    /// A pool of `shards` shards (at least one) carrying `brand`.
    ///
    /// # Panics
    ///
    /// If `shards` is 0 or above `u32::MAX`.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Brand::with(|brand| {
    ///     let pool = arena_kit::SyncPool::<u8>::new_in(brand, 4);
    ///     assert_eq!(pool.shards(), 4);
    /// });
    /// ```
    #[must_use]
    pub fn new_in(brand: Brand<'id>, shards: usize) -> Self {
        assert!(
            shards > 0 && u32::try_from(shards).is_ok(),
            "a SyncPool needs 1..=u32::MAX shards"
        );
        let id = brand.into_id();
        let shards: Vec<Shard<'id, T>> = (0..shards)
            // Every shard carries the brand; handles are routed by their shard index, so
            // each shard only ever sees handles it made itself.
            // SAFETY: the shards' pools are private to this `SyncPool`, and every
            // `SyncHandle` carries the index of the shard that made it and is routed
            // there, so no handle reaches a shard other than its own.
            .map(|_| Shard(SpinLock::new(Pool::new_in(unsafe { Brand::from_id(id) }))))
            .collect();
        SyncPool { shards: shards.into_boxed_slice(), brand: id }
    }

    /// Number of shards.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::<u8>::with(|pool| assert!(pool.shards() >= 2));
    /// ```
    #[must_use]
    pub fn shards(&self) -> usize {
        self.shards.len()
    }

    /// The calling thread's shard.
    /// Locks shard `index`; panics instead of waiting if this thread already holds that
    /// lock (a `with_value` closure calling back into its shard).
    #[inline]
    #[track_caller]
    fn lock_shard(&self, index: u32) -> SpinGuard<'_, Pool<'id, T>> {
        Self::lock_checked(&self.shards[index as usize].0)
    }

    /// [`lock_shard`](Self::lock_shard) for a shard in hand.
    #[inline]
    #[track_caller]
    fn lock_checked<'a>(shard: &'a SpinLock<Pool<'id, T>>) -> SpinGuard<'a, Pool<'id, T>> {
        match shard.try_lock() {
            Some(guard) => guard,
            None => Self::lock_contended(shard),
        }
    }

    #[cold]
    #[inline(never)]
    #[track_caller]
    fn lock_contended<'a>(shard: &'a SpinLock<Pool<'id, T>>) -> SpinGuard<'a, Pool<'id, T>> {
        assert!(
            !held_here(core::ptr::from_ref(shard).addr()),
            "arena-kit: a closure given to SyncPool::with_value, with_value_mut, with_key, \
             with_key_mut or retain called back into the same shard of the pool (insert, \
             remove, access, len), or so did a call while this thread held a SyncRef or \
             SyncRefMut of that shard: it would wait for its own lock forever"
        );
        shard.lock()
    }

    /// Runs `f` with shard `index` marked as held by this thread (unmarked on unwind too).
    fn while_held<R>(&self, index: u32, f: impl FnOnce() -> R) -> R {
        let _held = self.mark_held(index);
        f()
    }

    /// Marks shard `index` as held by this thread until the mark drops.
    fn mark_held(&self, index: u32) -> Held {
        Held::mark(core::ptr::from_ref(&self.shards[index as usize].0).addr())
    }

    #[inline]
    #[expect(clippy::cast_possible_truncation, reason = "below the shard count, a u32")]
    fn home(&self) -> u32 {
        home_shard(self.shards.len()) as u32
    }

    /// Inserts `value` into the calling thread's shard.
    ///
    /// # Panics
    ///
    /// If the shard's slot count would exceed `u32::MAX - 1` (see
    /// [`try_insert`](Self::try_insert)).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let h = pool.insert([1_u8; 64]);
    ///     assert_eq!(pool.with_value(&h, |v| v[63]), 1);
    ///     pool.remove(h);
    /// });
    /// ```
    #[inline]
    pub fn insert(&self, value: T) -> SyncHandle<'id> {
        let shard = self.home();
        let handle = self.lock_shard(shard).insert(value);
        SyncHandle { handle, shard }
    }

    /// Inserts `value`, or hands it back if the shard is full.
    ///
    /// # Errors
    ///
    /// The shard has `u32::MAX - 1` slots already.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let h = pool.try_insert('x').unwrap();
    ///     assert_eq!(pool.remove(h), 'x');
    /// });
    /// ```
    pub fn try_insert(&self, value: T) -> Result<SyncHandle<'id>, TryAllocError<T>> {
        let shard = self.home();
        let handle = self.lock_shard(shard).try_insert(value)?;
        Ok(SyncHandle { handle, shard })
    }

    /// Removes a handle's value (from any thread) and returns it.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let h = pool.insert(String::from("v"));
    ///     assert_eq!(pool.remove(h), "v");
    ///     assert!(pool.is_empty());
    /// });
    /// ```
    #[inline]
    #[expect(clippy::must_use_candidate, reason = "removing only to drop the value is common")]
    pub fn remove(&self, handle: SyncHandle<'id>) -> T {
        self.lock_shard(handle.shard).remove(handle.handle)
    }

    /// Runs `f` on a handle's value under its shard's lock.
    ///
    /// # Panics
    ///
    /// If `f` calls back into the handle's shard of this pool (see the type's docs):
    /// such a call panics instead of waiting forever for its own lock. Other shards and
    /// other pools are fine.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let h = pool.insert(vec![1, 2, 3]);
    ///     assert_eq!(pool.with_value(&h, |v| v.len()), 3);
    ///     pool.remove(h);
    /// });
    /// ```
    pub fn with_value<R>(&self, handle: &SyncHandle<'id>, f: impl FnOnce(&T) -> R) -> R {
        let shard = self.lock_shard(handle.shard);
        self.while_held(handle.shard, || f(shard.get(&handle.handle)))
    }

    /// Runs `f` on a handle's value, mutably, under its shard's lock.
    ///
    /// # Panics
    ///
    /// As [`with_value`](Self::with_value).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let h = pool.insert(1);
    ///     pool.with_value_mut(&h, |v| *v += 1);
    ///     assert_eq!(pool.remove(h), 2);
    /// });
    /// ```
    pub fn with_value_mut<R>(&self, handle: &SyncHandle<'id>, f: impl FnOnce(&mut T) -> R) -> R {
        let mut shard = self.lock_shard(handle.shard);
        self.while_held(handle.shard, || f(shard.get_mut(&handle.handle)))
    }

    /// A handle's value, borrowed under its shard's lock until the guard drops: what
    /// [`with_value`](Self::with_value) gives a closure, for code that reads better
    /// without one (as `Mutex::lock`). The handle stays borrowed, so the value cannot be
    /// removed meanwhile.
    ///
    /// # Panics
    ///
    /// If this thread already holds the handle's shard (inside a closure of this pool on
    /// that shard, or while another guard of it lives): instead of waiting forever.
    /// While the guard lives, the same goes for any call on that shard from this thread.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let h = pool.insert(vec![1, 2, 3]);
    ///     assert_eq!(pool.get(&h).len(), 3);
    ///     let first = pool.get(&h)[0];
    ///     assert_eq!(first, 1);
    ///     pool.remove(h);
    /// });
    /// ```
    #[track_caller]
    pub fn get<'a>(&'a self, handle: &'a SyncHandle<'id>) -> SyncRef<'a, 'id, T> {
        let shard = self.lock_shard(handle.shard);
        SyncRef::new(self.mark_held(handle.shard), shard, At::Handle(&handle.handle))
    }

    /// A handle's value, borrowed mutably under its shard's lock until the guard drops.
    ///
    /// # Panics
    ///
    /// As [`get`](Self::get).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let h = pool.insert(String::from("a"));
    ///     pool.get_mut(&h).push('b');
    ///     assert_eq!(pool.remove(h), "ab");
    /// });
    /// ```
    #[track_caller]
    pub fn get_mut<'a>(&'a self, handle: &'a SyncHandle<'id>) -> SyncRefMut<'a, 'id, T> {
        let shard = self.lock_shard(handle.shard);
        SyncRefMut::new(self.mark_held(handle.shard), shard, At::Handle(&handle.handle))
    }

    /// `key`'s value, borrowed under its shard's lock until the guard drops; `None` if the
    /// key is stale (no lock is kept then).
    ///
    /// # Panics
    ///
    /// As [`get`](Self::get).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let k = pool.insert_keyed(String::from("v"));
    ///     assert_eq!(pool.get_by_key(k).as_deref().map(String::as_str), Some("v"));
    ///     pool.remove_key(k);
    ///     assert!(pool.get_by_key(k).is_none());
    /// });
    /// ```
    #[must_use]
    #[track_caller]
    pub fn get_by_key(&self, key: SyncKey<'id>) -> Option<SyncRef<'_, 'id, T>> {
        let (held, shard) = self.lock_live(key)?;
        Some(SyncRef::new(held, shard, At::Key(key.key)))
    }

    /// `key`'s value, borrowed mutably under its shard's lock until the guard drops;
    /// `None` if the key is stale.
    ///
    /// # Panics
    ///
    /// As [`get`](Self::get).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let k = pool.insert_keyed(1);
    ///     if let Some(mut v) = pool.get_by_key_mut(k) {
    ///         *v += 1;
    ///     }
    ///     assert_eq!(pool.get_key(k), Some(2));
    /// });
    /// ```
    #[must_use]
    #[track_caller]
    pub fn get_by_key_mut(&self, key: SyncKey<'id>) -> Option<SyncRefMut<'_, 'id, T>> {
        let (held, shard) = self.lock_live(key)?;
        Some(SyncRefMut::new(held, shard, At::Key(key.key)))
    }

    /// `key`'s shard, locked and marked as held by this thread, if `key` names a value
    /// there; `None` (and no lock kept) if it is stale.
    #[track_caller]
    fn lock_live(&self, key: SyncKey<'id>) -> Option<(Held, SpinGuard<'_, Pool<'id, T>>)> {
        let shard = self.lock_shard(key.shard);
        shard.get_key(key.key)?;
        Some((self.mark_held(key.shard), shard))
    }

    /// Makes room for `additional` more values in the calling thread's shard, so that
    /// the thread's next inserts do not grow it (a thread about to fill a table).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     pool.reserve(1000);
    ///     let h = pool.insert(1_u64);
    ///     assert_eq!(pool.remove(h), 1);
    /// });
    /// ```
    pub fn reserve(&self, additional: usize) {
        self.lock_shard(self.home()).reserve(additional);
    }

    /// Values in the pool now (each shard counted under its lock; other threads may be
    /// changing it meanwhile).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let _kept = pool.insert(1);
    ///     assert_eq!(pool.len(), 1);
    /// });
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.shards.iter().map(|s| Self::lock_checked(&s.0).len()).sum()
    }

    // ----- keys ------------------------------------------------------------------------

    /// Inserts `value` (into this thread's shard) and returns a copyable key to it (no
    /// owner: any copy of the key may remove it).
    ///
    /// # Panics
    ///
    /// As [`insert`](Self::insert).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let k = pool.insert_keyed(5);
    ///     assert_eq!(pool.get_key(k), Some(5));
    /// });
    /// ```
    #[track_caller]
    pub fn insert_keyed(&self, value: T) -> SyncKey<'id> {
        let shard = self.home();
        let key = self.lock_shard(shard).insert_keyed(value);
        SyncKey { shard, key }
    }

    /// A copyable key to a handle's value (the handle keeps owning it).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let h = pool.insert(1);
    ///     let k = pool.key(&h);
    ///     assert_eq!(pool.remove_key(k), None); // owned: only the handle removes it
    ///     assert_eq!(pool.remove(h), 1);
    /// });
    /// ```
    #[must_use]
    pub fn key(&self, handle: &SyncHandle<'id>) -> SyncKey<'id> {
        SyncKey { shard: handle.shard, key: self.lock_shard(handle.shard).key(&handle.handle) }
    }

    /// Gives up a handle's ownership; any copy of the key may now remove the value.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let h = pool.insert('h');
    ///     let k = pool.into_key(h);
    ///     assert_eq!(pool.remove_key(k), Some('h'));
    /// });
    /// ```
    #[must_use = "a key or handle not kept leaves the value unreachable but for drain"]
    pub fn into_key(&self, handle: SyncHandle<'id>) -> SyncKey<'id> {
        let SyncHandle { handle, shard } = handle;
        SyncKey { shard, key: self.lock_shard(shard).into_key(handle) }
    }

    /// Takes ownership of a keyed value, if the key is live and not yet owned.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let k = pool.insert_keyed(2);
    ///     let h = pool.take_handle(k).unwrap();
    ///     assert!(pool.take_handle(k).is_none());
    ///     assert_eq!(pool.remove(h), 2);
    /// });
    /// ```
    #[must_use = "a key or handle not kept leaves the value unreachable but for drain"]
    pub fn take_handle(&self, key: SyncKey<'id>) -> Option<SyncHandle<'id>> {
        let handle = self.lock_shard(key.shard).take_handle(key.key)?;
        Some(SyncHandle { handle, shard: key.shard })
    }

    /// A key of this pool from a `u128` ([`SyncKey::to_raw`]), parsed: safe for any
    /// bits, as [`Pool::key_from_raw`] is. A word whose shard this pool does not have,
    /// or with bits set above bit 96, becomes a key that names no value.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let k = pool.insert_keyed(7);
    ///     let cookie = k.to_raw();
    ///     assert_eq!(pool.get_key(pool.key_from_raw(cookie)), Some(7));
    ///     assert_eq!(pool.get_key(pool.key_from_raw(u128::MAX)), None);
    /// });
    /// ```
    #[must_use]
    pub fn key_from_raw(&self, raw: u128) -> SyncKey<'id> {
        #[expect(clippy::cast_possible_truncation, reason = "the fields of the u128")]
        let (shard, key) = ((raw >> 64) as u32, raw as u64);
        if raw >> 96 != 0 || shard as usize >= self.shards.len() {
            // Shard 0 exists (a pool has at least one); a key at no slot names no value.
            return SyncKey { shard: 0, key: Key::new(NO_SLOT, Version::FIRST, self.brand) };
        }
        SyncKey { shard, key: Key::from_raw_in(key, self.brand) }
    }

    /// Whether `key`'s value is in the pool now.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let k = pool.insert_keyed(());
    ///     assert!(pool.contains_key(k));
    /// });
    /// ```
    #[must_use]
    pub fn contains_key(&self, key: SyncKey<'id>) -> bool {
        self.lock_shard(key.shard).contains_key(key.key)
    }

    /// Runs `f` on `key`'s value under its shard's lock; `None` if the key is stale.
    ///
    /// # Panics
    ///
    /// If `f` calls back into the key's shard (see [`with_value`](Self::with_value)).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let k = pool.insert_keyed(vec![1, 2]);
    ///     assert_eq!(pool.with_key(k, |v| v.len()), Some(2));
    /// });
    /// ```
    pub fn with_key<R>(&self, key: SyncKey<'id>, f: impl FnOnce(&T) -> R) -> Option<R> {
        let shard = self.lock_shard(key.shard);
        let value = shard.get_key(key.key)?;
        Some(self.while_held(key.shard, || f(value)))
    }

    /// Runs `f` on `key`'s value, mutably, under its shard's lock; `None` if the key is
    /// stale.
    ///
    /// # Panics
    ///
    /// As [`with_key`](Self::with_key).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let k = pool.insert_keyed(1);
    ///     pool.with_key_mut(k, |v| *v += 1);
    ///     assert_eq!(pool.get_key(k), Some(2));
    /// });
    /// ```
    pub fn with_key_mut<R>(&self, key: SyncKey<'id>, f: impl FnOnce(&mut T) -> R) -> Option<R> {
        let mut shard = self.lock_shard(key.shard);
        let value = shard.get_key_mut(key.key)?;
        Some(self.while_held(key.shard, || f(value)))
    }

    /// A clone of `key`'s value; `None` if the key is stale.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let k = pool.insert_keyed(String::from("v"));
    ///     assert_eq!(pool.get_key(k).as_deref(), Some("v"));
    /// });
    /// ```
    #[must_use]
    pub fn get_key(&self, key: SyncKey<'id>) -> Option<T>
    where
        T: Clone,
    {
        self.lock_shard(key.shard).get_key(key.key).cloned()
    }

    /// Removes `key`'s value: `None` if the key is stale or a handle owns it.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let k = pool.insert_keyed(3);
    ///     assert_eq!(pool.remove_key(k), Some(3));
    ///     assert_eq!(pool.remove_key(k), None);
    /// });
    /// ```
    #[expect(clippy::must_use_candidate, reason = "removing only to drop the value is common")]
    pub fn remove_key(&self, key: SyncKey<'id>) -> Option<T> {
        self.lock_shard(key.shard).remove_key(key.key)
    }

    /// Keeps the keyed values for which `keep` returns `true` and removes the others, one
    /// shard at a time (each under its lock); values owned by handles are not visited.
    ///
    /// # Panics
    ///
    /// If `keep` calls back into the shard it is visiting (see
    /// [`with_value`](Self::with_value)).
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     for i in 0..10 {
    ///         pool.insert_keyed(i);
    ///     }
    ///     pool.retain(|_, v| *v < 3);
    ///     assert_eq!(pool.len(), 3);
    /// });
    /// ```
    pub fn retain(&self, mut keep: impl FnMut(SyncKey<'id>, &mut T) -> bool) {
        for (i, shard) in self.shards.iter().enumerate() {
            // A shard index fits a `u32` (checked in `new_in`).
            #[expect(clippy::cast_possible_truncation, reason = "checked in `new_in`")]
            let index = i as u32;
            let mut pool = Self::lock_checked(&shard.0);
            self.while_held(index, || {
                pool.retain(|key, value| keep(SyncKey { shard: index, key }, value));
            });
        }
    }

    /// Every value with its key, with exclusive access (no lock is taken), shard by shard.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|mut pool| {
    ///     let k = pool.insert_keyed(1);
    ///     for (_, v) in pool.iter_mut() {
    ///         *v += 1;
    ///     }
    ///     assert_eq!(pool.get_key(k), Some(2));
    /// });
    /// ```
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (SyncKey<'id>, &mut T)> + '_ {
        self.shards.iter_mut().enumerate().flat_map(|(i, shard)| {
            #[expect(clippy::cast_possible_truncation, reason = "checked in `new_in`")]
            let index = i as u32;
            shard
                .0
                .get_mut()
                .iter_mut()
                .map(move |(key, value)| (SyncKey { shard: index, key }, value))
        })
    }

    /// Empties the pool, yielding every value (owned ones too). Consumes the pool: a
    /// handle still alive would otherwise name an empty slot. The way to reclaim the
    /// values of handles that were dropped without `remove`.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::with(|pool| {
    ///     let _forgotten = pool.insert(1);
    ///     pool.insert_keyed(2);
    ///     let mut all: Vec<i32> = pool.drain().collect();
    ///     all.sort();
    ///     assert_eq!(all, [1, 2]);
    /// });
    /// ```
    #[must_use = "the values are dropped with the iterator if it is not used"]
    pub fn drain(self) -> alloc::vec::IntoIter<T> {
        let mut all = Vec::new();
        for shard in self.shards {
            all.extend(shard.0.into_inner().drain());
        }
        all.into_iter()
    }

    /// Whether the pool holds no value now.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncPool::<u8>::with(|pool| assert!(pool.is_empty()));
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<T> fmt::Debug for SyncPool<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SyncPool")
            .field("shards", &self.shards.len())
            .field("len", &self.len())
            .finish()
    }
}
