//! Collected compile errors: every problem is reported, not only the first, and none is lost.
//!
//! Like serde_derive's `Ctxt`, the collector must be consumed: [`Diagnostics::into_tokens`]
//! turns it into `compile_error!`s. Dropping it unconsumed would silently lose errors (the
//! user's code would compile, unchecked), so it is a bug caught in tests and debug builds.

use proc_macro2::{Span, TokenStream};

/// The errors found while parsing and validating one `agent_test!` invocation.
pub(crate) struct Diagnostics {
    /// `None` once consumed.
    errors: Option<Vec<syn::Error>>,
}

impl Diagnostics {
    /// No error yet.
    pub(crate) fn new() -> Self {
        Diagnostics {
            errors: Some(Vec::new()),
        }
    }

    fn errors(&mut self) -> &mut Vec<syn::Error> {
        self.errors.get_or_insert_with(Vec::new)
    }

    /// Records an error at `span`.
    pub(crate) fn error(&mut self, span: Span, message: impl std::fmt::Display) {
        self.errors().push(syn::Error::new(span, message));
    }

    /// Whether nothing is wrong so far.
    pub(crate) fn is_empty(&self) -> bool {
        self.errors.as_ref().is_none_or(Vec::is_empty)
    }

    /// Every error as a `compile_error!` item, in the order found: the way to finish.
    pub(crate) fn into_tokens(mut self) -> TokenStream {
        self.errors
            .take()
            .unwrap_or_default()
            .into_iter()
            .map(syn::Error::into_compile_error)
            .collect()
    }

    /// The messages, for tests: the other way to finish.
    #[cfg(test)]
    pub(crate) fn into_messages(mut self) -> Vec<String> {
        let errors = self.errors.take().unwrap_or_default();
        errors.iter().map(ToString::to_string).collect()
    }
}

impl Drop for Diagnostics {
    fn drop(&mut self) {
        // A collector still holding its list (even an empty one) was dropped on a path that
        // forgot to report it: a bug in the macro, whatever the input. `debug_assert!` (not
        // `panic!`, which the crate denies because no input may make the macro panic) makes
        // every test that takes such a path fail, errors or not; the entry point's
        // `catch_unwind` turns it into a compile error in debug builds. Not while unwinding
        // already (the macro panicked elsewhere): a second panic would abort.
        debug_assert!(
            std::thread::panicking() || self.errors.is_none(),
            "agent_test!: diagnostics dropped without being reported: {:?}",
            self.errors
                .iter()
                .flatten()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::Diagnostics;
    use proc_macro2::Span;

    #[test]
    fn consumed_errors_become_compile_errors() {
        let mut diag = Diagnostics::new();
        diag.error(Span::call_site(), "first");
        diag.error(Span::call_site(), "second");
        assert!(!diag.is_empty());
        let text = diag.into_tokens().to_string();
        assert_eq!(text.matches("compile_error").count(), 2, "{text}");
    }

    #[test]
    fn an_empty_collector_is_consumed_too() {
        assert!(Diagnostics::new().into_tokens().is_empty());
    }

    #[test]
    #[should_panic(expected = "diagnostics dropped without being reported: [\"lost\"]")]
    fn dropping_unreported_errors_is_a_bug() {
        let mut diag = Diagnostics::new();
        diag.error(Span::call_site(), "lost");
        drop(diag);
    }

    #[test]
    #[should_panic(expected = "diagnostics dropped without being reported: []")]
    fn dropping_an_unconsumed_collector_is_a_bug_even_without_errors() {
        drop(Diagnostics::new());
    }
}
