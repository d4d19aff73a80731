use std::cell::RefCell;

use arena_kit::{Arena, BlockPool};

use crate::common::Noisy;

#[test]
fn a_child_scope_returns_its_blocks_at_its_end_while_the_parent_keeps_its_own() {
    let pool = BlockPool::new();
    let parent = pool.scope();
    let kept = parent.alloc(1_u64);
    for round in 0..3 {
        let child = parent.scope();
        for _ in 0..2 {
            child.alloc_slice_fill_copy(pool.block_capacity(), round as u8);
        }
        assert_eq!(pool.stats().live_blocks, 1 + 2);
    }
    assert_eq!(pool.stats().live_blocks, 1);
    assert_eq!(*kept, 1);
}

#[test]
fn the_parent_stays_usable_while_a_child_lives() {
    let pool = BlockPool::new();
    let parent = pool.scope();
    let child = parent.scope();
    let a = parent.alloc(1_u32);
    let b = child.alloc(2_u32);
    let c = parent.alloc(3_u32);
    *a += *b + *c;
    assert_eq!(*a, 6);
}

#[test]
fn child_values_may_borrow_parent_values_and_drop_first() {
    struct Reader<'a> {
        of: &'a Noisy<'a>,
        log: &'a RefCell<Vec<u32>>,
    }
    impl Drop for Reader<'_> {
        fn drop(&mut self) {
            self.log.borrow_mut().push(100 + self.of.id);
        }
    }
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    {
        let parent = pool.scope();
        let owner = parent.alloc(Noisy { id: 1, log: &log });
        {
            let child = parent.scope();
            child.alloc(Reader { of: owner, log: &log });
        }
        assert_eq!(*log.borrow(), [101]);
    }
    assert_eq!(*log.borrow(), [101, 1]);
}

#[test]
fn nested_scopes_many_levels_deep_return_every_block() {
    fn descend(scope: &arena_kit::Scope<'_>, depth: u32, pool: &BlockPool) {
        if depth == 0 {
            return;
        }
        let child = scope.scope();
        // A whole block, a word at a time (bytewise is slow in Miri).
        child.alloc_slice_fill_copy(pool.block_capacity() / 8, u64::from(depth));
        descend(&child, depth - 1, pool);
    }
    let pool = BlockPool::new();
    descend(&pool.scope(), 20, &pool);
    let stats = pool.stats();
    assert_eq!((stats.live_blocks, stats.peak_live_blocks), (0, 20));
}

#[test]
fn an_arena_child_owns_its_own_system_blocks() {
    let arena = Arena::new();
    let x = arena.alloc(5_u32);
    {
        let child = arena.scope();
        child.alloc_slice_fill_copy(10_000, 1_u8);
        assert!(child.stats().reserved_bytes >= 10_000);
    }
    assert_eq!(*x, 5);
}
