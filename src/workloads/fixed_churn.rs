//! W4 (seed 002, fixed size): churn on a live table of 20 000 slots with one 64-byte
//! struct whose constructor bumps a global counter; each of 1 000 000 operations frees
//! the object in a random slot (if any) and allocates a new one there. The seed's figures
//! for 10 M operations: `boost::pool` and `ACE_Cached_Allocator` about 300 ms, new/delete
//! about 2 700 ms.
//!
//! Also the handle-access group: random `get`s through each container's handle.

#![expect(
    clippy::cast_possible_truncation,
    reason = "slot indices are below SLOTS, which fits every integer type used"
)]

use std::hint::black_box;
use std::ops::Deref;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use arena_kit::pool::{FixedKeyPool, PoolStorage};
use arena_kit::{Handle, Pool, TypedKey};

use allocator_api2::boxed::Box as ApiBox;

use super::Contender;
use super::mi_alloc::MiAlloc;

/// Live slots in the table.
pub const SLOTS: usize = 20_000;
/// Operations per run (the seed ran 10 M).
pub const N: usize = 1_000_000;

/// Constructions so far: the seed's constructor side effect (a plain load and store, as a
/// C `++counter` would be; not an atomic read-modify-write that would dwarf the pool).
static CONSTRUCTED: AtomicU64 = AtomicU64::new(0);

/// The 64-byte object of the seed.
#[derive(Debug, Clone, Copy)]
pub struct Object {
    id: u64,
    payload: [u64; 7],
}

impl Object {
    /// The object without the constructor's counter: for the two-thread runs, where a
    /// counter shared by both threads would measure cache-line ping-pong, not the pools.
    pub(crate) fn untracked(id: u64) -> Self {
        Object { id, payload: [id; 7] }
    }

    /// The id the object was built with.
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    fn new(id: u64) -> Self {
        CONSTRUCTED.store(CONSTRUCTED.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
        Object { id, payload: [id; 7] }
    }
}

/// A xorshift sequence of slot indices, the same for every contender.
pub(crate) struct Slots(pub(crate) u64);

impl Iterator for Slots {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        // The modulo keeps the index below `SLOTS`, which fits any usize.
        Some((self.0 % SLOTS as u64) as usize)
    }
}

/// Runs the churn: `n` operations, each `replace(slot, id)` returning the id it freed
/// (0 for an empty slot); the checksum sums them and `finish` adds what is left.
pub(crate) fn churn(n: usize, replace: impl FnMut(usize, u64) -> u64) -> u64 {
    churn_seeded(0x9E37_79B9_7F4A_7C15, n, replace)
}

/// [`churn`] with its own slot sequence (one per thread in the two-thread runs).
pub(crate) fn churn_seeded(seed: u64, n: usize, mut replace: impl FnMut(usize, u64) -> u64) -> u64 {
    let mut sum = 0;
    for (op, slot) in Slots(seed).take(n).enumerate() {
        sum += replace(black_box(slot), op as u64 + 1);
    }
    sum
}

/// Every W4 contender, arena-kit first, the hand-written limit last.
pub const CONTENDERS: &[Contender] = &[
    Contender { name: "arena-kit Pool (handles)", run: pool },
    Contender { name: "arena-kit Pool (keys)", run: pool_keyed },
    Contender { name: "arena-kit Pool on PoolStorage (no heap)", run: pool_fixed },
    Contender { name: "arena-kit FixedKeyPool (no heap)", run: key_pool_fixed },
    Contender { name: "arena-kit AtomicPool (no heap)", run: super::static_pools::atomic_w4 },
    Contender { name: "Box", run: boxed },
    Contender { name: "mimalloc Box", run: mimalloc_boxed },
    Contender { name: "heapless box_pool (no heap)", run: super::static_pools::heapless_w4 },
    Contender { name: "slab Slab", run: slab },
    Contender { name: "slotmap SlotMap", run: slotmap },
    Contender { name: "hand-written Vec + u32 free list (seed 003)", run: hand_free_list },
    Contender { name: "limit: Vec, each object replaced in place", run: limit_in_place },
];

/// `Pool` with owning handles in the table.
#[must_use]
pub fn pool(n: usize) -> u64 {
    Pool::with_capacity(SLOTS, |mut pool: Pool<'_, Object>| {
        let mut table: Vec<Option<Handle<'_>>> = (0..SLOTS).map(|_| None).collect();
        let sum = churn(n, |slot, id| {
            let freed = table[slot].take().map_or(0, |h| pool.remove(h).id);
            table[slot] = Some(pool.insert(Object::new(id)));
            freed
        });
        sum + table.into_iter().flatten().map(|h| pool[&h].payload[6]).sum::<u64>()
    })
}

/// The storage of [`pool_fixed`]: a `static`, as firmware keeps it (1.4 MiB: too big for
/// a test thread's stack), behind a lock only because tests may run contenders at once.
static FIXED_STORAGE: Mutex<PoolStorage<Object, SLOTS>> = Mutex::new(PoolStorage::new());

