//! typed-arena 2's test suite (`src/test.rs`, and the doc tests of `Arena<T>`),
//! re-expressed against the kit as a typed-arena user would expect it to behave.
//!
//! typed-arena's `Arena<T>` is two things at once, and the kit splits them:
//!
//! - *references that live as long as the arena* (`alloc(&self, v) -> &mut T`): the
//!   kit's [`Arena`] (and [`Scope`](arena_kit::Scope)), which is untyped, so it has no
//!   `len`, `iter_mut` or `into_vec`;
//! - *a typed collection* you count, walk and take back (`len`, `iter_mut`, `into_vec`):
//!   the kit's [`KeyPool<T>`] (or the branded [`Pool`]), which names values by key
//!   instead of by reference: `len()`, `iter_mut()`/`values_mut()` (in insertion order
//!   while nothing is removed, exact-size), and `into_iter()` by value for `into_vec`.
//!
//! Each test names the typed-arena test it mirrors. Not ported, each for a deliberate
//! difference:
//!
//! - `test_alloc_uninitialized`, `test_alloc_uninitialized_bools`,
//!   `alloc_uninitialized_with_panic`, `test_uninitialized_array`: no uninitialised-slice
//!   API; `alloc_slice_fill_with` and `alloc_from_iter` build slices in place, safely.
//! - the `chunks.rest.len()` checks in `arena_as_intended`, `dont_trust_the_iterator_size`
//!   and `iter_mut_*`: internal layout (a `KeyPool` is one buffer; an `Arena`'s blocks
//!   are counted by `stats().blocks`, not asserted here).
//! - the second batch of `test_alloc_extend_with_drop_counter`, whose values hold a
//!   reference to the first batch while having destructors: values with destructors may
//!   not borrow their siblings in the kit's arenas (`tests/ui/alloc_from_iter_items_borrow_sibling.rs`);
//!   they hold keys of a `Pool` instead (`arena_as_intended`).
//! - `arena_is_send` for the reference arena: the kit's `Arena` is not `Send`
//!   (`tests/ui/arena_is_not_send.rs`: it may hold `Rc`s); `KeyPool<T>` is (ported).
//! - the "safe cycles" doc test through `Cell<Option<&'a T>>`: values allocated by
//!   reference must be `Copy` to point at each other (`Scope::view`); cycles are made of
//!   keys in a `Pool` (ported as `safe_cycles_through_keys`).

use std::cell::Cell;
use std::iter::repeat_n;

use arena_kit::{Arena, Brand, Key, KeyPool, Pool};

use crate::common::scaled;

struct DropTracker<'a>(&'a Cell<u32>);

impl Drop for DropTracker<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get() + 1);
    }
}

/// typed-arena's `Node(Option<&'a Node>, u32, DropTracker)`, linked by key.
struct Node<'id, 'b>(
    Option<Key<'id>>,
    u32,
    #[expect(dead_code, reason = "held for its destructor")] DropTracker<'b>,
);

/// The ids along the links from `at`.
fn chain<'id>(arena: &Pool<'id, Node<'id, '_>>, mut at: Option<Key<'id>>) -> Vec<u32> {
    let mut ids = vec![];
    while let Some(key) = at {
        ids.push(arena[key].1);
        at = arena[key].0;
    }
    ids
}

/// typed-arena `src/test.rs::arena_as_intended` (linked nodes with destructors: by key in
/// a branded pool)
#[test]
fn arena_as_intended() {
    let drop_counter = Cell::new(0);
    Brand::with(|brand| {
        let mut arena: Pool<'_, Node<'_, '_>> = Pool::with_capacity_in(2, brand);
        let mut node = arena.insert_keyed(Node(None, 1, DropTracker(&drop_counter)));
        for i in 2..=4 {
            node = arena.insert_keyed(Node(Some(node), i, DropTracker(&drop_counter)));
        }
        assert_eq!(chain(&arena, Some(node)), [4, 3, 2, 1]);
        assert_eq!(arena.len(), 4);
        assert_eq!(drop_counter.get(), 0);

        let mut node = arena.insert_keyed(Node(None, 5, DropTracker(&drop_counter)));
        for i in 6..=7 {
            node = arena.insert_keyed(Node(Some(node), i, DropTracker(&drop_counter)));
        }
        assert_eq!(chain(&arena, Some(node)), [7, 6, 5]);
        assert_eq!(drop_counter.get(), 0);
    });
    assert_eq!(drop_counter.get(), 7);
}

