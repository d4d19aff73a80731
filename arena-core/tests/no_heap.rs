//! Scopes over a caller's buffer and pools over a caller's storage, checked to use no
//! heap: this binary's global allocator fails the test that calls it.
//!
//! Each case runs inside [`no_heap`], which arms the allocator for the calling thread:
//! any allocation or free made there is counted, and the case fails when it returns.
//! (The allocator cannot panic itself: unwinding out of a global allocator is undefined
//! behaviour. It serves the call from the system and records it instead.) CI runs this
//! binary with `--no-default-features`, where arena-kit links no `alloc` at all, and
//! under Miri. With `alloc` on (the workspace's `cargo test`), the cases whose scope gets
//! a second block or a limit run without the guard: a scope's bookkeeping for those is
//! boxed then, as `BufferBlockPool`'s docs say. (A block the buffer cannot give makes
//! none: those cases are guarded either way.)
//!
//! Panics allocate (the payload is boxed), so the cases that check a panic arm the guard
//! around everything but the panicking call.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::mem::MaybeUninit;
use std::panic::{AssertUnwindSafe, catch_unwind};

use arena_kit::pool::secondary::{FixedSecondaryMap, SecondaryStorage};
use arena_kit::pool::soa::{ColumnStorage, ColumnVec};
use arena_kit::pool::{AtomicBox, AtomicPool, FixedKeyPool, PoolStorage};
use arena_kit::{
    AllocError, ArenaBox, ArenaString, ArenaVec, Brand, BufferBlockPool, Key, Pool, PoolKey, Scope,
    TypedKey,
};

/// The system allocator, counting the calls made on a thread while it is armed.
struct Guard;

#[global_allocator]
static GLOBAL: Guard = Guard;

thread_local! {
    static ARMED: Cell<bool> = const { Cell::new(false) };
    /// Calls made while armed, and the size of the first.
    static CALLS: Cell<(u32, usize)> = const { Cell::new((0, 0)) };
}

fn record(size: usize) {
    if ARMED.try_with(Cell::get).unwrap_or(false) {
        let _ = CALLS.try_with(|c| {
            let (n, first) = c.get();
            c.set((n + 1, if n == 0 { size } else { first }));
        });
    }
}

