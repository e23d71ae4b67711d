//! The expansion: one suite function, and one `#[test]` per scenario whose body is a single
//! call of the non-generic runtime entry point `__private::test_scenario`, handed data (name,
//! description, place) and closures (the suite function, the scenario's body as an async
//! block on the run). The runtime owns the tokio runtime, the repeats, the report and the
//! verdict, compiled once; each test only adds its own steps. `files "..."` cases are single
//! calls of `__private::test_file_case` alike.
//!
//! The shape never depends on whether the input is valid (rust-analyzer compares the
//! expansion of the real and of the completion-marked input), every user expression is
//! emitted exactly once, in braces, in an argument position of known type, and everything is
//! named through `::agent_test::__private`. Assertion logic lives in the runtime.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use crate::syntax::{ContextEntry, Place, ScenarioAst, Stmt, SuiteAst, UserExpr};

pub(crate) fn expand(suite: &SuiteAst, diag: &mut crate::diag::Diagnostics) -> TokenStream {
    let suite_fn = suite_fn_name(suite);
    let runtime_fn = runtime_fn_name(&suite_fn);
    // The prelude, imported once beside the generated items, as a glob: a name of the user's
    // own module (a `fn judge`, a `use my::tool`) wins over it, in settings and scenarios
    // alike; the generated code itself names everything by its full path.
    let mut out = quote! {
        #[allow(unused_imports)]
        use ::agent_test::prelude::*;
    };
    out.extend(suite_item(suite, &suite_fn, diag));
    out.extend(runtime_item(suite, &runtime_fn));
    out.extend(crate::tag_filter::tracked());
    let filter = crate::tag_filter::Filter::of(suite);
    let mut names: Vec<String> = Vec::new();
    for s in &suite.scenarios {
        // A duplicate (reported by `validate`) gets a test name of its own, so rustc does not
        // add a second error on the whole invocation.
        let mut name = s.name.to_string();
        let mut n = 1;
        while names.contains(&name) {
            n += 1;
            name = format!("{}_{n}", s.name);
        }
        let ident = Ident::new(&name, s.name.span());
        names.push(name);
        // A scenario the user ignores stays as they wrote it.
        let own_ignore = s
            .attrs
            .iter()
            .any(|a| a.to_string().starts_with("# [ignore"));
        let ignore = if own_ignore {
            TokenStream::new()
        } else {
            filter.ignore(crate::tag_filter::scenario_tags(s).as_deref())
        };
        out.extend(scenario_item(s, &ident, &suite_fn, &runtime_fn, &ignore));
    }
    out.extend(crate::files::expand(
        suite,
        &suite_fn,
        &runtime_fn,
        &filter,
        diag,
    ));
    out
}

/// The setting that is not the suite's: `runtime = ..;` chooses the tokio runtime the test
/// builds before any suite exists (building one evaluates the agent expression).
pub(crate) const RUNTIME: &str = "runtime";

/// `__agent_test_runtime_<hash>`: the suite's runtime flavour, beside its suite function.
fn runtime_fn_name(suite_fn: &Ident) -> Ident {
    let name = suite_fn.to_string().replace("_suite_", "_runtime_");
    Ident::new(&name, Span::call_site())
}

/// The suite's `runtime = ..;`, else the default, as a function every test calls (the
/// expression written once, in the position of its type).
fn runtime_item(suite: &SuiteAst, runtime_fn: &Ident) -> TokenStream {
    let value = suite
        .settings
        .iter()
        .find(|s| s.name == RUNTIME)
        .map_or_else(
            || quote! { ::agent_test::__private::RuntimeFlavor::shared() },
            |s| {
                let v = s.value.braced();
                quote! { #v }
            },
        );
    quote! {
        #[doc(hidden)]
        #[cfg_attr(miri, unstable(feature = "agent_test_internals", issue = "none"))]
        #[allow(dead_code, non_snake_case, unused_braces, unexpected_cfgs)]
        fn #runtime_fn() -> ::agent_test::__private::RuntimeFlavor {
            #value
        }
    }
}

