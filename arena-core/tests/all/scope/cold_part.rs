//! The bump's cold part (older blocks, buffers, the lone allocation, the limit behind one
//! pointer) and the count of block changes: stats, limits and pool blocks after
//! sequences that make, use and empty the cold part.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};

#[cfg(feature = "allocator-api2")]
use allocator_api2::vec::Vec as ApiVec;
use arena_kit::{Arena, ArenaVec, BlockPool, Scope, block::BlockKind};

/// The stats agree with the block list, and nothing counted exceeds what is held.
#[track_caller]
fn consistent(s: &Scope<'_>) {
    let st = s.stats();
    let blocks: Vec<_> = s.blocks().collect();
    assert_eq!(st.blocks, blocks.len(), "blocks count");
    assert_eq!(st.reserved_bytes, blocks.iter().map(|b| b.size).sum::<usize>(), "reserved");
    let cap: usize = blocks.iter().map(|b| b.capacity).sum();
    assert!(st.allocated_bytes <= cap, "allocated {} > capacity {cap}", st.allocated_bytes);
}

/// After `reset`: the current block at most, nothing allocated.
#[track_caller]
fn empty_after_reset(s: &Scope<'_>) {
    let st = s.stats();
    assert_eq!(st.allocated_bytes, 0, "allocated after reset: {st:?}");
    assert!(st.blocks <= 1, "{st:?}");
    consistent(s);
}

fn pattern(s: &[u8], b: u8) -> bool {
    s.iter().all(|&x| x == b)
}

#[cfg(feature = "allocator-api2")]
/// A standard-size allocator request that does not fit the current block's rest, where a
/// new block would keep less room than the current one: a lone block. Shrunk in place
/// (not the tip, already aligned) and freed with the smaller layout, as the `Allocator`
/// contract requires: the counts must come back, and a reset must zero them.
#[test]
fn a_lone_allocation_shrunk_in_place_then_freed_leaves_the_counts_right() {
    let pool = BlockPool::new();
    let cap = pool.block_capacity();
    let mut scope = pool.scope();
    scope.alloc_slice_fill_copy(cap / 2 - 256, 0_u8);
    let before = scope.stats();
    {
        let mut v: ApiVec<u8, &Scope<'_>> = ApiVec::with_capacity_in(cap / 2 + 512, &scope);
        assert_eq!(scope.stats().blocks, 2, "the setup: a lone block");
        assert_eq!(scope.blocks().nth(1).map(|b| b.kind), Some(BlockKind::Retired));
        v.extend_from_slice(&[7; 10]);
        v.shrink_to_fit(); // in place: its layout is now 10 bytes
        assert_eq!(v.capacity(), 10);
    } // deallocate(ptr, 10 bytes): the lone block goes back
    assert_eq!(pool.stats().live_blocks, 1, "the lone block went back");
    assert_eq!(scope.stats(), before);
    consistent(&scope);
    scope.reset();
    empty_after_reset(&scope);
}

#[cfg(feature = "allocator-api2")]
/// Same, read only after the reset (which used to zero the count whatever it held).
#[test]
fn a_lone_allocation_shrunk_in_place_then_freed_then_reset() {
    let pool = BlockPool::new();
    let cap = pool.block_capacity();
    let mut scope = pool.scope();
    scope.alloc_slice_fill_copy(cap / 2 - 256, 0_u8);
    {
        let mut v: ApiVec<u8, &Scope<'_>> = ApiVec::with_capacity_in(cap / 2 + 512, &scope);
        v.push(7);
        v.shrink_to_fit();
    }
    scope.reset();
    empty_after_reset(&scope);
}

