//! The struct-of-arrays layout (`#[arena(soa)]`): an `arena_kit::SoaRow` impl and the
//! views it names, and `{Name}Pool<'id>`, a newtype over `arena_kit::SoaPool`.
//!
//! What is generated for `struct Particle { pos: P, vel: V }`:
//!
//! - `ParticleRef<'a>` / `ParticleMut<'a>`: one row, a `&'a` / `&'a mut` per field;
//!   `ParticleColumns<'a>` / `ParticleColumnsMut<'a>`: every column as a `&'a [F]` /
//!   `&'a mut [F]`. Fields keep their own visibility; the shared views are `Copy`.
//!   `#[arena(row_derive(..))]` adds derives to all four.
//! - `ParticleSoaStorage` (hidden): the columns, an `arena_kit::pool::soa::ColumnVec` of
//!   a `u32` (the slot column: which slot of the pool's index names the row) and the
//!   fields' types (one length and one capacity for every column) in a private field. A
//!   named struct rather than the `ColumnVec` itself, so a `pub` struct with private
//!   field types does not put those types in a public interface.
//! - `impl SoaRow for Particle`: every function touches every column the same way (the
//!   trait's contract), so column lengths move together; `SoaPool` holds the storage in
//!   a private field, so nothing else can change them.
//! - `ParticlePool<'id>`: derefs to `SoaPool<'id, Particle>` (insert, remove, get, keys,
//!   `columns_mut`, `iter`, `retain`, ...) and adds per-field accessors: `pos(&h)`,
//!   `pos_mut(&h)`, `pos_by_key(k)`, `pos_by_key_mut(k)`, `pos_column()`,
//!   `pos_column_mut()`, with the field's visibility.
//!
//! No `unsafe`: `insert` takes the value apart into its columns and `remove` gathers a new
//! one from them by moves, which the struct's lack of a `Drop` impl makes sound (checked
//! at compile time by `must_not_impl_drop`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{GenericParam, Generics, Lifetime, LifetimeParam};

use crate::common::{
    Parts, PoolGenerics, arena_new_impl, lifetimes, new_in_doc, newtype_impls, storage_docs,
    with_fns,
};
use crate::names;
use crate::valid::{Column, Plan};

/// The names of the generated view and storage types.
struct Views {
    row: syn::Ident,
    row_mut: syn::Ident,
    columns: syn::Ident,
    columns_mut: syn::Ident,
    storage: syn::Ident,
    /// The memory parameter of the storage and the pool (`Heap` or `Fixed<'s>`), and
    /// `with_storage`'s length parameter, clear of the struct's names.
    memory: syn::Ident,
    len: syn::Ident,
    /// The views' lifetime parameter, clear of the struct's names.
    lt: Lifetime,
    /// The struct's generics with `lt` first: the views' declaration.
    generics: Generics,
    /// The struct's own generics.
    user_generics: Generics,
}

impl Views {
    fn new(plan: &Plan<'_>) -> Self {
        let input = plan.input;
        let bare = input.ident.unraw();
        let lt = Lifetime::new(
            &format!("'{}", names::fresh("a", "__arena_a", &input.names)),
            proc_macro2::Span::call_site(),
        );
        let mut generics = input.generics.clone();
        generics.params.insert(0, GenericParam::Lifetime(LifetimeParam::new(lt.clone())));
        Views {
            row: format_ident!("{}Ref", bare),
            row_mut: format_ident!("{}Mut", bare),
            columns: format_ident!("{}Columns", bare),
            columns_mut: format_ident!("{}ColumnsMut", bare),
            storage: format_ident!("{}SoaStorage", bare),
            memory: names::type_param("__ArenaMemory", &input.names),
            len: names::type_param("__ARENA_N", &input.names),
            lt,
            generics,
            user_generics: input.generics.clone(),
        }
    }
}

