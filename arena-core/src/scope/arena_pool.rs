//! [`ArenaPool`]: arenas lent to threads one at a time, whose values live as long as
//! the pool (bump-scope's `BumpPool`).
//!
//! # Design
//!
//! A parallel job (one arena per rayon task, or per thread) wants each task to allocate
//! without a lock and to send what it made back to the thread that spawned it, where
//! the values stay until the whole batch is done. A [`Scope`] cannot do that: it is
//! `!Send`, and its values borrow it, so they die with the task. This pool keeps a list
//! of idle arenas (scopes that own their blocks, exactly as [`Arena`](crate::Arena)
//! does) under a `Mutex`:
//!
//! - [`ArenaPool::get`] pops an idle arena (or makes a new one, which allocates nothing
//!   until its first value) and wraps it in a [`PooledArena`] guard; the lock is held for
//!   the pop only, and allocating through the guard is a plain bump with no lock.
//! - The guard's allocation methods return references that borrow the **pool**, not the
//!   guard (`&'a mut T` for a guard of `&'a ArenaPool`), so values outlive the guard and
//!   can be sent to another thread.
//! - Dropping the guard pushes its arena back, values and all: the next task to take it
//!   bumps on past them. Nothing is dropped or freed then.
//! - [`ArenaPool::reset`] (`&mut self`, so no value is borrowed any more) drops every value
//!   of every arena and keeps each arena's current block for the next batch; dropping the
//!   pool drops every value and frees every block.
//!
//! A guard is `Send` (it moves with its task) and `!Sync` (the arena's bump pointer is
//! unsynchronised, as for a [`Scope`]). The pool is `Send` and `Sync` by composition.
//!
//! # The lifetime `'p`
//!
//! `ArenaPool<'p>` is invariant in `'p`, and it has a `Drop` impl, so `'p` outlives the
//! pool: values with drop glue must satisfy `T: 'p`, which (as for [`Scope`]) lets them
//! borrow data older than the pool but never each other, because a reference to a sibling
//! is a borrow of the pool, which cannot last until the pool's own drop. `Copy` values
//! have no destructor and may borrow siblings freely
//! ([`alloc_copy`](PooledArena::alloc_copy)).
//!
//! # Invariants
//!
//! - **(AP1) Only `Send` values with destructors.** Every value with drop glue in a
//!   pooled arena was allocated through a [`PooledArena`] method that requires
//!   `T: Send`. No `on_exit` callback, child scope, collection or allocator access to the
//!   raw scope is exposed (the guard does not deref to [`Scope`]). So running an arena's
//!   destructors on another thread, or moving the arena's state (pointers to blocks it
//!   owns, counters) to another thread, is what moving those values would be: sound,
//!   since they are `Send`. Values without drop glue are never touched by the arena again
//!   (no destructor), so they need no bound.
//! - **(AP2) Memory outlives the pool borrow.** The bytes of a value allocated through a
//!   guard of `&'a ArenaPool` are freed or reused only by [`ArenaPool::reset`]
//!   (`&mut self`) or the pool's drop, both of which need the borrow `'a` to have ended.
//!   Dropping a guard frees nothing; a forgotten guard (`mem::forget`) leaks its arena,
//!   never frees it; an arena given back and taken by another guard, on any thread, only
//!   bumps forward past the values already in it (a scope never hands out a byte twice
//!   before it is reset, its S3). So a reference may live for `'a`, longer than the guard.
//! - The idle arenas are the `Vec` under the mutex: an arena is there or in exactly one
//!   guard (or leaked with a forgotten one), never both, so no two threads bump in one
//!   arena; the mutex orders one guard's last write before the next guard's first.

use core::fmt;
use core::mem;
use core::ptr;

use crate::error::TryAllocError;
use crate::scope::{Scope, ScopeStats};
use crate::sync::{Mutex, lock, lock_get_mut};

/// A scope owning its blocks that may move between threads (AP1).
struct SendScope<'p>(Scope<'p>);

// Every value with drop glue in the scope came through a `PooledArena` method requiring
// `T: Send`; no callback, child scope or raw access is exposed; the rest of its state is
// owned blocks (`Send`) and counters. `Sync` is not claimed: its `Cell`s keep it `!Sync`.
// SAFETY: AP1: so moving the scope to another thread is exactly moving `Send` values.
unsafe impl Send for SendScope<'_> {}

