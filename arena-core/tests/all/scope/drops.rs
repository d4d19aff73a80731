use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};

use arena_kit::{Arena, BlockPool};

use crate::common::{Noisy, PanicsOnDrop, scaled, sorted};

#[test]
fn destructors_run_in_reverse_allocation_order() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        for id in 0..5 {
            scope.alloc(Noisy { id, log: &log });
        }
        assert!(log.borrow().is_empty(), "nothing drops before the scope ends");
    }
    assert_eq!(*log.borrow(), [4, 3, 2, 1, 0]);
}

#[test]
fn every_destructor_runs_exactly_once_across_many_blocks() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::with_block_size(256);
    let n = u32::try_from(scaled(5_000)).unwrap();
    {
        let scope = pool.scope();
        for id in 0..n {
            match id % 4 {
                0 => _ = scope.alloc(Noisy { id, log: &log }),
                1 => _ = scope.alloc_with(|| Noisy { id, log: &log }),
                2 => _ = scope.alloc_slice_fill_with(1, |_| Noisy { id, log: &log }),
                _ => _ = scope.alloc_from_iter([Noisy { id, log: &log }]),
            }
        }
        assert!(scope.stats().blocks > 1);
    }
    assert_eq!(sorted(&log), (0..n).collect::<Vec<_>>());
    assert_eq!(pool.stats().live_blocks, 0);
}

#[test]
fn slices_drop_every_element_in_order() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        scope.alloc_slice_fill_with(3, |i| Noisy { id: i as u32, log: &log });
        scope.alloc(Noisy { id: 10, log: &log });
    }
    assert_eq!(*log.borrow(), [10, 0, 1, 2]);
}

#[test]
fn values_without_drop_glue_register_nothing() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    for i in 0..100_u64 {
        scope.alloc(i);
    }
    scope.alloc_slice_fill_with(10, |i| i as u64);
    assert_eq!(scope.stats().allocated_bytes, 110 * 8, "no destructor records were added");
    scope.alloc(String::new());
    assert!(scope.stats().allocated_bytes > 110 * 8 + size_of::<String>(), "a record was");
}

#[test]
fn a_panic_in_alloc_with_registers_nothing_and_leaks_nothing() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        scope.alloc(Noisy { id: 1, log: &log });
        let result = catch_unwind(AssertUnwindSafe(|| {
            scope.alloc_with(|| -> Noisy<'_> { panic!("constructor fails") });
        }));
        assert!(result.is_err());
        scope.alloc(Noisy { id: 2, log: &log });
    }
    assert_eq!(*log.borrow(), [2, 1]);
}

#[test]
fn a_panic_while_filling_a_slice_drops_the_values_built_so_far() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        let result = catch_unwind(AssertUnwindSafe(|| {
            scope.alloc_slice_fill_with(5, |i| {
                assert!(i < 3, "element {i} fails");
                Noisy { id: i as u32, log: &log }
            });
        }));
        assert!(result.is_err());
        assert_eq!(*log.borrow(), [0, 1, 2], "the prefix was dropped at once");
    }
    assert_eq!(*log.borrow(), [0, 1, 2], "and never again");
}

#[test]
fn a_panicking_clone_drops_the_clones_already_made() {
    #[derive(Debug)]
    struct Fragile<'a> {
        id: u32,
        log: &'a RefCell<Vec<u32>>,
    }
    impl Clone for Fragile<'_> {
        fn clone(&self) -> Self {
            assert!(self.id != 2, "clone of 2 fails");
            Fragile { id: self.id + 100, log: self.log }
        }
    }
    impl Drop for Fragile<'_> {
        fn drop(&mut self) {
            self.log.borrow_mut().push(self.id);
        }
    }
    let log = RefCell::new(Vec::new());
    let originals: Vec<Fragile<'_>> = (0..4).map(|id| Fragile { id, log: &log }).collect();
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        let result = catch_unwind(AssertUnwindSafe(|| scope.alloc_slice_clone(&originals).len()));
        assert!(result.is_err());
    }
    assert_eq!(*log.borrow(), [100, 101]);
}

#[test]
fn a_panicking_destructor_still_lets_the_others_run_and_the_blocks_return() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    let result = catch_unwind(AssertUnwindSafe(|| {
        let scope = pool.scope();
        for id in 0..6 {
            scope.alloc(PanicsOnDrop { id, panic_on: 3, log: &log });
        }
        scope.alloc_slice_fill_copy(3 * pool.block_capacity(), 0_u8);
    }));
    assert!(result.is_err(), "the panic propagates after the scope is cleaned up");
    assert_eq!(*log.borrow(), [5, 4, 3, 2, 1, 0]);
    assert_eq!(pool.stats().live_blocks, 0);
}

#[test]
fn on_exit_callbacks_interleave_with_destructors_in_lifo_order() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        scope.alloc(Noisy { id: 1, log: &log });
        scope.on_exit(|| log.borrow_mut().push(2));
        scope.alloc(Noisy { id: 3, log: &log });
        let owned = Noisy { id: 5, log: &log };
        let log = &log;
        scope.on_exit(move || {
            log.borrow_mut().push(4);
            drop(owned);
        });
    }
    assert_eq!(*log.borrow(), [4, 5, 3, 2, 1]);
}

#[test]
fn on_exit_runs_while_unwinding() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    let result = catch_unwind(AssertUnwindSafe(|| {
        let scope = pool.scope();
        scope.on_exit(|| log.borrow_mut().push(1));
        scope.alloc(Noisy { id: 2, log: &log });
        panic!("work inside the scope fails");
    }));
    assert!(result.is_err());
    assert_eq!(*log.borrow(), [2, 1]);
    assert_eq!(pool.stats().live_blocks, 0);
}

#[test]
fn a_panicking_callback_does_not_stop_the_others() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    let result = catch_unwind(AssertUnwindSafe(|| {
        let scope = pool.scope();
        scope.on_exit(|| log.borrow_mut().push(1));
        scope.on_exit(|| panic!("cleanup fails"));
        scope.on_exit(|| log.borrow_mut().push(3));
    }));
    assert!(result.is_err());
    assert_eq!(*log.borrow(), [3, 1]);
}

#[test]
fn an_unregistered_callback_is_dropped_uncalled() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    let scope = pool.scope();
    scope.set_limit(Some(0));
    let owned = Noisy { id: 7, log: &log };
    let log_ref = &log;
    let err = scope
        .try_on_exit(move || {
            log_ref.borrow_mut().push(99);
            drop(owned);
        })
        .unwrap_err();
    drop(err);
    drop(scope);
    assert_eq!(*log.borrow(), [7], "dropped once, never called");
}

#[test]
fn reset_runs_destructors_once() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    scope.alloc(Noisy { id: 1, log: &log });
    scope.reset();
    assert_eq!(*log.borrow(), [1]);
    scope.alloc(Noisy { id: 2, log: &log });
    drop(scope);
    assert_eq!(*log.borrow(), [1, 2]);
}

#[test]
fn an_arena_drops_its_values_when_it_ends() {
    let log = RefCell::new(Vec::new());
    {
        let arena = Arena::new();
        for id in 0..3 {
            arena.alloc(Noisy { id, log: &log });
        }
    }
    assert_eq!(*log.borrow(), [2, 1, 0]);
}
