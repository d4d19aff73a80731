//! [`SyncSizeClassPool`]: the locked size-class pool (seed 002's "with locks" rows): a
//! [`SizeClassPool`] behind one `Mutex`, usable from many threads and as an
//! `allocator_api2` allocator.
//!
//! One lock around the whole pool is what `boost::pool`'s and ACE's locked flavours do; it
//! costs an uncontended lock and unlock per call on one thread, and threads that allocate
//! at the same time take turns. Threads that each have their own chunks to churn scale
//! better with a `SizeClassPool` each (it is `Send`); BENCHMARKS.md measures both.
//!
//! `Sync` follows from `Mutex<SizeClassPool>` (the pool is `Send`, see its `unsafe impl`):
//! no `unsafe impl` here. The `Allocator` impl holds the lock for a whole call, so a grow
//! (allocate, copy, deallocate) is one critical section.

use core::alloc::Layout;
use core::fmt;
use core::ptr::NonNull;

use allocator_api2::alloc::{AllocError as ApiAllocError, Allocator};

use crate::error::AllocError;
use crate::size_class::{SizeClassPool, SizeClassStats};
use crate::sync::{Mutex, lock};

/// A [`SizeClassPool`] behind a lock: the same classes, usable from many threads.
///
/// # Examples
///
/// ```
/// use allocator_api2::vec::Vec;
/// use arena_core::SyncSizeClassPool;
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
/// assert_eq!(pool.stats().live_chunks, 0);
/// ```
#[derive(Default)]
pub struct SyncSizeClassPool {
    inner: Mutex<SizeClassPool>,
}

impl SyncSizeClassPool {
    /// An empty pool.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(arena_core::SyncSizeClassPool::new().stats().held_bytes, 0);
    /// ```
    #[must_use]
    pub fn new() -> Self {
        SyncSizeClassPool { inner: Mutex::new(SizeClassPool::new()) }
    }

    /// [`SizeClassPool::allocate`] under the lock.
    ///
    /// # Errors
    ///
    /// As [`SizeClassPool::allocate`].
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    /// let pool = arena_core::SyncSizeClassPool::new();
    /// let layout = Layout::new::<[u8; 100]>();
    /// let p = pool.allocate(layout).unwrap();
    /// // SAFETY: from this pool with this layout, not used again.
    /// unsafe { pool.deallocate(p, layout) };
    /// ```
    #[inline]
    pub fn allocate(&self, layout: Layout) -> Result<NonNull<u8>, AllocError> {
        lock(&self.inner).allocate(layout)
    }

    /// [`SizeClassPool::deallocate`] under the lock, from any thread.
    ///
    /// # Safety
    ///
    /// `ptr` came from this pool's [`allocate`](Self::allocate) with this `layout`
    /// (on any thread), is live, and is not used afterwards.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    /// let pool = arena_core::SyncSizeClassPool::new();
    /// let layout = Layout::new::<u64>();
    /// let p = pool.allocate(layout).unwrap();
    /// // SAFETY: from this pool with this layout, not used again.
    /// unsafe { pool.deallocate(p, layout) };
    /// ```
    #[inline]
    pub unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: forwarded from the caller; the lock serialises it with every other call.
        unsafe { lock(&self.inner).deallocate(ptr, layout) };
    }

    /// [`SizeClassPool::trim`] under the lock.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_core::SyncSizeClassPool::new();
    /// assert_eq!(pool.trim(), 0);
    /// ```
    pub fn trim(&self) -> usize {
        lock(&self.inner).trim()
    }

    /// [`SizeClassPool::reserve`] under the lock.
    ///
    /// # Errors
    ///
    /// As [`SizeClassPool::reserve`].
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    /// let pool = arena_core::SyncSizeClassPool::new();
    /// pool.reserve(Layout::new::<[u8; 32]>(), 100).unwrap();
    /// assert!(pool.stats().held_bytes >= 3200);
    /// ```
    pub fn reserve(&self, layout: Layout, count: usize) -> Result<(), AllocError> {
        lock(&self.inner).reserve(layout, count)
    }

    /// [`SizeClassPool::set_limit`] under the lock.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_core::SyncSizeClassPool::new();
    /// pool.set_limit(Some(0));
    /// assert!(pool.allocate(core::alloc::Layout::new::<u8>()).is_err());
    /// ```
    pub fn set_limit(&self, limit: Option<usize>) {
        lock(&self.inner).set_limit(limit);
    }

    /// [`SizeClassPool::set_high_water`] under the lock.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::SyncSizeClassPool::new().set_high_water(0);
    /// ```
    pub fn set_high_water(&self, bytes: usize) {
        lock(&self.inner).set_high_water(bytes);
    }

    /// The counters now.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(arena_core::SyncSizeClassPool::new().stats().live_chunks, 0);
    /// ```
    #[must_use]
    pub fn stats(&self) -> SizeClassStats {
        lock(&self.inner).stats()
    }

    /// The pool without its lock, when nobody else can reach it.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_core::SyncSizeClassPool::new().into_inner();
    /// assert_eq!(pool.stats().live_chunks, 0);
    /// ```
    #[must_use]
    pub fn into_inner(self) -> SizeClassPool {
        self.inner.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl fmt::Debug for SyncSizeClassPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SyncSizeClassPool").field("stats", &self.stats()).finish()
    }
}

// Why this impl keeps `Allocator`'s contract: every call takes the lock and forwards to
// `&SizeClassPool`'s implementation (see `allocator.rs`), whose contract holds for one
// thread at a time, which the lock provides; memory stays valid until deallocated or the
// pool drops, and every `&SyncSizeClassPool` borrows the pool.
// SAFETY: as above.
unsafe impl Allocator for &SyncSizeClassPool {
    #[inline]
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, ApiAllocError> {
        let pool = lock(&self.inner);
        <&SizeClassPool as Allocator>::allocate(&&*pool, layout)
    }

    #[inline]
    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        let pool = lock(&self.inner);
        // SAFETY: forwarded from the caller.
        unsafe { pool.deallocate(ptr, layout) };
    }

    unsafe fn grow(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, ApiAllocError> {
        let pool = lock(&self.inner);
        // SAFETY: forwarded from the caller.
        unsafe { <&SizeClassPool as Allocator>::grow(&&*pool, ptr, old_layout, new_layout) }
    }

    unsafe fn shrink(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, ApiAllocError> {
        let pool = lock(&self.inner);
        // SAFETY: forwarded from the caller.
        unsafe { <&SizeClassPool as Allocator>::shrink(&&*pool, ptr, old_layout, new_layout) }
    }
}
