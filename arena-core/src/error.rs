//! Errors of the fallible `try_*` operations.
//!
//! [`AllocError`] says why memory could not be had. [`TryAllocError<T>`] carries it
//! together with whatever the operation was given to store (the value, the closure that
//! would have built it, the iterator), so that a failed `try_` never loses a value:
//! `Err(e) => e.into_value()` gives it back untouched. [`AllocOrInitError`] is the
//! failure of a fallible constructor run in a scope (bumpalo's `AllocOrInitError`):
//! no room, with the constructor handed back, or the constructor's own error.

use core::alloc::Layout;
use core::fmt;

/// Which budget a [`AllocError::LimitReached`] ran into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LimitKind {
    /// The scope's own limit ([`Scope::set_limit`](crate::Scope::set_limit)).
    Scope,
    /// The block pool's limit ([`BlockPool::set_limit`](crate::BlockPool::set_limit)),
    /// also a size-class pool's, whose blocks come from one.
    BlockPool,
}

/// Why an allocation failed.
///
/// # Examples
///
/// ```
/// use arena_kit::{AllocError, BlockPool, LimitKind};
///
/// let pool = BlockPool::new();
/// let scope = pool.scope();
/// scope.set_limit(Some(0));
/// let err = scope.try_alloc(7_u64).unwrap_err();
/// assert!(matches!(err.error(), AllocError::LimitReached { kind: LimitKind::Scope, .. }));
/// assert_eq!(err.into_value(), 7);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AllocError {
    /// Taking another block would exceed a byte limit.
    LimitReached {
        /// Whose limit it was.
        kind: LimitKind,
        /// The limit, in bytes of blocks held.
        limit: usize,
        /// Bytes already held under that limit.
        held: usize,
        /// Bytes of the block that was needed.
        requested: usize,
    },
    /// `len * size_of::<T>()` (or a header added to it) does not fit in `usize`.
    SizeOverflow,
    /// The request cannot be described by a [`Layout`]: more than `isize::MAX` bytes once
    /// block headers and alignment padding are added.
    LayoutTooLarge {
        /// Requested size in bytes.
        size: usize,
        /// Requested alignment.
        align: usize,
    },
    /// A [`Pool`](crate::Pool)'s index space is full (handles are 32-bit), or the fixed
    /// storage of a pool made by [`Pool::with_storage`](crate::Pool::with_storage) is.
    CapacityExceeded {
        /// Most slots the pool can hold.
        max: usize,
    },
    /// The system allocator returned null.
    OutOfMemory {
        /// Size of the block that was asked for.
        size: usize,
        /// Its alignment.
        align: usize,
    },
    /// A [`BufferBlockPool`](crate::BufferBlockPool)'s buffer has no block left to cut,
    /// or the request fits no block of it (a buffer has no blocks of other sizes).
    BufferExhausted {
        /// Size of the block that was needed.
        size: usize,
        /// Its alignment.
        align: usize,
        /// Bytes of the buffer not yet cut into blocks.
        left: usize,
    },
}

impl AllocError {
    /// The layout the system allocator refused, for `handle_alloc_error`
    /// (`alloc::alloc::handle_alloc_error`); `None` for the other kinds.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::AllocError;
    ///
    /// assert_eq!(AllocError::SizeOverflow.oom_layout(), None);
    /// let oom = AllocError::OutOfMemory { size: 64, align: 8 };
    /// assert_eq!(oom.oom_layout().map(|l| l.size()), Some(64));
    /// ```
    #[must_use]
    pub fn oom_layout(&self) -> Option<Layout> {
        match *self {
            AllocError::OutOfMemory { size, align } => Layout::from_size_align(size, align).ok(),
            _ => None,
        }
    }
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            AllocError::LimitReached { kind, limit, held, requested } => {
                let whose = match kind {
                    LimitKind::Scope => "scope",
                    LimitKind::BlockPool => "block pool",
                };
                write!(
                    f,
                    "{whose} allocation limit reached: {held} of {limit} bytes held, \
                     a block of {requested} bytes needed"
                )
            }
            AllocError::SizeOverflow => f.write_str("allocation size overflows usize"),
            AllocError::LayoutTooLarge { size, align } => write!(
                f,
                "layout too large: {size} bytes aligned to {align} exceed isize::MAX with the block header"
            ),
            AllocError::CapacityExceeded { max } => {
                write!(f, "the pool is full: all {max} slots of its storage or index space in use")
            }
            AllocError::OutOfMemory { size, align } => {
                write!(f, "the system allocator refused {size} bytes aligned to {align}")
            }
            AllocError::BufferExhausted { size, align, left } => write!(
                f,
                "the buffer has no block of {size} bytes aligned to {align} left \
                 ({left} bytes uncut, every block cut is in use)"
            ),
        }
    }
}

impl core::error::Error for AllocError {}

impl LimitKind {
    /// `Ok` if `held + requested` bytes stay within `limit`, else the `LimitReached` error.
    pub(crate) fn check(
        self,
        limit: usize,
        held: usize,
        requested: usize,
    ) -> Result<(), AllocError> {
        if held.checked_add(requested).is_some_and(|total| total <= limit) {
            Ok(())
        } else {
            Err(AllocError::LimitReached { kind: self, limit, held, requested })
        }
    }
}

