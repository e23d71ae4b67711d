//! The core of [agent-test](https://docs.rs/agent-test): the scenario and transcript model,
//! the matchers, the check kinds and their evaluation — pure computation over data, with no
//! I/O and no async runtime. The runtime (`agent-test-runtime`) drives agents, reads traces and
//! files and writes reports on top of it; users reach all of it through the `agent-test` facade.
//!
//! ```
//! use agent_test::prelude::*;
//! use agent_test::evaluate;
//! use agent_test::model::{Call, Reply};
//! use agent_test::model::{Transcript, Turn};
//!
//! let reply = Reply::text("Refunded.")
//!     .call(Call::tool("process_refund", json!({"order_id": "ORD-9921"})));
//! let transcript = Transcript::new(vec![Turn::new(0, "Refund ORD-9921", reply, 40)]);
//! let verdicts = evaluate(&transcript, &[
//!     tool("process_refund").arg("order_id", "ORD-9921").into_expectation(),
//!     no_tool("cancel_order").into_expectation(),
//! ]);
//! assert!(verdicts.iter().all(|v| !v.fails_test()));
//! ```
//!
//! Evaluation never panics on what an agent sends: malformed or missing data becomes a failed
//! or errored verdict with a reason, and every other check is still evaluated.

// External data must never crash a run: the core answers it with error verdicts, not panics.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]

pub mod check;
#[doc(hidden)]
pub mod compare;
#[doc(hidden)]
pub mod evaluate;
pub mod matcher;
pub mod model;
pub mod scenario;
#[doc(hidden)]
pub mod util;

pub use compare::clock::{Clock, ClockError, ClockErrorKind};
pub use compare::expression::Expression;
pub use evaluate::evaluate;
pub use model::info::ScenarioInfo;
pub use model::recording::RecordedRun;
pub use model::verdict::Verdict;
pub use util::input::LoadError;

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
