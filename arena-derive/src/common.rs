//! Fragments of the expansion that both layouts share (`aos.rs`, `soa.rs`): the pool's
//! generics, the `with` constructors, the `ArenaNew` impl. A leaf module: `expand.rs`
//! calls the layouts, the layouts call this, and nothing here calls back.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{GenericParam, Generics, Lifetime, LifetimeParam};

use crate::names;
use crate::valid::{self, Plan};

/// What a layout generates, in two parts: the declarations the user names (the pool, the
/// views; the SoA `Drop` check), at the item's place; and the impls, which `expand.rs` puts in a `const _`
/// block beside the locals' shields (see `names.rs`).
pub(crate) struct Parts {
    pub decls: TokenStream,
    pub impls: TokenStream,
}

/// The generics of the generated pool, in every form the expansion needs.
pub(crate) struct PoolGenerics {
    /// `<'id, struct params..>` with bounds and defaults, for the pool's declaration.
    pub decl: Generics,
    /// The same without the brand: the impl that holds `with`.
    pub outer: Generics,
    /// The struct's parameters other than the brand, as arguments (`'a, T, N`).
    pub rest_args: Vec<TokenStream>,
}

impl PoolGenerics {
    pub(crate) fn new(plan: &Plan<'_>) -> Self {
        let brand = &plan.brand;
        let rest: Vec<GenericParam> = plan
            .input
            .generics
            .params
            .iter()
            .filter(|p| !plan.brand_is_param || !valid::is_brand(p, brand))
            .cloned()
            .collect();
        let brand_param = plan
            .input
            .generics
            .params
            .iter()
            .find(|p| plan.brand_is_param && valid::is_brand(p, brand))
            .cloned()
            .unwrap_or_else(|| GenericParam::Lifetime(LifetimeParam::new(brand.clone())));
        let rest_args = rest
            .iter()
            .map(|p| match p {
                GenericParam::Lifetime(lt) => lt.lifetime.to_token_stream(),
                GenericParam::Type(t) => t.ident.to_token_stream(),
                GenericParam::Const(c) => c.ident.to_token_stream(),
            })
            .collect();
        let where_clause = plan.input.generics.where_clause.clone();
        let decl = Generics {
            lt_token: Some(syn::token::Lt::default()),
            params: std::iter::once(brand_param).chain(rest.iter().cloned()).collect(),
            gt_token: Some(syn::token::Gt::default()),
            where_clause: where_clause.clone(),
        };
        let outer = Generics {
            lt_token: Some(syn::token::Lt::default()),
            params: rest.into_iter().collect(),
            gt_token: Some(syn::token::Gt::default()),
            where_clause,
        };
        PoolGenerics { decl, outer, rest_args }
    }

    /// The same pool with one more parameter, last: `param` in the declarations (with
    /// its default, if any, in `decl`), `arg` at the end of the pool type's arguments.
    pub(crate) fn with_last(&self, param: &GenericParam, arg: TokenStream) -> Self {
        let mut more = self.with_last_arg(arg);
        more.decl.params.push(param.clone());
        more.outer.params.push(param.clone());
        more
    }

    /// The same pool with `arg` at the end of its type's arguments and no new parameter:
    /// one instance of a parameter added by [`with_last`](Self::with_last).
    pub(crate) fn with_last_arg(&self, arg: TokenStream) -> Self {
        let mut rest_args = self.rest_args.clone();
        rest_args.push(arg);
        PoolGenerics { decl: self.decl.clone(), outer: self.outer.clone(), rest_args }
    }

