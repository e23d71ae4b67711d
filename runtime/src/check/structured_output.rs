//! The check that an MCP tool's structured result meets the output schema the tool declares
//! (the protocol says a server must: a result that does not is a broken contract a model or
//! client relies on).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{EvalContext, Outcome, Violation};
use crate::model::{Part, turn_number};

/// A check of the tool calls an MCP server under test answered (turns built with
/// [`mcp::call_tool`](crate::agent::mcp::call_tool)): every successful result of a tool that
/// declares an `outputSchema` has a `structuredContent`, and it is valid against that schema
/// (JSON Schema, as [`schema`](super::schema) checks it; the `schema` feature, on by default,
/// is needed — without it every result is reported as one that cannot be checked). A result
/// marked `isError` need not follow the schema. Build it with [`valid_structured_output`]; in
/// data files it is `{"type": "structured_output"}`.
///
/// A scope with no call of a tool that declares an output schema is *not measured*, an error
/// verdict: nothing was compared.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::model::{Reply, Transcript, Turn};
///
/// let schema = json!({"type": "object", "properties": {"temp": {"type": "number"}}, "required": ["temp"]});
/// let answered = |structured: serde_json::Value| Reply::text("").body(json!({
///     "content": [], "structuredContent": structured, "outputSchema": schema.clone()
/// }));
/// let good = Transcript::new(vec![Turn::new(0, "tools/call weather", answered(json!({"temp": 21.5})), 1)]);
/// assert_eq!(evaluate(&good, &[valid_structured_output().into_expectation()])[0].status, Status::Pass);
/// let bad = Transcript::new(vec![Turn::new(0, "tools/call weather", answered(json!({"temp": "warm"})), 1)]);
/// let v = evaluate(&bad, &[valid_structured_output().into_expectation()]);
/// assert_eq!(v[0].status, Status::Fail);
/// assert!(v[0].reason.starts_with("turn 1: the structured result does not meet the tool's output schema:"), "{}", v[0].reason);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StructuredOutputCheck {}

/// Every structured result of a tool that declares an output schema meets it.
///
/// See [`StructuredOutputCheck`].
///
/// ```
/// use agent_test::prelude::*;
/// assert_eq!(valid_structured_output().describe(), "structured results meet their output schemas");
/// ```
pub fn valid_structured_output() -> StructuredOutputCheck {
    StructuredOutputCheck {}
}

impl StructuredOutputCheck {
    /// One line describing the check.
    ///
    /// See [`valid_structured_output`].
    pub fn describe(&self) -> String {
        "structured results meet their output schemas".to_owned()
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        let mut checked = 0;
        let mut reasons = Vec::new();
        let mut violations = Vec::new();
        for t in cx.turns() {
            let Some(body) = t.reply.body.as_ref() else {
                continue;
            };
            let Some(schema) = body.get("outputSchema") else {
                continue;
            };
            checked += 1;
            if body.get("isError").and_then(Value::as_bool) == Some(true) {
                continue;
            }
            let problem = match body.get("structuredContent") {
                None | Some(Value::Null) => Some(
                    "the tool declares an output schema, and its result has no \
                     `structuredContent`"
                        .to_owned(),
                ),
                Some(value) => {
                    match crate::compare::schema::Schema::new(schema.clone()).validate(value) {
                        Ok(()) => None,
                        Err(crate::compare::schema::SchemaError::Invalid(errors)) => Some(format!(
                            "the structured result does not meet the tool's output schema: {}",
                            errors.join("; ")
                        )),
                        Err(why) => Some(format!("the tool's output schema cannot be used: {why}")),
                    }
                }
            };
            if let Some(p) = problem {
                reasons.push(format!("turn {}: {p}", turn_number(t.index)));
                violations.push(Violation::new("invalid_structured_output", p).in_turn(t.index));
            }
        }
        if checked == 0 {
            return Outcome::error(
                "not measured: no turn called a tool that declares an output schema (a turn \
                 `user mcp::call_tool(..);` of an MCP server under test)",
            );
        }
        if reasons.is_empty() {
            Outcome::passed()
        } else {
            Outcome::fail(reasons.join("; ")).violations(violations)
        }
    }
}

impl super::CheckRules for StructuredOutputCheck {
    fn reads(&self) -> &'static [Part] {
        &[]
    }
}
