//! An ordered sequence of tool calls, other calls allowed in between.

use agent_test_vocabulary::{Arg, Kind, Word};
use crate::model::Part;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::calls::pairing::{
    called_names, counted_calls, in_order, names_in_order, successful_only,
};
use super::{Outcome, Violation};
use crate::evaluate::context::EvalContext;

/// A check that tools were called in a given order, as a subsequence: other calls may come in
/// between, and a name listed twice needs two separate calls. Build it with [`tool_sequence`].
///
/// A tool that was never called and a tool called out of order are reported as different
/// violations (`missing_tool`, `out_of_order`). An empty sequence compares nothing: an error
/// verdict.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Call, Reply, Transcript, Turn};
/// use serde_json::json;
///
/// let reply = Reply::text("")
///     .call(Call::tool("verify_identity", json!({})))
///     .call(Call::tool("lookup_account", json!({})));
/// let t = Transcript::new(vec![Turn::new(0, "hi", reply, 1)]);
/// let v = evaluate(&t, &[tool_sequence(["lookup_account", "verify_identity"]).into_expectation()]);
/// assert_eq!(v[0].status, Status::Fail);
/// assert_eq!(v[0].details.violations[0].kind, "out_of_order");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolSequence {
    tools: Vec<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    succeeded: bool,
}

/// The tools must be called in this order (gaps allowed).
///
/// ```
/// use agent_test::prelude::*;
/// let c = tool_sequence(["search", "search", "summarize"]);
/// assert_eq!(c.describe(), "tool sequence: search → search → summarize");
/// ```
pub fn tool_sequence<S: Into<String>>(tools: impl IntoIterator<Item = S>) -> ToolSequence {
    ToolSequence {
        tools: tools.into_iter().map(Into::into).collect(),
        succeeded: false,
    }
}

impl ToolSequence {
    /// Count only calls that succeeded.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = tool_sequence(["a", "b"]).succeeded();
    /// assert_eq!(c.describe(), "tool sequence: a → b (successful calls only)");
    /// ```
    pub fn succeeded(mut self) -> Self {
        self.succeeded = true;
        self
    }

    /// One line describing the check.
    ///
    /// See [`tool_sequence`].
    pub fn describe(&self) -> String {
        let suffix = successful_only(self.succeeded);
        format!("tool sequence: {}{suffix}", self.tools.join(" → "))
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        if self.tools.is_empty() {
            return Outcome::error("compared nothing: the tool sequence is empty");
        }
        if self.tools.iter().any(String::is_empty) {
            return Outcome::error("compared nothing: a tool name in the sequence is empty");
        }
        let calls = counted_calls(cx, self.succeeded);
        let pairing = in_order(self.tools.len(), calls.len(), |i, j| {
            matches!((self.tools.get(i), calls.get(j)), (Some(t), Some((_, c))) if c.name == *t)
        });
        let mut cursor = 0; // index into `calls` after the last matched element
        let mut previous: Option<(&str, usize)> = None; // last matched (name, position)
        let mut violations = Vec::new();
        for (step, (name, paired)) in self.tools.iter().zip(&pairing).enumerate() {
            match paired.and_then(|k| Some((k, calls.get(k)?))) {
                Some((k, &(pos, _))) => {
                    cursor = k + 1;
                    previous = Some((name, pos));
                }
                None => {
                    let earlier = calls
                        .iter()
                        .take(cursor)
                        .find(|(_, c)| c.name == *name)
                        .map(|(p, _)| *p);
                    let v = if let Some(earlier) = earlier {
                        let after = previous.map_or(String::new(), |(n, p)| {
                            format!(" after `{n}` ({})", cx.position_name(p))
                        });
                        Violation::new(
                            "out_of_order",
                            format!(
                                "step {}: `{name}` was called at {}, but not{after}",
                                step + 1,
                                cx.position_name(earlier)
                            ),
                        )
                    } else {
                        Violation::new(
                            "missing_tool",
                            format!("step {}: `{name}` was never called", step + 1),
                        )
                    };
                    violations.push(v.evidence(json!({"step": step, "tool": name})));
                }
            }
        }
        if violations.is_empty() {
            return Outcome::passed();
        }
        let missing = violations
            .iter()
            .filter(|v| v.kind == "missing_tool")
            .count();
        let reason = match (missing, violations.len() - missing) {
            (0, _) => "tools were called out of order".to_owned(),
            (_, 0) => "tools in the sequence were never called".to_owned(),
            _ => "tools were called out of order and some never".to_owned(),
        };
        Outcome::fail(format!(
            "{reason}: expected {}, observed {}",
            self.tools.join(" → "),
            names_in_order(calls.iter().map(|&(_, c)| c))
        ))
        .expected(json!(self.tools))
        .actual(called_names(&calls))
        .violations(violations)
    }
}

impl super::CheckRules for ToolSequence {
    const KIND: Kind = Kind::new(
        "tool_sequence",
        "tools called in an order (others may come between)",
    )
    .words(&[
        Word::new("tool_sequence", Arg::ToolList),
    ]);

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![tool_sequence(["a", "b"]).succeeded().into_expectation()]
    }

    fn reads(&self) -> &'static [Part] {
        &[Part::Calls]
    }
}
