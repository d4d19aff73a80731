//! The derive's expansion next to hostile names: its own locals, parameters, generics and
//! brand lifetime must never collide with the user's fields, type parameters, lifetimes,
//! or items in scope (primitive names shadowed by user types, unit structs and constants
//! named like the expansion's locals). Every struct here must compile, and its pool work.
#![forbid(unsafe_code)]
#![deny(warnings)]

/// User types that shadow primitives the expansion names.
mod shadowed_primitives {
    #![allow(non_camel_case_types, dead_code)]
    use arena_kit::ArenaAlloc;

    struct usize;
    struct bool;
    struct u32;
    struct str;

    #[derive(ArenaAlloc)]
    struct Plain {
        a: ::core::primitive::u8,
    }

    #[derive(ArenaAlloc)]
    #[arena(soa)]
    struct Soa {
        a: ::core::primitive::u8,
        b: ::core::primitive::u16,
    }

    pub(super) fn works() -> ::core::primitive::usize {
        PlainPool::with_capacity(4, |mut pool| {
            let h = pool.insert(Plain { a: 1 });
            ::core::primitive::usize::from(pool.remove(h).a)
        }) + SoaPool::with_capacity(4, |mut pool| {
            let h = pool.insert(Soa { a: 2, b: 3 });
            pool.reserve(1);
            let v = pool.remove(h);
            ::core::primitive::usize::from(v.a) + ::core::primitive::usize::from(v.b)
        })
    }
}

/// Fields named like the expansion's locals and parameters, and unit structs and
/// constants of those names in scope (a pattern naming them would not bind).
mod names_of_the_expansion {
    #![allow(non_camel_case_types, non_upper_case_globals, dead_code)]
    use arena_kit::ArenaAlloc;

    struct value;
    struct handle;
    const brand: u8 = 0;
    const capacity: u8 = 0;
    const additional: u8 = 0;
    const row: u8 = 0;
    const error: u8 = 0;
    const f: u8 = 0;

    #[derive(ArenaAlloc, Default)]
    #[arena(soa)]
    struct Named {
        handle: u32,
        value: u32,
        row: u32,
        brand: u32,
        capacity: u32,
        additional: u32,
        f: u32,
        make: u32,
        error: u32,
        index: u32,
    }

    #[derive(ArenaAlloc, Default)]
    struct PlainNamed {
        handle: u32,
        value: u32,
    }

    pub(super) fn works() -> u32 {
        NamedPool::with(|mut pool| {
            let h = pool.insert(Named { handle: 1, value: 2, row: 3, ..Named::default() });
            let k = pool.insert_keyed(Named { handle: 10, ..Named::default() });
            *pool.value_mut(&h) += 1;
            let got = pool.remove(h);
            got.handle + got.value + got.row + pool.remove_key(k).map_or(0, |n| n.handle)
        }) + PlainNamedPool::with(|mut pool| {
            let h = pool.insert(PlainNamed { handle: 4, value: 5 });
            let n = pool.remove(h);
            n.handle + n.value
        })
    }
}

/// Type parameters named like the expansion's own generics.
mod generic_names {
    use arena_kit::{ArenaAlloc, arena_new};

    #[derive(ArenaAlloc)]
    struct Plain<ArenaOut, ArenaMake, __ArenaOut> {
        out: ArenaOut,
        make: ArenaMake,
        reserved: __ArenaOut,
    }

    #[derive(ArenaAlloc, Default)]
    #[arena(soa)]
    struct Soa<ArenaOut: Default, ArenaMake: Default> {
        out: ArenaOut,
        make: ArenaMake,
    }

    pub(super) fn works() -> u64 {
        PlainPool::with(|mut pool| {
            let h = pool.insert(Plain { out: 1_u64, make: 2_u64, reserved: 3_u64 });
            let v = pool.remove(h);
            v.out + v.make + v.reserved
        }) + SoaPool::with(|mut pool| {
            let h = arena_new!(pool, Soa::<u64, u64>);
            *pool.out_mut(&h) = 4;
            pool.remove(h).out
        })
    }
}