    /// `Pool<'lt, rest..>`: the pool type with brand `lt`.
    pub(crate) fn pool_ty(&self, plan: &Plan<'_>, lt: &TokenStream) -> TokenStream {
        let pool = &plan.pool;
        let rest = &self.rest_args;
        quote!(#pool<#lt #(, #rest)*>)
    }
}

/// The brand lifetime as tokens, and `'_`.
pub(crate) fn lifetimes(plan: &Plan<'_>) -> (TokenStream, TokenStream) {
    let anon = Lifetime::new("'_", proc_macro2::Span::call_site());
    (plan.brand.to_token_stream(), anon.to_token_stream())
}

/// The `with` / `with_capacity` pair shared by both layouts: a fresh brand, then
/// `new_in` / `with_capacity_in` of the pool.
pub(crate) fn with_fns(plan: &Plan<'_>, generics: &PoolGenerics) -> TokenStream {
    let Plan { krate, pool, .. } = plan;
    let vis = plan.input.vis;
    let (brand, anon) = lifetimes(plan);
    let outer_ty = generics.pool_ty(plan, &anon);
    let inner_ty = generics.pool_ty(plan, &brand);
    let (impl_generics, _, where_clause) = generics.outer.split_for_impl();
    let with_doc = format!(
        "Runs `f` with a new, empty [`{pool}`] of a brand of its own (as \
         `arena_kit::Pool::with`): its handles work on it and on nothing else."
    );
    let with_capacity_doc =
        format!("[`with`]({pool}::with), with room for `capacity` values before growing.");
    let out = names::type_param("__ArenaOut", &plan.input.names);
    let [f, capacity, brand_local] =
        ["f", "capacity", "brand"].map(|n| names::local(n, &plan.input.names));
    quote! {
        #[automatically_derived]
        impl #impl_generics #outer_ty #where_clause {
            #[doc = #with_doc]
            #vis fn with<#out>(
                #f: impl for<#brand> ::core::ops::FnOnce(#inner_ty) -> #out,
            ) -> #out {
                #krate::Brand::with(|#brand_local| #f(#pool::new_in(#brand_local)))
            }

            #[doc = #with_capacity_doc]
            #vis fn with_capacity<#out>(
                #capacity: ::core::primitive::usize,
                #f: impl for<#brand> ::core::ops::FnOnce(#inner_ty) -> #out,
            ) -> #out {
                #krate::Brand::with(|#brand_local| {
                    #f(#pool::with_capacity_in(#capacity, #brand_local))
                })
            }
        }
    }
}

/// The docs of `with_storage` (over a storage of the core pool `core`) and, with
/// `#[arena(capacity = ..)]`, `with_fixed`, whose frame holds every `unit`: the same for
/// both layouts but those words.
pub(crate) fn storage_docs(plan: &Plan<'_>, core: &str, unit: &str) -> (String, Option<String>) {
    let pool = &plan.pool;
    let with_storage = format!(
        "Runs `f` with a new, empty [`{pool}`] over the caller's `storage` (room for `N` \
         values), of a brand of its own, as `arena_kit::{core}::with_storage`: the pool \
         never grows and never calls an allocator."
    );
    let with_fixed = plan.fixed.as_ref().map(|fixed| {
        let alias = &fixed.storage;
        format!(
            "Runs `f` with a new, empty [`{pool}`] over a [`{alias}`] made in this call's \
             stack frame (the capacity of `#[arena(capacity = ..)]`), of a brand of its own: \
             no heap at all. The frame holds every {unit}, so keep large pools in a storage \
             of your own (`with_storage`)."
        )
    });
    (with_storage, with_fixed)
}

/// The doc of `new_in`, the same for both layouts.
pub(crate) fn new_in_doc(plan: &Plan<'_>) -> String {
    let (pool, name) = (&plan.pool, plan.input.ident);
    format!(
        "A new, empty `{pool}` carrying `brand` (for `{name}` values that hold keys of \
         this very pool; see `arena_kit::Brand`)."
    )
}