// SAFETY: every call goes to `System` unchanged; `record` touches only const-initialised
// thread locals without destructors, which allocate nothing.
unsafe impl GlobalAlloc for Guard {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        // SAFETY: forwarded from the caller.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        record(layout.size());
        // SAFETY: forwarded from the caller.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(new_size);
        // SAFETY: forwarded from the caller.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Runs `f` with the allocator armed on this thread; fails if `f` touched the heap.
#[track_caller]
fn no_heap<R>(f: impl FnOnce() -> R) -> R {
    CALLS.with(|c| c.set((0, 0)));
    ARMED.with(|a| a.set(true));
    let result = f();
    ARMED.with(|a| a.set(false));
    let (calls, first) = CALLS.with(Cell::get);
    assert_eq!(calls, 0, "{calls} heap calls, the first of {first} bytes");
    result
}

/// A case that makes a scope's cold part: heap-free only without `alloc`.
#[track_caller]
fn no_heap_without_alloc<R>(f: impl FnOnce() -> R) -> R {
    if cfg!(feature = "alloc") { f() } else { no_heap(f) }
}

thread_local! {
    static DROPS: Cell<u32> = const { Cell::new(0) };
}

/// A value whose drops are counted on its thread.
#[derive(Debug)]
struct Noisy(u32);

impl Drop for Noisy {
    fn drop(&mut self) {
        DROPS.with(|d| d.set(d.get() + 1));
    }
}

fn drops() -> u32 {
    DROPS.with(Cell::get)
}

/// A buffer of `N` bytes on the stack.
fn buffer<const N: usize>() -> [MaybeUninit<u8>; N] {
    [MaybeUninit::uninit(); N]
}

#[test]
fn values_drop_once_when_the_scope_ends() {
    let mut buf = buffer::<4096>();
    no_heap(|| {
        let pool = BufferBlockPool::new(&mut buf);
        let before = drops();
        {
            let scope = pool.scope();
            for i in 0..50 {
                assert_eq!(scope.alloc(Noisy(i)).0, i);
            }
            let exits = Cell::new(0);
            scope.on_exit(|| exits.set(exits.get() + 1));
            assert_eq!(drops(), before);
            drop(scope);
            assert_eq!(exits.get(), 1);
        }
        assert_eq!(drops(), before + 50);
    });
}

#[test]
fn the_next_scope_takes_the_block_back() {
    let mut buf = buffer::<2048>();
    no_heap(|| {
        let pool = BufferBlockPool::with_block_size(&mut buf, 480);
        let blocks = pool.blocks_left();
        for i in 0..1000_u64 {
            let scope = pool.scope();
            let words = scope.alloc_slice_fill_with(8, |j| i + j as u64);
            assert_eq!(words[7], i + 7);
        }
        let stats = pool.stats();
        assert_eq!((stats.live_blocks, stats.cached_blocks, stats.system_allocations), (0, 1, 0));
        assert_eq!(pool.blocks_left(), blocks - 1);
    });
}

#[test]
fn a_full_buffer_is_an_error_and_the_value_comes_back() {
    let mut buf = buffer::<1024>();
    no_heap(|| {
        let pool = BufferBlockPool::new(&mut buf);
        let capacity = pool.block_capacity();
        let scope = pool.scope();
        let mut made = 0;
        loop {
            match scope.try_alloc(Noisy(made)) {
                Ok(_) => made += 1,
                Err(e) => {
                    // Uncut: what aligning the one block's end to 16 left over.
                    assert!(
                        matches!(e.error(), AllocError::BufferExhausted { left, .. } if left < 16)
                    );
                    let before = drops();
                    assert_eq!(e.into_value().0, made);
                    assert_eq!(drops(), before + 1, "the value handed back drops once");
                    break;
                }
            }
        }
        // Each value takes its 4 bytes and a drop node of its own (40 bytes in all).
        assert!(made as usize > capacity / 64, "{made} values in {capacity} bytes");
        // The scope stays usable for what still fits.
        assert!(scope.try_alloc(0_u8).is_ok() || scope.block_room() == 0);
    });
}

#[test]
fn a_value_larger_than_a_block_fails_alone() {
    let mut buf = buffer::<4096>();
    no_heap(|| {
        let pool = BufferBlockPool::with_block_size(&mut buf, 480);
        let scope = pool.scope();
        let small = scope.alloc(7_u32);
        let err = scope.try_alloc([1_u8; 600]).unwrap_err();
        assert!(matches!(err.error(), AllocError::BufferExhausted { size, .. } if size > 600));
        assert_eq!(err.into_value(), [1_u8; 600]);
        assert_eq!(*small, 7);
        assert!(scope.try_alloc_slice_copy(&[0_u64; 100]).is_err());
    });
}

#[test]
fn the_panicking_forms_say_the_buffer_is_full() {
    let mut buf = buffer::<512>();
    let pool = no_heap(|| BufferBlockPool::new(&mut buf));
    let scope = pool.scope();
    // The panic's payload is boxed by std: not under the guard.
    let panic = catch_unwind(AssertUnwindSafe(|| {
        scope.alloc([0_u8; 1000]);
    }))
    .unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(message.contains("buffer has no block"), "{message}");
    no_heap(|| assert_eq!(*scope.alloc(5), 5));
}

#[test]
fn nested_scopes_take_blocks_and_give_them_back() {
    let mut buf = buffer::<{ 3 * 512 + 16 }>();
    no_heap(|| {
        let pool = BufferBlockPool::with_block_size(&mut buf, 480);
        assert_eq!(pool.blocks_left(), 3);
        let outer = pool.scope();
        let a = outer.alloc(Noisy(1));
        {
            let inner = outer.scope();
            inner.alloc(Noisy(2));
            {
                let innermost = inner.scope();
                innermost.alloc(Noisy(3));
                let fourth = innermost.scope();
                let err = fourth.try_alloc(Noisy(4)).unwrap_err();
                assert!(matches!(err.error(), AllocError::BufferExhausted { .. }));
                drop(err);
                assert_eq!(pool.stats().live_blocks, 3);
            }
            assert_eq!(pool.stats().live_blocks, 2);
        }
        assert_eq!((pool.stats().live_blocks, pool.stats().cached_blocks), (1, 2));
        assert_eq!(a.0, 1);
        // The given-back blocks serve the next child.
        let again = outer.scope();
        again.alloc(Noisy(5));
        assert_eq!(pool.blocks_left(), 0);
    });
}

#[test]
fn scoped_rewinds_within_one_block() {
    let mut buf = buffer::<1024>();
    no_heap(|| {
        let pool = BufferBlockPool::new(&mut buf);
        let mut scope = pool.scope();
        let kept = scope.alloc(1_u64);
        let _ = kept;
        let room = scope.block_room();
        for round in 0..100_u32 {
            let sum = scope.scoped(|s| {
                let values =
                    s.alloc_slice_fill_with(20, |i| Noisy(round + u32::try_from(i).unwrap()));
                values.iter().map(|n| n.0).sum::<u32>()
            });
            assert_eq!(sum, 20 * round + 190);
            assert_eq!(scope.block_room(), room, "round {round} gave its bytes back");
        }
    });
}

#[test]
fn reset_drops_the_values_and_keeps_the_block() {
    let mut buf = buffer::<1024>();
    no_heap(|| {
        let pool = BufferBlockPool::new(&mut buf);
        let mut scope = pool.scope();
        let before = drops();
        for _ in 0..10 {
            scope.alloc(Noisy(0));
        }
        scope.reset();
        assert_eq!(drops(), before + 10);
        assert_eq!(pool.stats().live_blocks, 1);
        assert_eq!(*scope.alloc(3_u8), 3);
    });
}

#[test]
fn collections_grow_in_the_buffer() {
    let mut buf = buffer::<8192>();
    no_heap(|| {
        let pool = BufferBlockPool::new(&mut buf);
        let scope = pool.scope();
        let mut squares = ArenaVec::new_in(&scope);
        for i in 0..500_u32 {
            squares.push(i * i);
        }
        assert_eq!(squares[499], 499 * 499);
        let mut text = ArenaString::new_in(&scope);
        for word in ["no", "heap", "was", "touched"] {
            text.push_str(word);
            text.push(' ');
        }
        assert_eq!(text.trim_end(), "no heap was touched");
        let line =
            arena_kit::format!(in &scope, "{} squares, the last {}", squares.len(), squares[499]);
        assert_eq!(line, "500 squares, the last 249001");
        let boxed = ArenaBox::new_in(Noisy(9), &scope);
        let before = drops();
        drop(boxed);
        assert_eq!(drops(), before + 1);
        // Past the buffer: an error, the vector unchanged.
        assert!(squares.try_reserve(10_000).is_err());
        assert_eq!(squares.len(), 500);
        let collected = scope.alloc_from_iter((0..64_u32).filter(|n| n % 3 == 0));
        assert_eq!(collected.len(), 22);
    });
}

#[test]
fn a_scope_past_its_first_block_gives_every_block_back() {
    let mut buf = buffer::<{ 4 * 512 + 16 }>();
    no_heap_without_alloc(|| {
        let pool = BufferBlockPool::with_block_size(&mut buf, 480);
        let before = drops();
        {
            let scope = pool.scope();
            for i in 0..30 {
                scope.alloc(Noisy(i)); // a value and its drop node: 40 bytes, 12 a block
            }
            assert_eq!(pool.stats().live_blocks, 3);
        }
        assert_eq!(drops(), before + 30);
        assert_eq!(pool.stats().live_blocks, 0);
        assert_eq!(pool.stats().cached_blocks + pool.blocks_left(), 4);
    });
}

#[test]
fn limits_hold_in_a_buffer() {
    let mut buf = buffer::<4096>();
    no_heap_without_alloc(|| {
        let pool = BufferBlockPool::with_block_size(&mut buf, 480);
        let scope = pool.scope();
        scope.set_limit(Some(512));
        scope.alloc([0_u8; 400]);
        let err = scope.try_alloc([0_u8; 400]).unwrap_err();
        assert!(matches!(err.error(), AllocError::LimitReached { .. }));
        pool.set_limit(Some(1024));
        let other = pool.scope();
        other.alloc(1_u8);
        let third = pool.scope();
        assert!(matches!(
            third.try_alloc(2_u8).unwrap_err().error(),
            AllocError::LimitReached { .. }
        ));
    });
}

#[test]
fn an_unaligned_buffer_is_aligned_and_reserve_cuts_ahead() {
    let mut buf = buffer::<{ 10 * 64 + 32 }>();
    no_heap(|| {
        let pool = BufferBlockPool::with_block_size(&mut buf[3..], 32);
        assert_eq!(pool.blocks_left(), 10);
        pool.reserve(4).unwrap();
        assert_eq!((pool.stats().cached_blocks, pool.blocks_left()), (4, 6));
        let scope = pool.scope();
        let x: &mut u128 = scope.alloc(u128::MAX);
        assert_eq!(std::ptr::from_mut(x).addr() % align_of::<u128>(), 0);
        assert!(matches!(pool.reserve(11), Err(AllocError::BufferExhausted { .. })));
    });
}

#[test]
fn tiny_buffers_make_pools_that_refuse_everything() {
    for len in [0, 1, 15, 16, 47] {
        let mut buf = [MaybeUninit::uninit(); 64];
        no_heap(|| {
            let pool = BufferBlockPool::new(&mut buf[..len]);
            let scope = pool.scope();
            assert!(scope.try_alloc(1_u8).is_err(), "a {len}-byte buffer");
            assert!(scope.try_alloc_slice_copy::<u8>(&[]).is_ok());
        });
    }
}

#[test]
fn a_forgotten_scope_leaks_its_values_and_the_buffer_comes_back() {
    let mut buf = buffer::<1024>();
    let before = drops();
    no_heap(|| {
        let pool = BufferBlockPool::new(&mut buf);
        let scope = pool.scope();
        scope.alloc(Noisy(1));
        core::mem::forget(scope);
        // The forgotten scope keeps its block: the next one has none.
        assert!(pool.scope().try_alloc(1_u8).is_err());
    });
    assert_eq!(drops(), before, "a forgotten scope runs no destructor");
    // The buffer is the caller's again.
    buf.fill(MaybeUninit::new(0xAA));
    // SAFETY: every byte was written just above.
    assert!(buf.iter().all(|b| unsafe { b.assume_init() } == 0xAA));
}

#[test]
fn a_panic_half_way_drops_what_was_made() {
    let mut buf = buffer::<2048>();
    let pool = BufferBlockPool::new(&mut buf);
    let before = drops();
    {
        let scope = pool.scope();
        let result = catch_unwind(AssertUnwindSafe(|| {
            scope.alloc_slice_fill_with(10, |i| {
                assert!(i < 6, "the seventh value fails");
                Noisy(u32::try_from(i).unwrap())
            });
        }));
        assert!(result.is_err());
        assert_eq!(drops(), before + 6, "the six values made are dropped at once");
        no_heap(|| scope.alloc(Noisy(99)));
    }
    assert_eq!(drops(), before + 7);
}

#[test]
fn a_pool_moves_to_another_thread() {
    fn run(pool: &BufferBlockPool<'_>) -> u32 {
        no_heap(|| {
            let scope: Scope<'_> = pool.scope();
            scope.alloc_slice_fill_with(10, |i| u32::try_from(i).unwrap()).iter().sum()
        })
    }
    let mut buf = buffer::<1024>();
    let pool = BufferBlockPool::new(&mut buf);
    let sum = std::thread::scope(|s| s.spawn(move || run(&pool)).join().unwrap());
    assert_eq!(sum, 45);
}

// ----- pools over fixed storage ----------------------------------------------------------

#[test]
fn a_pool_over_storage_inserts_removes_and_checks_keys() {
    let mut storage = PoolStorage::<Noisy, 8>::new();
    let before = drops();
    no_heap(|| {
        Pool::with_storage(&mut storage, |mut pool| {
            assert_eq!(pool.capacity(), 8);
            let keys: [_; 8] =
                core::array::from_fn(|i| pool.insert_keyed(Noisy(u32::try_from(i).unwrap())));
            let full = pool.try_insert(Noisy(99)).unwrap_err();
            assert!(matches!(full.error(), AllocError::CapacityExceeded { max: 8 }));
            assert_eq!(full.into_value().0, 99);
            assert_eq!(pool.remove_key(keys[3]).map(|n| n.0), Some(3));
            let handle = pool.insert(Noisy(30)); // slot 3, a generation on
            assert!(pool.get_key(keys[3]).is_none(), "the old key is stale");
            assert_eq!(pool.key(&handle).index(), keys[3].index());
            assert_eq!(pool.remove(handle).0, 30);
            pool.retain(|_, n| n.0 % 2 == 0);
            assert_eq!(pool.len(), 4);
            assert_eq!(pool.iter().map(|(_, n)| n.0).sum::<u32>(), 2 + 4 + 6);
            let [a, b] = pool.get_disjoint_mut([keys[2], keys[4]]).unwrap();
            core::mem::swap(&mut a.0, &mut b.0);
            assert_eq!(pool.get_key(keys[2]).map(|n| n.0), Some(4));
        });
    });
    // 1 handed back, 2 removed, 3 odd ones retained away, the 4 left when the pool ended.
    assert_eq!(drops(), before + 10);
}

/// A node of a list whose links are keys of its own pool: its type names the brand.
struct Link<'id> {
    tag: Noisy,
    next: Option<Key<'id>>,
}

