//! Limits below a first block (the scope takes a smaller block, as bumpalo takes a
//! smaller chunk), checked at their boundaries, and what `blocks` and `block_room` report.

use std::alloc::Layout;

use arena_kit::{AllocError, Arena, BlockPool, LimitKind, block::BlockKind};

/// Bytes of a block's header: a block of `HEADER + n` bytes holds `n`.
fn header(pool: &BlockPool) -> usize {
    pool.block_size() - pool.block_capacity()
}

#[test]
fn a_limit_just_big_enough_for_one_value_allows_it_and_nothing_more() {
    let pool = BlockPool::new();
    let h = header(&pool);
    let scope = pool.scope();
    scope.set_limit(Some(h + 8));
    assert_eq!(*scope.alloc(7_u64), 7);
    assert_eq!(scope.stats().reserved_bytes, h + 8);
    assert_eq!(scope.block_room(), 0);
    let err = scope.try_alloc(1_u8).unwrap_err().error();
    assert_eq!(
        err,
        AllocError::LimitReached {
            kind: LimitKind::Scope,
            limit: h + 8,
            held: h + 8,
            requested: h + 1
        }
    );

    let scope = pool.scope();
    scope.set_limit(Some(h + 7)); // one byte short
    assert!(scope.try_alloc(7_u64).is_err());
    assert_eq!(scope.stats().reserved_bytes, 0);
}

#[test]
fn a_small_limit_fills_its_block_with_many_small_values() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let limit = 1000;
    scope.set_limit(Some(limit));
    let mut n = 0_u32;
    while scope.try_alloc(n).is_ok() {
        n += 1;
    }
    let stats = scope.stats();
    assert!(stats.reserved_bytes <= limit);
    assert_eq!(stats.blocks, 1, "one block took all the room the limit leaves");
    assert!(n as usize * 4 + header(&pool) + 16 > limit, "only alignment slack is unused");
}

#[test]
fn the_room_left_under_a_limit_gives_smaller_blocks_until_none_fits() {
    let arena = Arena::new();
    arena.set_limit(Some(600));
    arena.alloc([0_u8; 500]); // a block of 592 (600 rounded down to 16)
    assert_eq!(arena.stats().reserved_bytes, 592);
    assert!(arena.try_alloc([0_u8; 100]).is_err(), "8 bytes of budget left: no block");
    arena.set_limit(Some(800));
    arena.alloc([0_u8; 100]); // a second small block of 208
    let sizes: Vec<usize> = arena.blocks().map(|b| b.size).collect();
    assert_eq!(sizes, [208, 592]);
    assert!(arena.stats().reserved_bytes <= 800);
}

#[test]
fn small_blocks_go_back_to_the_system_not_into_the_pool() {
    let pool = BlockPool::new();
    for _ in 0..3 {
        let scope = pool.scope();
        scope.set_limit(Some(500));
        scope.alloc_str("small");
        assert!(scope.stats().reserved_bytes <= 500);
    }
    let stats = pool.stats();
    assert_eq!(stats.live_blocks, 0);
    assert_eq!(stats.cached_blocks, 0, "no block of the pool's size was ever made");
    let scope = pool.scope();
    scope.alloc_str("standard");
    assert_eq!(scope.stats().reserved_bytes, pool.block_size());
}

#[test]
fn an_over_aligned_value_under_a_small_limit_gets_an_aligned_small_block() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    scope.set_limit(Some(1000)); // below a standard block
    for _ in 0..10 {
        let p = scope.alloc_layout(Layout::from_size_align(64, 64).unwrap());
        assert_eq!(p.as_ptr() as usize % 64, 0);
    }
    assert!(scope.stats().reserved_bytes <= 1000);
    assert_eq!(scope.stats().blocks, 1);
    // Padded to 4096 bytes, it needs a block of twice that: past the limit.
    assert!(scope.try_alloc_layout(Layout::from_size_align(1, 4096).unwrap()).is_err());
}

#[test]
fn a_limit_below_the_first_block_of_an_arena_vector_lets_it_grow_to_the_limit() {
    let arena = Arena::new();
    arena.set_limit(Some(512));
    let mut v = arena_kit::ArenaVec::new_in(&arena);
    while v.try_push(0_u8).is_ok() {}
    assert!(v.len() >= 256, "the vector grew in the small block: {}", v.len());
    assert!(arena.stats().reserved_bytes <= 512);
}

#[test]
fn blocks_report_each_block_once_with_sizes_that_add_up() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    assert_eq!((scope.blocks().count(), scope.block_room()), (0, 0));
    scope.alloc(1_u8);
    let room = scope.block_room();
    assert_eq!(room, pool.block_capacity() - 1);
    scope.alloc([0_u8; 6000]);
    scope.alloc([0_u8; 6000]); // a second standard block
    scope.alloc_slice_fill_copy(20_000, 0_u8); // a block of its own, retired at once
    let mut v = arena_kit::ArenaVec::new_in(&scope);
    v.extend(0..3000_u64); // a buffer block
    let blocks: Vec<_> = scope.blocks().collect();
    assert_eq!(blocks.len(), scope.stats().blocks);
    let count = |kind| blocks.iter().filter(|b| b.kind == kind).count();
    assert_eq!(
        (blocks[0].kind, count(BlockKind::Current), count(BlockKind::Buffer)),
        (BlockKind::Current, 1, 1)
    );
    assert!(count(BlockKind::Retired) >= 2);
    assert_eq!(blocks.last().unwrap().kind, BlockKind::Buffer, "buffer blocks come last");
    assert!(blocks.iter().any(|b| b.kind == BlockKind::Retired && b.capacity >= 20_000));
    assert_eq!(blocks.iter().map(|b| b.size).sum::<usize>(), scope.stats().reserved_bytes);
    assert_eq!(blocks[0].room, scope.block_room());
    assert!(blocks[1..].iter().all(|b| b.room == 0));
    assert!(blocks.iter().all(|b| b.capacity < b.size));
    let buffer = blocks.last().unwrap();
    let data = v.as_ptr() as usize;
    assert!(buffer.addr <= data && data + 3000 * 8 <= buffer.addr + buffer.capacity);
}

#[test]
fn an_oversize_value_that_fails_to_build_gives_its_block_back_at_once() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    scope.alloc(0_u8);
    let held = scope.stats();
    let err = scope.alloc_try_with(|| Err::<[u8; 20_000], _>("no"));
    assert_eq!(err.err(), Some("no"));
    assert_eq!(scope.stats(), held, "the oversize block went straight back");
    let slice =
        scope.alloc_slice_try_fill_with(30_000, |i| if i < 10 { Ok(i as u8) } else { Err(i) });
    assert_eq!(slice.err(), Some(10));
    assert_eq!(scope.stats(), held);
}
