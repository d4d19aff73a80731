//! [`AtomicPool`]: a lock-free pool of `N` boxes in a `static`, for interrupt handlers
//! and several cores, with no allocator.
//!
//! What `atomic-pool` and heapless's pools give firmware: a `static` holding room for `N`
//! values, from which any thread or interrupt handler takes a box and to which dropping
//! the box gives the room back, without a lock (an interrupt handler cannot wait for a
//! lock its own core holds). Here the box borrows the pool, so it cannot outlive it.
//!
//! # Design
//!
//! - `values`: `N` cells, each holding a value while a box owns its index.
//! - A free list of indices threaded through `next` (a Treiber stack), whose head is one
//!   atomic word: the top index plus one (zero for empty) in its low bits, and a *tag* in
//!   its high bits that every change of the head increments. A thread that read the head,
//!   was preempted while others popped and pushed the same index back, and then tries its
//!   compare-and-swap, finds the tag changed and retries (the ABA problem). The word is 64
//!   bits where the target has 64-bit atomics (32-bit index, 32-bit tag), else 32 bits
//!   (16 and 16, so `N` is at most 65 534 there, and the ABA guard wraps after 65 536
//!   changes of the head during one preempted pop).
//! - `fresh`: slots never handed out, taken in order by a compare-and-swap loop, so a
//!   new pool needs no initialisation of its list and `new` is `const`.
//!
//! # Invariants
//!
//! - **(A1) An index is owned by at most one of**: the free list, one [`AtomicBox`], or
//!   nobody yet (at or above `fresh`). Popping (a successful compare-and-swap of the head
//!   past it) or taking it fresh moves it to the box; the box's drop pushes it back.
//! - **(A2) `values[i]` holds a value exactly while a box owns `i`**: the box writes it
//!   before it exists and drops it before it pushes `i`. The push's `Release` and the
//!   pop's `Acquire` order one owner's accesses before the next owner's.

use core::cell::UnsafeCell;
use core::fmt;
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::ops::{Deref, DerefMut};

#[cfg(not(loom))]
use core::sync::atomic::{AtomicU32, Ordering};
#[cfg(loom)]
use loom::sync::atomic::{AtomicU32, Ordering};

#[cfg(not(target_has_atomic = "64"))]
use AtomicU32 as HeadAtomic;
#[cfg(all(target_has_atomic = "64", not(loom)))]
use core::sync::atomic::AtomicU64 as HeadAtomic;
#[cfg(all(target_has_atomic = "64", loom))]
use loom::sync::atomic::AtomicU64 as HeadAtomic;

/// The head word: a link (index + 1, or 0) and a tag.
#[cfg(target_has_atomic = "64")]
type Word = u64;
#[cfg(not(target_has_atomic = "64"))]
type Word = u32;

/// Bits of the head word that hold the link.
const LINK_BITS: u32 = Word::BITS / 2;
/// The link's bits.
const LINK_MASK: Word = (1 << LINK_BITS) - 1;
/// Most slots: every index plus one fits the link, with zero left for "none".
const MAX_SLOTS: usize = if LINK_BITS < usize::BITS { (1 << LINK_BITS) - 2 } else { usize::MAX };

