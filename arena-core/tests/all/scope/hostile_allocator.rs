//! Hostile programs against `&Scope`, `&Arena` and `&SizeClassPool` as `allocator_api2`
//! allocators, through `allocator_api2`'s `Vec` and `Box` and hashbrown's `HashMap` and
//! `HashSet`: vectors growing in turns and shrinking at and away from the tip, then growing
//! past later allocations; over-aligned and zero-sized elements; boxes dropped, leaked and
//! boxed slices; maps grown, shrunk, cloned and retained; size-class vectors crossing
//! classes and the large path; a size-class limit under `try_reserve`; an allocator vector
//! and an `ArenaVec` taking turns at the tip.

use std::cell::Cell;

use allocator_api2::boxed::Box as ApiBox;
use allocator_api2::vec::Vec as ApiVec;
use arena_kit::{Arena, ArenaVec, BlockPool, SizeClassPool};

use crate::common::{Counted, scaled};

#[test]
fn two_scope_vectors_growing_and_shrinking_in_turns_keep_their_contents() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut a = ApiVec::new_in(&scope);
    let mut b = ApiVec::new_in(&scope);
    for i in 0..scaled(5000) as u32 {
        a.push(i);
        b.push(!i);
        if i % 97 == 0 {
            a.shrink_to_fit();
        }
        if i % 131 == 0 {
            b.shrink_to(b.len() / 2 + 1);
        }
    }
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        assert_eq!((*x, *y), (i as u32, !(i as u32)));
    }
}

#[test]
fn a_scope_vector_shrunk_at_the_tip_then_grown_does_not_overwrite_later_allocations() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v: ApiVec<u64, _> = ApiVec::with_capacity_in(100, &scope);
    v.extend(0..10);
    v.shrink_to_fit(); // at the tip: gives bytes back
    let other = scope.alloc_slice_fill_copy(20, 0xEE_u64); // lands right after
    v.extend(10..200); // must move, not grow over `other`
    assert!(other.iter().all(|&x| x == 0xEE));
    assert!(v.iter().copied().eq(0..200));
    v.truncate(0);
    v.shrink_to_fit();
    v.push(1);
    assert!(other.iter().all(|&x| x == 0xEE));
}

#[test]
fn a_scope_vector_shrunk_away_from_the_tip_then_grown_keeps_its_prefix() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v: ApiVec<u8, _> = ApiVec::new_in(&scope);
    v.extend(0..=255_u8);
    let after = scope.alloc_slice_fill_copy(16, 1_u8);
    v.truncate(10);
    v.shrink_to_fit(); // not the tip: keeps the bytes where they are
    v.extend(10..=200_u8);
    assert!(v.iter().copied().eq(0..=200_u8));
    assert_eq!(after, [1; 16]);
}

#[test]
fn over_aligned_elements_stay_aligned_in_scope_and_size_class_vectors() {
    #[repr(align(64))]
    #[derive(Clone, Copy, PartialEq, Debug)]
    struct Line([u8; 64]);
    let pool = BlockPool::new();
    let scope = pool.scope();
    let sc = SizeClassPool::new();
    let mut a = ApiVec::new_in(&scope);
    let mut b = ApiVec::new_in(&sc);
    for i in 0..scaled(300) {
        a.push(Line([i as u8; 64]));
        b.push(Line([i as u8; 64]));
        scope.alloc(1_u8);
    }
    assert_eq!(a.as_ptr() as usize % 64, 0);
    assert_eq!(b.as_ptr() as usize % 64, 0);
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        assert_eq!((x.0[63], y.0[0]), (i as u8, i as u8));
    }
    b.shrink_to_fit();
    drop(b);
    assert_eq!(sc.stats().large_live, 0);
    assert_eq!(sc.stats().live_chunks, 0);
}

#[test]
fn boxes_in_a_scope_drop_their_value_once_and_a_leaked_box_never() {
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    {
        let scope = pool.scope();
        let b = ApiBox::new_in(Counted::new(1, &drops), &scope);
        let c = ApiBox::new_in(Counted::new(2, &drops), &scope);
        drop(b);
        assert_eq!(drops.get(), 1);
        // Leaked: never dropped. Its memory is the scope's, and its counter is borrowed,
        // so the leak holds no heap memory of its own.
        let leaked = ApiBox::leak(c);
        assert_eq!(leaked.id, 2);
        let mut v = ApiVec::new_in(&scope);
        v.extend((0..5).map(|i| Counted::new(10 + i, &drops)));
        let bs = v.into_boxed_slice();
        assert_eq!(bs.len(), 5);
    }
    assert_eq!(drops.get(), 6);
}

#[test]
fn boxes_in_a_size_class_pool_give_every_chunk_back() {
    let drops = Cell::new(0);
    let sc = SizeClassPool::new();
    {
        let mut v = ApiVec::new_in(&sc);
        v.extend((0..scaled(100)).map(|i| Counted::new(i, &drops)));
        v.truncate(3);
        let b = v.into_boxed_slice(); // shrinks into a smaller class
        assert_eq!(b.len(), 3);
        let big = ApiBox::new_in([7_u8; 5000], &sc);
        assert_eq!(big[4999], 7);
        let zst = ApiBox::new_in((), &sc);
        drop(zst);
    }
    assert_eq!(drops.get(), scaled(100));
    let s = sc.stats();
    assert_eq!((s.live_chunks, s.large_live), (0, 0));
}

