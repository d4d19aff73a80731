//! W3 (seed 002, variable size): a table of live allocations of random sizes 1..=1024
//! bytes; each of 1 000 000 operations frees the allocation in a random slot and makes a
//! new one of a random size there, writing its first byte. Tables of 20 000 and 50 000
//! slots (the seed's pool sizes). The seed ran `boost::pool` and ACE pools against
//! new/delete; here arena-kit's `SizeClassPool` (through `allocator_api2::vec::Vec`, as a
//! user's collection would), the same pool pre-allocated, `Vec<u8>` on the system
//! allocator (malloc), a `slab::Slab` per size class, and a hand-written limit: a byte
//! buffer of chunks and a stack of free indices per class.

use allocator_api2::vec::Vec as ApiVec;
use core::cell::RefCell;
use core::mem::MaybeUninit;

use allocator_api2::alloc::Allocator;
use arena_kit::{SizeClassPool, SyncSizeClassPool, size_class::MAX_CLASS_SIZE};

use super::Contender;
use super::mi_alloc::MiAlloc;

/// Operations per run.
pub const N: usize = 1_000_000;
/// The seed's two table sizes.
pub const SLOTS_SMALL: usize = 20_000;
/// The larger table.
pub const SLOTS_LARGE: usize = 50_000;

/// A xorshift stream of (slot, size) pairs, the same for every contender.
struct Requests {
    state: u64,
    slots: usize,
}

impl Iterator for Requests {
    type Item = (usize, usize);
    #[expect(clippy::cast_possible_truncation, reason = "both values are reduced below usize")]
    fn next(&mut self) -> Option<(usize, usize)> {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        let slot = ((self.state >> 32) % self.slots as u64) as usize;
        let size = (self.state % MAX_CLASS_SIZE as u64) as usize + 1;
        Some((slot, size))
    }
}

/// Runs the churn over a table of `slots`: `alloc(size, tag)` makes an allocation,
/// `free(b)` gives it back and returns its size plus its first byte, summed as the
/// checksum (with what is left at the end).
fn churn<B>(
    n: usize,
    slots: usize,
    alloc: impl FnMut(usize, u8) -> B,
    free: impl FnMut(B) -> u64,
) -> u64 {
    churn_seeded(0x9E37_79B9_7F4A_7C15, n, slots, alloc, free)
}

/// [`churn`] with its own request stream (one per thread in the two-thread runs).
#[expect(clippy::cast_possible_truncation, reason = "the tag is the low byte on purpose")]
pub(crate) fn churn_seeded<B>(
    seed: u64,
    n: usize,
    slots: usize,
    mut alloc: impl FnMut(usize, u8) -> B,
    mut free: impl FnMut(B) -> u64,
) -> u64 {
    let mut table: Vec<Option<B>> = (0..slots).map(|_| None).collect();
    let mut sum = 0;
    let requests = Requests { state: seed, slots };
    for (op, (slot, size)) in requests.take(n).enumerate() {
        if let Some(b) = table[std::hint::black_box(slot)].take() {
            sum += free(b);
        }
        table[slot] = Some(alloc(size, op as u8));
    }
    sum + table.into_iter().flatten().map(free).sum::<u64>()
}

/// What a freed buffer contributes to the checksum.
fn weigh(capacity: usize, first: u8) -> u64 {
    capacity as u64 + u64::from(first)
}

