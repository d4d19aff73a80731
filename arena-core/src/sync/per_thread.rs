//! [`PerThread<T>`]: one value per thread for each object that holds one (per-object
//! thread-local storage), reached without a lock, and safe to use while a thread exits.
//!
//! The thread-safe size-class pool keeps a chunk cache per thread in one of these. The
//! `thread_local` crate did this job until a pool used from a thread-local destructor
//! aborted the process: once that crate's own thread-id guard had been destroyed, looking
//! the cache up panicked inside a TLS destructor. Here a thread that is exiting gets `None`
//! from [`PerThread::with`] and its caller takes the locked path instead.
//!
//! # Design
//!
//! - Each live thread has a small id ([`current`]), reused after the thread exits, kept in
//!   a `thread_local!` without destructor (so it is readable until the very end) and
//!   released by a guard's destructor, which marks the thread as exiting.
//! - A `PerThread<T>` has 64 lazily allocated buckets (on 64-bit targets), bucket `b` holding `2^b` entries;
//!   id `n` lives in bucket `log2(n + 1)`. A lookup is an id read, a bucket load and a
//!   flag load.
//! - A new thread that gets a reused id takes over the entry (and value) of the exited
//!   thread that had it: values are never dropped before the `PerThread` is.
//!
//! # Invariants
//!
//! - **(T1) An entry is used by one thread at a time**: only the thread that holds id `n`
//!   reads or writes entry `n` through `&self` (ids are unique among live threads), and
//!   only inside [`with`](PerThread::with)'s closure, which cannot outlive the call. A
//!   thread gives its id up (under the id mutex) only after its last use; the next thread
//!   takes it under the same mutex, so its uses happen after.
//! - **(T2) `present` is set once, after the value is written**, and never cleared before
//!   the `PerThread` drops; buckets are never freed before it drops.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::cell::{Cell, UnsafeCell};
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::ptr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

/// Buckets of a [`PerThread`]: enough for every id a `usize` can hold below the markers.
const BUCKETS: usize = usize::BITS as usize;

/// An id-less thread that has not asked for one yet.
const UNSET: usize = usize::MAX;
/// A thread whose id was given back: it is exiting.
const EXITED: usize = usize::MAX - 1;

/// Ids of live threads: the next never-used one and the ones given back.
struct Ids {
    next: usize,
    free: Vec<usize>,
}

static IDS: Mutex<Ids> = Mutex::new(Ids { next: 0, free: Vec::new() });

fn ids() -> std::sync::MutexGuard<'static, Ids> {
    IDS.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Gives the thread's id (which it holds too) back when its thread-local storage is
/// destroyed.
struct IdGuard(Cell<usize>);

impl Drop for IdGuard {
    fn drop(&mut self) {
        // The thread is exiting from now on. (std's `ID` has no destructor, so it is still
        // there; a loom model drops its threads' storage all at once, after their last use.)
        let _ = ID.try_with(|id| id.set(EXITED));
        let id = self.0.get();
        let mut ids = ids();
        // Out of memory, the id is not reused: later threads take new ones.
        if id < EXITED && ids.free.try_reserve(1).is_ok() {
            ids.free.push(id);
        }
    }
}

// loom's under `cfg(loom)`: each thread of a model has an id of its own.
crate::sync::thread_local_const! {
    /// This thread's id, `UNSET` or `EXITED`. No destructor: readable to the end.
    static ID: Cell<usize> = const { Cell::new(UNSET) };
    /// Its destructor gives the id back.
    static GUARD: IdGuard = const { IdGuard(Cell::new(UNSET)) };
}

/// This thread's id, or `None` once the thread is exiting (its id was given back, or it
/// first asks for one after its thread-local storage was torn down).
#[inline]
fn current() -> Option<usize> {
    match ID.with(Cell::get) {
        id if id < EXITED => Some(id),
        EXITED => None,
        _ => register(),
    }
}

