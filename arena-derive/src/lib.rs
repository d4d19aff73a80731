//! `#[derive(ArenaAlloc)]` for arena-kit. Use it through `arena_kit::ArenaAlloc`
//! (the `derive` feature, on by default), as serde's derive is used through serde;
//! `arena_kit::ArenaAlloc`'s docs describe what it generates.
//!
//! The pipeline follows thiserror and `serde_derive`, one step per file:
//!
//! 1. `ast.rs`: the input as written (struct shape, fields), `#[arena]` parsed by
//!    `attr.rs`, which records every malformed key instead of stopping at the first;
//! 2. `valid.rs`: checks (enums, unions, `soa` without named fields, accessor clashes,
//!    an undeclared brand) that record errors and downgrade the plan so it still expands;
//! 3. `expand.rs`: errors first, then the expansion of the plan (`aos.rs` for the plain
//!    pool, `soa.rs` for struct-of-arrays): with an error, the user sees the error and
//!    not a cascade of "cannot find type `ParticlePool`".

mod aos;
mod ast;
mod attr;
mod common;
mod errors;
mod expand;
mod names;
mod soa;
#[cfg(test)]
mod tests;
mod valid;

use proc_macro::TokenStream;

/// Generates typed free-list storage for a struct: `{Name}Pool<'id>` (plain, or
/// struct-of-arrays with `#[arena(soa)]`), the aliases `{Name}Handle<'id>` and
/// `{Name}Key<'id>` (and `{Name}Storage` with `#[arena(capacity = N)]`), and
/// `impl arena_kit::ArenaAlloc`. See `arena_kit::ArenaAlloc`.
#[proc_macro_derive(ArenaAlloc, attributes(arena))]
pub fn derive_arena_alloc(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::derive(&input).into()
}
