//! W5 (seed 003): two index free-list pools of small objects, 8 and 13 bytes
//! (`{ref: i32, data: i32}` and one 5 bytes bigger); each of 100 000 iterations takes one
//! object from each pool and runs a small `work()` on it; nothing is freed until the end.
//! The seed's figures: its arena 39 ms, malloc 107 ms. The seed creates both arenas at
//! their full size before the loop (inside the timing), so every contender that can be
//! sized up front is: `with_capacity(n)`.

use std::hint::black_box;
use std::mem::MaybeUninit;
use std::ops::DerefMut;
use std::sync::{Mutex, PoisonError};

use arena_kit::pool::PoolStorage;
use arena_kit::{BufferBlockPool, Pool};

use super::Contender;
use super::static_free_list::StaticFreeList;

/// Iterations per run.
pub const N: usize = 100_000;

/// Objects of each kind the no-heap contenders have room for: the full size and the
/// doubled one instructions are counted at.
pub(crate) const FIXED: usize = 2 * N;

/// The seed's 8-byte object.
#[derive(Debug, Clone, Copy, Default)]
pub struct Small {
    refs: i32,
    data: i32,
}

/// The seed's object 5 bytes bigger (13 bytes of fields; Rust pads it to 16).
#[derive(Debug, Clone, Copy, Default)]
pub struct Big {
    refs: i32,
    data: i32,
    extra: [u8; 5],
}

/// The seed's `work()`: touch both objects, return something to sum.
fn work(small: &mut Small, big: &mut Big, i: i32) -> u64 {
    small.refs += 1;
    small.data = i;
    big.refs += 1;
    big.data = i.wrapping_mul(3);
    big.extra[4] = i.to_le_bytes()[0];
    u64::from(small.data.unsigned_abs()) + u64::from(big.extra[4])
}

/// Runs the iterations: `take(i)` allocates both objects and returns them.
fn iterations<'a>(n: usize, mut take: impl FnMut() -> (&'a mut Small, &'a mut Big)) -> u64 {
    super::values(n)
        .map(|i| {
            let (small, big) = take();
            black_box(work(small, big, black_box(i.cast_signed())))
        })
        .sum()
}

/// Every W5 contender.
pub const CONTENDERS: &[Contender] = &[
    Contender { name: "arena-kit Pool x2", run: pools },
    Contender { name: "arena-kit Arena", run: arena },
    Contender { name: "arena-kit Pool x2 on PoolStorage (no heap)", run: pools_fixed },
    Contender { name: "arena-kit Scope on a buffer (no heap)", run: scope_on_buffer },
    Contender { name: "arena-kit AtomicPool x2 (no heap)", run: super::static_pools::atomic_w5 },
    Contender { name: "Box (all kept)", run: boxed },
    Contender { name: "heapless box_pool x2 (no heap)", run: super::static_pools::heapless_w5 },
    Contender { name: "bumpalo Bump", run: bumpalo },
    Contender { name: "slab Slab x2", run: slabs },
    Contender { name: "hand-written static free lists x2 (seed 003)", run: static_free_lists },
    Contender { name: "limit: two reserved buffers", run: limit_vecs },
];

/// Two `Pool`s, objects named by owning handles (kept in the pools: nothing is freed).
#[must_use]
pub fn pools(n: usize) -> u64 {
    Pool::with_capacity(n, |mut smalls| {
        Pool::with_capacity(n, |mut bigs| fill_pools(&mut smalls, &mut bigs, n))
    })
}

/// The iterations on two pools (heap or storage): both objects inserted, named by
/// owning handles, worked on through them.
#[expect(
    clippy::inline_always,
    reason = "each caller's loop as if written there: out of line, the heap pools count 2 more"
)]
#[inline(always)]
fn fill_pools(smalls: &mut Pool<'_, Small>, bigs: &mut Pool<'_, Big>, n: usize) -> u64 {
    let mut sum = 0;
    for i in super::values(n) {
        let s = smalls.insert(Small::default());
        let b = bigs.insert(Big::default());
        sum += black_box(work(&mut smalls[&s], &mut bigs[&b], black_box(i.cast_signed())));
    }
    sum
}

/// The storage of [`pools_fixed`]: `static`s, as firmware keeps them (2.3 and 3.8 MiB),
/// behind locks only because tests may run contenders at once.
static FIXED_SMALLS: Mutex<PoolStorage<Small, FIXED>> = Mutex::new(PoolStorage::new());
static FIXED_BIGS: Mutex<PoolStorage<Big, FIXED>> = Mutex::new(PoolStorage::new());

/// Two `Pool`s over `PoolStorage`s of `FIXED` slots each: [`pools`] with no allocator
/// (the storage is reserved up front, as the heap pools' `with_capacity`).
///
/// # Panics
///
/// If `n` is above `FIXED` (2 * [`N`]): the storage is full.
#[must_use]
pub fn pools_fixed(n: usize) -> u64 {
    assert!(n <= FIXED, "W5's no-heap pools hold {FIXED} objects of each kind");
    let mut small_storage = FIXED_SMALLS.lock().unwrap_or_else(PoisonError::into_inner);
    let mut big_storage = FIXED_BIGS.lock().unwrap_or_else(PoisonError::into_inner);
    Pool::with_storage(&mut small_storage, |mut smalls| {
        Pool::with_storage(&mut big_storage, |mut bigs| fill_pools(&mut smalls, &mut bigs, n))
    })
}

/// Bytes of [`scope_on_buffer`]'s buffer: `FIXED` objects of each kind, and a block header.
const BUFFER: usize = FIXED * (size_of::<Small>() + size_of::<Big>()) + 64;