#[cold]
fn register() -> Option<usize> {
    // The guard first: if this thread's destructors are already past it, there is no way
    // to give an id back, so the thread counts as exiting.
    if GUARD.try_with(|_| ()).is_err() {
        ID.with(|id| id.set(EXITED));
        return None;
    }
    let id = {
        let mut ids = ids();
        ids.free.pop().unwrap_or_else(|| {
            let id = ids.next;
            ids.next += 1;
            id
        })
    };
    assert!(id < EXITED, "arena-kit: thread ids exhausted");
    ID.with(|cell| cell.set(id));
    // The guard is live (checked above, and nothing ran since).
    let _ = GUARD.try_with(|guard| guard.0.set(id));
    Some(id)
}

/// Bucket and index of id `id`.
#[inline]
fn locate(id: usize) -> (usize, usize) {
    let bucket = (usize::BITS - 1 - (id + 1).leading_zeros()) as usize;
    (bucket, id + 1 - (1 << bucket))
}

struct Entry<T> {
    present: AtomicBool,
    value: UnsafeCell<MaybeUninit<T>>,
}

impl<T> Entry<T> {
    /// The value, if it was written.
    ///
    /// # Safety
    ///
    /// The caller is the entry's one user (T1): no `&mut` to the value exists while the
    /// returned reference lives.
    unsafe fn value(&self) -> Option<&T> {
        if !self.present.load(Ordering::Acquire) {
            return None;
        }
        // SAFETY: no `&mut` to the value exists (the caller's T1).
        let value = unsafe { &*self.value.get() };
        // SAFETY: `present` means the value was written (T2).
        Some(unsafe { value.assume_init_ref() })
    }
}

/// Entry `index` of a bucket.
///
/// # Safety
///
/// `entries` is a live bucket (T2) of more than `index` entries.
unsafe fn entry_at<'a, T>(entries: *mut Entry<T>, index: usize) -> &'a Entry<T> {
    // SAFETY: `index` is within the bucket's allocation (caller).
    let entry = unsafe { entries.add(index) };
    // SAFETY: a live, initialised entry (caller); entries are only ever shared.
    unsafe { &*entry }
}

/// Frees a bucket's allocation.
///
/// # Safety
///
/// `entries` came from `Box::into_raw` of `len` entries and nothing uses it afterwards.
unsafe fn free_bucket<T>(entries: *mut Entry<T>, len: usize) -> Box<[Entry<T>]> {
    // SAFETY: forwarded from the caller.
    unsafe { Box::from_raw(ptr::slice_from_raw_parts_mut(entries, len)) }
}

/// One `T` per thread (see the module docs); `T` moves between threads as ids are reused,
/// so it must be `Send`, and the whole is `Sync` because each entry has one user (T1).
pub(crate) struct PerThread<T: Send> {
    buckets: [AtomicPtr<Entry<T>>; BUCKETS],
    /// Owns the values: `Send`/`Sync` follow `T` (then `Sync` is added below), and
    /// dropck sees the `T`s dropped.
    _owns: PhantomData<T>,
}

// SAFETY: entries are used through `&self` by the thread holding their id only (T1), and
// the values move between threads only as ids are handed over under the id mutex, which
// `T: Send` permits; `&mut self` access (iteration, drop) excludes every other use.
unsafe impl<T: Send> Sync for PerThread<T> {}

impl<T: Send> PerThread<T> {
    pub(crate) fn new() -> Self {
        PerThread {
            buckets: [const { AtomicPtr::new(ptr::null_mut()) }; BUCKETS],
            _owns: PhantomData,
        }
    }

