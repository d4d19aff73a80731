//! The destructor chain: what a scope must run when it ends, newest first.
//!
//! STD_NEW in seed 000 links a destructor record in front of every object that has one;
//! APR pools keep a cleanup list. Both are this: a singly linked list of [`DropNode`]s,
//! allocated in the scope itself next to the values they describe, pushed when a value is
//! fully built and popped (newest first) when the scope ends. A node either drops a run of
//! `len` values of one type in place or calls an `on_exit` closure, so destructors and
//! cleanup callbacks interleave in one LIFO order.
//!
//! Types without drop glue never get a node (`core::mem::needs_drop`), so an arena of
//! `i32`s pays nothing here.
//!
//! Panic safety: [`DropList::run_all`] pops a node before running it, and if the node
//! panics a guard keeps running the rest while the panic unwinds. Every node runs exactly
//! once; a second panic while unwinding aborts, as it would for a `Vec`'s elements.
//!
//! # Invariant
//!
//! **(D1)** A node in the chain describes values (or a closure) that are initialised and
//! used by nothing but the node from the moment it runs, and lives in memory that stays
//! allocated until `run_all` returns. `push` (`unsafe`) is where a scope vouches for
//! both (its S4); a node is unlinked before it runs, so it runs at most once.

use core::cell::Cell;
use core::mem;
use core::ptr::{self, NonNull};

/// One entry of the chain. Lives in the scope's blocks, so it stays valid until the
/// blocks are released, which happens after the chain has run.
pub(super) struct DropNode {
    prev: Option<NonNull<DropNode>>,
    run: unsafe fn(NonNull<u8>, usize),
    data: NonNull<u8>,
    len: usize,
}

impl DropNode {
    /// A node that drops `len` values of type `T` starting at `data`.
    pub(super) fn drop_slice<T>(data: NonNull<T>, len: usize) -> Self {
        DropNode { prev: None, run: drop_slice_in_place::<T>, data: data.cast(), len }
    }

    /// A node that moves the closure at `data` out and calls it.
    pub(super) fn call_once<F: FnOnce()>(data: NonNull<F>) -> Self {
        DropNode { prev: None, run: call_in_place::<F>, data: data.cast(), len: 1 }
    }
}

/// # Safety
///
/// `data` points to `len` initialised values of `T` that nothing uses afterwards.
unsafe fn drop_slice_in_place<T>(data: NonNull<u8>, len: usize) {
    let slice = ptr::slice_from_raw_parts_mut(data.as_ptr().cast::<T>(), len);
    // SAFETY: the caller guarantees `len` initialised, otherwise unused `T`s at `data`.
    unsafe { ptr::drop_in_place(slice) };
}

/// # Safety
///
/// `data` points to an initialised `F` that nothing uses afterwards.
unsafe fn call_in_place<F: FnOnce()>(data: NonNull<u8>, _len: usize) {
    // SAFETY: the caller guarantees an initialised `F` that is read exactly once here;
    // the bytes left behind are never read again.
    let f = unsafe { data.cast::<F>().read() };
    f();
}

/// A drop chain's front node when [`DropList::mark`] was called: what
/// [`DropList::run_until`] runs back to.
#[derive(Clone, Copy)]
pub(super) struct DropMark(Option<NonNull<DropNode>>);

impl DropMark {
    /// The mark of an empty chain: running back to it runs every node.
    pub(super) const EMPTY: DropMark = DropMark(None);
}

/// The head of a scope's chain.
pub(super) struct DropList {
    head: Cell<Option<NonNull<DropNode>>>,
}

impl DropList {
    pub(super) const fn new() -> Self {
        DropList { head: Cell::new(None) }
    }

    /// Whether no node is linked (nothing to run).
    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.head.get().is_none()
    }

    /// Writes `node` to `slot` and links it at the front of the chain.
    ///
    /// # Safety
    ///
    /// - `slot` is valid for writing a `DropNode` and stays valid until `run_all` returns;
    /// - the node's data is initialised and stays untouched by anything but the node
    ///   (the scope hands out only references that cannot outlive it).
    #[inline]
    pub(super) unsafe fn push(&self, slot: NonNull<DropNode>, mut node: DropNode) {
        node.prev = self.head.get();
        // SAFETY: the caller guarantees `slot` is valid for writes.
        unsafe { slot.write(node) };
        self.head.set(Some(slot));
    }

    /// The chain as it is now, for [`run_until`](Self::run_until): its front node.
    #[inline]
    pub(super) fn mark(&self) -> DropMark {
        DropMark(self.head.get())
    }

    /// Whether no node was pushed since `mark` was taken (nothing to run back to it).
    #[inline]
    pub(super) fn is_at(&self, mark: DropMark) -> bool {
        // As raw pointers: one compare (`Option`'s `==` branches on each side's variant).
        let as_ptr =
            |node: Option<NonNull<DropNode>>| node.map_or(ptr::null_mut(), NonNull::as_ptr);
        as_ptr(self.head.get()) == as_ptr(mark.0)
    }

    /// Runs every node, newest first, and leaves the chain empty.
    ///
    /// # Safety
    ///
    /// Every pushed node's data is still initialised and no reference to it is used again
    /// (the scope is ending), and the nodes' memory is still allocated.
    #[inline]
    pub(super) unsafe fn run_all(&self) {
        // SAFETY: forwarded from the caller, for every node.
        unsafe { self.run_until(DropMark::EMPTY) };
    }

    /// Runs the nodes pushed since `mark` was taken, newest first, and leaves the chain as
    /// it was then.
    ///
    /// # Safety
    ///
    /// `mark` came from [`mark`](Self::mark) of this chain, and the nodes linked then are
    /// all still linked (nothing ran them since). Every node pushed after it has its data
    /// still initialised, no reference to that data is used again, and the nodes' memory
    /// is still allocated.
    pub(super) unsafe fn run_until(&self, mark: DropMark) {
        /// Keeps going if a node panics.
        struct Continue<'a>(&'a DropList, DropMark);
        impl Drop for Continue<'_> {
            fn drop(&mut self) {
                // SAFETY: same obligations as the enclosing `run_until`, which the caller
                // met; the node that panicked was already popped, so it never runs twice.
                unsafe { self.0.run_until(self.1) };
            }
        }

        while let Some(node) = self.head.get() {
            if Some(node) == mark.0 {
                return;
            }
            // SAFETY: pushed nodes stay allocated until the chain has run (caller).
            let DropNode { prev, run, data, len } = unsafe { node.read() };
            self.head.set(prev);
            let guard = Continue(self, mark);
            // SAFETY: the node describes initialised data that nothing else uses now, and
            // it was unlinked above, so it runs exactly once.
            unsafe { run(data, len) };
            mem::forget(guard);
        }
    }
}
