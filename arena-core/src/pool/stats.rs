//! [`PoolStats`]: the counters every typed pool reports.

/// A snapshot of a typed pool's counters: what [`Pool::stats`](crate::Pool::stats),
/// [`KeyPool::stats`](crate::KeyPool::stats) and [`SoaPool::stats`](crate::SoaPool::stats)
/// (and so the derive's pools) return.
///
/// # Examples
///
/// ```
/// arena_kit::Pool::with(|mut pool| {
///     let a = pool.insert(1_u8);
///     let b = pool.insert(2_u8);
///     pool.remove(a);
///     let s = pool.stats();
///     assert_eq!((s.live, s.free, s.peak), (1, 1, 2));
///     # drop(b);
/// });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct PoolStats {
    /// Values in the pool.
    pub live: usize,
    /// Vacant slots (reusable or retired).
    pub free: usize,
    /// Slots the buffer can hold without growing.
    pub capacity: usize,
    /// Most values ever live at once.
    pub peak: usize,
}