    /// Runs `f` on this thread's value, made by `create` on first use; `None` (and
    /// neither closure runs) if the thread is exiting, or if the memory for its entry
    /// cannot be had (the caller then goes without, as an exiting thread does).
    #[inline]
    pub(crate) fn with<R>(&self, create: impl FnOnce() -> T, f: impl FnOnce(&T) -> R) -> Option<R> {
        let (bucket, index) = locate(current()?);
        let entries = self.buckets[bucket].load(Ordering::Acquire);
        if !entries.is_null() {
            // SAFETY: a non-null bucket is live with `1 << bucket` entries (T2).
            let entry = unsafe { entry_at(entries, index) };
            // SAFETY: this thread holds the entry's id (T1); the borrow ends with `f`.
            if let Some(value) = unsafe { entry.value() } {
                return Some(f(value));
            }
        }
        Some(f(self.insert(bucket, index, create)?))
    }

    /// Runs `f` on this thread's value if it has one (`None` too while exiting).
    pub(crate) fn with_existing<R>(&self, f: impl FnOnce(&T) -> R) -> Option<R> {
        let (bucket, index) = locate(current()?);
        let entries = self.buckets[bucket].load(Ordering::Acquire);
        if entries.is_null() {
            return None;
        }
        // SAFETY: a non-null bucket is live with `1 << bucket` entries (T2).
        let entry = unsafe { entry_at(entries, index) };
        // SAFETY: this thread holds the entry's id (T1); the borrow ends with `f`.
        unsafe { entry.value() }.map(f)
    }

    /// Makes this thread's value in entry `index` of `bucket`, allocating the bucket;
    /// `None` if the bucket cannot be allocated.
    #[cold]
    #[inline(never)]
    fn insert(&self, bucket: usize, index: usize, create: impl FnOnce() -> T) -> Option<&T> {
        let len = 1_usize << bucket;
        let mut entries = self.buckets[bucket].load(Ordering::Acquire);
        if entries.is_null() {
            let mut fresh = Vec::new();
            fresh.try_reserve_exact(len).ok()?;
            fresh.extend((0..len).map(|_| Entry {
                present: AtomicBool::new(false),
                value: UnsafeCell::new(MaybeUninit::uninit()),
            }));
            // Exactly `len` reserved and filled: no reallocation here.
            let fresh: Box<[Entry<T>]> = fresh.into_boxed_slice();
            let fresh = Box::into_raw(fresh).cast::<Entry<T>>();
            let won = self.buckets[bucket].compare_exchange(
                ptr::null_mut(),
                fresh,
                Ordering::AcqRel,
                Ordering::Acquire,
            );
            entries = match won {
                Ok(_) => fresh,
                Err(winner) => {
                    // SAFETY: `fresh` came from `Box::into_raw` of `len` entries just
                    // above and was never shared.
                    drop(unsafe { free_bucket(fresh, len) });
                    winner
                }
            };
        }
        // SAFETY: the bucket is live with `len` entries (T2), `index` is below.
        let entry = unsafe { entry_at(entries, index) };
        let value = create();
        // SAFETY: this thread holds the entry's id (T1) and the entry is not present yet,
        // so no reference to its value exists.
        let slot = unsafe { &mut *entry.value.get() };
        let value: &T = slot.write(value);
        entry.present.store(true, Ordering::Release);
        Some(value)
    }

    /// Every thread's value, with exclusive access.
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.buckets.iter_mut().enumerate().flat_map(|(bucket, entries)| {
            let entries = *entries.get_mut();
            let len = if entries.is_null() { 0 } else { 1 << bucket };
            (0..len).filter_map(move |index| {
                // SAFETY: a non-null bucket is live with `1 << bucket` entries (T2).
                let entry = unsafe { entries.add(index) };
                // SAFETY: `&mut self` makes the access exclusive, one entry at a time.
                let entry = unsafe { &mut *entry };
                // SAFETY: `present` means the value was written (T2).
                entry.present.get_mut().then(|| unsafe { entry.value.get_mut().assume_init_mut() })
            })
        })
    }
}

