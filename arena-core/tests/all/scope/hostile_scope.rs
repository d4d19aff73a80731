//! Hostile programs against `Scope`: a destructor panicking during `reset`; `alloc_with`
//! closures, iterators and destructors that allocate in the scope being filled or torn
//! down (or in its parent, or in new scopes of the same pool); iterators that lie about
//! their length or panic half-way; zero-sized and page-aligned values with destructors;
//! impossible sizes; a forgotten child scope; scopes swapped across pools or stored in
//! another scope; `reset` and stats through dedicated blocks; limits of pool and parent.

use core::alloc::Layout;
use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};

use arena_kit::{AllocError, BlockPool, Scope};

use crate::common::{
    Counted, Noisy, Page, PanicsOnDrop, ZstDrop, expect_panic, reset_zst_drops, scaled, zst_drops,
};

#[test]
fn reset_with_a_panicking_destructor_leaves_a_usable_scope_and_drops_nothing_twice() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    for id in 0..4 {
        scope.alloc(PanicsOnDrop { id, panic_on: 1, log: &log });
    }
    let result = catch_unwind(AssertUnwindSafe(|| scope.reset()));
    assert!(result.is_err());
    assert_eq!(log.borrow().len(), 4);
    // Still usable; a later reset and the drop run nothing twice.
    let x = scope.alloc(Noisy { id: 9, log: &log });
    assert_eq!(x.id, 9);
    scope.reset();
    assert_eq!(log.borrow().len(), 5);
    let s = scope.alloc_str("after");
    assert_eq!(s, "after");
    drop(scope);
    assert_eq!(log.borrow().len(), 5);
    assert_eq!(pool.stats().live_blocks, 0);
}

#[test]
fn an_alloc_with_closure_may_allocate_droppable_values_in_the_same_scope_and_all_drop_once() {
    let drops = Cell::new(0);
    let order = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        let outer = scope.alloc_with(|| {
            let inner = scope.alloc(Noisy { id: 1, log: &order });
            let big = scope.alloc_slice_fill_with(2000, |i| Counted::new(i, &drops));
            assert_eq!(big.len(), 2000);
            Noisy { id: inner.id + 1, log: &order }
        });
        assert_eq!(outer.id, 2);
    }
    assert_eq!(drops.get(), 2000);
    // The outer value was registered last, so it is dropped first.
    assert_eq!(*order.borrow(), [2, 1]);
}

/// An iterator whose size hint says `hint` (exactly) but that yields `real` items.
struct Liar<'a> {
    hint: usize,
    real: usize,
    given: usize,
    drops: &'a Cell<usize>,
}

impl<'a> Liar<'a> {
    fn new(hint: usize, real: usize, drops: &'a Cell<usize>) -> Self {
        Liar { hint, real, given: 0, drops }
    }
}

impl<'a> Iterator for Liar<'a> {
    type Item = Counted<'a>;
    fn next(&mut self) -> Option<Counted<'a>> {
        if self.given == self.real {
            return None;
        }
        self.given += 1;
        Some(Counted::new(self.given, self.drops))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.hint, Some(self.hint))
    }
}

impl ExactSizeIterator for Liar<'_> {}

#[test]
fn alloc_from_iter_with_a_size_hint_that_lies_either_way_drops_every_item_once() {
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        let short = scope.alloc_from_iter(Liar::new(10, 3, &drops));
        assert_eq!(short.len(), 3);
        let long = scope.alloc_from_iter(Liar::new(2, 7, &drops));
        assert_eq!(long.len(), 2);
        assert_eq!(drops.get(), 0, "items past the hint stay unconsumed in the iterator");
        let tried = scope.try_alloc_from_iter(Liar::new(4, 1, &drops)).unwrap();
        assert_eq!(tried.len(), 1);
    }
    assert_eq!(drops.get(), 3 + 2 + 1);
}

#[test]
fn alloc_from_iter_whose_iterator_panics_half_way_drops_the_items_taken() {
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        // An exact-size iterator (written in place) ...
        expect_panic(|| {
            scope.alloc_from_iter((0..10).map(|i| {
                assert!(i < 4, "iterator panics at 4");
                Counted::new(i, &drops)
            }));
        });
        assert_eq!(drops.get(), 4);
        // ... and one of unknown length (gathered first).
        expect_panic(|| {
            scope.alloc_from_iter((0..10).filter(|_| true).map(|i| {
                assert!(i < 4, "iterator panics at 4");
                Counted::new(i, &drops)
            }));
        });
        assert_eq!(drops.get(), 8);
    }
    assert_eq!(drops.get(), 8);
}

