use arena_kit::Arena;

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

/// A reset sizes the next block by the bump blocks the cycle used, not by the buffer
/// blocks of its collections: a big vector kept as a slice does not make every later
/// cycle start with a block of its size.
#[test]
fn a_reset_after_a_big_buffer_does_not_grow_the_next_block_to_it() {
    let mut arena = Arena::new();
    let big = scaled(256 * 1024);
    let mut v = arena_kit::ArenaVec::with_capacity_in(big, &arena);
    v.resize(big, 1_u8);
    let slice = v.into_slice();
    assert_eq!(slice.len(), big);
    for i in 0..scaled(2_000) as u64 {
        arena.alloc(i); // and a second bump block
    }
    arena.reset();
    // Just past the kept block's room: the next block is the size the reset chose.
    arena.alloc_slice_fill_copy(arena.block_room() / 8 + 1, 0_u64);
    let largest = arena.blocks().map(|b| b.capacity).max().expect("blocks");
    assert!(largest < big, "a block of {largest} bytes after a {big}-byte buffer");
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
