//! The derive's expansion under the strictest settings a user might have: no `unsafe`,
//! every warning (rustc and clippy pedantic) an error, no implicit prelude, and the
//! prelude's names shadowed by the user's own items. `cargo clippy --all-targets` and
//! `cargo test` (with `-D warnings` in CI) both compile this file.

#![forbid(unsafe_code)]
#![deny(warnings, missing_docs, clippy::all, clippy::pedantic)]
#![no_implicit_prelude]

extern crate arena_kit;
extern crate std;

use arena_kit::{ArenaAlloc, BlockPool, arena_new, try_arena_new};

/// Shadows `core::option::Option`.
#[derive(Debug)]
pub struct Option;
/// Shadows `Some`.
#[derive(Debug)]
pub struct Some;
/// Shadows `Result`.
#[derive(Debug)]
pub struct Result;
/// Shadows `Ok`.
#[derive(Debug)]
pub struct Ok;
/// Shadows `Vec`.
#[derive(Debug)]
pub struct Vec;
/// Shadows `Drop`.
pub trait Drop {}
/// Shadows `Default`.
pub trait Default {}
/// Shadows `FnOnce`.
pub trait FnOnce {}
/// Shadows `Box`.
#[derive(Debug)]
pub struct Box;

/// A plain-layout struct, with a lifetime and a type parameter.
#[derive(ArenaAlloc, Debug)]
pub struct Plain<'a, T: ::std::fmt::Debug> {
    /// Borrowed.
    pub name: &'a str,
    /// Owned.
    pub value: T,
}

/// A struct-of-arrays struct, whose nodes link to each other by key.
#[derive(ArenaAlloc, Debug, ::std::default::Default)]
#[arena(soa, brand = 'id, capacity = 2)]
pub struct Linked<'id> {
    /// Payload.
    pub weight: f64,
    /// Next node.
    pub next: ::std::option::Option<LinkedKey<'id>>,
}

/// A plain-layout struct whose nodes link to each other by key, with a capacity: the
/// storage alias names the brand.
#[derive(ArenaAlloc, Debug)]
#[arena(brand = 'id, capacity = 2)]
pub struct Chained<'id> {
    /// Payload.
    pub weight: u8,
    /// Next node.
    pub next: ::std::option::Option<ChainedKey<'id>>,
}

/// A tuple struct and a unit struct.
#[derive(ArenaAlloc, Debug, ::std::default::Default, ::std::cmp::PartialEq)]
pub struct Pair(pub u8, pub u8);
/// A unit struct.
#[derive(ArenaAlloc, Debug, ::std::default::Default, ::std::cmp::PartialEq)]
pub struct Marker;

/// A fixed capacity, with a lifetime and a type parameter: the storage alias is public.
#[derive(ArenaAlloc, Debug)]
#[arena(capacity = 2)]
pub struct Fixed<'a, T: ::std::fmt::Debug> {
    /// Borrowed.
    pub name: &'a str,
    /// Owned.
    pub value: T,
}

/// A fixed-capacity struct-of-arrays struct, with a lifetime and a type parameter.
#[derive(ArenaAlloc, Debug)]
#[arena(soa, capacity = 3)]
pub struct Columns<'a, T: ::std::fmt::Debug> {
    /// Borrowed.
    pub name: &'a str,
    /// Owned.
    pub value: T,
}

#[test]
fn the_strict_expansion_works() {
    let text = "n";
    let len = PlainPool::with(|mut pool| {
        let plain = arena_new!(pool, Plain { name: text, value: 1_u8 });
        pool.remove(plain).name.len()
    });
    ::std::assert_eq!(len, 1);
    let len = FixedPool::with_fixed(|mut pool| {
        let fixed = arena_new!(pool, Fixed { name: text, value: 'c' });
        pool.remove(fixed).name.len()
    });
    let storage: FixedStorage<'_, u8> = FixedStorage::new();
    ::std::assert_eq!(len, storage.capacity() - 1);

    let len = ColumnsPool::with_fixed(|mut pool| {
        let made = arena_new!(pool, Columns { name: text, value: 2_u16 });
        let key = pool.insert_keyed(Columns { name: "xy", value: 3 });
        let sum: u16 = ::std::iter::Iterator::sum(pool.value_column().iter());
        ::std::assert_eq!(sum, 5);
        pool.remove(made).name.len() + pool.name_by_key(key).map_or(0, |n| n.len())
    });
    let mut storage: ColumnsStorage<'_, u16> = ColumnsStorage::new();
    let n = ColumnsPool::with_storage(&mut storage, |pool| pool.stats().capacity);
    ::std::assert_eq!((len, n), (3, 3));

    let total = LinkedPool::with(|mut pool| {
        let first = pool.insert_keyed(Linked { weight: 1.5, next: ::std::option::Option::None });
        let second =
            try_arena_new!(pool, Linked { weight: 2.5, next: ::std::option::Option::Some(first) });
        let owned = second.unwrap_or_else(|_| ::std::panic!("room for two"));
        let third = arena_new!(pool, Linked);
        let sum: f64 = ::std::iter::Iterator::sum(pool.weight_column().iter());
        ::std::mem::drop((owned, third));
        sum
    });
    ::std::assert!((total - 4.0).abs() < f64::EPSILON);

    let total = arena_kit::Brand::with(|brand| {
        let mut storage: LinkedStorage<'_> = LinkedStorage::new();
        let mut pool = LinkedPool::new_in_storage(&mut storage, brand);
        let first = pool.insert_keyed(Linked { weight: 0.5, next: ::std::option::Option::None });
        let next = ::std::option::Option::Some(first);
        let owned = arena_new!(pool, Linked { weight: 1.0, next });
        ::std::assert!(try_arena_new!(pool, Linked).is_err(), "two rows");
        let sum: f64 = ::std::iter::Iterator::sum(pool.weight_column().iter());
        ::std::mem::drop(owned);
        sum
    });
    ::std::assert!((total - 1.5).abs() < f64::EPSILON);
    let weight = arena_kit::Brand::with(|brand| {
        let mut storage: ChainedStorage<'_> = ChainedStorage::new();
        arena_kit::Pool::with_storage_in(&mut storage, brand, |pool| {
            let first = pool.insert_keyed(Chained { weight: 1, next: ::std::option::Option::None });
            let next = ::std::option::Option::Some(first);
            let second = pool.insert_keyed(Chained { weight: 2, next });
            pool.get_key(second)
                .and_then(|c| c.next)
                .and_then(|k| pool.get_key(k))
                .map(|c| c.weight)
        })
    });
    ::std::assert_eq!(weight, ::std::option::Option::Some(1));

    PairPool::with(|mut pool| {
        let pair = arena_new!(pool, Pair);
        ::std::assert_eq!(pool.remove(pair), Pair(0, 0));
    });
    let blocks = BlockPool::new();
    let scope = blocks.scope();
    ::std::assert_eq!(*arena_new!(scope, Marker), Marker);
    ::std::assert_eq!(arena_new!(scope, [Pair; 2]).len(), 2);
}
