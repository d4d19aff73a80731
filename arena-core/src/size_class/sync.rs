//! [`SyncSizeClassPool`]: the size-class pool for many threads: a [`SizeClassPool`] behind
//! one `Mutex`, with a cache of chunks per thread in front of it so that the fast path
//! takes no lock.
//!
//! The classic locked pools (`boost::pool` and ACE's allocators with a lock) put one lock
//! around every call: on one thread that costs two lock/unlock pairs per
//! free-and-allocate, and two threads take turns (BENCHMARKS.md measures a `Mutex` around
//! a slab per size class: slower on two threads than on one). Here, as in tcmalloc's
//! thread caches:
//!
//! - Each thread has, per class, a list of free chunks (`ThreadCache`, found through
//!   per-object thread-local storage, `sync/per_thread.rs`). `allocate` pops from it and
//!   `deallocate` pushes onto it: no lock, no atomic read-modify-write.
//! - A thread that is exiting (its thread-local storage torn down, as when a value is
//!   dropped in a `thread_local!` destructor) has no cache any more: its calls take the
//!   lock and go straight to the classes, so they work, and never panic. So does a
//!   thread whose cache cannot be allocated (out of memory): `allocate` still returns an
//!   error rather than aborting, and a batch the depot has no room for goes back to its
//!   class, so `deallocate` never needs memory.
//! - Between the caches and the classes sits a depot of full batches (Bonwick's
//!   magazines): a list that reaches twice [`CACHE_BATCH`] unlinks a batch of
//!   [`CACHE_BATCH`] chunks (outside the lock) and pushes it on its class's depot stack; an
//!   empty list pops a whole batch. Both hold the lock for one `Vec` push or pop, never
//!   for a walk over cold chunks (a first version that moved chunks one by one under the
//!   lock ran two threads slower than one). Only when the depot is empty are chunks
//!   carved (or taken from the class free lists) under the lock.
//! - A chunk may be freed on another thread than the one that allocated it: it joins the
//!   freeing thread's cache and travels on through the depot.
//! - Zero sizes, sizes above 1024 bytes and alignments above 16 bypass the caches.
//!
//! # Why it is sound (the invariants)
//!
//! - **(Y1) A chunk is in exactly one place**: a caller's hands, one thread's cache list
//!   or a depot batch of its class, or the shared pool (its free list or uncarved range).
//!   A cache list is touched only by the thread that holds it (`PerThread::with` hands
//!   each thread its own) or through `&mut self`; depot batches only under the lock. A
//!   listed chunk's first word links the next.
//! - **(Y2) Cached chunks count as live** in the shared pool, so no class that has such a
//!   chunk ever gives its block back: cached chunks never dangle while the pool lives;
//!   when the pool drops, the caches are dropped without touching their chunks.
//! - `Sync` follows from `Mutex<Shared>` and `PerThread<ThreadCache>` (`Sync` for any
//!   `Send` value; `ThreadCache` is `Send`: a `ChunkStack` owns its chunks).
//! - What this costs: up to `2 * CACHE_BATCH` chunks per class per thread are idle in a
//!   cache, and [`SyncSizeClassPool::trim`] cannot reach other threads' caches (each
//!   thread can [`flush`](SyncSizeClassPool::flush) its own); it does empty the depot.
//!
//! # Debug checks
//!
//! As [`SizeClassPool`]'s (its module docs, "Debug checks"), wherever a free chunk waits
//! where `deallocate` can look: a double free of a chunk in the shared classes or in the
//! depot (the classes' bits, which mark a depot chunk free while it is stocked: set as a
//! batch goes in and cleared as it comes out, under the lock those moves take anyway),
//! at any depth, or in the calling thread's cache (a walk of its at most
//! `2 * CACHE_BATCH` chunks) panics. A chunk in *another* thread's cache is out of
//! reach: that list is the other thread's, touched without the lock, so a double free of
//! it goes unseen. Debug builds take the lock in `deallocate` for these checks and walk
//! each batch that enters or leaves the depot; marking allocates nothing. Release builds
//! have neither the bits nor the code.

use core::alloc::Layout;
use core::cell::Cell;
use core::fmt;
use core::ptr::NonNull;

#[cfg(feature = "allocator-api2")]
use allocator_api2::alloc::{AllocError as ApiAllocError, Allocator};

use crate::error::AllocError;
use crate::size_class::chunk_stack::ChunkStack;
use crate::size_class::pool::{self as size_class, CLASSES, SizeClassPool, SizeClassStats};
use crate::sync::per_thread::PerThread;
use crate::sync::{Mutex, lock};