#[test]
fn a_pool_of_its_own_brand_links_its_values_over_storage() {
    let before = drops();
    let sum = Brand::with(|brand| {
        let mut storage = PoolStorage::<Link<'_>, 4>::new();
        no_heap(|| {
            Pool::with_storage_in(&mut storage, brand, |list| {
                let mut head = None;
                for i in 1..=3 {
                    head = Some(list.insert_keyed(Link { tag: Noisy(i), next: head }));
                }
                let owned = list.insert(Link { tag: Noisy(10), next: head });
                let full = list.try_insert_keyed(Link { tag: Noisy(99), next: None });
                assert!(matches!(
                    full.as_ref().unwrap_err().error(),
                    AllocError::CapacityExceeded { max: 4 }
                ));
                drop(full.unwrap_err().into_value()); // handed back whole, dropped once
                let (mut sum, mut at) = (0, list[&owned].next);
                while let Some(link) = at.and_then(|key| list.get_key(key)) {
                    sum += link.tag.0;
                    at = link.next;
                }
                // The middle link goes: its key is stale, and the walk stops there.
                let middle = list.get_key(head.unwrap()).and_then(|l| l.next).unwrap();
                assert_eq!(list.remove_key(middle).map(|l| l.tag.0), Some(2));
                assert!(list.get_key(middle).is_none());
                sum
            })
        })
    });
    assert_eq!(sum, 6);
    // 99 handed back, 2 removed, and the three left when the call returned.
    assert_eq!(drops(), before + 5);
}

