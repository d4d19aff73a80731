use core::alloc::Layout;

use arena_kit::{BlockPool, arena_new};

use crate::common::scaled;

#[test]
fn values_keep_their_contents_until_the_scope_ends() {
    let pool = BlockPool::with_block_size(256);
    let scope = pool.scope();
    let n = scaled(10_000);
    let refs: Vec<&mut u64> = (0..n as u64).map(|i| scope.alloc(i * 3)).collect();
    for (i, r) in refs.iter().enumerate() {
        assert_eq!(**r, i as u64 * 3);
    }
    assert!(scope.stats().blocks > 1, "spans several blocks");
}

#[test]
fn allocations_do_not_overlap() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for i in 0..scaled(2_000) {
        let s = scope.alloc_slice_fill_copy(i % 37 + 1, i as u8);
        let start = s.as_ptr() as usize;
        ranges.push((start, start + s.len()));
    }
    ranges.sort_unstable();
    for pair in ranges.windows(2) {
        assert!(pair[0].1 <= pair[1].0, "{pair:?} overlap");
    }
}

#[test]
fn alloc_with_builds_in_place_and_may_allocate_in_the_same_scope() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let outer = scope.alloc_with(|| {
        let inner = scope.alloc(5_u32);
        *inner + 1
    });
    assert_eq!(*outer, 6);
    let big = scope.alloc_with(|| [7_u8; 3000]);
    assert!(big.iter().all(|&b| b == 7));
}

#[test]
fn copy_values_may_point_at_each_other() {
    #[derive(Clone, Copy)]
    struct Node<'a> {
        value: u32,
        next: Option<&'a Node<'a>>,
    }
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut head: Option<&Node<'_>> = None;
    for value in 0..100 {
        head = Some(scope.alloc_copy(Node { value, next: head }));
    }
    let sum: u32 = std::iter::successors(head, |n| n.next).map(|n| n.value).sum();
    assert_eq!(sum, (0..100).sum::<u32>());
}

#[test]
fn zero_sized_values_need_no_memory_but_still_drop() {
    use std::cell::Cell;
    struct Unit;
    struct CountsDrop<'a>(&'a Cell<u32>);
    impl Drop for CountsDrop<'_> {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }
    let dropped = Cell::new(0);
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        for _ in 0..10 {
            let Unit = *scope.alloc(Unit);
        }
        assert_eq!(scope.stats().allocated_bytes, 0);
        assert_eq!(scope.alloc_slice_fill_with(1000, |_| ()).len(), 1000);
        for _ in 0..5 {
            scope.alloc(CountsDrop(&dropped));
        }
        scope.alloc_slice_fill_with(3, |_| CountsDrop(&dropped));
        assert_eq!(dropped.get(), 0);
    }
    assert_eq!(dropped.get(), 8);
}

#[test]
fn over_aligned_values_are_aligned_up_to_4096_and_beyond() {
    #[repr(align(64))]
    struct A64(u8);
    #[repr(align(4096))]
    struct A4096(u8);
    #[repr(align(8192))]
    struct A8192(u8);
    let pool = BlockPool::new();
    let scope = pool.scope();
    for i in 0..4 {
        scope.alloc(i as u8);
        let a = scope.alloc(A64(1));
        assert_eq!(a as *const A64 as usize % 64, 0);
        let b = scope.alloc(A4096(2));
        assert_eq!(b as *const A4096 as usize % 4096, 0);
        let c = scope.alloc(A8192(3));
        assert_eq!(c as *const A8192 as usize % 8192, 0);
        assert_eq!((a.0, b.0, c.0), (1, 2, 3));
    }
    let p = scope.alloc_layout(Layout::from_size_align(10, 1 << 16).unwrap());
    assert_eq!(p.as_ptr() as usize % (1 << 16), 0);
}

#[test]
fn empty_slices_and_strings_are_fine() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    assert!(scope.alloc_slice_copy::<u64>(&[]).is_empty());
    assert!(scope.alloc_slice_clone::<String>(&[]).is_empty());
    assert!(scope.alloc_slice_fill_with(0, |_| String::new()).is_empty());
    assert!(scope.alloc_from_iter(std::iter::empty::<String>()).is_empty());
    assert_eq!(scope.alloc_str(""), "");
    assert_eq!(scope.stats().allocated_bytes, 0);
}