/// Named after the scenarios, so it is unique per invocation and stable while the user types
/// inside scenario bodies.
fn suite_fn_name(suite: &SuiteAst) -> Ident {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let names = suite.scenarios.iter().map(|s| s.name.to_string());
    let patterns = suite.files.iter().map(|f| f.pattern.clone());
    for name in names.chain(patterns) {
        for b in name.bytes().chain([0]) {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format_ident!("__agent_test_suite_{:016x}", hash)
}

/// `#[cfg(rust_analyzer)] let _ = ::agent_test::dsl::<place>::<word>;`: the word the user
/// wrote (with its span), pointed at its documented item, so the editor shows its docs on
/// hover, goes to it, and completes a word being typed with the words valid there. rustc never
/// sees it.
pub(crate) fn word_ref(word: &Ident, place: &str) -> TokenStream {
    let place = Ident::new(place, Span::call_site());
    quote! {
        #[cfg(rust_analyzer)]
        let _ = ::agent_test::dsl::#place::#word;
    }
}

fn suite_item(
    suite: &SuiteAst,
    suite_fn: &Ident,
    diag: &mut crate::diag::Diagnostics,
) -> TokenStream {
    let words = suite.words.iter().map(|w| word_ref(w, "in_suite"));
    let tools = crate::tools::expand(suite, diag);
    let settings = suite
        .settings
        .iter()
        .filter(|s| s.name != RUNTIME)
        .map(|s| {
            let method = Ident::new(&s.name.to_string(), s.name.span());
            let value = s.value.braced();
            quote! { .#method(#value) }
        });
    let context = suite.context.iter().map(|e| {
        let (key, value) = context_parts(e);
        quote! { .context(#key, #value) }
    });
    let orphans = suite.orphans.iter().map(|e| {
        let value = e.braced();
        quote! { let _ = #value; }
    });
    // `unstable` under `cfg(miri)`, which rust-analyzer sets by default (and rustc only under
    // Miri): the editor then keeps this function out of completion, as it does unstable items.
    quote! {
        #[doc(hidden)]
        #[cfg_attr(miri, unstable(feature = "agent_test_internals", issue = "none"))]
        #[allow(dead_code, non_snake_case, unused_variables, unused_braces, unexpected_cfgs)]
        fn #suite_fn() -> ::agent_test::__private::Suite {
            #(#words)*
            #(#orphans)*
            ::agent_test::__private::Suite::new() #(#settings)* #(#context)* #tools
        }
    }
}

fn context_parts(e: &ContextEntry) -> (Literal, proc_macro2::Group) {
    let mut key = Literal::string(&e.key);
    key.set_span(e.key_span);
    (key, e.value.braced())
}

fn scenario_item(
    s: &ScenarioAst,
    name: &Ident,
    suite_fn: &Ident,
    runtime_fn: &Ident,
    ignore: &TokenStream,
) -> TokenStream {
    let docs = &s.docs;
    let attrs = &s.attrs;
    let run = run_ident();
    let name_str = Literal::string(&name.to_string());
    let description = Literal::string(&s.description);
    let body = stmts(&s.body, false);
    // The scenario's own `runtime = ..;` (emitted here, not as a step), else the suite's.
    let flavor = s
        .body
        .iter()
        .find_map(|stmt| match stmt {
            Stmt::Setting { name, value } if name == RUNTIME => Some(value.braced()),
            _ => None,
        })
        .map_or_else(|| quote! { #runtime_fn() }, |v| quote! { #v });
    // The scenario's line, and the call's place: the runtime entry point is `#[track_caller]`,
    // so a failing test's panic points at the scenario's name.
    let line = quote_spanned! {name.span()=> ::core::line!() };
    let args = quote! {
        &::agent_test::__private::ScenarioSource {
            name: #name_str,
            description: #description,
            module: ::core::module_path!(),
            file: ::core::file!(),
            line: #line,
        },
        #suite_fn,
        #flavor,
        &mut |#run: &mut ::agent_test::__private::ScenarioRun| {
            ::agent_test::__private::Box::pin(async move { #body })
        },
    };
    let call = quote_spanned! {name.span()=> ::agent_test::__private::test_scenario(#args) };
    quote! {
        #(#docs)*
        #[test]
        #ignore
        #(#attrs)*
        #[allow(unused_braces, unexpected_cfgs)]
        fn #name() {
            #call;
        }
    }
}

/// The run's variable: invisible to user code (mixed-site hygiene), so it cannot clash.
fn run_ident() -> Ident {
    Ident::new("__agent_test_run", Span::mixed_site())
}

fn stmts(body: &[Stmt], in_turn: bool) -> TokenStream {
    let run = run_ident();
    let mut out = TokenStream::new();
    for stmt in body {
        out.extend(match stmt {
            Stmt::Context(entries) => entries
                .iter()
                .map(|e| {
                    let (key, value) = context_parts(e);
                    quote! { #run.context(#key, #value); }
                })
                .collect(),
            Stmt::History(e) => {
                let value = e.braced();
                quote! { #run.history(#value); }
            }
            Stmt::System(e) => {
                let value = e.braced();
                quote! { #run.system(#value); }
            }
            Stmt::User {
                binding,
                input,
                checks,
            } => {
                let input = user_input(input);
                // Always a block, empty or not: the editor completes in `user ".." { }` too.
                let inner = stmts(checks, true);
                let checks = quote! { { #inner } };
                let bind = binding
                    .as_ref()
                    .map(|pattern| quote! { #pattern = #run.__last_turn(); });
                quote! {
                    #run.user(#input).await;
                    #checks
                    #bind
                }
            }
            Stmt::Extract { binding, what } => {
                let what = what.braced();
                quote! { #binding = #run.extract(#what).await; }
            }
            Stmt::Simulate { user, checks } => {
                let user = if user.is_empty() {
                    quote! { "" }
                } else {
                    let g = user.braced();
                    quote! { #g }
                };
                let inner = stmts(checks, true);
                quote! {
                    #run.simulate(#user, |#run: &mut ::agent_test::__private::ScenarioRun| {
                        #inner
                    })
                    .await;
                }
            }
            Stmt::Expect(e) => {
                let check = e.braced();
                let mut label = Literal::string(&e.source());
                label.set_span(e.span);
                quote! { #run.__expect(#check, #label, #in_turn); }
            }
            // Read before the run starts (see `scenario_item`).
            Stmt::Setting { name, .. } if name == RUNTIME => TokenStream::new(),
            Stmt::Setting { name, value } => {
                let method = Ident::new(&name.to_string(), name.span());
                let value = value.braced();
                quote! { #run.#method(#value); }
            }
            Stmt::Rust(tokens) => tokens.clone(),
            Stmt::Word(word, place) => word_ref(
                word,
                match place {
                    Place::Scenario => "in_scenario",
                    Place::Turn => "in_turn",
                },
            ),
        });
    }
    // The place at the end of the block, for the editor (see `editor_place`) — not after a
    // statement still being written (`expect ` with no check yet): the editor completes inside
    // it, and the place would change what the cursor's offset falls on in the expansion.
    let unfinished = match body.last() {
        Some(Stmt::Expect(e)) => e.is_empty(),
        // A word with nothing after it yet (`expect` with no check).
        Some(Stmt::Word(..)) => true,
        _ => false,
    };
    if !unfinished {
        out.extend(editor_place(in_turn));
    }
    out
}

/// `#[cfg(rust_analyzer)] let _ = ::agent_test::dsl::<place>::__;` at the end of every block.
/// rust-analyzer completes inside a macro by expanding the text with a marker inserted at the
/// cursor and reading the expansion of the text as written at the marker's offset: with
/// nothing typed at the end of a body, that offset would fall past the expansion's end, or on
/// unrelated code, and nothing would be offered. This statement is the same path as a word's,
/// so the marker's offset falls on its `__`, in the same path: the block's words are offered.
/// rustc never sees it.
fn editor_place(in_turn: bool) -> TokenStream {
    let place = if in_turn { "in_turn" } else { "in_scenario" };
    word_ref(&Ident::new("__", Span::call_site()), place)
}

/// The message of a `user` turn or the simulated user: a message through
/// `__private::user_message` (a targeted error for anything that is not text), spanned at the
/// user's expression.
fn user_input(input: &UserExpr) -> TokenStream {
    if input.is_empty() {
        // The error is already reported; keep the call so the expansion's shape is stable.
        quote! { "" }
    } else {
        let g = input.braced();
        quote_spanned! {input.span=> ::agent_test::__private::user_message(#g) }
    }
}