/// Chunks a thread's cache takes from (or gives back to) the shared pool at once.
///
/// A tuning value, exported for tests and benchmarks that size against it: not a promise,
/// it may change in any release.
pub const CACHE_BATCH: usize = 32;

/// One class of a thread's cache: its free chunks (Y1; a `ChunkStack`'s K1) and how many.
#[derive(Default)]
struct CachedClass {
    chunks: ChunkStack,
    count: Cell<usize>,
}

impl CachedClass {
    /// Pushes a free chunk.
    ///
    /// # Safety
    ///
    /// `chunk` is a chunk of this class that nobody uses and that is in no list (Y1).
    #[inline]
    unsafe fn push(&self, chunk: NonNull<u8>) {
        // SAFETY: forwarded: a free chunk of the class, 16-aligned and at least 16 bytes.
        unsafe { self.chunks.push(chunk) };
        self.count.set(self.count.get() + 1);
    }

    /// Pops a free chunk of this class, if any.
    #[inline]
    fn pop(&self) -> Option<NonNull<u8>> {
        let chunk = self.chunks.pop()?;
        self.count.set(self.count.get() - 1);
        Some(chunk)
    }

    /// Unlinks up to `count` chunks from the top as a batch.
    fn detach(&self, count: usize) -> Option<Batch> {
        let (chunks, taken) = self.chunks.split_top(count);
        self.count.set(self.count.get() - taken);
        (taken > 0).then_some(Batch { chunks, count: taken })
    }

    /// Takes `batch` as the whole list.
    ///
    /// # Safety
    ///
    /// `batch` holds free chunks of this list's class (`pop` hands them out as such):
    /// one `detach` made, from a list of the same class.
    unsafe fn attach(&self, batch: Batch) {
        let before = self.chunks.replace(batch.chunks);
        debug_assert!(before.is_empty(), "attach to an empty list only");
        self.count.set(batch.count);
    }
}

/// Free chunks of one class detached from a cache list, and how many.
struct Batch {
    chunks: ChunkStack,
    count: usize,
}

/// What the lock guards: the classes, and the depot of full batches per class.
struct Shared {
    pool: SizeClassPool,
    depot: [Vec<Batch>; CLASSES],
}

impl Shared {
    /// Takes the newest batch of class `index` out of the depot.
    fn unstock(&mut self, index: usize) -> Option<Batch> {
        let batch = self.depot[index].pop()?;
        #[cfg(debug_assertions)]
        batch.chunks.for_each(|chunk| self.pool.mark_parked(index, chunk, false));
        Some(batch)
    }

    /// Gives every chunk of every depot batch back to the classes.
    fn drain_depot(&mut self) {
        for index in 0..CLASSES {
            while let Some(batch) = self.unstock(index) {
                // SAFETY: Y1: `depot[index]` holds batches of class `index` only.
                unsafe { self.release(index, batch) };
            }
        }
    }

    /// Puts a batch on its class's depot stack, or, if the stack cannot grow (out of
    /// memory), gives its chunks back to the class instead: a free never fails.
    ///
    /// # Safety
    ///
    /// `batch` holds free chunks of class `index` of this pool (Y1).
    unsafe fn stock(&mut self, index: usize, batch: Batch) {
        if self.depot[index].try_reserve(1).is_ok() {
            #[cfg(debug_assertions)]
            batch.chunks.for_each(|chunk| self.pool.mark_parked(index, chunk, true));
            self.depot[index].push(batch);
        } else {
            // SAFETY: forwarded from the caller.
            unsafe { self.release(index, batch) };
        }
    }

    /// Gives every chunk of a batch back to its class.
    ///
    /// # Safety
    ///
    /// As [`stock`](Self::stock).
    unsafe fn release(&mut self, index: usize, batch: Batch) {
        let layout = size_class::class_layout(index);
        let Batch { chunks, .. } = batch;
        while let Some(chunk) = chunks.pop() {
            // SAFETY: Y1, Y2: a batch chunk is a live chunk of class `index` of this pool
            // (allocated with its class layout), unused, in no list now (caller).
            unsafe { self.pool.deallocate(chunk, layout) };
        }
    }
}

/// A thread's free chunks, per class.
#[repr(align(128))]
struct ThreadCache {
    classes: [CachedClass; CLASSES],
}

impl ThreadCache {
    fn new() -> Self {
        ThreadCache {
            classes: [const { CachedClass { chunks: ChunkStack::new(), count: Cell::new(0) } };
                CLASSES],
        }
    }
}

