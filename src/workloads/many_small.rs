//! W2 (seed 000, comparison 2): one allocator allocates `n` `i32`s, then is destroyed.
//! The seed's figures for 60 000: AutoFreeAlloc 0.16 ms, ScopeAlloc 0.43 ms, APR pools
//! 0.56 ms, new/delete 20 ms.

use std::hint::black_box;

use arena_kit::{Arena, BlockPool};

use super::{Contender, sum_allocs};

/// Allocations per run in the seed.
pub const N: usize = 60_000;

/// Every W2 contender, arena-kit first, the hand-written limit last.
pub const CONTENDERS: &[Contender] = &[
    Contender { name: "arena-kit Arena", run: arena },
    Contender { name: "arena-kit Scope on BlockPool", run: scope_on_pool },
    Contender { name: "arena-kit Scope on warm BlockPool", run: scope_on_warm_pool },
    Contender { name: "Box (all kept, then dropped)", run: boxed },
    Contender { name: "bumpalo Bump", run: bumpalo },
    Contender { name: "bump-scope Bump", run: bump_scope },
    Contender { name: "typed-arena Arena", run: typed_arena },
    Contender { name: "limit: reserved Vec", run: limit_reserved_vec },
];

/// One `Arena` for all `n` values.
#[must_use]
pub fn arena(n: usize) -> u64 {
    let arena = Arena::new();
    sum_allocs(n, |i| arena.alloc(i))
}

/// One `Scope` on a new `BlockPool` for all `n` values, as in the seed (its `BlockPool`
/// is declared inside each timed round): every block comes from the system.
#[must_use]
pub fn scope_on_pool(n: usize) -> u64 {
    let pool = BlockPool::new();
    let scope = pool.scope();
    sum_allocs(n, |i| scope.alloc(i))
}

thread_local! {
    static WARM_POOL: BlockPool = const { BlockPool::new() };
}

/// One `Scope` on a `BlockPool` that lives across rounds (one per thread), so after the
/// first round every block is recycled: the steady state of a server handling requests.
#[must_use]
pub fn scope_on_warm_pool(n: usize) -> u64 {
    WARM_POOL.with(|pool| {
        let scope = pool.scope();
        sum_allocs(n, |i| scope.alloc(i))
    })
}

/// `n` boxes kept alive together, then all dropped.
#[must_use]
pub fn boxed(n: usize) -> u64 {
    let mut boxes = Vec::with_capacity(n);
    let mut sum = 0_u64;
    for i in super::values(n) {
        let x = Box::new(black_box(i));
        sum += u64::from(**black_box(&x));
        boxes.push(x);
    }
    drop(black_box(boxes));
    sum
}

/// One `bumpalo::Bump` for all `n` values.
#[must_use]
pub fn bumpalo(n: usize) -> u64 {
    let bump = bumpalo::Bump::new();
    sum_allocs(n, |i| bump.alloc(i))
}

/// One `bump_scope::Bump` for all `n` values.
#[must_use]
pub fn bump_scope(n: usize) -> u64 {
    let bump: bump_scope::Bump = bump_scope::Bump::new();
    sum_allocs(n, |i| bump.alloc(i).into_mut())
}

/// One `typed_arena::Arena<u32>` for all `n` values.
#[must_use]
pub fn typed_arena(n: usize) -> u64 {
    let arena = typed_arena::Arena::new();
    sum_allocs(n, |i| arena.alloc(i))
}

/// The physical limit: one buffer reserved up front, handed out a slot at a time (a
/// pointer bump with no alignment to compute: the slots are `u32`s already), through the
/// same per-value read as every contender. Safe code: the slots are the buffer's spare
/// capacity, taken in order.
///
/// # Panics
///
/// Never: `sum_allocs` asks for exactly `n` slots, and `n` are reserved.
#[must_use]
pub fn limit_reserved_vec(n: usize) -> u64 {
    let mut buffer: Vec<u32> = Vec::with_capacity(n);
    let mut slots = buffer.spare_capacity_mut().iter_mut();
    let sum = sum_allocs(n, |i| slots.next().expect("n slots reserved").write(i));
    drop(black_box(buffer));
    sum
}
