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
    arena.alloc_slice_fill_copy(50_000 / 8, 3_u64); // words: bytewise is slow in Miri
    assert_eq!(arena.stats().blocks, 1);
    assert_eq!(Arena::with_capacity(0).stats().blocks, 0);
}

#[test]
fn reset_keeps_one_block() {
    let mut arena = Arena::new();
    for _ in 0..10 {
        arena.alloc_slice_fill_copy(3000 / 8, 0_u64);
    }
    arena.reset();
    let stats = arena.stats();
    assert_eq!((stats.blocks, stats.allocated_bytes), (1, 0));
    assert_eq!(arena.alloc_str("again"), "again");
}

/// A repeated cycle larger than an arena's largest growth step (1 MiB; under Miri a
/// smaller cycle still crosses several blocks) settles in one block: after the first
/// reset the arena takes one block sized for the whole cycle, which the next reset keeps,
/// so later cycles ask the system for nothing.
#[test]
fn repeated_cycles_settle_in_one_block() {
    let values = if cfg!(miri) { 3_000 } else { 400_000 }; // 3.2 MB of u64s
    let mut arena = Arena::new();
    let mut blocks_per_cycle = Vec::new();
    for cycle in 0..4_u64 {
        for i in 0..values {
            arena.alloc(cycle + i);
        }
        blocks_per_cycle.push(arena.stats().blocks);
        arena.reset();
        assert_eq!(arena.stats().blocks, 1, "reset keeps the current block only");
    }
    assert!(blocks_per_cycle[0] > 2, "the first cycle grows: {blocks_per_cycle:?}");
    assert_eq!(blocks_per_cycle[1], 2, "the kept block and one for the rest");
    assert_eq!(blocks_per_cycle[2..], [1, 1], "then one block holds the cycle");
    assert!(arena.stats().reserved_bytes >= values as usize * 8);
}