/// A lock-free pool of room for `N` values of `T`, which any thread or interrupt handler
/// can take a box from through `&self`; see the module docs.
///
/// A `static` of it needs no allocator and no initialisation at run time
/// ([`new`](Self::new) is `const`). [`try_alloc`](Self::try_alloc) moves a value into a
/// free slot and returns an [`AtomicBox`] that owns it; dropping the box drops the value
/// and frees the slot. Boxes borrow the pool, so none outlives it.
///
/// # Cost
///
/// `N` slots of `T` and `N` 4-byte links, plus two words. Taking and giving back a slot
/// is a compare-and-swap each (retried when another thread changed the list meanwhile),
/// never a lock: a handler that preempts a thread in the middle of either still finishes.
///
/// # Examples
///
/// ```
/// use arena_kit::pool::AtomicPool;
///
/// static FRAMES: AtomicPool<[u8; 64], 4> = AtomicPool::new();
///
/// let frame = FRAMES.try_alloc([0; 64]).unwrap();
/// let received = std::thread::spawn(move || frame[0] == 0).join().unwrap(); // boxes are `Send`
/// assert!(received);
/// let all: Vec<_> = (0..4).map(|_| FRAMES.try_alloc([1; 64]).unwrap()).collect();
/// assert_eq!(FRAMES.try_alloc([2; 64]).unwrap_err(), [2; 64]); // full: the value back
/// drop(all);
/// assert!(FRAMES.try_alloc([3; 64]).is_ok());
/// ```
pub struct AtomicPool<T, const N: usize> {
    /// The free list's head (A1).
    head: HeadAtomic,
    /// Slots below this were handed out at least once; the rest never were.
    fresh: AtomicU32,
    /// Each free slot's link to the next (index + 1, or 0), in the free list.
    next: [AtomicU32; N],
    /// The values (A2).
    values: [UnsafeCell<MaybeUninit<T>>; N],
}

// SAFETY: the pool hands each value to one box at a time (A1), and the box may move to
// another thread when `T: Send`; sharing `&AtomicPool` lets any thread take and give back
// slots, which the atomics order (A2). So `T: Send` is all sharing needs, as for a
// channel.
unsafe impl<T: Send, const N: usize> Sync for AtomicPool<T, N> {}

/// A value in an [`AtomicPool`]'s slot, owned: derefs to the value, and gives the slot
/// back when dropped. `Send` and `Sync` as the value is.
pub struct AtomicBox<'p, T, const N: usize> {
    pool: &'p AtomicPool<T, N>,
    index: u32,
    /// Owns a `T` (for dropck and the auto traits).
    value: PhantomData<T>,
}

impl<T, const N: usize> AtomicPool<T, N> {
    /// `N` must fit the head word's link.
    const FITS: () = assert!(N <= MAX_SLOTS, "too many slots for this target's atomic pool");

    /// An empty pool with room for `N` values; `const`, for a `static`.
    ///
    /// # Examples
    ///
    /// ```
    /// static POOL: arena_kit::pool::AtomicPool<u32, 8> = arena_kit::pool::AtomicPool::new();
    /// assert_eq!(POOL.capacity(), 8);
    /// ```
    #[cfg(not(loom))]
    #[must_use]
    pub const fn new() -> Self {
        let () = Self::FITS;
        AtomicPool {
            head: HeadAtomic::new(0),
            fresh: AtomicU32::new(0),
            next: [const { AtomicU32::new(0) }; N],
            values: [const { UnsafeCell::new(MaybeUninit::uninit()) }; N],
        }
    }

    /// An empty pool (loom's atomics are not `const`).
    #[cfg(loom)]
    #[must_use]
    pub fn new() -> Self {
        let () = Self::FITS;
        AtomicPool {
            head: HeadAtomic::new(0),
            fresh: AtomicU32::new(0),
            next: core::array::from_fn(|_| AtomicU32::new(0)),
            values: core::array::from_fn(|_| UnsafeCell::new(MaybeUninit::uninit())),
        }
    }

    /// `N`: the values the pool holds at once.
    #[must_use]
    pub const fn capacity(&self) -> usize {
        N
    }