#[test]
fn a_panic_in_a_pool_of_its_own_brand_drops_every_value_once() {
    let before = drops();
    Brand::with(|brand| {
        let mut storage = PoolStorage::<Link<'_>, 4>::new();
        let result = catch_unwind(AssertUnwindSafe(|| {
            Pool::with_storage_in(&mut storage, brand, |list| {
                let first = list.insert_keyed(Link { tag: Noisy(1), next: None });
                list.insert_keyed(Link { tag: Noisy(2), next: Some(first) });
                panic!("half-way");
            })
        }));
        assert!(result.is_err());
        assert_eq!(drops(), before + 2, "the pool's values dropped while unwinding");
        // The storage is empty again: a pool over it holds four.
        Brand::with(|again| {
            let mut storage = PoolStorage::<Link<'_>, 4>::new();
            Pool::with_storage_in(&mut storage, again, |list| {
                for i in 0..4 {
                    list.insert_keyed(Link { tag: Noisy(i), next: None });
                }
                assert!(list.try_insert_keyed(Link { tag: Noisy(4), next: None }).is_err());
            });
        });
    });
}

arena_kit::new_key_type! {
    /// A session's key in the fixed key pool tests.
    struct SessionKey;
}

/// A keyed pool that outlives the function that made it: a struct of the caller's
/// storage's lifetime, as firmware keeps its tables.
struct Table<'s> {
    sessions: FixedKeyPool<'s, Noisy, SessionKey>,
    first: SessionKey,
}

fn open_table(storage: &mut PoolStorage<Noisy, 4>) -> Table<'_> {
    let mut sessions = FixedKeyPool::in_storage_with_key(storage);
    let first = sessions.insert(Noisy(1));
    Table { sessions, first }
}

