//! Attacks on the vector and string operations bumpalo users rely on: `drain`,
//! `extract_if`, taking a vector apart by value, handing it to its scope, shrinking,
//! splitting. Every element is dropped exactly once, panics included, and every buffer
//! goes back.

use std::cell::{Cell, RefCell};
use std::io::Write as _;

use arena_kit::{Arena, ArenaString, ArenaVec, BlockPool, block::BlockKind};

use crate::common::{
    Counted, Noisy, PanicsOnDrop, ZstDrop, expect_panic, reset_zst_drops, scaled, sorted, zst_drops,
};

fn counted<'a>(
    n: usize,
    drops: &'a Cell<usize>,
    arena: &'a Arena<'_>,
) -> ArenaVec<'a, Counted<'a>> {
    ArenaVec::from_iter_in((0..n).map(|i| Counted::new(i, drops)), arena)
}

#[test]
fn drain_moves_the_tail_back_and_drops_what_it_did_not_yield() {
    let drops = Cell::new(0);
    let arena = Arena::new();
    let mut v = counted(10, &drops, &arena);
    {
        let mut d = v.drain(2..7);
        assert_eq!(d.len(), 5);
        assert_eq!(d.next().map(|c| c.id), Some(2));
        assert_eq!(d.next_back().map(|c| c.id), Some(6));
    }
    assert_eq!(drops.get(), 5);
    assert_eq!(v.iter().map(|c| c.id).collect::<Vec<_>>(), [0, 1, 7, 8, 9]);
    v.drain(..).for_each(drop);
    v.drain(0..0).for_each(drop);
    assert!(v.is_empty());
    assert_eq!(drops.get(), 10);
}

#[test]
fn a_bad_drain_range_panics_and_leaves_the_vector_alone() {
    let drops = Cell::new(0);
    let arena = Arena::new();
    let mut v = counted(4, &drops, &arena);
    let (three, two) = (3, 2);
    expect_panic(|| v.drain(three..5).count());
    expect_panic(|| v.drain(three..two).count());
    expect_panic(|| v.drain(..=usize::MAX).count());
    assert_eq!((v.len(), drops.get()), (4, 0));
}

#[test]
fn a_panicking_destructor_inside_a_drain_drops_the_rest_and_restores_the_tail() {
    let log = RefCell::new(Vec::new());
    let arena = Arena::new();
    let mut v = ArenaVec::new_in(&arena);
    v.extend((0..6).map(|id| PanicsOnDrop { id, panic_on: 2, log: &log }));
    expect_panic(|| drop(v.drain(1..4)));
    assert_eq!(sorted(&log), [1, 2, 3]);
    assert_eq!(v.iter().map(|p| p.id).collect::<Vec<_>>(), [0, 4, 5]);
    drop(v);
    assert_eq!(sorted(&log), [0, 1, 2, 3, 4, 5]);
}

#[test]
fn a_leaked_drain_or_extract_if_leaks_elements_but_never_drops_twice() {
    let drops = Cell::new(0);
    let arena = Arena::new();
    let mut v = counted(6, &drops, &arena);
    std::mem::forget(v.drain(2..4));
    assert_eq!(v.len(), 2, "only the elements before the range stay");
    let mut w = counted(6, &drops, &arena);
    let mut it = w.extract_if(.., |c| c.id % 2 == 0);
    assert_eq!(it.next().map(|c| c.id), Some(0));
    std::mem::forget(it);
    assert_eq!(w.len(), 0, "a leaked extract_if leaves an empty vector");
    drop((v, w));
    assert_eq!(drops.get(), 2 + 1, "two kept by `v`, one extracted; the rest leaked");
}

#[test]
fn extract_if_stopped_early_keeps_the_rest_in_order() {
    let drops = Cell::new(0);
    let arena = Arena::new();
    let mut v = counted(10, &drops, &arena);
    let first_two: Vec<usize> =
        v.extract_if(2.., |c| c.id % 3 == 0).take(2).map(|c| c.id).collect();
    assert_eq!(first_two, [3, 6]);
    assert_eq!(v.iter().map(|c| c.id).collect::<Vec<_>>(), [0, 1, 2, 4, 5, 7, 8, 9]);
    assert_eq!(drops.get(), 2);
}

#[test]
fn extract_if_may_change_the_elements_it_keeps() {
    let arena = Arena::new();
    let mut v = ArenaVec::from_iter_in(1..=6, &arena);
    let odd: Vec<i32> = v
        .extract_if(.., |x| {
            *x *= 10;
            *x % 20 != 0
        })
        .collect();
    assert_eq!((odd, v.as_slice()), (vec![10, 30, 50], &[20, 40, 60][..]));
}

