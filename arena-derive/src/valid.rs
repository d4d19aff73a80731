//! Checks on the input, and the [`Plan`] the expansion follows.
//!
//! Every check records its error and then *downgrades* the plan to something that still
//! expands cleanly (no `soa`, a fresh brand, the default crate path), so the user sees
//! their mistakes and nothing else: the types and methods the rest of their code names
//! keep existing (the fallback).

use std::collections::BTreeMap;

use proc_macro2::Span;
use quote::format_ident;
use syn::ext::IdentExt;
use syn::{Expr, GenericParam, Ident, Lifetime, Path, Type};

use crate::ast::{Input, Shape};
use crate::errors::Errors;

/// What to generate.
pub(crate) struct Plan<'a> {
    pub input: &'a Input<'a>,
    /// Path to arena-kit.
    pub krate: Path,
    /// The generated pool type.
    pub pool: Ident,
    /// The handle and key aliases.
    pub handle: Ident,
    pub key: Ident,
    /// The pool's brand lifetime.
    pub brand: Lifetime,
    /// Whether `brand` is one of the struct's own lifetime parameters.
    pub brand_is_param: bool,
    /// Plain pool, or one column per field.
    pub layout: Layout<'a>,
    /// Derives for the SoA views (`row_derive`), less `Clone` and `Copy`, which the
    /// shared views always implement and the mutable ones cannot.
    pub row_derive: Vec<Path>,
    /// `#[arena(capacity = N)]`: the alias `{Name}Storage` for a `PoolStorage` (plain)
    /// or a `SoaStorage` (`soa`) of `N` values, and, on a pool without its own brand,
    /// `with_fixed`.
    pub fixed: Option<Fixed<'a>>,
}

/// What `#[arena(capacity = N)]` adds.
pub(crate) struct Fixed<'a> {
    /// The alias of `PoolStorage<Name, { N }>` (or `SoaStorage`).
    pub storage: Ident,
    /// `N`, as written (the expansion puts it in braces, at the item's place).
    pub capacity: &'a Expr,
    /// Whether the pool is struct-of-arrays: the alias names a `SoaStorage`.
    pub soa: bool,
}

/// The storage layout.
pub(crate) enum Layout<'a> {
    /// A `Pool<'id, T>` inside a newtype.
    Aos,
    /// One column per field in a `ColumnVec`, beside the slot column; rows through a
    /// `RowIndex`.
    Soa(Vec<Column<'a>>),
}

/// One SoA column and the accessor names made for it.
pub(crate) struct Column<'a> {
    pub field: &'a Ident,
    pub ty: &'a Type,
    /// The field's visibility, which its accessors and view fields share.
    pub vis: &'a syn::Visibility,
    pub get: Ident,
    pub get_mut: Ident,
    pub by_key: Ident,
    pub by_key_mut: Ident,
    pub slice: Ident,
    pub slice_mut: Ident,
}

/// Methods every generated SoA pool has (its own, and `SoaPool`'s through `Deref`): no
/// accessor may take these names.
const SOA_METHODS: &[&str] = &[
    "with",
    "with_capacity",
    "with_storage",
    "with_fixed",
    "new_in",
    "new_in_storage",
    "with_capacity_in",
    "insert",
    "try_insert",
    "insert_keyed",
    "try_insert_keyed",
    "remove",
    "remove_key",
    "get",
    "get_mut",
    "get_key",
    "get_key_mut",
    "columns",
    "columns_mut",
    "rows",
    "key",
    "key_at_row",
    "into_key",
    "take_handle",
    "contains_key",
    "len",
    "is_empty",
    "reserve",
    "shrink_to_fit",
    "stats",
    "iter",
    "iter_mut",
    "retain",
    "clear_keyed",
    "drain",
    "into_inner",
];

/// Builds the plan for `input`, recording what is wrong in `errors`.
pub(crate) fn plan<'a>(input: &'a Input<'a>, errors: &mut Errors) -> Plan<'a> {
    let name = input.ident;
    match &input.shape {
        Shape::Enum(token) => errors.push(syn::Error::new_spanned(
            token,
            format!(
                "`ArenaAlloc` cannot be derived for enums: wrap the enum in a struct \
                 (`struct {name}Slot({name});`) and derive it there, or allocate it in a \
                 scope with `Scope::alloc`"
            ),
        )),
        Shape::Union(token) => errors.push(syn::Error::new_spanned(
            token,
            "`ArenaAlloc` cannot be derived for unions: allocate them in a scope with \
             `Scope::alloc_copy`, or wrap them in a struct",
        )),
        Shape::Named(_) | Shape::Tuple | Shape::Unit => {}
    }

    let (brand, brand_is_param) = brand(input, errors);
    let pool = input.attrs.pool.clone().unwrap_or_else(|| format_ident!("{}Pool", name.unraw()));
    let layout = match (&input.attrs.soa, &input.shape) {
        // No `soa`, or `soa` on an enum or union (already an error above).
        (None, _) | (Some(_), Shape::Enum(_) | Shape::Union(_)) => Layout::Aos,
        (Some(span), Shape::Named(fields)) => columns(fields, &pool, *span, errors),
        (Some(span), Shape::Tuple | Shape::Unit) => {
            errors.push(syn::Error::new(
                *span,
                "`#[arena(soa)]` needs named fields, for the per-field accessors: name the \
                 fields, or remove `soa` for the plain layout",
            ));
            Layout::Aos
        }
    };
    let krate = input.attrs.krate.clone().unwrap_or_else(|| syn::parse_quote!(::arena_kit));
    let row_derive = match (&input.attrs.row_derive, &layout) {
        (Some((_, paths)), Layout::Soa(_)) => {
            paths.iter().filter(|p| !(p.is_ident("Clone") || p.is_ident("Copy"))).cloned().collect()
        }
        (Some((span, _)), Layout::Aos) => {
            if input.attrs.soa.is_none() {
                errors.push(syn::Error::new(
                    *span,
                    "`row_derive` is for the views of `#[arena(soa)]`: add `soa`, or derive \
                     the traits on the struct itself",
                ));
            }
            Vec::new()
        }
        (None, _) => Vec::new(),
    };
    let fixed = fixed(input, &layout);
    Plan {
        input,
        krate,
        handle: format_ident!("{}Handle", name.unraw()),
        key: format_ident!("{}Key", name.unraw()),
        pool,
        brand,
        brand_is_param,
        layout,
        row_derive,
        fixed,
    }
}