#[test]
fn slices_copy_clone_fill_and_collect() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    assert_eq!(scope.alloc_slice_copy(&[1, 2, 3]), &[1, 2, 3]);
    assert_eq!(scope.alloc_slice_fill_copy(2, 'z'), &['z', 'z']);
    let owned = [String::from("a"), String::from("bc")];
    assert_eq!(scope.alloc_slice_clone(&owned), &owned);
    assert_eq!(scope.alloc_slice_fill_with(3, |i| i * 10), &[0, 10, 20]);
    assert_eq!(scope.alloc_from_iter(vec![4, 5, 6]), &[4, 5, 6]);
    let odd = scope.alloc_from_iter((0..20).filter(|n| n % 2 == 1).map(|n| n.to_string()));
    assert_eq!(odd.len(), 10);
    assert_eq!(odd[9], "19");
    let s = scope.alloc_str("héllo");
    s.make_ascii_uppercase();
    assert_eq!(s, "HéLLO");
}

#[test]
fn an_iterator_shorter_than_it_claims_gives_a_shorter_slice() {
    struct Liar(u32);
    impl Iterator for Liar {
        type Item = String;
        fn next(&mut self) -> Option<String> {
            (self.0 < 3).then(|| {
                self.0 += 1;
                self.0.to_string()
            })
        }
        fn size_hint(&self) -> (usize, Option<usize>) {
            (10, Some(10))
        }
    }
    impl ExactSizeIterator for Liar {}
    let pool = BlockPool::new();
    let scope = pool.scope();
    assert_eq!(scope.alloc_from_iter(Liar(0)), &["1", "2", "3"]);
    assert_eq!(scope.try_alloc_from_iter(Liar(0)).unwrap(), &["1", "2", "3"]);
}

#[test]
fn an_oversize_value_does_not_waste_the_current_block() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let a = scope.alloc(1_u64) as *const u64 as usize;
    // Under Miri, two blocks' worth (still oversize) rather than 100 000 bytes to fill.
    let big_len = if cfg!(miri) { 2 * pool.block_size() } else { 100_000 };
    let _big = scope.alloc_slice_fill_copy(big_len, 0_u8);
    let b = scope.alloc(2_u64) as *const u64 as usize;
    assert_eq!(b, a + 8, "bumping continues in the same block after a dedicated one");
    assert_eq!(scope.stats().blocks, 2);
}

#[test]
fn stats_count_bytes_handed_out_and_held() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    scope.alloc(0_u32);
    scope.alloc(0_u64); // 4 bytes of padding before it
    let stats = scope.stats();
    assert_eq!(stats.allocated_bytes, 16);
    assert_eq!((stats.reserved_bytes, stats.blocks), (pool.block_size(), 1));
    scope.alloc_slice_fill_copy(pool.block_capacity(), 0_u8); // a second standard block
    let stats = scope.stats();
    assert_eq!(stats.allocated_bytes, 16 + pool.block_capacity());
    assert_eq!((stats.reserved_bytes, stats.blocks), (2 * pool.block_size(), 2));
    assert!(format!("{scope:?}").contains("pool"));
}

#[test]
fn reset_drops_everything_and_reuses_the_current_block() {
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    scope.alloc(1_u32);
    scope.alloc_slice_fill_copy(3 * pool.block_capacity(), 0_u8);
    for _ in 0..3 {
        scope.alloc_slice_fill_copy(pool.block_capacity(), 0_u8);
    }
    scope.reset();
    assert_eq!(scope.stats().blocks, 1);
    assert_eq!(scope.stats().allocated_bytes, 0);
    assert_eq!(*scope.alloc(2_u32), 2);
    assert_eq!(pool.stats().live_blocks, 1);
}

#[test]
fn arena_new_default_constructs_or_moves_a_literal_in() {
    #[derive(Default, Debug, PartialEq)]
    struct Point {
        x: i32,
        y: i32,
    }
    let pool = BlockPool::new();
    let scope = pool.scope();
    let origin = arena_new!(scope, Point);
    let p = arena_new!(scope, Point { x: 1, y: 2 });
    p.x += origin.x;
    assert_eq!(*origin, Point::default());
    assert_eq!(p.y, 2);
}
