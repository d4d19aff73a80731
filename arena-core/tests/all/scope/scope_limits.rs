//! A pool's scope limit (`set_scope_limit`): every scope of the pool that sets no limit of
//! its own is held to it, nested and already-open scopes too; a scope's own limit wins;
//! oversize buffers and growing collections are checked; failed `try_`s hand the value
//! back; one scope cannot take a buffer pool from the others.

use std::mem::MaybeUninit;

use arena_kit::{AllocError, ArenaVec, BlockPool, BufferBlockPool, LimitKind, SharedBlockPool};

/// One value of a little less than a block's room: each takes a block of its own.
fn chunk(pool: &BlockPool) -> usize {
    pool.block_capacity() - 64
}

#[test]
fn every_scope_without_a_limit_of_its_own_is_held_to_the_pools() {
    let pool = BlockPool::new();
    let open = pool.scope(); // opened before the limit: held to it all the same
    pool.set_scope_limit(Some(2 * pool.block_size()));
    let fresh = pool.scope();
    for scope in [&open, &fresh] {
        assert_eq!(scope.limit(), Some(2 * pool.block_size()));
        scope.alloc_slice_fill_copy(chunk(&pool), 0_u8);
        scope.alloc_slice_fill_copy(chunk(&pool), 0_u8);
        let err = scope.try_alloc_slice_fill_copy(chunk(&pool), 0_u8).unwrap_err();
        assert!(matches!(err, AllocError::LimitReached { kind: LimitKind::Scope, .. }), "{err:?}");
        assert_eq!(scope.stats().blocks, 2);
    }
    // A nested scope is a scope of the same pool: the same limit, counted for itself.
    let child = fresh.scope();
    assert_eq!(child.limit(), Some(2 * pool.block_size()));
    child.alloc_slice_fill_copy(chunk(&pool), 1_u8);
    child.alloc_slice_fill_copy(chunk(&pool), 1_u8);
    assert!(child.try_alloc_slice_fill_copy(chunk(&pool), 1_u8).is_err());
}

#[test]
fn a_scopes_own_limit_wins_and_none_goes_back_to_the_pools() {
    let pool = BlockPool::new();
    pool.set_scope_limit(Some(pool.block_size()));
    let scope = pool.scope();
    scope.set_limit(Some(usize::MAX));
    assert_eq!(scope.limit(), Some(usize::MAX));
    for _ in 0..4 {
        scope.alloc_slice_fill_copy(chunk(&pool), 0_u8);
    }
    assert_eq!(scope.stats().blocks, 4);
    scope.set_limit(None);
    assert_eq!(scope.limit(), Some(pool.block_size()), "back to the pool's");
    assert!(scope.try_alloc_slice_fill_copy(chunk(&pool), 0_u8).is_err());
    pool.set_scope_limit(None);
    assert_eq!(scope.limit(), None);
    assert!(scope.try_alloc_slice_fill_copy(chunk(&pool), 0_u8).is_ok());
}

#[test]
fn a_scope_always_gets_its_first_block_and_the_limit_decides_the_rest() {
    let pool = BlockPool::new();
    pool.set_scope_limit(Some(100)); // below one block
    let scope = pool.scope();
    assert_eq!(*scope.alloc(5_u8), 5, "the first standard block");
    scope.alloc_slice_fill_copy(pool.block_capacity() / 2, 0_u8); // the same block
    let err = scope.try_alloc_slice_fill_copy(pool.block_capacity(), 0_u8).unwrap_err();
    assert!(matches!(err, AllocError::LimitReached { .. }), "{err:?}");
}

#[test]
fn oversize_values_and_growing_collections_are_checked_and_handed_back() {
    let pool = BlockPool::new();
    pool.set_scope_limit(Some(pool.block_size()));
    let scope = pool.scope();
    // An oversize value (12 000 bytes against 8 KiB blocks) would take a block of its own
    // past the limit, even as the scope's first: refused, and the value comes back.
    let big = [7_u64; 1500];
    let Err(back) = scope.try_alloc(big) else { panic!("an oversize value past the limit") };
    assert!(matches!(back.error(), AllocError::LimitReached { .. }), "{:?}", back.error());
    assert_eq!(back.into_value()[0], 7);

    pool.set_scope_limit(Some(4 * pool.block_size()));
    let scope = pool.scope();
    // A vector grows until its next buffer would pass the limit.
    let mut v = ArenaVec::new_in(&scope);
    let mut refused = None;
    for i in 0..100_000_u32 {
        if let Err(e) = v.try_push(i) {
            refused = Some(e);
            break;
        }
    }
    let refused = refused.expect("the limit stops the vector");
    assert!(v.len() * 4 <= 4 * pool.block_size(), "{} values", v.len());
    assert_eq!(refused.into_value(), u32::try_from(v.len()).unwrap(), "the value comes back");
    assert!(scope.stats().reserved_bytes <= 4 * pool.block_size());
}

#[test]
fn a_thread_pool_of_a_shared_pool_takes_a_scope_limit_too() {
    let shared = SharedBlockPool::new();
    let local = shared.local();
    local.set_scope_limit(Some(local.block_size()));
    let scope = local.scope();
    scope.alloc_slice_fill_copy(local.block_capacity() - 64, 0_u8);
    assert!(scope.try_alloc_slice_fill_copy(local.block_capacity() - 64, 0_u8).is_err());
}

#[test]
fn one_message_cannot_take_a_buffer_pool_from_the_others() {
    let mut buffer = [MaybeUninit::uninit(); 8 * 512];
    let pool = BufferBlockPool::with_block_size(&mut buffer, 512);
    pool.set_scope_limit(Some(3 * pool.block_size()));
    let greedy = pool.scope();
    while greedy.try_alloc([1_u8; 200]).is_ok() {}
    assert_eq!(greedy.stats().blocks, 3);
    let others: Vec<_> = (0..3).map(|_| pool.scope()).collect();
    for other in &others {
        assert!(other.try_alloc([2_u8; 200]).is_ok(), "the buffer kept room for it");
    }
}