impl Views {
    /// The struct's generics and the memory parameter, last: the storage struct's.
    fn storage_generics(&self, plan: &Plan<'_>) -> Generics {
        let (krate, memory) = (&plan.krate, &self.memory);
        let mut generics = self.user_generics.clone();
        generics.params.push(syn::parse_quote!(#memory: #krate::pool::Memory = #krate::pool::Heap));
        generics
    }
}

/// The SoA pool, its `SoaRow` impl and views, `Debug` and `ArenaNew`.
///
/// The pool is generic over where its columns are, as `arena_kit::SoaPool` is:
/// `{Name}Pool<'id, M = Heap>`, with `M` = `Fixed<'s>` over a caller's `SoaStorage`.
/// Everything but the constructors (and `into_inner`'s type) is the same for both.
pub(crate) fn expand(plan: &Plan<'_>, generics: &PoolGenerics, columns: &[Column<'_>]) -> Parts {
    let Plan { krate, pool, .. } = plan;
    let input = plan.input;
    let name = input.ident;
    let vis = input.vis;
    let views = Views::new(plan);
    let memory = &views.memory;
    let (brand, _) = lifetimes(plan);
    // The pool over either memory, and over the heap.
    let memory_param: GenericParam = syn::parse_quote!(
        #memory: #krate::pool::Memory = #krate::pool::Heap
    );
    let any = generics.with_last(&memory_param, quote!(#memory));
    let heap = generics.with_last_arg(quote!(#krate::pool::Heap));
    let self_ty = any.pool_ty(plan, &brand);
    let heap_ty = heap.pool_ty(plan, &brand);
    let (_, value_args, _) = input.generics.split_for_impl();
    let value_ty = quote!(#name #value_args);
    let inner_ty = quote!(#krate::SoaPool<#brand, #value_ty, #memory>);
    let heap_inner_ty = quote!(#krate::SoaPool<#brand, #value_ty>);
    let decl = &any.decl;
    let (impl_generics, _, where_clause) = any.decl.split_for_impl();
    let (heap_impl_generics, _, _) = heap.decl.split_for_impl();
    let with = with_fns(plan, &heap);
    let with_storage = with_storage_fns(plan, generics, &views, &value_ty);
    let doc = format!(
        "Struct-of-arrays storage for `{name}` values, generated by `#[derive(ArenaAlloc)]` \
         with `#[arena(soa)]`: it derefs to `arena_kit::SoaPool<'_, {name}>` (insert, \
         remove, `get` and `get_mut` as row views, `columns()` and `columns_mut()` as \
         slices, keys, `iter`, `retain`) and adds per-field accessors. Made by \
         [`{pool}::with`] on the heap, or `{pool}::with_storage` over a caller's \
         `SoaStorage` (the second parameter is then `Fixed<'_>`). Rows move when a value \
         is removed (the last row takes its place); handles and keys do not."
    );
    let new_in_doc = new_in_doc(plan);
    let [capacity, brand_local] = ["capacity", "brand"].map(|n| names::local(n, &input.names));
    let accessors = columns.iter().map(|c| accessors(plan, &views, c));
    let soa_row = soa_row(plan, &views, columns);
    let view_types = view_types(plan, &views, columns);
    let arena_new = arena_new_impl(plan, &any);
    let newtype = newtype_impls(plan, &any, &inner_ty);
    let no_drop = must_not_impl_drop(plan);

    // The `Drop` check is a block of its own, beside the views (no locals to shield): its
    // error then names the trait `_::__ArenaSoaStructMustNotImplementDrop`.
    let decls = quote! {
        #view_types

        #no_drop

        #[doc = #doc]
        #vis struct #pool #decl #where_clause {
            inner: #inner_ty,
        }
    };
    // The heap constructors exist where arena-kit has `alloc` (`__with_alloc!` decides,
    // in arena-kit); `with_storage` everywhere.
    let impls = quote! {
        #soa_row

        #krate::__with_alloc! {
            #with

            #[automatically_derived]
            impl #heap_impl_generics #heap_ty #where_clause {
                #[doc = #new_in_doc]
                #[must_use]
                #vis fn new_in(#brand_local: #krate::Brand<#brand>) -> Self {
                    #pool { inner: #krate::SoaPool::new_in(#brand_local) }
                }

                /// [`new_in`](Self::new_in), with room for `capacity` values in every column.
                #[must_use]
                #vis fn with_capacity_in(
                    #capacity: ::core::primitive::usize,
                    #brand_local: #krate::Brand<#brand>,
                ) -> Self {
                    #pool { inner: #krate::SoaPool::with_capacity_in(#capacity, #brand_local) }
                }

                /// The `arena_kit::SoaPool` inside (for `drain`, which consumes the pool).
                #[must_use]
                #vis fn into_inner(self) -> #heap_inner_ty {
                    self.inner
                }
            }
        }

        #with_storage

        #[automatically_derived]
        impl #impl_generics #self_ty #where_clause {
            #( #accessors )*
        }

        #newtype

        #arena_new
    };
    Parts { decls, impls }
}

/// `new_in_storage` (a pool carrying a caller's brand over a caller's `SoaStorage`, as
/// `SoaPool::new_in_storage`), `with_storage` (of a brand of its own, as
/// `SoaPool::with_storage`) and, with `#[arena(capacity = N)]`, `with_fixed` (over one
/// in the call's frame). A struct that names its own pool's brand gets `new_in_storage`
/// only: its value type mentions the brand, which a storage made outside the closure of
/// the other two cannot.
fn with_storage_fns(
    plan: &Plan<'_>,
    generics: &PoolGenerics,
    views: &Views,
    value_ty: &TokenStream,
) -> TokenStream {
    let Plan { krate, pool, .. } = plan;
    let vis = plan.input.vis;
    let (brand, anon) = lifetimes(plan);
    let borrow = Lifetime::new(
        &format!("'{}", names::fresh("s", "__arena_s", &plan.input.names)),
        proc_macro2::Span::call_site(),
    );
    let fixed = generics.with_last_arg(quote!(#krate::pool::Fixed<#borrow>));
    let outer_ty = fixed.pool_ty(plan, &anon);
    let inner_ty = fixed.pool_ty(plan, &brand);
    let n = &views.len;
    let [f, storage, inner, brand_local] =
        ["f", "storage", "inner", "brand"].map(|x| names::local(x, &plan.input.names));
    let mut branded = generics.decl.clone();
    branded.params.insert(0, GenericParam::Lifetime(LifetimeParam::new(borrow.clone())));
    let (branded_impl, _, branded_where) = branded.split_for_impl();
    let new_in_storage_doc = format!(
        "A new, empty [`{pool}`] carrying `brand` over the caller's `storage` (room for \
         `N` values), as `arena_kit::SoaPool::new_in_storage`: no allocator, and the \
         pool's type carries the storage's borrow."
    );
    let new_in_storage = quote! {
        #[automatically_derived]
        impl #branded_impl #inner_ty #branded_where {
            #[doc = #new_in_storage_doc]
            #[must_use]
            #vis fn new_in_storage<const #n: ::core::primitive::usize>(
                #storage: &#borrow mut #krate::pool::soa::SoaStorage<#value_ty, #n>,
                #brand_local: #krate::Brand<#brand>,
            ) -> Self {
                #pool { inner: #krate::SoaPool::new_in_storage(#storage, #brand_local) }
            }
        }
    };
    if plan.brand_is_param {
        return new_in_storage;
    }
    let mut outer = generics.outer.clone();
    outer.params.insert(0, GenericParam::Lifetime(LifetimeParam::new(borrow.clone())));
    let (impl_generics, _, where_clause) = outer.split_for_impl();
    let (doc, fixed_doc) = storage_docs(plan, "SoaPool", "row");
    let out = names::type_param("__ArenaOut", &plan.input.names);
    let with_fixed = plan.fixed.as_ref().zip(fixed_doc).map(|(fixed_capacity, doc)| {
        let alias = &fixed_capacity.storage;
        let (_, struct_args, _) = plan.input.generics.split_for_impl();
        let any_fixed = generics.with_last_arg(quote!(#krate::pool::Fixed<#anon>));
        let any_fixed_ty = any_fixed.pool_ty(plan, &anon);
        let heap_ty = generics.with_last_arg(quote!(#krate::pool::Heap)).pool_ty(plan, &anon);
        let (outer_impl, _, outer_where) = generics.outer.split_for_impl();
        quote! {
            #[automatically_derived]
            impl #outer_impl #heap_ty #outer_where {
                #[doc = #doc]
                #vis fn with_fixed<#out>(
                    #f: impl for<#brand, #borrow> ::core::ops::FnOnce(#inner_ty) -> #out,
                ) -> #out {
                    <#any_fixed_ty>::with_storage(&mut <#alias #struct_args>::new(), #f)
                }
            }
        }
    });
    quote! {
        #new_in_storage

        #[automatically_derived]
        impl #impl_generics #outer_ty #where_clause {
            #[doc = #doc]
            #vis fn with_storage<const #n: ::core::primitive::usize, #out>(
                #storage: &#borrow mut #krate::pool::soa::SoaStorage<#value_ty, #n>,
                #f: impl for<#brand> ::core::ops::FnOnce(#inner_ty) -> #out,
            ) -> #out {
                #krate::SoaPool::with_storage(#storage, |#inner| #f(#pool { inner: #inner }))
            }
        }

