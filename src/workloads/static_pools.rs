//! Lock-free pools in `static`s, the no-heap boxes firmware shares with interrupt
//! handlers: heapless's `box_pool!` (a Treiber stack of blocks with an ABA tag, the
//! reference the kit's [`AtomicPool`] was measured against) and arena-kit's own
//! `AtomicPool`, in W1 (one box made and dropped per round), W4 (the churn) and W5 (two
//! kinds of objects, kept).
//!
//! Each pool is a `static` of a fixed number of blocks, as on a microcontroller. A run
//! holds its pool's lock, only because tests may run contenders on several threads at
//! once and two runs sharing one pool's blocks would run it dry. heapless's blocks are
//! handed to its pool once per process (heapless has no way to take them back). Both
//! pools are thread-safe, so every allocation and free is an atomic read-modify-write
//! (heapless's a 128-bit compare-and-swap on x86-64, through portable-atomic): that is
//! their price, against the unlocked pools' plain stores.

use std::hint::black_box;
use std::sync::{Mutex, MutexGuard, Once, PoisonError};

use arena_kit::pool::AtomicPool;
use heapless::box_pool;
use heapless::pool::boxed::BoxBlock;

use super::fixed_churn::{self, Object, SLOTS};
use super::sum_rounds;
use super::two_pools::{self, Big, FIXED, Small};

/// Takes `lock` for one run, whatever an earlier run that panicked left.
fn run_alone(lock: &'static Mutex<()>) -> MutexGuard<'static, ()> {
    lock.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Gives every block of `$blocks` (a `static mut` array the macro declares, reached
/// nowhere else) to the pool `$pool`, once per process.
macro_rules! manage_once {
    ($pool:ident, $data:ty, $count:expr) => {{
        static MANAGED: Once = Once::new();
        MANAGED.call_once(|| {
            static mut BLOCKS: [BoxBlock<$data>; $count] = [const { BoxBlock::new() }; $count];
            // SAFETY: `BLOCKS` is declared in this block and reached only here, inside
            // `call_once`, which runs once per process: this is the only reference to it
            // ever made, and it lives for the rest of the process as the pool needs.
            let blocks = unsafe { &mut *(&raw mut BLOCKS) };
            for block in blocks {
                $pool.manage(block);
            }
        });
    }};
}

/// heapless's pools (`box_pool!` declares each as a unit struct of its own).
mod heapless_pools {
    use super::{Big, Object, Small, box_pool};

    box_pool!(HeaplessU32: u32);
    box_pool!(HeaplessObjects: Object);
    box_pool!(HeaplessSmalls: Small);
    box_pool!(HeaplessBigs: Big);
}
use heapless_pools::{HeaplessBigs, HeaplessObjects, HeaplessSmalls, HeaplessU32};

static HEAPLESS_W1: Mutex<()> = Mutex::new(());
static HEAPLESS_W4: Mutex<()> = Mutex::new(());
static HEAPLESS_W5: Mutex<()> = Mutex::new(());
static ATOMIC_W1: Mutex<()> = Mutex::new(());
static ATOMIC_W4: Mutex<()> = Mutex::new(());
static ATOMIC_W5: Mutex<()> = Mutex::new(());

/// W1: one `u32` boxed from heapless's pool and dropped (its block back) per round.
///
/// # Panics
///
/// Never: one block is in use at a time, of eight.
#[must_use]
pub fn heapless_w1(n: usize) -> u64 {
    let _alone = run_alone(&HEAPLESS_W1);
    manage_once!(HeaplessU32, u32, 8);
    sum_rounds(n, |i| *black_box(HeaplessU32.alloc(i).expect("a free block")))
}

/// W1: one `u32` boxed from an [`AtomicPool`] and dropped per round.
///
/// # Panics
///
/// Never: one slot is in use at a time, of eight.
#[must_use]
pub fn atomic_w1(n: usize) -> u64 {
    static POOL: AtomicPool<u32, 8> = AtomicPool::new();
    let _alone = run_alone(&ATOMIC_W1);
    sum_rounds(n, |i| *black_box(POOL.try_alloc(i).expect("a free slot")))
}

/// W4: the churn with each object in a heapless box (freed when the table lets go of it).
///
/// # Panics
///
/// Never: the table holds at most `SLOTS` boxes, the pool's blocks.
#[must_use]
pub fn heapless_w4(n: usize) -> u64 {
    let _alone = run_alone(&HEAPLESS_W4);
    manage_once!(HeaplessObjects, Object, SLOTS);
    fixed_churn::churn_boxes(n, |object| HeaplessObjects.alloc(object).expect("a block per slot"))
}

/// W4: the churn with each object in an [`AtomicPool`] box.
///
/// # Panics
///
/// Never: the table holds at most `SLOTS` boxes, the pool's slots.
#[must_use]
pub fn atomic_w4(n: usize) -> u64 {
    static POOL: AtomicPool<Object, SLOTS> = AtomicPool::new();
    let _alone = run_alone(&ATOMIC_W4);
    fixed_churn::churn_boxes(n, |object| POOL.try_alloc(object).expect("a slot per table entry"))
}

/// W5: both objects of each iteration in boxes of two heapless pools, kept (in vectors
/// reserved up front, as the `Box` row keeps its boxes) until the run ends.
///
/// # Panics
///
/// If `n` is above `FIXED`: the pools are empty.
#[must_use]
pub fn heapless_w5(n: usize) -> u64 {
    let _alone = run_alone(&HEAPLESS_W5);
    manage_once!(HeaplessSmalls, Small, FIXED);
    manage_once!(HeaplessBigs, Big, FIXED);
    two_pools::kept_boxes(n, |small, big| {
        let small = HeaplessSmalls.alloc(small).expect("W5's heapless pools hold FIXED");
        (small, HeaplessBigs.alloc(big).expect("W5's heapless pools hold FIXED"))
    })
}

/// W5: both objects of each iteration in boxes of two [`AtomicPool`]s, kept until the run
/// ends.
///
/// # Panics
///
/// If `n` is above `FIXED`: the pools are full.
#[must_use]
pub fn atomic_w5(n: usize) -> u64 {
    static SMALLS: AtomicPool<Small, FIXED> = AtomicPool::new();
    static BIGS: AtomicPool<Big, FIXED> = AtomicPool::new();
    let _alone = run_alone(&ATOMIC_W5);
    two_pools::kept_boxes(n, |small, big| {
        let small = SMALLS.try_alloc(small).expect("W5's atomic pools hold FIXED");
        (small, BIGS.try_alloc(big).expect("W5's atomic pools hold FIXED"))
    })
}
