//! [`ScopeView`]: a `Copy` view of a scope, with one lifetime, for values without
//! destructors: what a parser or compiler keeps in its structs where bumpalo users keep
//! `&'a Bump`.
//!
//! A [`Scope<'p>`](crate::Scope) needs two lifetimes when borrowed (`&'s Scope<'p>`), and
//! its `'p` is invariant (that is what keeps a destructor from reading a dropped sibling;
//! see `scope/lifecycle.rs`). Values without destructors need none of that, so a view of the scope's
//! memory that allocates only `Copy` values is sound with the borrow alone: it is
//! `ScopeView<'s>`, `Copy`, and every value it hands out lives for `'s`. Nodes made through
//! it may point at each other freely (an AST of `&'s Expr<'s>`).

use core::alloc::Layout;
use core::fmt;
use core::ptr::{self, NonNull};

use crate::bump::Bump;
use crate::error::{AllocError, TryAllocError, fail};

/// A `Copy` handle on a scope's memory for values without destructors (`T: Copy`), with a
/// single lifetime: store it in a parser, pass it by value, allocate linked nodes that
/// point at each other.
///
/// Made by [`Scope::view`](crate::Scope::view). Everything it allocates lives until the
/// scope ends (or is [`reset`](crate::Scope::reset), which the borrow checker keeps from
/// happening while a view exists). Values with destructors go through the
/// [`Scope`](crate::Scope) itself, which runs them.
///
/// With the `allocator-api2` feature a view is also an `Allocator`, the same one `&Scope`
/// is: a parser that keeps a view builds `allocator_api2::vec::Vec<T, ScopeView<'s>>`s
/// and `hashbrown` maps in the scope through it.
///
/// # Cost
///
/// Each allocation is the scope's bump: an align-up, a compare and a store.
///
/// # Examples
///
/// An AST whose nodes point at each other:
///
/// ```
/// use arena_kit::{BlockPool, scope::ScopeView};
///
/// #[derive(Clone, Copy)]
/// enum Expr<'s> {
///     Num(i64),
///     Add(&'s Expr<'s>, &'s Expr<'s>),
/// }
///
/// struct Parser<'s> {
///     arena: ScopeView<'s>, // one lifetime, `Copy`
/// }
///
/// impl<'s> Parser<'s> {
///     fn num(&self, n: i64) -> &'s Expr<'s> {
///         self.arena.alloc(Expr::Num(n))
///     }
///     fn add(&self, a: &'s Expr<'s>, b: &'s Expr<'s>) -> &'s Expr<'s> {
///         self.arena.alloc(Expr::Add(a, b))
///     }
/// }
///
/// fn eval(e: &Expr<'_>) -> i64 {
///     match *e {
///         Expr::Num(n) => n,
///         Expr::Add(a, b) => eval(a) + eval(b),
///     }
/// }
///
/// let pool = BlockPool::new();
/// let scope = pool.scope();
/// let p = Parser { arena: scope.view() };
/// let sum = p.add(p.num(1), p.add(p.num(2), p.num(3)));
/// assert_eq!(eval(sum), 6);
/// ```
#[derive(Clone, Copy)]
pub struct ScopeView<'s> {
    /// The scope's memory; covariant, so a `&'s Bump<'p>` is a `&'s Bump<'s>`.
    bump: &'s Bump<'s>,
}

impl<'s> ScopeView<'s> {
    /// A view of `bump`'s memory.
    pub(super) fn new(bump: &'s Bump<'s>) -> Self {
        ScopeView { bump }
    }

    /// The scope's bump, for the `Allocator` impl.
    #[cfg(feature = "allocator-api2")]
    pub(super) fn bump(self) -> &'s Bump<'s> {
        self.bump
    }

