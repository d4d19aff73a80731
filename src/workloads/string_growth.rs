//! W6 (seed 001, page-rounded string growth): append one byte `n` times (100 000 and
//! 1 000 000) to a growable string. The seed's libstdc++ grew its strings so that every
//! reallocation copied (22 s), until capacities were rounded to whole pages and the
//! allocator could extend in place (0.11 s). Here: arena-kit's `ArenaString` in a pool
//! scope and in an `Arena`, `allocator_api2::vec::Vec<u8, &Scope>` (plain doubling with
//! in-place tip growth), std `String`, bumpalo's and bump-scope's strings, and a
//! pre-reserved byte buffer as the limit. Besides time, [`MEMORY`] reports what each holds
//! once done: the capacity reached and the bytes its allocator holds for it.

use allocator_api2::vec::Vec as ApiVec;
use arena_kit::{Arena, ArenaString, BlockPool};

use super::{Contender, Held, Probe};

/// The seed's two sizes.
pub const N_SMALL: usize = 100_000;
/// The larger one.
pub const N_LARGE: usize = 1_000_000;

/// The byte pushed at position `i`.
#[inline]
#[expect(clippy::cast_possible_truncation, reason = "i % 26 fits in a byte")]
fn byte(i: usize) -> u8 {
    b'a' + (i % 26) as u8
}

/// The checksum of a built string: its length and three of its bytes.
fn digest(bytes: &[u8]) -> u64 {
    let at = |i: usize| bytes.get(i).map_or(0, |&b| u64::from(b));
    bytes.len() as u64 * 31 + at(0) + at(bytes.len() / 2) * 7 + at(bytes.len().wrapping_sub(1)) * 13
}

/// Every W6 contender, arena-kit first, the pre-reserved limit last.
pub const CONTENDERS: &[Contender] = &[
    Contender { name: "arena-kit ArenaString (pool scope)", run: |n| arena_string_scope(n).1 },
    Contender { name: "arena-kit ArenaString (Arena)", run: |n| arena_string_arena(n).1 },
    Contender { name: "arena-kit Scope + allocator-api2 Vec<u8>", run: |n| api_vec_scope(n).1 },
    Contender { name: "std String", run: |n| std_string(n).1 },
    Contender { name: "bumpalo String", run: |n| bumpalo_string(n).1 },
    Contender { name: "bump-scope BumpString", run: |n| bump_scope_string(n).1 },
    Contender { name: "limit: Vec<u8>::with_capacity", run: reserved_bytes },
];

/// What every contender holds after `n` pushes, same order (the limit aside).
pub const MEMORY: &[Probe] = &[
    Probe { name: "arena-kit ArenaString (pool scope)", held: |n| arena_string_scope(n).0 },
    Probe { name: "arena-kit ArenaString (Arena)", held: |n| arena_string_arena(n).0 },
    Probe { name: "arena-kit Scope + allocator-api2 Vec<u8>", held: |n| api_vec_scope(n).0 },
    Probe { name: "std String", held: |n| std_string(n).0 },
    Probe { name: "bumpalo String", held: |n| bumpalo_string(n).0 },
    Probe { name: "bump-scope BumpString", held: |n| bump_scope_string(n).0 },
];

/// Pushes the `n` bytes of W6 one at a time.
fn fill(n: usize, mut push: impl FnMut(u8)) {
    for i in 0..n {
        push(byte(i));
    }
}

/// `ArenaString` in a scope of a `BlockPool`: what it holds, and the checksum.
#[must_use]
pub fn arena_string_scope(n: usize) -> (Held, u64) {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut s = ArenaString::new_in(&scope);
    fill(n, |b| s.push(char::from(b)));
    (Held { capacity: s.capacity(), bytes: scope.stats().reserved_bytes }, digest(s.as_bytes()))
}

/// `ArenaString` in an `Arena` (blocks owned outright).
#[must_use]
pub fn arena_string_arena(n: usize) -> (Held, u64) {
    let arena = Arena::new();
    let mut s = ArenaString::new_in(&arena);
    fill(n, |b| s.push(char::from(b)));
    (Held { capacity: s.capacity(), bytes: arena.stats().reserved_bytes }, digest(s.as_bytes()))
}

/// `allocator_api2::vec::Vec<u8>` in a pool scope: doubling, in place only at the tip.
#[must_use]
pub fn api_vec_scope(n: usize) -> (Held, u64) {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut v: ApiVec<u8, _> = ApiVec::new_in(&scope);
    fill(n, |b| v.push(b));
    (Held { capacity: v.capacity(), bytes: scope.stats().reserved_bytes }, digest(&v))
}

/// `String` on the system allocator (`realloc` on every doubling). What malloc keeps
/// around it is not visible from here: the capacity stands for the bytes held.
#[must_use]
pub fn std_string(n: usize) -> (Held, u64) {
    let mut s = String::new();
    fill(n, |b| s.push(char::from(b)));
    (Held { capacity: s.capacity(), bytes: s.capacity() }, digest(s.as_bytes()))
}

/// bumpalo's `String` in a `Bump`.
#[must_use]
pub fn bumpalo_string(n: usize) -> (Held, u64) {
    let bump = bumpalo::Bump::new();
    let mut s = bumpalo::collections::String::new_in(&bump);
    fill(n, |b| s.push(char::from(b)));
    (Held { capacity: s.capacity(), bytes: bump.allocated_bytes() }, digest(s.as_bytes()))
}

/// bump-scope's `BumpString` in a `Bump`.
#[must_use]
pub fn bump_scope_string(n: usize) -> (Held, u64) {
    let bump: bump_scope::Bump = bump_scope::Bump::new();
    let mut s = bump_scope::BumpString::new_in(&bump);
    fill(n, |b| s.push(char::from(b)));
    (Held { capacity: s.capacity(), bytes: bump.stats().size() }, digest(s.as_bytes()))
}

/// The limit: one allocation of the final size up front, then the bytes stored in one
/// pass with no capacity test per byte (`extend` of an iterator of known length into
/// room already reserved). A `String` pushed a `char` at a time (the limit before) costs
/// 20 instructions a byte, more than a contender that pushes bytes (allocator-api2's
/// `Vec<u8>` in a scope, 16): `String::push` encodes a `char`, and every push tests the
/// capacity.
#[must_use]
pub fn reserved_bytes(n: usize) -> u64 {
    let mut v = Vec::with_capacity(n);
    v.extend((0..n).map(byte));
    digest(&v)
}
