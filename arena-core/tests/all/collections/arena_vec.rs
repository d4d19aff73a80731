//! `ArenaVec` and `ArenaString`: contents, the growth policy's bytes held, destructors,
//! limits, nesting.

use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};

use arena_kit::{AllocError, Arena, ArenaString, ArenaVec, BlockPool};

use crate::common::{Noisy, PanicsOnDrop, scaled, sorted};

/// Pushes `n` bytes one at a time (W6) and checks that the scope holds at most 1.1x the
/// capacity reached (plus the first standard block for strings smaller than 100 000
/// bytes, where that block is more than a tenth).
fn one_byte_pushes_hold_little_more_than_the_capacity(n: usize) {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut s = ArenaString::new_in(&scope);
    for i in 0..n {
        s.push(char::from(b'a' + (i % 26) as u8));
    }
    assert_eq!(s.len(), n);
    assert!(s.bytes().enumerate().all(|(i, b)| b == b'a' + (i % 26) as u8));
    let held = scope.stats().reserved_bytes;
    assert!(s.capacity() >= n);
    assert!(
        held * 10 <= s.capacity() * 11 + if n < 100_000 { pool.block_size() * 10 } else { 0 },
        "held {held} for capacity {}",
        s.capacity()
    );
    drop(s);
    assert_eq!(
        pool.stats().dedicated_blocks,
        0,
        "the buffer block went back when the string dropped"
    );
    assert_eq!(scope.stats().reserved_bytes, pool.block_size());
}

#[test]
fn a_vector_and_a_string_are_four_words() {
    // Pointer, length, capacity and a plain reference to the scope's memory: as small as
    // bumpalo's `Vec` (which keeps its bump the same way).
    assert_eq!(size_of::<ArenaVec<'_, u8>>(), 4 * size_of::<usize>());
    assert_eq!(size_of::<ArenaVec<'_, String>>(), 4 * size_of::<usize>());
    assert_eq!(size_of::<ArenaString<'_>>(), 4 * size_of::<usize>());
}

#[test]
fn w6_growth_holds_at_most_a_tenth_more_than_the_capacity() {
    one_byte_pushes_hold_little_more_than_the_capacity(scaled(100_000));
    if !cfg!(miri) {
        one_byte_pushes_hold_little_more_than_the_capacity(1_000_000);
    }
}

#[test]
fn growth_at_the_tip_is_in_place_and_fills_the_block() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v = ArenaVec::new_in(&scope);
    v.push(0_u64);
    let first = v.as_ptr();
    while v.len() < 900 {
        v.push(v.len() as u64);
    }
    assert_eq!(v.as_ptr(), first, "nothing else allocated: every growth was in place");
    // The block holds (8176 - 32) / 8 = 1018 u64s: the last growth filled it.
    assert_eq!(v.capacity(), (pool.block_size() - 32) / 8);
    assert_eq!(scope.stats().blocks, 1);
    assert!(v.iter().copied().eq(0..900));
}

#[test]
fn vectors_that_interleave_keep_their_contents() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut a = ArenaVec::new_in(&scope);
    let mut b = ArenaVec::new_in(&scope);
    let mut c = ArenaString::new_in(&scope);
    for i in 0..scaled(20_000) as u32 {
        a.push(i);
        b.push(u64::from(i) * 3);
        c.push(char::from(b'0' + (i % 10) as u8));
        if i % 1000 == 0 {
            scope.alloc(i); // something else at the tip now and then
        }
    }
    assert!(a.iter().copied().eq(0..scaled(20_000) as u32));
    assert!(b.iter().copied().eq((0..scaled(20_000) as u64).map(|i| i * 3)));
    assert!(c.bytes().enumerate().all(|(i, ch)| ch == b'0' + (i % 10) as u8));
}

#[test]
fn every_element_is_dropped_once_across_moves_and_blocks() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    let scope = pool.scope();
    let n = scaled(3000) as u32;
    {
        let mut v = ArenaVec::new_in(&scope);
        for id in 0..n {
            v.push(Noisy { id, log: &log });
            if id % 500 == 0 {
                scope.alloc(id);
            }
        }
        let last = v.pop().expect("non-empty");
        assert_eq!(last.id, n - 1);
        drop(last);
        v.truncate(10);
        assert_eq!(log.borrow().len(), n as usize - 10);
    }
    let mut seen = log.into_inner();
    seen.sort_unstable();
    assert!(seen.into_iter().eq(0..n), "each element dropped exactly once");
}