#[test]
fn a_key_pool_in_storage_is_a_key_pool_without_a_heap() {
    let mut storage = PoolStorage::<Noisy, 4>::new();
    let before = drops();
    no_heap(|| {
        let mut table = open_table(&mut storage);
        let pool = &mut table.sessions;
        assert_eq!((pool.capacity(), pool.len()), (4, 1));
        let keys: [SessionKey; 3] =
            core::array::from_fn(|i| pool.insert(Noisy(10 + u32::try_from(i).unwrap())));
        let full = pool.try_insert(Noisy(99)).unwrap_err();
        assert!(matches!(full.error(), AllocError::CapacityExceeded { max: 4 }));
        assert_eq!(full.into_value().0, 99);
        assert_eq!(pool[table.first].0, 1);
        assert_eq!(pool.remove(keys[0]).map(|n| n.0), Some(10));
        assert!(pool.get(keys[0]).is_none(), "a removed value's key is stale");
        let entry = pool.vacant_entry(); // slot 1 again, a generation on
        let reused = entry.key();
        assert_eq!(entry.insert(Noisy(20)), reused);
        assert_eq!(reused.data().index(), keys[0].data().index());
        assert!(pool.get(keys[0]).is_none(), "the old key stays out of the reused slot");
        let [a, b] = pool.get_disjoint_mut([keys[1], keys[2]]).unwrap();
        core::mem::swap(&mut a.0, &mut b.0);
        assert_eq!((pool[keys[1]].0, pool[keys[2]].0), (12, 11));
        pool.retain(|_, n| n.0 % 2 == 0);
        assert_eq!(pool.iter().map(|(_, n)| n.0).sum::<u32>(), 20 + 12);
        let drained = pool.drain().count();
        assert_eq!((drained, pool.len()), (2, 0));
        pool.insert(Noisy(3));
    });
    // 1 handed back, 1 removed, 2 retained away, 2 drained, and the last when the table
    // was dropped at the end of the guarded block.
    assert_eq!(drops(), before + 7);
    // The storage is free again, for a pool of another salt: a key of the last one
    // (forged from its bits) names nothing here unless the bits match by chance.
    no_heap(|| {
        let mut pool: FixedKeyPool<'_, Noisy> = FixedKeyPool::in_storage(&mut storage);
        assert!(pool.is_empty(), "a new pool over the storage starts empty");
        let k: TypedKey<Noisy> = pool.insert(Noisy(4));
        assert_eq!(pool.get(TypedKey::from_raw(k.to_raw())).map(|n| n.0), Some(4));
    });
}

/// A key travels in a message without a heap: serialised into a fixed buffer and read
/// back, it names the same session (the keys' serde impls need no `alloc`).
#[cfg(feature = "serde")]
#[test]
fn a_key_goes_through_serde_in_a_fixed_buffer() {
    let mut storage = PoolStorage::<Noisy, 4>::new();
    no_heap(|| {
        let mut table = open_table(&mut storage);
        let key = table.sessions.insert(Noisy(7));
        let mut wire = [0_u8; 16];
        let sent = postcard::to_slice(&key, &mut wire).unwrap();
        let back: SessionKey = postcard::from_bytes(sent).unwrap();
        assert_eq!(back, key);
        assert_eq!(table.sessions[back].0, 7);
        let first: SessionKey =
            postcard::from_bytes(postcard::to_slice(&table.first, &mut wire).unwrap()).unwrap();
        assert_eq!(table.sessions[first].0, 1);
    });
}

#[test]
fn a_side_table_in_storage_follows_its_pool_without_a_heap() {
    let mut slots = PoolStorage::<u32, 4>::new();
    let mut side = SecondaryStorage::<Noisy, 4>::new();
    let before = drops();
    no_heap(|| {
        let mut pool: FixedKeyPool<'_, u32> = FixedKeyPool::in_storage(&mut slots);
        let mut names: FixedSecondaryMap<'_, TypedKey<u32>, Noisy> =
            FixedSecondaryMap::in_storage(&mut side);
        let keys: [TypedKey<u32>; 4] =
            core::array::from_fn(|i| pool.insert(u32::try_from(i).unwrap()));
        for &k in &keys {
            assert!(names.insert(k, Noisy(pool[k] * 10)).is_none());
        }
        assert_eq!(names.insert(keys[1], Noisy(11)).map(|n| n.0), Some(10));
        assert_eq!((names.len(), names.capacity()), (4, 4));
        pool.remove(keys[2]);
        let newer = pool.insert(20); // slot 2, a newer key
        assert!(names.get(newer).is_none(), "the entry answers only the key that set it");
        assert!(names.insert(newer, Noisy(200)).is_none()); // replaces the stale entry
        assert!(names.get(keys[2]).is_none());
        names.retain(|k, _| pool.contains_key(k));
        assert_eq!(names.iter().map(|(_, n)| n.0).sum::<u32>(), 11 + 200 + 30);
        *names.entry(keys[0]).unwrap().or_insert(Noisy(0)) = Noisy(5);
        assert_eq!(names[keys[0]].0, 5);
    });
    // 10 replaced by 11, 20 replaced by 200, the unused default of `or_insert`, 0
    // replaced by 5, and the 4 left when the map was dropped.
    assert_eq!(drops(), before + 8);
}

#[test]
fn a_side_table_in_storage_refuses_a_slot_past_its_end() {
    let mut slots = PoolStorage::<(), 4>::new();
    let mut side = SecondaryStorage::<Noisy, 2>::new();
    Pool::with_storage(&mut slots, |pool| {
        // Slot 2 at its first version: a key the two-entry map has no room for.
        let far = pool.key_from_raw((1 << 32) | 2);
        let mut map = FixedSecondaryMap::in_storage(&mut side);
        let before = drops();
        no_heap(|| {
            let refused = map.try_insert(far, Noisy(9)).unwrap_err();
            assert!(matches!(refused.error(), AllocError::CapacityExceeded { max: 2 }));
            assert_eq!(refused.into_value().0, 9);
            assert!(map.is_empty());
        });
        assert_eq!(drops(), before + 1, "the value handed back was dropped once");
        let panicked = catch_unwind(AssertUnwindSafe(|| map.insert(far, Noisy(8))));
        assert!(panicked.is_err(), "insert panics where try_insert refuses");
        assert_eq!(drops(), before + 2);
    });
}

