//! [`Arena`]: a scope that owns its blocks outright (seed 000's AutoFreeAlloc).

use core::alloc::Layout;
use core::fmt;
use core::ops::Deref;

use crate::error::{AllocError, fail};
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
/// use arena_kit::Arena;
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
    /// let arena = arena_kit::Arena::new();
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
    /// `bytes` is too large for a layout (see
    /// [`try_with_capacity`](Self::try_with_capacity)).
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::with_capacity(100_000);
    /// let before = arena.stats();
    /// arena.alloc_slice_fill_copy(100_000, 0_u8);
    /// assert_eq!(arena.stats().blocks, before.blocks);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn with_capacity(bytes: usize) -> Self {
        Self::try_with_capacity(bytes).unwrap_or_else(|e| fail(e))
    }

    /// Like [`new`](Self::new), as a `Result` (bumpalo's `Bump::try_new`). An arena takes
    /// no memory until its first value, so this always succeeds; it exists so code written
    /// for a fallible constructor keeps its shape (see
    /// [`try_with_capacity`](Self::try_with_capacity) for one that can fail).
    ///
    /// # Errors
    ///
    /// None today.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::try_new()?;
    /// assert_eq!(arena.stats().blocks, 0);
    /// # Ok::<(), arena_kit::AllocError>(())
    /// ```
    pub fn try_new() -> Result<Self, AllocError> {
        Ok(Self::new())
    }

    /// Like [`with_capacity`](Self::with_capacity), returning an error instead of
    /// panicking (bumpalo's `Bump::try_with_capacity`).
    ///
    /// # Errors
    ///
    /// [`AllocError::LayoutTooLarge`] if `bytes` and the block header exceed `isize::MAX`,
    /// [`AllocError::OutOfMemory`] if the system refuses the block.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{AllocError, Arena};
    ///
    /// let arena = Arena::try_with_capacity(4096).unwrap();
    /// assert!(arena.block_room() >= 4096);
    /// let err = Arena::try_with_capacity(isize::MAX as usize + 1).unwrap_err();
    /// assert!(matches!(err, AllocError::LayoutTooLarge { .. }));
    /// ```
    pub fn try_with_capacity(bytes: usize) -> Result<Self, AllocError> {
        let arena = Self::new();
        if bytes > 0 {
            let layout = Layout::from_size_align(bytes, 1)
                .map_err(|_| AllocError::LayoutTooLarge { size: bytes, align: 1 })?;
            arena.scope.try_prepare_block(layout)?;
        }
        Ok(arena)
    }
}

impl<'a> Arena<'a> {
    /// Drops every value, keeps the current block and frees the others
    /// ([`Scope::reset`]). If the arena held more than one block, its next block is made
    /// large enough for everything it held: a repeated cycle of the same size then settles
    /// in one block, which later resets keep (bumpalo's chunks converge the same way), at
    /// the cost of keeping that much memory while the arena lives.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut arena = arena_kit::Arena::new();
    /// arena.alloc(String::from("gone after reset"));
    /// arena.reset();
    /// assert_eq!(arena.stats().allocated_bytes, 0);
    /// ```
    pub fn reset(&mut self) {
        self.scope.reset();
    }

    /// Runs `f` on the arena, then drops what it allocated and rewinds to where the
    /// arena stood before ([`Scope::scoped`]).
    ///
    /// # Examples
    ///
    /// ```
    /// let mut arena = arena_kit::Arena::new();
    /// let kept = *arena.alloc(1_u32);
    /// let len = arena.scoped(|scratch| scratch.alloc_str("temporary").len());
    /// assert_eq!((kept, len), (1, 9));
    /// assert_eq!(arena.stats().allocated_bytes, 4);
    /// ```
    pub fn scoped<R>(&mut self, f: impl FnOnce(&Scope<'a>) -> R) -> R {
        self.scope.scoped(f)
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