/// An `ArenaVec` in a lone standard block gives the block back when it drops.
#[test]
fn a_vector_in_a_lone_standard_block_gives_it_back() {
    let pool = BlockPool::new();
    let cap = pool.block_capacity();
    let mut scope = pool.scope();
    scope.alloc_slice_fill_copy(cap / 2 - 64, 0x11_u8);
    let room = scope.block_room();
    {
        let mut v = ArenaVec::<u8>::with_capacity_in(room + 256, &scope);
        v.extend(std::iter::repeat_n(0x22, room + 256));
        assert_eq!(scope.stats().blocks, 2);
        assert_eq!(scope.blocks().nth(1).unwrap().kind, BlockKind::Retired);
        consistent(&scope);
    }
    assert_eq!(scope.stats().blocks, 1, "the lone block went back with the vector");
    assert_eq!(pool.stats().live_blocks, 1);
    consistent(&scope);
    assert!(pattern(scope.alloc_slice_fill_copy(100, 0x33_u8), 0x33));
    scope.reset();
    empty_after_reset(&scope);
    drop(scope);
    assert_eq!(pool.stats().live_blocks, 0);
}

/// A lone block, then a new current block (the chain changes: the lone mark must go),
/// then the first vector drops: nothing may be given back.
#[test]
fn a_lone_allocation_is_forgotten_when_the_current_block_changes() {
    let pool = BlockPool::new();
    let cap = pool.block_capacity();
    let scope = pool.scope();
    scope.alloc_slice_fill_copy(cap / 2, 1_u8);
    let mut v = ArenaVec::<u8>::with_capacity_in(cap / 2 + 512, &scope); // lone
    v.extend(std::iter::repeat_n(2, cap / 2 + 512));
    let big = scope.alloc_slice_fill_copy(cap - 100, 3_u8); // replaces the current block
    let before = scope.stats();
    drop(v);
    assert_eq!(scope.stats(), before, "not the tip, not lone: nothing given back");
    let after = scope.alloc_slice_fill_copy(64, 4_u8);
    assert!(pattern(big, 3) && pattern(after, 4));
    consistent(&scope);
}

/// A slice reservation in a lone block, given back when its fill panics (with and
/// without drop nodes): the block goes back, the values written are dropped.
#[test]
fn a_panicking_fill_gives_a_lone_reservation_back() {
    struct Live<'a>(&'a Cell<i32>);
    impl Drop for Live<'_> {
        fn drop(&mut self) {
            self.0.set(self.0.get() - 1);
        }
    }
    let live = Cell::new(0_i32);
    let pool = BlockPool::new();
    let bs = pool.block_size();
    let scope = pool.scope();
    scope.alloc(1_u64);
    let before = scope.stats();
    let n = 3 * bs / 8;
    let r = catch_unwind(AssertUnwindSafe(|| {
        scope.alloc_slice_fill_with(n, |i| {
            assert!(i != n / 2, "fill panics");
            i as u64
        });
    }));
    assert!(r.is_err());
    assert_eq!(scope.stats(), before, "the lone block went back");
    let r = catch_unwind(AssertUnwindSafe(|| {
        scope.alloc_slice_fill_with(n, |i| {
            assert!(i != n / 2, "fill panics");
            live.set(live.get() + 1);
            Live(&live)
        });
    }));
    assert!(r.is_err());
    assert_eq!(live.get(), 0, "the values written were dropped");
    assert_eq!(scope.stats(), before, "the lone block (node and slice) went back");
    assert_eq!(pool.stats().live_blocks, 1);
    assert!(pattern(scope.alloc_slice_fill_copy(n, 0x42_u8), 0x42));
    consistent(&scope);
}

#[test]
fn set_limit_none_makes_nothing_and_limits_read_back() {
    let pool = BlockPool::new();
    let bs = pool.block_size();
    let mut scope = pool.scope();
    scope.set_limit(None); // no cold part yet: nothing to do
    assert_eq!((scope.limit(), scope.stats().blocks), (None, 0));
    scope.set_limit(Some(bs));
    assert_eq!(scope.limit(), Some(bs));
    scope.alloc(1_u8);
    assert!(scope.try_alloc_slice_fill_copy(bs, 0_u8).is_err());
    scope.reset();
    scope.set_limit(Some(0)); // the block is unused, no older one: it goes back
    assert_eq!(
        (scope.limit(), scope.stats().blocks, scope.stats().reserved_bytes),
        (Some(0), 0, 0)
    );
    assert!(scope.try_alloc(1_u8).is_err());
    scope.set_limit(None);
    assert_eq!(scope.limit(), None);
    assert_eq!(*scope.alloc(3_u8), 3);
    consistent(&scope);
    drop(scope);
    assert_eq!(pool.stats().live_blocks, 0);
}