/// The size-class pool for many threads: [`SizeClassPool`]'s classes behind one lock,
/// with a per-thread cache of chunks in front.
///
/// `allocate` and `deallocate` pop and push the calling thread's per-class list: no lock,
/// no atomic read-modify-write. A list that runs empty takes a batch of [`CACHE_BATCH`]
/// chunks from a depot of full batches (one `Vec` pop under the lock), and one that
/// reaches twice that gives a batch back; only an empty depot carves chunks under the
/// lock. Chunks may be freed on any thread. Chunks in caches and in the depot count as
/// live in [`stats`](Self::stats); [`flush`](Self::flush) gives the calling thread's back,
/// [`trim`](Self::trim) empties the depot. On one thread it costs a little more than the
/// unlocked [`SizeClassPool`] (a per-thread lookup per call); threads do not take turns.
/// BENCHMARKS.md has the figures.
///
/// # Examples
///
/// ```
/// use core::alloc::Layout;
/// use arena_kit::SyncSizeClassPool;
///
/// let pool = SyncSizeClassPool::new();
/// std::thread::scope(|s| {
///     for _ in 0..2 {
///         let pool = &pool;
///         s.spawn(move || {
///             let layout = Layout::new::<[u32; 100]>();
///             let chunk = pool.allocate(layout).unwrap();
///             // SAFETY: `chunk` came from this pool with this layout, not used again.
///             unsafe { pool.deallocate(chunk, layout) };
///         });
///     }
/// });
/// ```
///
/// With the `allocator-api2` feature, `&SyncSizeClassPool` is an allocator, on every
/// thread at once:
///
/// ```
/// # #[cfg(feature = "allocator-api2")] {
/// use arena_kit::SyncSizeClassPool;
/// use arena_kit::allocator_api2::vec::Vec;
///
/// let pool = SyncSizeClassPool::new();
/// std::thread::scope(|s| {
///     for t in 0..2_u32 {
///         let pool = &pool;
///         s.spawn(move || {
///             let mut v: Vec<u32, &SyncSizeClassPool> = Vec::new_in(pool);
///             v.extend(t * 100..t * 100 + 100);
///             assert_eq!(v.len(), 100);
///         });
///     }
/// });
/// # }
/// ```
pub struct SyncSizeClassPool {
    shared: Mutex<Shared>,
    caches: PerThread<ThreadCache>,
}

impl Default for SyncSizeClassPool {
    fn default() -> Self {
        Self::new()
    }
}

impl SyncSizeClassPool {
    /// An empty pool.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(arena_kit::SyncSizeClassPool::new().stats().held_bytes, 0);
    /// ```
    #[must_use]
    pub fn new() -> Self {
        SyncSizeClassPool {
            shared: Mutex::new(Shared {
                pool: SizeClassPool::new(),
                depot: [const { Vec::new() }; CLASSES],
            }),
            caches: PerThread::new(),
        }
    }

    /// Memory for `layout`: a chunk from this thread's cache (refilled from the shared
    /// pool in batches), or, for sizes the classes do not serve, from the shared pool's
    /// large path; dangling for size 0.
    ///
    /// # Errors
    ///
    /// As [`SizeClassPool::allocate`] (out of memory, or a limit set on the pool).
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    /// let pool = arena_kit::SyncSizeClassPool::new();
    /// let layout = Layout::new::<[u8; 100]>();
    /// let p = pool.allocate(layout).unwrap();
    /// // SAFETY: from this pool with this layout, not used again.
    /// unsafe { pool.deallocate(p, layout) };
    /// ```
    #[inline]
    pub fn allocate(&self, layout: Layout) -> Result<NonNull<u8>, AllocError> {
        let Some(index) = size_class::class_index(layout) else {
            return lock(&self.shared).pool.allocate(layout);
        };
        let cached = self.caches.with(ThreadCache::new, |cache| {
            let class = &cache.classes[index];
            match class.pop() {
                Some(chunk) => Ok(chunk),
                None => self.refill(class, index),
            }
        });
        // `None`: the thread is exiting (a thread-local destructor), or its cache could
        // not be allocated: the locked path.
        cached.unwrap_or_else(|| lock(&self.shared).pool.allocate(layout))
    }

    /// Refills an empty cache list: a whole batch from the depot (one `Vec` pop under the
    /// lock), else [`CACHE_BATCH`] chunks from the class; returns one of them.
    #[cold]
    #[inline(never)]
    fn refill(&self, class: &CachedClass, index: usize) -> Result<NonNull<u8>, AllocError> {
        let mut shared = lock(&self.shared);
        if let Some(batch) = shared.unstock(index) {
            drop(shared);
            // SAFETY: Y1: `depot[index]` holds only batches detached from lists of class
            // `index` (`give_back`), and `class` is this thread's list of that class.
            unsafe { class.attach(batch) };
            return Ok(class.pop().unwrap_or_else(|| unreachable!("a depot batch is not empty")));
        }
        let layout = size_class::class_layout(index);
        let first = shared.pool.allocate(layout)?;
        for _ in 1..CACHE_BATCH {
            let Ok(chunk) = shared.pool.allocate(layout) else { break };
            // SAFETY: Y1: a chunk of this class just allocated, so unused and in no list.
            unsafe { class.push(chunk) };
        }
        Ok(first)
    }