#[test]
fn two_key_pools_in_storage_keep_each_others_keys_out() {
    let (mut a_storage, mut b_storage) =
        (PoolStorage::<u32, 8>::new(), PoolStorage::<u32, 8>::new());
    no_heap(|| {
        let mut a: FixedKeyPool<'_, u32> = FixedKeyPool::in_storage(&mut a_storage);
        let mut b: FixedKeyPool<'_, u32> = FixedKeyPool::in_storage(&mut b_storage);
        let a_keys: [TypedKey<u32>; 8] =
            core::array::from_fn(|i| a.insert(u32::try_from(i).unwrap()));
        for i in 0..8 {
            b.insert(100 + i);
        }
        // Each pool drew a salt of its own, so the same slots carry other versions: a's
        // keys miss in b unless the two salts are equal, a 2^-30 chance.
        assert!(a_keys.iter().all(|&k| b.get(k).is_none()), "a's keys name nothing in b");
        assert!(a_keys.iter().all(|&k| a.get(k).is_some()));
    });
}

#[test]
fn the_storage_serves_the_next_pool_and_old_keys_stay_out() {
    let mut storage = PoolStorage::<u64, 4>::new();
    let raw = no_heap(|| {
        Pool::with_storage(&mut storage, |mut pool| {
            let k = pool.insert_keyed(7);
            pool.shrink_to_fit(); // keeps the storage
            assert_eq!(pool.capacity(), 4);
            k.to_raw()
        })
    });
    no_heap(|| {
        Pool::with_storage(&mut storage, |mut pool| {
            assert!(pool.is_empty(), "a new pool over the storage starts empty");
            let _ = pool.insert(1);
            // A word from the last pool names nothing here but what this pool gave out.
            assert_eq!(pool.get_key(pool.key_from_raw(raw)), Some(&1));
            let made = arena_kit::arena_new!(pool, { 5 });
            assert_eq!(pool[&made], 5);
        });
    });
}

#[test]
fn a_full_pool_panics_on_insert_and_reserve() {
    let mut storage = PoolStorage::<u8, 2>::new();
    Pool::with_storage(&mut storage, |mut pool| {
        no_heap(|| {
            let _ = pool.insert(1);
            let _ = pool.insert(2);
        });
        // The panics' payloads are boxed by std: not under the guard.
        let insert = catch_unwind(AssertUnwindSafe(|| pool.insert(3))).unwrap_err();
        assert!(insert.downcast_ref::<String>().unwrap().contains("2 slots"), "{insert:?}");
        let reserve = catch_unwind(AssertUnwindSafe(|| pool.reserve(1))).unwrap_err();
        assert!(reserve.downcast_ref::<String>().unwrap().contains("fixed storage of 2"));
        assert_eq!(pool.len(), 2, "the pool is intact");
    });
}

#[test]
fn a_forgotten_pool_leaks_its_values_and_the_storage_comes_back() {
    let mut storage = PoolStorage::<Noisy, 4>::new();
    let before = drops();
    no_heap(|| {
        Pool::with_storage(&mut storage, |mut pool| {
            let _ = pool.insert(Noisy(1));
            core::mem::forget(pool);
        });
    });
    assert_eq!(drops(), before, "a forgotten pool drops nothing");
    no_heap(|| Pool::with_storage(&mut storage, |pool| assert!(pool.is_empty())));
}

#[test]
fn a_panicking_destructor_drops_the_other_values_once() {
    struct Bomb(bool);
    impl Drop for Bomb {
        fn drop(&mut self) {
            DROPS.with(|d| d.set(d.get() + 1));
            assert!(!self.0, "the bomb goes off");
        }
    }
    let mut storage = PoolStorage::<Bomb, 4>::new();
    let before = drops();
    let result = catch_unwind(AssertUnwindSafe(|| {
        Pool::with_storage(&mut storage, |mut pool| {
            let _ = pool.insert(Bomb(false));
            let _ = pool.insert(Bomb(true));
            let _ = pool.insert(Bomb(false));
        });
    }));
    assert!(result.is_err());
    assert_eq!(drops(), before + 3, "every value dropped once");
}

// ----- struct-of-arrays rows over storage ---------------------------------------------------

#[test]
fn columns_over_storage_push_scan_and_drop_without_a_heap() {
    let mut storage = ColumnStorage::<(u32, (Noisy, (f32, ()))), 4>::new();
    let before = drops();
    no_heap(|| {
        let mut rows = ColumnVec::in_storage(&mut storage);
        for i in 0..4_u16 {
            rows.push((u32::from(i), (Noisy(u32::from(i)), (f32::from(i) * 0.5, ()))));
        }
        let (id, (noisy, (weight, ()))) = rows.try_push((9, (Noisy(9), (9.0, ())))).unwrap_err();
        assert_eq!((id, noisy.0, weight), (9, 9, 9.0), "a full vector hands the row back");
        drop(noisy);
        let (_, (_, (weights, ()))) = rows.slices();
        assert!((weights.iter().sum::<f32>() - 3.0).abs() < f32::EPSILON);
        let (id, (noisy, _)) = rows.swap_remove(1);
        assert_eq!((id, noisy.0), (1, 1));
        drop(noisy);
        assert_eq!(rows.slices().0, [0, 3, 2], "the last row moved into the hole");
    });
    assert_eq!(drops(), before + 5, "the dropped rows, the rest by the vector's drop");
    no_heap(|| assert!(ColumnVec::in_storage(&mut storage).is_empty()));
}