        #with_fixed
    }
}

/// The four views and the hidden storage struct.
fn view_types(plan: &Plan<'_>, views: &Views, columns: &[Column<'_>]) -> TokenStream {
    let input = plan.input;
    let (name, vis) = (input.ident, input.vis);
    let Views { row, row_mut, columns: cols, columns_mut: cols_mut, lt, .. } = views;
    let (view_impl, view_args, view_where) = views.generics.split_for_impl();
    let decl = &views.generics;
    let fields: Vec<_> = columns.iter().map(|c| c.field).collect();
    let tys: Vec<_> = columns.iter().map(|c| c.ty).collect();
    let field_vis: Vec<_> = columns.iter().map(|c| c.vis).collect();
    let field_docs: Vec<_> =
        columns.iter().map(|c| format!("The value's `{}`.", c.field.unraw())).collect();
    // Each column's type spanned at its field's, so an error about it points there.
    let list = nest(columns.iter().map(|c| {
        let ty = c.ty;
        (ty.span(), quote!(#ty))
    }));
    let derives = &plan.row_derive;
    let derive = (!derives.is_empty()).then(|| quote!(#[derive(#( #derives ),*)]));
    let docs = [
        format!("One `{name}` in a `{}`: a shared reference to each field.", plan.pool),
        format!("One `{name}` in a `{}`: a mutable reference to each field.", plan.pool),
        format!(
            "Every column of a `{}` as a shared slice, in row order: the fields to scan.",
            plan.pool
        ),
        format!(
            "Every column of a `{}` as a mutable slice, in row order: fields borrowed apart \
             and written in one pass; the slices' lengths cannot change.",
            plan.pool
        ),
    ];
    let [row_doc, row_mut_doc, cols_doc, cols_mut_doc] = &docs;
    let storage_types = storage_types(plan, views, &list);
    // The views' fields carry the struct's field names (and spans); a view whose fields
    // the user never reads is no dead code of theirs, hence `allow(dead_code)`.
    quote! {
        #[doc = #row_doc]
        #derive
        #[allow(missing_debug_implementations, dead_code)]
        #vis struct #row #decl #view_where {
            #( #[doc = #field_docs] #field_vis #fields: &#lt #tys, )*
        }

        #[automatically_derived]
        impl #view_impl ::core::clone::Clone for #row #view_args #view_where {
            #[inline]
            fn clone(&self) -> Self {
                *self
            }
        }

        #[automatically_derived]
        impl #view_impl ::core::marker::Copy for #row #view_args #view_where {}

        #[doc = #row_mut_doc]
        #derive
        #[allow(missing_debug_implementations, dead_code)]
        #vis struct #row_mut #decl #view_where {
            #( #[doc = #field_docs] #field_vis #fields: &#lt mut #tys, )*
        }

        #[doc = #cols_doc]
        #derive
        #[allow(missing_debug_implementations, dead_code)]
        #vis struct #cols #decl #view_where {
            #( #[doc = #field_docs] #field_vis #fields: &#lt [#tys], )*
        }

        #[automatically_derived]
        impl #view_impl ::core::clone::Clone for #cols #view_args #view_where {
            #[inline]
            fn clone(&self) -> Self {
                *self
            }
        }

        #[automatically_derived]
        impl #view_impl ::core::marker::Copy for #cols #view_args #view_where {}

        #[doc = #cols_mut_doc]
        #derive
        #[allow(missing_debug_implementations, dead_code)]
        #vis struct #cols_mut #decl #view_where {
            #( #[doc = #field_docs] #field_vis #fields: &#lt mut [#tys], )*
        }

        #storage_types
    }
}