/// typed-arena `src/test.rs::arena_as_intended` (the reference flavour: `Copy` nodes that
/// point at each other, in an `Arena`)
#[test]
fn arena_as_intended_by_reference() {
    #[derive(Clone, Copy)]
    struct Link<'s>(Option<&'s Link<'s>>, u32);

    let arena = Arena::with_capacity(0);
    let view = arena.view();
    let mut node: &Link<'_> = view.alloc(Link(None, 1));
    for i in 2..=4 {
        node = view.alloc(Link(Some(node), i));
    }
    assert_eq!(node.1, 4);
    assert_eq!(node.0.unwrap().1, 3);
    assert_eq!(node.0.unwrap().0.unwrap().1, 2);
    assert_eq!(node.0.unwrap().0.unwrap().0.unwrap().1, 1);
    assert!(node.0.unwrap().0.unwrap().0.unwrap().0.is_none());
}

/// typed-arena `src/test.rs::ensure_into_vec_maintains_order_of_allocation`
#[test]
fn ensure_into_vec_maintains_order_of_allocation() {
    let mut arena = KeyPool::with_capacity(1);
    for s in ["t", "e", "s", "t"] {
        arena.insert(String::from(s));
    }
    let vec: Vec<String> = arena.into_iter().map(|(_, v)| v).collect();
    assert_eq!(vec, ["t", "e", "s", "t"]);
}

/// typed-arena `src/test.rs::test_zero_cap` (the typed pool, and the reference arena)
#[test]
fn test_zero_cap() {
    let mut pool = KeyPool::with_capacity(0);
    let a = pool.insert(1);
    let b = pool.insert(2);
    assert_eq!((pool[a], pool[b], pool.len()), (1, 2, 2));

    let arena = Arena::with_capacity(0);
    let a = arena.alloc(1);
    let b = arena.alloc(2);
    assert_eq!((*a, *b), (1, 2));
}

/// typed-arena `src/test.rs::test_alloc_extend`
#[test]
fn test_alloc_extend() {
    let arena = Arena::with_capacity(2);
    for i in 0..15 {
        let slice = arena.alloc_from_iter(0..i);
        for (j, &elem) in slice.iter().enumerate() {
            assert_eq!(j, elem);
        }
        assert_eq!(slice.len(), i);
    }
}

/// typed-arena `src/test.rs::test_alloc_extend_with_drop_counter` (the first batch; the
/// second names the first by index: see the module docs)
#[test]
fn test_alloc_extend_with_drop_counter() {
    struct Item<'b>(
        usize,
        u32,
        #[expect(dead_code, reason = "held for its destructor")] DropTracker<'b>,
    );
    let drop_counter = Cell::new(0);
    {
        let arena = Arena::with_capacity(2);
        let first = arena.alloc_from_iter((0..100).map(|j| Item(0, j, DropTracker(&drop_counter))));
        let older = first[0].1 as usize;
        assert_eq!(drop_counter.get(), 0);
        let second =
            arena.alloc_from_iter((0..100).map(|j| Item(older, j, DropTracker(&drop_counter))));
        assert_eq!((second[99].0, second[99].1, second.len()), (0, 99, 100));
        assert_eq!(drop_counter.get(), 0);
    }
    assert_eq!(drop_counter.get(), 200);
}

/// typed-arena `src/test.rs::dont_trust_the_iterator_size`. Difference: the kit trusts an
/// iterator that reports an exact size and leaves the items past it in the iterator
/// (documented on `alloc_from_iter`): none is lost or dropped, and an iterator that
/// reports no exact size gets every item.
#[test]
fn dont_trust_the_iterator_size() {
    struct WrongSizeIter<I>(I);
    impl<I: Iterator> Iterator for WrongSizeIter<I> {
        type Item = I::Item;
        fn next(&mut self) -> Option<Self::Item> {
            self.0.next()
        }
        fn size_hint(&self) -> (usize, Option<usize>) {
            (0, Some(0))
        }
    }
    impl<I: Iterator> ExactSizeIterator for WrongSizeIter<I> {}

    let arena = Arena::with_capacity(2);
    arena.alloc(0);
    let mut lying = WrongSizeIter(repeat_n(1, 1_000));
    let slice = arena.alloc_from_iter(lying.by_ref());
    assert_eq!(slice.len(), 0, "the reported size is taken at its word");
    let rest = arena.alloc_from_iter(lying.0); // an honest iterator of what is left
    assert_eq!(rest.len(), 1000);
    assert!(rest.iter().all(|&x| x == 1));
    let vague = arena.alloc_from_iter(repeat_n(1, 1_000).filter(|_| true));
    assert_eq!(vague.len(), 1000, "no exact size: every item is gathered");
}

/// typed-arena `src/test.rs::arena_is_send` (the typed pool)
#[test]
fn arena_is_send() {
    fn assert_is_send<T: Send>(_: T) {}
    assert_is_send(42_u32);
    let pool: KeyPool<u32> = KeyPool::new();
    assert_is_send(pool);
}

#[derive(Debug, PartialEq, Eq)]
struct NonCopy(usize);

/// The body of typed-arena's `iter_mut_low_capacity` and `iter_mut_high_capacity`.
fn iter_mut_yields_in_allocation_order(max: usize, cap: usize) {
    let mut pool = KeyPool::with_capacity(cap);
    for i in 1..max {
        pool.insert(NonCopy(i));
    }
    let mut iter = pool.values_mut();
    for i in 1..max {
        assert_eq!(Some(&mut NonCopy(i)), iter.next());
    }
    assert_eq!(None, iter.next());
}