#[test]
fn an_iterator_that_allocates_in_the_scope_while_being_collected_into_it_keeps_all_values() {
    let drops = Cell::new(0);
    let n = scaled(300);
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        let side = RefCell::new(Vec::new());
        let slice = scope.alloc_from_iter((0..n).map(|i| {
            let s: &String = scope.alloc(format!("side {i}"));
            side.borrow_mut().push(s);
            scope.alloc(Counted::new(i, &drops));
            Counted::new(1000 + i, &drops)
        }));
        for (i, c) in slice.iter().enumerate() {
            assert_eq!(c.id, 1000 + i);
        }
        for (i, s) in side.borrow().iter().enumerate() {
            assert_eq!(**s, format!("side {i}"));
        }
    }
    assert_eq!(drops.get(), 2 * n);
}

#[test]
fn a_views_alloc_from_iter_survives_lying_hints_and_an_iterator_that_allocates_in_it() {
    let n = u32::try_from(scaled(3000)).unwrap();
    let pool = BlockPool::with_block_size(1024);
    let scope = pool.scope();
    let view = scope.view();
    // Hints that lie either way: the slice is what the iterator really gave.
    let short = view.alloc_from_iter((0..5_u32).filter(|_| true).chain([9]));
    let exact = view.alloc_from_iter(0..n);
    assert_eq!(short, [0, 1, 2, 3, 4, 9]);
    assert!(exact.iter().copied().eq(0..n));
    // Each item allocates in the same scope while the slice is gathered at its tip, so
    // the gathering vector keeps losing the tip and moving, across many blocks.
    let side = RefCell::new(Vec::new());
    let slice = view.alloc_from_iter((0..n).filter(|_| true).map(|i| {
        side.borrow_mut().push(&*view.alloc_slice_copy(&[i; 7]));
        u64::from(i) * 3
    }));
    assert!(slice.iter().copied().eq((0..u64::from(n)).map(|i| i * 3)));
    for (i, s) in side.borrow().iter().enumerate() {
        assert_eq!(**s, [u32::try_from(i).unwrap(); 7]);
    }
    assert!(scope.stats().blocks > 1, "the test crossed blocks");
    assert_eq!(short, [0, 1, 2, 3, 4, 9], "earlier slices stay untouched");
}

#[test]
fn a_child_value_may_allocate_and_register_on_exit_in_the_parent_from_its_destructor() {
    struct Writer<'a, 'p> {
        parent: &'a Scope<'p>,
        log: &'p RefCell<Vec<String>>,
    }
    impl Drop for Writer<'_, '_> {
        fn drop(&mut self) {
            let s = self.parent.alloc(String::from("written by a child's destructor"));
            self.log.borrow_mut().push(s.clone());
            let log = self.log;
            self.parent.on_exit(move || log.borrow_mut().push(String::from("parent on_exit")));
        }
    }
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    {
        let parent = pool.scope();
        for _ in 0..3 {
            let child = parent.scope();
            child.alloc(Writer { parent: &parent, log: &log });
            child.alloc_slice_fill_copy(5000 / 8, 7_u64); // 5000 bytes, eight at a time
        }
        assert_eq!(log.borrow().len(), 3);
    }
    assert_eq!(log.borrow().len(), 6);
    assert_eq!(pool.stats().live_blocks, 0);
}

#[test]
fn a_destructor_may_open_scopes_on_the_same_pool_and_trim_it_while_its_scope_drops_or_resets() {
    struct Reopen<'a> {
        pool: &'a BlockPool,
        values: usize,
        drops: &'a Cell<usize>,
    }
    impl Drop for Reopen<'_> {
        fn drop(&mut self) {
            let s = self.pool.scope();
            let v = s.alloc_slice_fill_with(self.values, |i| Counted::new(i, self.drops));
            assert_eq!(v[self.values - 1].id, self.values - 1);
            self.pool.trim();
            self.pool.set_max_free(0);
            self.pool.set_max_free(usize::MAX);
        }
    }
    // More than a block of `Counted`s per destructor, even under Miri.
    let values = if cfg!(miri) { 600 } else { 3000 };
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    {
        let mut scope = pool.scope();
        for _ in 0..3 {
            scope.alloc(Reopen { pool: &pool, values, drops: &drops });
            scope.alloc_slice_fill_copy(10_000 / 8, 1_u64);
        }
        scope.reset();
        assert_eq!(drops.get(), 3 * values);
        scope.alloc(Reopen { pool: &pool, values, drops: &drops });
        let x = scope.alloc(5_u64);
        assert_eq!(*x, 5);
    }
    assert_eq!(drops.get(), 4 * values);
    assert_eq!(pool.stats().live_blocks, 0);
}