/// Lifetimes the fresh brand must avoid: higher-ranked ones in bounds, where-clauses and
/// field types, and every fallback name.
mod brand_names {
    use arena_kit::ArenaAlloc;

    #[derive(ArenaAlloc)]
    struct Bound<F: for<'id> Fn(&'id u8) -> u8> {
        f: F,
    }

    #[derive(ArenaAlloc)]
    struct Where<F>
    where
        F: for<'id> Fn(&'id u8) -> u8,
    {
        f: F,
    }

    #[derive(ArenaAlloc)]
    #[arena(soa)]
    struct FnField {
        callback: for<'id> fn(&'id u8) -> u8,
        other: for<'arena_id> fn(&'arena_id u8) -> u8,
    }

    #[derive(ArenaAlloc)]
    struct Fallbacks<'id, 'arena_id, 'arena_brand, 'arena_brand_> {
        a: &'id u8,
        b: &'arena_id u8,
        c: &'arena_brand u8,
        d: &'arena_brand_ u8,
    }

    /// A struct-of-arrays pool whose brand is named `'s` and which has a `'__arena_s`:
    /// the storage borrow of `new_in_storage` takes a third name.
    #[derive(ArenaAlloc)]
    #[arena(soa, brand = 's, capacity = 2)]
    struct Tree<'s, '__arena_s> {
        parent: Option<arena_kit::Key<'s>>,
        weight: &'__arena_s u8,
    }

    #[expect(clippy::trivially_copy_pass_by_ref, reason = "the fn types take a reference")]
    fn double(x: &u8) -> u8 {
        x * 2
    }

    pub(super) fn works() -> u8 {
        let byte = 3_u8;
        let bound = BoundPool::with(|mut pool| {
            let h = pool.insert(Bound { f: double });
            (pool.remove(h).f)(&byte)
        });
        let whered = WherePool::with(|mut pool| {
            let h = pool.insert(Where { f: double });
            (pool[&h].f)(&byte) + (pool.remove(h).f)(&byte) - 6 + 1
        });
        let fields = FnFieldPool::with(|mut pool| {
            let h = pool.insert(FnField { callback: double, other: double });
            (pool.callback(&h))(&byte) + (pool.remove(h).other)(&byte)
        });
        let refs = FallbacksPool::with(|mut pool| {
            let h = pool.insert(Fallbacks { a: &byte, b: &byte, c: &byte, d: &byte });
            let v = pool.remove(h);
            *v.a + *v.b + *v.c + *v.d
        });
        let tree = arena_kit::Brand::with(|brand| {
            let mut storage = TreeStorage::new();
            let mut pool = TreePool::new_in_storage(&mut storage, brand);
            let root = pool.insert_keyed(Tree { parent: None, weight: &byte });
            let leaf = pool.insert_keyed(Tree { parent: Some(root), weight: &byte });
            let up = pool.parent_by_key(leaf).copied().flatten();
            up.and_then(|k| pool.weight_by_key(k)).map_or(0, |w| **w)
        });
        bound + whered + fields + refs + tree
    }
}

/// Constants named like every local, parameter and pattern binding of the expansion, in
/// scope of a derived struct of each layout: each `let` or parameter naming one would
/// become a constant pattern (E0308, E0005), whatever the local's span (mixed-site
/// hygiene hides locals, not items). The expansion's impls sit in a block with a `fn` of
/// each local's name, which shadows these and lets the bindings bind.
mod constants_named_like_the_locals {
    #![allow(non_upper_case_globals, dead_code)]
    use arena_kit::{ArenaAlloc, arena_new, try_arena_new};

