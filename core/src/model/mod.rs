//! The model: pure data. The transcript of what an agent did (turns, replies, calls, usage,
//! workflow state), the verdicts checks reach on it, recorded runs and reports, and what the
//! judge is asked and answers. Nothing here evaluates, calls or renders anything; every other
//! layer builds on it.

#[doc(hidden)]
pub mod call;
mod context;
mod gap;
#[doc(hidden)]
pub mod info;
#[doc(hidden)]
pub mod judge_usage;
#[doc(hidden)]
pub mod judgement;
mod message;
pub(crate) mod outcome;
#[doc(hidden)]
pub mod prices;
pub(crate) mod recording;
#[doc(hidden)]
pub mod reliability;
#[doc(hidden)]
pub mod repeat_plan;
mod reply;
#[doc(hidden)]
pub mod report;
pub(crate) mod scope;
#[doc(hidden)]
pub mod sequential;
mod span_reading;
mod transcript;
mod turn;
mod usage;
mod usage_shapes;
pub(crate) mod verdict;
mod workflow;

pub use call::{Call, CallKind, ToolErrorKind};
pub use context::Context;
pub use gap::{Gap, Part};
pub use message::{Message, Role};
pub use reply::Reply;
pub use span_reading::{SpanReading, UnreadSpans};
pub use transcript::{Transcript, Variable};
pub use turn::Turn;
pub use usage::Usage;
pub use usage_shapes::usage_in;
pub use workflow::{Guardrail, Workflow};

#[doc(hidden)]
pub use info::ScenarioInfo;
pub(crate) use outcome::{Details, Status};
#[doc(hidden)]
pub use recording::RecordedRun;
#[doc(hidden)]
pub use scope::{Scope, Severity, turn_number};
#[doc(hidden)]
pub use verdict::Verdict;

/// Reads an optional JSON value so that a present `null` stays `Some(Value::Null)` (serde reads
/// it as `None`): a tool that returned `null` is not a tool whose result is unknown, and a
/// recording must reload as it was saved. Use with `#[serde(default)]`.
pub(crate) fn present<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<serde_json::Value>, D::Error> {
    serde::Deserialize::deserialize(d).map(Some)
}
