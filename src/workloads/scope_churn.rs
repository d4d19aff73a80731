//! W1 (seed 000, comparison 1): `n` times, make an allocator, allocate one `i32`, read it,
//! destroy the allocator. The seed's figures: ScopeAlloc on a BlockPool 8.4 ms,
//! new/delete 18.2 ms, APR pools 24 ms, AutoFreeAlloc 28 ms for 60 000 rounds.

use std::hint::black_box;

use allocator_api2::boxed::Box as ApiBox;
use std::mem::MaybeUninit;
use std::sync::{Mutex, PoisonError};

use arena_kit::pool::PoolStorage;
use arena_kit::{Arena, BlockPool, BufferBlockPool, Pool};

use super::mi_alloc::MiAlloc;
use super::static_free_list::StaticFreeList;
use super::{Contender, sum_rounds};

/// Rounds per run in the seed.
pub const N: usize = 60_000;

/// Every W1 contender, arena-kit first, the hand-written limit last.
pub const CONTENDERS: &[Contender] = &[
    Contender { name: "arena-kit Scope on BlockPool", run: scope_on_pool },
    Contender { name: "arena-kit Scope on a buffer (no heap)", run: scope_on_buffer },
    Contender { name: "arena-kit Scope::scoped on a buffer (no heap)", run: scoped_on_buffer },
    Contender { name: "arena-kit Scope::reset", run: scope_reset },
    Contender { name: "arena-kit Scope::scoped", run: scope_scoped },
    Contender { name: "arena-kit Scope::scoped, 496-byte blocks", run: scope_scoped_small },
    Contender { name: "arena-kit Arena (fresh)", run: arena_fresh },
    Contender { name: "arena-kit Pool on PoolStorage (no heap)", run: pool_on_storage },
    Contender { name: "arena-kit AtomicPool (no heap)", run: super::static_pools::atomic_w1 },
    Contender { name: "Box", run: boxed },
    Contender { name: "mimalloc Box", run: mimalloc_boxed },
    Contender { name: "heapless box_pool (no heap)", run: super::static_pools::heapless_w1 },
    Contender { name: "bumpalo Bump (fresh)", run: bumpalo_fresh },
    Contender { name: "bumpalo Bump::reset", run: bumpalo_reset },
    Contender { name: "bump-scope Bump (fresh)", run: bump_scope_fresh },
    Contender { name: "bump-scope Bump::reset", run: bump_scope_reset },
    Contender { name: "bump-scope Bump::scoped", run: bump_scope_scoped },
    Contender { name: "typed-arena Arena (fresh)", run: typed_arena_fresh },
    Contender { name: "hand-written static free list (seed 003)", run: static_free_list },
    Contender { name: "limit: reserved Vec, clear", run: limit_reserved_vec },
];

/// A new `Scope` per round, recycling one block through a `BlockPool`.
#[must_use]
pub fn scope_on_pool(n: usize) -> u64 {
    let pool = BlockPool::new();
    sum_rounds(n, |i| *black_box(pool.scope().alloc(i)))
}

/// A new `Scope` per round over a 512-byte buffer on the stack (`BufferBlockPool`): the
/// same recycling with no allocator at all, as firmware would run it.
#[must_use]
pub fn scope_on_buffer(n: usize) -> u64 {
    let mut buffer = [MaybeUninit::uninit(); 512];
    let pool = BufferBlockPool::new(&mut buffer);
    sum_rounds(n, |i| *black_box(pool.scope().alloc(i)))
}

/// One `Scope` over a 512-byte buffer on the stack, a rewinding nested scope each round:
/// [`scope_scoped`] with no allocator.
#[must_use]
pub fn scoped_on_buffer(n: usize) -> u64 {
    let mut buffer = [MaybeUninit::uninit(); 512];
    let pool = BufferBlockPool::new(&mut buffer);
    let mut scope = pool.scope();
    sum_rounds(n, |i| scope.scoped(|s| *black_box(s.alloc(i))))
}

/// A `Pool` over a `PoolStorage` of eight slots on the stack: each round inserts one
/// value (an owning handle), reads it and removes it. A typed pool rather than an
/// allocator per round: the no-heap answer for one kind of short-lived value.
#[must_use]
pub fn pool_on_storage(n: usize) -> u64 {
    let mut storage = PoolStorage::<u32, 8>::new();
    Pool::with_storage(&mut storage, |mut pool| {
        sum_rounds(n, |i| {
            let handle = pool.insert(i);
            let x = *black_box(&pool[&handle]);
            pool.remove(handle);
            x
        })
    })
}

/// One `Scope`, reset each round.
#[must_use]
pub fn scope_reset(n: usize) -> u64 {
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    sum_rounds(n, |i| {
        let x = *black_box(scope.alloc(i));
        scope.reset();
        x
    })
}

