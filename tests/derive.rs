//! `#[derive(ArenaAlloc)]` through arena-core's re-export, on the shapes it accepts.

#![forbid(unsafe_code)]

use std::fmt::Debug;

use arena_core::{ArenaAlloc, BlockPool, arena_new};

#[derive(ArenaAlloc, Default, Debug, PartialEq)]
struct Particle {
    pos: [f32; 3],
    mass: f32,
}

#[derive(ArenaAlloc)]
struct Wrapper<'a, T: Debug>(&'a T)
where
    T: Clone;

#[derive(ArenaAlloc)]
struct Unit;

fn is_arena_alloc<T: ArenaAlloc + ?Sized>() {}

#[test]
fn the_derive_accepts_named_tuple_unit_and_generic_structs() {
    is_arena_alloc::<Particle>();
    is_arena_alloc::<Wrapper<'static, String>>();
    is_arena_alloc::<Unit>();
    let text = String::from("w");
    let w = Wrapper(&text);
    assert_eq!(w.0, "w");
    let Unit = Unit;
}

#[test]
fn derived_types_allocate_with_arena_new() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let p = arena_new!(scope, Particle);
    assert_eq!(*p, Particle::default());
    let q = arena_new!(scope, Particle { pos: [1.0, 2.0, 3.0], mass: 4.0 });
    assert!((q.mass - 4.0).abs() < f32::EPSILON);
}