/// `Pool` over a `PoolStorage` of exactly `SLOTS` slots, with owning handles: what
/// firmware without an allocator runs (the pool never calls an allocator; the table of
/// handles is the workload's, as for every contender).
#[must_use]
pub fn pool_fixed(n: usize) -> u64 {
    let mut storage = FIXED_STORAGE.lock().unwrap_or_else(PoisonError::into_inner);
    Pool::with_storage(&mut storage, |mut pool| {
        let mut table: Vec<Option<Handle<'_>>> = (0..SLOTS).map(|_| None).collect();
        let sum = churn(n, |slot, id| {
            let freed = table[slot].take().map_or(0, |h| pool.remove(h).id);
            table[slot] = Some(pool.insert(Object::new(id)));
            freed
        });
        sum + table.into_iter().flatten().map(|h| pool[&h].payload[6]).sum::<u64>()
    })
}

/// A [`FixedKeyPool`] over the same `static` storage, with keys in the table: the keyed
/// pool firmware keeps in its state, no closure around it and no heap.
#[must_use]
pub fn key_pool_fixed(n: usize) -> u64 {
    let mut storage = FIXED_STORAGE.lock().unwrap_or_else(PoisonError::into_inner);
    let mut pool: FixedKeyPool<'_, Object> = FixedKeyPool::in_storage(&mut storage);
    let mut table: Vec<Option<TypedKey<Object>>> = vec![None; SLOTS];
    let sum = churn(n, |slot, id| {
        let freed = table[slot].and_then(|k| pool.remove(k)).map_or(0, |o| o.id);
        table[slot] = Some(pool.insert(Object::new(id)));
        freed
    });
    sum + table.into_iter().flatten().filter_map(|k| pool.get(k)).map(|o| o.payload[6]).sum::<u64>()
}

/// `Pool` with copyable keys in the table (checked access).
#[must_use]
pub fn pool_keyed(n: usize) -> u64 {
    Pool::with_capacity(SLOTS, |mut pool| {
        let mut table = vec![None; SLOTS];
        let sum = churn(n, |slot, id| {
            let freed = table[slot].and_then(|k| pool.remove_key(k)).map_or(0, |o: Object| o.id);
            table[slot] = Some(pool.insert_keyed(Object::new(id)));
            freed
        });
        sum + table
            .into_iter()
            .flatten()
            .filter_map(|k| pool.get_key(k))
            .map(|o| o.payload[6])
            .sum::<u64>()
    })
}

/// The churn with every object in a box of its own, made by `new`.
pub(crate) fn churn_boxes<B: Deref<Target = Object>>(n: usize, new: impl Fn(Object) -> B) -> u64 {
    let mut table: Vec<Option<B>> = (0..SLOTS).map(|_| None).collect();
    let sum = churn(n, |slot, id| {
        let freed = table[slot].take().map_or(0, |b| b.id);
        table[slot] = Some(new(Object::new(id)));
        freed
    });
    sum + table.into_iter().flatten().map(|b| b.payload[6]).sum::<u64>()
}

/// `Box::new` and drop.
#[must_use]
pub fn boxed(n: usize) -> u64 {
    churn_boxes(n, Box::new)
}

/// `allocator_api2::boxed::Box::new_in(_, MiAlloc)` and drop: `Box` on mimalloc.
#[must_use]
pub fn mimalloc_boxed(n: usize) -> u64 {
    churn_boxes(n, |object| ApiBox::new_in(object, MiAlloc))
}

/// `slab::Slab`.
#[must_use]
pub fn slab(n: usize) -> u64 {
    let mut slab: slab::Slab<Object> = slab::Slab::with_capacity(SLOTS);
    let mut table: Vec<Option<usize>> = vec![None; SLOTS];
    let sum = churn(n, |slot, id| {
        let freed = table[slot].take().map_or(0, |k| slab.remove(k).id);
        table[slot] = Some(slab.insert(Object::new(id)));
        freed
    });
    sum + table.into_iter().flatten().map(|k| slab[k].payload[6]).sum::<u64>()
}

/// `slotmap::SlotMap`.
#[must_use]
pub fn slotmap(n: usize) -> u64 {
    let mut map = slotmap::SlotMap::with_capacity(SLOTS);
    let mut table: Vec<Option<slotmap::DefaultKey>> = vec![None; SLOTS];
    let sum = churn(n, |slot, id| {
        let freed = table[slot].take().and_then(|k| map.remove(k)).map_or(0, |o: Object| o.id);
        table[slot] = Some(map.insert(Object::new(id)));
        freed
    });
    sum + table.into_iter().flatten().map(|k| map[k].payload[6]).sum::<u64>()
}

