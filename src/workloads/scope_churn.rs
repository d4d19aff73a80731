//! W1 (seed 000, comparison 1): `n` times, make an allocator, allocate one `i32`, read it,
//! destroy the allocator. The seed's figures: ScopeAlloc on a BlockPool 8.4 ms,
//! new/delete 18.2 ms, APR pools 24 ms, AutoFreeAlloc 28 ms for 60 000 rounds.

use std::hint::black_box;

use arena_core::{Arena, BlockPool};

use super::Contender;

/// Rounds per run in the seed.
pub const N: usize = 60_000;

/// Every W1 contender, arena-kit first, the hand-written limit last.
pub const CONTENDERS: &[Contender] = &[
    Contender { name: "arena-kit Scope on BlockPool", run: scope_on_pool },
    Contender { name: "arena-kit Scope::reset", run: scope_reset },
    Contender { name: "arena-kit Arena (fresh)", run: arena_fresh },
    Contender { name: "Box", run: boxed },
    Contender { name: "bumpalo Bump (fresh)", run: bumpalo_fresh },
    Contender { name: "bumpalo Bump::reset", run: bumpalo_reset },
    Contender { name: "typed-arena Arena (fresh)", run: typed_arena_fresh },
    Contender { name: "limit: reserved Vec, clear", run: limit_reserved_vec },
];

/// A new `Scope` per round, recycling one block through a `BlockPool`.
#[must_use]
pub fn scope_on_pool(n: usize) -> u64 {
    let pool = BlockPool::new();
    let mut sum = 0_u64;
    for i in super::values(n) {
        let scope = pool.scope();
        let x = scope.alloc(black_box(i));
        sum += u64::from(*black_box(x));
    }
    sum
}

/// One `Scope`, reset each round.
#[must_use]
pub fn scope_reset(n: usize) -> u64 {
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    let mut sum = 0_u64;
    for i in super::values(n) {
        let x = scope.alloc(black_box(i));
        sum += u64::from(*black_box(x));
        scope.reset();
    }
    sum
}

/// A new `Arena` per round: a `malloc` and a `free` each (the seed's AutoFreeAlloc).
#[must_use]
pub fn arena_fresh(n: usize) -> u64 {
    let mut sum = 0_u64;
    for i in super::values(n) {
        let arena = Arena::new();
        let x = arena.alloc(black_box(i));
        sum += u64::from(*black_box(x));
    }
    sum
}

/// `Box::new` and drop (the seed's new/delete).
#[must_use]
pub fn boxed(n: usize) -> u64 {
    let mut sum = 0_u64;
    for i in super::values(n) {
        let x = Box::new(black_box(i));
        sum += u64::from(*black_box(x));
    }
    sum
}

/// A new `bumpalo::Bump` per round.
#[must_use]
pub fn bumpalo_fresh(n: usize) -> u64 {
    let mut sum = 0_u64;
    for i in super::values(n) {
        let bump = bumpalo::Bump::new();
        let x = bump.alloc(black_box(i));
        sum += u64::from(*black_box(x));
    }
    sum
}

/// One `bumpalo::Bump`, reset each round.
#[must_use]
pub fn bumpalo_reset(n: usize) -> u64 {
    let mut bump = bumpalo::Bump::new();
    let mut sum = 0_u64;
    for i in super::values(n) {
        let x = bump.alloc(black_box(i));
        sum += u64::from(*black_box(x));
        bump.reset();
    }
    sum
}

/// A new `typed_arena::Arena` per round.
#[must_use]
pub fn typed_arena_fresh(n: usize) -> u64 {
    let mut sum = 0_u64;
    for i in super::values(n) {
        let arena = typed_arena::Arena::new();
        let x = arena.alloc(black_box(i));
        sum += u64::from(*black_box(x));
    }
    sum
}

/// The physical limit: one pre-reserved buffer, "allocation" a capacity check and a
/// write, "destruction" resetting the length.
#[must_use]
pub fn limit_reserved_vec(n: usize) -> u64 {
    let mut buffer: Vec<u32> = Vec::with_capacity(16);
    let mut sum = 0_u64;
    for i in super::values(n) {
        buffer.push(black_box(i));
        sum += u64::from(*black_box(&buffer[0]));
        buffer.clear();
    }
    sum
}