impl<T: Send> Drop for PerThread<T> {
    fn drop(&mut self) {
        for (bucket, entries) in self.buckets.iter_mut().enumerate() {
            let entries = *entries.get_mut();
            if entries.is_null() {
                continue;
            }
            // SAFETY: the bucket came from `Box::into_raw` of `1 << bucket` entries and is
            // never freed before now (T2); `&mut self` makes it ours.
            let mut entries = unsafe { free_bucket(entries, 1 << bucket) };
            for entry in &mut entries {
                if *entry.present.get_mut() {
                    // SAFETY: present means written (T2); dropped once, the box follows.
                    unsafe { entry.value.get_mut().assume_init_drop() };
                }
            }
        }
    }
}

impl<T: Send> Default for PerThread<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_map_to_buckets_of_doubling_size() {
        assert_eq!(locate(0), (0, 0));
        assert_eq!((locate(1), locate(2)), ((1, 0), (1, 1)));
        assert_eq!((locate(3), locate(6)), ((2, 0), (2, 3)));
        assert_eq!(locate(7), (3, 0));
        assert_eq!(locate(EXITED - 1).0, BUCKETS - 1);
    }

    #[test]
    fn each_thread_gets_its_own_value_and_exited_threads_values_stay() {
        let mut per = PerThread::new();
        let created = std::sync::atomic::AtomicUsize::new(0);
        let make = || {
            created.fetch_add(1, Ordering::Relaxed);
            Cell::new(0_u32)
        };
        let both = std::sync::Barrier::new(2);
        std::thread::scope(|s| {
            for _ in 0..2 {
                s.spawn(|| {
                    both.wait(); // alive together: two ids
                    for _ in 0..10 {
                        per.with(make, |c| c.set(c.get() + 1)).unwrap();
                    }
                    assert_eq!(per.with_existing(Cell::get), Some(10));
                    both.wait();
                });
            }
        });
        assert_eq!(created.load(Ordering::Relaxed), 2, "one value per thread, made once each");
        let values: Vec<u32> = per.iter_mut().map(|c| c.get()).collect();
        assert_eq!(values, [10, 10], "values outlive their threads, for the next ones");
    }

    #[test]
    fn iteration_and_drop_see_every_value_once() {
        use std::sync::atomic::AtomicUsize;
        static DROPPED: AtomicUsize = AtomicUsize::new(0);
        struct Counted(u32);
        impl Drop for Counted {
            fn drop(&mut self) {
                DROPPED.fetch_add(1, Ordering::Relaxed);
            }
        }
        let mut per = PerThread::new();
        per.with(|| Counted(1), |_| ()).unwrap();
        std::thread::scope(|s| {
            let per = &per;
            s.spawn(move || per.with(|| Counted(2), |_| ()).unwrap());
        });
        let mut seen: Vec<u32> = per.iter_mut().map(|c| c.0).collect();
        seen.sort_unstable();
        assert_eq!(seen, [1, 2]);
        drop(per);
        assert_eq!(DROPPED.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn a_thread_past_its_guard_gets_none_and_no_value() {
        struct Late(&'static PerThread<Cell<u32>>, &'static std::sync::atomic::AtomicBool);
        impl Drop for Late {
            fn drop(&mut self) {
                // The guard was registered after this value, so it is gone already.
                let got = self.0.with(|| Cell::new(1), Cell::get);
                self.1.store(got.is_none(), Ordering::Relaxed);
            }
        }
        std::thread_local! {
            static LATE: core::cell::RefCell<Option<Late>> = const { core::cell::RefCell::new(None) };
        }
        static PER: std::sync::OnceLock<PerThread<Cell<u32>>> = std::sync::OnceLock::new();
        static EXITING_SAW_NONE: std::sync::atomic::AtomicBool =
            std::sync::atomic::AtomicBool::new(false);
        let per = PER.get_or_init(PerThread::new);
        std::thread::spawn(move || {
            LATE.with(|late| *late.borrow_mut() = Some(Late(per, &EXITING_SAW_NONE)));
            assert_eq!(per.with(|| Cell::new(5), Cell::get), Some(5)); // registers the guard
        })
        .join()
        .unwrap();
        assert!(EXITING_SAW_NONE.load(Ordering::Relaxed));
    }
}
