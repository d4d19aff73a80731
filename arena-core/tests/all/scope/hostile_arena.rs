//! Hostile programs against `Arena`, `arena_new!` and `try_arena_new!`: impossible and
//! edge capacities; children, grandchildren and vectors across `reset`; every macro form
//! (type, generic path, struct literal, block, array, `&scope`, arena, pool), each value
//! built and dropped once; the `try_` form at a limit and with an overflowing array; an
//! array whose element `Default` panics part-way; the place expression evaluated once.

use std::cell::Cell;

use arena_kit::{AllocError, Arena, ArenaVec, BlockPool, Pool, arena_new, try_arena_new};

use crate::common::{Counted, expect_panic, scaled};

#[derive(Default, Debug)]
struct Config {
    name: String,
    n: u32,
}

#[test]
fn arena_with_capacity_takes_zero_one_and_a_mebibyte_and_panics_on_impossible_sizes() {
    let big = if cfg!(miri) { 1 << 14 } else { 1 << 20 };
    let a = Arena::with_capacity(0);
    assert_eq!(*a.alloc(1_u8), 1);
    let b = Arena::with_capacity(1);
    assert_eq!(b.stats().blocks, 1);
    let c = Arena::with_capacity(big);
    let s = c.alloc_slice_fill_copy(big, 3_u8);
    assert_eq!(c.stats().blocks, 1, "the prepared block holds the whole request");
    assert_eq!(s[0], 3);
    expect_panic(|| Arena::with_capacity(usize::MAX));
    expect_panic(|| Arena::with_capacity(isize::MAX as usize));
}

#[test]
fn arena_children_vectors_and_resets_drop_every_value_once_and_keep_one_block() {
    let drops = Cell::new(0);
    let mut arena = Arena::new();
    for round in 0..3 {
        let top = arena.alloc(Counted::new(round, &drops));
        {
            let child = arena.scope();
            let c = child.alloc(Counted::new(100 + round, &drops));
            let grandchild = child.scope();
            grandchild.alloc(Counted::new(200 + round, &drops));
            assert_eq!((top.id, c.id), (round, 100 + round));
        }
        assert_eq!(drops.get(), round * 3 + 2);
        let mut v = ArenaVec::new_in(&arena);
        v.extend((0..scaled(2000)).map(|i| i as u64));
        drop(v);
        arena.reset();
        assert_eq!(drops.get(), round * 3 + 3);
        assert!(arena.stats().blocks <= 1);
    }
}

#[test]
fn every_arena_new_form_builds_its_value_once_and_drops_it_once() {
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        let by_default = arena_new!(scope, Config);
        by_default.name.push('x');
        let literal = arena_new!(scope, Config { name: "y".into(), n: 2 });
        assert_eq!((by_default.n, literal.n, literal.name.as_str()), (0, 2, "y"));
        let array = arena_new!(scope, [String; 3]);
        assert_eq!(array.len(), 3);
        let block = arena_new!(scope, { Counted::new(5, &drops) });
        assert_eq!(block.id, 5);
        let generic = arena_new!(scope, Vec::<u8>);
        generic.push(1);
        let call = arena_new!(scope, Vec::<u8>::with_capacity(4));
        call.push(2);
        let arena = Arena::new();
        let in_arena = arena_new!(arena, Config);
        in_arena.n = 9;
        assert_eq!(in_arena.n, 9);
        let by_ref = arena_new!(&scope, { Counted::new(6, &drops) });
        assert_eq!(by_ref.id, 6);
    }
    assert_eq!(drops.get(), 2);
    let got = Pool::with(|mut pool| {
        let h = arena_new!(pool, 41_u32);
        let k = try_arena_new!(pool, u32).unwrap();
        pool[&h] += 1;
        let _ = pool.remove(k);
        pool.remove(h)
    });
    assert_eq!(got, 42);
}

#[test]
fn try_arena_new_at_a_limit_hands_the_value_back() {
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    let scope = pool.scope();
    scope.set_limit(Some(0));
    let e = try_arena_new!(scope, { Counted::new(1, &drops) }).unwrap_err();
    assert!(matches!(e.error(), AllocError::LimitReached { .. }));
    assert_eq!(e.into_value().id, 1);
    assert_eq!(drops.get(), 1);
    assert!(try_arena_new!(scope, Config).is_err());
    assert!(try_arena_new!(scope, [u8; 10]).is_err());
    assert!(try_arena_new!(scope, [u8; 0]).is_ok());
    let err = try_arena_new!(scope, [u64; usize::MAX]).unwrap_err();
    assert_eq!(err.error(), AllocError::SizeOverflow);
    expect_panic(|| arena_new!(scope, [u64; usize::MAX / 2]));
    expect_panic(|| arena_new!(scope, Config));
}

#[test]
fn an_arena_new_array_whose_element_default_panics_drops_the_elements_built() {
    thread_local! {
        static MADE: Cell<usize> = const { Cell::new(0) };
        static DROPS: Cell<usize> = const { Cell::new(0) };
        static DROPPED_IDS: Cell<usize> = const { Cell::new(0) };
    }
    /// Not zero-sized: the array takes room in the scope.
    #[derive(Debug)]
    struct Flaky(usize);
    impl Default for Flaky {
        fn default() -> Self {
            let made = MADE.with(|m| {
                m.set(m.get() + 1);
                m.get()
            });
            assert!(made <= 5, "the sixth default panics");
            Flaky(made)
        }
    }
    impl Drop for Flaky {
        fn drop(&mut self) {
            DROPS.with(|d| d.set(d.get() + 1));
            DROPPED_IDS.with(|d| d.set(d.get() + self.0));
        }
    }
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        expect_panic(|| arena_new!(scope, [Flaky; 10]));
        assert_eq!(DROPS.with(Cell::get), 5);
        assert_eq!(DROPPED_IDS.with(Cell::get), 1 + 2 + 3 + 4 + 5, "the five built ones");
    }
    assert_eq!(DROPS.with(Cell::get), 5);
}

#[test]
fn the_place_expression_of_arena_new_is_evaluated_once() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut evals = 0;
    let mut place = || {
        evals += 1;
        &scope
    };
    let x = arena_new!(place(), [u8; 4]);
    assert_eq!(x.len(), 4);
    let y = arena_new!(place(), Config);
    y.n = 1;
    assert!(try_arena_new!(place(), 5_u8).is_ok());
    assert_eq!(evals, 3);
}