#[test]
fn a_panicking_destructor_still_frees_the_buffer() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    let scope = pool.scope();
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut v = ArenaVec::new_in(&scope);
        for id in 0..scaled(2000) as u32 {
            v.push(PanicsOnDrop { id, panic_on: 7, log: &log });
        }
    }));
    assert!(result.is_err());
    assert_eq!(log.borrow().len(), scaled(2000), "the others still dropped");
    assert_eq!(pool.stats().dedicated_blocks, 0, "the buffer block went back");
}

#[test]
fn a_limit_hands_the_value_back_and_leaves_the_vector_as_it_was() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v = ArenaVec::new_in(&scope);
    v.extend(0..100_u32);
    scope.set_limit(Some(scope.stats().reserved_bytes));
    // The vector may fill its block (in place at the tip), but no more.
    let err = loop {
        if let Err(err) = v.try_push(99) {
            break err;
        }
    };
    assert!(matches!(err.error(), AllocError::LimitReached { .. }), "{err}");
    assert_eq!(err.into_value(), 99);
    let cap = v.capacity();
    assert_eq!(v.len(), cap, "it failed only when full");
    assert_eq!(cap, (pool.block_size() - 32) / 4, "it filled its block first");
    assert!(v.try_push(5).is_err());
    assert_eq!((v.len(), v.capacity()), (cap, cap), "a failed push changes nothing");
    assert_eq!(v.try_reserve(usize::MAX), Err(AllocError::SizeOverflow));

    // A buffer block that would grow past the limit.
    scope.set_limit(Some(scope.stats().reserved_bytes + 64 * 1024));
    while v.try_push(2).is_ok() {}
    assert!(v.capacity() * 4 > 8192, "it reached a buffer block first");
    assert!(scope.stats().reserved_bytes <= scope.limit().unwrap());
    assert_eq!(v[..100], (0..100).collect::<Vec<_>>()[..]);
}

#[test]
fn a_pool_limit_stops_a_buffer_block_from_growing() {
    let pool = BlockPool::new();
    pool.set_limit(Some(pool.block_size() + 40 * 1024));
    let scope = pool.scope();
    let mut s = ArenaString::new_in(&scope);
    let mut pushed = 0;
    // Sixty-four characters at a time, then one at a time up to the limit (a push per
    // character is slow in Miri).
    let chunk = "x".repeat(64);
    while s.try_push_str(&chunk).is_ok() {
        pushed += chunk.len();
    }
    while s.try_push('x').is_ok() {
        pushed += 1;
    }
    assert_eq!(s.len(), pushed);
    assert!(pushed > 8192, "grew into a buffer block before the limit");
    let stats = pool.stats();
    assert!(stats.live_bytes <= pool.block_size() + 40 * 1024, "{stats:?}");
}

#[test]
fn an_outer_vector_grows_while_an_inner_scope_is_open() {
    // bump-scope's GHSA-xhx6-q96x-pf9c: growing a collection of the outer scope while an
    // inner one is open must not overwrite the inner scope's values.
    let pool = BlockPool::new();
    let outer = pool.scope();
    let mut v = ArenaVec::new_in(&outer);
    v.push(0_u64);
    let inner = outer.scope();
    let values: Vec<&mut u64> = (0..scaled(2000) as u64).map(|i| inner.alloc(i)).collect();
    for i in 1..scaled(5000) as u64 {
        v.push(i);
    }
    assert!(values.iter().enumerate().all(|(i, x)| **x == i as u64), "inner values intact");
    assert!(v.iter().copied().eq(0..scaled(5000) as u64));
    drop(values);
    drop(inner);
    v.push(7);
    assert_eq!(v.last(), Some(&7));
}