/// One `Scope`, a rewinding nested scope each round (`Scope::scoped`, bump-scope's
/// `Bump::scoped`).
#[must_use]
pub fn scope_scoped(n: usize) -> u64 {
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    sum_rounds(n, |i| scope.scoped(|s| *black_box(s.alloc(i))))
}

/// [`scope_scoped`] on a pool of small blocks (`BlockPool::with_block_size(400)`: 496
/// bytes, 512 with malloc's header): the configuration for many small, idle scopes (a
/// scope per connection), whose peak is one small block instead of the default 8 KiB.
#[must_use]
pub fn scope_scoped_small(n: usize) -> u64 {
    let pool = BlockPool::with_block_size(400);
    let mut scope = pool.scope();
    sum_rounds(n, |i| scope.scoped(|s| *black_box(s.alloc(i))))
}

/// A new `Arena` per round: a `malloc` and a `free` each (the seed's AutoFreeAlloc).
#[must_use]
pub fn arena_fresh(n: usize) -> u64 {
    sum_rounds(n, |i| *black_box(Arena::new().alloc(i)))
}

/// `Box::new` and drop (the seed's new/delete).
#[must_use]
pub fn boxed(n: usize) -> u64 {
    sum_rounds(n, |i| *black_box(Box::new(i)))
}

/// `allocator_api2::boxed::Box::new_in(_, MiAlloc)` and drop: `Box` on mimalloc.
#[must_use]
pub fn mimalloc_boxed(n: usize) -> u64 {
    sum_rounds(n, |i| *black_box(ApiBox::new_in(i, MiAlloc)))
}

/// A new `bumpalo::Bump` per round.
#[must_use]
pub fn bumpalo_fresh(n: usize) -> u64 {
    sum_rounds(n, |i| *black_box(bumpalo::Bump::new().alloc(i)))
}

/// One `bumpalo::Bump`, reset each round.
#[must_use]
pub fn bumpalo_reset(n: usize) -> u64 {
    let mut bump = bumpalo::Bump::new();
    sum_rounds(n, |i| {
        let x = *black_box(bump.alloc(i));
        bump.reset();
        x
    })
}

/// A new `typed_arena::Arena` per round.
#[must_use]
pub fn typed_arena_fresh(n: usize) -> u64 {
    sum_rounds(n, |i| *black_box(typed_arena::Arena::new().alloc(i)))
}

/// The list of [`static_free_list`], locked only because tests may run contenders at once.
static FREE_LIST: Mutex<StaticFreeList<u32, 8>> = Mutex::new(StaticFreeList::new(0));

/// Seed 003's pool written by hand in a `static` (no heap): each round takes a place
/// from the free list, reads it and puts it back. No handles, no generations, nothing
/// run at the end: what the no-heap rows are read against.
///
/// # Panics
///
/// Never: one place is taken at a time, of eight.
#[must_use]
pub fn static_free_list(n: usize) -> u64 {
    let mut list = FREE_LIST.lock().unwrap_or_else(PoisonError::into_inner);
    list.thread();
    sum_rounds(n, |i| {
        let place = list.alloc(i).expect("a vacant place");
        let x = *black_box(&list[place]);
        list.free(place);
        x
    })
}

/// The physical limit: one pre-reserved buffer, "allocation" a capacity check and a
/// write, "destruction" resetting the length.
#[must_use]
pub fn limit_reserved_vec(n: usize) -> u64 {
    let mut buffer: Vec<u32> = Vec::with_capacity(16);
    sum_rounds(n, |i| {
        buffer.push(i);
        let x = *black_box(&buffer[0]);
        buffer.clear();
        x
    })
}

/// A new `bump_scope::Bump` per round.
#[must_use]
pub fn bump_scope_fresh(n: usize) -> u64 {
    sum_rounds(n, |i| {
        let bump: bump_scope::Bump = bump_scope::Bump::new();
        *black_box(bump.alloc(i))
    })
}

/// One `bump_scope::Bump`, reset each round.
#[must_use]
pub fn bump_scope_reset(n: usize) -> u64 {
    let mut bump: bump_scope::Bump = bump_scope::Bump::new();
    sum_rounds(n, |i| {
        let x = *black_box(bump.alloc(i));
        bump.reset();
        x
    })
}

/// One `bump_scope::Bump`, a new child scope per round (`Bump::scoped`): what is
/// allocated in the scope is released when it ends, as with arena-kit's scopes.
#[must_use]
pub fn bump_scope_scoped(n: usize) -> u64 {
    let mut bump: bump_scope::Bump = bump_scope::Bump::new();
    sum_rounds(n, |i| bump.scoped(|scope| *black_box(scope.alloc(i))))
}