#[test]
fn into_iter_drops_what_is_left_and_gives_the_buffer_back() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    let scope = pool.scope();
    scope.alloc(0_u8);
    let before = scope.stats().allocated_bytes;
    let mut v = ArenaVec::new_in(&scope);
    v.extend((0..8).map(|id| PanicsOnDrop { id, panic_on: 5, log: &log }));
    let mut it = v.into_iter();
    assert_eq!(it.next().map(|p| p.id), Some(0));
    assert_eq!(it.next_back().map(|p| p.id), Some(7));
    expect_panic(move || drop(it));
    assert_eq!(sorted(&log), [0, 1, 2, 3, 4, 5, 6, 7]);
    assert!(scope.stats().allocated_bytes <= before + 8, "the buffer went back");
}

#[test]
fn into_iter_of_a_vector_in_its_own_block_frees_the_block() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v = ArenaVec::new_in(&scope);
    v.extend(0..(2 * pool.block_size() / 8) as u64); // twice what a block holds
    assert!(scope.blocks().any(|b| b.kind == BlockKind::Buffer));
    let sum: u64 = v.into_iter().take(3).sum();
    assert_eq!(sum, 3);
    assert!(scope.blocks().all(|b| b.kind != BlockKind::Buffer));
}

#[test]
fn alloc_vec_makes_the_scope_drop_the_elements_once_in_order() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        scope.alloc(Noisy { id: 1, log: &log });
        let mut v = ArenaVec::new_in(&scope);
        v.extend((10..13).map(|id| Noisy { id, log: &log }));
        let slice = scope.alloc_vec(v);
        slice[0].id = 20;
        scope.alloc(Noisy { id: 2, log: &log });
        assert!(log.borrow().is_empty());
    }
    assert_eq!(*log.borrow(), [2, 20, 11, 12, 1], "newest first; the slice as one unit");
}

#[test]
fn alloc_vec_with_a_panicking_destructor_drops_the_others_and_the_scope_goes_on() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    expect_panic(|| {
        let scope = pool.scope();
        let mut v = ArenaVec::new_in(&scope);
        v.extend((0..4).map(|id| PanicsOnDrop { id, panic_on: 1, log: &log }));
        scope.alloc_vec(v);
        scope.alloc(PanicsOnDrop { id: 9, panic_on: 1, log: &log });
    });
    assert_eq!(sorted(&log), [0, 1, 2, 3, 9]);
    assert_eq!(pool.stats().live_blocks, 0);
}

#[test]
fn alloc_vec_moves_another_scopes_elements_and_frees_their_buffer() {
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    let parent = pool.scope();
    let kept = {
        let child = parent.scope();
        let mut v = ArenaVec::new_in(&child);
        v.extend((0..scaled(3000)).map(|i| Counted::new(i, &drops)));
        let kept = parent.alloc_vec(v);
        assert_eq!(child.stats().allocated_bytes, 0, "the child's buffer went back");
        kept
    };
    assert_eq!(kept.len(), scaled(3000));
    assert!(kept.iter().enumerate().all(|(i, c)| c.id == i));
    assert_eq!(drops.get(), 0);
    drop(parent);
    assert_eq!(drops.get(), scaled(3000));
}

#[test]
fn alloc_vec_gives_spare_capacity_back_and_handles_every_regime() {
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v = ArenaVec::with_capacity_in(64, &scope);
    v.extend((0..3).map(|i| Counted::new(i, &drops)));
    let before = scope.stats().allocated_bytes;
    let s = scope.alloc_vec(v);
    assert_eq!(s.len(), 3);
    assert!(scope.stats().allocated_bytes < before, "61 spare elements came back");
    let big = ArenaVec::from_iter_in((0..scaled(1200)).map(|i| Counted::new(i, &drops)), &scope);
    let big = scope.alloc_vec(big);
    let empty = scope.alloc_vec(ArenaVec::<Counted<'_>>::new_in(&scope));
    assert_eq!((big.len(), empty.len()), (scaled(1200), 0));
    drop(scope);
    assert_eq!(drops.get(), 3 + scaled(1200));
}

#[test]
fn alloc_vec_at_the_limit_hands_the_vector_back_whole() {
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    let scope = pool.scope();
    scope.set_limit(Some(pool.block_size()));
    let mut v = ArenaVec::new_in(&scope);
    v.extend((0..3).map(|i| Counted::new(i, &drops)));
    scope.alloc_slice_fill_copy(scope.block_room(), 0_u8); // no room for a drop record
    let v = scope.try_alloc_vec(v).unwrap_err().into_value();
    assert_eq!(v.iter().map(|c| c.id).collect::<Vec<_>>(), [0, 1, 2]);
    drop(v);
    assert_eq!(drops.get(), 3);
}

#[test]
fn alloc_vec_of_zero_sized_elements_drops_each_once() {
    reset_zst_drops();
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        let mut v = ArenaVec::new_in(&scope);
        v.extend((0..5).map(|_| ZstDrop));
        scope.alloc_vec(v);
        assert_eq!(zst_drops(), 0);
    }
    assert_eq!(zst_drops(), 5);
}

