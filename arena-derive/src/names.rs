//! Names the expansion introduces, and how they stay clear of the user's.
//!
//! - Locals and parameters of generated functions are `__arena_`-prefixed
//!   ([`local`]), so no field name, unit struct or constant of the user's can capture
//!   or shadow them (serde's `__serializer`, thiserror's `__formatter`).
//! - Generic parameters and the brand lifetime must differ from every name the item
//!   mentions, its own parameters and any `for<'a>` inside it ([`fresh`]).
//! - Primitives are spelled `::core::primitive::usize`, never `usize`: a user type
//!   named `usize` may be in scope.

use std::collections::BTreeSet;

use proc_macro2::{Ident, Span};

/// A local or parameter name of the expansion: `__arena_{name}`.
pub(crate) fn local(name: &str) -> Ident {
    Ident::new(&format!("__arena_{name}"), Span::call_site())
}

/// `preferred` if `taken` does not hold it, else the first of `fallback`, `fallback1`,
/// `fallback2`, ... that it does not hold.
pub(crate) fn fresh(preferred: &str, fallback: &str, taken: &BTreeSet<String>) -> String {
    if !taken.contains(preferred) {
        return preferred.to_owned();
    }
    // `taken` is finite, so one of its `len() + 1` first candidates is free.
    core::iter::once(fallback.to_owned())
        .chain((1..=taken.len()).map(|n| format!("{fallback}{n}")))
        .find(|name| !taken.contains(name))
        .unwrap_or_else(|| {
            unreachable!("{} names cannot take {} candidates", taken.len(), taken.len() + 1)
        })
}

/// A generic type parameter of the expansion (`__ArenaOut`, ...), clear of `taken`.
pub(crate) fn type_param(base: &str, taken: &BTreeSet<String>) -> Ident {
    Ident::new(&fresh(base, base, taken), Span::call_site())
}
