//! Attacks on `ArenaBox`: every value is dropped exactly once, by its box and never by the
//! scope, whatever the box goes through (leaks, resets, unsizing, panics, threads).

use std::cell::{Cell, RefCell};

use arena_kit::{Arena, ArenaBox, ArenaString, ArenaVec, BlockPool, CollectIn, unsize_box};

use crate::common::{
    Counted, Noisy, PanicsOnDrop, ZstDrop, expect_panic, reset_zst_drops, scaled, sorted, zst_drops,
};

#[test]
fn a_box_may_hold_a_borrow_of_a_sibling_and_drops_before_it() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        let older = scope.alloc(Noisy { id: 1, log: &log });
        {
            // The boxed value borrows a value the scope will drop: the box drops first.
            let b = ArenaBox::new_in((Noisy { id: 2, log: &log }, &*older), &scope);
            assert_eq!(b.1.id, 1);
        }
        assert_eq!(*log.borrow(), [2]);
    }
    assert_eq!(*log.borrow(), [2, 1]);
}

#[test]
fn the_scope_never_drops_a_boxed_value_even_when_the_box_is_forgotten() {
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        let kept = ArenaBox::new_in(Counted::new(1, &drops), &scope);
        let forgotten = ArenaBox::new_in(Counted::new(2, &drops), &scope);
        std::mem::forget(forgotten);
        drop(kept);
        assert_eq!(drops.get(), 1);
    }
    assert_eq!(drops.get(), 1, "the forgotten value leaks; nothing runs twice");
}

#[test]
fn a_reset_after_a_forgotten_box_reuses_its_bytes_without_dropping_the_value() {
    let drops = Cell::new(0);
    let mut arena = Arena::new();
    let b = ArenaBox::new_in(Counted::new(1, &drops), &arena);
    let addr = std::ptr::from_ref(&*b) as usize;
    std::mem::forget(b);
    arena.reset();
    let reused = arena.alloc(0_u64);
    assert_eq!(std::ptr::from_ref(&*reused) as usize, addr, "the bytes are reused");
    drop(arena);
    assert_eq!(drops.get(), 0, "the forgotten value is never dropped, by anyone");
}

#[test]
fn into_inner_and_leak_hand_the_value_over_once() {
    let drops = Cell::new(0);
    let arena = Arena::new();
    let out = ArenaBox::into_inner(ArenaBox::new_in(Counted::new(1, &drops), &arena));
    assert_eq!(drops.get(), 0);
    drop(out);
    assert_eq!(drops.get(), 1);
    let leaked = ArenaBox::leak(ArenaBox::new_in(Counted::new(2, &drops), &arena));
    assert_eq!(leaked.id, 2);
    drop(arena);
    assert_eq!(drops.get(), 1, "a leaked value is never dropped");
}

trait Shape {
    fn area(&self) -> u32;
}

struct Square<'a>(u32, &'a Cell<usize>);

impl Shape for Square<'_> {
    fn area(&self) -> u32 {
        self.0 * self.0
    }
}

impl Drop for Square<'_> {
    fn drop(&mut self) {
        self.1.set(self.1.get() + 1);
    }
}

#[test]
fn unsized_boxes_drop_their_value_through_the_trait_object_once() {
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    let scope = pool.scope();
    let shapes: Vec<ArenaBox<'_, dyn Shape + '_>> = (1..=3)
        .map(|i| -> ArenaBox<'_, dyn Shape + '_> {
            unsize_box!(ArenaBox::new_in(Square(i, &drops), &scope))
        })
        .collect();
    assert_eq!(shapes.iter().map(|s| s.area()).sum::<u32>(), 14);
    drop(shapes);
    assert_eq!(drops.get(), 3);

    let array = ArenaBox::new_in([Counted::new(0, &drops), Counted::new(1, &drops)], &scope);
    let slice: ArenaBox<'_, [Counted<'_>]> = unsize_box!(array);
    assert_eq!(slice.len(), 2);
    drop(slice);
    let display: ArenaBox<'_, dyn std::fmt::Display> = unsize_box!(ArenaBox::new_in(5_u8, &scope));
    assert_eq!(display.to_string(), "5");
    let same = unsize_box!(ArenaBox::new_in(Counted::new(2, &drops), &scope)); // no target: as is
    assert_eq!(same.id, 2);
    drop(same);
    assert_eq!(drops.get(), 6);
}

