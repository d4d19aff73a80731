//! Shared test helpers.

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Scales a loop count down under Miri, which runs code about a thousand times slower.
pub(crate) fn scaled(n: usize) -> usize {
    if cfg!(miri) { n.div_ceil(10).max(2) } else { n }
}

/// The proptest settings of the model tests: `native` cases, or `PROPTEST_CASES` when
/// set (as for proptest's own default; CI's valgrind step sets it lower), and 4 under
/// Miri, which runs code about a thousand times slower. No failure files: Miri's
/// isolation allows no file access. Under Miri the inputs come from proptest's
/// `RngAlgorithm::XorShift` rather than its default `ChaCha`, which costs over ten times
/// as much there (most of some tests' time): as many cases of the same strategies, drawn
/// more cheaply.
pub(crate) fn proptest_config(native: u32) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, RngAlgorithm};
    let cases = if cfg!(miri) {
        4
    } else {
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(native)
    };
    let defaults = Config::default();
    let rng_algorithm = if cfg!(miri) { RngAlgorithm::XorShift } else { defaults.rng_algorithm };
    Config { cases, failure_persistence: None, rng_algorithm, ..defaults }
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

/// Counts its drops in a borrowed cell. The counter is borrowed, not shared through an
/// `Rc`, so a value leaked on purpose leaks no heap memory (Miri and valgrind stay quiet).
#[derive(Debug)]
pub(crate) struct Counted<'a> {
    pub(crate) id: usize,
    pub(crate) drops: &'a Cell<usize>,
}

impl<'a> Counted<'a> {
    pub(crate) fn new(id: usize, drops: &'a Cell<usize>) -> Self {
        Counted { id, drops }
    }
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.drops.set(self.drops.get() + 1);
    }
}

impl Clone for Counted<'_> {
    fn clone(&self) -> Self {
        Counted { id: self.id, drops: self.drops }
    }
}

/// Counts its clones and drops; the clone made when `clones` reaches `fail_at` panics.
#[derive(Debug)]
pub(crate) struct PanicsOnClone<'a> {
    pub(crate) clones: &'a Cell<usize>,
    pub(crate) fail_at: usize,
    pub(crate) drops: &'a Cell<usize>,
}

impl PanicsOnClone<'_> {
    /// A copy that neither counts as a clone nor can panic.
    pub(crate) fn twin(&self) -> Self {
        PanicsOnClone { clones: self.clones, fail_at: self.fail_at, drops: self.drops }
    }
}

impl Clone for PanicsOnClone<'_> {
    fn clone(&self) -> Self {
        let made = self.clones.get();
        assert!(made != self.fail_at, "clone {made} panics on purpose");
        self.clones.set(made + 1);
        self.twin()
    }
}

impl Drop for PanicsOnClone<'_> {
    fn drop(&mut self) {
        self.drops.set(self.drops.get() + 1);
    }
}

thread_local! {
    static ZST_DROPS: Cell<usize> = const { Cell::new(0) };
}

/// A zero-sized type with a destructor, counted per thread (it has no room for a counter).
/// Call [`reset_zst_drops`] at the start of a test.
#[derive(Debug)]
pub(crate) struct ZstDrop;

impl Drop for ZstDrop {
    fn drop(&mut self) {
        ZST_DROPS.with(|c| c.set(c.get() + 1));
    }
}

/// `ZstDrop`s dropped on this thread since the last [`reset_zst_drops`].
pub(crate) fn zst_drops() -> usize {
    ZST_DROPS.with(Cell::get)
}

pub(crate) fn reset_zst_drops() {
    ZST_DROPS.with(|c| c.set(0));
}

/// Page-aligned and page-sized; counts its drops when it has a counter.
#[derive(Debug)]
#[repr(C, align(4096))]
pub(crate) struct Page<'a> {
    pub(crate) tag: u64,
    pub(crate) drops: Option<&'a Cell<usize>>,
}

impl Drop for Page<'_> {
    fn drop(&mut self) {
        if let Some(d) = self.drops {
            d.set(d.get() + 1);
        }
    }
}

/// Runs `f` and checks that it panics.
pub(crate) fn expect_panic<R>(f: impl FnOnce() -> R) {
    let result = catch_unwind(AssertUnwindSafe(f));
    assert!(result.is_err(), "expected a panic");
}
