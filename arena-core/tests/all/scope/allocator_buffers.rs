//! Big allocations through `allocator_api2::Allocator` get buffer blocks of their own:
//! grown and shrunk by reallocation, given back when freed or outgrown.

use core::alloc::Layout;

use allocator_api2::alloc::Allocator;
use allocator_api2::vec::Vec as ApiVec;
use arena_kit::{Arena, BlockPool, Scope, block::BlockKind};

use crate::common::scaled;

/// Blocks of each kind the scope holds now: (current, retired, buffer).
fn kinds(scope: &Scope<'_>) -> (usize, usize, usize) {
    let count = |kind| scope.blocks().filter(|b| b.kind == kind).count();
    (count(BlockKind::Current), count(BlockKind::Retired), count(BlockKind::Buffer))
}

#[test]
fn a_vector_that_outgrows_a_block_holds_about_its_capacity_not_its_past_buffers() {
    let pool = BlockPool::with_block_size(1024);
    let scope = pool.scope();
    let mut v: ApiVec<u8, _> = ApiVec::new_in(&scope);
    let n = scaled(200_000);
    for i in 0..n {
        v.push(i as u8);
    }
    assert!(v.iter().enumerate().all(|(i, &b)| b == i as u8));
    let (_, _, buffers) = kinds(&scope);
    assert_eq!(buffers, 1, "one buffer: every outgrown one went back");
    let held = scope.stats().reserved_bytes;
    assert!(
        held <= v.capacity() + v.capacity() / 8 + 3 * pool.block_size(),
        "{held} bytes held for a capacity of {}",
        v.capacity()
    );
    drop(v);
    assert_eq!(kinds(&scope).2, 0, "the buffer goes back with the vector");
    assert!(scope.stats().reserved_bytes <= 2 * pool.block_size());
    assert_eq!(pool.stats().dedicated_blocks, 0, "no dedicated block is live");
}

#[test]
fn shrinking_a_big_vector_below_a_block_moves_it_into_the_bump_and_frees_the_buffer() {
    let pool = BlockPool::with_block_size(1024);
    let scope = pool.scope();
    let mut v: ApiVec<u32, _> = ApiVec::with_capacity_in(4000, &scope);
    v.extend(0..4000_u32);
    assert_eq!(kinds(&scope).2, 1);
    v.truncate(10);
    v.shrink_to_fit();
    assert!(v.iter().copied().eq(0..10));
    assert_eq!(kinds(&scope).2, 0, "the buffer went back when the vector left it");
    v.extend(10..3000_u32); // and back out into a new buffer
    assert!(v.iter().copied().eq(0..3000));
    assert_eq!(kinds(&scope).2, 1);
    v.truncate(2000);
    v.shrink_to_fit(); // still too big for a block: the buffer is reallocated smaller
    assert!(v.iter().copied().eq(0..2000));
    assert_eq!(kinds(&scope).2, 1);
}

#[test]
fn a_big_allocation_can_change_alignment_as_it_grows_and_shrinks() {
    let arena = Arena::new();
    let alloc = &*arena;
    let small = Layout::from_size_align(3000, 8).expect("a layout");
    let p = alloc.allocate(small).expect("memory").cast::<u8>();
    // SAFETY: `p` holds 3000 bytes of ours.
    unsafe { p.as_ptr().write_bytes(0x5A, 3000) };
    let wide = Layout::from_size_align(9000, 256).expect("a layout");
    // SAFETY: `p` is a live allocation of `small`, and `wide` is larger.
    let q = unsafe { alloc.grow(p, small, wide) }.expect("memory").cast::<u8>();
    assert!(q.as_ptr().addr() % 256 == 0);
    // SAFETY: `q` holds 9000 bytes, the first 3000 copied.
    assert!(unsafe { core::slice::from_raw_parts(q.as_ptr(), 3000) }.iter().all(|&b| b == 0x5A));
    let narrow = Layout::from_size_align(2000, 16).expect("a layout");
    // SAFETY: `q` is a live allocation of `wide`, and `narrow` is smaller.
    let r = unsafe { alloc.shrink(q, wide, narrow) }.expect("memory").cast::<u8>();
    // SAFETY: `r` holds 2000 bytes, copied.
    assert!(unsafe { core::slice::from_raw_parts(r.as_ptr(), 2000) }.iter().all(|&b| b == 0x5A));
    assert_eq!(kinds(&arena).2, 1);
    // SAFETY: `r` is a live allocation of `narrow`, given up here.
    unsafe { alloc.deallocate(r, narrow) };
    assert_eq!(kinds(&arena).2, 0);
}

