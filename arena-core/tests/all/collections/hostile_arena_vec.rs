//! Hostile programs against `ArenaVec`: panicking destructors in `retain`, `truncate` and
//! drop; panicking `Clone` in `resize` and `extend_from_slice`; `extend` with a lying size
//! hint; element destructors that allocate in the scope, drop another vector or push into a
//! sibling vector; zero-sized and page-aligned elements through every growth regime; huge
//! reservations; vectors of a parent and a child swapped; `into_slice` after each regime;
//! vectors across `Arena::reset`; a pool limit reached in the vector's own block; `insert`
//! past the end.

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};

use arena_kit::{AllocError, Arena, ArenaVec, BlockPool, Scope};

use crate::common::{
    Counted, Page, PanicsOnClone, PanicsOnDrop, ZstDrop, expect_panic, reset_zst_drops, scaled,
    zst_drops,
};

#[test]
fn retain_whose_removed_element_panics_in_its_destructor_keeps_the_rest_and_drops_each_once() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v = ArenaVec::new_in(&scope);
    for id in 0..10 {
        v.push(PanicsOnDrop { id, panic_on: 4, log: &log });
    }
    let result = catch_unwind(AssertUnwindSafe(|| v.retain(|p| p.id % 2 == 1)));
    assert!(result.is_err());
    // 0, 2, 4 dropped (4 panicked inside its drop); 1, 3 kept; 5..10 untouched and kept.
    assert_eq!(log.borrow().len(), 3);
    let left: Vec<u32> = v.iter().map(|p| p.id).collect();
    assert_eq!(left, [1, 3, 5, 6, 7, 8, 9]);
    for p in &mut v {
        p.panic_on = u32::MAX;
    }
    drop(v);
    assert_eq!(log.borrow().len(), 10);
}

#[test]
fn truncate_and_drop_with_a_panicking_destructor_drop_every_element_once_and_free_the_buffer() {
    let log = RefCell::new(Vec::new());
    // More than a block of elements, even under Miri: the buffer gets a block of its own.
    let big = if cfg!(miri) { 600 } else { 3000 };
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        let mut v = ArenaVec::new_in(&scope);
        for id in 0..10 {
            v.push(PanicsOnDrop { id, panic_on: 7, log: &log });
        }
        expect_panic(|| v.truncate(5));
        assert_eq!(v.len(), 5);
        assert_eq!(log.borrow().len(), 5, "5..10 dropped, including the panicking 7");
        for p in &mut v {
            p.panic_on = 2;
        }
        expect_panic(|| drop(v));
        assert_eq!(log.borrow().len(), 10);
        // The buffer (at the tip) was given back: a new vector starts there.
        let mut w: ArenaVec<'_, u8> = ArenaVec::new_in(&scope);
        w.push(1);
    }
    // A big vector in a block of its own: the block goes back even if a destructor panics.
    {
        let scope = pool.scope();
        let mut v = ArenaVec::new_in(&scope);
        for id in 0..big {
            v.push(PanicsOnDrop { id, panic_on: 1, log: &log });
        }
        expect_panic(|| drop(v));
        assert_eq!(pool.stats().dedicated_blocks, 0);
    }
    assert_eq!(log.borrow().len(), 10 + big as usize);
    assert_eq!(pool.stats().live_blocks, 0);
}

#[test]
fn resize_and_extend_from_slice_with_a_panicking_clone_keep_len_and_drop_counts_exact() {
    let clones = Cell::new(0);
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    let scope = pool.scope();
    let proto = PanicsOnClone { clones: &clones, fail_at: 4, drops: &drops };
    let mut v = ArenaVec::new_in(&scope);
    expect_panic(|| v.resize(10, proto.twin()));
    assert_eq!(v.len(), 4);
    // The `value` argument was dropped by the unwinding resize.
    assert_eq!(drops.get(), 1);
    clones.set(0);
    let src = [proto.twin(), proto.twin(), proto.twin()];
    clones.set(2);
    let mut w = ArenaVec::new_in(&scope);
    expect_panic(|| w.extend_from_slice(&src));
    assert_eq!(w.len(), 2);
    let before = drops.get();
    drop(v);
    drop(w);
    assert_eq!(drops.get(), before + 6);
    drop(src);
    drop(proto);
}

