//! [`ArenaBox`]: an owning pointer to a value in a scope (bumpalo's `boxed::Box`).
//!
//! # Design
//!
//! A scope's values are dropped by the scope, when it ends, and so may not borrow each
//! other (`T: 'p`, see `scope/lifecycle.rs`). A box is the other way to own a value in a scope:
//! the *box* drops it, when the box drops, like `Box`; the scope only lends the bytes,
//! which stay allocated until it ends or resets. So, like an [`ArenaVec`](crate::ArenaVec)'s
//! elements, a boxed value needs no `'p` bound: it may borrow the scope's other values,
//! and recursive types (`enum Expr<'s> { Add(ArenaBox<'s, Expr<'s>>, ..) }`) and trait
//! objects work as they do with `Box`.
//!
//! The box is one pointer (two for slices and trait objects) and never touches the scope
//! again after the allocation, which is why it can cross threads when its value can.
//!
//! # Invariants
//!
//! - **(X1) The value**: `ptr` points to an initialised `T` that the box alone reaches: in
//!   memory a scope handed out once (its S3) and keeps allocated for `'s`, or dangling and
//!   well aligned when `T` is zero-sized (a dangling empty slice included).
//! - **(X2) One owner, one drop**: nothing but the box drops the value (no drop node is
//!   registered with the scope), and the box drops it exactly once, in its `Drop`, unless
//!   it gives the value up first ([`into_inner`](ArenaBox::into_inner),
//!   [`leak`](ArenaBox::leak), [`unsize_box!`](crate::unsize_box!)).
//!
//! # Dropck
//!
//! `Box` lets its value hold references that dangle by the time the box drops, when the
//! value's own drop glue does not use them (`#[may_dangle]`, unstable). `ArenaBox` cannot
//! promise that on stable, so it is stricter: everything the value borrows must outlive
//! the box, as for any type with a `Drop` impl. That rejects programs `Box` accepts (a
//! box of `&String` declared before the `String`), never the reverse.

use core::alloc::Layout;
use core::borrow::{Borrow, BorrowMut};
use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;
use core::mem::ManuallyDrop;
use core::ops::{Deref, DerefMut};
use core::ptr::{self, NonNull};

use crate::error::{TryAllocError, fail};
use crate::scope::Scope;

/// An owning pointer to a value in a [`Scope`]: the value drops when the box does, the
/// bytes stay in the scope until it ends (bumpalo's `bumpalo::boxed::Box`).
///
/// Use it where a scope's own values cannot go: values that borrow other values of the
/// same scope, recursive data (trees of boxes) and trait objects. It costs one bump
/// allocation and nothing when it drops but the value's destructor.
///
/// # Trait objects and slices
///
/// `CoerceUnsized` is unstable, so `let b: ArenaBox<dyn Trait> = boxed;` does not compile
/// on stable Rust (bumpalo's box has the same limit). [`unsize_box!`](crate::unsize_box!)
/// does the coercion: `let b: ArenaBox<dyn Trait> = unsize_box!(boxed);`.
///
/// # Not provided
///
/// No `pin_in`: a box can be leaked with `mem::forget`, after which
/// [`Scope::reset`](crate::Scope::reset) reuses its bytes without running the value's
/// destructor, which `Pin` forbids. No `Clone` (the box does not know its scope).
///
/// # Examples
///
/// A recursive expression type, and a trait object:
///
/// ```
/// use arena_kit::{ArenaBox, BlockPool};
/// use std::fmt::Display;
///
/// enum Expr<'s> {
///     Num(i64),
///     Add(ArenaBox<'s, Expr<'s>>, ArenaBox<'s, Expr<'s>>),
/// }
///
/// fn eval(e: &Expr<'_>) -> i64 {
///     match e {
///         Expr::Num(n) => *n,
///         Expr::Add(a, b) => eval(a) + eval(b),
///     }
/// }
///
/// let pool = BlockPool::new();
/// let scope = pool.scope();
/// let one = ArenaBox::new_in(Expr::Num(1), &scope);
/// let two = ArenaBox::new_in(Expr::Num(2), &scope);
/// let sum = Expr::Add(one, two);
/// assert_eq!(eval(&sum), 3);
///
/// let shown: ArenaBox<'_, dyn Display> = arena_kit::unsize_box!(ArenaBox::new_in(42, &scope));
/// assert_eq!(shown.to_string(), "42");
/// ```
///
/// A box cannot outlive its scope:
///
/// ```compile_fail,E0597
/// use arena_kit::{ArenaBox, BlockPool};
/// let pool = BlockPool::new();
/// let b = {
///     let scope = pool.scope();
///     ArenaBox::new_in(String::from("x"), &scope)
/// }; // error: `scope` does not live long enough
/// ```
pub struct ArenaBox<'s, T: ?Sized + 's> {
    ptr: NonNull<T>,
    /// Owns a `T` (X1, X2): covariant in `T`, as `Box` is.
    _owns: PhantomData<T>,
    /// Borrows the scope's memory for `'s`.
    _scope: PhantomData<&'s ()>,
}