#[test]
fn arenas_and_over_aligned_elements_grow_into_buffer_blocks() {
    #[derive(Clone, Copy, PartialEq, Debug)]
    #[repr(align(64))]
    struct Line(u32);
    let arena = Arena::new();
    let mut v = ArenaVec::new_in(&arena);
    for i in 0..scaled(1000) as u32 {
        v.push(Line(i));
        assert_eq!(v.as_ptr() as usize % 64, 0);
    }
    assert!(v.iter().enumerate().all(|(i, l)| l.0 == i as u32));
    let kept = v.into_slice();
    arena.alloc(1_u8);
    assert_eq!(kept[scaled(1000) - 1], Line(scaled(1000) as u32 - 1), "kept until the arena ends");
}

#[test]
fn zero_sized_elements_take_no_memory() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v = ArenaVec::new_in(&scope);
    for _ in 0..1000 {
        v.push(());
    }
    assert_eq!((v.len(), v.capacity()), (1000, usize::MAX));
    assert_eq!(scope.stats().reserved_bytes, 0);
}

#[test]
fn strings_take_any_utf8_and_format() {
    use core::fmt::Write;
    let arena = Arena::new();
    let mut s = ArenaString::from_str_in("αβ", &arena);
    s.push('γ');
    write!(s, "-{}-", 42).unwrap();
    assert_eq!(s, "αβγ-42-");
    assert_eq!(format!("{s}|{s:?}"), "αβγ-42-|\"αβγ-42-\"");
    s.make_ascii_uppercase();
    assert_eq!(s.as_str(), "αβγ-42-");
    s.clear();
    assert!(s.is_empty());
}

mod model {
    //! `ArenaVec` against `Vec` under random operations, with drop counting: same
    //! contents after every step, every destructor run exactly once, through all three
    //! growth regimes (other allocations interleave, so the vector is not always the tip).

    use std::cell::Cell;

    use arena_kit::{ArenaVec, BlockPool};
    use proptest::prelude::*;

    /// Counts its drops in a shared cell.
    #[derive(Debug)]
    struct Counted<'a>(u32, &'a Cell<usize>);
    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.1.set(self.1.get() + 1);
        }
    }
    impl Clone for Counted<'_> {
        fn clone(&self) -> Self {
            Counted(self.0, self.1)
        }
    }

    #[derive(Debug, Clone)]
    enum Op {
        Push(u32),
        Pop,
        Insert(usize, u32),
        Remove(usize),
        SwapRemove(usize),
        Retain(u32),
        Truncate(usize),
        Resize(usize, u32),
        Extend(u32, u8),
        AllocElsewhere,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => any::<u32>().prop_map(Op::Push),
            1 => Just(Op::Pop),
            2 => (any::<usize>(), any::<u32>()).prop_map(|(i, v)| Op::Insert(i, v)),
            1 => any::<usize>().prop_map(Op::Remove),
            1 => any::<usize>().prop_map(Op::SwapRemove),
            1 => (2..5_u32).prop_map(Op::Retain),
            1 => (0..600_usize).prop_map(Op::Truncate),
            1 => (0..1500_usize, any::<u32>()).prop_map(|(n, v)| Op::Resize(n, v)),
            1 => (any::<u32>(), any::<u8>()).prop_map(|(v, n)| Op::Extend(v, n)),
            1 => Just(Op::AllocElsewhere),
        ]
    }

    proptest! {
        #![proptest_config(crate::common::proptest_config(128))]

        #[test]
        fn arena_vec_behaves_like_vec(ops in proptest::collection::vec(op(), 1..if cfg!(miri) { 20 } else { 300 })) {
            let drops = Cell::new(0);
            let made = Cell::new(0_usize);
            let pool = BlockPool::new();
            let scope = pool.scope();
            {
                let mut ours = ArenaVec::new_in(&scope);
                let mut model: Vec<u32> = Vec::new();
                let new = |v: u32| {
                    made.set(made.get() + 1);
                    Counted(v, &drops)
                };
                for op in ops {
                    match op {
                        Op::Push(v) => { ours.push(new(v)); model.push(v); }
                        Op::Pop => { prop_assert_eq!(ours.pop().map(|c| c.0), model.pop()); }
                        Op::Insert(i, v) => {
                            let i = i % (model.len() + 1);
                            ours.insert(i, new(v));
                            model.insert(i, v);
                        }
                        Op::Remove(i) if !model.is_empty() => {
                            let i = i % model.len();
                            prop_assert_eq!(ours.remove(i).0, model.remove(i));
                        }
                        Op::SwapRemove(i) if !model.is_empty() => {
                            let i = i % model.len();
                            prop_assert_eq!(ours.swap_remove(i).0, model.swap_remove(i));
                        }
                        Op::Retain(m) => { ours.retain(|c| c.0 % m != 0); model.retain(|v| v % m != 0); }
                        Op::Truncate(n) => { ours.truncate(n); model.truncate(n); }
                        Op::Resize(n, v) => {
                            let n = if cfg!(miri) { n % 50 } else { n };
                            let grow = n.saturating_sub(model.len());
                            made.set(made.get() + grow + 1); // the clones and `value` itself
                            ours.resize(n, Counted(v, &drops));
                            model.resize(n, v);
                        }
                        Op::Extend(v, count) => {
                            let count = usize::from(count % 40);
                            ours.extend((0..count).map(|k| new(v.wrapping_add(k as u32))));
                            model.extend((0..count).map(|k| v.wrapping_add(k as u32)));
                        }
                        Op::AllocElsewhere => { scope.alloc([0_u64; 16]); }
                        Op::Remove(_) | Op::SwapRemove(_) => {}
                    }
                    prop_assert!(ours.iter().map(|c| c.0).eq(model.iter().copied()));
                    prop_assert!(ours.capacity() >= ours.len());
                }
            }
            prop_assert_eq!(drops.get(), made.get(), "every element dropped exactly once");
        }
    }
}