/// Says it has at least `lo` items, has `real`.
struct LowLiar {
    lo: usize,
    real: usize,
}

impl Iterator for LowLiar {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        (self.real > 0).then(|| {
            self.real -= 1;
            self.real as u32
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.lo, None)
    }
}

#[test]
fn extend_with_a_lying_size_hint_panics_or_succeeds_but_keeps_the_vector_valid() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v = ArenaVec::new_in(&scope);
    v.extend(LowLiar { lo: 1000, real: 3 });
    assert_eq!(v.as_slice(), [2, 1, 0]);
    expect_panic(|| v.extend(LowLiar { lo: usize::MAX, real: 3 }));
    assert_eq!(v.as_slice(), [2, 1, 0]);
    v.push(9);
    assert_eq!(v.len(), 4);
}

#[test]
fn element_destructors_may_allocate_in_the_same_scope_while_the_vector_truncates_and_drops() {
    struct Alloc<'s, 'p> {
        scope: &'s Scope<'p>,
        drops: &'s Cell<usize>,
    }
    impl Drop for Alloc<'_, '_> {
        fn drop(&mut self) {
            let s = self.scope.alloc_slice_fill_copy(100, 0xAB_u8);
            assert!(s.iter().all(|&b| b == 0xAB));
            let mut v = ArenaVec::new_in(self.scope);
            v.extend(0..50_u64);
            self.drops.set(self.drops.get() + 1);
        }
    }
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        let mut v = ArenaVec::new_in(&scope);
        for _ in 0..scaled(100) {
            v.push(Alloc { scope: &scope, drops: &drops });
        }
        v.truncate(scaled(50));
        drop(v);
        let after = scope.alloc_slice_fill_copy(10, 7_u32);
        assert_eq!(after, [7; 10]);
    }
    assert_eq!(drops.get(), scaled(100));
}

#[test]
fn a_vector_dropped_inside_another_vectors_element_gives_the_tip_back_twice_correctly() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut outer: ArenaVec<'_, Option<ArenaVec<'_, u64>>> = ArenaVec::new_in(&scope);
    outer.push(None);
    let mut inner = ArenaVec::new_in(&scope);
    inner.extend(0..100_u64);
    outer[0] = Some(inner); // inner's buffer is the tip, after outer's
    let mut next = ArenaVec::new_in(&scope);
    drop(outer); // drops inner (the tip goes back), then outer's buffer (the tip again)
    next.extend(0..1000_u64);
    let s = scope.alloc_slice_fill_copy(3, 5_u64);
    assert_eq!(s, [5, 5, 5]);
    assert_eq!(next[999], 999);
}

#[test]
fn zero_sized_elements_count_and_drop_exactly() {
    reset_zst_drops();
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v = ArenaVec::new_in(&scope);
    assert_eq!(v.capacity(), usize::MAX);
    for _ in 0..100 {
        v.push(ZstDrop);
    }
    v.insert(50, ZstDrop);
    drop(v.remove(0));
    drop(v.swap_remove(3));
    assert_eq!(zst_drops(), 2);
    v.retain({
        let mut k = 0;
        move |_| {
            k += 1;
            k % 2 == 0
        }
    });
    assert_eq!(v.len(), 49);
    assert_eq!(zst_drops(), 2 + 50);
    assert_eq!(v.try_reserve(usize::MAX - 49), Ok(()));
    assert_eq!(v.try_reserve(usize::MAX), Err(AllocError::SizeOverflow));
    v.truncate(10);
    assert_eq!(zst_drops(), 2 + 50 + 39);
    drop(v);
    assert_eq!(zst_drops(), 101);
    let mut u: ArenaVec<'_, ()> = ArenaVec::new_in(&scope);
    u.extend(std::iter::repeat_n((), 1000));
    let s = u.into_slice();
    assert_eq!(s.len(), 1000);
}

