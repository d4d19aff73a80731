//! `Scope::scoped` and `Arena::scoped`: a closure's allocations dropped and rewound when
//! it returns or panics, and the scope's earlier values untouched.

use std::cell::{Cell, RefCell};

use arena_kit::{Arena, ArenaBox, ArenaVec, BlockPool, Scope};

use crate::common::{Noisy, expect_panic};

/// A vector of `blocks` standard blocks' worth of `u64`s: it outgrows the block into a
/// buffer block of its own.
fn vector_past_a_block<'s>(s: &'s Scope<'_>, pool: &BlockPool, blocks: usize) -> ArenaVec<'s, u64> {
    let mut v = ArenaVec::new_in(s);
    v.extend(0..((pool.block_capacity() / 8) * blocks) as u64);
    v
}

#[test]
fn values_made_inside_drop_at_the_end_newest_first_and_earlier_ones_stay() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    scope.alloc(Noisy { id: 1, log: &log });
    let sum = scope.scoped(|s| {
        let a = s.alloc(Noisy { id: 2, log: &log });
        let b = s.alloc(Noisy { id: 3, log: &log });
        a.id + b.id
    });
    assert_eq!(sum, 5);
    assert_eq!(*log.borrow(), [3, 2], "inside values dropped at the end, newest first");
    drop(scope);
    assert_eq!(*log.borrow(), [3, 2, 1]);
}

#[test]
fn each_round_reuses_the_same_bytes() {
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    scope.alloc(7_u64);
    let before = scope.stats();
    let mut addresses = Vec::new();
    for round in 0..10_u64 {
        let addr = scope.scoped(|s| {
            let x = s.alloc(round);
            s.alloc_str("scratch text");
            std::ptr::from_mut(x).addr()
        });
        addresses.push(addr);
        assert_eq!(scope.stats(), before, "round {round} gave every byte back");
    }
    assert!(addresses.windows(2).all(|w| w[0] == w[1]), "{addresses:?}");
}

#[test]
fn a_scope_with_no_block_yet_rewinds_to_its_first_block_start() {
    // A pool with no cached block: the scope takes its first block inside.
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    assert_eq!(scope.stats().blocks, 0);
    scope.scoped(|s| s.alloc([1_u8; 100]).len());
    assert_eq!((scope.stats().blocks, scope.stats().allocated_bytes), (1, 0));
    let mut arena = Arena::new();
    arena.scoped(|s| s.alloc_str("first").len());
    assert_eq!(arena.stats().allocated_bytes, 0);
}

#[test]
fn blocks_taken_inside_stay_until_reset_but_the_values_are_dropped() {
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    scope.alloc(0_u8);
    let big = pool.block_capacity() / 8 + 1;
    scope.scoped(|s| {
        for _ in 0..3 {
            s.alloc_slice_fill_copy(big, 0_u64); // each one more than a block can hold
        }
        s.alloc(crate::common::Counted::new(1, &drops));
    });
    assert_eq!(drops.get(), 1, "dropped at the end even though the bytes stay");
    assert!(scope.stats().blocks > 1, "{:?}", scope.stats());
    scope.reset();
    assert_eq!(scope.stats().blocks, 1);
}

#[test]
fn a_buffer_block_given_back_inside_still_lets_the_cursor_rewind() {
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    scope.alloc(1_u32);
    let before = scope.stats();
    let len = scope.scoped(|s| vector_past_a_block(s, &pool, 3).len());
    assert_eq!(len, (pool.block_capacity() / 8) * 3);
    assert_eq!(scope.stats(), before, "the buffer went back with the vector");
}

#[test]
fn callbacks_registered_inside_run_at_the_end() {
    let ran = Cell::new(0);
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    scope.on_exit(|| ran.set(ran.get() * 10 + 1));
    scope.scoped(|s| s.on_exit(|| ran.set(ran.get() * 10 + 2)));
    assert_eq!(ran.get(), 2);
    drop(scope);
    assert_eq!(ran.get(), 21);
}

#[test]
fn a_panic_inside_leaves_the_values_for_the_reset_and_the_scope_works_on() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    scope.alloc(Noisy { id: 1, log: &log });
    let before = scope.stats();
    expect_panic(|| {
        scope.scoped(|s| {
            s.alloc(Noisy { id: 2, log: &log });
            s.alloc(Noisy { id: 3, log: &log });
            panic!("half-way");
        })
    });
    assert!(log.borrow().is_empty(), "nothing rewound as the panic passed");
    assert!(scope.stats().allocated_bytes > before.allocated_bytes);
    assert_eq!(*scope.alloc(5), 5, "the scope works on");
    let again = scope.scoped(|s| *s.alloc(6));
    assert_eq!(again, 6);
    scope.reset();
    assert_eq!(*log.borrow(), [3, 2, 1], "the reset dropped them, newest first");
}

