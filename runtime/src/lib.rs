//! The runtime of [agent-test](https://docs.rs/agent-test): the scenario and transcript model,
//! checks and their evaluation, agents, and reports.
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

pub mod agent;
pub mod cassette;
pub mod check;
mod compare;
mod evaluate;
pub mod formats;
pub mod judge;
pub mod load;
pub mod matcher;
pub mod model;
pub mod mutate;
pub mod report;
#[cfg(feature = "http")]
pub mod request;
/// HTTP calls for a scenario's setup and verification: they need the `http` feature.
#[cfg(not(feature = "http"))]
pub mod request {
    pub use crate::agent::gated::{get, post};
}
mod run;
pub mod scenario;
pub mod snapshot;
pub mod trace;

/// The expression language as checks evaluate it: an `Expression` (`TODAY()`,
/// `DATE_ADD(TODAY(), 1, 'days')`, `context.USER_ID`) against an `Env` (the clock's instant and
/// the context variables), giving an `ExprValue`, or an `ExprError` of a kind.
///
/// ```
/// use agent_test::{Clock, expression::{Env, Expression}, model::Context};
/// let now = Clock::fixed("2026-03-10T08:00:00Z").now("UTC").unwrap();
/// let context = Context::default();
/// let env = Env::new(&now, &context);
/// assert_eq!(Expression::new("DATE_ADD(TODAY(), 1, 'days')").eval(&env).unwrap().to_json(), "2026-03-11");
/// ```
pub mod expression {
    pub use crate::compare::expression::{Env, ExprError, ExprErrorKind, ExprValue, Expression};
}
mod util;

pub use compare::clock::{Clock, ClockError, ClockErrorKind};
pub use compare::expression::Expression;
pub use evaluate::evaluate;
pub use load::MAX_RECORDING_DEPTH;
pub use model::info::ScenarioInfo;
pub use model::recording::RecordedRun;
pub use model::verdict::Verdict;
pub use run::{
    DEFAULT_TURN_TIMEOUT, DeclaredTools, DeclaredToolsError, DeclaredToolsErrorKind, Extraction,
    Repeats, ScenarioEvaluator, ScenarioRun, SimulatedUser, Suite, run_file_case, simulated_user,
};
/// The JSON library of the model (`serde_json::Value` is everywhere in it).
pub use serde_json;
pub use util::input::LoadError;

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