#[test]
fn page_aligned_elements_stay_aligned_and_intact_through_every_growth_regime() {
    let pages = if cfg!(miri) { 6 } else { 12 };
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        scope.alloc(1_u8);
        let mut v = ArenaVec::new_in(&scope);
        for tag in 0..pages {
            v.push(Page { tag, drops: Some(&drops) });
            scope.alloc(3_u8); // anything after it: the vector is not the tip any more
            for (i, p) in v.iter().enumerate() {
                assert_eq!(p as *const Page<'_> as usize % 4096, 0);
                assert_eq!(p.tag, i as u64);
            }
        }
        v.insert(0, Page { tag: 99, drops: Some(&drops) });
        assert_eq!(v.remove(0).tag, 99);
    }
    assert_eq!(drops.get(), pages as usize + 1);
    assert_eq!(pool.stats().live_blocks, 0);
    assert_eq!(pool.stats().dedicated_blocks, 0);
}

#[test]
fn huge_reservations_fail_cleanly_and_leave_the_vector_unchanged() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v = ArenaVec::new_in(&scope);
    v.extend([1_u64, 2, 3]);
    assert_eq!(v.try_reserve(usize::MAX), Err(AllocError::SizeOverflow));
    assert!(v.try_reserve(usize::MAX / 2).is_err());
    if !cfg!(miri) {
        // A real allocation attempt that the system refuses (Miri cannot model a refusal).
        assert!(v.try_reserve(isize::MAX as usize / 8 - 10).is_err());
    }
    assert_eq!(v.as_slice(), [1, 2, 3]);
    let mut b: ArenaVec<'_, u8> = ArenaVec::new_in(&scope);
    assert!(b.try_reserve(isize::MAX as usize).is_err());
    assert!(b.try_reserve(usize::MAX / 2).is_err());
    b.push(1);
    expect_panic(|| ArenaVec::<u16>::with_capacity_in(usize::MAX / 2, &scope));
    assert_eq!(b.as_slice(), [1]);
}

#[test]
fn swapping_vectors_of_a_parent_and_a_child_scope_frees_each_buffer_in_its_own_scope() {
    let n = if cfg!(miri) { 500 } else { 3000 };
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    {
        let parent = pool.scope();
        let mut a = ArenaVec::new_in(&parent);
        a.extend((0..n).map(|i| Counted::new(i, &drops)));
        {
            let child = parent.scope();
            let mut b = ArenaVec::new_in(&child);
            b.extend((0..10).map(|i| Counted::new(100_000 + i, &drops)));
            let mut a2 = std::mem::replace(&mut a, ArenaVec::new_in(&parent));
            std::mem::swap(&mut a2, &mut b);
            // `a2` now holds the child's buffer, `b` the parent's (big, in a block of its own).
            b.push(Counted::new(7, &drops));
            a2.push(Counted::new(8, &drops));
            assert_eq!(a2.len(), 11);
            assert_eq!(b.len(), n + 1);
            drop(a2);
            drop(b);
        }
        a.push(Counted::new(9, &drops));
    }
    assert_eq!(drops.get(), n + 10 + 3);
    assert_eq!(pool.stats().live_blocks, 0);
}

#[test]
fn into_slice_after_each_growth_regime_keeps_the_values_until_the_scope_ends() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut slices = Vec::new();
    // From a few bytes at the tip of a block to more than a standard block (a block of its own).
    let lens: [usize; 4] = if cfg!(miri) { [1, 100, 1000, 3000] } else { [1, 100, 3000, 20_000] };
    for len in lens {
        let mut v = ArenaVec::new_in(&scope);
        v.extend((0..len).map(|i| i as u32));
        slices.push(v.into_slice());
        scope.alloc_slice_fill_copy(50, 0xFFFF_FFFF_u32);
    }
    for s in &slices {
        for (i, x) in s.iter().enumerate() {
            assert_eq!(*x, i as u32);
        }
    }
}

