//! [`Arena`]: a scope that owns its blocks outright (seed 000's AutoFreeAlloc).

use core::fmt;
use core::ops::Deref;

use crate::scope::Scope;

/// A bump arena that asks the system for its own blocks and frees them when it ends.
///
/// Everything about allocation, destructors, limits and child scopes is [`Scope`]'s: an
/// `Arena` dereferences to one. The only difference is where blocks come from. An arena's
/// first block is 1 KiB; each next one doubles, up to 1 MiB, so many small values cost
/// few system calls. Use an arena for one long-lived batch of values (thousands of small
/// values made and dropped together); use a [`BlockPool`](crate::BlockPool) and its scopes
/// for many short-lived batches, which with an arena each would pay a `malloc` and a
/// `free` apiece.
///
/// Like `Scope`, an `Arena` is neither `Send` nor `Sync`: it may hold values of any type,
/// `Rc` included, whose destructors must run on the thread that made them.
///
/// # Examples
///
/// ```
/// use arena_core::Arena;
///
/// let arena = Arena::new();
/// let xs: Vec<&mut i32> = (0..60_000).map(|i| arena.alloc(i)).collect();
/// assert_eq!(*xs[59_999], 59_999);
/// assert!(arena.stats().blocks < 10);
/// ```
pub struct Arena<'a> {
    scope: Scope<'a>,
}

impl Arena<'_> {
    /// An empty arena. Allocates nothing until the first value.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_core::Arena::new();
    /// assert_eq!(arena.stats().reserved_bytes, 0);
    /// ```
    #[must_use]
    pub fn new() -> Self {
        Arena { scope: Scope::from_system() }
    }

    /// An arena whose first block holds at least `bytes` bytes of values (rounded up so
    /// the block fills whole pages).
    ///
    /// # Panics
    ///
    /// If the system allocator refuses the block (through `handle_alloc_error`), or
    /// `bytes` is too large for a layout.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_core::Arena::with_capacity(100_000);
    /// let before = arena.stats();
    /// arena.alloc_slice_fill_copy(100_000, 0_u8);
    /// assert_eq!(arena.stats().blocks, before.blocks);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn with_capacity(bytes: usize) -> Self {
        let arena = Self::new();
        if bytes > 0 {
            let layout = core::alloc::Layout::from_size_align(bytes, 1)
                .unwrap_or_else(|_| panic!("arena-kit: {bytes} bytes cannot be allocated"));
            arena.scope.prepare_block(layout);
        }
        arena
    }
}

impl Arena<'_> {
    /// Drops every value, keeps the current block and frees the others
    /// ([`Scope::reset`]).
    ///
    /// # Examples
    ///
    /// ```
    /// let mut arena = arena_core::Arena::new();
    /// arena.alloc(String::from("gone after reset"));
    /// arena.reset();
    /// assert_eq!(arena.stats().allocated_bytes, 0);
    /// ```
    pub fn reset(&mut self) {
        self.scope.reset();
    }
}

impl Default for Arena<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> Deref for Arena<'a> {
    type Target = Scope<'a>;

    fn deref(&self) -> &Scope<'a> {
        &self.scope
    }
}

impl fmt::Debug for Arena<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Arena").field("stats", &self.scope.stats()).finish()
    }
}