/// A scope on the pool's hot block whose first allocation is oversize: the hot block
/// stays current and unused while a lone block holds the value; a limit of 0 must not
/// give back anything (the chain is not empty).
#[test]
fn set_limit_keeps_an_unused_current_block_while_a_lone_block_is_held() {
    let pool = BlockPool::new();
    pool.scope().alloc(0_u8); // the pool now has a hot block
    let bs = pool.block_size();
    let scope = pool.scope();
    let big = scope.alloc_slice_fill_copy(3 * bs, 0x5A_u8);
    assert_eq!(scope.stats().blocks, 2, "the setup: lone, the hot block current and unused");
    scope.set_limit(Some(0));
    assert_eq!(scope.stats().blocks, 2);
    assert!(pattern(big, 0x5A));
    assert!(scope.try_alloc(1_u8).is_ok(), "bumps into the current block under the limit");
    consistent(&scope);
}

/// Values from before a `scoped` call are intact after it, whatever the closure did to
/// the blocks: filled a block, took oversize values, set a limit, grew a buffer.
#[test]
fn scoped_with_block_changes_inside_keeps_earlier_values() {
    // Under Miri, 1 KiB blocks rather than two pages: the same cases relative to the block
    // (a nearly full block, a block's worth, oversize values, a buffer of three blocks),
    // with a fraction of the bytes to fill and check.
    let pool = if cfg!(miri) { BlockPool::with_block_size(1024) } else { BlockPool::new() };
    let bs = pool.block_size();
    let cap = pool.block_capacity();
    for case in 0..6 {
        let mut scope = pool.scope();
        let a = scope.alloc_slice_fill_copy(200, 0xA1_u8).as_ptr();
        let b_len = if case % 2 == 0 { cap - 400 } else { 10 };
        let b = scope.alloc_slice_fill_copy(b_len, 0xB2_u8).as_ptr();
        scope.scoped(|s| match case {
            0 | 1 => {
                s.alloc_slice_fill_copy(cap, 1_u8);
                s.alloc_slice_fill_copy(cap / 2, 2_u8);
            }
            2 | 3 => {
                s.alloc_slice_fill_copy(3 * bs, 3_u8);
                s.set_limit(Some(0));
                assert!(s.try_alloc_slice_fill_copy(cap, 4_u8).is_err());
                s.set_limit(None);
            }
            _ => {
                let mut v = ArenaVec::<u8>::new_in(s);
                v.extend(std::iter::repeat_n(5, 3 * bs));
                s.alloc_slice_fill_copy(cap, 6_u8);
            }
        });
        consistent(&scope);
        let after = scope.alloc_slice_fill_copy(300, 0xC3_u8);
        // SAFETY: `a` was allocated before `scoped`, 200 bytes, and is still in the scope.
        let a_now = unsafe { std::slice::from_raw_parts(a, 200) };
        // SAFETY: as `a`, `b_len` bytes.
        let b_now = unsafe { std::slice::from_raw_parts(b, b_len) };
        assert!(pattern(a_now, 0xA1) && pattern(b_now, 0xB2), "case {case}");
        assert!(pattern(after, 0xC3));
        scope.reset();
        empty_after_reset(&scope);
    }
    assert_eq!(pool.stats().live_blocks, 0);
}

/// An arena with no block: every `scoped` round rewinds to nothing allocated, also when
/// the closure makes the cold part (a limit).
#[test]
fn scoped_from_no_block_with_a_limit_set_inside() {
    let mut arena = Arena::new();
    for round in 0..5_u8 {
        arena.scoped(|s| {
            s.alloc_slice_fill_copy(100, round);
            if round % 2 == 1 {
                s.set_limit(Some(usize::MAX));
            }
        });
        let st = arena.stats();
        assert!(st.blocks <= 1 && st.allocated_bytes == 0, "round {round}: {st:?}");
        consistent(&arena);
    }
    assert_eq!(arena.limit(), Some(usize::MAX), "a limit set inside stays");
}