#[test]
fn a_limit_refuses_a_buffer_and_the_vector_keeps_what_it_had() {
    let pool = BlockPool::with_block_size(1024);
    let scope = pool.scope();
    scope.set_limit(Some(16 * 1024));
    let mut v: ApiVec<u8, _> = ApiVec::new_in(&scope);
    v.extend(core::iter::repeat_n(7_u8, 8000));
    assert!(v.try_reserve_exact(20_000).is_err(), "past the limit");
    assert_eq!(v.len(), 8000);
    assert!(v.iter().all(|&b| b == 7));
    assert!(scope.stats().reserved_bytes <= 16 * 1024);
}

#[test]
fn hashbrown_maps_that_grow_big_give_their_old_tables_back() {
    let pool = BlockPool::with_block_size(1024);
    let scope = pool.scope();
    let mut map =
        hashbrown::HashMap::with_hasher_in(hashbrown::DefaultHashBuilder::default(), &scope);
    // Under Miri, 500 entries rather than 20 000: the table (1024 buckets) still outgrows
    // the 1 KiB block and then several buffer tables of its own, each to be given back.
    let n: u64 = if cfg!(miri) { 500 } else { 20_000 };
    for i in 0..n {
        map.insert(i, i * 3);
    }
    assert!((0..n).all(|i| map[&i] == i * 3));
    assert_eq!(kinds(&scope).2, 1, "one table; every outgrown one went back");
    drop(map);
    assert_eq!(kinds(&scope).2, 0);
}

#[test]
fn big_vectors_inside_scoped_go_back_with_the_closure_or_at_the_reset_if_leaked() {
    let pool = BlockPool::with_block_size(1024);
    let mut scope = pool.scope();
    let sum = scope.scoped(|s| {
        let mut v: ApiVec<u64, _> = ApiVec::new_in(s);
        v.extend(0..3000_u64);
        v.iter().sum::<u64>()
    });
    assert_eq!(sum, (0..3000_u64).sum::<u64>());
    assert_eq!(kinds(&scope).2, 0, "the vector's buffer went back when it dropped");
    scope.scoped(|s| {
        let mut v: ApiVec<u64, _> = ApiVec::new_in(s);
        v.extend(0..3000_u64);
        core::mem::forget(v);
    });
    assert_eq!(kinds(&scope).2, 1, "a leaked vector's buffer stays until the reset");
    scope.reset();
    assert_eq!(kinds(&scope).2, 0);
}

/// A parser that keeps a `ScopeView` (as a bumpalo user keeps `&Bump`) builds its
/// collections in the scope through it: the view is an allocator too, with the same tip
/// growth, buffer blocks and give-backs as `&Scope`.
#[test]
fn a_scope_view_is_an_allocator_for_vectors_and_maps() {
    #[derive(Clone, Copy)]
    struct Parser<'s> {
        arena: arena_kit::scope::ScopeView<'s>,
    }
    impl<'s> Parser<'s> {
        fn words(self, text: &str) -> ApiVec<&'s str, arena_kit::scope::ScopeView<'s>> {
            let mut out = ApiVec::new_in(self.arena);
            for word in text.split_whitespace() {
                out.push(&*self.arena.alloc_str(word));
            }
            out
        }
    }

    let pool = BlockPool::with_block_size(1024);
    let scope = pool.scope();
    let parser = Parser { arena: scope.view() };
    let words = parser.words("let x = 1 ; let y = x");
    assert_eq!(words.len(), 9);
    let mut counts: hashbrown::HashMap<&str, u32, _, _> =
        hashbrown::HashMap::with_hasher_in(hashbrown::DefaultHashBuilder::default(), scope.view());
    for &w in &words {
        *counts.entry(w).or_default() += 1;
    }
    assert_eq!((counts["let"], counts["x"], counts["y"]), (2, 2, 1));

    // A big buffer through the view is a buffer block, given back when freed.
    let mut big: ApiVec<u8, _> = ApiVec::new_in(scope.view());
    big.resize(scaled(50_000), 7);
    assert_eq!(kinds(&scope).2, 1, "one buffer block");
    drop(big);
    assert_eq!(kinds(&scope).2, 0, "freed at once");

    // The view and `&Scope` are one allocator: the tip grows in place from either.
    let view = scope.view();
    let layout = Layout::from_size_align(16, 8).unwrap();
    let p = view.allocate(layout).unwrap().cast::<u8>();
    let bigger = Layout::from_size_align(64, 8).unwrap();
    // SAFETY: `p` is the newest allocation of `layout` from this scope.
    let q = unsafe { (&scope).grow(p, layout, bigger) }.unwrap();
    assert_eq!(q.cast::<u8>(), p, "grown in place at the tip");
    // SAFETY: `q` is a live allocation of `bigger` from the scope.
    unsafe { view.deallocate(q.cast(), bigger) };
}
