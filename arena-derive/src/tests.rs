//! "Should expand to" tests: the whole expansion for one small struct, plain and
//! struct-of-arrays, compared with the files in `snapshots/` (pretty-printed).
//! `UPDATE_SNAPSHOTS=1 cargo test -p arena-kit-derive` rewrites them; review the diff.

use std::path::PathBuf;

fn expand(source: &str) -> String {
    let input: syn::DeriveInput = syn::parse_str(source).expect("test input parses");
    let tokens = crate::expand::derive(&input);
    let file: syn::File = syn::parse2(tokens).expect("the expansion is valid Rust");
    prettyplease::unparse(&file)
}

fn check(name: &str, source: &str) {
    let actual = expand(source);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("snapshots").join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &actual).expect("snapshot written");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_SNAPSHOTS=1 writes it)", path.display()));
    assert!(
        expected == actual,
        "the expansion changed; UPDATE_SNAPSHOTS=1 rewrites {}\n--- expected\n{expected}\n--- actual\n{actual}",
        path.display()
    );
}

#[test]
fn plain_struct_expands_to_a_pool_newtype() {
    check("point.rs", "pub struct Point { pub x: f32, y: f32 }");
}

#[test]
fn soa_struct_expands_to_columns() {
    check("point_soa.rs", "#[arena(soa)] pub struct Point { pub x: f32, y: f32 }");
}

#[test]
fn errors_come_first_and_the_plan_still_expands() {
    let out = expand("#[arena(nope)] enum E { A }");
    let first = out.find("compile_error!").expect("errors are emitted");
    let pool = out.find("pub struct EPool").map_or(out.find("struct EPool"), Some);
    assert!(pool.is_some_and(|p| p > first), "the fallback pool follows the errors:\n{out}");
    assert_eq!(out.matches("compile_error!").count(), 2, "both errors at once:\n{out}");
}

#[test]
fn fresh_brand_avoids_the_structs_own_lifetimes() {
    let out = expand("struct S<'id, 'arena_id> { a: &'id u8, b: &'arena_id u8 }");
    assert!(out.contains("SPool<'__arena_id, 'id, 'arena_id>"), "{out}");
}

#[test]
fn fresh_brand_avoids_lifetimes_bound_anywhere_in_the_item() {
    let out = expand(
        "struct S<F> where F: for<'id> Fn(&'id u8) { f: F, g: for<'__arena_id> fn(&'__arena_id u8) }",
    );
    assert!(out.contains("SPool<'__arena_id1, F>"), "{out}");
}

#[test]
fn generated_generics_avoid_the_structs_parameters() {
    let out = expand("struct S<__ArenaOut, __ArenaMake> { a: __ArenaOut, b: __ArenaMake }");
    let tight: String = out.split_whitespace().collect();
    assert!(tight.contains("fnwith<__ArenaOut1>"), "{out}");
    assert!(tight.contains("arena_new_with<__ArenaMake1:"), "{out}");
}

#[test]
fn locals_avoid_the_items_names_and_each_has_a_shield() {
    let out = expand(
        "#[arena(soa)] struct S<const __arena_value: usize> { \
         a: [u8; __arena_value], b: [u8; __arena_field_1] }",
    );
    let tight: String = out.split_whitespace().collect();
    // The locals the item mentions take the next free name, with their shields ...
    for local in ["__arena_value_", "__arena_field_1_"] {
        assert!(tight.contains(&format!("fn{local}(){{}}")), "no shield for {local}:\n{out}");
    }
    // ... and the names the item uses are not shadowed inside the expansion.
    for user in ["__arena_value", "__arena_field_1"] {
        assert!(!tight.contains(&format!("fn{user}(){{}}")), "{user} shadowed:\n{out}");
    }
    for local in ["__arena_field_0", "__arena_storage", "__arena_row", "__arena_f"] {
        assert!(tight.contains(&format!("fn{local}(){{}}")), "no shield for {local}:\n{out}");
    }
}