#[test]
fn hashbrown_maps_in_a_scope_survive_growth_removal_shrinking_and_clone() {
    let n = if cfg!(miri) { 100 } else { 2000 };
    let drops = Cell::new(0);
    let pool = BlockPool::new();
    let scope = pool.scope();
    {
        let mut m = hashbrown::HashMap::new_in(&scope);
        for i in 0..n {
            m.insert(i, Counted::new(i, &drops));
            if i % 7 == 0 {
                scope.alloc_str("interleaved");
            }
        }
        for i in (0..n).step_by(2) {
            assert_eq!(m.remove(&i).unwrap().id, i);
        }
        m.shrink_to_fit();
        let c = m.clone();
        for i in (1..n).step_by(2) {
            assert_eq!(m[&i].id, i);
            assert_eq!(c[&i].id, i);
        }
        let mut s = hashbrown::HashSet::new_in(&scope);
        s.extend(0..100_u64);
        s.retain(|x| x % 3 == 0);
        assert_eq!(s.len(), 34);
    }
    assert_eq!(drops.get(), n + n / 2);
}

#[test]
fn hashbrown_maps_in_a_size_class_pool_give_every_chunk_back() {
    let n = if cfg!(miri) { 64 } else { 3000 };
    let drops = Cell::new(0);
    let sc = SizeClassPool::new();
    {
        let mut m = hashbrown::HashMap::new_in(&sc);
        for i in 0..n {
            m.insert(format!("k{i}"), Counted::new(i, &drops));
        }
        for i in 0..n - 3 {
            m.remove(&format!("k{i}"));
        }
        m.shrink_to_fit();
        assert_eq!(m.len(), 3);
        let c = m.clone();
        assert_eq!(c.len(), 3);
    }
    assert_eq!(drops.get(), n + 3);
    let s = sc.stats();
    assert_eq!((s.live_chunks, s.large_live), (0, 0));
    sc.trim();
    assert_eq!(sc.stats().held_bytes, 0);
}

#[test]
fn size_class_vectors_crossing_classes_and_the_large_path_keep_their_bytes() {
    // Past 1024 bytes: the large path.
    let (rounds, len) = if cfg!(miri) { (4, 1100) } else { (20, 3000) };
    let sc = SizeClassPool::new();
    sc.set_high_water(0); // classes give their blocks back as soon as they empty
    let mut keep = Vec::new();
    for round in 0..rounds {
        let mut v: ApiVec<u8, _> = ApiVec::new_in(&sc);
        for i in 0..len {
            v.push((i + round) as u8);
        }
        for (i, b) in v.iter().enumerate() {
            assert_eq!(*b, (i + round) as u8);
        }
        v.truncate(100);
        v.shrink_to_fit();
        v.truncate(5);
        v.shrink_to_fit();
        assert_eq!(v.as_slice(), [0, 1, 2, 3, 4].map(|x: usize| (x + round) as u8));
        if round % 2 == 0 {
            keep.push(v);
        }
    }
    drop(keep);
    let s = sc.stats();
    assert_eq!((s.live_chunks, s.large_live), (0, 0));
    assert_eq!(s.held_bytes, 0);
}

#[test]
fn a_size_class_pool_limit_makes_try_reserve_fail_and_leaves_the_vector_unchanged() {
    let sc = SizeClassPool::new();
    let mut v: ApiVec<u64, _> = ApiVec::new_in(&sc);
    v.push(1);
    sc.set_limit(Some(0));
    // The first block is held already; ask for a class whose block would be new.
    assert!(v.try_reserve(100).is_err());
    assert_eq!(v.as_slice(), [1]);
    assert!(v.try_reserve(usize::MAX / 4).is_err());
    sc.set_limit(None);
    v.extend(2..10);
    assert!(v.iter().copied().eq(1..10));
}

#[test]
fn zero_sized_elements_allocate_nothing_in_either_allocator() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let sc = SizeClassPool::new();
    let mut a = ApiVec::new_in(&scope);
    let mut b = ApiVec::new_in(&sc);
    for _ in 0..1000 {
        a.push(());
        b.push(());
    }
    a.shrink_to_fit();
    b.shrink_to_fit();
    assert_eq!((a.len(), b.len()), (1000, 1000));
    assert_eq!(scope.stats().allocated_bytes, 0);
    assert_eq!(sc.stats().live_chunks, 0);
}

#[test]
fn an_arena_vector_grows_past_a_child_scope_without_touching_its_values() {
    let n = if cfg!(miri) { 800 } else { 5000 };
    let arena = Arena::new();
    let mut v = ApiVec::new_in(&*arena);
    v.extend(0..100_u32);
    let child = arena.scope();
    let c = child.alloc_slice_fill_copy(100, 9_u32);
    v.extend(100..n);
    assert!(c.iter().all(|&x| x == 9));
    assert!(v.iter().copied().eq(0..n));
}

#[test]
fn an_allocator_vector_and_an_arena_vector_may_take_turns_at_the_tip() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut a: ApiVec<u16, _> = ApiVec::new_in(&scope);
    let mut b: ArenaVec<'_, u16> = ArenaVec::new_in(&scope);
    for i in 0..scaled(6000) as u16 {
        a.push(i);
        b.push(i.wrapping_mul(3));
        if i % 50 == 0 {
            a.shrink_to_fit();
        }
    }
    for i in 0..a.len() {
        assert_eq!((a[i], b[i]), (i as u16, (i as u16).wrapping_mul(3)));
    }
    drop(a);
    b.push(1);
    let tail = scope.alloc_slice_fill_copy(4, 4_u16);
    assert_eq!(tail, [4; 4]);
}
