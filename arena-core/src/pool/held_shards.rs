//! Which [`SyncPool`](crate::SyncPool) shards' locks the calling thread holds while code
//! of the caller's runs: a `with_value` closure, or a [`SyncRef`](crate::pool::SyncRef)
//! guard. A call that finds its shard's lock taken looks here before it waits: if this
//! thread is the holder, waiting would never end, so it panics instead. Only that
//! contended path reads the list; taking a free lock never does.

use alloc::vec::Vec;
use core::marker::PhantomData;
use std::cell::RefCell;

// loom's under `cfg(loom)`: each thread of a model holds its own locks.
crate::sync::thread_local_const! {
    /// Shards (by address) whose lock this thread holds while its caller's code runs.
    static HELD: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// Whether this thread holds the lock of the shard at `addr` while its caller's code runs.
pub(super) fn held_here(addr: usize) -> bool {
    HELD.try_with(|held| held.borrow().contains(&addr)).unwrap_or(false)
}

/// The mark that this thread holds the lock of the shard at `addr`, for as long as it
/// lives (dropped in any order, on unwind too). Not `Send`: the list is the thread's own.
/// Dropped before the lock it marks is released.
pub(super) struct Held {
    /// The shard's address, if the thread's list could take it (not while the thread's
    /// locals are being destroyed).
    addr: Option<usize>,
    _not_send: PhantomData<*const ()>,
}

impl Held {
    /// Marks the shard at `addr` as held by this thread.
    pub(super) fn mark(addr: usize) -> Held {
        let marked = HELD.try_with(|held| held.borrow_mut().push(addr)).is_ok();
        Held { addr: marked.then_some(addr), _not_send: PhantomData }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let Some(addr) = self.addr else { return };
        let _ = HELD.try_with(|held| {
            let mut held = held.borrow_mut();
            if let Some(at) = held.iter().rposition(|&a| a == addr) {
                held.swap_remove(at);
            }
        });
    }
}