/// The hidden structs of the columns: the storage (a `ColumnVec` of the slot column and
/// the fields, on either memory).
fn storage_types(plan: &Plan<'_>, views: &Views, list: &TokenStream) -> TokenStream {
    let (krate, input) = (&plan.krate, plan.input);
    let (name, vis) = (input.ident, input.vis);
    let Views { storage, memory, .. } = views;
    let storage_decl = views.storage_generics(plan);
    let user_where = &input.generics.where_clause;
    let storage_doc = format!(
        "The columns of `{name}` values (the slot column and one per field, in a \
         `ColumnVec` on the heap or over a `SoaStorage`'s bytes), kept by a `{}`; not for \
         direct use.",
        plan.pool
    );
    quote! {
        #[doc = #storage_doc]
        #[doc(hidden)]
        #[allow(missing_debug_implementations)]
        #vis struct #storage #storage_decl #user_where {
            columns: #krate::pool::soa::ColumnVec<(::core::primitive::u32, #list), #memory>,
        }
    }
}

/// `impl SoaRow for Name`: every function touches every column the same way.
#[expect(clippy::too_many_lines, reason = "one quote! of the impl, read top to bottom")]
fn soa_row(plan: &Plan<'_>, views: &Views, columns: &[Column<'_>]) -> TokenStream {
    let krate = &plan.krate;
    let input = plan.input;
    let name = input.ident;
    let Views { row, row_mut, columns: cols, columns_mut: cols_mut, storage, lt, .. } = views;
    let (view_impl, view_args, view_where) = views.generics.split_for_impl();
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let storage_generics = views.storage_generics(plan);
    let (storage_impl, storage_ty, _) = storage_generics.split_for_impl();
    let m = &views.memory;
    let memory = quote!(#krate::pool::Memory);
    // The storage's own parameters, the memory last: `Storage<M>`'s value in the impl.
    let storage_m = quote!(#storage #storage_ty);
    let column_vec = quote!(#krate::pool::soa::ColumnVec);
    let usize = quote!(::core::primitive::usize);
    let option = quote!(::core::option::Option);
    let result = quote!(::core::result::Result);
    let fields: Vec<_> = columns.iter().map(|c| c.field).collect();
    let row_mut_of = quote!(#krate::pool::soa::RowMut<'_, Self>);
    // The expansion's own locals (see `names.rs`), one per field where needed.
    let local = |name: &str| names::local(name, &input.names);
    let locals: Vec<_> = (0..fields.len()).map(|i| local(&format!("field_{i}"))).collect();
    let heads: Vec<_> = (0..fields.len()).map(|i| local(&format!("head_{i}"))).collect();
    let [
        storage_l,
        columns_l,
        capacity,
        additional,
        value,
        index,
        keep,
        end,
        slot,
        slots,
        moved,
        bytes_l,
        rows_l,
    ] = [
        "storage",
        "columns",
        "capacity",
        "additional",
        "value",
        "row",
        "keep",
        "end",
        "slot",
        "slots",
        "moved",
        "bytes",
        "rows",
    ]
    .map(local);
    let u32 = quote!(::core::primitive::u32);
    // A row of the `ColumnVec`, its fields bound to `locals`: `(field_0, (field_1, ()))`.
    let row_list = nest(locals.iter().map(|l| (proc_macro2::Span::call_site(), quote!(#l))));
    let split = |method: &str| {
        let method = format_ident!("{}", method);
        quote! {
            let #cols_mut { #( #fields: #locals ),* } = #columns_l;
            #( let (#heads, #locals) = #locals.#method()?; )*
            #option::Some((
                #row_mut { #( #fields: #heads ),* },
                #cols_mut { #( #fields: #locals ),* },
            ))
        }
    };
    let split_first = split("split_first_mut");
    let split_last = split("split_last_mut");
    quote! {
        // The moves in and out of the columns, in an inherent impl: dead-code analysis
        // ignores what derived trait impls read, and these do read the struct's fields.
        #[automatically_derived]
        impl #storage_impl #storage #storage_ty #where_clause {
            // The struct has no `Drop` (checked by `must_not_impl_drop`), so taking it
            // apart runs no destructor.
            #[inline]
            fn __arena_push(&mut self, #slot: #u32, #value: #name #ty_generics) {
                let #name { #( #fields: #locals ),* } = #value;
                self.columns.push((#slot, #row_list));
            }

            #[inline]
            fn __arena_swap_remove(
                &mut self,
                #index: #usize,
            ) -> (#name #ty_generics, #option<#u32>) {
                let ((_, #row_list), #moved) = self.columns.swap_remove_and_head(#index);
                (#name { #( #fields: #locals, )* }, #moved)
            }

            #[inline]
            fn __arena_pop(&mut self) -> #option<(#u32, #name #ty_generics)> {
                let (#slot, #row_list) = self.columns.pop()?;
                #option::Some((#slot, #name { #( #fields: #locals, )* }))
            }
        }

        #[automatically_derived]
        impl #view_impl #krate::pool::soa::Views<#lt> for #name #ty_generics #view_where {
            type Ref = #row #view_args;
            type Mut = #row_mut #view_args;
            type Columns = #cols #view_args;
            type ColumnsMut = #cols_mut #view_args;

            #[inline]
            fn split_first_mut(
                #columns_l: Self::ColumnsMut,
            ) -> #option<(Self::Mut, Self::ColumnsMut)> {
                #split_first
            }

            #[inline]
            fn split_last_mut(
                #columns_l: Self::ColumnsMut,
            ) -> #option<(Self::Mut, Self::ColumnsMut)> {
                #split_last
            }
        }

        #[automatically_derived]
        impl #impl_generics #krate::SoaRow for #name #ty_generics #where_clause {
            type Storage<#m: #memory> = #storage_m;

            #krate::__with_alloc! {
                #[inline]
                fn new_storage(#capacity: #usize) -> Self::Storage<#krate::pool::Heap> {
                    #storage { columns: #column_vec::with_capacity(#capacity) }
                }
            }

            #[inline]
            fn storage_in(
                #bytes_l: &mut [::core::mem::MaybeUninit<::core::primitive::u8>],
                #rows_l: #usize,
            ) -> #option<Self::Storage<#krate::pool::Fixed<'_>>> {
                let #columns_l = #column_vec::in_bytes(#bytes_l, #rows_l)?;
                #option::Some(#storage { columns: #columns_l })
            }

            #[inline]
            fn column_len<#m: #memory>(#storage_l: &Self::Storage<#m>) -> #usize {
                #storage_l.columns.len()
            }

            #[inline]
            fn reserve<#m: #memory>(#storage_l: &mut Self::Storage<#m>, #additional: #usize) {
                #storage_l.columns.reserve(#additional);
            }

            #[inline]
            fn try_reserve<#m: #memory>(
                #storage_l: &mut Self::Storage<#m>,
                #additional: #usize,
            ) -> #result<(), #krate::AllocError> {
                #storage_l.columns.try_reserve(#additional)
            }

            fn shrink_to_fit<#m: #memory>(#storage_l: &mut Self::Storage<#m>) {
                #storage_l.columns.shrink_to_fit();
            }

            #[inline]
            fn push<#m: #memory>(#storage_l: &mut Self::Storage<#m>, #slot: #u32, #value: Self) {
                #storage_l.__arena_push(#slot, #value);
            }

            #[inline]
            fn swap_remove<#m: #memory>(
                #storage_l: &mut Self::Storage<#m>,
                #index: #usize,
            ) -> (Self, #option<#u32>) {
                #storage_l.__arena_swap_remove(#index)
            }

            #[inline]
            fn compact<#m: #memory>(
                #storage_l: &mut Self::Storage<#m>,
                mut #keep: impl ::core::ops::FnMut(#u32, #row_mut_of) -> ::core::primitive::bool,
            ) {
                let mut #end = #storage_l.columns.len();
                let (#slots, #row_list) = #storage_l.columns.slices_mut();
                // Every column cut to `end` (no-ops: each is that long), so that the
                // loop's indexing plainly needs no bounds check.
                let #slots = &mut #slots[..#end];
                #( let #locals = &mut #locals[..#end]; )*
                let mut #index = 0;
                while #index < #end {
                    if #keep(#slots[#index], #row_mut { #( #fields: &mut #locals[#index], )* }) {
                        #index += 1;
                    } else {
                        #end -= 1;
                        #slots.swap(#index, #end);
                        #( #locals.swap(#index, #end); )*
                    }
                }
            }

            #[inline]
            fn pop<#m: #memory>(#storage_l: &mut Self::Storage<#m>) -> #option<(#u32, Self)> {
                #storage_l.__arena_pop()
            }

            #[inline]
            fn slots<#m: #memory>(#storage_l: &Self::Storage<#m>) -> &[#u32] {
                #storage_l.columns.slices().0
            }

            #[inline]
            fn slots_and_columns_mut<#lt, #m: #memory>(
                #storage_l: &#lt mut Self::Storage<#m>,
            ) -> (&#lt [#u32], #cols_mut #view_args) {
                let (#slots, #row_list) = #storage_l.columns.slices_mut();
                (#slots, #cols_mut { #( #fields: #locals, )* })
            }

            #[inline]
            fn columns<#lt, #m: #memory>(#storage_l: &#lt Self::Storage<#m>) -> #cols #view_args {
                let (_, #row_list) = #storage_l.columns.slices();
                #cols { #( #fields: #locals, )* }
            }

            #[inline]
            fn columns_mut<#lt, #m: #memory>(
                #storage_l: &#lt mut Self::Storage<#m>,
            ) -> #cols_mut #view_args {
                let (_, #row_list) = #storage_l.columns.slices_mut();
                #cols_mut { #( #fields: #locals, )* }
            }

            #[inline]
            fn row<#lt, #m: #memory>(
                #storage_l: &#lt Self::Storage<#m>,
                #index: #usize,
            ) -> #row #view_args {
                let (_, #row_list) = #storage_l.columns.row(#index);
                #row { #( #fields: #locals, )* }
            }

            #[inline]
            fn row_mut<#lt, #m: #memory>(
                #storage_l: &#lt mut Self::Storage<#m>,
                #index: #usize,
            ) -> #row_mut #view_args {
                let (_, #row_list) = #storage_l.columns.row_mut(#index);
                #row_mut { #( #fields: #locals, )* }
            }
        }
    }
}

