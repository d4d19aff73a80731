//! Scopes, arenas, their views and collections with allocations failing.

use core::alloc::Layout;
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};

use arena_kit::{Arena, ArenaString, ArenaVec, BlockPool, Scope, try_arena_new};

use crate::injector::unarmed;
use crate::{Counted, above, is_oom, scaled, sweep};

/// Small blocks, so that a few allocations take new ones.
const BLOCK: usize = 512;

/// Every `try_` method of a scope, one after the other, on a pool of small blocks, an
/// arena and a child scope: a failure hands the value back, later calls succeed, the
/// values that made it in are intact and dropped once, callbacks run once.
pub(crate) fn every_try_method_of_a_scope() {
    let points = sweep(|| {
        let pool = unarmed(|| BlockPool::with_block_size(BLOCK));
        let exits = Cell::new(0);
        let registered = Cell::new(0);
        {
            let scope = pool.scope();
            exercise(&scope, &exits, &registered);
            {
                let child = scope.scope();
                exercise(&child, &exits, &registered);
            }
            let arena = Arena::new();
            exercise(&arena, &exits, &registered);
            // Usable after whatever failed (the one failure is spent).
            assert_eq!(scope.try_alloc(Counted::new(99)).map_err(|e| e.error()).unwrap().0, 99);
        }
        assert_eq!(exits.get(), registered.get(), "every registered callback ran once");
    });
    assert!(points > 8, "the case made {points} allocations");
}

fn exercise<'p>(scope: &Scope<'p>, exits: &'p Cell<u32>, registered: &Cell<u32>) {
    let mut kept: [Option<&Counted>; 4] = [None; 4];
    for (id, slot) in (0_u8..).zip(kept.iter_mut()) {
        let id = u32::from(id);
        let byte = id.to_le_bytes()[0];
        match scope.try_alloc(Counted::new(id)) {
            Ok(v) => *slot = Some(v),
            Err(e) => {
                is_oom(e.error());
                assert_eq!(e.into_value().0, id, "the value is handed back");
            }
        }
        let big = [byte; 300];
        match scope.try_alloc_copy(big) {
            Ok(v) => assert_eq!(v[299], byte),
            Err(e) => {
                is_oom(e.error());
                assert_eq!(e.into_value()[0], byte);
            }
        }
        match scope.try_alloc_with(|| Counted::new(id + 100)) {
            Ok(v) => assert_eq!(v.0, id + 100),
            Err(e) => {
                is_oom(e.error());
                assert_eq!(e.into_value()().0, id + 100, "the closure is handed back uncalled");
            }
        }
        match scope.try_alloc_slice_copy(&[7_u16; 200]) {
            Ok(s) => assert!(s.iter().all(|&x| x == 7)),
            Err(e) => is_oom(e),
        }
        match scope.try_alloc_slice_fill_copy(150, 3_u32) {
            Ok(s) => assert_eq!(s.len(), 150),
            Err(e) => is_oom(e),
        }
        match scope.try_alloc_str("a string that needs a block of its own, sometimes") {
            Ok(s) => assert!(s.starts_with("a string")),
            Err(e) => is_oom(e),
        }
        match scope.try_alloc_slice_fill_with(30, |j| Counted::new(u32::try_from(j).unwrap())) {
            Ok(s) => assert_eq!(s[29].0, 29),
            Err(e) => {
                is_oom(e.error());
                let mut f = e.into_value();
                assert_eq!(f(5).0, 5);
            }
        }
        match scope.try_alloc_from_iter((0..20).map(Counted::new)) {
            Ok(s) => assert_eq!(s.len(), 20),
            Err(e) => {
                is_oom(e.error());
                assert_eq!(e.into_value().len(), 20, "the iterator is handed back untouched");
            }
        }
        match scope.try_alloc_layout(Layout::from_size_align(700, 64).unwrap()) {
            Ok(p) => assert!(p.as_ptr().addr() % 64 == 0),
            Err(e) => is_oom(e),
        }
        match scope.try_on_exit(move || exits.set(exits.get() + 1)) {
            Ok(()) => registered.set(registered.get() + 1),
            Err(e) => is_oom(e.error()),
        }
        match try_arena_new!(scope, [u64; 40]) {
            Ok(s) => assert_eq!(s.len(), 40),
            Err(e) => is_oom(e.error()),
        }
        let view = scope.view();
        match view.try_alloc([id; 100]) {
            Ok(v) => assert_eq!(v[0], id),
            Err(e) => {
                is_oom(e.error());
                assert_eq!(e.into_value()[99], id);
            }
        }
        match view.try_alloc_slice_copy(&[1_u8; 600]) {
            Ok(s) => assert_eq!(s.len(), 600),
            Err(e) => is_oom(e),
        }
    }
    for (id, v) in (0..).zip(kept) {
        if let Some(v) = v {
            assert_eq!(v.0, id, "a value that made it in is intact");
        }
    }
}