#[test]
fn zero_sized_values_with_destructors_are_dropped_exactly_once_on_every_path() {
    reset_zst_drops();
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        scope.alloc(ZstDrop);
        let s = scope.alloc_slice_fill_with(1000, |_| ZstDrop);
        assert_eq!(s.len(), 1000);
        let t = scope.alloc_from_iter((0..10).map(|_| ZstDrop));
        assert_eq!(t.len(), 10);
        let u = scope.alloc_from_iter((0..10).filter(|_| true).map(|_| ZstDrop));
        assert_eq!(u.len(), 10);
        scope.alloc_slice_fill_with(0, |_| ZstDrop);
        assert_eq!(zst_drops(), 0);
    }
    assert_eq!(zst_drops(), 1021);
}

#[test]
fn page_aligned_values_and_slices_are_aligned_intact_and_dropped_once() {
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        let mut addrs = Vec::new();
        for tag in 0..5 {
            let p = scope.alloc(Page { tag, drops: Some(&drops) });
            addrs.push(p as *const Page<'_> as usize);
            scope.alloc(1_u8); // misaligns the cursor
        }
        let s =
            scope.alloc_slice_fill_with(3, |i| Page { tag: 100 + i as u64, drops: Some(&drops) });
        for (i, p) in s.iter().enumerate() {
            assert_eq!(p as *const Page<'_> as usize % 4096, 0);
            assert_eq!(p.tag, 100 + i as u64);
        }
        for a in addrs {
            assert_eq!(a % 4096, 0);
        }
        let zs = scope.alloc_layout(Layout::from_size_align(0, 1 << 20).unwrap());
        assert_eq!(zs.as_ptr() as usize % (1 << 20), 0);
    }
    assert_eq!(drops.get(), 8);
    assert_eq!(pool.stats().live_blocks, 0);
}

#[test]
fn huge_requests_fail_cleanly_and_hand_back_their_values() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    assert!(scope.try_alloc_slice_fill_copy(usize::MAX / 2, 0_u8).is_err());
    assert!(scope.try_alloc_slice_fill_copy(usize::MAX / 8, 0_u64).is_err());
    assert!(scope.try_alloc_layout(Layout::from_size_align(1, 1 << 62).unwrap()).is_err());
    assert!(
        scope.try_alloc_layout(Layout::from_size_align(isize::MAX as usize, 1).unwrap()).is_err()
    );
    let called = Cell::new(false);
    let f = scope
        .try_alloc_slice_fill_with(usize::MAX / 2, |i| {
            called.set(true);
            i as u64
        })
        .unwrap_err()
        .into_value();
    assert!(!called.get());
    let _ = f; // handed back uncalled
    expect_panic(|| {
        scope.alloc_slice_fill_copy(usize::MAX / 2, 0_u16);
    });
    // Still usable.
    assert_eq!(*scope.alloc(3_u8), 3);
}

/// Where `a_forgotten_child_scope_leaks_its_values_but_leaves_the_parent_sound` parks the
/// scope it forgets. Memory a static still reaches is not lost, so Miri's and valgrind's
/// leak checks (CI runs both, neither ignoring leaks) accept this deliberate leak.
static FORGOTTEN_SCOPE: AtomicPtr<()> = AtomicPtr::new(ptr::null_mut());

#[test]
fn a_forgotten_child_scope_leaks_its_values_but_leaves_the_parent_sound() {
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    {
        let parent = pool.scope();
        let p = parent.alloc(Counted::new(0, &drops));
        {
            let child = parent.scope();
            child.alloc(Counted::new(1, &drops));
            child.alloc_slice_fill_copy(20_000 / 8, 0_u64);
            // Forgotten as by `mem::forget`: its destructor never runs and its blocks never
            // go back, but it stays reachable from a static.
            let forgotten: &mut Scope<'_> = Box::leak(Box::new(child));
            FORGOTTEN_SCOPE.store(ptr::from_mut(forgotten).cast(), Ordering::Relaxed);
        }
        let q = parent.alloc(Counted::new(2, &drops));
        assert_eq!((p.id, q.id), (0, 2));
    }
    assert_eq!(drops.get(), 2, "the forgotten child's value is leaked, never dropped");
}