    /// Moves `value` into the scope; it lives until the scope ends.
    ///
    /// # Panics
    ///
    /// If a limit is reached; out of memory goes to `handle_alloc_error`, like `Box::new`.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let view = scope.view();
    /// let x = view.alloc(41);
    /// *x += 1;
    /// assert_eq!(*x, 42);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc<T: Copy>(self, value: T) -> &'s mut T {
        match self.try_alloc(value) {
            Ok(slot) => slot,
            Err(e) => fail(e.error()),
        }
    }

    /// Like [`alloc`](Self::alloc), handing `value` back on failure.
    ///
    /// # Errors
    ///
    /// As [`Scope::try_alloc`](crate::Scope::try_alloc).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// assert_eq!(*scope.view().try_alloc('x').unwrap(), 'x');
    /// ```
    #[inline]
    pub fn try_alloc<T: Copy>(self, value: T) -> Result<&'s mut T, TryAllocError<T>> {
        match self.bump.alloc(Layout::new::<T>()) {
            Ok(place) => {
                let place = place.cast::<T>();
                // SAFETY: S3: fresh memory for one `T`, aligned, handed out once; `T: Copy`
                // needs no destructor; it lives as long as the scope's memory (`'s`).
                unsafe { place.write(value) };
                // SAFETY: initialised just above, and exclusive (S3).
                Ok(unsafe { &mut *place.as_ptr() })
            }
            Err(e) => Err(TryAllocError::new(e, value)),
        }
    }

    /// Copies `src` into the scope.
    ///
    /// # Panics
    ///
    /// If the size overflows or a limit is reached.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let s = scope.view().alloc_slice_copy(&[1, 2, 3]);
    /// assert_eq!(s, [1, 2, 3]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_slice_copy<T: Copy>(self, src: &[T]) -> &'s mut [T] {
        self.try_alloc_slice_copy(src).unwrap_or_else(|e| fail(e))
    }

    /// Like [`alloc_slice_copy`](Self::alloc_slice_copy), with an error instead of a panic.
    ///
    /// # Errors
    ///
    /// [`AllocError::SizeOverflow`], a limit, or out of memory.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// assert_eq!(scope.view().try_alloc_slice_copy(b"ab").unwrap(), b"ab");
    /// ```
    pub fn try_alloc_slice_copy<T: Copy>(self, src: &[T]) -> Result<&'s mut [T], AllocError> {
        let layout = Layout::array::<T>(src.len()).map_err(|_| AllocError::SizeOverflow)?;
        let data = self.bump.alloc(layout)?.cast::<T>();
        // SAFETY: S3: fresh memory for `src.len()` values of `T`, so it cannot overlap
        // `src`.
        unsafe { ptr::copy_nonoverlapping(src.as_ptr(), data.as_ptr(), src.len()) };
        // SAFETY: initialised just above, handed out once (S3), living for `'s`.
        Ok(unsafe { core::slice::from_raw_parts_mut(data.as_ptr(), src.len()) })
    }

    /// Collects an iterator into a slice in the scope, as
    /// [`Scope::alloc_from_iter`](crate::Scope::alloc_from_iter) does: the values are
    /// gathered at the scope's tip, which grows in place, and that buffer becomes the
    /// slice (an exact-size iterator reserves once and never moves).
    ///
    /// # Panics
    ///
    /// If a limit is reached, or the iterator panics (nothing leaks but the bytes
    /// gathered so far, which the scope keeps until it ends).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let view = scope.view();
    /// let odd = view.alloc_from_iter((0..10).filter(|n| n % 2 == 1));
    /// let squares = view.alloc_from_iter(odd.iter().map(|n| n * n));
    /// assert_eq!(odd, [1, 3, 5, 7, 9]);
    /// assert_eq!(squares, [1, 9, 25, 49, 81]);
    /// ```
    #[track_caller]
    pub fn alloc_from_iter<T: Copy, I: IntoIterator<Item = T>>(self, iter: I) -> &'s mut [T] {
        let iter = iter.into_iter();
        let mut gathered = crate::ArenaVec::new_in_bump(self.bump);
        gathered.reserve(iter.size_hint().0);
        gathered.extend(iter);
        gathered.into_slice()
    }

    /// Copies `s` into the scope.
    ///
    /// # Panics
    ///
    /// If a limit is reached.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let name: &str = scope.view().alloc_str("ident");
    /// assert_eq!(name, "ident");
    /// ```
    #[inline]
    #[must_use]
    #[track_caller]
    pub fn alloc_str(self, s: &str) -> &'s mut str {
        let bytes = self.alloc_slice_copy(s.as_bytes());
        // SAFETY: the bytes were copied from a `str`, so they are valid UTF-8.
        unsafe { core::str::from_utf8_unchecked_mut(bytes) }
    }

    /// `len` values made by `make(i)`, as a slice in the scope.
    ///
    /// # Panics
    ///
    /// If the size overflows or a limit is reached (and if `make` panics: the values
    /// made so far are `Copy`, nothing to drop).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let squares = scope.view().alloc_slice_fill_with(4, |i| i * i);
    /// assert_eq!(squares, [0, 1, 4, 9]);
    /// ```
    #[track_caller]
    pub fn alloc_slice_fill_with<T: Copy>(
        self,
        len: usize,
        mut make: impl FnMut(usize) -> T,
    ) -> &'s mut [T] {
        let layout = Layout::array::<T>(len).unwrap_or_else(|_| fail(AllocError::SizeOverflow));
        let data = self.bump.alloc(layout).unwrap_or_else(|e| fail(e)).cast::<T>();
        for i in 0..len {
            let value = make(i);
            // SAFETY: S3: `i < len`, within the fresh memory for `len` values of `T`.
            let place = unsafe { data.add(i) };
            // SAFETY: aligned and not yet written; written in order, and `T: Copy` leaves
            // nothing to drop if `make` panics half-way.
            unsafe { place.write(value) };
        }
        // SAFETY: the `len` values were written above, handed out once (S3).
        unsafe { core::slice::from_raw_parts_mut(data.as_ptr(), len) }
    }

    /// Raw memory for `layout` (padded to its alignment), for callers that build in place.
    ///
    /// # Panics
    ///
    /// If a limit is reached.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let p = scope.view().alloc_layout(Layout::new::<u64>());
    /// assert_eq!(p.as_ptr().addr() % 8, 0);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn alloc_layout(self, layout: Layout) -> NonNull<u8> {
        self.bump.alloc(layout.pad_to_align()).unwrap_or_else(|e| fail(e))
    }
}

impl fmt::Debug for ScopeView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScopeView").field("bump", self.bump).finish()
    }
}