macro_rules! contenders {
    (
        $slots:expr, $pool:ident, $reserved:ident, $locked:ident, $system:ident,
        $mimalloc:ident, $slabs:ident, $limit:ident
    ) => {
        /// arena-kit's `SizeClassPool`, through `allocator_api2::vec::Vec`.
        #[must_use]
        pub fn $pool(n: usize) -> u64 {
            let pool = SizeClassPool::new();
            run_pool(n, $slots, &pool)
        }

        /// The same, with every class pre-carved for its share of the table.
        #[must_use]
        pub fn $reserved(n: usize) -> u64 {
            let pool = SizeClassPool::new();
            for size in SizeClassPool::CLASS_SIZES {
                let layout = core::alloc::Layout::array::<u8>(size).expect("small");
                pool.reserve(layout, $slots * size.min(128) / 1024 / 8 + $slots / 40)
                    .expect("memory for the pre-allocation");
            }
            run_pool(n, $slots, &pool)
        }

        /// `Vec<u8>` on the system allocator.
        #[must_use]
        pub fn $system(n: usize) -> u64 {
            run_system(n, $slots)
        }

        /// `allocator_api2::vec::Vec<u8, MiAlloc>`: the buffers on mimalloc.
        #[must_use]
        pub fn $mimalloc(n: usize) -> u64 {
            churn(n, $slots, |size, tag| buffer_in(MiAlloc, size, tag), weigh_buffer)
        }

        /// arena-kit's locked `SyncSizeClassPool`, on one thread.
        #[must_use]
        pub fn $locked(n: usize) -> u64 {
            run_locked(n, $slots)
        }

        /// A `slab::Slab` per size class.
        #[must_use]
        pub fn $slabs(n: usize) -> u64 {
            run_slabs(n, $slots)
        }

        /// The hand-written limit: per-class chunk buffers and free-index stacks.
        #[must_use]
        pub fn $limit(n: usize) -> u64 {
            run_limit(n, $slots)
        }
    };
}

contenders!(
    SLOTS_SMALL,
    pool_20k,
    reserved_20k,
    locked_20k,
    system_20k,
    mimalloc_20k,
    slabs_20k,
    limit_20k
);
contenders!(
    SLOTS_LARGE,
    pool_50k,
    reserved_50k,
    locked_50k,
    system_50k,
    mimalloc_50k,
    slabs_50k,
    limit_50k
);

fn run_pool(n: usize, slots: usize, pool: &SizeClassPool) -> u64 {
    churn(n, slots, |size, tag| buffer_in(pool, size, tag), weigh_buffer)
}

/// A buffer of `size` bytes from `alloc`, its first byte `tag`: a user's collection.
pub(crate) fn buffer_in<A: Allocator>(alloc: A, size: usize, tag: u8) -> (ApiVec<u8, A>, usize) {
    let mut v = ApiVec::with_capacity_in(size, alloc);
    v.push(tag);
    (v, size)
}

/// What a freed buffer of [`buffer_in`] contributes to the checksum.
pub(crate) fn weigh_buffer<A: Allocator>((v, size): (ApiVec<u8, A>, usize)) -> u64 {
    weigh(size, v[0])
}

/// The locked pool on one thread: what the lock costs.
fn run_locked(n: usize, slots: usize) -> u64 {
    let pool = SyncSizeClassPool::new();
    churn(n, slots, |size, tag| buffer_in(&pool, size, tag), weigh_buffer)
}

/// One class of a slab per size class: chunks of the class size stored inline, left
/// uninitialised but for the first byte.
pub(crate) trait ClassSlab: Send {
    /// A chunk whose first byte is `tag`; its key.
    fn insert(&mut self, tag: u8) -> usize;
    /// Frees the chunk of `key`; its first byte.
    fn remove(&mut self, key: usize) -> u8;
}

/// A chunk of a class slab: the tag byte, then `REST` bytes nobody initialises.
pub(crate) struct Chunk<const REST: usize> {
    tag: u8,
    _rest: [MaybeUninit<u8>; REST],
}

impl<const REST: usize> ClassSlab for slab::Slab<Chunk<REST>> {
    #[inline]
    fn insert(&mut self, tag: u8) -> usize {
        slab::Slab::insert(self, Chunk { tag, _rest: [MaybeUninit::uninit(); REST] })
    }
    #[inline]
    fn remove(&mut self, key: usize) -> u8 {
        slab::Slab::remove(self, key).tag
    }
}

/// A `slab::Slab` per size class (the same twenty classes): the obvious way to build a
/// size-class pool from a popular crate.
pub(crate) struct SlabClasses(Vec<Box<dyn ClassSlab>>);

macro_rules! class_slabs {
    ($($n:literal),*) => {
        vec![$(Box::new(slab::Slab::<Chunk<{ $n - 1 }>>::new()) as Box<dyn ClassSlab>),*]
    };
}

impl SlabClasses {
    /// Twenty empty slabs.
    pub(crate) fn new() -> Self {
        let slabs = class_slabs![
            16, 32, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 640, 768,
            896, 1024
        ];
        debug_assert!(slabs.len() == SizeClassPool::CLASS_SIZES.len());
        SlabClasses(slabs)
    }