impl SendScope<'_> {
    /// A fresh scope on the system allocator: allocates nothing yet.
    fn new() -> Self {
        SendScope(Scope::from_system())
    }
}

/// What the mutex guards: the idle arenas and how many arenas the pool has made.
struct Idle<'p> {
    scopes: Vec<SendScope<'p>>,
    made: usize,
}

/// A pool of arenas, one lent to each parallel task, whose values live as long as the
/// pool: bump-scope's `BumpPool`.
///
/// [`get`](Self::get) lends an arena as a [`PooledArena`] (no lock while allocating); the
/// references it hands out borrow the pool, so a task can send them back to the thread
/// that spawned it. Dropping the guard returns the arena with its values to the pool;
/// the values stay until [`reset`](Self::reset) or the pool's drop.
///
/// # What is freed when
///
/// - Dropping a [`PooledArena`] frees and drops nothing: its arena, values included, goes
///   back to the pool for the next task, which allocates after them.
/// - [`reset`](Self::reset) drops every value of every arena (newest first within an
///   arena), keeps each arena's current block and frees the others.
/// - Dropping the pool drops every value and frees every block.
/// - A guard that is forgotten (`mem::forget`) leaks its arena: its values are never
///   dropped and its blocks never freed, and the pool makes a new arena in its place.
///
/// Only `Send` values with destructors go in (they may be dropped on another thread, by
/// `reset` or the pool's drop); `Copy` values, strings and slices of them need no bound.
/// Each arena's blocks grow as an [`Arena`](crate::Arena)'s do, from 1 KiB to 1 MiB.
///
/// # Examples
///
/// Values made on four threads, used on the spawning thread:
///
/// ```
/// use arena_kit::ArenaPool;
///
/// let pool = ArenaPool::new();
/// let mut names: Vec<&str> = std::thread::scope(|s| {
///     let tasks: Vec<_> = (0..4)
///         .map(|t| {
///             let pool = &pool;
///             s.spawn(move || {
///                 let arena = pool.get();
///                 let name: &str = arena.alloc_str(&format!("task {t}"));
///                 name
///             })
///         })
///         .collect();
///     tasks.into_iter().map(|task| task.join().unwrap()).collect()
/// });
/// names.sort_unstable();
/// assert_eq!(names, ["task 0", "task 1", "task 2", "task 3"]);
/// assert!(pool.stats().arenas <= 4);
/// ```
///
/// A value whose destructor would run may not borrow a sibling:
///
/// ```compile_fail,E0597
/// let pool = arena_kit::ArenaPool::new();
/// let arena = pool.get();
/// let a = arena.alloc(String::from("a"));
/// let b = arena.alloc(vec![&*a]); // error: `pool` does not live long enough
/// ```
pub struct ArenaPool<'p> {
    idle: Mutex<Idle<'p>>,
}

/// A snapshot of an [`ArenaPool`]'s counters.
///
/// The byte and block counts cover the idle arenas only (those lent to guards are out of
/// the pool's reach); after [`ArenaPool::reset`], or with no guard alive, that is every
/// arena.
///
/// # Examples
///
/// ```
/// let pool = arena_kit::ArenaPool::new();
/// pool.get().alloc(7_u64);
/// let s = pool.stats();
/// assert_eq!((s.arenas, s.idle_arenas, s.allocated_bytes, s.blocks), (1, 1, 8, 1));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ArenaPoolStats {
    /// Arenas the pool has made: idle, lent to a guard, or leaked by a forgotten guard.
    pub arenas: usize,
    /// Of those, the arenas in the pool now.
    pub idle_arenas: usize,
    /// Bytes handed out by the idle arenas, alignment padding included.
    pub allocated_bytes: usize,
    /// Bytes of the blocks the idle arenas hold, headers included.
    pub reserved_bytes: usize,
    /// Blocks the idle arenas hold.
    pub blocks: usize,
}

impl<'p> ArenaPool<'p> {
    /// An empty pool: no arena and no memory until the first [`get`](Self::get).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::ArenaPool::new();
    /// assert_eq!(pool.stats().arenas, 0);
    /// ```
    #[must_use]
    pub fn new() -> Self {
        ArenaPool { idle: Mutex::new(Idle { scopes: Vec::new(), made: 0 }) }
    }

