//! The `agent_test!` macro. Use it through the `agent-test` crate, which re-exports it; the
//! grammar is the macro's own documentation.
//!
//! Pipeline: `syntax` parses leniently into a small tree (never failing), `validate`
//! checks what can be known at compile time, `expand` always produces the full expansion;
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
mod literals;
mod source_text;
mod syntax;
mod tag_filter;
mod tools;
mod validate;
mod validate_settings;
mod vocabulary;

#[cfg(test)]
mod tests;

use proc_macro2::TokenStream;

/// Test scenarios for an agent: each `scenario` becomes a test (run on a current-thread tokio
/// runtime, as with `#[tokio::test]`) that drives the agent through the user turns, records what
/// it did and evaluates every check, reporting all failures of the scenario at once.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::Clock;
/// use agent_test::model::Message;
/// use std::time::Duration;
/// # use agent_test::agent::{Agent, agent_fn};
/// # fn my_agent() -> impl Agent { agent_fn(|_r| async { "Hello! Your booking reference is BK-4100." }) }
/// # async fn create_test_customer() -> u32 { 7 }
///
/// agent_test! {
///     // Suite settings: `agent` is required; the others are optional.
///     agent = my_agent();                    // any expression implementing `Agent`
///     timeout = Duration::from_secs(30);     // per turn (default 120 s)
///     report_dir = "target/my-reports";      // where JSON reports go (default target/agent-test)
///     clock = Clock::fixed("2026-11-23T09:30:00Z");  // "now" for dates (default: the wall clock)
///     timezone = "Europe/Lisbon";            // the time zone dates are read in (default UTC)
///     context { CUSTOMER_EMAIL: "ana@example.com" }   // context variables for every scenario
///
///     /// Doc comments become the scenario's description in reports.
///     #[cfg(not(miri))]                    // attributes go on the generated test
///     scenario booking_flow {
///         timeout = Duration::from_secs(60);                     // scenario settings: all but report_dir
///         context { PLAN: "premium", "USER_ID": 12345 }        // scenario context (wins over the suite's)
///         history [Message::user("Hi"), Message::assistant("Hello!")];   // prior conversation
///         system "Answer briefly.";                              // a system message, no agent call
///
///         let id = create_test_customer().await;                // ordinary Rust between steps
///         user format!("Book hotel H-101 for customer {id}") {  // any expression: the user's message
///             expect tool("create_booking").arg("hotel_id", "H-101");   // checks on this turn
///         }
///         let turn = user "And the reference?";                  // bind what the agent did
///         assert!(turn.reply.text.contains("BK-"));
///
///         expect reply().matches(r"BK-\d{4}");                   // after the turns: whole conversation
///         expect tool("create_booking").times(1);
///     }
/// }
/// # fn main() {}
/// ```
///
/// The checks (`tool(..)`, `reply()`, `judge(..)`, matchers…) are ordinary functions and methods
/// of `agent_test::check` and `agent_test::matcher`, all in `agent_test::prelude`; their reference
/// is in those modules' documentation. The macro owns only the skeleton below.
///
/// # Statements
///
/// | statement | meaning |
/// |---|---|
/// | `agent = <expr>;` | the agent under test (required at suite level; a scenario may override it). The expression is evaluated for **every run** of a scenario: once per scenario, and again for each repeat — see [Agents and repeats](#agents-and-repeats) |
/// | `timeout = <expr>;` | a `Duration`: how long one turn may take (default 120 s; suite or scenario level) |
/// | `report_dir = <expr>;` | where JSON reports are written (default `target/agent-test`; suite level) |
/// | `clock = <expr>;` | a `Clock`: where "now" comes from for dates (default the wall clock; suite or scenario level) |
/// | `timezone = <expr>;` | an IANA time-zone name for dates (default `UTC`; suite or scenario level) |
/// | `judge = <expr>;` | a `Judge` grading the judged checks (`judge(..)`, `free_text(..)`, …; suite or scenario level). Without it, `Judge::from_env()` when the environment names a judge |
/// | `repeat = <n>;` / `min_passes = <m>;` | run each scenario `n` times, `m` of which must pass ([repeats](#repeats); suite or scenario level) |
/// | `max_cost_usd = <f64>;` | stops spending at that many US dollars: once the agent's turns, priced by `prices`, cost that much, no further turn or run of the block's scenarios starts, and each scenario with a turn left reports "budget spent" (an error); the block's scenarios share it (suite level) |
/// | `min_pass_rate = (<rate>, <confidence>);` | the repeated runs pass only if their pass rate is at least `rate` with that confidence (the lower bound of its Wilson interval; `min_pass_rate = 0.9;` is at 95 %) — [repeats](#repeats); suite or scenario level |
/// | `prices = <Prices>;` | the price table giving each turn its cost, shown in the reports and budgeted by `expect cost().at_most_usd(x);` (`Prices::from_file("prices.json")`, `Prices::new().model(..)`, or the dated `Prices::builtin()`; suite or scenario level) |
/// | `runtime = <RuntimeFlavor>;` | the tokio runtime a test runs on: one shared by every scenario of the test binary by default (a client built once in a `LazyLock` works in all of them), `RuntimeFlavor::current_thread()` for a runtime of the test's own (as `#[tokio::test]`), `RuntimeFlavor::multi_thread(n)` for an agent that calls `block_in_place` or needs parallelism (suite or scenario level; a test attribute such as `#[tokio::test]` on a scenario is an error saying so) |
/// | `tags = ["billing", "slow"];` | tags shown in the reports, with a filter in the HTML page `agent-test report` writes (`AGENT_TEST_TAGS=smoke cargo test` runs only the scenarios tagged `smoke`, listing the others as ignored; `agent-test run --tag` for data files) (anything `IntoIterator` of strings; each tag one word, listed once; suite or scenario level — the suite's come first) |
/// | `tools = "tools.json";` | the agent's tools as it declares them to its model (OpenAI's tools list, Anthropic's or MCP's), read at compile time from a file relative to the crate, or inline as `tools = json!([...]);` — see [declared tools](#declared-tools) (suite level) |
/// | `tools { name: Type, ... }` | tools whose arguments are Rust types deriving `schemars::JsonSchema` (suite level) |
/// | `context { KEY: <expr>, ... }` | context variables (any `Serialize` value), passed to the agent with every turn and usable in expressions; suite or scenario level (the scenario's win) |
/// | `scenario name { ... }` | one test named `name` (so `cargo test name` filters), run on a current-thread tokio runtime as `#[tokio::test]` would; `///` docs and `#[...]` attributes go on the test |
/// | `files "<glob>";` | one test per case of every test file the pattern matches (relative to the crate) — agent-test's own scenario JSON or a seed format — read and checked at compile time ([test files](#test-files)) |
/// | `user <expr>;` | a user turn: sends the message (anything `Into<String>`) with the conversation so far and records the reply |
/// | `user <expr> { expect ...; }` | a user turn with checks on that turn (Rust statements may sit between the checks) |
/// | `let <pattern> = user <expr> ...;` | a turn whose record (`Turn`: reply text, calls, usage, latency) is bound for later Rust code |
/// | `system <expr>;` | a system message, seen by the agent with the next turn |
/// | `history <expr>;` | messages (`impl IntoIterator<Item = Message>`) added before the next turn — prior history when written first |
/// | `let <pattern>: T = extract <expr>;` | a model extracts the described value into a `T` ([model-powered steps](#model-powered-steps)) |
/// | `simulate <expr> { expect ...; }` | a model plays the user for several turns; the checks run after each ([model-powered steps](#model-powered-steps)) |
/// | `expect <check>;` | a check: on the turn inside a turn's block (`.so_far()`: every turn up to it), on the whole conversation elsewhere |
/// | anything else | ordinary Rust: `let`, `.await`, loops, `assert!`… |
///
/// At the start of a statement, `user`, `system`, `history`, `expect` and `context` are the DSL's
/// words (`user.name` or `expect!(..)` stay Rust). Use parentheses for a message expression that
/// contains a top-level `{ ... }` block: `user (if vip { "a" } else { "b" });`. A scenario takes the
/// settings `agent`, `judge`, `timeout`, `clock`, `timezone`, `repeat`, `min_passes`,
/// `min_pass_rate`, `prices`, `tags` and `runtime`;
/// `report_dir` and `tools` are the suite's. Options of a check (`.id`, `.depends_on`,
/// `.warning()`, `.severity`, `.label`, `.so_far()`) go last, after the check's own methods.
/// `return` in a scenario ends its steps; the checks written before it are still evaluated.
/// The prelude is glob-imported beside the code the macro generates, so your module's own names
/// win over it: a function of yours named like a prelude item (`judge`, `tool`, `check`,
/// `field`, …) is the one settings and scenarios call (write `agent_test::prelude::tool(..)`
/// for the prelude's there).
///
/// # Agents and repeats
///
/// The suite's settings are evaluated for every run of a scenario: each scenario's test builds
/// them afresh (so scenarios, which run as separate tests and possibly in parallel, share
/// nothing), and with `repeat = n;` each of the `n` runs builds them again — the `agent = ..;`
/// expression included, and a scenario's own `agent = ..;` likewise. An agent that keeps state
/// (a conversation memory, a mock's call log) therefore starts fresh on every repeat; state meant
/// to outlive a run belongs in something the expression clones (an `Arc`) or in a `static`. The
/// agent is not built once per test binary, and not once per test either when it repeats.
///
/// # Repeats
///
/// `repeat = 5;` (suite or scenario) runs each scenario five times; `min_passes = 4;` requires 4
/// of them to pass (default: all). `repeat = 0`, `min_passes = 0` and more passes than runs can
/// never mean what they say: a compile error when written as literals, an error verdict otherwise
/// (nothing is rounded to a value that works). The report gives each check's pass count and flags
/// **flaky** checks (passed in some runs, failed in others), and shows the last failing run in
/// full. Each repeat is judged independently: the repeat index is part of every judge cache key.
///
/// Reports say how reliable a repeated scenario is: its pass rate with a Wilson confidence
/// interval, pass^k (the chance that k tries *all* pass, τ-bench's reliability measure) and
/// pass@k (the chance that at least one of k tries passes), for the scenario and each check.
/// `min_pass_rate = (0.9, 0.95);` gates on the interval: the runs pass only if the pass rate is
/// at least 0.9 with 95 % confidence. It replaces "every run must pass" (a `min_passes` written
/// too must hold as well). Proving a rate takes runs — 0.9 at 95 % needs at least 35, all
/// passing — and a `repeat` too small to ever prove it is an error verdict saying how many
/// runs it needs; a rate or confidence outside (0, 1) is a compile error.
///
/// # Declared tools
///
/// Declare the agent's tools and the macro checks every check that names one:
///
/// ```
/// use agent_test::prelude::*;
/// # use agent_test::agent::{Agent, agent_fn};
/// # fn my_agent() -> impl Agent { agent_fn(|_r| async { "Found 3 hotels." }) }
///
/// agent_test! {
///     agent = my_agent();
///     // The file the agent hands its model, relative to the crate (or inline: `json!([..])`).
///     tools = json!([{"type": "function", "function": {"name": "search_hotels", "parameters": {
///         "type": "object",
///         "properties": {"city": {"type": "string"}, "guests": {"type": "integer"}}
///     }}}]);
///
///     scenario search {
///         user "Find a hotel in Madrid for two" {
///             expect tool("search_hotels").arg("city", "Madrid").arg("guests", 2);
///         }
///     }
/// }
/// # fn main() {}
/// ```
///
/// At compile time, `tool("search_hotel")`, `no_tool(..)`, `tool_call(..)`, the names in
/// `tool_sequence([..])`, `required_tools([..])`, `forbidden_tools([..])` and trajectories must be
/// declared tools, and so must the tool of `.args_mode_for(..)`, `.compare_fields(..)` and
/// `.compare_with(..)` ("unknown tool `search_hotel`; did you mean `search_hotels`?");
/// `.arg("cty", ..)` and the keys of `.args(json!({..}))` must be declared arguments (dot paths
/// into nested objects too), and a literal must have the argument's JSON type and be one of its
/// `enum` values ("argument `guests` of `search_hotels` is an integer in the declared tools, not a
/// string"). At run time, every call the agent made is checked against the declaration — a
/// declared name, arguments valid against the declared schema — as one more check of each
/// scenario in which the agent called tools. Tools whose arguments are Rust types are declared as
/// `tools { search_hotels: SearchArgs, book_hotel: BookArgs }`: their schemas come from
/// `schemars::JsonSchema` (derive it with your own `schemars` 1 dependency, and enable
/// agent-test's `schemars` feature, which brings `schema`: declared tools are validated against
/// their schemas, and declaring them without `schema` is a compile error naming it), their names
/// are checked at compile time, their arguments at run time.
///
/// # Test files
///
/// `files "<glob>";` (or `agent_test_files!("<glob>")` alone) reads test files **at compile
/// time** — agent-test's own scenario JSON or any of the five seed formats — and makes every case
/// a test named after the file and the case (`hotel_search__hotel_search_passes_the_right_arguments`).
/// Cases that carry a recorded run (MorganaBench `outputs`) are evaluated on it; the others run
/// against the suite's agent, with its context and judge.
///
/// ```
/// use agent_test::prelude::*;
/// # use agent_test::agent::{Agent, agent_fn};
/// # fn demo_agent() -> impl Agent { agent_fn(|_r| async { "Your booking is confirmed." }) }
///
/// agent_test! {
///     agent = demo_agent();
///     context { CUSTOMER_EMAIL: "ana@example.com" }
///     // Relative to the crate's directory (this example, compiled in the `agent-test-macros`
///     // crate, reads the repository's docs/seeds/; yours would be `tests/cases/**/*.json`).
///     files "../docs/seeds/*.json";
///     files "../docs/seeds/*.yaml";
/// }
/// # fn main() {}
/// ```
///
/// A malformed file is a compile error on the pattern naming the file, the path inside it and
/// what was expected (`cases/order.json: at assertions.procedural[0].feild: unknown field `feild`
/// (did you mean `field`?), expected one of ...`), and so is a pattern that matches nothing.
/// Editing a file recompiles its tests; a *new* file needs a rebuild (`touch` the test file, or a
/// `build.rs` with `cargo:rerun-if-changed=tests/cases`). The formats and their meaning are
/// described in the repository's `docs/seed-formats.md`.
///
/// # Model-powered steps
///
/// The judge's model also powers two steps, cached and replayable like verdicts:
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::simulated_user;
/// use agent_test::judge::Judge;
/// # use agent_test::agent::{Agent, agent_fn};
/// # fn support_agent() -> impl Agent { agent_fn(|_r| async { "Booked! Your reference is BK-4100." }) }
///
/// agent_test! {
///     agent = support_agent();
///     judge = Judge::from_env();
///
///     scenario booking_then_follow_up {
///         user "Book the Sol Hostel for 2 nights";
///         // A model extracts a described value into a typed binding (from the last reply, or
///         // `Extraction::new("..").from_transcript()`).
///         let reference: String = extract "the booking reference";
///         user format!("Can I add breakfast to {reference}?");
///     }
///
///     scenario impatient_customer {
///         // A model plays the user, pursuing an objective for 2..=6 turns; the block's checks run
///         // after every turn. It stops when the objective is met (`.continue_after_pass()` to go on).
///         simulate simulated_user("get a refund for the double charge on ORD-9921")
///             .persona("an impatient customer who writes short messages")
///             .turns(2..=6)
///         {
///             expect reply().not_contains("error");
///         }
///         expect tool("process_refund").times(1);
///     }
/// }
/// # fn main() {}
/// ```
///
/// An extraction that finds nothing, or whose answer does not fit the binding's type, records an
/// **error** verdict and continues with the type's default value; a simulated user reports
/// "simulated user reached the objective" (failed when it did not within the maximum turns).
///
/// For HTTP setup and verification calls, `agent_test::request::{get, post}` (with the `http`
/// feature) returns the status and JSON body for later steps:
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::request;
/// # use agent_test::agent::{Agent, agent_fn};
/// # fn my_agent() -> impl Agent { agent_fn(|_r| async { "Welcome back!" }) }
///
/// agent_test! {
///     agent = my_agent();
///
///     scenario returning_customer {
///         let account = request::post("http://127.0.0.1:8080/accounts")
///             .json(json!({"name": "Ana"}))
///             .send()
///             .await
///             .expect("the accounts service answers");
///         user format!("Hi, I am customer {}", account.json["id"]);
///         expect reply().contains("welcome");
///     }
/// }
/// # fn main() {}
/// ```
///
/// # Checked at compile time
///
/// Each error on your code: invalid regex literals in `matches`, `not_matches` and `regex(..)`
/// (the same parser as the runtime's `regex` crate), malformed expression literals in `date(..)` /
/// `expr(..)` (unknown function, arity, unit, time, unknown context variable), malformed JSONPath
/// literals, JSON Schema literals (`schema(json!({..}))`, `matches_schema(..)`) that are invalid
/// against the meta-schema (every problem, not only the first), thresholds outside `0..=1`,
/// duplicate check ids and `depends_on` naming an unknown id (with "did you mean"), dependency
/// cycles, constraints that can never pass (`between(5, 1)`, `http_status(1000)`, `min_calls(0)`,
/// `turns(5..=2)`, `repeat = 0`, a scenario with no step and no check), unknown statement words,
/// items and settings (with "did you mean"; a misspelt `scenaro refund { .. }` is still expanded
/// as a scenario, so its body keeps completion and type checking), settings in the wrong place
/// (`report_dir` in a scenario, `timeout` in a turn's block) or given twice, duplicate or missing
/// scenario names, malformed `context` blocks, a missing `agent`, a missing `;` (at the end of the
/// statement that lacks it), test files (`files "..."`) that are malformed or match nothing, a
/// `json!` literal that gives a key twice, a `json!` object given as an expected value that reads
/// as a matcher (`.arg("id", json!({"regex": "^ORD-"}))`: write `regex("^ORD-")`, or
/// `exact(json!(..))` when the object is meant), and, with [declared tools](#declared-tools),
/// unknown tool and argument names and literals of the wrong JSON type. Every error is reported,
/// not only the first.
///
/// Values of the wrong type get targeted messages instead of a list of unrelated impls: `user 42`
/// ("a user message is text"), `contains(42)` ("`contains` takes text"), `timeout = 30` ("a
/// timeout is a `Duration`: write `timeout = Duration::from_secs(30);`"), `clock = "2026-.."`,
/// `judge = "gpt-4o"`, `tool("x").warning().arg(..)` ("options go last"), "`{integer}` is not a
/// check", "`&str` is not an agent", "`u32` is not a user message". Errors inside a scenario's
/// body (ordinary Rust between the steps) are rustc's own, on your code: the body is a test's
/// body.
///
/// # In the editor
///
/// The macro always expands, even on incomplete input, and keeps your expressions with their
/// spans: rust-analyzer completes `expect tool("x").` with the builder's methods (`arg`, `strict`,
/// `times`, …, `id`, `depends_on`, `warning`) and shows their docs. The DSL's words are documented
/// items of `agent_test::dsl` that the expansion points your words at: hovering `user`, `expect`
/// or `timeout` shows what they do, go-to-definition lands on them, and completion at the start
/// of a statement offers the words valid there (`us|` → `user`, `expect`, `system`, …; in a turn's
/// block only `expect`; at the top `timeout`, `scenario`, `tools`, …). The expansion's own names
/// stay out of completion. The repository's `scripts/ide_completion.py` checks all this with a
/// real rust-analyzer (0.0.340) at 30 cursors; its CI runs it.
///
/// # What it expands to
///
/// Each scenario becomes a `#[test]` whose body is one call of a hidden, non-generic runtime
/// function, handed the scenario's name, doc comment and place, the suite's settings (one hidden
/// function per `agent_test!`) and the body: an async block with one call on the run per step and
/// your Rust statements in between. The tokio runtime (current-thread, every driver enabled, as
/// `#[tokio::test]` builds it: `tokio::spawn`, timers and I/O work, and the body need not be
/// `Send`), the repeats, the JSON report and the verdict live in the runtime, compiled once: a
/// suite compiles faster than the same suite written by hand with the builder API. A failing
/// test's panic points at the scenario's name. Generated code names everything through
/// `::agent_test::__private`, so the dependency must be called `agent_test` (renaming it is not
/// supported).
///
/// `agent_test! { agent = my_agent(); scenario hello { user "hi"; expect reply().contains("hi"); } }`
/// expands to (from `macros/tests/expand/minimal.expanded.rs`, which, with its neighbours, pins
/// the expansion; the `cfg(rust_analyzer)` lines are for the editor only, and `cfg(miri)` — which
/// rust-analyzer sets by default — keeps the suite function out of completion; so a suite does not
/// compile under Miri, which could not drive agents anyway):
///
/// ```
/// # use agent_test::prelude::*;
/// # use agent_test::agent::{Agent, agent_fn};
/// # fn my_agent() -> impl Agent { agent_fn(|_r| async { "hi" }) }
/// #[doc(hidden)]
/// #[cfg_attr(miri, unstable(feature = "agent_test_internals", issue = "none"))]
/// #[allow(dead_code, non_snake_case, unused_variables, unused_braces, unexpected_cfgs)]
/// fn __agent_test_suite_a9bc8acca21f39b1() -> ::agent_test::__private::Suite {
///     #[cfg(rust_analyzer)]
///     let _ = ::agent_test::dsl::in_suite::agent;
///     #[cfg(rust_analyzer)]
///     let _ = ::agent_test::dsl::in_suite::scenario;
///     #[allow(unused_imports)]
///     use ::agent_test::prelude::*;
///     ::agent_test::__private::Suite::new().agent({ my_agent() })
/// }
/// #[test]
/// #[allow(unused_braces, unexpected_cfgs)]
/// fn hello() {
///     #[allow(unused_imports)]
///     use ::agent_test::prelude::*;
///     ::agent_test::__private::test_scenario(
///         &::agent_test::__private::ScenarioSource {
///             name: "hello",
///             description: "",
///             module: ::core::module_path!(),
///             file: ::core::file!(),
///             line: ::core::line!(),
///         },
///         __agent_test_suite_a9bc8acca21f39b1,
///         &mut |__agent_test_run: &mut ::agent_test::__private::ScenarioRun| {
///             ::agent_test::__private::Box::pin(async move {
///                 #[cfg(rust_analyzer)]
///                 let _ = ::agent_test::dsl::in_scenario::user;
///                 __agent_test_run
///                     .user(::agent_test::__private::user_message({ "hi" }))
///                     .await;
///                 #[cfg(rust_analyzer)]
///                 let _ = ::agent_test::dsl::in_scenario::expect;
///                 __agent_test_run
///                     .__expect(
///                         { reply().contains("hi") },
///                         "reply().contains(\"hi\")",
///                         false,
///                     );
///             })
///         },
///     );
/// }
/// # fn main() {}
/// ```
///
/// # Test binaries
///
/// Every file under `tests/` is its own test binary, and each links the runtime, tokio and the
/// HTTP stack: about 160 MB of debug binary per file. A suite of many files spends most of its
/// build linking. Put the scenarios in modules of **one** test binary instead — `tests/agent/main.rs`
/// with `mod booking; mod refunds;` and the files beside it (or a `[[test]]` target with a `path`
/// in `Cargo.toml`) — and `cargo test` links once; `cargo test booking::` still filters.
// The expansion shown in the documentation has its `#[test]`: it is compiled to prove that the
// expansion's names exist, not run.
#[allow(clippy::test_attr_in_doctest)]
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