#[test]
fn retain_that_panics_half_way_keeps_or_drops_each_element_once() {
    let log = RefCell::new(Vec::new());
    let arena = Arena::new();
    let mut v = ArenaVec::new_in(&arena);
    v.extend((0..10).map(|id| Noisy { id, log: &log }));
    let mut seen = 0;
    let result = catch_unwind(AssertUnwindSafe(|| {
        v.retain(|n| {
            seen += 1;
            assert!(seen < 6, "keep panics on its sixth call");
            n.id % 2 == 0
        });
    }));
    assert!(result.is_err());
    // 1 and 3 were dropped before the panic; 5 was being asked about and stays.
    assert_eq!(*log.borrow(), [1, 3]);
    let left: Vec<u32> = v.iter().map(|n| n.id).collect();
    assert_eq!(left, [0, 2, 4, 5, 6, 7, 8, 9]);
    drop(v);
    let mut all = log.into_inner();
    all.sort_unstable();
    assert_eq!(all, (0..10).collect::<Vec<_>>(), "each dropped exactly once");
}

/// A vector with no room left, by one of two ways: `with_capacity_in(n)` filled to the
/// capacity it got (at least `n`), or `reserve_exact(n)` filled to exactly `n`.
fn full_vector<'a, 's>(
    n: usize,
    exact: bool,
    log: &'a RefCell<Vec<u32>>,
    arena: &'s Arena,
) -> ArenaVec<'s, Noisy<'a>> {
    let mut v = if exact {
        let mut v = ArenaVec::new_in(arena);
        v.reserve_exact(n);
        assert_eq!(v.capacity(), n, "`reserve_exact` on an empty vector gives exactly n");
        v
    } else {
        ArenaVec::with_capacity_in(n, arena)
    };
    let cap = u32::try_from(v.capacity()).expect("a small capacity");
    v.extend((0..cap).map(|id| Noisy { id, log }));
    assert_eq!(v.len(), v.capacity(), "full: no room left");
    v
}