    /// Moves `value` into a free slot and returns its box, or hands `value` back if every
    /// slot is taken. Lock-free: safe to call from an interrupt handler.
    ///
    /// # Errors
    ///
    /// `Err(value)` when the pool is full.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::pool::AtomicPool::<String, 1>::new();
    /// let a = pool.try_alloc("a".to_owned()).unwrap();
    /// assert_eq!(pool.try_alloc("b".to_owned()).unwrap_err(), "b");
    /// assert_eq!(*a, "a");
    /// ```
    pub fn try_alloc(&self, value: T) -> Result<AtomicBox<'_, T, N>, T> {
        let Some(index) = self.pop().or_else(|| self.take_fresh()) else {
            return Err(value);
        };
        // SAFETY: A1: `index` is this call's alone now (popped or fresh), so its cell is
        // empty (A2) and nothing else touches it.
        unsafe { (*self.values[index as usize].get()).write(value) };
        Ok(AtomicBox { pool: self, index, value: PhantomData })
    }

    /// Pops the free list's top index.
    fn pop(&self) -> Option<u32> {
        let mut head = self.head.load(Ordering::Acquire);
        loop {
            let link = head & LINK_MASK;
            // The link is an index below `N` plus one, which fits a `u32`.
            let index = u32::try_from(link.checked_sub(1)?).ok()?;
            // Read before the swap; used only if the head (tag included) is unchanged,
            // and then it is the link the pusher stored before its `Release` swap.
            let next = Word::from(self.next[index as usize].load(Ordering::Relaxed));
            let new = ((head >> LINK_BITS).wrapping_add(1) << LINK_BITS) | next;
            match self.head.compare_exchange_weak(head, new, Ordering::Acquire, Ordering::Acquire) {
                Ok(_) => return Some(index),
                Err(now) => head = now,
            }
        }
    }

    /// Takes a slot never handed out, if any is left.
    fn take_fresh(&self) -> Option<u32> {
        let n = u32::try_from(N).ok()?;
        self.fresh
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |fresh| {
                (fresh < n).then_some(fresh + 1)
            })
            .ok()
    }

    /// Pushes `index` onto the free list.
    fn push(&self, index: u32) {
        let mut head = self.head.load(Ordering::Relaxed);
        loop {
            // `head & LINK_MASK` is a link (index + 1 or 0), below 2^32 by `LINK_BITS`.
            self.next[index as usize].store((head & LINK_MASK) as u32, Ordering::Relaxed);
            let new = ((head >> LINK_BITS).wrapping_add(1) << LINK_BITS) | (Word::from(index) + 1);
            match self.head.compare_exchange_weak(head, new, Ordering::Release, Ordering::Relaxed) {
                Ok(_) => return,
                Err(now) => head = now,
            }
        }
    }
}

impl<T, const N: usize> Default for AtomicPool<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T, const N: usize> fmt::Debug for AtomicPool<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AtomicPool").field("capacity", &N).finish_non_exhaustive()
    }
}

impl<T, const N: usize> AtomicBox<'_, T, N> {
    /// The value's place: the box's slot.
    fn value_ptr(&self) -> *mut T {
        self.pool.values[self.index as usize].get().cast::<T>()
    }

    /// Takes the value out and gives the slot back.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::pool::AtomicPool::<u32, 1>::new();
    /// let boxed = pool.try_alloc(7).unwrap();
    /// assert_eq!(arena_kit::pool::AtomicBox::into_inner(boxed), 7);
    /// assert!(pool.try_alloc(8).is_ok()); // the slot is free again
    /// ```
    #[must_use]
    pub fn into_inner(this: Self) -> T {
        let this = core::mem::ManuallyDrop::new(this);
        // SAFETY: A2: the box owns `index`, whose cell holds the value; it is read out
        // once (the box is not dropped) before the index goes back.
        let value = unsafe { this.value_ptr().read() };
        this.pool.push(this.index);
        value
    }
}

impl<T, const N: usize> Deref for AtomicBox<'_, T, N> {
    type Target = T;

    fn deref(&self) -> &T {
        // SAFETY: A2: the box owns `index`, whose cell holds an initialised value that
        // nothing else touches while the box lives.
        unsafe { &*self.value_ptr() }
    }
}

impl<T, const N: usize> DerefMut for AtomicBox<'_, T, N> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as `deref`, through `&mut self`: the only access.
        unsafe { &mut *self.value_ptr() }
    }
}

impl<T, const N: usize> Drop for AtomicBox<'_, T, N> {
    fn drop(&mut self) {
        // SAFETY: A2: the box owns `index` and its value, dropped once, here, before the
        // index goes back. (If the destructor panics the slot stays taken: a leak.)
        unsafe { core::ptr::drop_in_place(self.value_ptr()) };
        self.pool.push(self.index);
    }
}

impl<T: fmt::Debug, const N: usize> fmt::Debug for AtomicBox<'_, T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}
