//! Shared test helpers.

use std::cell::RefCell;

/// Scales a loop count down under Miri, which runs code about a thousand times slower.
pub(crate) fn scaled(n: usize) -> usize {
    if cfg!(miri) { n.div_ceil(10).max(2) } else { n }
}

/// Records its id in a shared log when dropped: order and count of destructors.
#[derive(Debug)]
pub(crate) struct Noisy<'a> {
    pub(crate) id: u32,
    pub(crate) log: &'a RefCell<Vec<u32>>,
}

impl Drop for Noisy<'_> {
    fn drop(&mut self) {
        self.log.borrow_mut().push(self.id);
    }
}

impl Clone for Noisy<'_> {
    fn clone(&self) -> Self {
        Noisy { id: self.id + 1000, log: self.log }
    }
}

/// Like `Noisy`, but its destructor panics when `id` is `panic_on`.
#[derive(Debug)]
pub(crate) struct PanicsOnDrop<'a> {
    pub(crate) id: u32,
    pub(crate) panic_on: u32,
    pub(crate) log: &'a RefCell<Vec<u32>>,
}

impl Drop for PanicsOnDrop<'_> {
    fn drop(&mut self) {
        self.log.borrow_mut().push(self.id);
        assert!(self.id != self.panic_on, "destructor {} panics on purpose", self.id);
    }
}

/// Sorted copy of a log, for "each exactly once" checks.
pub(crate) fn sorted(log: &RefCell<Vec<u32>>) -> Vec<u32> {
    let mut ids = log.borrow().clone();
    ids.sort_unstable();
    ids
}