    /// Gives memory from [`allocate`](Self::allocate) back: to this thread's cache (a full
    /// cache gives a batch to the shared pool), whichever thread allocated it.
    ///
    /// # Safety
    ///
    /// `ptr` came from this pool's [`allocate`](Self::allocate) with this `layout` (on any
    /// thread), is live, and is not used afterwards. Release builds trust the caller and
    /// check nothing.
    ///
    /// # Panics
    ///
    /// Only in builds with debug assertions, and only when the caller broke the contract
    /// above (module docs, "Debug checks"), before anything changed: "is already free: a
    /// double free" if `ptr` is free in the shared classes, in the depot or in this
    /// thread's cache, however long ago it was freed (one in another thread's cache goes
    /// unseen); "is not a chunk of class N" for a wrong layout or pool.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    /// let pool = arena_kit::SyncSizeClassPool::new();
    /// let layout = Layout::new::<u64>();
    /// let p = pool.allocate(layout).unwrap();
    /// // SAFETY: from this pool with this layout, not used again.
    /// unsafe { pool.deallocate(p, layout) };
    /// ```
    #[inline]
    pub unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        let Some(index) = size_class::class_index(layout) else {
            // SAFETY: forwarded from the caller; the lock serialises it.
            unsafe { lock(&self.shared).pool.deallocate(ptr, layout) };
            return;
        };
        #[cfg(debug_assertions)]
        {
            let shared = lock(&self.shared);
            debug_assert!(
                !shared.pool.is_free(index, ptr),
                "deallocate: {ptr:p} is already free: a double free"
            );
            debug_assert!(
                shared.pool.class_owns(index, ptr),
                "deallocate: {ptr:p} is not a chunk of class {index}: wrong layout or pool"
            );
        }
        let cached = self.caches.with(ThreadCache::new, |cache| {
            let class = &cache.classes[index];
            debug_assert!(
                !class.chunks.contains_near(ptr, usize::MAX),
                "deallocate: {ptr:p} is already free: a double free"
            );
            // SAFETY: Y1: the caller gives back a chunk of this class that nobody uses.
            unsafe { class.push(ptr) };
            if class.count.get() >= 2 * CACHE_BATCH {
                self.give_back(class, index, CACHE_BATCH);
            }
        });
        if cached.is_none() {
            // The thread is exiting, or has no cache (out of memory): the locked path.
            // SAFETY: forwarded from the caller; the lock serialises it.
            unsafe { lock(&self.shared).pool.deallocate(ptr, layout) };
        }
    }

    /// Moves up to `count` chunks of `class` (class `index`) to the depot as one batch:
    /// unlinked outside the lock, pushed under it.
    #[cold]
    #[inline(never)]
    fn give_back(&self, class: &CachedClass, index: usize, count: usize) {
        if let Some(batch) = class.detach(count) {
            // SAFETY: Y1: detached from this pool's cache list of class `index`.
            unsafe { lock(&self.shared).stock(index, batch) };
        }
    }

    /// Gives the calling thread's cached chunks back to the shared pool (a thread about
    /// to end, or before a [`trim`](Self::trim)).
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    /// let pool = arena_kit::SyncSizeClassPool::new();
    /// let layout = Layout::new::<u32>();
    /// let p = pool.allocate(layout).unwrap();
    /// // SAFETY: from this pool with this layout, not used again.
    /// unsafe { pool.deallocate(p, layout) };
    /// pool.flush(); // now in the shared depot: a trim can give the block back
    /// assert!(pool.trim() > 0);
    /// assert_eq!(pool.stats().live_chunks, 0);
    /// ```
    pub fn flush(&self) {
        self.caches.with_existing(|cache| {
            for (index, class) in cache.classes.iter().enumerate() {
                self.give_back(class, index, usize::MAX);
            }
        });
    }

    /// Empties the depot into the classes, then [`SizeClassPool::trim`]: classes with no
    /// live or cached chunk give their blocks back. Other threads' caches are out of
    /// reach (see [`flush`](Self::flush)).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::SyncSizeClassPool::new();
    /// assert_eq!(pool.trim(), 0);
    /// ```
    pub fn trim(&self) -> usize {
        let mut shared = lock(&self.shared);
        shared.drain_depot();
        shared.pool.trim()
    }

    /// Pre-carves `count` chunks for `layout` in the shared pool
    /// ([`SizeClassPool::reserve`]).
    ///
    /// # Errors
    ///
    /// As [`SizeClassPool::reserve`].
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    /// let pool = arena_kit::SyncSizeClassPool::new();
    /// pool.reserve(Layout::new::<[u8; 32]>(), 100).unwrap();
    /// assert!(pool.stats().held_bytes >= 3200);
    /// ```
    pub fn reserve(&self, layout: Layout, count: usize) -> Result<(), AllocError> {
        lock(&self.shared).pool.reserve(layout, count)
    }

    /// [`SizeClassPool::set_limit`] on the shared pool.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::SyncSizeClassPool::new();
    /// pool.set_limit(Some(0));
    /// assert!(pool.allocate(core::alloc::Layout::new::<u8>()).is_err());
    /// ```
    pub fn set_limit(&self, limit: Option<usize>) {
        lock(&self.shared).pool.set_limit(limit);
    }

    /// [`SizeClassPool::set_high_water`] on the shared pool.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::SyncSizeClassPool::new().set_high_water(0);
    /// ```
    pub fn set_high_water(&self, bytes: usize) {
        lock(&self.shared).pool.set_high_water(bytes);
    }

    /// The shared pool's counters; chunks in thread caches and in the depot count as live.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(arena_kit::SyncSizeClassPool::new().stats().live_chunks, 0);
    /// ```
    #[must_use]
    pub fn stats(&self) -> SizeClassStats {
        lock(&self.shared).pool.stats()
    }

    /// The pool without its lock: every thread's cache is given back first (`self` is
    /// owned, so no thread is using it).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::SyncSizeClassPool::new().into_inner();
    /// assert_eq!(pool.stats().live_chunks, 0);
    /// ```
    #[must_use]
    pub fn into_inner(mut self) -> SizeClassPool {
        let mut caches = core::mem::take(&mut self.caches);
        let mut shared = core::mem::replace(
            &mut *lock(&self.shared),
            Shared { pool: SizeClassPool::new(), depot: [const { Vec::new() }; CLASSES] },
        );
        for cache in caches.iter_mut() {
            for (index, class) in cache.classes.iter().enumerate() {
                if let Some(batch) = class.detach(usize::MAX) {
                    // SAFETY: Y1: detached from this pool's cache list of class `index`.
                    unsafe { shared.release(index, batch) };
                }
            }
        }
        shared.drain_depot();
        shared.pool
    }
}

