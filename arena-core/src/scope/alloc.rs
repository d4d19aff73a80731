//! The alloc family of [`Scope`]: single values, slices and strings, each with its
//! fallible `try_` form. Every method here is a safe wrapper over the reservation core in
//! `lifecycle.rs` (room for the values and, when they have drop glue, their drop node,
//! S4), which is where the scope's invariants are kept.

#![expect(clippy::inline_always, reason = "the bump fast path must inline into callers")]
#![expect(
    clippy::mut_from_ref,
    reason = "an arena hands out fresh memory through `&self`, as bumpalo does"
)]

use core::alloc::Layout;
use core::mem::{self, needs_drop};
use core::ptr::{self, NonNull};

use crate::error::{AllocError, AllocOrInitError, TryAllocError, fail};
use crate::scope::Scope;
use crate::scope::drop_list::DropNode;
use crate::scope::lifecycle::Reserved;

impl<'p> Scope<'p> {
    // ----- single values ------------------------------------------------------------

    /// Moves `value` into the scope; it is dropped when the scope ends.
    ///
    /// **Linked nodes (trees, graphs, ASTs) of `&'s Node<'s>` go through
    /// [`alloc_dropless`](Self::alloc_dropless), [`alloc_copy`](Self::alloc_copy) or a
    /// [`view`](Self::view), not `alloc`.** `T: 'p`:
    /// a value whose destructor will run may borrow data that outlives the scope, never the
    /// scope's own values (whose destructors could already have run by the time this one
    /// runs). A node that points at a sibling through `alloc` fails with
    ///
    /// ```text
    /// error[E0621]: explicit lifetime required in the type of `scope`
    ///   |     scope.alloc(Node { value, next })
    ///   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ lifetime `'s` required
    /// help: add explicit lifetime `'s` to the type of `scope`: `&'s Scope<'s>`
    /// ```
    ///
    /// and following the help leads to worse errors. Allocate the node with
    /// `alloc_dropless` (it has no destructor to run; it may hold `Cell`s), make it
    /// `Copy` and use `alloc_copy`, or keep a
    /// [`ScopeView<'s>`](crate::scope::ScopeView) (one lifetime) in your builder.
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
    /// let v = scope.alloc(vec![1, 2, 3]);
    /// v.push(4);
    /// assert_eq!(v.len(), 4);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn alloc<T: 'p>(&self, value: T) -> &mut T {
        if !needs_drop::<T>() {
            return match self.place(value) {
                Ok(value) => value,
                Err((e, _)) => fail(e),
            };
        }
        let slot = match self.reserve_one::<T>() {
            Ok(slot) => slot,
            Err(e) => fail(e),
        };
        // SAFETY: a fresh slot from `reserve_one::<T>`, used once.
        unsafe { self.commit_one(slot, value) }
    }

    /// Like [`alloc`](Self::alloc), but hands `value` back if there is no room.
    ///
    /// # Errors
    ///
    /// [`AllocError::LimitReached`] (scope or pool limit) or [`AllocError::OutOfMemory`],
    /// with the value inside the [`TryAllocError`].
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// assert_eq!(*scope.try_alloc(5).unwrap(), 5);
    /// scope.set_limit(Some(0));
    /// let big = [7_u8; 10_000]; // needs a second block, past the limit
    /// assert_eq!(scope.try_alloc(big).unwrap_err().into_value()[0], 7);
    /// ```
    #[inline]
    pub fn try_alloc<T: 'p>(&self, value: T) -> Result<&mut T, TryAllocError<T>> {
        if !needs_drop::<T>() {
            return self.place(value).map_err(|(e, value)| TryAllocError::new(e, value));
        }
        match self.reserve_one::<T>() {
            // SAFETY: a fresh slot from `reserve_one::<T>`, used once.
            Ok(slot) => Ok(unsafe { self.commit_one(slot, value) }),
            Err(e) => Err(TryAllocError::new(e, value)),
        }
    }

    /// Builds the value in place: reserves room, then calls `f` and writes its result
    /// there, which lets the optimiser construct large values without a stack copy.
    ///
    /// If `f` panics nothing is registered (the reserved bytes are simply unused). `f` may
    /// itself allocate in this scope.
    ///
    /// # Panics
    ///
    /// If `f` panics, or a limit is reached (before `f` is called).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let table = scope.alloc_with(|| [0_u64; 512]);
    /// table[511] = 1;
    /// assert_eq!(table.iter().sum::<u64>(), 1);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn alloc_with<T: 'p, F: FnOnce() -> T>(&self, f: F) -> &mut T {
        let slot = match self.reserve_one::<T>() {
            Ok(slot) => slot,
            Err(e) => fail(e),
        };
        // SAFETY: a fresh slot from `reserve_one::<T>`, used once.
        unsafe { self.commit_one(slot, f()) }
    }

    /// Like [`alloc_with`](Self::alloc_with), but hands the closure back, uncalled, if
    /// there is no room.
    ///
    /// # Errors
    ///
    /// As [`try_alloc`](Self::try_alloc), with `f` inside the [`TryAllocError`].
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// scope.set_limit(Some(0));
    /// let f = scope.try_alloc_with(|| 3).unwrap_err().into_value();
    /// assert_eq!(f(), 3);
    /// ```
    #[inline]
    pub fn try_alloc_with<T: 'p, F: FnOnce() -> T>(
        &self,
        f: F,
    ) -> Result<&mut T, TryAllocError<F>> {
        match self.reserve_one::<T>() {
            // SAFETY: a fresh slot from `reserve_one::<T>`, used once.
            Ok(slot) => Ok(unsafe { self.commit_one(slot, f()) }),
            Err(e) => Err(TryAllocError::new(e, f)),
        }
    }

    /// Builds the value in place with a constructor that may fail (bumpalo's
    /// `alloc_try_with`): on `Ok` the value is in the scope, dropped when it ends; on
    /// `Err` the error comes back and the room is given back, so nothing is left
    /// allocated (unless `f` itself allocated in this scope: then the room stays unused
    /// until the scope ends).
    ///
    /// Room for a `Result<T, E>` is reserved and `f`'s result written there, so a large
    /// value can be built without a copy on the stack; on success the `Result`'s bytes
    /// beyond `T` stay unused.
    ///
    /// # Errors
    ///
    /// `f`'s error.
    ///
    /// # Panics
    ///
    /// If a limit is reached (before `f` is called), or `f` panics (the room is given
    /// back then too).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let port: &mut u16 = scope.alloc_try_with(|| "8080".parse::<u16>()).unwrap();
    /// assert_eq!(*port, 8080);
    ///
    /// let used = scope.stats().allocated_bytes;
    /// assert!(scope.alloc_try_with(|| "eighty".parse::<u16>()).is_err());
    /// assert_eq!(scope.stats().allocated_bytes, used); // nothing left allocated
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_try_with<T: 'p, E, F: FnOnce() -> Result<T, E>>(&self, f: F) -> Result<&mut T, E> {
        match self.try_alloc_try_with(f) {
            Ok(value) => Ok(value),
            Err(AllocOrInitError::Init(e)) => Err(e),
            Err(AllocOrInitError::Alloc(e)) => fail(e.error()),
        }
    }

    /// Like [`alloc_try_with`](Self::alloc_try_with), but hands the closure back,
    /// uncalled, if there is no room.
    ///
    /// # Errors
    ///
    /// [`AllocOrInitError::Alloc`] (with `f`) as [`try_alloc`](Self::try_alloc), or
    /// [`AllocOrInitError::Init`] with `f`'s error (the room is given back then).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::AllocOrInitError;
    ///
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// match scope.try_alloc_try_with(|| "x".parse::<u8>()) {
    ///     Err(AllocOrInitError::Init(e)) => assert_eq!(e.to_string(), "invalid digit found in string"),
    ///     _ => unreachable!(),
    /// }
    /// scope.set_limit(Some(0));
    /// let f = match scope.try_alloc_try_with(|| "7".parse::<u8>()) {
    ///     Err(AllocOrInitError::Alloc(e)) => e.into_value(),
    ///     _ => unreachable!("no block may be taken"),
    /// };
    /// assert_eq!(f(), Ok(7)); // handed back, uncalled
    /// ```
    pub fn try_alloc_try_with<T: 'p, E, F: FnOnce() -> Result<T, E>>(
        &self,
        f: F,
    ) -> Result<&mut T, AllocOrInitError<E, F>> {
        /// Gives the room back if `f` panics.
        struct GiveBack<'a, 'p, R> {
            scope: &'a Scope<'p>,
            slot: Reserved<R>,
        }
        impl<R> Drop for GiveBack<'_, '_, R> {
            fn drop(&mut self) {
                // SAFETY: `f` panicked before anything was written to the slot.
                unsafe { self.scope.give_back(self.slot) };
            }
        }

        // The node, if any, drops the `T` inside the `Result`; `E` is moved out on error.
        let slot = match self.reserve_as::<Result<T, E>>(needs_drop::<T>()) {
            Ok(slot) => slot,
            Err(e) => return Err(AllocOrInitError::Alloc(TryAllocError::new(e, f))),
        };
        let guard = GiveBack { scope: self, slot };
        // SAFETY: S3: the slot is fresh memory for one `Result<T, E>`, aligned, owned by
        // this scope.
        unsafe { slot.data.write(f()) };
        mem::forget(guard);
        // SAFETY: initialised just above; nothing else refers to the slot.
        if let Ok(value) = unsafe { &mut *slot.data.as_ptr() } {
            let value = NonNull::from(value);
            if let Some(node) = slot.node {
                // SAFETY: S4: the node lives in this scope's blocks; the value is
                // initialised and only reachable through the `&mut` returned below.
                unsafe { self.drops.push(node, DropNode::drop_slice(value, 1)) };
            }
            // SAFETY: initialised, borrowed from `self` (S2, S3).
            return Ok(unsafe { &mut *value.as_ptr() });
        }
        // SAFETY: the `Result` (an error) is read out once and its slot never used again.
        let Err(e) = (unsafe { slot.data.read() }) else {
            unreachable!("the result was just matched as an error")
        };
        // SAFETY: the slot's only content was moved out just above.
        unsafe { self.give_back(slot) };
        Err(AllocOrInitError::Init(e))
    }

    /// Moves a `Copy` value into the scope. `Copy` values have no destructor, so they may
    /// borrow other values of this scope: the way to build linked structures.
    ///
    /// # Panics
    ///
    /// If a limit is reached.
    ///
    /// # Examples
    ///
    /// ```
    /// #[derive(Clone, Copy)]
    /// struct Tree<'a> { left: Option<&'a Tree<'a>>, right: Option<&'a Tree<'a>> }
    ///
    /// fn check(t: &Tree<'_>) -> usize {
    ///     1 + t.left.map_or(0, check) + t.right.map_or(0, check)
    /// }
    ///
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let leaf = scope.alloc_copy(Tree { left: None, right: None });
    /// let root = scope.alloc_copy(Tree { left: Some(leaf), right: Some(leaf) });
    /// assert_eq!(check(root), 3);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn alloc_copy<T: Copy>(&self, value: T) -> &mut T {
        // A `Copy` type has no drop glue.
        match self.place(value) {
            Ok(value) => value,
            Err((e, _)) => fail(e),
        }
    }

    /// Like [`alloc_copy`](Self::alloc_copy), but hands `value` back if there is no room.
    ///
    /// # Errors
    ///
    /// As [`try_alloc`](Self::try_alloc).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// assert_eq!(*scope.try_alloc_copy(1.5_f64).unwrap(), 1.5);
    /// ```
    #[inline]
    pub fn try_alloc_copy<T: Copy>(&self, value: T) -> Result<&mut T, TryAllocError<T>> {
        // A `Copy` type has no drop glue.
        self.place(value).map_err(|(e, value)| TryAllocError::new(e, value))
    }

    /// Moves a value without drop glue into the scope: checked at compile time, as
    /// rustc's `DroplessArena` does. Nothing will run when the scope ends, so the value
    /// may borrow other values of this scope, like [`alloc_copy`](Self::alloc_copy), but
    /// it need not be `Copy`: the way to build linked nodes that hold `Cell`s of
    /// references to each other (a typed-arena-style DOM, a graph with back edges).
    ///
    /// A type with drop glue (a `String`, a `Vec`, anything with a `Drop` impl inside) is
    /// a compile error where this is called (E0080, "a type with drop glue"): keep such
    /// data outside the nodes (in a pool, named by keys) or use [`alloc`](Self::alloc).
    ///
    /// # Panics
    ///
    /// If a limit is reached.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::cell::Cell;
    ///
    /// struct Node<'a> {
    ///     name: &'a str,
    ///     parent: Cell<Option<&'a Node<'a>>>,
    ///     first_child: Cell<Option<&'a Node<'a>>>,
    /// }
    ///
    /// fn child<'a>(scope: &'a arena_kit::Scope<'_>, parent: &'a Node<'a>, name: &str) -> &'a Node<'a> {
    ///     let name = scope.alloc_str(name);
    ///     let node = scope.alloc_dropless(Node {
    ///         name,
    ///         parent: Cell::new(Some(parent)),
    ///         first_child: Cell::new(None),
    ///     });
    ///     parent.first_child.set(Some(node));
    ///     node
    /// }
    ///
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let root = scope.alloc_dropless(Node {
    ///     name: "html",
    ///     parent: Cell::new(None),
    ///     first_child: Cell::new(None),
    /// });
    /// let body = child(&scope, root, "body");
    /// assert_eq!(body.parent.get().unwrap().name, "html");
    /// assert_eq!(root.first_child.get().unwrap().name, "body");
    /// ```
    ///
    /// A value whose destructor would have to run does not compile:
    ///
    /// ```compile_fail,E0080
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// scope.alloc_dropless(String::from("needs a destructor"));
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn alloc_dropless<T>(&self, value: T) -> &mut T {
        const { assert!(!needs_drop::<T>(), "alloc_dropless: a type with drop glue") };
        match self.place(value) {
            Ok(value) => value,
            Err((e, _)) => fail(e),
        }
    }

    /// Like [`alloc_dropless`](Self::alloc_dropless), but hands `value` back if there is
    /// no room.
    ///
    /// # Errors
    ///
    /// As [`try_alloc`](Self::try_alloc).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let cell = scope.try_alloc_dropless(core::cell::Cell::new(1)).unwrap();
    /// cell.set(2);
    /// assert_eq!(cell.get(), 2);
    /// ```
    #[inline]
    pub fn try_alloc_dropless<T>(&self, value: T) -> Result<&mut T, TryAllocError<T>> {
        const { assert!(!needs_drop::<T>(), "try_alloc_dropless: a type with drop glue") };
        self.place(value).map_err(|(e, value)| TryAllocError::new(e, value))
    }

    // ----- slices and strings ---------------------------------------------------------

    /// Copies a slice into the scope.
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
    /// let s = scope.alloc_slice_copy(&[1, 2, 3]);
    /// s[0] = 10;
    /// assert_eq!(s, &[10, 2, 3]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_slice_copy<T: Copy>(&self, src: &[T]) -> &mut [T] {
        self.try_alloc_slice_copy(src).unwrap_or_else(|e| fail(e))
    }

    /// Like [`alloc_slice_copy`](Self::alloc_slice_copy), returning an error instead of
    /// panicking.
    ///
    /// # Errors
    ///
    /// [`AllocError::SizeOverflow`], [`AllocError::LimitReached`],
    /// [`AllocError::LayoutTooLarge`] or [`AllocError::OutOfMemory`].
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// assert_eq!(scope.try_alloc_slice_copy(b"abc").unwrap(), b"abc");
    /// ```
    #[inline]
    pub fn try_alloc_slice_copy<T: Copy>(&self, src: &[T]) -> Result<&mut [T], AllocError> {
        let slot = self.reserve_slice::<T>(src.len())?;
        // SAFETY: the slot holds `src.len()` values of `T` and is fresh (S3), so it cannot
        // overlap `src`.
        unsafe { ptr::copy_nonoverlapping(src.as_ptr(), slot.data.as_ptr(), src.len()) };
        // SAFETY: initialised just above, owned by the scope and handed out once (S3);
        // `T: Copy` needs no drop node.
        Ok(unsafe { core::slice::from_raw_parts_mut(slot.data.as_ptr(), src.len()) })
    }

    /// A slice of `len` copies of `value`.
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
    /// assert_eq!(scope.alloc_slice_fill_copy(3, 'x'), &['x', 'x', 'x']);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_slice_fill_copy<T: Copy>(&self, len: usize, value: T) -> &mut [T] {
        self.try_alloc_slice_fill_copy(len, value).unwrap_or_else(|e| fail(e))
    }

    /// Like [`alloc_slice_fill_copy`](Self::alloc_slice_fill_copy), returning an error.
    ///
    /// # Errors
    ///
    /// As [`try_alloc_slice_copy`](Self::try_alloc_slice_copy).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// assert!(scope.try_alloc_slice_fill_copy(usize::MAX, 0_u32).is_err());
    /// ```
    #[inline]
    pub fn try_alloc_slice_fill_copy<T: Copy>(
        &self,
        len: usize,
        value: T,
    ) -> Result<&mut [T], AllocError> {
        let slot = self.reserve_slice::<T>(len)?;
        // SAFETY: a fresh slot of `len` values from `reserve_slice`, used once.
        Ok(unsafe { self.fill_slice(slot, len, |_| Some(value)) })
    }

    /// Clones every element of `src` into the scope. If a `clone` panics, the clones made
    /// so far are dropped.
    ///
    /// # Panics
    ///
    /// If the size overflows, a limit is reached, or `T::clone` panics.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let names = scope.alloc_slice_clone(&[String::from("a"), String::from("b")]);
    /// names[1].push('!');
    /// assert_eq!(names, &["a", "b!"]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_slice_clone<T: Clone + 'p>(&self, src: &[T]) -> &mut [T] {
        self.try_alloc_slice_clone(src).unwrap_or_else(|e| fail(e))
    }

    /// Like [`alloc_slice_clone`](Self::alloc_slice_clone), returning an error.
    ///
    /// # Errors
    ///
    /// As [`try_alloc_slice_copy`](Self::try_alloc_slice_copy); nothing is cloned then.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// assert_eq!(scope.try_alloc_slice_clone(&[vec![1]]).unwrap()[0], [1]);
    /// ```
    #[inline]
    pub fn try_alloc_slice_clone<T: Clone + 'p>(&self, src: &[T]) -> Result<&mut [T], AllocError> {
        let slot = self.reserve_slice::<T>(src.len())?;
        // SAFETY: a fresh slot of `src.len()` values from `reserve_slice`, used once.
        Ok(unsafe { self.fill_slice(slot, src.len(), |i| Some(src[i].clone())) })
    }

    /// A slice of `len` clones of `value`. If a `clone` panics, the clones made so far
    /// are dropped.
    ///
    /// # Panics
    ///
    /// If the size overflows, a limit is reached, or `T::clone` panics.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let rows = scope.alloc_slice_fill_clone(3, &vec![0_u8; 4]);
    /// rows[1][0] = 9;
    /// assert_eq!(rows, &[vec![0; 4], vec![9, 0, 0, 0], vec![0; 4]]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_slice_fill_clone<T: Clone + 'p>(&self, len: usize, value: &T) -> &mut [T] {
        self.try_alloc_slice_fill_clone(len, value).unwrap_or_else(|e| fail(e))
    }

    /// Like [`alloc_slice_fill_clone`](Self::alloc_slice_fill_clone), returning an error.
    ///
    /// # Errors
    ///
    /// As [`try_alloc_slice_copy`](Self::try_alloc_slice_copy); nothing is cloned then.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// assert!(scope.try_alloc_slice_fill_clone(usize::MAX, &String::new()).is_err());
    /// ```
    #[inline]
    pub fn try_alloc_slice_fill_clone<T: Clone + 'p>(
        &self,
        len: usize,
        value: &T,
    ) -> Result<&mut [T], AllocError> {
        let slot = self.reserve_slice::<T>(len)?;
        // SAFETY: a fresh slot of `len` values from `reserve_slice`, used once.
        Ok(unsafe { self.fill_slice(slot, len, |_| Some(value.clone())) })
    }

    /// A slice of `len` default values.
    ///
    /// # Panics
    ///
    /// If the size overflows, a limit is reached, or `T::default` panics (the values made
    /// so far are dropped).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let names = scope.alloc_slice_fill_default::<String>(2);
    /// names[0].push_str("first");
    /// assert_eq!(names, &["first", ""]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_slice_fill_default<T: Default + 'p>(&self, len: usize) -> &mut [T] {
        self.try_alloc_slice_fill_default(len).unwrap_or_else(|e| fail(e))
    }

    /// Like [`alloc_slice_fill_default`](Self::alloc_slice_fill_default), returning an
    /// error.
    ///
    /// # Errors
    ///
    /// As [`try_alloc_slice_copy`](Self::try_alloc_slice_copy).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// assert_eq!(scope.try_alloc_slice_fill_default::<u8>(3).unwrap(), &[0, 0, 0]);
    /// ```
    #[inline]
    pub fn try_alloc_slice_fill_default<T: Default + 'p>(
        &self,
        len: usize,
    ) -> Result<&mut [T], AllocError> {
        let slot = self.reserve_slice::<T>(len)?;
        // SAFETY: a fresh slot of `len` values from `reserve_slice`, used once.
        Ok(unsafe { self.fill_slice(slot, len, |_| Some(T::default())) })
    }

    /// A slice of `len` values, the `i`-th built by `f(i)`. If `f` panics, the values
    /// built so far are dropped.
    ///
    /// # Panics
    ///
    /// If the size overflows, a limit is reached, or `f` panics.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let labels = scope.alloc_slice_fill_with(3, |i| format!("#{i}"));
    /// assert_eq!(labels, &["#0", "#1", "#2"]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_slice_fill_with<T: 'p, F: FnMut(usize) -> T>(&self, len: usize, f: F) -> &mut [T] {
        self.try_alloc_slice_fill_with(len, f).unwrap_or_else(|e| fail(e.error()))
    }

    /// Like [`alloc_slice_fill_with`](Self::alloc_slice_fill_with), but hands the closure
    /// back, uncalled, if there is no room.
    ///
    /// # Errors
    ///
    /// As [`try_alloc_slice_copy`](Self::try_alloc_slice_copy), with `f` inside the
    /// [`TryAllocError`].
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let err = scope.try_alloc_slice_fill_with(usize::MAX, |i| i).unwrap_err();
    /// assert_eq!(err.error(), arena_kit::AllocError::SizeOverflow);
    /// ```
    #[inline]
    pub fn try_alloc_slice_fill_with<T: 'p, F: FnMut(usize) -> T>(
        &self,
        len: usize,
        mut f: F,
    ) -> Result<&mut [T], TryAllocError<F>> {
        match self.reserve_slice::<T>(len) {
            // SAFETY: a fresh slot of `len` values from `reserve_slice`, used once.
            Ok(slot) => Ok(unsafe { self.fill_slice(slot, len, |i| Some(f(i))) }),
            Err(e) => Err(TryAllocError::new(e, f)),
        }
    }

    /// A slice of `len` values built by `f(i)`, which may fail (bumpalo's
    /// `alloc_slice_try_fill_with`): at the first error the values built so far are
    /// dropped, the room is given back (unless `f` allocated in this scope meanwhile), and
    /// the error comes back.
    ///
    /// # Errors
    ///
    /// `f`'s first error.
    ///
    /// # Panics
    ///
    /// If the size overflows or a limit is reached (before `f` is called), or `f` panics
    /// (cleaned up as for an error).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let words = ["1", "2", "3"];
    /// let ok = scope.alloc_slice_try_fill_with(3, |i| words[i].parse::<u32>()).unwrap();
    /// assert_eq!(ok, &[1, 2, 3]);
    ///
    /// let used = scope.stats().allocated_bytes;
    /// let bad = ["1", "two"];
    /// assert!(scope.alloc_slice_try_fill_with(2, |i| bad[i].parse::<u32>()).is_err());
    /// assert_eq!(scope.stats().allocated_bytes, used);
    /// ```
    #[track_caller]
    pub fn alloc_slice_try_fill_with<T: 'p, E>(
        &self,
        len: usize,
        mut f: impl FnMut(usize) -> Result<T, E>,
    ) -> Result<&mut [T], E> {
        let slot = self.reserve_slice::<T>(len).unwrap_or_else(|e| fail(e));
        // SAFETY: a fresh slot of `len` values from `reserve_slice`, used once.
        unsafe { self.try_fill_slice(slot, len, |i| Some(f(i))) }
    }

    /// Collects an iterator of `Result`s that knows its length into a slice, stopping at
    /// the first error (bumpalo's `alloc_slice_try_fill_iter`), cleaned up as in
    /// [`alloc_slice_try_fill_with`](Self::alloc_slice_try_fill_with).
    ///
    /// # Errors
    ///
    /// The iterator's first error.
    ///
    /// # Panics
    ///
    /// If the size overflows or a limit is reached, or the iterator panics.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let parsed = scope.alloc_slice_try_fill_iter(["4", "2"].map(str::parse::<u8>));
    /// assert_eq!(parsed.unwrap(), &[4, 2]);
    /// assert!(scope.alloc_slice_try_fill_iter(["4", "x"].map(str::parse::<u8>)).is_err());
    /// ```
    #[track_caller]
    pub fn alloc_slice_try_fill_iter<T: 'p, E, I>(&self, iter: I) -> Result<&mut [T], E>
    where
        I: IntoIterator<Item = Result<T, E>>,
        I::IntoIter: ExactSizeIterator,
    {
        let mut iter = iter.into_iter();
        let len = iter.len();
        let slot = self.reserve_slice::<T>(len).unwrap_or_else(|e| fail(e));
        // SAFETY: a fresh slot of `len` values from `reserve_slice`, used once.
        unsafe { self.try_fill_slice(slot, len, |_| iter.next()) }
    }

    /// Collects an iterator into a slice in the scope.
    ///
    /// When the iterator reports an exact size the values go straight into the scope;
    /// otherwise they are gathered in a vector at the scope's tip, which grows in place
    /// and becomes the slice (no heap, no copy while the tip can grow). An iterator
    /// that ends before its reported size gives a shorter slice; items past it are left
    /// unconsumed.
    ///
    /// # Panics
    ///
    /// If a limit is reached or the iterator panics (values taken so far are dropped).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let evens = scope.alloc_from_iter((0..10).filter(|n| n % 2 == 0));
    /// assert_eq!(evens, &[0, 2, 4, 6, 8]);
    /// ```
    #[track_caller]
    pub fn alloc_from_iter<T: 'p, I: IntoIterator<Item = T>>(&self, iter: I) -> &mut [T] {
        let mut iter = iter.into_iter();
        match iter.size_hint() {
            (lo, Some(hi)) if lo == hi => {
                let slot = self.reserve_slice::<T>(lo).unwrap_or_else(|e| fail(e));
                // SAFETY: a fresh slot of `lo` values from `reserve_slice`, used once.
                unsafe { self.fill_slice(slot, lo, |_| iter.next()) }
            }
            (lo, _) => {
                // Gathered at the scope's tip (bump-scope's `alloc_iter`), growing in
                // place; the vector's buffer then becomes the slice. No heap, no copy.
                let mut gathered = crate::ArenaVec::with_capacity_in(lo, self);
                gathered.extend(iter);
                self.alloc_vec(gathered)
            }
        }
    }

    /// Like [`alloc_from_iter`](Self::alloc_from_iter) for iterators that know their
    /// length, handing the iterator back, untouched, if there is no room.
    ///
    /// # Errors
    ///
    /// As [`try_alloc_slice_copy`](Self::try_alloc_slice_copy), with the iterator inside
    /// the [`TryAllocError`].
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let words = scope.try_alloc_from_iter(["a", "b"].map(String::from)).unwrap();
    /// assert_eq!(words.len(), 2);
    /// ```
    pub fn try_alloc_from_iter<T: 'p, I>(
        &self,
        iter: I,
    ) -> Result<&mut [T], TryAllocError<I::IntoIter>>
    where
        I: IntoIterator<Item = T>,
        I::IntoIter: ExactSizeIterator,
    {
        let mut iter = iter.into_iter();
        let len = iter.len();
        match self.reserve_slice::<T>(len) {
            // SAFETY: a fresh slot of `len` values from `reserve_slice`, used once.
            Ok(slot) => Ok(unsafe { self.fill_slice(slot, len, |_| iter.next()) }),
            Err(e) => Err(TryAllocError::new(e, iter)),
        }
    }

    /// Copies a string into the scope.
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
    /// let s = scope.alloc_str("arena");
    /// s.make_ascii_uppercase();
    /// assert_eq!(s, "ARENA");
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_str(&self, s: &str) -> &mut str {
        self.try_alloc_str(s).unwrap_or_else(|e| fail(e))
    }

    /// Like [`alloc_str`](Self::alloc_str), returning an error.
    ///
    /// # Errors
    ///
    /// As [`try_alloc_slice_copy`](Self::try_alloc_slice_copy).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// assert_eq!(scope.try_alloc_str("").unwrap(), "");
    /// ```
    #[inline]
    pub fn try_alloc_str(&self, s: &str) -> Result<&mut str, AllocError> {
        let bytes = self.try_alloc_slice_copy(s.as_bytes())?;
        // SAFETY: the bytes were copied from a `str`, so they are valid UTF-8.
        Ok(unsafe { core::str::from_utf8_unchecked_mut(bytes) })
    }

    /// Raw memory for `layout`, valid (and never reused) until the scope ends.
    ///
    /// The bytes are uninitialised and nothing is dropped: this is the building block for
    /// collections and the `Allocator` trait. Zero-sized layouts get a dangling,
    /// well-aligned pointer.
    ///
    /// # Panics
    ///
    /// If a limit is reached or the layout is too large with the block header.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let p = scope.alloc_layout(Layout::from_size_align(100, 4096).unwrap());
    /// assert_eq!(p.as_ptr() as usize % 4096, 0);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_layout(&self, layout: Layout) -> NonNull<u8> {
        self.bump.alloc(layout.pad_to_align()).unwrap_or_else(|e| fail(e))
    }

    /// Like [`alloc_layout`](Self::alloc_layout), returning an error.
    ///
    /// # Errors
    ///
    /// [`AllocError::LimitReached`], [`AllocError::LayoutTooLarge`] or
    /// [`AllocError::OutOfMemory`].
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let huge = Layout::from_size_align(isize::MAX as usize - 15, 16).unwrap();
    /// assert!(scope.try_alloc_layout(huge).is_err());
    /// ```
    #[inline]
    pub fn try_alloc_layout(&self, layout: Layout) -> Result<NonNull<u8>, AllocError> {
        self.bump.alloc(layout.pad_to_align())
    }
}