    const __arena_value: u8 = 0;
    const __arena_storage: u8 = 0;
    const __arena_columns: u8 = 0;
    const __arena_column: u8 = 0;
    const __arena_capacity: u8 = 0;
    const __arena_additional: u8 = 0;
    const __arena_brand: u8 = 0;
    const __arena_make: u8 = 0;
    const __arena_f: u8 = 0;
    const __arena_formatter: u8 = 0;
    const __arena_row: u8 = 0;
    const __arena_handle: u8 = 0;
    const __arena_key: u8 = 0;
    const __arena_field_0: u8 = 0;
    const __arena_field_1: u8 = 0;
    const __arena_field_2: u8 = 0;
    const __arena_head_0: u8 = 0;
    const __arena_head_1: u8 = 0;
    const __arena_head_2: u8 = 0;

    #[derive(ArenaAlloc, Debug, Default)]
    struct Plain {
        a: u32,
        b: u32,
    }

    #[derive(ArenaAlloc, Debug, Default)]
    struct Tuple(u32, u32);

    #[derive(ArenaAlloc, Debug, Default)]
    #[arena(soa)]
    struct Soa {
        x: u32,
        y: u32,
        z: u32,
    }

    fn plain() -> u32 {
        PlainPool::with_capacity(2, |mut pool| {
            pool.reserve(8);
            let h = pool.insert(Plain { a: 1, b: 2 });
            let made = arena_new!(&mut pool, Plain { a: 3, b: 4 });
            let tried = try_arena_new!(&mut pool, Plain { a: 5, b: 6 }).expect("room");
            assert!(format!("{pool:?}").contains("Pool"), "{pool:?}");
            let sum = pool[&h].a + pool.get(&made).b;
            sum + pool.remove(h).b + pool.remove(made).a + pool.remove(tried).b
        }) + PlainPool::with(|mut pool| {
            let h = arena_new!(&mut pool, Plain);
            pool.remove(h).a
        })
    }

    fn tuple() -> u32 {
        TuplePool::with_capacity(1, |mut pool| {
            pool.reserve(1);
            let h = pool.insert(Tuple(7, 8));
            let made = arena_new!(&mut pool, Tuple);
            let tried = try_arena_new!(&mut pool, Tuple(9, 10)).expect("room");
            assert!(!format!("{pool:?}").is_empty());
            let Tuple(a, b) = pool.remove(h);
            a + b + pool.remove(made).0 + pool.remove(tried).1
        })
    }

    fn soa() -> u32 {
        SoaPool::with_capacity(2, |mut pool| {
            pool.reserve(4);
            let h = pool.insert(Soa { x: 1, y: 2, z: 3 });
            let k = pool.insert_keyed(Soa { x: 10, y: 20, z: 30 });
            let made = arena_new!(&mut pool, Soa);
            let tried = try_arena_new!(&mut pool, Soa { x: 100, y: 0, z: 0 }).expect("room");
            *pool.x_mut(&h) += 1;
            *pool.y_by_key_mut(k).expect("live") += 1;
            pool.z_column_mut()[0] += 1;
            let columns = pool.columns();
            assert_eq!(columns.x, [2, 10, 0, 100]);
            let cols = pool.columns_mut();
            cols.y[2] = 5;
            for row in &mut pool {
                *row.1.z += 1;
            }
            if let Some(row) = pool.iter_mut().next_back() {
                *row.1.x += 1;
            }
            assert!(format!("{pool:?}").contains("Pool"), "{pool:?}");
            let read = *pool.x(&h) + pool.y_by_key(k).copied().unwrap_or(0) + pool.z_column()[0];
            let row = pool.get(&made);
            let read = read + *row.y;
            pool.shrink_to_fit();
            let gone = pool.remove(h);
            let last = pool.remove(tried);
            let rest: u32 = pool.into_inner().drain().map(|v| v.x + v.y + v.z).sum();
            read + gone.x + gone.y + gone.z + last.x + last.y + last.z + rest
        })
    }

    /// The item itself may use the constants (and a generic parameter may take a
    /// local's name): the locals then take other names, and nothing the item names is
    /// shadowed inside the expansion.
    #[derive(ArenaAlloc)]
    struct Uses<const __arena_value: usize, const __arena_field_0: usize> {
        bytes: [u8; __arena_value],
        more: [u8; __arena_field_0],
        sized: [u8; __arena_capacity as usize],
    }