/// The buffer of [`scope_on_buffer`], a `static` (4.6 MiB), locked as [`FIXED_SMALLS`].
static BUFFER_BYTES: Mutex<[MaybeUninit<u8>; BUFFER]> = Mutex::new([MaybeUninit::uninit(); BUFFER]);

/// One `Scope` over a `BufferBlockPool` of one block, the whole buffer: [`arena`] with no
/// allocator.
///
/// # Panics
///
/// If `n` is above `FIXED` (2 * [`N`]): the buffer is full.
#[must_use]
pub fn scope_on_buffer(n: usize) -> u64 {
    assert!(n <= FIXED, "W5's no-heap buffer holds {FIXED} objects of each kind");
    let mut buffer = BUFFER_BYTES.lock().unwrap_or_else(PoisonError::into_inner);
    let pool = BufferBlockPool::new(&mut buffer[..]);
    let scope = pool.scope();
    iterations(n, || (scope.alloc_copy(Small::default()), scope.alloc_copy(Big::default())))
}

/// The lists of [`static_free_lists`], locked as [`FIXED_SMALLS`].
static FREE_SMALLS: Mutex<StaticFreeList<Small, FIXED>> =
    Mutex::new(StaticFreeList::new(Small { refs: 0, data: 0 }));
static FREE_BIGS: Mutex<StaticFreeList<Big, FIXED>> =
    Mutex::new(StaticFreeList::new(Big { refs: 0, data: 0, extra: [0; 5] }));

/// Seed 003 itself, written by hand in `static`s (no heap): two free lists of `u32`
/// indices threaded through `FIXED` places each, an object taken from each per
/// iteration and named by its index.
///
/// # Panics
///
/// If `n` is above `FIXED` (2 * [`N`]): the lists run dry.
#[must_use]
pub fn static_free_lists(n: usize) -> u64 {
    let mut smalls = FREE_SMALLS.lock().unwrap_or_else(PoisonError::into_inner);
    let mut bigs = FREE_BIGS.lock().unwrap_or_else(PoisonError::into_inner);
    smalls.thread();
    bigs.thread();
    let mut sum = 0;
    for i in super::values(n) {
        let s = smalls.alloc(Small::default()).expect("W5's free lists hold FIXED");
        let b = bigs.alloc(Big::default()).expect("W5's free lists hold FIXED");
        sum += black_box(work(&mut smalls[s], &mut bigs[b], black_box(i.cast_signed())));
    }
    sum
}

/// One `Arena` for both kinds.
#[must_use]
pub fn arena(n: usize) -> u64 {
    let arena = arena_kit::Arena::with_capacity(n * (size_of::<Small>() + size_of::<Big>()));
    iterations(n, || (arena.alloc_copy(Small::default()), arena.alloc_copy(Big::default())))
}

/// The iterations with both objects in boxes that `make` returns, all kept (in vectors
/// reserved up front) until the end: the shape of every row whose objects are owned
/// boxes, freed when dropped.
pub(crate) fn kept_boxes<S, B>(n: usize, mut make: impl FnMut(Small, Big) -> (S, B)) -> u64
where
    S: DerefMut<Target = Small>,
    B: DerefMut<Target = Big>,
{
    let mut smalls = Vec::with_capacity(n);
    let mut bigs = Vec::with_capacity(n);
    let mut sum = 0;
    for i in super::values(n) {
        let (mut s, mut b) = make(Small::default(), Big::default());
        sum += black_box(work(&mut s, &mut b, black_box(i.cast_signed())));
        smalls.push(s);
        bigs.push(b);
    }
    sum
}

/// Two boxes per iteration, all kept until the end.
#[must_use]
pub fn boxed(n: usize) -> u64 {
    kept_boxes(n, |small, big| (Box::new(small), Box::new(big)))
}

/// One `bumpalo::Bump` for both kinds.
#[must_use]
pub fn bumpalo(n: usize) -> u64 {
    let bump = bumpalo::Bump::with_capacity(n * (size_of::<Small>() + size_of::<Big>()));
    iterations(n, || (bump.alloc(Small::default()), bump.alloc(Big::default())))
}

/// Two `slab::Slab`s.
#[must_use]
pub fn slabs(n: usize) -> u64 {
    let mut smalls = slab::Slab::with_capacity(n);
    let mut bigs = slab::Slab::with_capacity(n);
    let mut sum = 0;
    for i in super::values(n) {
        let s = smalls.insert(Small::default());
        let b = bigs.insert(Big::default());
        sum += black_box(work(&mut smalls[s], &mut bigs[b], black_box(i.cast_signed())));
    }
    sum
}

/// The limit: two buffers reserved up front, each object the next slot of its buffer's
/// spare capacity (a pointer bump per kind, with no alignment to compute and no capacity
/// test per push). Safe code.
///
/// # Panics
///
/// Never: each buffer has room for the `n` objects taken from it.
#[must_use]
pub fn limit_vecs(n: usize) -> u64 {
    let mut smalls: Vec<Small> = Vec::with_capacity(n);
    let mut bigs: Vec<Big> = Vec::with_capacity(n);
    let (mut small_slots, mut big_slots) =
        (smalls.spare_capacity_mut().iter_mut(), bigs.spare_capacity_mut().iter_mut());
    let mut sum = 0;
    for i in super::values(n) {
        let s = small_slots.next().expect("n reserved").write(Small::default());
        let b = big_slots.next().expect("n reserved").write(Big::default());
        sum += black_box(work(s, b, black_box(i.cast_signed())));
    }
    sum
}
