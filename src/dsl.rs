//! The words of [`agent_test!`](crate::agent_test), documented for your editor.
//!
//! `agent_test!` points each word you write at its item here, so hovering `user` or `expect`
//! shows what it does, go-to-definition lands on it, and completion at the start of a
//! statement offers the words valid there: [`in_suite`] at the top of the macro, [`in_scenario`]
//! in a scenario's body, [`in_turn`] in a turn's `{ ... }` block. They are not meant to be used
//! in code: each is a marker constant.
//!
//! The documentation of [`agent_test!`](crate::agent_test) has the full grammar.
#![allow(non_upper_case_globals)]

/// The type of the marker constants of [`dsl`](self): a word of `agent_test!`.
#[derive(Clone, Copy, Debug)]
pub struct Word;

/// `agent = <expr>;` — the agent under test: any expression implementing
/// [`Agent`](crate::agent::Agent). The expression is evaluated for every run of a scenario —
/// once per scenario, and again for each repeat — so an agent's state starts fresh on every
/// run. Required at the top of `agent_test!`; a scenario may set its own.
///
/// ```text
/// agent = my_agent();
/// ```
pub const agent: Word = Word;

/// `judge = <expr>;` — the [`Judge`](crate::judge::Judge) grading judged checks
/// (`judge("..")`, semantic matchers); suite or scenario level. Without it, `Judge::from_env()`.
///
/// ```text
/// judge = Judge::openai("gpt-4o-mini-2024-07-18");
/// ```
pub const judge: Word = Word;

/// `timeout = <Duration>;` — how long one turn may take (default 120 s); suite or scenario
/// level.
///
/// ```text
/// timeout = Duration::from_secs(30);
/// ```
pub const timeout: Word = Word;

/// `report_dir = <path>;` — where JSON reports are written (default `target/agent-test`).
/// Suite level only.
///
/// ```text
/// report_dir = "target/my-reports";
/// ```
pub const report_dir: Word = Word;

/// `clock = <Clock>;` — where "now" comes from for dates (default: the wall clock); suite or
/// scenario level.
///
/// ```text
/// clock = Clock::fixed("2026-11-23T09:30:00Z");
/// ```
pub const clock: Word = Word;

/// `timezone = "<IANA name>";` — the time zone dates are read in (default UTC); suite or
/// scenario level.
///
/// ```text
/// timezone = "Europe/Lisbon";
/// ```
pub const timezone: Word = Word;

/// `repeat = <n>;` — run each scenario `n` times; with [`min_passes`], `m` of them must pass.
/// Suite or scenario level.
///
/// ```text
/// repeat = 5;
/// min_passes = 4;
/// ```
pub const repeat: Word = Word;

/// `min_passes = <m>;` — how many of the [`repeat`]ed runs must pass (default: all).
pub const min_passes: Word = Word;

/// `min_pass_rate = (<rate>, <confidence>);` — the [`repeat`]ed runs pass only if their pass
/// rate is at least `rate` with that confidence: the lower bound of the pass rate's Wilson
/// score interval must reach it. `min_pass_rate = 0.9;` means 95 % confidence. It replaces the
/// default "every run must pass" ([`min_passes`], if written, must hold too). Both numbers are
/// more than 0 and less than 1; a literal outside is a compile error, and a rate the runs can
/// never prove (0.9 at 95 % needs 35 runs, all passing) an error verdict saying how many runs
/// it needs. Suite or scenario level.
///
/// ```text
/// repeat = 40;
/// min_pass_rate = (0.9, 0.95);
/// ```
pub const min_pass_rate: Word = Word;

/// `prices = <Prices>;` — the price table that gives every turn its cost (reports show it,
/// `expect cost().at_most_usd(0.05);` budgets it): `Prices::from_file("prices.json")`, your
/// own `Prices::new().model("m", input, output)`, or the dated `Prices::builtin()` — used
/// only when written. Suite or scenario level.
///
/// ```text
/// prices = Prices::builtin().unnamed_as("gpt-4o-mini");
/// ```
pub const prices: Word = Word;

/// `max_cost_usd = <f64>;` — stops spending: once the agent's turns, priced by `prices`, have
/// cost that many US dollars, no further turn or run of the block's scenarios starts, and each
/// scenario with a turn left reports "budget spent" — an error, never a pass. The scenarios of
/// the `agent_test!` block share it. Needs `prices`. Suite level.
///
/// ```text
/// max_cost_usd = 5.0;
/// ```
pub const max_cost_usd: Word = Word;

/// `runtime = <RuntimeFlavor>;` — the tokio runtime a test runs on: by default one runtime
/// shared by every scenario of the test binary (so a client built once in a `LazyLock` works in
/// all of them); `RuntimeFlavor::current_thread()` for a runtime of the test's own (as
/// `#[tokio::test]`), `RuntimeFlavor::multi_thread(n)` for an agent that calls
/// `block_in_place` or needs real parallelism. Suite or scenario level.
///
/// ```text
/// runtime = RuntimeFlavor::multi_thread(2);
/// ```
pub const runtime: Word = Word;

