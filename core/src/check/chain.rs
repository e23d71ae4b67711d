//! A chain of dependent tool calls, each step with its own constraints on arguments, result
//! and errors (PromptKit's `tool_call_chain`).

use super::Semantic;
use agent_test_vocabulary::Kind;
use crate::model::Part;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::calls::call_filter::CallFilter;
use super::calls::count::Count;
use super::tool::ToolCheck;
use super::calls::matching::Problem;
use super::{Outcome, Violation};
use crate::evaluate::context::{EvalContext, Target};

/// A check that tools were called in order, each step's call meeting that step's constraints:
/// the output of one step feeds the next (search, then book what was found). Build it with
/// [`tool_chain`].
///
/// The call taken for a step is the **next call of its tool** after the previous step's call
/// (other tools may come in between). If that call does not meet the step's constraints the
/// chain fails there; a later call of the same tool does not make up for it. A step is a
/// [`tool`](super::tool) check with arguments ([`arg`](ToolCheck::arg),
/// [`arguments`](ToolCheck::arguments), [`arg_json_path`](ToolCheck::arg_json_path),
/// [`forbid_arg`](ToolCheck::forbid_arg), [`strict`](ToolCheck::strict)), results
/// ([`result`](ToolCheck::result), [`result_at`](ToolCheck::result_at),
/// [`result_json_path`](ToolCheck::result_json_path)) and [`no_error`](ToolCheck::no_error);
/// counts, positions, `every_call`, call filters and nested checks do not apply to a step (an
/// error verdict says so). An empty chain compares nothing.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Call, Reply, Transcript, Turn};
/// let reply = Reply::text("Booked.")
///     .call(Call::tool("search_hotels", json!({"city": "Lisbon"})).result(json!({"hotels": [{"id": "H-7"}]})))
///     .call(Call::tool("book", json!({"hotel_id": "H-7"})).result(json!({"status": "confirmed"})));
/// let t = Transcript::new(vec![Turn::new(0, "book me a hotel", reply, 1)]);
/// let chain = |id: &str| tool_chain([
///     tool("search_hotels").result_json_path("$.hotels[*].id", id.to_owned()),
///     tool("book").arg("hotel_id", id.to_owned()).no_error().result_at("status", "confirmed"),
/// ]);
/// let v = evaluate(&t, &[chain("H-7").into_expectation(), chain("H-9").into_expectation()]);
/// assert_eq!(v[0].status, Status::Pass);
/// assert_eq!(v[1].reason, "tool chain broken at step 1 (`search_hotels`): the call at conversation position 0 did not match");
/// assert_eq!(v[1].details.violations[0].message,
///            r#"$.hotels[*].id: selects ["H-7"], none matching (expected "H-9", got "H-7")"#);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolChain {
    pub(crate) steps: Vec<ToolCheck>,
}

/// The tools must be called in this order, each step's call meeting its constraints.
///
/// See [`ToolChain`].
pub fn tool_chain(steps: impl IntoIterator<Item = ToolCheck>) -> ToolChain {
    ToolChain {
        steps: steps.into_iter().collect(),
    }
}

impl ToolChain {
    /// One line describing the check.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(tool_chain([tool("search"), tool("book").arg("id", 7)]).describe(),
    ///            "tool chain: tool `search` called → tool `book` called with id = 7");
    /// ```
    pub fn describe(&self) -> String {
        let steps: Vec<String> = self.steps.iter().map(ToolCheck::describe).collect();
        format!("tool chain: {}", steps.join(" → "))
    }

    /// Why a step cannot be a chain step, if one cannot.
    fn step_problem(&self) -> Option<String> {
        if self.steps.is_empty() {
            return Some("compared nothing: the tool chain is empty".to_owned());
        }
        for (k, s) in self.steps.iter().enumerate() {
            let misuse = if s.any_name || s.target != Target::Tool {
                Some("names one tool (not `any_tool()`, a node or `any_call`)")
            } else if s.count != Count::AtLeast(1) {
                Some("takes no count (it is the next call of its tool)")
            } else if s.position.is_some() {
                Some("takes no position")
            } else if s.every_call {
                Some("takes no `every_call()`")
            } else if s.filter != CallFilter::All {
                Some("takes no call filter (use `.no_error()` to require a call that succeeded)")
            } else if !s.nested.is_empty() {
                Some("takes no nested checks")
            } else {
                None
            };
            if let Some(why) = misuse {
                return Some(format!("tool chain step {} {why}", k + 1));
            }
            if let Some(p) = s.static_problem() {
                return Some(format!("tool chain step {}: {p}", k + 1));
            }
        }
        None
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        if let Some(p) = self.step_problem() {
            return Outcome::error(p);
        }
        let env = cx.env();
        let calls = cx.tool_calls();
        let mut cursor = 0;
        let mut taken = Vec::new();
        for (k, step) in self.steps.iter().enumerate() {
            let found = calls
                .iter()
                .enumerate()
                .skip(cursor)
                .find(|(_, c)| c.name == step.name);
            let Some((j, call)) = found else {
                let after = if k == 0 {
                    String::new()
                } else {
                    format!(" after step {k}")
                };
                return Outcome::fail(format!(
                    "tool chain incomplete: {k} of {} steps satisfied, no call of `{}`{after}",
                    self.steps.len(),
                    step.name
                ))
                .expected(self.expected_json())
                .actual(actual(calls));
            };
            let problems = step.problems(call, &env);
            if let Some(e) = problems.iter().find_map(|p| match p {
                Problem::Error(e) => Some(e.clone()),
                Problem::Mismatch(..) => None,
            }) {
                return Outcome::error(format!("tool chain step {}: {e}", k + 1));
            }
            if !problems.is_empty() {
                let violations = problems.into_iter().filter_map(|p| match p {
                    Problem::Mismatch(kind, msg) => {
                        Some(Violation::new(kind, msg).in_turn(cx.turn_of_call(j)))
                    }
                    Problem::Error(_) => None,
                });
                return Outcome::fail(format!(
                    "tool chain broken at step {} (`{}`): the call at {} did not match",
                    k + 1,
                    step.name,
                    cx.position_name(j)
                ))
                .expected(self.expected_json())
                .actual(json!({"name": call.name, "arguments": call.arguments, "result": call.result, "error": call.error}))
                .violations(violations);
            }
            taken.push(j);
            cursor = j + 1;
        }
        Outcome::passed()
    }

    fn expected_json(&self) -> Value {
        Value::Array(
            self.steps
                .iter()
                .map(|s| Value::String(s.describe()))
                .collect(),
        )
    }
}

fn actual(calls: &[&crate::model::Call]) -> Value {
    Value::Array(
        calls
            .iter()
            .map(|c| Value::String(c.name.clone()))
            .collect(),
    )
}

impl super::CheckRules for ToolChain {
    const KIND: Kind = Kind::new(
        "tool_chain",
        "a chain of dependent tool calls, each with its own constraints",
    );

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        use crate::matcher::*;
        vec![
            tool_chain([tool("a").result(any()), tool("b").arg("x", 1).no_error()])
                .into_expectation(),
        ]
    }

    fn semantic<'a>(&'a self, out: &mut Vec<Semantic<'a>>) {
        for step in &self.steps {
            super::CheckRules::semantic(step, out);
        }
    }

    fn literal_problem(&self) -> Option<String> {
        self.steps
            .iter()
            .find_map(super::CheckRules::literal_problem)
    }

    fn reads(&self) -> &'static [Part] {
        &[Part::Calls, Part::Arguments, Part::Results, Part::Outcomes]
    }
}