/// A failed `try_*` operation: the reason, and the value it was given, handed back.
///
/// # Examples
///
/// ```
/// use arena_kit::BlockPool;
///
/// let pool = BlockPool::new();
/// let scope = pool.scope();
/// scope.set_limit(Some(0));
/// let name = String::from("kept");
/// match scope.try_alloc(name) {
///     Ok(_) => unreachable!("the limit forbids any block"),
///     Err(e) => {
///         println!("{e}");
///         let name: String = e.into_value();
///         assert_eq!(name, "kept");
///     }
/// }
/// ```
pub struct TryAllocError<T> {
    error: AllocError,
    value: T,
}

impl<T> TryAllocError<T> {
    /// Pairs an error with the value it could not store: for storage built on the kit's
    /// types (the pools `#[derive(ArenaAlloc)]` generates use it) to hand values back.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{AllocError, TryAllocError};
    ///
    /// let err = TryAllocError::new(AllocError::CapacityExceeded { max: 0 }, "kept");
    /// assert_eq!(err.into_value(), "kept");
    /// ```
    #[must_use]
    pub fn new(error: AllocError, value: T) -> Self {
        TryAllocError { error, value }
    }

    /// Why the allocation failed.
    ///
    /// # Examples
    ///
    /// ```
    /// # use arena_kit::{AllocError, BlockPool};
    /// let pool = BlockPool::new();
    /// let scope = pool.scope();
    /// scope.set_limit(Some(0));
    /// let err = scope.try_alloc(1_u8).unwrap_err();
    /// assert!(matches!(err.error(), AllocError::LimitReached { .. }));
    /// ```
    #[must_use]
    pub fn error(&self) -> AllocError {
        self.error
    }

    /// The value the operation was given, untouched.
    ///
    /// # Examples
    ///
    /// ```
    /// # use arena_kit::BlockPool;
    /// let pool = BlockPool::new();
    /// let scope = pool.scope();
    /// scope.set_limit(Some(0));
    /// assert_eq!(scope.try_alloc(vec![1, 2]).unwrap_err().into_value(), [1, 2]);
    /// ```
    #[must_use]
    pub fn into_value(self) -> T {
        self.value
    }

    /// Both halves at once.
    ///
    /// # Examples
    ///
    /// ```
    /// # use arena_kit::BlockPool;
    /// let pool = BlockPool::new();
    /// let scope = pool.scope();
    /// scope.set_limit(Some(0));
    /// let (error, value) = scope.try_alloc('x').unwrap_err().into_parts();
    /// assert_eq!(value, 'x');
    /// assert!(error.to_string().contains("limit"));
    /// ```
    #[must_use]
    pub fn into_parts(self) -> (AllocError, T) {
        (self.error, self.value)
    }
}

/// Shows the error and the value's type, not the value (so `T` needs no `Debug`).
impl<T> fmt::Debug for TryAllocError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TryAllocError")
            .field("error", &self.error)
            .field("value", &core::any::type_name::<T>())
            .finish()
    }
}

impl<T> fmt::Display for TryAllocError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

impl<T> core::error::Error for TryAllocError<T> {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// The panicking forms' failure path: out of memory goes to `handle_alloc_error` like
/// `Box::new`; every other error (and, without `alloc`, every error) is a panic with the
/// error's message.
#[cold]
#[inline(never)]
#[track_caller]
pub(crate) fn fail(error: AllocError) -> ! {
    #[cfg(feature = "alloc")]
    if let Some(layout) = error.oom_layout() {
        alloc::alloc::handle_alloc_error(layout)
    }
    panic!("arena-kit: {error}")
}

/// The failure of a fallible constructor run in a scope: either there was no room (the
/// constructor comes back, uncalled), or the constructor returned an error (the room was
/// given back).
///
/// # Examples
///
/// ```
/// use arena_kit::{AllocOrInitError, BlockPool};
///
/// let pool = BlockPool::new();
/// let scope = pool.scope();
/// let err = scope.try_alloc_try_with(|| u8::try_from(300)).unwrap_err();
/// assert!(matches!(err, AllocOrInitError::Init(_)));
/// assert!(err.to_string().contains("out of range"));
/// ```
pub enum AllocOrInitError<E, F> {
    /// No room: the reason, and the constructor, uncalled.
    Alloc(TryAllocError<F>),
    /// The constructor's own error.
    Init(E),
}

impl<E: fmt::Debug, F> fmt::Debug for AllocOrInitError<E, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AllocOrInitError::Alloc(e) => f.debug_tuple("Alloc").field(e).finish(),
            AllocOrInitError::Init(e) => f.debug_tuple("Init").field(e).finish(),
        }
    }
}

impl<E: fmt::Display, F> fmt::Display for AllocOrInitError<E, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AllocOrInitError::Alloc(e) => fmt::Display::fmt(e, f),
            AllocOrInitError::Init(e) => write!(f, "the value could not be built: {e}"),
        }
    }
}

/// The source of an `Init` error is the constructor's error; an `Alloc` error's message
/// is its own.
impl<E: core::error::Error + 'static, F> core::error::Error for AllocOrInitError<E, F> {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            AllocOrInitError::Alloc(_) => None,
            AllocOrInitError::Init(e) => Some(e),
        }
    }
}