#[test]
fn shrink_to_fit_gives_back_at_the_tip_and_keeps_capacity_elsewhere() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v = ArenaVec::<u32>::with_capacity_in(50, &scope);
    v.extend(0..10);
    scope.alloc(1_u8); // no longer the tip
    v.shrink_to_fit();
    assert_eq!(v.capacity(), 50, "not the tip: nothing to give back");
    let mut w = ArenaVec::<u32>::with_capacity_in(50, &scope);
    w.extend(0..10);
    w.shrink_to_fit();
    assert_eq!(w.capacity(), 10);
    w.clear();
    w.shrink_to_fit();
    assert_eq!(w.capacity(), 0);
    w.push(5);
    assert_eq!(w, [5]);
}

#[test]
fn shrink_to_fit_of_a_vector_in_its_own_block_resizes_or_frees_the_block() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let buffers =
        |s: &arena_kit::Scope<'_>| s.blocks().filter(|b| b.kind == BlockKind::Buffer).count();
    let mut v = ArenaVec::new_in(&scope);
    v.extend(0..(4 * pool.block_size() / 8) as u64);
    let held = scope.stats().reserved_bytes;
    v.truncate(2 * pool.block_size() / 8);
    v.shrink_to_fit();
    assert!(scope.stats().reserved_bytes < held, "the block was resized down");
    assert_eq!(buffers(&scope), 1);
    v.truncate(10);
    v.shrink_to_fit();
    assert_eq!(buffers(&scope), 0, "small again: moved back, its block freed");
    assert_eq!((v.capacity(), v.as_slice()), (10, &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9][..]));
}

#[test]
fn reserve_exact_takes_what_is_asked_where_it_can() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v = ArenaVec::<u64>::new_in(&scope);
    v.reserve_exact(3);
    assert_eq!(v.capacity(), 3);
    v.extend([1, 2, 3]);
    v.reserve_exact(2); // at the tip: in place
    assert_eq!(v.capacity(), 5);
    scope.alloc(0_u8);
    v.reserve_exact(3); // elsewhere: moved, exactly
    assert_eq!((v.capacity(), v.as_slice()), (6, &[1, 2, 3][..]));
    assert!(v.try_reserve_exact(usize::MAX).is_err());
    assert_eq!(v.capacity(), 6);
}

#[test]
fn split_off_and_append_move_elements_and_drop_each_once() {
    let drops = Cell::new(0);
    let arena = Arena::new();
    let mut a = counted(6, &drops, &arena);
    let mut b = a.split_off(2);
    assert_eq!((a.len(), b.len()), (2, 4));
    expect_panic(|| a.split_off(3));
    let other = Arena::new();
    let mut c = ArenaVec::from_iter_in((10..12).map(|i| Counted::new(i, &drops)), &other);
    b.append(&mut c);
    a.append(&mut b);
    assert_eq!(a.iter().map(|x| x.id).collect::<Vec<_>>(), [0, 1, 2, 3, 4, 5, 10, 11]);
    assert!(b.is_empty() && c.is_empty());
    drop((a, b, c));
    assert_eq!(drops.get(), 8);
}

#[test]
fn writing_past_a_limit_is_an_io_error_and_changes_nothing() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    scope.set_limit(Some(pool.block_size()));
    let mut v = ArenaVec::new_in(&scope);
    v.write_all(b"header").unwrap();
    let err = v.write_all(&vec![0; pool.block_size()]).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::OutOfMemory);
    assert_eq!(v, *b"header");
}

#[test]
fn string_edits_keep_utf8_and_refuse_non_boundaries() {
    let arena = Arena::new();
    let mut s = ArenaString::from_str_in("añb", &arena);
    expect_panic(|| s.insert(2, 'x')); // inside `ñ`
    expect_panic(|| s.remove(2));
    expect_panic(|| s.remove(4)); // at the end
    s.insert(0, '¿');
    s.insert_str(s.len(), "?!");
    assert_eq!(s, "¿añb?!");
    assert_eq!(s.remove(0), '¿');
    s.retain(char::is_alphabetic);
    assert_eq!(s, "añb");
    s.extend(['c', 'd']);
    s.extend(["é", "f"]);
    s.extend(&['g']);
    assert_eq!(s, "añbcdéfg");
    let mut all_removed = ArenaString::from_str_in("ééé", &arena);
    all_removed.retain(|_| false);
    assert_eq!(all_removed, "");
}
