use arena_core::Arena;

use crate::common::scaled;

#[test]
fn an_arena_grows_its_blocks_geometrically() {
    let arena = Arena::default();
    for i in 0..scaled(60_000) {
        arena.alloc(i as u32);
    }
    let stats = arena.stats();
    assert_eq!(stats.allocated_bytes, scaled(60_000) * 4);
    if !cfg!(miri) {
        assert!(stats.blocks <= 8, "{stats:?}");
    }
    assert!(format!("{arena:?}").contains("Arena"));
}

#[test]
fn with_capacity_reserves_the_first_block() {
    let arena = Arena::with_capacity(50_000);
    assert_eq!(arena.stats().blocks, 1);
    arena.alloc_slice_fill_copy(50_000, 3_u8);
    assert_eq!(arena.stats().blocks, 1);
    assert_eq!(Arena::with_capacity(0).stats().blocks, 0);
}

#[test]
fn reset_keeps_one_block() {
    let mut arena = Arena::new();
    for _ in 0..10 {
        arena.alloc_slice_fill_copy(3000, 0_u8);
    }
    arena.reset();
    let stats = arena.stats();
    assert_eq!((stats.blocks, stats.allocated_bytes), (1, 0));
    assert_eq!(arena.alloc_str("again"), "again");
}
