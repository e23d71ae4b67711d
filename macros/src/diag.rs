//! Collected compile errors: every problem is reported, not only the first.

use proc_macro2::{Span, TokenStream};

/// The errors found while parsing and validating one `agent_test!` invocation.
#[derive(Default)]
pub(crate) struct Diagnostics {
    errors: Vec<syn::Error>,
}

impl Diagnostics {
    /// Records an error at `span`.
    pub(crate) fn error(&mut self, span: Span, message: impl std::fmt::Display) {
        self.errors.push(syn::Error::new(span, message));
    }

    /// Whether nothing is wrong so far.
    pub(crate) fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// The messages, for tests.
    #[cfg(test)]
    pub(crate) fn messages(&self) -> Vec<String> {
        self.errors.iter().map(ToString::to_string).collect()
    }

    /// Every error as a `compile_error!` item, in the order found.
    pub(crate) fn to_tokens(&self) -> TokenStream {
        self.errors
            .iter()
            .map(syn::Error::to_compile_error)
            .collect()
    }
}