    /// Lends an arena: the one most recently given back, or a new one (which allocates
    /// nothing until its first value). Takes the pool's lock for the pop only.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::ArenaPool::new();
    /// let first = pool.get();
    /// let second = pool.get(); // the first is lent: a second arena
    /// assert_eq!(pool.stats().arenas, 2);
    /// drop((first, second));
    /// let _again = pool.get(); // an idle one is reused
    /// assert_eq!(pool.stats().arenas, 2);
    /// ```
    #[must_use]
    pub fn get(&self) -> PooledArena<'_, 'p> {
        let popped = {
            let mut idle = lock(&self.idle);
            let popped = idle.scopes.pop();
            if popped.is_none() {
                idle.made += 1;
            }
            popped
        };
        PooledArena { pool: self, scope: popped.unwrap_or_else(SendScope::new) }
    }

    /// Drops every value of every arena, keeps each arena's current block for reuse and
    /// frees the others ([`Scope::reset`] on each).
    ///
    /// Takes `&mut self`, so no value and no guard of the pool is alive.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::ArenaPool::new();
    /// for round in 0..3 {
    ///     let arena = pool.get();
    ///     let v = arena.alloc(vec![round; 10]);
    ///     assert_eq!(v[9], round);
    ///     drop(arena);
    ///     pool.reset(); // the vector is dropped here
    ///     assert_eq!(pool.stats().allocated_bytes, 0);
    /// }
    /// assert_eq!((pool.stats().arenas, pool.stats().blocks), (1, 1));
    /// ```
    pub fn reset(&mut self) {
        for scope in &mut lock_get_mut(&mut self.idle).scopes {
            scope.0.reset();
        }
    }

    /// The pool's counters now (see [`ArenaPoolStats`] for what the byte counts cover).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::ArenaPool::new();
    /// let arena = pool.get();
    /// arena.alloc_str("abc");
    /// assert_eq!((pool.stats().arenas, pool.stats().idle_arenas), (1, 0));
    /// drop(arena);
    /// assert_eq!(pool.stats().allocated_bytes, 3);
    /// ```
    #[must_use]
    pub fn stats(&self) -> ArenaPoolStats {
        let idle = lock(&self.idle);
        let mut stats = ArenaPoolStats {
            arenas: idle.made,
            idle_arenas: idle.scopes.len(),
            allocated_bytes: 0,
            reserved_bytes: 0,
            blocks: 0,
        };
        for scope in &idle.scopes {
            let s = scope.0.stats();
            stats.allocated_bytes += s.allocated_bytes;
            stats.reserved_bytes += s.reserved_bytes;
            stats.blocks += s.blocks;
        }
        stats
    }
}

impl Default for ArenaPool<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for ArenaPool<'_> {
    /// Drops every idle arena: its values, newest first, then its blocks. (Arenas of
    /// forgotten guards are not here: they leak.)
    fn drop(&mut self) {
        // Explicit so that dropck requires `'p` alive here (see the module docs).
        lock_get_mut(&mut self.idle).scopes.clear();
    }
}

impl fmt::Debug for ArenaPool<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ArenaPool").field("stats", &self.stats()).finish()
    }
}

/// An arena lent by an [`ArenaPool`]; it goes back to the pool, values and all, when the
/// guard drops.
///
/// The allocation methods return references that borrow the pool (`'a`), not the guard:
/// a value outlives the guard and may be sent to another thread (if its type allows). The
/// guard is `Send`, so it can move with a task, and `!Sync`: one thread allocates in an
/// arena at a time.
///
/// It offers the [`Scope`] methods that keep the arena movable between threads (values
/// with destructors must be `Send`) and nothing that would not (no `on_exit`, no child
/// scopes, no collections, no `Deref` to [`Scope`]).
///
/// # Examples
///
/// ```
/// let pool = arena_kit::ArenaPool::new();
/// let kept: &mut Vec<u32> = {
///     let arena = pool.get();
///     arena.alloc(vec![1, 2, 3])
/// }; // the guard is gone, the vector lives on in the pool
/// kept.push(4);
/// assert_eq!(*kept, [1, 2, 3, 4]);
/// ```
///
/// A guard cannot be shared between threads:
///
/// ```compile_fail,E0277
/// let pool = arena_kit::ArenaPool::new();
/// let arena = pool.get();
/// std::thread::scope(|s| {
///     s.spawn(|| arena.alloc(1_u8));
/// });
/// ```
pub struct PooledArena<'a, 'p> {
    pool: &'a ArenaPool<'p>,
    scope: SendScope<'p>,
}

