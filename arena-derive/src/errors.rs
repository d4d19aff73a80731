//! [`Errors`]: every mistake in one compilation, not just the first.

use proc_macro2::TokenStream;

/// Collects spanned errors; they are emitted together as `compile_error!`s.
#[derive(Default)]
pub(crate) struct Errors {
    first: Option<syn::Error>,
}

impl Errors {
    /// Records one more error.
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.first {
            Some(first) => first.combine(error),
            None => self.first = Some(error),
        }
    }

    /// The `compile_error!` invocations, one per error (empty when there are none).
    pub(crate) fn to_compile_errors(&self) -> TokenStream {
        self.first.as_ref().map(syn::Error::to_compile_error).unwrap_or_default()
    }
}
