//! No tool call failed: every tool call in scope (or every call of some tools) returned no
//! error, or none of a given kind.

use agent_test_vocabulary::Kind;
use crate::model::Part;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::calls::of_tools::{OfTools, distinct_names};
use super::Outcome;
use super::calls::pairing::call_violation;
use crate::evaluate::context::EvalContext;
use crate::model::{Call, ToolErrorKind};
use crate::util::text::compact;

/// A check that no tool call failed. Build it with [`no_tool_errors`].
///
/// It asserts an absence: with turns but no tool call it passes (nothing failed); with no turn
/// at all it is an error ("no turn ran"), and over a turn on which the agent failed it cannot
/// confirm the absence (an error). Each failed call is its own violation, with its turn, its
/// error and, when known, its kind.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Call, Reply, ToolErrorKind, Transcript, Turn};
/// let reply = Reply::text("")
///     .call(Call::tool("search", json!({"q": "x"})).result(json!([])))
///     .call(Call::tool("book", json!({"date": "soon"})).failed_with(ToolErrorKind::Validation, json!("date: not a date")));
/// let t = Transcript::new(vec![Turn::new(0, "go", reply, 1)]);
/// let v = evaluate(&t, &[
///     no_tool_errors().into_expectation(),
///     no_tool_errors().of_kind(ToolErrorKind::Execution).into_expectation(),
///     no_tool_errors().of_tools(["search"]).into_expectation(),
/// ]);
/// assert_eq!(v[0].reason, "1 tool call failed: book");
/// assert_eq!(v[0].details.violations[0].message,
///            r#"`book` at conversation position 1 failed (validation error): "date: not a date""#);
/// assert_eq!(v[1].status, Status::Pass);
/// assert_eq!(v[2].status, Status::Pass);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoToolErrors {
    #[serde(default, skip_serializing_if = "OfTools::is_every_tool")]
    tools: OfTools,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kind: Option<ToolErrorKind>,
}

/// No tool call in scope failed (PromptKit's `no_tool_errors`).
///
/// See [`NoToolErrors`].
pub fn no_tool_errors() -> NoToolErrors {
    NoToolErrors::default()
}

impl NoToolErrors {
    /// Only calls of these tools count.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(no_tool_errors().of_tools(["pay", "refund"]).describe(), "no call of pay, refund failed");
    /// ```
    pub fn of_tools<S: Into<String>>(mut self, tools: impl IntoIterator<Item = S>) -> Self {
        self.tools = OfTools::new(tools);
        self
    }

    /// Only errors of this kind count: `of_kind(ToolErrorKind::Execution)` allows arguments the
    /// tool refused (the model may correct them) but no tool that ran and failed. A failed call
    /// whose kind nobody reported counts as a failure of either kind.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// use agent_test::model::ToolErrorKind;
    /// assert_eq!(no_tool_errors().of_kind(ToolErrorKind::Execution).describe(),
    ///            "no tool call failed with an execution error");
    /// ```
    pub fn of_kind(mut self, kind: ToolErrorKind) -> Self {
        self.kind = Some(kind);
        self
    }

    /// One line describing the check.
    ///
    /// See [`NoToolErrors::of_tools`].
    pub fn describe(&self) -> String {
        let who = self.tools.no_call();
        match self.kind {
            None => format!("{who} failed"),
            Some(k @ (ToolErrorKind::Execution | ToolErrorKind::Output)) => {
                format!("{who} failed with an {} error", k.name())
            }
            Some(k) => format!("{who} failed with a {} error", k.name()),
        }
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        if let Some(problem) = self.tools.problem() {
            return Outcome::error(problem);
        }
        let calls = cx.tool_calls();
        let failed: Vec<(usize, &Call)> = calls
            .iter()
            .enumerate()
            .filter(|(_, c)| self.tools.admits(&c.name))
            .filter(|(_, c)| {
                c.error
                    && match (self.kind, c.error_kind) {
                        (None, _) | (Some(_), None) => true,
                        (Some(want), Some(got)) => want == got,
                    }
            })
            .map(|(i, c)| (i, *c))
            .collect();
        if failed.is_empty() {
            return Outcome::passed();
        }
        let names = distinct_names(failed.iter().map(|(_, c)| *c));
        let violations = failed.iter().map(|&(i, c)| {
            let kind = c
                .error_kind
                .map_or_else(String::new, |k| format!(" ({} error)", k.name()));
            let error = c
                .result
                .as_ref()
                .map_or_else(|| "no message".to_owned(), compact);
            let message = format!("`{}` at {} failed{kind}: {error}", c.name, cx.position_name(i));
            let evidence = json!({"tool": c.name, "arguments": c.arguments, "error": c.result});
            call_violation(cx, "tool_error", message, i, evidence)
        });
        Outcome::fail(format!(
            "{} tool call{} failed: {}",
            failed.len(),
            if failed.len() == 1 { "" } else { "s" },
            names.join(", ")
        ))
        .expected(json!({"failed_calls": []}))
        .actual(Value::Array(
            failed
                .iter()
                .map(|(_, c)| json!({"tool": c.name, "error": c.result}))
                .collect(),
        ))
        .violations(violations)
    }
}

impl super::CheckRules for NoToolErrors {
    const KIND: Kind = Kind::new(
        "no_tool_errors",
        "no tool call failed (of some tools, of some error kinds)",
    );

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        use crate::model::ToolErrorKind;
        vec![
            no_tool_errors()
                .of_tools(["a"])
                .of_kind(ToolErrorKind::Execution)
                .into_expectation(),
        ]
    }

    fn reads(&self) -> &'static [Part] {
        &[Part::Calls, Part::Outcomes]
    }

    /// A pass rests on failures not having happened.
    fn claims_absence(&self) -> bool {
        true
    }

    /// A failed call seen is a failure whatever else happened.
    fn unseen_calls(&self) -> super::Unseen {
        super::Unseen::FAILURE_STANDS
    }
}