/// `ArenaVec` and `ArenaString` growing through every regime (at the tip, moved, a
/// buffer block of their own, `realloc`ed) with any allocation failing: a failed push
/// hands the value back and leaves the contents as they were.
pub(crate) fn collections_keep_their_contents() {
    let points = sweep(|| {
        let pool = unarmed(|| BlockPool::with_block_size(BLOCK));
        let scope = pool.scope();
        let mut v = ArenaVec::new_in(&scope);
        let mut expected = 0_u32;
        for id in 0..scaled(400) {
            match v.try_push(Counted::new(id)) {
                Ok(()) => expected += 1,
                Err(e) => {
                    is_oom(e.error());
                    assert_eq!(e.into_value().0, id);
                }
            }
            if id % 50 == 0 {
                // Something else at the tip: the vector must move, not grow in place.
                let _ = scope.try_alloc(id);
            }
        }
        assert_eq!(v.len(), expected as usize);
        assert!(v.windows(2).all(|w| w[0].0 < w[1].0), "order kept");
        let mut bytes = ArenaVec::<u8>::new_in(&scope);
        for n in [10, 1000, 5000, 20_000] {
            let before = bytes.capacity();
            match bytes.try_reserve(n) {
                Ok(()) => assert!(bytes.capacity() >= n),
                Err(e) => {
                    is_oom(e);
                    assert_eq!(bytes.capacity(), before, "a failed reserve changes nothing");
                }
            }
        }
        let mut s = ArenaString::new_in(&scope);
        let mut model_len = 0;
        for i in 0..scaled(200) {
            let piece = if i % 3 == 0 { "αβγ" } else { "text " };
            match s.try_push_str(piece) {
                Ok(()) => model_len += piece.len(),
                Err(e) => is_oom(e),
            }
            match s.try_push('€') {
                Ok(()) => model_len += 3,
                Err(e) => {
                    is_oom(e.error());
                    assert_eq!(e.into_value(), '€');
                }
            }
        }
        assert_eq!(s.len(), model_len);
        assert!(s.is_char_boundary(s.len()));
        // Usable after the failure.
        v.try_push(Counted::new(1000)).map_err(|e| e.error()).unwrap();
        assert_eq!(v.last().map(|c| c.0), Some(1000));
    });
    assert!(points > 2, "the case made {points} allocations");
}

/// Every request above 16 KiB fails, every smaller one succeeds: an oversize value, a
/// vector outgrowing the standard block and an arena's first block fail cleanly, and the
/// scope serves small requests all along.
pub(crate) fn large_requests_fail_alone() {
    let pool = BlockPool::new();
    pool.reserve(1).unwrap();
    above(16 * 1024, || {
        let scope = pool.scope();
        let big = scope.try_alloc_slice_fill_copy(20_000, 5_u8).unwrap_err();
        is_oom(big);
        assert_eq!(*scope.try_alloc(1_u8).map_err(|e| e.error()).unwrap(), 1);
        let mut v = ArenaVec::new_in(&scope);
        let mut failed = false;
        for i in 0..10_000_u32 {
            if let Err(e) = v.try_push(i) {
                is_oom(e.error());
                assert_eq!(e.into_value(), i);
                failed = true;
                break;
            }
        }
        assert!(failed, "the vector outgrows 16 KiB");
        assert!(v.iter().enumerate().all(|(i, &x)| x as usize == i));
        is_oom(Arena::new().try_alloc_slice_fill_copy(20_000, 0_u8).unwrap_err());
        assert!(scope.try_alloc_str("small").is_ok(), "small requests still succeed");
    });
}