// ----- the lock-free pool -----------------------------------------------------------------

static FRAMES: AtomicPool<[u32; 4], 8> = AtomicPool::new();

#[test]
fn an_atomic_pool_in_a_static_hands_out_each_slot_once() {
    let boxes = no_heap(|| {
        let boxes: [_; 8] =
            core::array::from_fn(|i| FRAMES.try_alloc([u32::try_from(i).unwrap(); 4]).unwrap());
        assert_eq!(FRAMES.try_alloc([99; 4]).unwrap_err(), [99; 4], "full: the value back");
        boxes
    });
    for (i, b) in boxes.iter().enumerate() {
        assert_eq!(b[0] as usize, i, "no two boxes share a slot");
    }
    drop(boxes);
    no_heap(|| {
        let again = FRAMES.try_alloc([7; 4]).unwrap();
        assert_eq!(AtomicBox::into_inner(again), [7; 4]);
    });
}

#[test]
fn threads_take_and_give_back_slots_without_losing_one() {
    let pool = AtomicPool::<Noisy, 4>::new();
    let before = drops();
    std::thread::scope(|s| {
        for t in 0..3_u32 {
            let pool = &pool;
            s.spawn(move || {
                let rounds = if cfg!(miri) { 20 } else { 2000 };
                let mut made = 0;
                for i in 0..rounds {
                    if let Ok(mut b) = pool.try_alloc(Noisy(t * 100_000 + i)) {
                        b.0 += 1; // the box's value is this thread's alone
                        assert_eq!(b.0, t * 100_000 + i + 1);
                        made += 1;
                    }
                }
                // Boxes dropped on this thread drop their values here.
                DROPS.with(|d| assert_eq!(d.get(), made));
            });
        }
    });
    // Every slot came back: all four can be taken at once again.
    let all: Vec<_> = (0..4).map(|i| pool.try_alloc(Noisy(i)).unwrap()).collect();
    assert!(pool.try_alloc(Noisy(9)).is_err());
    drop(all);
    assert_eq!(drops(), before + 5);
}

#[test]
fn a_box_crosses_threads_and_its_drop_frees_the_slot() {
    let pool = AtomicPool::<Noisy, 1>::new();
    let b = pool.try_alloc(Noisy(5)).unwrap();
    let seen = std::thread::scope(|s| s.spawn(move || b.0).join().unwrap());
    assert_eq!(seen, 5);
    assert!(pool.try_alloc(Noisy(6)).is_ok(), "the box dropped on the other thread");
}

// ----- the derive without an allocator ------------------------------------------------------

#[cfg(feature = "derive")]
mod derived {
    use super::{AllocError, PoolStorage, no_heap};

    /// A plain derived pool: with `alloc` off its only constructor is `with_storage`.
    #[derive(arena_kit::ArenaAlloc, Debug, PartialEq)]
    struct Sensor {
        id: u8,
        reading: i16,
    }

    #[test]
    fn a_derived_pool_runs_over_storage() {
        let mut storage = PoolStorage::<Sensor, 3>::new();
        no_heap(|| {
            SensorPool::with_storage(&mut storage, |mut sensors| {
                let a: SensorKey<'_> = sensors.insert_keyed(Sensor { id: 1, reading: -4 });
                let b = arena_kit::arena_new!(sensors, Sensor { id: 2, reading: 7 });
                let _c = sensors.insert(Sensor { id: 3, reading: 0 });
                let full = arena_kit::try_arena_new!(sensors, Sensor { id: 4, reading: 0 });
                assert!(matches!(
                    full.unwrap_err().error(),
                    AllocError::CapacityExceeded { max: 3 }
                ));
                assert_eq!(sensors.get_key(a).map(|s| s.reading), Some(-4));
                assert_eq!(sensors.remove(b), Sensor { id: 2, reading: 7 });
            });
        });
    }

    /// A fixed capacity chosen on the struct: the storage type and a pool on the stack.
    #[derive(arena_kit::ArenaAlloc, Debug)]
    #[arena(capacity = 4)]
    struct Session {
        peer: u16,
    }

    #[test]
    fn a_fixed_capacity_pool_lives_on_the_stack() {
        let peers = no_heap(|| {
            SessionPool::with_fixed(|mut sessions| {
                let keys = [10, 20, 30, 40].map(|peer| sessions.insert_keyed(Session { peer }));
                let full = sessions.try_insert(Session { peer: 50 }).unwrap_err();
                assert_eq!(full.into_value().peer, 50, "a full pool hands the value back");
                assert_eq!(sessions.remove_key(keys[0]).map(|s| s.peer), Some(10));
                let key = sessions.insert_keyed(Session { peer: 60 });
                assert!(sessions.get_key(keys[0]).is_none(), "the old key is stale");
                assert_eq!(key.index(), keys[0].index(), "the freed slot, reused");
                sessions.iter().map(|(_, s)| u32::from(s.peer)).sum::<u32>()
            })
        });
        assert_eq!(peers, 60 + 20 + 30 + 40);
        let mut storage = SessionStorage::new();
        no_heap(|| {
            let mut table = arena_kit::pool::FixedKeyPool::in_storage(&mut storage);
            let key: arena_kit::TypedKey<Session> = table.insert(Session { peer: 1 });
            assert_eq!(table.get(key).map(|s| s.peer), Some(1));
            assert_eq!(table.capacity(), SessionStorage::CAPACITY);
        });
    }