/// typed-arena `src/test.rs::iter_mut_low_capacity`
#[test]
fn iter_mut_low_capacity() {
    iter_mut_yields_in_allocation_order(scaled(1_000), 16);
}

/// typed-arena `src/test.rs::iter_mut_high_capacity`
#[test]
fn iter_mut_high_capacity() {
    iter_mut_yields_in_allocation_order(scaled(1_000), 8192);
}

/// typed-arena's `assert_size_hint`, made exact: the kit's iterators know their length.
fn assert_size_hint(len: usize, pool: &mut KeyPool<NonCopy>) {
    let iter = pool.iter_mut();
    assert_eq!(iter.size_hint(), (len, Some(len)));
    assert_eq!(iter.len(), len);
}

/// The body of typed-arena's `size_hint*` tests: `caps` initial capacities, `max` values.
fn size_hints_stay_exact(caps: std::ops::Range<usize>, max: usize) {
    for cap in caps {
        let mut pool = KeyPool::with_capacity(cap);
        for i in 1..max {
            pool.insert(NonCopy(i));
            assert_size_hint(i, &mut pool);
        }
    }
}

/// typed-arena `src/test.rs::size_hint`
#[test]
fn size_hint() {
    size_hints_stay_exact(0..16, 32);
}

/// typed-arena `src/test.rs::size_hint_low_initial_capacities` (sizes scaled down: the
/// hint is exact, so it cannot drift with size)
#[test]
fn size_hint_low_initial_capacities() {
    size_hints_stay_exact(0..scaled(128), scaled(2_500));
}

/// typed-arena `src/test.rs::size_hint_high_initial_capacities` (sizes scaled down)
#[test]
fn size_hint_high_initial_capacities() {
    size_hints_stay_exact(8164..8164 + scaled(16), scaled(2_500));
}

/// typed-arena `src/test.rs::size_hint_many_items` (sizes scaled down)
#[test]
fn size_hint_many_items() {
    size_hints_stay_exact(16..17, scaled(50_000));
}

/// typed-arena `src/test.rs::check_extend_provenance` (meaningful under Miri: a slice
/// allocated after a value must not invalidate the reference to it)
#[test]
fn check_extend_provenance() {
    let arena = Arena::new();
    let a = arena.alloc(0);
    arena.alloc_from_iter([0]);
    *a = 1;
    assert_eq!(*a, 1);
}

/// typed-arena `lib.rs` doc tests of `Arena`, `alloc`, `alloc_extend`, `alloc_str`
#[test]
fn doc_alloc() {
    struct Monster {
        level: u32,
    }
    let monsters = Arena::new();
    let goku = monsters.alloc(Monster { level: 9001 });
    assert!(goku.level > 9000);
    let x = monsters.alloc(42);
    assert_eq!(*x, 42);
    let abc = monsters.alloc_from_iter("abcdefg".chars().take(3));
    assert_eq!(abc, ['a', 'b', 'c']);
    let hello = monsters.alloc_str("Hello world");
    assert_eq!("Hello world", hello);
}

/// typed-arena `lib.rs` doc tests of `len`, `into_vec` and `iter_mut`
#[test]
fn doc_len_into_vec_iter_mut() {
    #[derive(Debug, PartialEq, Eq)]
    struct Point {
        x: i32,
        y: i32,
    }
    let mut arena = KeyPool::new();
    arena.insert(Point { x: 0, y: 0 });
    arena.insert(Point { x: 1, y: 1 });
    assert_eq!(arena.len(), 2);
    for point in arena.values_mut() {
        point.x += 10;
    }
    let points: Vec<_> = arena.into_iter().map(|(_, p)| p).collect();
    assert_eq!(points, [Point { x: 10, y: 0 }, Point { x: 11, y: 1 }]);

    let abc = Pool::with(|mut arena| {
        for s in ["a", "b", "c"] {
            let _owned = arena.insert(s);
        }
        arena.drain().collect::<Vec<_>>()
    });
    assert_eq!(abc, ["a", "b", "c"]);
}

/// typed-arena `lib.rs` doc test "Safe Cycles", with keys in a branded pool
#[test]
fn safe_cycles_through_keys() {
    struct CycleParticipant<'id> {
        other: Option<Key<'id>>,
    }
    Brand::with(|brand| {
        let mut arena: Pool<'_, CycleParticipant<'_>> = Pool::new_in(brand);
        let a = arena.insert_keyed(CycleParticipant { other: None });
        let b = arena.insert_keyed(CycleParticipant { other: None });
        arena[a].other = Some(b);
        arena[b].other = Some(a);
        assert_eq!(arena[arena[a].other.unwrap()].other, Some(a));
    });
}