#[test]
fn fixed_capacity_adds_a_storage_alias_and_with_fixed_to_the_plain_expansion() {
    let plain = expand("pub struct Point { pub x: f32, y: f32 }");
    let fixed = expand("#[arena(capacity = 16)] pub struct Point { pub x: f32, y: f32 }");
    let tight: String = fixed.split_whitespace().collect();
    assert!(tight.contains("pubtypePointStorage=::arena_kit::pool::PoolStorage<Point,16>;"));
    assert!(tight.contains(
        "pubfnwith_fixed<__ArenaOut>(__arena_f:implfor<'id>::core::ops::FnOnce(PointPool<'id>)\
         ->__ArenaOut,)->__ArenaOut{Self::with_storage(&mut<PointStorage>::new(),__arena_f)}"
    ));
    // Nothing else changes: every line of the plain expansion is there, in order.
    let mut rest = fixed.lines();
    for line in plain.lines() {
        assert!(rest.any(|l| l == line), "missing from the fixed expansion: {line}\n{fixed}");
    }
}

#[test]
fn fixed_capacity_keeps_the_structs_parameters_and_braces_expressions() {
    let out = expand(
        "#[arena(capacity = M)] struct S<'a, T: Copy = u8, const M: usize = 4> { a: &'a [T; M] }",
    );
    let tight: String = out.split_whitespace().collect();
    assert!(
        tight.contains(
            "typeSStorage<'a,T,constM:usize>=::arena_kit::pool::PoolStorage<S<'a,T,M>,M>;"
        ),
        "{out}"
    );
    assert!(tight.contains("with_storage(&mut<SStorage<'a,T,M>>::new(),"), "{out}");
    let out = expand("#[arena(capacity = 2 * LEN)] struct P { a: u8 }");
    let tight: String = out.split_whitespace().collect();
    assert!(tight.contains("PoolStorage<P,{2*LEN}>;"), "{out}");
}

#[test]
fn fixed_capacity_with_a_brand_names_it_in_the_alias() {
    let out = expand("#[arena(brand = 'id, capacity = 4)] struct S<'id> { a: Option<SKey<'id>> }");
    let tight: String = out.split_whitespace().collect();
    assert!(!out.contains("compile_error!"), "{out}");
    assert!(tight.contains("typeSStorage<'id>=::arena_kit::pool::PoolStorage<S<'id>,4>;"), "{out}");
    assert!(!out.contains("with_fixed"), "a fresh brand's pool cannot hold `S<'id>`:\n{out}");
    let out =
        expand("#[arena(soa, brand = 'id, capacity = 4)] struct S<'id> { a: Option<SKey<'id>> }");
    let tight: String = out.split_whitespace().collect();
    assert!(!out.contains("compile_error!"), "{out}");
    assert!(
        tight.contains("typeSStorage<'id>=::arena_kit::pool::soa::SoaStorage<S<'id>,4>;"),
        "{out}"
    );
    assert!(tight.contains("fnnew_in_storage<"), "{out}");
    assert!(!out.contains("with_fixed") && !out.contains("fn with_storage"), "{out}");
}

#[test]
fn fixed_capacity_with_soa_names_a_soa_storage() {
    let out = expand(
        "#[arena(soa, capacity = M)] struct S<'a, T: Copy = u8, const M: usize = 4> { a: &'a [T; M] }",
    );
    let tight: String = out.split_whitespace().collect();
    assert!(!out.contains("compile_error!"), "{out}");
    assert!(
        tight.contains(
            "typeSStorage<'a,T,constM:usize>=::arena_kit::pool::soa::SoaStorage<S<'a,T,M>,M,>;"
        ),
        "{out}"
    );
    assert!(tight.contains("with_storage(&mut<SStorage<'a,T,M>>::new(),"), "{out}");
    assert!(tight.contains("fnwith_fixed<__ArenaOut>("), "{out}");
}
