//! Names the expansion introduces, and how they stay clear of the user's.
//!
//! - Locals, parameters and pattern bindings of generated functions come from [`local`]:
//!   `__arena_`-prefixed (serde's `__serializer`, thiserror's `__formatter`), and fresh
//!   against every name the item mentions, so no field, generic parameter or name used
//!   in a field type is one of them. Spanned at `Span::mixed_site()`, so the user's
//!   tokens (field types, bounds) cannot name them.
//! - An item of the module can still capture them: an identifier pattern is a binding
//!   only if no constant, unit struct or static of that name is in scope, and
//!   mixed-site hygiene hides locals, not items (a `const __arena_value` in the module
//!   turns `fn try_arena_new(self, __arena_value: T)` into a constant pattern: E0308,
//!   E0005). So the impls sit in a `const _: () = { .. };` block that declares
//!   [`shields`]: a `fn` named like each local. A block's items shadow the module's, and
//!   a `fn` is the one item a binding may shadow. The shields are named only by the
//!   expansion's own tokens: being fresh, no name in the item is one of them.
//! - Generic parameters and the brand lifetime must differ from every name the item
//!   mentions, its own parameters and any `for<'a>` inside it ([`fresh`]).
//! - Primitives are spelled `::core::primitive::usize`, never `usize`: a user type
//!   named `usize` may be in scope.

use std::collections::BTreeSet;

use proc_macro2::{Ident, Spacing, Span, TokenStream, TokenTree};
use quote::quote;

/// Prefix of the expansion's locals (and of nothing the user may name: see [`shields`]).
const LOCAL_PREFIX: &str = "__arena_";

/// A local, parameter or pattern binding of the expansion: `__arena_{name}`, or
/// `__arena_{name}_`, `__arena_{name}_1`, ... if the item mentions that (`taken`); at
/// `Span::mixed_site()`. The `_` before the number keeps `field_1`'s fallbacks apart
/// from `field_11`. Only sound inside the block of [`shields`].
pub(crate) fn local(name: &str, taken: &BTreeSet<String>) -> Ident {
    let preferred = format!("{LOCAL_PREFIX}{name}");
    Ident::new(&fresh(&preferred, &format!("{preferred}_"), taken), Span::mixed_site())
}

/// `#[allow(dead_code)] fn __arena_x() {}` for every local of `impls` (see
/// [`collect_locals`]), for the `const _` block that holds `impls`. Every identifier
/// pattern of the expansion then finds this `fn` before any module item of its name,
/// and a `fn` may be shadowed: the pattern binds.
pub(crate) fn shields(impls: &TokenStream, taken: &BTreeSet<String>) -> TokenStream {
    let mut locals = BTreeSet::new();
    collect_locals(impls.clone(), taken, &mut locals);
    let locals = locals.into_iter().map(|name| Ident::new(&name, Span::mixed_site()));
    quote! {
        #(
            #[allow(dead_code)]
            fn #locals() {}
        )*
    }
}

/// Adds to `locals` every identifier of `tokens` with the locals' prefix that the item
/// does not mention (`taken`), except a lifetime's name (after `'`) and a method's
/// (after `fn` or `.`: `__arena_push` of the SoA storage).
fn collect_locals(tokens: TokenStream, taken: &BTreeSet<String>, locals: &mut BTreeSet<String>) {
    let mut not_a_local = false;
    for tree in tokens {
        match &tree {
            TokenTree::Ident(ident) => {
                let name = ident.to_string();
                if !not_a_local && name.starts_with(LOCAL_PREFIX) && !taken.contains(&name) {
                    locals.insert(name);
                }
            }
            TokenTree::Group(group) => collect_locals(group.stream(), taken, locals),
            TokenTree::Punct(_) | TokenTree::Literal(_) => {}
        }
        not_a_local = match &tree {
            TokenTree::Punct(p) => {
                p.as_char() == '.' || (p.as_char() == '\'' && p.spacing() == Spacing::Joint)
            }
            TokenTree::Ident(ident) => ident == "fn",
            TokenTree::Group(_) | TokenTree::Literal(_) => false,
        };
    }
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