#[test]
fn arena_vectors_grow_and_free_in_an_arena_across_resets() {
    let n = if cfg!(miri) { 700 } else { 5000 };
    let mut arena = Arena::new();
    for round in 0..3_u64 {
        {
            let mut v = ArenaVec::new_in(&arena);
            let mut w = ArenaVec::new_in(&arena);
            for i in 0..n as u64 {
                v.push(i + round);
                if i % 3 == 0 {
                    w.push(i);
                }
            }
            assert_eq!(v[n - 1], n as u64 - 1 + round);
            let _keep = v.into_slice();
        }
        arena.reset();
    }
}

#[test]
fn a_vector_in_its_own_block_at_a_pool_limit_hands_values_back_and_frees_its_block() {
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    pool.set_limit(Some(6 * pool.block_size()));
    {
        let scope = pool.scope();
        let mut v = ArenaVec::new_in(&scope);
        let mut pushed = 0;
        loop {
            match v.try_push(Counted::new(pushed, &drops)) {
                Ok(()) => pushed += 1,
                Err(e) => {
                    assert!(matches!(e.error(), AllocError::LimitReached { .. }));
                    assert_eq!(e.into_value().id, pushed);
                    break;
                }
            }
        }
        assert!(pushed * size_of::<Counted<'_>>() > pool.block_size(), "regime 3 reached");
        assert!(v.iter().enumerate().all(|(i, c)| c.id == i));
        let cap = v.capacity();
        assert!(v.try_reserve(cap).is_err());
        assert_eq!(v.len(), pushed);
        drop(v);
        assert_eq!(drops.get(), pushed + 1);
        assert_eq!(pool.stats().dedicated_blocks, 0);
    }
    assert_eq!(pool.stats().live_blocks, 0);
}

#[test]
fn insert_past_the_end_panics_and_drops_its_value_once_amid_inserts_and_removes() {
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v = ArenaVec::new_in(&scope);
    let mut model: Vec<usize> = Vec::new();
    let mut made = 0;
    for i in 0..scaled(400) {
        match i % 5 {
            0 | 1 => {
                let at = if model.is_empty() { 0 } else { i % (model.len() + 1) };
                v.insert(at, Counted::new(i, &drops));
                model.insert(at, i);
                made += 1;
            }
            2 => {
                v.push(Counted::new(i, &drops));
                model.push(i);
                made += 1;
            }
            3 if !model.is_empty() => {
                let at = i % model.len();
                assert_eq!(v.remove(at).id, model.remove(at));
            }
            _ if !model.is_empty() => {
                let at = i % model.len();
                assert_eq!(v.swap_remove(at).id, model.swap_remove(at));
            }
            _ => {}
        }
        assert!(v.iter().map(|c| c.id).eq(model.iter().copied()));
    }
    expect_panic(|| v.insert(v.len() + 1, Counted::new(0, &drops)));
    assert_eq!(drops.get(), made - model.len() + 1, "the removed ones and the rejected one");
    drop(v);
    assert_eq!(drops.get(), made + 1);
}

#[test]
fn an_element_may_push_into_a_sibling_vector_through_a_refcell_while_being_dropped() {
    /// Values each destructor pushes.
    const PER_DROP: u64 = if cfg!(miri) { 20 } else { 100 };
    struct Pusher<'a, 's>(&'a RefCell<ArenaVec<'s, u64>>, u64);
    impl Drop for Pusher<'_, '_> {
        fn drop(&mut self) {
            let mut s = self.0.borrow_mut();
            for k in 0..PER_DROP {
                s.push(self.1 * 1000 + k);
            }
        }
    }
    let pool = BlockPool::new();
    let scope = pool.scope();
    let sink: RefCell<ArenaVec<'_, u64>> = RefCell::new(ArenaVec::new_in(&scope));
    {
        let mut v = ArenaVec::new_in(&scope);
        for i in 0..20 {
            v.push(Pusher(&sink, i));
        }
        v.truncate(10);
        v.retain(|p| p.1 % 2 == 0);
    }
    let s = sink.borrow();
    assert_eq!(s.len(), 20 * PER_DROP as usize);
    let mut all: Vec<u64> = s.iter().copied().collect();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 20 * PER_DROP as usize);
}
