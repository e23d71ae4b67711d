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
    DEFAULT_TURN_TIMEOUT, DeclaredTools, DeclaredToolsError, DeclaredToolsErrorKind, Extraction,
    Repeats, ScenarioEvaluator, ScenarioRun, SimulatedUser, Suite, run_file_case, simulated_user,
};
/// The JSON library of the model (`serde_json::Value` is everywhere in it).
pub use serde_json;

/// Everything a test file needs: check builders, their options, and the run types.
///
/// ```
/// use agent_test::prelude::*;
/// let checks = [
///     tool("lookup_order").arg("order_id", "ORD-9921").into_expectation(),
///     reply().not_contains("error").warning(),
/// ];
/// # let _ = checks;
/// ```
pub mod prelude {
    pub use crate::agent::{Agent, AgentError, AgentRequest, ReplayAgent, agent_fn, custom_body};
    #[cfg(feature = "http")]
    pub use crate::agent::{ChatAgent, HttpAgent};
    // Every check kind's builders (each kind's line in `check`'s registry names them).
    pub use crate::check::builders::*;
    pub use crate::check::{
        ArgsMode, CheckExt, IntoExpectation, JsonSourceOptions, Scope, Severity, Status, tool_call,
    };
    // What a feature gives, or without it an item of the same name whose use is an error
    // naming the feature to enable (an explicit import shadows the builders' glob).
    #[cfg(not(feature = "http"))]
    pub use crate::agent::{ChatAgent, HttpAgent};
    #[cfg(not(feature = "jmespath"))]
    pub use crate::check::gated::jmespath;
    #[cfg(not(feature = "jsonpath"))]
    pub use crate::check::gated::json_path;
    #[cfg(not(feature = "schema"))]
    pub use crate::check::gated::{matches_schema, schema};
    pub use crate::judge::{Judge, JudgeMode};
    #[cfg(feature = "schema")]
    pub use crate::matcher::matches_schema;
    pub use crate::matcher::{
        IntoMatcher, all_of, any, any_of, contains, date, date_time, email, exact, expr, free_text,
        missing, not, one_of, optional, predicate, regex,
    };
    pub use crate::model::prices::Prices;
    pub use crate::model::{Call, Guardrail, Message, Reply, ToolErrorKind, Usage, Workflow};
    /// HTTP calls for a scenario's setup and verification: `request::post(url).json(..).send()`.
    pub use crate::request;
    pub use crate::run::{Budget, Extraction, Runs, RuntimeFlavor, simulated_user, up_to};
    pub use crate::scenario::RunScenario;
    pub use crate::{Clock, RecordedRun, ScenarioRun, Suite, evaluate};
    pub use serde_json::json;
    pub use std::time::Duration;
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