// SAFETY: X1: the box is the only way to the value, and the value's bytes stay allocated
// for `'s` whatever thread the box is on: the scope never writes or hands out memory it
// handed out before (S3), and cannot reset or end while `'s` lasts. The box never touches
// the scope itself. So sending the box sends the value, as for `Box<T>`.
unsafe impl<T: ?Sized + Send> Send for ArenaBox<'_, T> {}

// SAFETY: as for `Send`: `&ArenaBox` gives only `&T`, so sharing the box shares the value.
unsafe impl<T: ?Sized + Sync> Sync for ArenaBox<'_, T> {}

/// Moving the box never moves the value, as for `Box`.
impl<T: ?Sized> Unpin for ArenaBox<'_, T> {}

impl<'s, T> ArenaBox<'s, T> {
    /// Moves `value` into `scope`, owned by the returned box.
    ///
    /// # Panics
    ///
    /// If a limit is reached (see [`try_new_in`](Self::try_new_in)); out of memory goes to
    /// `handle_alloc_error`, like `Box::new`.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let mut b = arena_kit::ArenaBox::new_in(vec![1, 2], &scope);
    /// b.push(3);
    /// assert_eq!(*b, [1, 2, 3]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn new_in<'p>(value: T, scope: &'s Scope<'p>) -> Self
    where
        'p: 's,
    {
        match Self::try_new_in(value, scope) {
            Ok(b) => b,
            Err(e) => fail(e.error()),
        }
    }

    /// Like [`new_in`](Self::new_in), handing `value` back if there is no room.
    ///
    /// # Errors
    ///
    /// As [`Scope::try_alloc`], with the value inside the [`TryAllocError`].
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// scope.set_limit(Some(0));
    /// let err = arena_kit::ArenaBox::try_new_in(String::from("kept"), &scope).unwrap_err();
    /// assert_eq!(err.into_value(), "kept");
    /// ```
    #[inline]
    pub fn try_new_in<'p>(value: T, scope: &'s Scope<'p>) -> Result<Self, TryAllocError<T>>
    where
        'p: 's,
    {
        match scope.bump().alloc(Layout::new::<T>()) {
            Ok(place) => {
                let place = place.cast::<T>();
                // SAFETY: S3: fresh memory for one `T`, aligned, handed out once, and
                // allocated for `'s` (the scope's borrow).
                unsafe { place.write(value) };
                // SAFETY: X1: initialised just above, reached only through the box.
                Ok(unsafe { ArenaBox::from_raw(place) })
            }
            Err(e) => Err(TryAllocError::new(e, value)),
        }
    }

    /// Moves the value out; its bytes stay in the scope, unused (bumpalo's
    /// `Box::into_inner`).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let b = arena_kit::ArenaBox::new_in(String::from("out"), &scope);
    /// let s: String = arena_kit::ArenaBox::into_inner(b);
    /// assert_eq!(s, "out");
    /// ```
    #[must_use]
    pub fn into_inner(b: Self) -> T {
        let b = ManuallyDrop::new(b);
        // SAFETY: X1, X2: the value is initialised and the box, which will never drop it
        // (`ManuallyDrop`), gives it up: read exactly once.
        unsafe { b.ptr.as_ptr().read() }
    }
}

