//! The check that an MCP tool's structured result meets the output schema the tool declares
//! (the protocol says a server must: a result that does not is a broken contract a model or
//! client relies on).

use agent_test_vocabulary::Kind;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Outcome, Violation};
use crate::evaluate::context::EvalContext;
use crate::compare::schema::{Schema, SchemaError};
use crate::model::{Part, ToolErrorKind, turn_number};

/// A check of the tool calls an MCP server under test answered (turns built with
/// `mcp::call_tool`): every successful result of a tool that
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
/// use agent_test::evaluate;
/// use agent_test::check::Status;
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
        // An MCP server under test: each `tools/call` turn's result, beside the schema.
        for t in cx.turns() {
            let Some(body) = t.reply.body.as_ref() else {
                continue;
            };
            let Some(schema) = body.get("outputSchema") else {
                continue;
            };
            checked += 1;
            let problem = match against(&Schema::new(schema.clone()), body) {
                Against::Met => None,
                Against::Broken(p) | Against::Unusable(p) => Some(p),
            };
            if let Some(p) = problem {
                reasons.push(format!("turn {}: {p}", turn_number(t.index)));
                violations.push(Violation::new("invalid_structured_output", p).in_turn(t.index));
            }
        }
        // A model's calls of MCP tools, judged from what each call holds (a recording read
        // from a file is judged as a live run is): a result the agent refused, or a successful
        // result that does not meet the schema, or a schema that cannot be used.
        let calls = cx.tool_calls();
        for (i, c) in calls.iter().enumerate() {
            let Some(schema) = &c.output_schema else {
                continue;
            };
            checked += 1;
            let problem = match (c.error_kind, &c.result) {
                (Some(ToolErrorKind::Output), result) => Some(
                    result
                        .as_ref()
                        .and_then(|r| r.get("error"))
                        .and_then(Value::as_str)
                        .unwrap_or("the result broke the tool's output schema")
                        .to_owned(),
                ),
                // A failed call need not follow the schema, as an `isError` result need not.
                _ if c.error => None,
                (_, None) => Some(
                    "the tool declares an output schema, and its result was not recorded"
                        .to_owned(),
                ),
                (_, Some(result)) => structured(&Schema::new(schema.clone()), result),
            };
            if let Some(why) = problem {
                let turn = cx.turn_of_call(i);
                let p = format!("`{}`: {why}", c.name);
                reasons.push(format!("turn {}: {p}", turn_number(turn)));
                violations.push(Violation::new("invalid_structured_output", p).in_turn(turn));
            }
        }
        if checked == 0 {
            return Outcome::error(
                "not measured: no turn called a tool that declares an output schema (a turn \
                 `user mcp::call_tool(..);` of an MCP server under test, or a model's call of \
                 an MCP server's tool)",
            );
        }
        if reasons.is_empty() {
            Outcome::passed()
        } else {
            Outcome::fail(reasons.join("; ")).violations(violations)
        }
    }
}

/// An MCP `CallToolResult` (as the protocol has it) against its tool's output schema.
#[derive(Debug, PartialEq)]
#[doc(hidden)]
pub enum Against {
    /// Its `structuredContent` is valid, or it is an `isError` result (which need not follow
    /// the schema).
    Met,
    /// It has no `structuredContent`, or one the schema refuses: why.
    Broken(String),
    /// The schema cannot be used (not a JSON Schema, or the `schema` feature is off): why.
    /// Nothing was compared — a client cannot refuse the result for it.
    Unusable(String),
}

/// What `result` is against `schema` (compiled once by the caller where it can be).
#[doc(hidden)]
pub fn against(schema: &Schema, result: &Value) -> Against {
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        return Against::Met;
    }
    match result.get("structuredContent") {
        None | Some(Value::Null) => Against::Broken(
            "the tool declares an output schema, and its result has no `structuredContent`"
                .to_owned(),
        ),
        Some(value) => match structured(schema, value) {
            None => Against::Met,
            Some(why) if schema.problem().is_some() => Against::Unusable(why),
            Some(why) => Against::Broken(why),
        },
    }
}

/// What is wrong with a structured result against `schema`, if anything.
fn structured(schema: &Schema, value: &Value) -> Option<String> {
    match schema.validate(value) {
        Ok(()) => None,
        Err(SchemaError::Invalid(errors)) => Some(format!(
            "the structured result does not meet the tool's output schema: {}",
            errors.join("; ")
        )),
        Err(why) => Some(format!("the tool's output schema cannot be used: {why}")),
    }
}

impl super::CheckRules for StructuredOutputCheck {
    const KIND: Kind = Kind::new(
        "structured_output",
        "MCP tools' structured results against their output schemas",
    );

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![valid_structured_output().into_expectation()]
    }

    /// An MCP server's answers are turn bodies; a model's MCP calls are calls, their outcomes
    /// and results.
    fn reads(&self) -> &'static [Part] {
        &[Part::Calls, Part::Results, Part::Outcomes]
    }
}
