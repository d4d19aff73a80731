//! The expansion of `#[derive(ArenaAlloc)]`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Error};

/// The `impl ::arena_core::ArenaAlloc` for a struct, or a spanned error for anything else.
pub(crate) fn derive(input: &DeriveInput) -> Result<TokenStream, Error> {
    match &input.data {
        Data::Struct(_) => {}
        Data::Enum(data) => {
            return Err(Error::new_spanned(
                data.enum_token,
                "`ArenaAlloc` cannot be derived for enums; wrap the enum in a struct, or allocate it in a scope with `Scope::alloc`",
            ));
        }
        Data::Union(data) => {
            return Err(Error::new_spanned(
                data.union_token,
                "`ArenaAlloc` cannot be derived for unions; allocate them in a scope with `Scope::alloc_copy`",
            ));
        }
    }
    let name = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    Ok(quote! {
        #[automatically_derived]
        impl #impl_generics ::arena_core::ArenaAlloc for #name #ty_generics #where_clause {}
    })
}