/// `impl ArenaNew<Name> for &mut NamePool`, the same for both layouts: it calls the
/// pool's `insert` and `try_insert` (the plain pool's through `DerefMut`).
pub(crate) fn arena_new_impl(plan: &Plan<'_>, generics: &PoolGenerics) -> TokenStream {
    let krate = &plan.krate;
    let name = plan.input.ident;
    let (brand, _) = lifetimes(plan);
    let self_ty = generics.pool_ty(plan, &brand);
    let (_, value_args, _) = plan.input.generics.split_for_impl();
    let value_ty = quote!(#name #value_args);
    let handle = quote!(#krate::Handle<#brand>);
    let (impl_generics, _, where_clause) = generics.decl.split_for_impl();
    let make_ty = names::type_param("__ArenaMake", &plan.input.names);
    let [make, value] = ["make", "value"].map(|n| names::local(n, &plan.input.names));
    quote! {
        #[automatically_derived]
        impl #impl_generics #krate::ArenaNew<#value_ty> for &mut #self_ty #where_clause {
            type Output = #handle;
            #[inline]
            fn arena_new_with<#make_ty: ::core::ops::FnOnce() -> #value_ty>(
                self,
                #make: #make_ty,
            ) -> #handle {
                self.insert(#make())
            }
            #[inline]
            fn try_arena_new(
                self,
                #value: #value_ty,
            ) -> ::core::result::Result<#handle, #krate::TryAllocError<#value_ty>> {
                self.try_insert(#value)
            }
        }
    }
}

/// `Deref`/`DerefMut` to the core pool and `Debug` through it, the same for both layouts
/// (the generated pool is a newtype over `inner_ty` in a field `inner`).
pub(crate) fn newtype_impls(
    plan: &Plan<'_>,
    generics: &PoolGenerics,
    inner_ty: &TokenStream,
) -> TokenStream {
    let (brand, _) = lifetimes(plan);
    let self_ty = generics.pool_ty(plan, &brand);
    let (impl_generics, _, where_clause) = generics.decl.split_for_impl();
    let formatter = names::local("formatter", &plan.input.names);
    // `for (key, value) in &pool` as on the core pool: a lifetime of the borrow, clear of
    // the item's names (and so of the brand, which is one of them or fresh against them).
    let borrow = Lifetime::new(
        &format!("'{}", names::fresh("a", "__arena_a", &plan.input.names)),
        proc_macro2::Span::call_site(),
    );
    let mut borrowed = generics.decl.clone();
    borrowed.params.insert(0, GenericParam::Lifetime(LifetimeParam::new(borrow.clone())));
    let (borrowed_impl, _, _) = borrowed.split_for_impl();
    let into_iter = |mutability: TokenStream, inner: TokenStream| {
        quote! {
            #[automatically_derived]
            impl #borrowed_impl ::core::iter::IntoIterator for &#borrow #mutability #self_ty
            #where_clause
            {
                type Item = <&#borrow #mutability #inner_ty as ::core::iter::IntoIterator>::Item;
                type IntoIter =
                    <&#borrow #mutability #inner_ty as ::core::iter::IntoIterator>::IntoIter;
                #[inline]
                fn into_iter(self) -> Self::IntoIter {
                    ::core::iter::IntoIterator::into_iter(#inner)
                }
            }
        }
    };
    let iter = into_iter(quote!(), quote!(&self.inner));
    let iter_mut = into_iter(quote!(mut), quote!(&mut self.inner));
    quote! {
        #iter
        #iter_mut

        #[automatically_derived]
        impl #impl_generics ::core::ops::Deref for #self_ty #where_clause {
            type Target = #inner_ty;
            #[inline]
            fn deref(&self) -> &Self::Target {
                &self.inner
            }
        }

        #[automatically_derived]
        impl #impl_generics ::core::ops::DerefMut for #self_ty #where_clause {
            #[inline]
            fn deref_mut(&mut self) -> &mut Self::Target {
                &mut self.inner
            }
        }

        #[automatically_derived]
        impl #impl_generics ::core::fmt::Debug for #self_ty #where_clause {
            fn fmt(&self, #formatter: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::core::fmt::Debug::fmt(&self.inner, #formatter)
            }
        }
    }
}