#[test]
fn swapping_two_scopes_of_two_pools_sends_each_block_back_to_its_own_pool() {
    // Requests (in bytes) oversize for both pools; smaller under Miri, which fills slowly.
    let (b_block, first, big) =
        if cfg!(miri) { (16 * 1024, 10_000, 20_000) } else { (64 * 1024, 30_000, 100_000) };
    let drops = Cell::new(0);
    let pool_a = BlockPool::new();
    let pool_b = BlockPool::with_block_size(b_block);
    {
        let mut a = pool_a.scope();
        let mut b = pool_b.scope();
        a.alloc(Counted::new(1, &drops));
        a.alloc_slice_fill_copy(first / 8, 1_u64);
        b.alloc(Counted::new(2, &drops));
        std::mem::swap(&mut a, &mut b);
        a.alloc_slice_fill_copy(big / 8, 2_u64);
        b.alloc_slice_fill_copy(big / 8, 3_u64);
    }
    assert_eq!(drops.get(), 2);
    assert_eq!(pool_a.stats().live_blocks, 0);
    assert_eq!(pool_b.stats().live_blocks, 0);
}

#[test]
fn a_scope_stored_inside_another_scope_is_dropped_with_it_exactly_once() {
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    {
        let outer = pool.scope();
        let inner: &mut Scope<'_> = outer.alloc(pool.scope());
        inner.alloc(Counted::new(1, &drops));
        inner.alloc_slice_fill_copy(if cfg!(miri) { 10_000 } else { 50_000 } / 8, 0_u64);
        inner.reset();
        assert_eq!(drops.get(), 1);
        inner.alloc(Counted::new(2, &drops));
    }
    assert_eq!(drops.get(), 2);
    assert_eq!(pool.stats().live_blocks, 0);
}

#[test]
fn reset_keeps_one_block_even_when_the_current_block_is_an_oversize_one() {
    // Both requests (in bytes) oversize; smaller under Miri, which fills slowly.
    let (first, again) = if cfg!(miri) { (20_000, 10_000) } else { (100_000, 50_000) };
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    scope.alloc_slice_fill_copy(first / 8, 1_u64);
    scope.alloc(String::from("x"));
    scope.reset();
    assert_eq!(scope.stats().blocks, 1);
    assert_eq!(scope.stats().allocated_bytes, 0);
    let s = scope.alloc_slice_fill_copy(again / 8, 2_u64);
    assert!(s.iter().all(|&b| b == 2));
    drop(scope);
    assert_eq!(pool.stats().live_blocks, 0);
    assert_eq!(pool.stats().dedicated_blocks, 0);
}

#[test]
fn stats_count_bytes_handed_out_through_the_dedicated_block_path() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    scope.alloc(0_u64);
    assert_eq!(scope.stats().allocated_bytes, 8);
    scope.alloc_slice_fill_copy(20_000 / 8, 0_u64); // a dedicated block behind the current one
    let s = scope.stats();
    assert_eq!(s.allocated_bytes, 20_008);
    scope.alloc(1_u32);
    assert_eq!(scope.stats().allocated_bytes, 20_012);
    assert_eq!(s.blocks, 2);
}

#[test]
fn an_oversize_request_refused_at_the_pool_limit_leaks_no_block() {
    let pool = BlockPool::new();
    pool.set_limit(Some(pool.block_size()));
    {
        let scope = pool.scope();
        scope.alloc(1_u8);
        let e = scope.try_alloc_layout(Layout::from_size_align(50_000, 8).unwrap()).unwrap_err();
        assert!(matches!(e, AllocError::LimitReached { .. }));
    }
    assert_eq!(pool.stats().live_blocks, 0);
}

#[test]
fn a_child_scope_is_not_bound_by_its_parents_limit() {
    // Records current behaviour, not a guarantee: limits are per scope, and a child draws
    // its own blocks from the pool.
    let pool = BlockPool::new();
    let parent = pool.scope();
    parent.set_limit(Some(0));
    let child = parent.scope();
    assert_eq!(child.limit(), None);
    assert!(child.try_alloc_layout(Layout::array::<u8>(20_000).unwrap()).is_ok());
    assert!(parent.try_alloc(1_u8).is_err());
}
