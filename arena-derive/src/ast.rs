//! The derive's view of its input: what was written, before any check.

use std::collections::BTreeSet;

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Data, DeriveInput, Fields, Generics, Ident, Type, Visibility};

use crate::attr::{self, Attrs};
use crate::errors::Errors;

/// The item `#[derive(ArenaAlloc)]` sits on.
pub(crate) struct Input<'a> {
    pub ident: &'a Ident,
    pub vis: &'a Visibility,
    pub generics: &'a Generics,
    pub attrs: Attrs,
    pub shape: Shape<'a>,
    /// Every identifier and lifetime name written anywhere in the item (lifetimes
    /// without the quote): what the expansion's own names must avoid.
    pub names: BTreeSet<String>,
}

/// What kind of item it is, and its fields.
pub(crate) enum Shape<'a> {
    /// `struct S { a: A, .. }`.
    Named(Vec<Field<'a>>),
    /// `struct S(A, ..);`.
    Tuple,
    /// `struct S;`.
    Unit,
    /// An enum: the `enum` keyword, for the error.
    Enum(syn::token::Enum),
    /// A union: the `union` keyword, for the error.
    Union(syn::token::Union),
}

/// A named field.
pub(crate) struct Field<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub vis: &'a Visibility,
}

impl<'a> Input<'a> {
    /// Reads `input`; `#[arena]` attributes are parsed here (struct) or rejected (fields,
    /// variants), their errors recorded in `errors`.
    pub(crate) fn from_syn(input: &'a DeriveInput, errors: &mut Errors) -> Self {
        let attrs = attr::parse(&input.attrs, errors);
        let shape = match &input.data {
            Data::Struct(data) => {
                for field in &data.fields {
                    attr::reject(&field.attrs, "a field", errors);
                }
                match &data.fields {
                    Fields::Named(named) => Shape::Named(
                        named
                            .named
                            .iter()
                            .filter_map(|f| {
                                Some(Field { ident: f.ident.as_ref()?, ty: &f.ty, vis: &f.vis })
                            })
                            .collect(),
                    ),
                    Fields::Unnamed(_) => Shape::Tuple,
                    Fields::Unit => Shape::Unit,
                }
            }
            Data::Enum(data) => {
                for variant in &data.variants {
                    attr::reject(&variant.attrs, "a variant", errors);
                }
                Shape::Enum(data.enum_token)
            }
            Data::Union(data) => Shape::Union(data.union_token),
        };
        let mut names = BTreeSet::new();
        collect_names(input.to_token_stream(), &mut names);
        Input {
            ident: &input.ident,
            vis: &input.vis,
            generics: &input.generics,
            attrs,
            shape,
            names,
        }
    }
}

/// Adds every identifier in `tokens` (a lifetime's name included) to `names`.
fn collect_names(tokens: TokenStream, names: &mut BTreeSet<String>) {
    for tree in tokens {
        match tree {
            TokenTree::Ident(ident) => {
                names.insert(ident.to_string());
            }
            TokenTree::Group(group) => collect_names(group.stream(), names),
            TokenTree::Punct(_) | TokenTree::Literal(_) => {}
        }
    }
}