/// `tags = ["<tag>", ...];` — tags of the scenarios, shown in reports, filtered by the HTML
/// report and by `agent-test run --tag`. A tag is one word (no whitespace or commas), listed
/// once. Suite or scenario level: a scenario has the suite's tags, then its own.
///
/// ```text
/// tags = ["billing", "nightly"];
/// ```
pub const tags: Word = Word;

/// `tools = "tools.json";` — the agent's tools, as it declares them to its model (OpenAI's
/// tools list, Anthropic's or MCP's), read at compile time from a file relative to the crate,
/// or given inline as `tools = json!([...]);`. Suite level only.
///
/// Then an unknown tool or argument name in `tool("x").arg("y", ..)`, `no_tool`, sequences and
/// trajectories is a compile error (with "did you mean"), and so is a literal of the wrong
/// JSON type for the argument; at run time every call the agent made is checked against the
/// declared schema.
///
/// Tools whose arguments are Rust types deriving `schemars::JsonSchema` are declared as
/// `tools { name: Type, .. }`: their names are checked at compile time, their arguments at run
/// time.
///
/// ```text
/// tools = "tests/tools.json";
/// tools { search_hotels: SearchArgs, book_hotel: BookArgs }
/// ```
pub const tools: Word = Word;

/// `scenario <name> { ... }` — one test named `name` (so `cargo test name` filters): turns,
/// checks and Rust code. `///` docs describe it in reports; `#[...]` attributes go on the test.
///
/// ```text
/// /// Refunds a double charge.
/// scenario refund {
///     user "I was charged twice";
///     expect tool("process_refund");
/// }
/// ```
pub const scenario: Word = Word;

/// `context { KEY: <expr>, ... }` — context variables (any `Serialize` value) passed to the
/// agent with every turn and usable in expressions (`expr("USER_ID")`); suite or scenario level.
///
/// ```text
/// context { USER_ID: 12345, "PLAN": "premium" }
/// ```
pub const context: Word = Word;

/// `files "<glob>";` — one test per case of every test file the pattern matches (relative to
/// the crate): agent-test's own scenario JSON or a seed format, read and checked at compile
/// time. Suite level only.
///
/// ```text
/// files "tests/cases/*.json";
/// ```
pub const files: Word = Word;

/// `user <expr>;` — a user turn: sends the message (text) with the conversation so far and
/// records what the agent did. `user <expr> { expect ..; }` checks that turn;
/// `let turn = user <expr>;` binds the record ([`Turn`](crate::model::Turn)).
///
/// ```text
/// user "Where is my order?" {
///     expect reply().contains("order number");
/// }
/// ```
pub const user: Word = Word;

/// `system <expr>;` — a system message, seen by the agent with the next turn; no agent call.
///
/// ```text
/// system "Answer briefly.";
/// ```
pub const system: Word = Word;

/// `history <expr>;` — messages (`impl IntoIterator<Item = Message>`) added before the next
/// turn: prior conversation when written first.
///
/// ```text
/// history [Message::user("Hi"), Message::assistant("Hello!")];
/// ```
pub const history: Word = Word;

/// `expect <check>;` — a check: on the turn inside a turn's block, on the whole conversation
/// after the turns. Checks are functions and methods of [`check`](crate::check) (all in the
/// prelude): `reply().contains(..)`, `tool("x").arg(..)`, `no_tool(..)`, `judge(..)`, …;
/// options (`.id`, `.depends_on`, `.warning()`) go last.
///
/// ```text
/// expect tool("lookup_order").arg("order_id", "ORD-9921");
/// ```
pub const expect: Word = Word;

/// `let <pattern>: T = extract <expr>;` — a model extracts the described value from the
/// conversation into a `T`.
///
/// ```text
/// let order: String = extract "the order number the agent confirmed";
/// ```
pub const extract: Word = Word;

/// `simulate <simulated user> { expect ..; }` — a model plays the user for several turns; the
/// checks run after each.
///
/// ```text
/// simulate simulated_user("get a refund for ORD-9921").turns(2..=5) {
///     expect no_tool("cancel_order");
/// }
/// ```
pub const simulate: Word = Word;

/// The words at the top of `agent_test!`: settings, `scenario`, `context`, `files`.
pub mod in_suite {
    pub use super::{
        agent, clock, context, files, judge, min_pass_rate, min_passes, prices, repeat, report_dir,
        runtime, scenario, tags, timeout, timezone, tools,
    };
}

/// The place the expansion keeps at the end of every block, where a word being typed — or
/// nothing yet — stands for the editor (see `agent_test!`'s expansion). Not a word.
#[doc(hidden)]
pub const __: Word = Word;

/// The words that start a statement in a scenario's body: steps, checks and the settings a
/// scenario may override.
pub mod in_scenario {
    #[doc(hidden)]
    pub use super::__;
    pub use super::{
        agent, clock, context, expect, extract, history, judge, min_pass_rate, min_passes, prices,
        repeat, runtime, simulate, system, tags, timeout, timezone, user,
    };
}

/// The word of a turn's `{ ... }` block: checks on that turn.
pub mod in_turn {
    #[doc(hidden)]
    pub use super::__;
    pub use super::expect;
}
