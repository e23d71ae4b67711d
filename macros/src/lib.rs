//! The `agent_test!` macro. Use it through the `agent-test` crate, which documents it.
//!
//! Pipeline: [`syntax`] parses leniently into a small tree (never failing), [`validate`]
//! checks what can be known at compile time, [`expand`] always produces the full expansion;
//! every diagnostic is appended as a `compile_error!` at the user's span.

// The macro must never panic on any input: no unwrap, expect, panic or indexing outside tests.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

mod diag;
mod expand;
mod files;
mod fix;
mod json_lit;
mod keywords;
mod source_text;
mod syntax;
mod tools;
mod validate;

#[cfg(test)]
mod tests;

use proc_macro2::TokenStream;

/// Expands a suite of agent scenarios into `#[test]` functions, each a single call of the
/// runtime's hidden entry point (which runs the scenario on a current-thread tokio runtime).
/// See the `agent-test` crate for the grammar and examples.
#[proc_macro]
pub fn agent_test(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input: TokenStream = input.into();
    // The macro must never panic (an editor would lose all help inside it); should a bug make
    // it panic anyway, say so as a compile error instead of an opaque "proc macro panicked".
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| expand_suite(input))) {
        Ok(tokens) => tokens.into(),
        Err(_) => quote::quote! {
            ::core::compile_error! { "internal error in agent_test!: the macro panicked on this input; please report it" }
        }
        .into(),
    }
}

/// `agent_test!` for seed-format test files: `agent_test_files!("tests/cases/**/*.json")` is
/// `agent_test! { files "tests/cases/**/*.json"; }`; any other input is read as `agent_test!`'s.
#[proc_macro]
pub fn agent_test_files(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    agent_test(files_shorthand(input.into()).into())
}

/// `"<glob>"` as `files "<glob>";`; any other input unchanged.
pub(crate) fn files_shorthand(input: TokenStream) -> TokenStream {
    let mut tokens = input.clone().into_iter();
    match (tokens.next(), tokens.next()) {
        (Some(lit @ proc_macro2::TokenTree::Literal(_)), None) => {
            let files = proc_macro2::Ident::new("files", lit.span());
            quote::quote! { #files #lit; }
        }
        _ => input,
    }
}

/// Parse, validate and expand; diagnostics follow the expansion.
pub(crate) fn expand_suite(input: TokenStream) -> TokenStream {
    let mut diag = diag::Diagnostics::new();
    let input = syntax::limit_nesting(input, &mut diag);
    let mut suite = syntax::parse_suite(input, &mut diag);
    fix::fix(&mut suite, &mut diag);
    validate::validate(&suite, &mut diag);
    let mut out = expand::expand(&suite, &mut diag);
    out.extend(diag.into_tokens());
    out
}