impl<'s, T: ?Sized> ArenaBox<'s, T> {
    /// A box owning the value at `ptr`.
    ///
    /// # Safety
    ///
    /// X1: `ptr` points to an initialised `T` that nothing else uses or drops from now on,
    /// in memory that stays allocated for `'s` (or is dangling and `T` zero-sized).
    #[inline]
    pub(super) unsafe fn from_raw(ptr: NonNull<T>) -> Self {
        ArenaBox { ptr, _owns: PhantomData, _scope: PhantomData }
    }

    /// Gives the value up without dropping it: the pointer reaches it alone from now on.
    pub(super) fn into_raw(b: Self) -> NonNull<T> {
        ManuallyDrop::new(b).ptr
    }

    /// Gives the value up for good: a reference that lives as long as the scope's borrow,
    /// and a value whose destructor never runs (bumpalo's `Box::leak`; its bytes go back
    /// when the scope ends, the value's own resources never do).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let n: &mut u32 = arena_kit::ArenaBox::leak(arena_kit::ArenaBox::new_in(7, &scope));
    /// *n += 1;
    /// assert_eq!(*n, 8);
    /// ```
    #[must_use]
    pub fn leak(b: Self) -> &'s mut T {
        let b = ManuallyDrop::new(b);
        // SAFETY: X1: the value lives for `'s` and the box, which gives it up here and
        // never drops it, was its only way in.
        unsafe { &mut *b.ptr.as_ptr() }
    }

    /// The pointer and the scope borrow, for [`unsize_box!`](crate::unsize_box!): the
    /// value is given up (not dropped).
    #[doc(hidden)]
    #[must_use]
    pub fn __into_raw_parts(b: Self) -> (NonNull<T>, PhantomData<&'s ()>) {
        (ArenaBox::into_raw(b), PhantomData)
    }

    /// The box again, after [`unsize_box!`](crate::unsize_box!) coerced its pointer.
    ///
    /// # Safety
    ///
    /// `ptr` comes from [`__into_raw_parts`](Self::__into_raw_parts) with this `scope`
    /// marker, changed by nothing but a coercion (unsizing, or a lifetime's variance).
    #[doc(hidden)]
    #[must_use]
    pub unsafe fn __from_raw_parts(ptr: NonNull<T>, scope: PhantomData<&'s ()>) -> Self {
        let _ = scope;
        // SAFETY: X1: forwarded from the caller: the value the box gave up, as `T` now.
        unsafe { ArenaBox::from_raw(ptr) }
    }
}

/// Coerces an [`ArenaBox`] to a box of an unsized type, a trait object or a slice, that
/// the context names: `let b: ArenaBox<dyn Trait> = unsize_box!(boxed);`. This is the
/// coercion `Box` gets from the unstable `CoerceUnsized`, which bumpalo's box lacks on
/// stable Rust too.
///
/// The box's pointer goes through a function argument whose type is the target box's
/// pointer, so the only conversion the compiler can make is the unsizing coercion (the
/// value stays the same, only its type changes); without a target type the box comes back
/// as it was. The expansion holds an `unsafe` block, checked here rather than in your
/// crate (it compiles under `#![forbid(unsafe_code)]`).
///
/// # Examples
///
/// ```
/// #![forbid(unsafe_code)]
/// use arena_kit::{ArenaBox, unsize_box};
/// use std::fmt::Debug;
///
/// let pool = arena_kit::BlockPool::new();
/// let scope = pool.scope();
/// let items: Vec<ArenaBox<'_, dyn Debug>> = vec![
///     unsize_box!(ArenaBox::new_in(1_u8, &scope)),
///     unsize_box!(ArenaBox::new_in("two", &scope)),
/// ];
/// assert_eq!(format!("{items:?}"), r#"[1, "two"]"#);
///
/// let slice: ArenaBox<'_, [u16]> = unsize_box!(ArenaBox::new_in([1, 2, 3], &scope));
/// assert_eq!(slice.len(), 3);
/// ```
///
/// Only coercions compile; a different type does not:
///
/// ```compile_fail,E0308
/// use arena_kit::{ArenaBox, unsize_box};
/// let pool = arena_kit::BlockPool::new();
/// let scope = pool.scope();
/// let wrong: ArenaBox<'_, u64> = unsize_box!(ArenaBox::new_in(1_u32, &scope));
/// ```
#[macro_export]
macro_rules! unsize_box {
    ($boxed:expr $(,)?) => {{
        let (ptr, scope) = $crate::ArenaBox::__into_raw_parts($boxed);
        // SAFETY: `ptr` and `scope` come from `__into_raw_parts` just above; on its way
        // into `__from_raw_parts` the pointer can only be coerced (unsized, or shortened
        // by variance), which keeps the value it points to.
        unsafe { $crate::ArenaBox::__from_raw_parts(ptr, scope) }
    }};
}