impl<'a, 'p> PooledArena<'a, 'p> {
    /// Lengthens a reference into this guard's arena from the guard's borrow to the
    /// pool's.
    ///
    /// # Safety
    ///
    /// `value` was just allocated in the arena of a guard of `&'a ArenaPool<'p>` (so AP2
    /// applies to its bytes) by a method that respects AP1.
    #[inline]
    unsafe fn extend<T: ?Sized>(value: &mut T) -> &'a mut T {
        // The bytes are freed or reused only by `ArenaPool::reset(&mut self)` or the pool's
        // drop, which need the borrow `'a` to have ended; giving the arena back only bumps
        // past them, forgetting the guard leaks them; `value` was just allocated, unique.
        // SAFETY: AP2: so the bytes stay valid, and unaliased, for `'a`.
        unsafe { &mut *ptr::from_mut(value) }
    }

    /// Moves `value` into the arena; it is dropped by [`ArenaPool::reset`] or the pool's
    /// drop, on whichever thread calls them (so `T: Send`).
    ///
    /// # Panics
    ///
    /// If the system allocator refuses a block (through `handle_alloc_error`), or `T` is
    /// too large for a layout with the block header.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::ArenaPool::new();
    /// let name = pool.get().alloc(String::from("outlives its guard"));
    /// assert_eq!(name.len(), 18);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc<T: Send + 'p>(&self, value: T) -> &'a mut T {
        let value = self.scope.0.alloc(value);
        // SAFETY: AP1 (`T: Send`) and AP2: just allocated in this guard's arena.
        unsafe { Self::extend(value) }
    }

    /// Like [`alloc`](Self::alloc), but hands `value` back if there is no room.
    ///
    /// # Errors
    ///
    /// [`AllocError::LayoutTooLarge`](crate::AllocError::LayoutTooLarge) or
    /// [`AllocError::OutOfMemory`](crate::AllocError::OutOfMemory), with `value` inside
    /// the [`TryAllocError`].
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::ArenaPool::new();
    /// let n = pool.get().try_alloc(5_u8).unwrap();
    /// assert_eq!(*n, 5);
    /// ```
    #[inline]
    pub fn try_alloc<T: Send + 'p>(&self, value: T) -> Result<&'a mut T, TryAllocError<T>> {
        let value = self.scope.0.try_alloc(value)?;
        // SAFETY: AP1 (`T: Send`) and AP2: just allocated in this guard's arena.
        Ok(unsafe { Self::extend(value) })
    }

    /// Builds the value in place: reserves room, then calls `f` and writes its result
    /// there ([`Scope::alloc_with`]).
    ///
    /// # Panics
    ///
    /// If `f` panics (nothing is registered; the arena stays usable), or as
    /// [`alloc`](Self::alloc).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::ArenaPool::new();
    /// let table = pool.get().alloc_with(|| [7_u64; 512]);
    /// assert_eq!(table[511], 7);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_with<T: Send + 'p, F: FnOnce() -> T>(&self, f: F) -> &'a mut T {
        let value = self.scope.0.alloc_with(f);
        // SAFETY: AP1 (`T: Send`) and AP2: just allocated in this guard's arena.
        unsafe { Self::extend(value) }
    }

    /// Moves a `Copy` value into the arena. `Copy` values have no destructor, so they
    /// need not be `Send` and may borrow each other (linked structures of
    /// `&'a Node<'a>`).
    ///
    /// # Panics
    ///
    /// As [`alloc`](Self::alloc).
    ///
    /// # Examples
    ///
    /// ```
    /// #[derive(Clone, Copy)]
    /// struct Node<'a> { value: i32, next: Option<&'a Node<'a>> }
    ///
    /// let pool = arena_kit::ArenaPool::new();
    /// let arena = pool.get();
    /// let tail = arena.alloc_copy(Node { value: 2, next: None });
    /// let head = arena.alloc_copy(Node { value: 1, next: Some(tail) });
    /// drop(arena);
    /// assert_eq!(head.next.unwrap().value, 2);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_copy<T: Copy>(&self, value: T) -> &'a mut T {
        let value = self.scope.0.alloc_copy(value);
        // SAFETY: AP1 (no drop glue) and AP2: just allocated in this guard's arena.
        unsafe { Self::extend(value) }
    }

    /// Copies a string into the arena.
    ///
    /// # Panics
    ///
    /// As [`alloc`](Self::alloc).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::ArenaPool::new();
    /// let s = pool.get().alloc_str("arena");
    /// s.make_ascii_uppercase();
    /// assert_eq!(s, "ARENA");
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_str(&self, s: &str) -> &'a mut str {
        let s = self.scope.0.alloc_str(s);
        // SAFETY: AP1 (no drop glue) and AP2: just allocated in this guard's arena.
        unsafe { Self::extend(s) }
    }

    /// Copies a slice into the arena.
    ///
    /// # Panics
    ///
    /// If the size overflows, or as [`alloc`](Self::alloc).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::ArenaPool::new();
    /// let xs = pool.get().alloc_slice_copy(&[1, 2, 3]);
    /// assert_eq!(xs, [1, 2, 3]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_slice_copy<T: Copy>(&self, src: &[T]) -> &'a mut [T] {
        let slice = self.scope.0.alloc_slice_copy(src);
        // SAFETY: AP1 (no drop glue) and AP2: just allocated in this guard's arena.
        unsafe { Self::extend(slice) }
    }

    /// A slice of `len` values, the `i`-th built by `f(i)`. If `f` panics, the values
    /// built so far are dropped and the arena stays usable.
    ///
    /// # Panics
    ///
    /// If the size overflows, `f` panics, or as [`alloc`](Self::alloc).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::ArenaPool::new();
    /// let words = pool.get().alloc_slice_fill_with(3, |i| "ab".repeat(i));
    /// assert_eq!(words, ["", "ab", "abab"]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_slice_fill_with<T: Send + 'p, F: FnMut(usize) -> T>(
        &self,
        len: usize,
        f: F,
    ) -> &'a mut [T] {
        let slice = self.scope.0.alloc_slice_fill_with(len, f);
        // SAFETY: AP1 (`T: Send`) and AP2: just allocated in this guard's arena.
        unsafe { Self::extend(slice) }
    }

    /// Collects an iterator into a slice in the arena ([`Scope::alloc_from_iter`]:
    /// straight in when the length is known, through a temporary `Vec` otherwise).
    ///
    /// # Panics
    ///
    /// If the iterator panics (the values taken so far are dropped), or as
    /// [`alloc`](Self::alloc).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::ArenaPool::new();
    /// let evens = pool.get().alloc_from_iter((0..10).filter(|n| n % 2 == 0));
    /// assert_eq!(evens, [0, 2, 4, 6, 8]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_from_iter<T: Send + 'p, I: IntoIterator<Item = T>>(&self, iter: I) -> &'a mut [T] {
        let slice = self.scope.0.alloc_from_iter(iter);
        // SAFETY: AP1 (`T: Send`) and AP2: just allocated in this guard's arena.
        unsafe { Self::extend(slice) }
    }

    /// The lent arena's counters now: what earlier tasks left in it counts too.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::ArenaPool::new();
    /// pool.get().alloc(0_u32);
    /// let arena = pool.get(); // the same arena, with the `u32` still in it
    /// assert_eq!(arena.stats().allocated_bytes, 4);
    /// ```
    #[must_use]
    pub fn stats(&self) -> ScopeStats {
        self.scope.0.stats()
    }
}

impl Drop for PooledArena<'_, '_> {
    /// Gives the arena back to the pool, its values still alive.
    fn drop(&mut self) {
        // An empty system scope takes the arena's place: making one allocates nothing.
        let scope = mem::replace(&mut self.scope, SendScope::new());
        lock(&self.pool.idle).scopes.push(scope);
    }
}

impl fmt::Debug for PooledArena<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PooledArena").field("stats", &self.stats()).finish()
    }
}
