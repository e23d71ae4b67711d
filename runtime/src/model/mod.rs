//! The model: scenarios as data, and the transcript of what an agent did.

pub(crate) mod call;
mod context;
mod evaluator;
mod message;
mod reply;
mod scenario;
mod transcript;
mod turn;
mod usage;
mod usage_shapes;
mod workflow;

pub use call::{Call, CallKind};
pub use context::Context;
pub use evaluator::ScenarioEvaluator;
pub use message::{Message, Role};
pub use reply::Reply;
pub(crate) use scenario::{EMPTY_SCENARIO, IMPOSSIBLE_AT};
pub use scenario::{Scenario, Step};
pub use transcript::Transcript;
pub use turn::Turn;
pub use usage::Usage;
pub use usage_shapes::usage_in;
pub use workflow::{Guardrail, Workflow};

/// Reads an optional JSON value so that a present `null` stays `Some(Value::Null)` (serde reads
/// it as `None`): a tool that returned `null` is not a tool whose result is unknown, and a
/// recording must reload as it was saved. Use with `#[serde(default)]`.
pub(crate) fn present<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<serde_json::Value>, D::Error> {
    serde::Deserialize::deserialize(d).map(Some)
}