#[test]
fn a_panicking_destructor_in_a_box_runs_once_and_the_scope_goes_on() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    let scope = pool.scope();
    let b = ArenaBox::new_in(PanicsOnDrop { id: 1, panic_on: 1, log: &log }, &scope);
    expect_panic(move || drop(b));
    let after = ArenaBox::new_in(PanicsOnDrop { id: 2, panic_on: 1, log: &log }, &scope);
    drop(after);
    assert_eq!(*log.borrow(), [1, 2]);
}

#[test]
fn zero_sized_values_in_boxes_drop_once_each() {
    reset_zst_drops();
    let arena = Arena::new();
    let boxes: Vec<_> = (0..scaled(100)).map(|_| ArenaBox::new_in(ZstDrop, &arena)).collect();
    assert_eq!(arena.stats().allocated_bytes, 0);
    drop(boxes);
    assert_eq!(zst_drops(), scaled(100));
    let empty: ArenaBox<'_, [String]> = ArenaBox::default();
    let text: ArenaBox<'_, str> = ArenaBox::default();
    assert_eq!((empty.len(), &*text), (0, ""));
}

#[test]
fn a_box_sent_to_another_thread_drops_its_value_there() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let b = ArenaBox::new_in(String::from("crosses threads"), &scope);
    let dropped_on = std::thread::scope(|s| {
        s.spawn(move || {
            assert_eq!(b.len(), 15);
            drop(b);
            std::thread::current().id()
        })
        .join()
        .unwrap()
    });
    assert_ne!(dropped_on, std::thread::current().id());
    scope.alloc(1_u8); // the scope was never touched by the other thread
}

#[test]
fn boxed_slices_from_vectors_in_every_growth_regime_drop_their_elements_once() {
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    let scope = pool.scope();
    for n in [0, 3, 2000] {
        let mut v = ArenaVec::new_in(&scope);
        for i in 0..n {
            v.push(Counted::new(i, &drops));
            if i % 7 == 0 {
                scope.alloc(i); // not always the tip
            }
        }
        let boxed = v.into_boxed_slice();
        assert_eq!(boxed.len(), n);
        assert!(boxed.iter().enumerate().all(|(i, c)| c.id == i));
        drop(boxed);
    }
    assert_eq!(drops.get(), 2003);
    let collected: ArenaBox<'_, [usize]> = (0..5).collect_in(&scope);
    assert_eq!(&*collected, [0, 1, 2, 3, 4]);
    let text = ArenaString::from_str_in("boxed", &scope).into_boxed_str();
    assert_eq!(&*text, "boxed");
}

#[test]
fn boxes_of_boxes_form_trees_that_drop_every_node_once() {
    struct Node<'s, 'c> {
        children: ArenaVec<'s, ArenaBox<'s, Node<'s, 'c>>>,
        _count: Counted<'c>,
    }
    fn grow<'s, 'c>(
        depth: u32,
        scope: &'s arena_kit::Scope<'_>,
        drops: &'c Cell<usize>,
        made: &mut usize,
    ) -> ArenaBox<'s, Node<'s, 'c>> {
        *made += 1;
        let mut children = ArenaVec::new_in(scope);
        if depth > 0 {
            for _ in 0..3 {
                children.push(grow(depth - 1, scope, drops, made));
            }
        }
        ArenaBox::new_in(Node { children, _count: Counted::new(*made, drops) }, scope)
    }

    let drops = Cell::new(0);
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut made = 0;
    let depth = if cfg!(miri) { 3 } else { 5 };
    let tree = grow(depth, &scope, &drops, &mut made);
    assert_eq!(tree.children.len(), 3);
    drop(tree);
    assert_eq!(drops.get(), made);
}

#[test]
fn a_full_scope_hands_the_value_back_to_try_new_in() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    let scope = pool.scope();
    scope.set_limit(Some(0));
    let err = ArenaBox::try_new_in(Noisy { id: 9, log: &log }, &scope).unwrap_err();
    let value = err.into_value();
    assert_eq!(value.id, 9);
    drop(value);
    assert_eq!(sorted(&log), [9]);
    expect_panic(|| ArenaBox::new_in(1_u8, &scope));
}