    /// A struct-of-arrays pool with a capacity chosen on the struct: its storage type and
    /// a pool on the stack, one column per field, no heap.
    #[derive(arena_kit::ArenaAlloc, Debug)]
    #[arena(soa, capacity = 4)]
    struct Particle {
        mass: f32,
        tag: super::Noisy,
    }

    #[test]
    fn a_struct_of_arrays_pool_runs_over_storage_without_a_heap() {
        let before = super::drops();
        let mass = no_heap(|| {
            ParticlePool::with_fixed(|mut pool| {
                let keys = [1.0, 2.0, 3.0]
                    .map(|mass| pool.insert_keyed(Particle { mass, tag: super::Noisy(0) }));
                let owned = pool.insert(Particle { mass: 4.0, tag: super::Noisy(4) });
                let full = pool.try_insert_keyed(Particle { mass: 5.0, tag: super::Noisy(5) });
                let back = full.unwrap_err();
                assert!(matches!(back.error(), AllocError::CapacityExceeded { max: 4 }));
                drop(back.into_value()); // the value comes back whole, and drops once
                let removed = pool.remove_key(keys[0]).map(|p| p.mass);
                assert_eq!(removed, Some(1.0), "gathered back from the columns");
                *pool.mass_mut(&owned) *= 10.0;
                pool.retain(|_, p| *p.mass > 2.5); // drops the keyed row of mass 2
                assert!(pool.get_key(keys[1]).is_none() && pool.get_key(keys[2]).is_some());
                assert_eq!(pool.tag(&owned).0, 4);
                pool.mass_column().iter().sum::<f32>()
            })
        });
        assert!((mass - 43.0).abs() < f32::EPSILON, "rows 3 and 40 are left: {mass}");
        assert_eq!(super::drops(), before + 5, "every value dropped once, at the end too");

        let mut storage = ParticleStorage::new();
        for round in 0..2 {
            no_heap(|| {
                ParticlePool::with_storage(&mut storage, |mut pool| {
                    assert!(pool.is_empty(), "round {round}: the storage comes back empty");
                    for i in 0..4 {
                        pool.insert_keyed(Particle { mass: 1.0, tag: super::Noisy(i) });
                    }
                    assert_eq!(pool.stats().capacity, ParticleStorage::CAPACITY);
                });
            });
        }
    }

    /// A derived plain pool whose values name its brand, with a capacity: the storage
    /// alias names the brand, and `Pool::with_storage_in` runs the pool over it.
    #[derive(arena_kit::ArenaAlloc)]
    #[arena(brand = 'id, capacity = 3)]
    struct Task<'id> {
        tag: super::Noisy,
        after: Option<TaskKey<'id>>,
    }

    #[test]
    fn a_derived_pool_of_its_own_brand_runs_over_its_storage_alias() {
        let before = super::drops();
        let order = arena_kit::Brand::with(|brand| {
            let mut storage = TaskStorage::new();
            no_heap(|| {
                arena_kit::Pool::with_storage_in(&mut storage, brand, |tasks| {
                    let build = tasks.insert_keyed(Task { tag: super::Noisy(1), after: None });
                    let test =
                        tasks.insert_keyed(Task { tag: super::Noisy(2), after: Some(build) });
                    let ship = tasks.insert_keyed(Task { tag: super::Noisy(3), after: Some(test) });
                    assert!(
                        tasks.try_insert_keyed(Task { tag: super::Noisy(4), after: None }).is_err()
                    );
                    let (mut order, mut at) = (0, Some(ship));
                    while let Some(task) = at.and_then(|k| tasks.get_key(k)) {
                        order = order * 10 + task.tag.0;
                        at = task.after;
                    }
                    order
                })
            })
        });
        assert_eq!(order, 321);
        assert_eq!(super::drops(), before + 4, "the refused task and the three");
    }

    /// A derived struct-of-arrays pool whose rows name its brand, with a capacity.
    #[derive(arena_kit::ArenaAlloc)]
    #[arena(soa, brand = 'id, capacity = 4)]
    struct Dir<'id> {
        size: u64,
        tag: super::Noisy,
        parent: Option<arena_kit::Key<'id>>,
    }

    #[test]
    fn a_derived_struct_of_arrays_pool_of_its_own_brand_runs_over_storage() {
        let before = super::drops();
        let total = arena_kit::Brand::with(|brand| {
            let mut storage = DirStorage::new();
            no_heap(|| {
                let mut dirs = DirPool::new_in_storage(&mut storage, brand);
                let root = dirs.insert_keyed(Dir { size: 1, tag: super::Noisy(0), parent: None });
                let usr =
                    dirs.insert_keyed(Dir { size: 2, tag: super::Noisy(1), parent: Some(root) });
                let bin = dirs.insert(Dir { size: 4, tag: super::Noisy(2), parent: Some(usr) });
                // Sizes summed up the tree, through the parent column.
                let mut at = *dirs.parent(&bin);
                let mut up = *dirs.size(&bin);
                while let Some(dir) = at.and_then(|k| dirs.get_key(k)) {
                    up += *dir.size;
                    at = *dir.parent;
                }
                assert_eq!(up, 7);
                assert_eq!(
                    dirs.remove_key(usr).map(|d| d.size),
                    Some(2),
                    "gathered from the columns"
                );
                assert!(dirs.get_key(usr).is_none() && dirs.get_key(root).is_some());
                dirs.size_column().iter().sum::<u64>()
            })
        });
        assert_eq!(total, 5);
        assert_eq!(super::drops(), before + 3, "each row dropped once");
    }
}