    #[derive(ArenaAlloc)]
    #[arena(soa)]
    struct SoaUses<const __arena_value: usize, const __arena_field_0: usize> {
        bytes: [u8; __arena_value],
        more: [u8; __arena_field_0],
        sized: [u8; __arena_capacity as usize],
    }

    fn uses() -> usize {
        let plain = UsesPool::with_capacity(1, |mut pool| {
            let h = pool.insert(Uses::<2, 3> { bytes: [1; 2], more: [2; 3], sized: [] });
            let v = pool.remove(h);
            v.bytes.len() + v.more.len() + v.sized.len()
        });
        let soa = SoaUsesPool::with_capacity(1, |mut pool| {
            let h = pool.insert(SoaUses::<4, 5> { bytes: [1; 4], more: [2; 5], sized: [] });
            let got = pool.bytes(&h).len() + pool.more_column()[0].len();
            let v = pool.remove(h);
            got + v.bytes.len() + v.more.len() + v.sized.len()
        });
        plain + soa
    }

    /// A fixed capacity named by a constant called like a local of `with_fixed`: it is
    /// read in the storage alias, at the item's place, where no shield stands.
    const __arena_inner: usize = 2;

    #[derive(ArenaAlloc, Debug)]
    #[arena(capacity = __arena_inner)]
    struct Fixed {
        a: u32,
    }

    /// The same for a struct-of-arrays pool, whose fields are named like the locals of
    /// its expansion and of the columns' (`storage`, `arrays`).
    #[derive(ArenaAlloc, Debug)]
    #[arena(soa, capacity = __arena_inner)]
    struct SoaFixed {
        storage: u32,
        arrays: u8,
    }

    fn soa_fixed() -> u32 {
        let mut storage = SoaFixedStorage::new();
        let a = SoaFixedPool::with_fixed(|mut pool| {
            let h = pool.insert(SoaFixed { storage: 30, arrays: 1 });
            let made = arena_new!(&mut pool, SoaFixed { storage: 40, arrays: 2 });
            assert!(try_arena_new!(&mut pool, SoaFixed { storage: 0, arrays: 0 }).is_err());
            *pool.storage(&h) + u32::from(pool.arrays_column()[1]) + pool.remove(made).storage
        });
        let b = SoaFixedPool::with_storage(&mut storage, |pool| pool.stats().capacity);
        a + u32::try_from(b).unwrap_or(0)
    }

    fn fixed() -> u32 {
        let mut storage = FixedStorage::new();
        FixedPool::with_fixed(|mut pool| {
            let h = pool.insert(Fixed { a: 30 });
            let made = arena_new!(&mut pool, Fixed { a: 40 });
            assert!(try_arena_new!(&mut pool, Fixed { a: 0 }).is_err(), "two slots");
            pool.remove(h).a + pool.remove(made).a
        }) + FixedPool::with_storage(&mut storage, |mut pool| {
            let h = pool.insert(Fixed { a: 5 });
            pool.remove(h).a
        })
    }

    pub(super) fn works() -> u32 {
        let uses = u32::try_from(uses()).expect("small");
        plain() + tuple() + soa() + uses + fixed() + soa_fixed()
    }
}

#[test]
fn hostile_names_around_the_derive_compile_and_work() {
    assert_eq!(shadowed_primitives::works(), 6);
    assert_eq!(names_of_the_expansion::works(), 1 + 3 + 3 + 10 + 9);
    assert_eq!(generic_names::works(), 10);
    assert_eq!(brand_names::works(), 6 + 7 + 12 + 12 + 3);
    assert_eq!(
        constants_named_like_the_locals::works(),
        16 + 25 + 212 + (2 + 3) + (4 + 5) * 2 + 30 + 40 + 5 + (30 + 2 + 40 + 2)
    );
}