/// The panicking methods panic with the documented message when a limit (not memory)
/// stops them, and the scope is usable after.
pub(crate) fn limit_panics_say_so() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    scope.set_limit(Some(0));
    let err = catch_unwind(AssertUnwindSafe(|| {
        scope.alloc([0_u8; 10_000]);
    }))
    .unwrap_err();
    let msg = err.downcast_ref::<String>().unwrap();
    assert!(
        msg.starts_with("arena-kit: scope allocation limit reached: 0 of 0 bytes held"),
        "{msg}"
    );
    scope.set_limit(None);
    assert_eq!(scope.alloc(3_u8), &3);
}

#[track_caller]
fn blocks_agree(s: &Scope<'_>) {
    unarmed(|| {
        let st = s.stats();
        let blocks: Vec<_> = s.blocks().collect();
        assert_eq!(st.blocks, blocks.len());
        assert_eq!(st.reserved_bytes, blocks.iter().map(|b| b.size).sum::<usize>());
    });
}

/// The one allocation a full scope on the pool's hot block makes for its second block
/// is the cold part (the pool has cached blocks): refused, the error comes back, nothing
/// changed, no block is lost, and the retry works.
pub(crate) fn the_cold_part_refused_for_a_second_block() {
    let pool = BlockPool::new();
    pool.reserve(4).unwrap();
    pool.scope().alloc(0_u8); // a hot block
    let scope = pool.scope();
    let cap = pool.block_capacity();
    let first = scope.alloc_slice_fill_copy(cap - 8, 1_u8);
    let before = scope.stats();
    let live = pool.stats().live_blocks;
    crate::injector::fail_nth(0);
    let e = scope.try_alloc_slice_fill_copy(64, 2_u8).unwrap_err();
    assert_eq!(crate::injector::disarm(), 1, "exactly one allocation was refused");
    is_oom(e);
    assert_eq!(scope.stats(), before);
    assert_eq!(pool.stats().live_blocks, live, "no block taken and lost");
    blocks_agree(&scope);
    let second = scope.alloc_slice_fill_copy(64, 3_u8);
    assert!(first.iter().all(|&b| b == 1) && second.iter().all(|&b| b == 3));
    assert_eq!(scope.stats().blocks, 2);
    blocks_agree(&scope);
}

/// Same for a vector's buffer block and a lone oversize block.
pub(crate) fn the_cold_part_refused_for_a_buffer_and_a_lone_block() {
    let pool = BlockPool::new();
    pool.reserve(2).unwrap();
    let scope = pool.scope();
    scope.alloc(1_u64);
    let bs = pool.block_size();
    let mut v = ArenaVec::<u8>::new_in(&scope);
    v.extend_from_slice(&[4; 100]);
    crate::injector::fail_nth(0);
    let e = v.try_reserve(2 * bs).unwrap_err();
    assert_eq!(crate::injector::disarm(), 1);
    is_oom(e);
    assert!(v.len() == 100 && v.iter().all(|&b| b == 4));
    blocks_agree(&scope);
    crate::injector::fail_nth(0);
    is_oom(scope.try_alloc_layout(Layout::from_size_align(3 * bs, 8).unwrap()).unwrap_err());
    assert_eq!(crate::injector::disarm(), 1);
    assert_eq!(scope.stats().blocks, 1);
    blocks_agree(&scope);
    v.reserve(2 * bs);
    v.extend_from_slice(&[5; 10]);
    assert_eq!(scope.stats().blocks, 2);
    drop(v);
    assert_eq!(scope.stats().blocks, 1);
    blocks_agree(&scope);
}