/// Seed 003's design written by hand, as a C programmer keeps a static pool: objects in a
/// `Vec`, the indices of vacant places on a `Vec<u32>` stack. What a pool without
/// generations or handles costs, for the pools to be read against.
///
/// # Panics
///
/// Never for sizes up to `u32::MAX` objects; the table holds `SLOTS`.
#[must_use]
pub fn hand_free_list(n: usize) -> u64 {
    let mut objects: Vec<Object> = Vec::with_capacity(SLOTS);
    let mut free: Vec<u32> = Vec::with_capacity(SLOTS);
    let mut table: Vec<Option<u32>> = vec![None; SLOTS];
    let sum = churn(n, |slot, id| {
        let freed = table[slot].take().map_or(0, |i| {
            free.push(i);
            objects[i as usize].id
        });
        let object = Object::new(id);
        let index = if let Some(i) = free.pop() {
            objects[i as usize] = object;
            i
        } else {
            objects.push(object);
            u32::try_from(objects.len() - 1).expect("below SLOTS")
        };
        table[slot] = Some(index);
        freed
    });
    sum + table.into_iter().flatten().map(|i| objects[i as usize].payload[6]).sum::<u64>()
}

/// The limit: objects in a `Vec`, each freed object's place taken by the next one in
/// the same step, so no free list is kept at all (the best hand-written code for a churn
/// that frees and allocates one object per operation; a pool cannot know that the two
/// go together).
///
/// # Panics
///
/// Never for sizes up to `u32::MAX` objects; the table holds `SLOTS`.
#[must_use]
pub fn limit_in_place(n: usize) -> u64 {
    let mut objects: Vec<Object> = Vec::with_capacity(SLOTS);
    let mut table: Vec<Option<u32>> = vec![None; SLOTS];
    let sum = churn(n, |slot, id| {
        let object = Object::new(id);
        if let Some(i) = table[slot] {
            debug_assert!((i as usize) < objects.len());
            // SAFETY: every index in `table` was the length of `objects` when it was
            // pushed, and nothing is ever removed from `objects`.
            let place = unsafe { objects.get_unchecked_mut(i as usize) };
            let freed = place.id;
            *place = object;
            freed
        } else {
            table[slot] = Some(u32::try_from(objects.len()).expect("below SLOTS"));
            objects.push(object);
            0
        }
    });
    sum + table.into_iter().flatten().map(|i| objects[i as usize].payload[6]).sum::<u64>()
}

/// Random reads through handles of a full table: `get` against slab's and slotmap's.
pub const GET_CONTENDERS: &[Contender] = &[
    Contender { name: "arena-kit Pool::get (handle)", run: get_pool },
    Contender { name: "arena-kit Pool::get_key (key)", run: get_pool_keyed },
    Contender { name: "slab Slab::get", run: get_slab },
    Contender { name: "slotmap SlotMap::get", run: get_slotmap },
    Contender { name: "limit: Vec index", run: get_vec },
];

/// Sums the ids read at `n` random table slots through `get`.
fn reads(n: usize, mut get: impl FnMut(usize) -> u64) -> u64 {
    Slots(0x2545_F491_4F6C_DD1D).take(n).map(|slot| get(black_box(slot))).sum()
}

/// `Pool::get` through owning handles.
#[must_use]
pub fn get_pool(n: usize) -> u64 {
    Pool::with_capacity(SLOTS, |mut pool| {
        let table: Vec<Handle<'_>> =
            (0..SLOTS as u64).map(|i| pool.insert(Object::new(i))).collect();
        reads(n, |slot| pool.get(&table[slot]).id)
    })
}

/// `Pool::get_key` through keys.
#[must_use]
pub fn get_pool_keyed(n: usize) -> u64 {
    Pool::with_capacity(SLOTS, |mut pool| {
        let table: Vec<_> = (0..SLOTS as u64).map(|i| pool.insert_keyed(Object::new(i))).collect();
        reads(n, |slot| pool.get_key(table[slot]).map_or(0, |o| o.id))
    })
}

/// `Slab::get`.
#[must_use]
pub fn get_slab(n: usize) -> u64 {
    let mut slab = slab::Slab::with_capacity(SLOTS);
    let table: Vec<usize> = (0..SLOTS as u64).map(|i| slab.insert(Object::new(i))).collect();
    reads(n, |slot| slab.get(table[slot]).map_or(0, |o| o.id))
}

/// `SlotMap::get`.
#[must_use]
pub fn get_slotmap(n: usize) -> u64 {
    let mut map = slotmap::SlotMap::with_capacity(SLOTS);
    let table: Vec<_> = (0..SLOTS as u64).map(|i| map.insert(Object::new(i))).collect();
    reads(n, |slot| map.get(table[slot]).map_or(0, |o| o.id))
}

/// The limit: a `Vec` indexed by a `u32`, without the bounds check a handle makes
/// needless (the indices are below the length by construction).
#[must_use]
pub fn get_vec(n: usize) -> u64 {
    let objects: Vec<Object> = (0..SLOTS as u64).map(Object::new).collect();
    let table: Vec<u32> = (0..SLOTS as u32).collect();
    reads(n, |slot| {
        let index = table[slot] as usize;
        debug_assert!(index < objects.len());
        // SAFETY: every index in `table` is below `SLOTS`, the length of `objects`; both
        // are built just above and never change. (A handle proves the same by its type.)
        unsafe { objects.get_unchecked(index) }.id
    })
}
