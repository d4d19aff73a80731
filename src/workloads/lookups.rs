//! W9 (slotmap's use case): 100 000 live values, then `n` random reads through copyable
//! keys, through owning handles, and through a side table keyed by the same keys. Against
//! slotmap's `SlotMap` and `SecondaryMap`, slab, and a plain `Vec` indexed by position.
//!
//! Every contender builds its table first (100 000 inserts, a tenth of the reads' cost
//! or less) and then reads; the checksum sums the weights read, the same for everyone.

#![expect(
    clippy::cast_possible_truncation,
    reason = "positions are below LIVE, which fits every integer type used"
)]

use std::hint::black_box;

use arena_kit::{KeyPool, Pool, SecondaryMap};

use super::Contender;

/// Values in the table.
pub const LIVE: usize = 100_000;
/// Reads per run.
pub const N: usize = 1_000_000;

/// A value: 16 bytes, read whole.
#[derive(Debug, Clone, Copy)]
pub struct Value {
    id: u64,
    weight: u64,
}

impl Value {
    fn new(i: usize) -> Self {
        Value { id: i as u64, weight: (i as u64).wrapping_mul(0x9E37_79B9) >> 7 }
    }
}

/// A xorshift sequence of positions in `0..LIVE`, the same for every contender.
fn positions(n: usize) -> impl Iterator<Item = usize> {
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    (0..n).map(move |_| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % LIVE as u64) as usize
    })
}

/// Reads `n` values by position through `read`, summing their weights.
fn sum_reads(n: usize, mut read: impl FnMut(usize) -> u64) -> u64 {
    positions(n).map(|p| read(black_box(p))).sum()
}

/// Every W9 contender, arena-kit first, the hand-written limit last.
pub const CONTENDERS: &[Contender] = &[
    Contender { name: "arena-kit KeyPool::get", run: key_pool },
    Contender { name: "arena-kit Pool::get_key", run: pool_key },
    Contender { name: "arena-kit Pool::get (handle)", run: pool_handle },
    Contender { name: "arena-kit SecondaryMap::get", run: secondary },
    Contender { name: "slotmap SlotMap::get", run: slotmap },
    Contender { name: "slotmap SecondaryMap::get", run: slotmap_secondary },
    Contender { name: "slab Slab::get", run: slab },
    Contender { name: "limit: Vec index", run: limit_vec },
];

/// `KeyPool::get` through `TypedKey`s.
#[must_use]
pub fn key_pool(n: usize) -> u64 {
    let mut pool = KeyPool::with_capacity(LIVE);
    let keys: Vec<_> = (0..LIVE).map(|i| pool.insert(Value::new(i))).collect();
    sum_reads(n, |p| pool.get(keys[p]).map_or(0, |v| v.weight))
}

/// The branded `Pool::get_key` through `Key`s.
#[must_use]
pub fn pool_key(n: usize) -> u64 {
    Pool::with_capacity(LIVE, |mut pool| {
        let keys: Vec<_> = (0..LIVE).map(|i| pool.insert_keyed(Value::new(i))).collect();
        sum_reads(n, |p| pool.get_key(keys[p]).map_or(0, |v| v.weight))
    })
}

/// The branded `Pool::get` through owning handles: no check at all.
#[must_use]
pub fn pool_handle(n: usize) -> u64 {
    Pool::with_capacity(LIVE, |mut pool| {
        let handles: Vec<_> = (0..LIVE).map(|i| pool.insert(Value::new(i))).collect();
        let sum = sum_reads(n, |p| pool[&handles[p]].weight);
        black_box(handles.iter().map(|h| pool[h].id).max());
        sum
    })
}

/// `SecondaryMap::get`: a side table of weights keyed by a `KeyPool`'s keys.
#[must_use]
pub fn secondary(n: usize) -> u64 {
    let mut pool = KeyPool::with_capacity(LIVE);
    let mut weights = SecondaryMap::with_capacity(LIVE);
    let keys: Vec<_> = (0..LIVE)
        .map(|i| {
            let k = pool.insert(i as u64);
            weights.insert(k, Value::new(i).weight);
            k
        })
        .collect();
    sum_reads(n, |p| weights.get(keys[p]).copied().unwrap_or(0))
}

/// `slotmap::SlotMap::get`.
#[must_use]
pub fn slotmap(n: usize) -> u64 {
    let mut map = slotmap::SlotMap::with_capacity(LIVE);
    let keys: Vec<_> = (0..LIVE).map(|i| map.insert(Value::new(i))).collect();
    sum_reads(n, |p| map.get(keys[p]).map_or(0, |v| v.weight))
}

/// `slotmap::SecondaryMap::get`, keyed by a `SlotMap`'s keys.
#[must_use]
pub fn slotmap_secondary(n: usize) -> u64 {
    let mut map = slotmap::SlotMap::with_capacity(LIVE);
    let mut weights = slotmap::SecondaryMap::with_capacity(LIVE);
    let keys: Vec<_> = (0..LIVE)
        .map(|i| {
            let k = map.insert(i as u64);
            weights.insert(k, Value::new(i).weight);
            k
        })
        .collect();
    sum_reads(n, |p| weights.get(keys[p]).copied().unwrap_or(0))
}

/// `slab::Slab::get` through its `usize` keys (unchecked: a reused key reads the new
/// value).
#[must_use]
pub fn slab(n: usize) -> u64 {
    let mut slab = slab::Slab::with_capacity(LIVE);
    let keys: Vec<_> = (0..LIVE).map(|i| slab.insert(Value::new(i))).collect();
    sum_reads(n, |p| slab.get(keys[p]).map_or(0, |v| v.weight))
}

/// The limit: a `Vec` indexed by `u32` positions kept like keys, without a bounds check
/// (the positions are below the length by construction, what a handle proves by type).
#[must_use]
pub fn limit_vec(n: usize) -> u64 {
    let values: Vec<Value> = (0..LIVE).map(Value::new).collect();
    let indices: Vec<u32> = (0..LIVE as u32).collect();
    sum_reads(n, |p| {
        let index = indices[p] as usize;
        debug_assert!(index < values.len());
        // SAFETY: every index in `indices` is below `LIVE`, the length of `values`; both
        // are built just above and never change. (A handle proves the same by its type.)
        unsafe { values.get_unchecked(index) }.weight
    })
}
