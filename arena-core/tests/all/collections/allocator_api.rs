//! Collections in a scope through `allocator_api2::Allocator`.

use allocator_api2::vec::Vec as ApiVec;
use arena_kit::BlockPool;

use crate::common::scaled;

#[test]
fn a_vector_at_the_tip_grows_in_place() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v: ApiVec<u64, _> = ApiVec::new_in(&scope);
    v.push(0);
    let first = v.as_ptr();
    for i in 1..500 {
        v.push(i);
    }
    assert_eq!(v.as_ptr(), first, "nothing else was allocated: every growth was in place");
    assert!(v.iter().copied().eq(0..500));
    assert!(scope.stats().allocated_bytes <= v.capacity() * 8 + 8, "no abandoned copies");
}

#[test]
fn a_vector_that_is_not_the_tip_grows_by_copying() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v: ApiVec<u32, _> = ApiVec::new_in(&scope);
    let mut others = std::vec::Vec::new();
    for i in 0..scaled(2000) as u32 {
        v.push(i);
        others.push(scope.alloc(i)); // something else lands after the vector
    }
    assert!(v.iter().copied().eq(0..scaled(2000) as u32));
    assert!(others.iter().enumerate().all(|(i, x)| **x as usize == i));
}

#[test]
fn freeing_or_shrinking_the_tip_gives_its_bytes_back() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    scope.alloc(1_u8);
    let before = scope.stats().allocated_bytes;
    let mut v: ApiVec<u64, _> = ApiVec::with_capacity_in(100, &scope);
    v.extend(0..10);
    v.shrink_to_fit();
    assert_eq!(scope.stats().allocated_bytes, before + 7 + 80, "7 bytes of alignment padding");
    drop(v);
    assert_eq!(scope.stats().allocated_bytes, before + 7);
}

#[test]
fn a_parent_collection_grows_without_touching_a_child_scope() {
    let pool = BlockPool::new();
    let parent = pool.scope();
    let mut v: ApiVec<u64, _> = ApiVec::new_in(&parent);
    let child = parent.scope();
    let mut child_values = std::vec::Vec::new();
    for i in 0..scaled(3000) as u64 {
        v.push(i);
        child_values.push(child.alloc(i ^ 0xFFFF));
    }
    assert!(v.iter().copied().eq(0..scaled(3000) as u64));
    assert!(child_values.iter().enumerate().all(|(i, x)| **x == i as u64 ^ 0xFFFF));
}

#[test]
fn a_hash_map_lives_in_a_scope() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut map = hashbrown::HashMap::new_in(&scope);
    for i in 0..scaled(1000) {
        map.insert(i, i.to_string());
    }
    assert_eq!(map.len(), scaled(1000));
    assert_eq!(map[&7], "7");
}
