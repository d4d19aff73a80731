//! [`LocalBlockPool`]: one thread's cache over a [`SharedBlockPool`](crate::SharedBlockPool), a
//! [`BlockPool`](crate::BlockPool)'s cache whose upstream is the shared pool (see
//! `shared.rs` for the two levels and why they are sound).

use core::fmt;

use crate::block::pool::{BlockCache, block_cache_api};

/// One thread's cache of a [`SharedBlockPool`](crate::SharedBlockPool): the API of a [`BlockPool`](crate::BlockPool)
/// ([`scope`](Self::scope), [`stats`](Self::stats), `set_max_free`, `set_limit` and the
/// rest, documented below), whose standard blocks come from the shared pool when its
/// cache is empty and go back to it when its cache is full, it is trimmed, or it drops.
///
/// The cache borrows the shared pool and gives its blocks back to it when it drops, so
/// the borrow checker keeps the shared pool alive until then: whatever the declaration
/// order, struct field or `mem::swap`, a cache cannot outlive its shared pool.
///
/// `Send` (a cache may move to another thread with its owner) and `!Sync`.
///
/// # Examples
///
/// ```
/// let shared = arena_kit::SharedBlockPool::new();
/// let local = shared.local();
/// for _ in 0..100 {
///     let scope = local.scope();
///     scope.alloc_str("no lock taken: the block comes from this thread's cache");
/// }
/// assert_eq!(local.stats().cached_blocks, 1);
/// assert_eq!(shared.stats().system_allocations, 1);
/// ```
pub struct LocalBlockPool<'s> {
    cache: BlockCache<'s>,
}

impl<'s> LocalBlockPool<'s> {
    /// A thread's cache over `cache`, whose upstream is a shared pool.
    pub(super) fn new(cache: BlockCache<'s>) -> Self {
        LocalBlockPool { cache }
    }

    /// The cache, for the scopes built on it.
    #[inline]
    pub(crate) fn cache(&self) -> &BlockCache<'s> {
        &self.cache
    }
}

block_cache_api!(
    LocalBlockPool<'_>,
    "let shared = arena_kit::SharedBlockPool::new();\nlet pool = shared.local();"
);

impl fmt::Debug for LocalBlockPool<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LocalBlockPool").field("cache", &self.cache).finish()
    }
}
