//! `#[derive(ArenaAlloc)]` for arena-core. Use it through `arena_core::ArenaAlloc`
//! (the `derive` feature, on by default), as serde's derive is used through serde.
//!
//! The pipeline follows thiserror and `serde_derive`: this file holds only the entry point;
//! `expand.rs` turns the parsed input into the impl or a spanned `compile_error!`.

mod expand;

use proc_macro::TokenStream;

/// Prepares a struct for arena storage: checks it is a struct and implements
/// `arena_core::ArenaAlloc` for it, generics and where-clauses included.
///
/// Enums and unions are rejected with an error pointing at the `enum`/`union` keyword.
#[proc_macro_derive(ArenaAlloc, attributes(arena))]
pub fn derive_arena_alloc(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::derive(&input).unwrap_or_else(syn::Error::into_compile_error).into()
}