#[cfg(all(test, loom))]
impl SyncSizeClassPool {
    /// Batches in class `index`'s depot (for the loom model's setup).
    pub(crate) fn depot_batches(&self, index: usize) -> usize {
        lock(&self.shared).depot[index].len()
    }
}

impl fmt::Debug for SyncSizeClassPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SyncSizeClassPool").field("stats", &self.stats()).finish_non_exhaustive()
    }
}

#[cfg(feature = "allocator-api2")]
// Why this impl keeps `Allocator`'s contract: `allocate` hands out a chunk (or large or
// dangling memory) that nobody else holds until it is deallocated (module docs: a chunk
// is in one place at a time); every `&SyncSizeClassPool` borrows the pool, whose drop is
// the only other way memory ends; `grow`/`shrink` keep the chunk only when both layouts
// share a class, else allocate, copy and deallocate with the layouts the caller vouches for.
// SAFETY: as above.
unsafe impl Allocator for &SyncSizeClassPool {
    #[inline]
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, ApiAllocError> {
        let ptr = SyncSizeClassPool::allocate(self, layout).map_err(|_| ApiAllocError)?;
        Ok(NonNull::slice_from_raw_parts(ptr, layout.size()))
    }

    #[inline]
    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: forwarded from the caller.
        unsafe { SyncSizeClassPool::deallocate(self, ptr, layout) };
    }

    unsafe fn grow(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, ApiAllocError> {
        // SAFETY: forwarded from the caller; growing keeps the old size.
        unsafe {
            crate::size_class::pool::resize_in_class(
                *self,
                ptr,
                old_layout,
                new_layout,
                old_layout.size(),
            )
        }
    }

    unsafe fn shrink(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, ApiAllocError> {
        // SAFETY: forwarded from the caller; shrinking keeps the new size.
        unsafe {
            crate::size_class::pool::resize_in_class(
                *self,
                ptr,
                old_layout,
                new_layout,
                new_layout.size(),
            )
        }
    }
}