/// `items` as a `ColumnVec` row list, `(a, (b, (c, ())))`, each pair spanned at its item.
fn nest(items: impl DoubleEndedIterator<Item = (proc_macro2::Span, TokenStream)>) -> TokenStream {
    items.rev().fold(quote!(()), |rest, (span, item)| quote_spanned!(span=> (#item, #rest)))
}

/// The compile-time proof that the struct has no `Drop` impl (pin-project's technique):
/// the struct gets an impl of a trait that every `Drop` type already has, which
/// conflicts, with an error at the struct's name, if the struct implements `Drop`. The
/// layout needs it: `insert` takes the value apart into its columns and `remove` builds
/// a new one from them, which with a `Drop` impl would run the destructor on a value
/// whose fields live on (a closed file descriptor still in the pool, a double free).
fn must_not_impl_drop(plan: &Plan<'_>) -> TokenStream {
    let input = plan.input;
    let name = input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let any = names::type_param("__ArenaAny", &input.names);
    let check = quote_spanned! {name.span()=>
        impl #impl_generics __ArenaSoaStructMustNotImplementDrop for #name #ty_generics #where_clause {}
    };
    quote! {
        const _: () = {
            /// Implemented by every `Drop` type, and by the `#[arena(soa)]` struct: the two
            /// impls conflict if the struct implements `Drop`, which its layout forbids
            /// (its fields are stored apart; a destructor would run on a value taken
            /// apart).
            trait __ArenaSoaStructMustNotImplementDrop {}
            #[allow(drop_bounds)]
            impl<#any: ::core::ops::Drop> __ArenaSoaStructMustNotImplementDrop for #any {}
            #check
        };
    }
}

/// The six per-field accessors of one column, on the generated pool.
fn accessors(plan: &Plan<'_>, views: &Views, c: &Column<'_>) -> TokenStream {
    let krate = &plan.krate;
    let (brand, _) = lifetimes(plan);
    let Column { field, ty, vis, get, get_mut, by_key, by_key_mut, slice, slice_mut } = c;
    let cols_mut = &views.columns_mut;
    let [handle, key, row, column] =
        ["handle", "key", "row", "column"].map(|n| names::local(n, &plan.input.names));
    let handle_ty = quote!(#krate::Handle<#brand>);
    let key_ty = quote!(#krate::Key<#brand>);
    let option = quote!(::core::option::Option);
    let bare = field.unraw();
    let get_doc = format!("The `{bare}` of a handle's value.");
    let get_mut_doc = format!("The `{bare}` of a handle's value, mutably.");
    let by_key_doc = format!("The `{bare}` of `key`'s value, or `None` if the key is stale.");
    let by_key_mut_doc =
        format!("The `{bare}` of `key`'s value, mutably, or `None` if the key is stale.");
    let slice_doc = format!(
        "Every value's `{bare}`, in row order (`key_at_row(i)` names row `i`): the \
         column to scan (`columns()` borrows every column at once)."
    );
    let slice_mut_doc = format!(
        "Every value's `{bare}`, mutably, in row order (`columns_mut()` borrows every \
         column at once)."
    );
    // Not spanned at the field: generated methods the user never calls must stay exempt
    // from `dead_code`, which a user span would subject them to.
    quote! {
        #[doc = #get_doc]
        #[inline]
        #[must_use]
        #vis fn #get(&self, #handle: &#handle_ty) -> &#ty {
            &self.inner.columns().#field[self.inner.rows().row(#handle)]
        }

        #[doc = #get_mut_doc]
        #[inline]
        #[must_use]
        #vis fn #get_mut(&mut self, #handle: &#handle_ty) -> &mut #ty {
            let #row = self.inner.rows().row(#handle);
            let #cols_mut { #field: #column, .. } = self.inner.columns_mut();
            &mut #column[#row]
        }

        #[doc = #by_key_doc]
        #[inline]
        #[must_use]
        #vis fn #by_key(&self, #key: #key_ty) -> #option<&#ty> {
            let #row = self.inner.rows().key_row(#key)?;
            #option::Some(&self.inner.columns().#field[#row])
        }

        #[doc = #by_key_mut_doc]
        #[inline]
        #[must_use]
        #vis fn #by_key_mut(&mut self, #key: #key_ty) -> #option<&mut #ty> {
            let #row = self.inner.rows().key_row(#key)?;
            let #cols_mut { #field: #column, .. } = self.inner.columns_mut();
            #option::Some(&mut #column[#row])
        }

        #[doc = #slice_doc]
        #[inline]
        #[must_use]
        #vis fn #slice(&self) -> &[#ty] {
            self.inner.columns().#field
        }

        #[doc = #slice_mut_doc]
        #[inline]
        #[must_use]
        #vis fn #slice_mut(&mut self) -> &mut [#ty] {
            let #cols_mut { #field: #column, .. } = self.inner.columns_mut();
            #column
        }
    }
}