    /// A chunk for `size` bytes: (class, key, size).
    pub(crate) fn alloc(&mut self, size: usize, tag: u8) -> (usize, usize, usize) {
        let class = SizeClassPool::CLASS_SIZES.partition_point(|&c| c < size);
        (class, self.0[class].insert(tag), size)
    }

    /// Frees a chunk; its weight for the checksum.
    pub(crate) fn free(&mut self, (class, key, size): (usize, usize, usize)) -> u64 {
        weigh(size, self.0[class].remove(key))
    }
}

fn run_slabs(n: usize, slots: usize) -> u64 {
    let slabs = RefCell::new(SlabClasses::new());
    churn(n, slots, |size, tag| slabs.borrow_mut().alloc(size, tag), |c| slabs.borrow_mut().free(c))
}

fn run_system(n: usize, slots: usize) -> u64 {
    churn(
        n,
        slots,
        |size, tag| {
            let mut v = Vec::with_capacity(size);
            v.push(tag);
            (v, size)
        },
        |(v, size)| weigh(size, v[0]),
    )
}

/// One class of the limit: its chunks side by side in one byte buffer, and a stack of
/// the indices of the free ones.
struct ByteClass {
    size: usize,
    bytes: Vec<u8>,
    free: Vec<u32>,
}

/// The limit: a byte buffer per size class, cut into chunks of the class size, and a
/// stack of free chunk indices per class (W4's limit, a `Vec` and a free list of `u32`,
/// once per class). A table row is the class, the chunk's index and the size asked for;
/// a size's class comes from a table by 16-byte unit (every class size is a multiple of
/// 16). Nothing but the first byte of a chunk is written after the chunk is first made.
fn run_limit(n: usize, slots: usize) -> u64 {
    let classes: RefCell<Vec<ByteClass>> = RefCell::new(
        SizeClassPool::CLASS_SIZES
            .iter()
            .map(|&size| ByteClass { size, bytes: Vec::new(), free: Vec::new() })
            .collect(),
    );
    let units: Vec<u8> = (1..=MAX_CLASS_SIZE / 16)
        .map(|unit| {
            let class = SizeClassPool::CLASS_SIZES.partition_point(|&c| c < unit * 16);
            u8::try_from(class).expect("twenty classes")
        })
        .collect();
    churn(
        n,
        slots,
        |size, tag| {
            let class = units[(size - 1) / 16];
            let mut classes = classes.borrow_mut();
            let c = &mut classes[usize::from(class)];
            let index = c.free.pop().unwrap_or_else(|| {
                let index = c.bytes.len() / c.size;
                c.bytes.resize(c.bytes.len() + c.size, 0);
                u32::try_from(index).expect("fewer than 2^32 chunks")
            });
            c.bytes[index as usize * c.size] = tag;
            (class, index, size)
        },
        |(class, index, size)| {
            let mut classes = classes.borrow_mut();
            let c = &mut classes[usize::from(class)];
            c.free.push(index);
            weigh(size, c.bytes[index as usize * c.size])
        },
    )
}

/// W3 contenders with 20 000 live slots, arena-kit first, the limit last.
pub const CONTENDERS_20K: &[Contender] = &[
    Contender { name: "arena-kit SizeClassPool", run: pool_20k },
    Contender { name: "arena-kit SizeClassPool pre-allocated", run: reserved_20k },
    Contender { name: "arena-kit SyncSizeClassPool (locked)", run: locked_20k },
    Contender { name: "Vec<u8> (malloc)", run: system_20k },
    Contender { name: "mimalloc Vec<u8>", run: mimalloc_20k },
    Contender { name: "slab Slab per size class", run: slabs_20k },
    Contender { name: "limit: per-class free lists", run: limit_20k },
];

/// W3 contenders with 50 000 live slots.
pub const CONTENDERS_50K: &[Contender] = &[
    Contender { name: "arena-kit SizeClassPool", run: pool_50k },
    Contender { name: "arena-kit SizeClassPool pre-allocated", run: reserved_50k },
    Contender { name: "arena-kit SyncSizeClassPool (locked)", run: locked_50k },
    Contender { name: "Vec<u8> (malloc)", run: system_50k },
    Contender { name: "mimalloc Vec<u8>", run: mimalloc_50k },
    Contender { name: "slab Slab per size class", run: slabs_50k },
    Contender { name: "limit: per-class free lists", run: limit_50k },
];
