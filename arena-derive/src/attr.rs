//! `#[arena(...)]` on the struct: parsed into [`Attrs`], every mistake recorded.
//!
//! Keys: `soa` (a flag), `crate = path`, `brand = 'lifetime`, `pool = Ident`,
//! `row_derive(Trait, ..)` (derives for the struct-of-arrays row and column views),
//! `capacity = expr` (a fixed capacity: the storage alias and `with_fixed`). Unknown
//! keys, repeated keys and values of the wrong kind are errors pointing at the token; the
//! parser records each one and goes on to the next key, so one compilation reports them
//! all. `#[arena]` on a field is an error too (nothing there is configurable).

use proc_macro2::{Span, TokenTree};
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::{Attribute, Expr, Ident, Lifetime, LitStr, Path, Token};

use crate::errors::Errors;

/// The struct-level options, each with the span of its key (for later errors).
#[derive(Default)]
pub(crate) struct Attrs {
    /// `#[arena(soa)]`: one column per field.
    pub soa: Option<Span>,
    /// `#[arena(crate = path)]`: where arena-kit is reachable.
    pub krate: Option<Path>,
    /// `#[arena(brand = 'id)]`: the struct's lifetime that is the pool's brand.
    pub brand: Option<Lifetime>,
    /// `#[arena(pool = Name)]`: the generated pool's name.
    pub pool: Option<Ident>,
    /// `#[arena(row_derive(Debug, ..))]`: the span of the key, and the derives.
    pub row_derive: Option<(Span, Vec<Path>)>,
    /// `#[arena(capacity = N)]`: the span of the key, and the constant expression.
    pub capacity: Option<(Span, Expr)>,
}

/// The keys `#[arena(...)]` accepts, for the "unknown key" message.
const KEYS: &str = "`soa`, `crate = path`, `brand = 'lifetime`, `pool = Name`, \
                    `row_derive(Trait, ..)` or `capacity = N`";

/// Parses every `#[arena(...)]` among `attrs`, recording errors in `errors`.
pub(crate) fn parse(attrs: &[Attribute], errors: &mut Errors) -> Attrs {
    let mut out = Attrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("arena")) {
        let parsed = attr.parse_nested_meta(|meta| {
            parse_key(&meta, &mut out, errors);
            Ok(())
        });
        if let Err(e) = parsed {
            errors.push(e);
        }
    }
    out
}

/// Records an error for each `#[arena]` found where nothing is configurable.
pub(crate) fn reject(attrs: &[Attribute], what: &str, errors: &mut Errors) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("arena")) {
        errors.push(syn::Error::new_spanned(
            attr,
            format!("`#[arena]` is not accepted on {what}; it goes on the struct"),
        ));
    }
}

/// One `key` or `key = value`. Errors are recorded, never returned, so the next key is
/// still parsed; a bad value is skipped up to the next comma.
fn parse_key(meta: &ParseNestedMeta<'_>, out: &mut Attrs, errors: &mut Errors) {
    let key = &meta.path;
    let span = meta.path.segments.first().map_or_else(Span::call_site, |s| s.ident.span());
    let name = if key.is_ident("crate") {
        "crate".to_owned()
    } else {
        key.get_ident().map(ToString::to_string).unwrap_or_default()
    };
    let result = match name.as_str() {
        "soa" => {
            if meta.input.peek(Token![=]) {
                Err(meta.error("`soa` takes no value: write `#[arena(soa)]`"))
            } else {
                set(&mut out.soa, span, "soa", span)
            }
        }
        "crate" => value(meta, "a path such as `my_crate::arena`", parse_path)
            .and_then(|path| set(&mut out.krate, path, "crate", span)),
        "brand" => value(meta, "a lifetime such as `'id`", <Lifetime as syn::parse::Parse>::parse)
            .and_then(|lt| set(&mut out.brand, lt, "brand", span)),
        "pool" => {
            value(meta, "a type name such as `ParticlePool`", <Ident as syn::parse::Parse>::parse)
                .and_then(|ident| set(&mut out.pool, ident, "pool", span))
        }
        "capacity" => value(
            meta,
            "a constant such as `64` or `MAX_SESSIONS`",
            <Expr as syn::parse::Parse>::parse,
        )
        .and_then(|expr| set(&mut out.capacity, (span, expr), "capacity", span)),
        "row_derive" => derives(meta)
            .and_then(|paths| set(&mut out.row_derive, (span, paths), "row_derive", span)),
        _ => Err(syn::Error::new_spanned(
            key,
            format!(
                "unknown `#[arena]` key `{}`; expected {KEYS}",
                quote::ToTokens::to_token_stream(key).to_string().replace(' ', "")
            ),
        )),
    };
    if let Err(e) = result {
        errors.push(e);
        skip_value(meta.input);
    }
}

/// `= value`, parsed by `parse`; `expected` names the kind of value in the error.
fn value<T>(
    meta: &ParseNestedMeta<'_>,
    expected: &str,
    parse: impl FnOnce(ParseStream<'_>) -> syn::Result<T>,
) -> syn::Result<T> {
    let key = quote::ToTokens::to_token_stream(&meta.path).to_string();
    if !meta.input.peek(Token![=]) {
        return Err(meta.error(format!("`{key}` needs a value: `{key} = …`, with {expected}")));
    }
    let input = meta.value()?;
    let start = input.span();
    let fork = input.fork();
    match parse(&fork) {
        Ok(v) if fork.is_empty() || fork.peek(Token![,]) => {
            syn::parse::discouraged::Speculative::advance_to(input, &fork);
            Ok(v)
        }
        _ => Err(syn::Error::new(start, format!("expected {expected} after `{key} =`"))),
    }
}

/// The parenthesised list of `row_derive(Debug, PartialEq)`: trait paths.
fn derives(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<Path>> {
    if !meta.input.peek(syn::token::Paren) {
        return Err(meta.error(
            "`row_derive` takes a list of traits to derive: `row_derive(Debug, PartialEq)`",
        ));
    }
    let mut paths = Vec::new();
    let mut error: Option<syn::Error> = None;
    meta.parse_nested_meta(|inner| {
        if inner.input.is_empty() || inner.input.peek(Token![,]) {
            paths.push(inner.path);
        } else {
            // Recorded, and the rest of the item skipped: an unconsumed token would add a
            // second, confusing error.
            let e = inner.error("expected a trait name such as `Debug`");
            error.get_or_insert(e);
            skip_value(inner.input);
        }
        Ok(())
    })?;
    error.map_or(Ok(paths), Err)
}

/// A path, bare (`crate = my::arena`) or in a string (`crate = "my::arena"`, serde's form).
fn parse_path(input: ParseStream<'_>) -> syn::Result<Path> {
    if input.peek(LitStr) { input.parse::<LitStr>()?.parse() } else { Path::parse_mod_style(input) }
}

/// Stores `value` unless the key was given before.
fn set<T>(slot: &mut Option<T>, value: T, key: &str, span: Span) -> syn::Result<()> {
    if slot.is_some() {
        return Err(syn::Error::new(span, format!("duplicate `#[arena]` key `{key}`")));
    }
    *slot = Some(value);
    Ok(())
}

/// Skips tokens up to (not including) the next top-level comma.
fn skip_value(input: ParseStream<'_>) {
    while !input.is_empty() && !input.peek(Token![,]) {
        if input.parse::<TokenTree>().is_err() {
            break;
        }
    }
}
