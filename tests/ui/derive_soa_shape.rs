// `soa` needs named fields (at least one), accessor names must not clash with the pool's
// methods or each other, `row_derive` needs `soa`; `#[arena]` belongs on the struct.
use arena_kit::ArenaAlloc;

#[derive(ArenaAlloc)]
#[arena(soa)]
struct Pair(f32, f32);

#[derive(ArenaAlloc)]
#[arena(soa)]
struct Clash {
    len: usize,
    pos: f32,
    pos_mut: f32,
    iter: u8,
    new_in_storage: u8,
}

#[derive(ArenaAlloc)]
#[arena(soa)]
struct Empty {}

#[derive(ArenaAlloc)]
#[arena(row_derive(Debug))]
struct NotSoa {
    x: u8,
}

#[derive(ArenaAlloc)]
struct Tagged {
    #[arena(soa)]
    value: u32,
}

fn main() {
    // The fallback (plain layout) keeps these compiling.
    PairPool::with(|mut pool| drop(pool.insert(Pair(1.0, 2.0))));
    ClashPool::with(|pool| assert!(pool.is_empty()));
    TaggedPool::with(|pool| assert!(pool.is_empty()));
    EmptyPool::with(|pool| assert!(pool.is_empty()));
    NotSoaPool::with(|mut pool| drop(pool.insert(NotSoa { x: 1 })));
}