fn ids(v: &[Noisy<'_>]) -> Vec<u32> {
    v.iter().map(|n| n.id).collect()
}

#[test]
fn split_off_at_every_index_of_a_full_or_empty_vector_splits_like_std() {
    for n in [0, 1, 2, 3, 7, 8, 9, 16] {
        for exact in [false, true] {
            let len = full_vector(n, exact, &RefCell::new(Vec::new()), &Arena::new()).len();
            for at in 0..=len {
                let log = RefCell::new(Vec::new());
                let arena = Arena::new();
                let mut v = full_vector(n, exact, &log, &arena);
                let cap = v.capacity();
                let expected: Vec<u32> = (0..u32::try_from(len).expect("small")).collect();
                let tail = v.split_off(at);
                assert_eq!(ids(&v), expected[..at], "n {n}, at {at}: the head");
                assert_eq!(ids(&tail), expected[at..], "n {n}, at {at}: the tail");
                assert_eq!(v.capacity(), cap, "the head keeps its capacity");
                assert!(tail.capacity() >= len - at);
                assert!(log.borrow().is_empty(), "nothing dropped by the split");
                drop((v, tail));
                assert_eq!(sorted(&log), expected, "n {n}, at {at}: each dropped once");
            }
        }
    }
}

#[test]
fn split_off_of_an_empty_vector_gives_two_empty_ones() {
    let arena = Arena::new();
    let mut never_grown: ArenaVec<'_, u64> = ArenaVec::new_in(&arena);
    let mut no_room: ArenaVec<'_, u64> = ArenaVec::with_capacity_in(0, &arena);
    for v in [&mut never_grown, &mut no_room] {
        let tail = v.split_off(0);
        assert!(v.is_empty() && tail.is_empty());
        drop(tail);
        v.push(1);
        assert_eq!(v.split_off(1).len(), 0);
        assert_eq!(v.as_slice(), [1]);
    }
}

/// The other operations that copy or drop a possibly empty run at the end of the
/// buffer, on a vector with no room left: each must leave the vector whole and drop
/// each element once.
#[test]
fn zero_length_moves_at_the_end_of_a_full_vector_change_nothing() {
    let check = |name: &str, op: &dyn Fn(&mut ArenaVec<'_, Noisy<'_>>, &Arena)| {
        for n in [0, 1, 2, 7, 8] {
            for exact in [false, true] {
                let log = RefCell::new(Vec::new());
                let arena = Arena::new();
                let mut v = full_vector(n, exact, &log, &arena);
                let before = ids(&v);
                op(&mut v, &arena);
                assert_eq!(ids(&v), before, "{name}, n {n}: the vector is whole");
                assert!(log.borrow().is_empty(), "{name}, n {n}: nothing dropped");
                drop(v);
                assert_eq!(sorted(&log), before, "{name}, n {n}: each dropped once");
            }
        }
    };
    check("drain(len..len)", &|v, _| assert_eq!(v.drain(v.len()..).count(), 0));
    check("drain(..0)", &|v, _| assert_eq!(v.drain(..0).count(), 0));
    check("extract_if(len..)", &|v, _| {
        assert_eq!(v.extract_if(v.len().., |_| true).count(), 0);
    });
    check("extract_if(.., false)", &|v, _| assert_eq!(v.extract_if(.., |_| false).count(), 0));
    check("truncate(len)", &|v, _| v.truncate(v.len()));
    check("truncate(len + 1)", &|v, _| v.truncate(v.len() + 1));
    check("retain(true)", &|v, _| v.retain(|_| true));
    check("retain_mut(true)", &|v, _| v.retain_mut(|_| true));
    check("append(empty)", &|v, arena| v.append(&mut ArenaVec::with_capacity_in(0, arena)));
    check("append onto empty", &|v, arena| {
        let mut empty = ArenaVec::with_capacity_in(0, arena);
        empty.append(v);
        assert!(v.is_empty());
        v.append(&mut empty);
    });
    check("split_off(len) then append", &|v, _| {
        let mut tail = v.split_off(v.len());
        v.append(&mut tail);
    });
    check("insert at len, then pop", &|v, _| {
        let log = v.first().map(|n| n.log);
        if let Some(log) = log {
            v.insert(v.len(), Noisy { id: 999, log });
            assert_eq!(v.pop().map(|n| n.id), Some(999), "the new last element");
            log.borrow_mut().clear();
        }
    });
    check("split_off(0), into_iter back", &|v, _| {
        let moved = v.split_off(0);
        v.extend(moved);
    });
}

#[test]
fn copy_extensions_at_the_end_of_a_full_vector_work() {
    let arena = Arena::new();
    for n in [0, 1, 8] {
        let mut v: ArenaVec<'_, u8> = ArenaVec::new_in(&arena);
        v.reserve_exact(n);
        v.resize(n, 7);
        assert_eq!(v.len(), v.capacity());
        v.extend_from_slice_copy(&[]);
        v.extend_from_slices_copy(&[&[], &[]]);
        v.resize(n, 0);
        assert_eq!(v.as_slice(), vec![7; n]);
        v.extend_from_slice_copy(&[1]);
        assert_eq!(v.len(), n + 1);
    }
}
