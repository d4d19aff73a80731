//! [`AllocOrInitError`]: why [`Scope::try_alloc_try_with`](crate::Scope::try_alloc_try_with)
//! failed (bumpalo's `AllocOrInitError`, with the constructor handed back).

use core::fmt;

use crate::error::TryAllocError;

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