impl<T: ?Sized> Drop for ArenaBox<'_, T> {
    fn drop(&mut self) {
        // SAFETY: X1, X2: the value is initialised, owned by the box alone, and this is
        // the box's one drop.
        unsafe { ptr::drop_in_place(self.ptr.as_ptr()) };
    }
}

impl<T: ?Sized> Deref for ArenaBox<'_, T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        // SAFETY: X1: initialised, and only the box reaches it.
        unsafe { self.ptr.as_ref() }
    }
}

impl<T: ?Sized> DerefMut for ArenaBox<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: X1, and `&mut self` makes the borrow unique.
        unsafe { self.ptr.as_mut() }
    }
}

impl<T: ?Sized> AsRef<T> for ArenaBox<'_, T> {
    fn as_ref(&self) -> &T {
        self
    }
}

impl<T: ?Sized> AsMut<T> for ArenaBox<'_, T> {
    fn as_mut(&mut self) -> &mut T {
        self
    }
}

impl<T: ?Sized> Borrow<T> for ArenaBox<'_, T> {
    fn borrow(&self) -> &T {
        self
    }
}

impl<T: ?Sized> BorrowMut<T> for ArenaBox<'_, T> {
    fn borrow_mut(&mut self) -> &mut T {
        self
    }
}

/// An empty boxed slice, which needs no scope (bumpalo's `Default` for `Box<[T]>`).
impl<T> Default for ArenaBox<'_, [T]> {
    fn default() -> Self {
        // SAFETY: X1: an empty slice is zero-sized; a dangling, aligned pointer holds it.
        unsafe { ArenaBox::from_raw(NonNull::slice_from_raw_parts(NonNull::dangling(), 0)) }
    }
}

/// An empty boxed string, which needs no scope.
impl Default for ArenaBox<'_, str> {
    fn default() -> Self {
        let bytes = NonNull::slice_from_raw_parts(NonNull::<u8>::dangling(), 0);
        // SAFETY: `str` has the layout of `[u8]`; the pointer comes from a `NonNull`.
        let text = unsafe { NonNull::new_unchecked(bytes.as_ptr() as *mut str) };
        // SAFETY: X1: an empty string is zero-sized and valid UTF-8; the pointer is
        // dangling and aligned for `u8`.
        unsafe { ArenaBox::from_raw(text) }
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for ArenaBox<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T: ?Sized + fmt::Display> fmt::Display for ArenaBox<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&**self, f)
    }
}

impl<T: ?Sized> fmt::Pointer for ArenaBox<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Pointer::fmt(&self.ptr, f)
    }
}

impl<T: ?Sized + PartialEq> PartialEq for ArenaBox<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: ?Sized + Eq> Eq for ArenaBox<'_, T> {}

impl<T: ?Sized + PartialOrd> PartialOrd for ArenaBox<'_, T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        (**self).partial_cmp(&**other)
    }
}

impl<T: ?Sized + Ord> Ord for ArenaBox<'_, T> {
    fn cmp(&self, other: &Self) -> Ordering {
        (**self).cmp(&**other)
    }
}

impl<T: ?Sized + Hash> Hash for ArenaBox<'_, T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl<I: Iterator + ?Sized> Iterator for ArenaBox<'_, I> {
    type Item = I::Item;
    fn next(&mut self) -> Option<I::Item> {
        (**self).next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (**self).size_hint()
    }
}

impl<I: DoubleEndedIterator + ?Sized> DoubleEndedIterator for ArenaBox<'_, I> {
    fn next_back(&mut self) -> Option<I::Item> {
        (**self).next_back()
    }
}

impl<I: ExactSizeIterator + ?Sized> ExactSizeIterator for ArenaBox<'_, I> {}