#[test]
fn a_destructor_that_panics_at_the_end_still_lets_the_others_run() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    expect_panic(|| {
        scope.scoped(|s| {
            s.alloc(Noisy { id: 1, log: &log });
            s.alloc(crate::common::PanicsOnDrop { id: 2, panic_on: 2, log: &log });
            s.alloc(Noisy { id: 3, log: &log });
        });
    });
    assert_eq!(*log.borrow(), [3, 2, 1], "each destructor ran once");
    assert_eq!(*scope.alloc(9), 9, "the scope works on");
}

#[test]
fn a_child_scope_inside_takes_its_own_block_and_ends_first() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    scope.scoped(|s| {
        s.alloc(Noisy { id: 1, log: &log });
        let child = s.scope();
        child.alloc(Noisy { id: 2, log: &log });
    });
    assert_eq!(*log.borrow(), [2, 1]);
    assert_eq!(pool.stats().live_blocks, 1);
}

#[test]
fn a_vector_forgotten_inside_keeps_its_buffer_block_until_the_end() {
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    scope.alloc(1_u8);
    scope.scoped(|s| std::mem::forget(vector_past_a_block(s, &pool, 2)));
    // The buffer block is still held, so the cursor stayed; it goes back at the end.
    assert!(scope.stats().reserved_bytes > pool.block_size());
    assert_eq!(*scope.alloc(3_u8), 3);
    drop(scope);
    assert_eq!(pool.stats().live_blocks, 0);
}

#[test]
fn a_limit_that_gives_the_current_block_back_inside_keeps_the_cursor_in_its_block() {
    // `set_limit` inside gives an unused current block back; the next block may lie at
    // the same address (tests/same_address forces it): the cursor must stay in the block
    // it points into whatever the addresses.
    let mut fresh = Arena::with_capacity(1 << 16);
    let mut after_reset = Arena::new();
    after_reset.alloc(0_u64);
    after_reset.reset();
    for arena in [&mut fresh, &mut after_reset] {
        arena.scoped(|s| {
            s.set_limit(Some(0));
            s.set_limit(None);
            s.alloc_slice_fill_copy(500, 1_u8);
        });
        let block = arena.blocks().next().expect("a block");
        assert!(arena.block_room() <= block.capacity);
        let at = std::ptr::from_ref(arena.alloc(5_u64)).addr();
        assert!((block.addr..block.addr + block.capacity).contains(&at));
    }
    // A pool scope starting on the pool's hot block, which a child then takes.
    let pool = BlockPool::new();
    pool.scope().alloc(0_u8); // its block becomes the hot one
    let mut scope = pool.scope();
    scope.scoped(|s| {
        s.set_limit(Some(0));
        s.set_limit(None);
        let child = s.scope();
        child.alloc_slice_fill_copy(64, 2_u8);
        s.alloc_slice_fill_copy(64, 3_u8);
    });
    let block = scope.blocks().next().expect("a block");
    let at = std::ptr::from_ref(scope.alloc(7_u64)).addr();
    assert!((block.addr..block.addr + block.capacity).contains(&at));
}

#[test]
fn an_oversize_value_inside_leaves_no_lone_block_for_a_later_give_back_to_misread() {
    // An oversize value takes a block of its own ("lone", which its box may give back
    // early). Inside, one stays and one is forgotten; after the rewind, an oversize box
    // given back outside must give back only its own block.
    let pool = BlockPool::with_block_size(1000); // 4 KiB blocks: 6 000 bytes is oversize
    let mut scope = pool.scope();
    scope.alloc(1_u8);
    scope.scoped(|s| {
        assert_eq!(s.alloc([3_u8; 6_000])[0], 3);
        std::mem::forget(ArenaBox::new_in([4_u8; 6_000], s));
    });
    let keep = scope.alloc_slice_fill_copy(10, 9_u8);
    let kept = keep.as_ptr().addr()..keep.as_ptr().addr() + 10;
    drop(ArenaBox::new_in([5_u8; 6_000], &scope));
    let next = scope.alloc_slice_fill_copy(10, 7_u8);
    let at = next.as_ptr().addr();
    assert!(!(kept.contains(&at) || kept.contains(&(at + 9))), "bytes handed out twice");
}

#[test]
fn a_vector_grown_into_its_own_block_inside_ends_every_way_with_one_drop_each() {
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    for round in 0..3 {
        scope.scoped(|s| {
            let mut v = vector_past_a_block(s, &pool, 3);
            v.push(1);
            let mut w = ArenaVec::new_in(s);
            w.push(crate::common::Counted::new(round, &drops));
            match round {
                0 => std::mem::forget(v),
                1 => v.into_slice()[0] = 1,
                _ => v.into_boxed_slice()[0] = 2,
            }
            s.alloc_vec(w);
        });
    }
    assert_eq!(drops.get(), 3, "each round's value dropped once, at its round's end");
    assert!(scope.alloc_slice_fill_copy(5000, 1_u8).iter().all(|&b| b == 1));
}
