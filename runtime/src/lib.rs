//! The runtime of [agent-test](https://docs.rs/agent-test): it runs scenarios against agents and
//! writes what a run leaves (reports, snapshots), on top of the core (the model, checks and
//! their evaluation), the readers (formats, traces, the loader) and the network crate (agents,
//! judges, cassettes), whose modules it re-exports as its own.
//!
//! Most users depend on the `agent-test` crate and write scenarios with its `agent_test!`
//! macro; everything the macro expands to is ordinary API of this crate, usable by hand:
//!
//! ```
//! use agent_test::prelude::*;
//! use agent_test::agent::agent_fn;
//! use agent_test::model::{Call, Reply};
//! use agent_test::{ScenarioRun, Suite};
//! use serde_json::json;
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let agent = agent_fn(|req| async move {
//!     Reply::text("Your refund for ORD-9921 is on its way.")
//!         .call(Call::tool("process_refund", json!({"order_id": "ORD-9921"})))
//! });
//! let mut run = ScenarioRun::new(Suite::new().agent(agent), "refund");
//! run.user("Please refund order ORD-9921").await;
//! run.expect_turn(tool("process_refund").arg("order_id", "ORD-9921"));
//! run.expect_turn(reply().contains("refund"));
//! run.expect(no_tool("cancel_order"));
//! run.report().await.assert_passed();
//! # });
//! ```
//!
//! Evaluation never panics on what an agent sends: malformed or missing data becomes a failed
//! or errored verdict with a reason, and every other check is still evaluated.

// External data must never crash a run: the runtime answers it with error verdicts, not panics.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]

pub mod mutate;
pub mod report;
mod run;
pub mod snapshot;
pub mod trace {
    // The readers' documentation of traces (the runtime adds the live receiver to the module).
    #![doc = include_str!("../../readers/src/trace/reference.md")]
    //!
    //! With the `otlp` feature, `OtlpReceiver` is the live OTLP/HTTP receiver an instrumented
    //! agent exports its spans to while a run drives it.
    //!
    //! [`Transcript`]: crate::model::Transcript

    #[cfg(feature = "otlp")]
    pub use agent_test_network::otlp::{OtlpReceiver, Unclaimed};
    pub use agent_test_readers::trace::*;
}

// The lower crates' modules, re-exported as this crate's, so that the facade's paths
// (`agent_test::check`, `agent_test::agent`) are those of the one crate the runtime was. The
// runtime's own modules name them by their crates (`agent_test_core::…`), which the layers test
// holds them to.
pub use agent_test_core::{check, expression, matcher, model};
pub use agent_test_network::{agent, cassette, judge, request};
pub use agent_test_readers::{formats, load};

/// Scenarios as data: a conversation's steps and its checks, as the seed formats' files give
/// them or as [`Scenario::new`](scenario::Scenario::new) builds them, run or evaluated with
/// [`RunScenario`](scenario::RunScenario).
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::scenario::{Scenario, Step};
/// let scenario = Scenario::new("refund").user("refund please").expect_turn(reply().contains("refund"));
/// assert!(matches!(&scenario.steps[0], Step::User { text, expect, .. } if text == "refund please" && expect.len() == 1));
/// ```
pub mod scenario {
    pub use crate::run::RunScenario;
    pub use agent_test_core::scenario::*;
}

pub use agent_test_core::{
    Clock, ClockError, ClockErrorKind, Expression, LoadError, RecordedRun, ScenarioInfo, Verdict,
    evaluate,
};
pub use load::MAX_RECORDING_DEPTH;
pub use run::{
    Budget, DEFAULT_TURN_TIMEOUT, DeclaredTools, DeclaredToolsError, DeclaredToolsErrorKind,
    Extraction, Repeats, Runs, RuntimeFlavor, ScenarioEvaluator, ScenarioRun, SimulatedUser, Suite,
    run_file_case, simulated_user, up_to,
};
/// The JSON library of the model (`serde_json::Value` is everywhere in it).
pub use serde_json;

/// The words of the DSL: every check kind's builders, the matchers, a trajectory's
/// [`tool_call`](crate::check::tool_call) and `json!` — what `expect` and a check's arguments
/// are written with, and what `agent_test!` glob-imports beside the code it generates — plus the
/// traits whose methods those words use (imported as `_`: their names stay free).
///
/// Everything else lives under its module and is imported by name: agents in
/// [`agent`] (`agent_fn`, `Agent`, `ChatAgent`…), the model's types in
/// [`model`] (`Reply`, `Call`, `Message`…), options in [`check`]
/// (`Severity`, `ArgsMode`, `Status`…), the judge in [`judge`], prices in
/// [`report::prices`], and the run's types at the crate's root
/// (`Suite`, `ScenarioRun`, `Clock`, `RuntimeFlavor`, `up_to`…).
///
/// ```
/// use agent_test::prelude::*;
/// let checks = [
///     tool("lookup_order").arg("order_id", "ORD-9921").into_expectation(),
///     reply().not_contains("error").warning(),
///     trajectory([tool_call("search").arg("q", contains("laptop"))]).into_expectation(),
///     tool("book").args(json!({"nights": 2})).into_expectation(),
/// ];
/// # let _ = checks;
/// ```
pub mod prelude {
    // Every check kind's builders (each kind's line in `check`'s registry names them).
    pub use crate::check::builders::*;
    pub use crate::check::tool_call;
    // What a feature gives, or without it an item of the same name whose use is an error
    // naming the feature to enable (an explicit import shadows the builders' glob).
    #[cfg(not(feature = "jmespath"))]
    pub use crate::check::gated::jmespath;
    #[cfg(not(feature = "jsonpath"))]
    pub use crate::check::gated::json_path;
    #[cfg(not(feature = "schema"))]
    pub use crate::check::gated::{matches_schema, schema};
    #[cfg(feature = "schema")]
    pub use crate::matcher::matches_schema;
    pub use crate::matcher::{
        all_of, any, any_of, contains, date, date_time, email, exact, expr, free_text, missing,
        not, one_of, optional, predicate, regex,
    };
    pub use serde_json::json;
    // The traits of the words' methods (`.into_expectation()`, `.warning()`, matchers given
    // as values, a JSON check's source, `scenario.evaluate(..)`), without their names.
    pub use crate::check::{CheckExt as _, IntoExpectation as _, JsonSourceOptions as _};
    pub use crate::matcher::IntoMatcher as _;
    pub use crate::scenario::RunScenario as _;
}

/// What code generated by `agent_test!` names. Not a public API: it changes without notice.
#[doc(hidden)]
pub mod __private {
    pub use crate::agent::{UserMessage, user_message};
    pub use crate::run::{
        FileCases, RuntimeFlavor, ScenarioRun, ScenarioSource, Suite, ToolArgs, schema_of,
        test_file_case, test_scenario, tools_file, typed_tools,
    };
    pub use std::boxed::Box;
}