/// `#[arena(capacity = N)]`: the alias of a storage of `N` values. With a brand of the
/// struct's own, the alias names it too, and the pool over it is made inside the brand's
/// closure (`Pool::with_storage_in`, `{Name}Pool::new_in_storage`).
fn fixed<'a>(input: &'a Input<'a>, layout: &Layout<'_>) -> Option<Fixed<'a>> {
    let (_, capacity) = input.attrs.capacity.as_ref()?;
    // A `soa` that did not stand leaves the plain layout, whose storage the alias names.
    let soa = matches!(layout, Layout::Soa(_));
    Some(Fixed { storage: format_ident!("{}Storage", input.ident.unraw()), capacity, soa })
}

/// The brand lifetime: the struct's own if `#[arena(brand = 'x)]` names one of its lifetime
/// parameters, else a fresh `'id`, or, when the item mentions that name anywhere (a
/// parameter, or a `for<'id>` in a bound or a field type), the first of `'__arena_id`,
/// `'__arena_id1`, ... that it does not mention.
fn brand(input: &Input<'_>, errors: &mut Errors) -> (Lifetime, bool) {
    let declared = |name: &str| input.generics.lifetimes().any(|lt| lt.lifetime.ident == name);
    if let Some(wanted) = &input.attrs.brand {
        if declared(&wanted.ident.to_string()) {
            return (wanted.clone(), true);
        }
        errors.push(syn::Error::new(
            wanted.span(),
            format!(
                "`{wanted}` is not a lifetime parameter of `{}`: declare it \
                 (`struct {}<{wanted}> {{ .. }}`) and use it in the fields that hold handles",
                input.ident, input.ident
            ),
        ));
    }
    let fresh = crate::names::fresh("id", "__arena_id", &input.names);
    (Lifetime::new(&format!("'{fresh}"), Span::call_site()), false)
}

/// The SoA columns, with their accessor names; an accessor that would clash with a pool
/// method or another accessor is an error at the field, and the layout falls back to AoS.
fn columns<'a>(
    fields: &[crate::ast::Field<'a>],
    pool: &Ident,
    span: Span,
    errors: &mut Errors,
) -> Layout<'a> {
    if fields.is_empty() {
        errors.push(syn::Error::new(
            span,
            "`#[arena(soa)]` needs at least one field: a struct without fields has no \
             columns to store; remove `soa`",
        ));
        return Layout::Aos;
    }
    let mut taken: BTreeMap<String, Option<&Ident>> =
        SOA_METHODS.iter().map(|m| ((*m).to_owned(), None)).collect();
    let mut columns = Vec::new();
    let mut clash = false;
    for field in fields {
        let bare = field.ident.unraw();
        let column = Column {
            field: field.ident,
            ty: field.ty,
            vis: field.vis,
            get: field.ident.clone(),
            get_mut: format_ident!("{}_mut", bare),
            by_key: format_ident!("{}_by_key", bare),
            by_key_mut: format_ident!("{}_by_key_mut", bare),
            slice: format_ident!("{}_column", bare),
            slice_mut: format_ident!("{}_column_mut", bare),
        };
        let names = [
            &column.get,
            &column.get_mut,
            &column.by_key,
            &column.by_key_mut,
            &column.slice,
            &column.slice_mut,
        ];
        for name in names {
            let text = name.unraw().to_string();
            if let Some(owner) = taken.get(&text) {
                let what = match owner {
                    None => format!("`{pool}` already has a method `{text}`"),
                    Some(other) => format!("field `{other}` already gives `{pool}` a `{text}`"),
                };
                errors.push(syn::Error::new(
                    field.ident.span(),
                    format!(
                        "field `{bare}` would give `{pool}` the accessor `{text}`, but {what}: \
                         rename the field, or remove `soa`"
                    ),
                ));
                clash = true;
            } else {
                taken.insert(text, Some(field.ident));
            }
        }
        columns.push(column);
    }
    if clash { Layout::Aos } else { Layout::Soa(columns) }
}

/// Whether generic parameter `param` is the lifetime `brand`.
pub(crate) fn is_brand(param: &GenericParam, brand: &Lifetime) -> bool {
    matches!(param, GenericParam::Lifetime(lt) if lt.lifetime.ident == brand.ident)
}
