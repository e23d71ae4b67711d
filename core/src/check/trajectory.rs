//! Whole-trajectory comparison against a reference list of calls (LangChain agentevals'
//! trajectory match modes), with a real one-to-one assignment so permissive expectations never
//! cause false negatives.

use super::Semantic;
use agent_test_vocabulary::{Arg, Kind, Word};
use crate::model::Part;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::calls::arg_constraint::ArgConstraint;
use super::calls::args_mode::{ArgsMode, ArgsOverride};
use super::calls::expected_call::ExpectedCall;
use super::calls::expected_call::field_part;
use super::calls::pairing::{
    call_violation, calls_noun, counted_calls, in_order, names_in_order, one_to_one, steps_made,
    steps_of, unpaired,
};
use super::{Outcome, Violation};
use crate::evaluate::context::EvalContext;
use crate::compare::expression::Env;
use crate::compare::path::FieldPath;
use crate::model::Call;

/// How the actual calls must correspond to the reference.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum TrajectoryMode {
    /// The reference calls appear in order, other calls allowed in between (the default).
    #[default]
    Subsequence,
    /// Exactly the reference calls, in the same order.
    Strict,
    /// Exactly the reference calls, in any order (same multiset).
    Unordered,
    /// Every actual call is in the reference (output ⊆ reference).
    Subset,
    /// Every reference call was made (output ⊇ reference), any order, extras allowed.
    Superset,
}

/// A check comparing the whole tool-call trajectory with a reference. Build it with
/// [`trajectory`]. Matching is a maximum one-to-one assignment, so a permissive reference call
/// (`any()` arguments) never takes the actual call a stricter one needed.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Call, Reply, Transcript, Turn};
/// let reply = Reply::text("")
///     .call(Call::tool("search", json!({"q": "laptop"})))
///     .call(Call::tool("search", json!({"q": "mouse"})));
/// let t = Transcript::new(vec![Turn::new(0, "shop", reply, 1)]);
/// // Greedy first-fit would give `search(q: any value)` the laptop search and leave nothing
/// // for `search(q = "laptop")`.
/// let c = trajectory([tool_call("search").arg("q", any()), tool_call("search").arg("q", "laptop")]).unordered();
/// assert_eq!(evaluate(&t, &[c.into_expectation()])[0].status, Status::Pass);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrajectoryCheck {
    pub(crate) expected: Vec<ExpectedCall>,
    #[serde(default)]
    mode: TrajectoryMode,
    #[serde(default)]
    args: ArgsMode,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    overrides: Vec<(String, ArgsOverride)>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    succeeded: bool,
}

/// The tool calls in scope must correspond to this reference (an ordered subsequence by
/// default; see [`TrajectoryMode`]).
///
/// See [`TrajectoryCheck`].
pub fn trajectory(expected: impl IntoIterator<Item = ExpectedCall>) -> TrajectoryCheck {
    TrajectoryCheck {
        expected: expected.into_iter().collect(),
        mode: TrajectoryMode::Subsequence,
        args: ArgsMode::Superset,
        overrides: Vec::new(),
        succeeded: false,
    }
}

impl TrajectoryCheck {
    /// Exactly the reference calls, in order.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(trajectory([tool_call("a")]).strict().describe(), "trajectory (strict): a()");
    /// ```
    pub fn strict(mut self) -> Self {
        self.mode = TrajectoryMode::Strict;
        self
    }

    /// Exactly the reference calls, in any order.
    ///
    /// See [`TrajectoryCheck`].
    pub fn unordered(mut self) -> Self {
        self.mode = TrajectoryMode::Unordered;
        self
    }

    /// Every actual call is in the reference (no call outside it).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let allowed = trajectory([tool_call("search"), tool_call("lookup_order")]).subset();
    /// # let _ = allowed;
    /// ```
    pub fn subset(mut self) -> Self {
        self.mode = TrajectoryMode::Subset;
        self
    }

    /// Every reference call was made, in any order, other calls allowed.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let required = trajectory([tool_call("search"), tool_call("lookup_order")]).superset();
    /// # let _ = required;
    /// ```
    pub fn superset(mut self) -> Self {
        self.mode = TrajectoryMode::Superset;
        self
    }

    /// Consider only the calls that succeeded (failed calls are left out of the trajectory).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = trajectory([tool_call("pay")]).succeeded();
    /// # let _ = c;
    /// ```
    pub fn succeeded(mut self) -> Self {
        self.succeeded = true;
        self
    }

    /// How arguments are compared (default [`ArgsMode::Superset`]).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// # use agent_test::check::ArgsMode;
    /// let names_only = trajectory([tool_call("search")]).args_mode(ArgsMode::Ignore);
    /// # let _ = names_only;
    /// ```
    pub fn args_mode(mut self, mode: ArgsMode) -> Self {
        self.args = mode;
        self
    }

    /// Another argument mode for one tool.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// # use agent_test::check::ArgsMode;
    /// let c = trajectory([tool_call("log").arg("level", "info")]).args_mode_for("log", ArgsMode::Ignore);
    /// # let _ = c;
    /// ```
    pub fn args_mode_for(mut self, tool: impl Into<String>, mode: ArgsMode) -> Self {
        self.overrides.push((tool.into(), ArgsOverride::Mode(mode)));
        self
    }

    /// For one tool, compare only these arguments: names, or dot paths into nested arguments
    /// (`address.city`), each of which every reference call of the tool must give (as an
    /// argument at that path, inside it, or as an exact value around it). A field list that
    /// would compare nothing — empty, naming a tool the reference does not call, or a field a
    /// reference call does not give — is an error verdict "compared nothing: …".
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// # use agent_test::evaluate;
    /// # use agent_test::check::Status;
    /// # use agent_test::model::{Call, Reply, Transcript, Turn};
    /// let made = Call::tool("book", json!({"hotel": "H-2", "address": {"city": "Lisbon", "zip": "1100"}}));
    /// let t = Transcript::new(vec![Turn::new(0, "book", Reply::text("").call(made), 1)]);
    /// let reference = || trajectory([tool_call("book").args(json!({"hotel": "H-1", "address": {"city": "Lisbon"}}))]);
    /// let v = evaluate(&t, &[
    ///     reference().compare_fields("book", ["address.city"]).into_expectation(),
    ///     reference().compare_fields("book", ["hotel"]).into_expectation(),
    ///     reference().compare_fields("book", ["address.zip"]).into_expectation(),
    /// ]);
    /// assert_eq!(v[0].status, Status::Pass);
    /// assert_eq!(v[1].status, Status::Fail);
    /// assert_eq!(v[2].reason, r#"compared nothing: compare_fields("book", ..): reference call 1 gives no `address.zip`"#);
    /// ```
    pub fn compare_fields<S: Into<String>>(
        mut self,
        tool: impl Into<String>,
        fields: impl IntoIterator<Item = S>,
    ) -> Self {
        let fields = fields.into_iter().map(Into::into).collect();
        self.overrides
            .push((tool.into(), ArgsOverride::Fields(fields)));
        self
    }

    /// For one tool, compare arguments with a closure over (expected arguments as JSON, actual
    /// arguments). Such a check cannot be loaded from data.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = trajectory([tool_call("search").arg("q", "laptop")])
    ///     .compare_with("search", |expected, actual| {
    ///         actual["q"].as_str().unwrap_or("").to_lowercase().contains(expected["q"].as_str().unwrap_or(""))
    ///     });
    /// # let _ = c;
    /// ```
    pub fn compare_with(
        mut self,
        tool: impl Into<String>,
        compare: impl Fn(&Value, &Value) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.overrides
            .push((tool.into(), ArgsOverride::Custom(Arc::new(compare))));
        self
    }

    /// One line describing the check.
    ///
    /// See [`TrajectoryCheck::strict`].
    pub fn describe(&self) -> String {
        let mode = match self.mode {
            TrajectoryMode::Subsequence => "in order",
            TrajectoryMode::Strict => "strict",
            TrajectoryMode::Unordered => "unordered",
            TrajectoryMode::Subset => "subset",
            TrajectoryMode::Superset => "superset",
        };
        let steps: Vec<String> = steps_of(self.expected.iter().map(|e| e.parallel))
            .into_iter()
            .map(|r| {
                let calls: Vec<String> = self
                    .expected
                    .get(r)
                    .into_iter()
                    .flatten()
                    .map(ToString::to_string)
                    .collect();
                if calls.len() > 1 {
                    format!("[{}]", calls.join(" + "))
                } else {
                    calls.join("")
                }
            })
            .collect();
        format!("trajectory ({mode}): {}", steps.join(" → "))
    }

    fn fits(&self, e: &ExpectedCall, a: &Call, env: &Env<'_>) -> bool {
        if e.name != a.name {
            return false;
        }
        let over = self
            .overrides
            .iter()
            .rev()
            .find(|(t, _)| *t == e.name)
            .map(|(_, o)| o);
        let mode = match over {
            Some(ArgsOverride::Custom(f)) => {
                let expected: Map<String, Value> = e
                    .args
                    .iter()
                    .map(|c| (c.path.as_str().to_owned(), c.matcher.expected_json()))
                    .collect();
                return f(&Value::Object(expected), &a.arguments);
            }
            Some(ArgsOverride::Fields(fields)) => {
                return fields.iter().all(|f| {
                    let field = FieldPath::new(f.as_str());
                    let mut compared = false;
                    let all_match = e.args.iter().all(|c| match field_part(c, &field) {
                        None => true,
                        Some(expected) => {
                            compared = true;
                            expected.is_match(c, &field, &a.arguments, env)
                        }
                    });
                    // A field the reference call does not give is refused before evaluation.
                    compared && all_match
                });
            }
            Some(ArgsOverride::Mode(m)) => *m,
            None => self.args,
        };
        let expected_ok =
            |c: &ArgConstraint| c.matcher.is_match(c.value(&a.arguments).as_deref(), env);
        let names = || a.arguments.as_object().into_iter().flat_map(|m| m.keys());
        let known = |k: &String| {
            e.args
                .iter()
                .any(|c| c.path.head() == Some(k.as_str()) || c.path.as_str() == k)
        };
        match mode {
            ArgsMode::Ignore => true,
            ArgsMode::Superset => e.args.iter().all(expected_ok),
            ArgsMode::Exact => e.args.iter().all(expected_ok) && names().all(known),
            ArgsMode::Subset => {
                names().all(known)
                    && e.args
                        .iter()
                        .all(|c| c.value(&a.arguments).is_none() || expected_ok(c))
            }
        }
    }

    /// What makes the check impossible to evaluate: an invalid matcher, or something that
    /// compares nothing — an empty reference where only an empty trajectory would pass anyway,
    /// an override for a tool the reference does not call, a field list that names no field or
    /// a field a reference call does not give.
    fn static_problem(&self) -> Option<String> {
        if let Some(p) = self
            .expected
            .iter()
            .flat_map(|e| &e.args)
            .find_map(|a| a.matcher.problem())
        {
            return Some(p);
        }
        if self.expected.is_empty()
            && matches!(
                self.mode,
                TrajectoryMode::Subsequence | TrajectoryMode::Superset
            )
        {
            return Some(
                "compared nothing: the reference trajectory is empty (an empty reference requires \
                 no call only with .strict(), .unordered() or .subset())"
                    .to_owned(),
            );
        }
        for (tool, over) in &self.overrides {
            let method = match over {
                ArgsOverride::Mode(_) => "args_mode_for",
                ArgsOverride::Fields(_) => "compare_fields",
                ArgsOverride::Custom(_) => "compare_with",
            };
            let nothing =
                |why: String| Some(format!("compared nothing: {method}({tool:?}, ..){why}"));
            if !self.expected.iter().any(|e| e.name == *tool) {
                return nothing(format!(": the reference has no call of `{tool}`"));
            }
            let ArgsOverride::Fields(fields) = over else {
                continue;
            };
            if fields.is_empty() {
                return nothing(" names no field".to_owned());
            }
            for (i, e) in self
                .expected
                .iter()
                .enumerate()
                .filter(|(_, e)| e.name == *tool)
            {
                for f in fields {
                    let field = FieldPath::new(f.as_str());
                    if !e.args.iter().any(|c| field_part(c, &field).is_some()) {
                        return nothing(format!(": reference call {} gives no `{f}`", i + 1));
                    }
                }
            }
        }
        None
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        if let Some(p) = self.static_problem() {
            return Outcome::error(p);
        }
        let env = cx.env();
        // The calls compared, with their places among the tool calls in scope.
        let calls = counted_calls(cx, self.succeeded);
        let actual: Vec<&Call> = calls.iter().map(|&(_, c)| c).collect();
        let actual = actual.as_slice();
        let (e_len, a_len) = (self.expected.len(), actual.len());
        let fits = |i: usize, j: usize| match (self.expected.get(i), actual.get(j)) {
            (Some(e), Some(&a)) => self.fits(e, a, &env),
            _ => false,
        };
        let mut step_violations = Vec::new();
        // For each expected call, the actual call it corresponds to.
        let pairing: Vec<Option<usize>> = match self.mode {
            TrajectoryMode::Strict => match self.strict_pairing(&calls, cx, &fits) {
                Ok((pairing, violations)) => {
                    step_violations = violations;
                    pairing
                }
                Err(not_measured) => return Outcome::error(not_measured),
            },
            TrajectoryMode::Subsequence => in_order(e_len, a_len, fits),
            _ => one_to_one(e_len, a_len, fits),
        };
        // `pairing` has one entry per expected call.
        let unmatched_expected: Vec<(usize, &ExpectedCall)> = self
            .expected
            .iter()
            .zip(&pairing)
            .enumerate()
            .filter(|(_, (_, p))| p.is_none())
            .map(|(i, (e, _))| (i, e))
            .collect();
        // The actual calls no expected one is paired with, and their places.
        let unmatched_actual: Vec<(usize, &Call)> = unpaired(&pairing, a_len)
            .into_iter()
            .filter_map(|j| calls.get(j).copied())
            .collect();
        let ok = match self.mode {
            TrajectoryMode::Strict => {
                unmatched_expected.is_empty()
                    && unmatched_actual.is_empty()
                    && step_violations.is_empty()
            }
            TrajectoryMode::Unordered => {
                unmatched_expected.is_empty() && unmatched_actual.is_empty()
            }
            TrajectoryMode::Subset => unmatched_actual.is_empty(),
            TrajectoryMode::Subsequence | TrajectoryMode::Superset => unmatched_expected.is_empty(),
        };
        if ok {
            return Outcome::passed();
        }
        let mut violations = step_violations;
        violations.extend(self.missing_violations(&unmatched_expected, actual));
        if matches!(
            self.mode,
            TrajectoryMode::Strict | TrajectoryMode::Unordered | TrajectoryMode::Subset
        ) {
            violations.extend(unexpected_violations(&unmatched_actual, cx));
        }
        self.mismatch(actual, violations)
    }
}

impl TrajectoryCheck {
    /// A strict trajectory's pairing, step by step: within each model step the calls are
    /// assigned one to one, and a step whose size differs is a violation. `Err` says why it is
    /// not measured: the reference has parallel calls the transcript cannot place in steps.
    fn strict_pairing(
        &self,
        calls: &[(usize, &Call)],
        cx: &EvalContext<'_>,
        fits: &dyn Fn(usize, usize) -> bool,
    ) -> Result<(Vec<Option<usize>>, Vec<Violation>), String> {
        let e_len = self.expected.len();
        let mut step_violations = Vec::new();
        let e_steps = steps_of(self.expected.iter().map(|e| e.parallel));
        if e_steps.iter().any(|r| r.len() > 1)
            && let Some(&(place, c)) = calls.iter().find(|(_, c)| c.step.is_none())
        {
            return Err(format!(
                "not measured: the reference has calls made in one model response, but \
                 the transcript does not say which calls were (the call of `{}` at {} \
                 has no model step)",
                c.name,
                cx.position_name(place)
            ));
        }
        let a_steps = steps_made(calls, cx);
        let mut pairing = vec![None; e_len];
        for (k, e_step) in e_steps.iter().enumerate() {
            let Some(a_step) = a_steps.get(k) else {
                break;
            };
            let partners = one_to_one(e_step.len(), a_step.len(), |i, j| {
                fits(e_step.start + i, a_step.start + j)
            });
            // `partners` has one entry per call of `e_step`.
            let slots = pairing.iter_mut().skip(e_step.start);
            for (slot, p) in slots.zip(partners) {
                *slot = p.map(|j| a_step.start + j);
            }
            if e_step.len() != a_step.len() {
                step_violations.push(Violation::new(
                    "step_mismatch",
                    format!(
                        "step {}: the reference expects {} in one model response ({}), \
                         the agent made {} ({})",
                        k + 1,
                        calls_noun(e_step.len()),
                        self.expected
                            .get(e_step.clone())
                            .into_iter()
                            .flatten()
                            .map(|e| e.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", "),
                        calls_noun(a_step.len()),
                        calls
                            .get(a_step.clone())
                            .into_iter()
                            .flatten()
                            .map(|(_, a)| a.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
        }
        if e_steps.len() != a_steps.len() {
            step_violations.push(Violation::new(
                "step_mismatch",
                format!(
                    "the reference has {} model step{}, the agent made {}",
                    e_steps.len(),
                    if e_steps.len() == 1 { "" } else { "s" },
                    a_steps.len()
                ),
            ));
        }
        Ok((pairing, step_violations))
    }

    /// A violation for each expected call no actual one was paired with, saying whether no
    /// call of that name was made or none matched (at its place, or with its arguments).
    fn missing_violations(
        &self,
        unmatched_expected: &[(usize, &ExpectedCall)],
        actual: &[&Call],
    ) -> Vec<Violation> {
        let mut violations = Vec::new();
        if matches!(
            self.mode,
            TrajectoryMode::Strict
                | TrajectoryMode::Unordered
                | TrajectoryMode::Subsequence
                | TrajectoryMode::Superset
        ) {
            for &(i, e) in unmatched_expected {
                let same_name = actual.iter().filter(|a| a.name == e.name).count();
                let (kind, why) = if same_name == 0 {
                    ("missing_call", "no such call".to_owned())
                } else if matches!(
                    self.mode,
                    TrajectoryMode::Strict | TrajectoryMode::Subsequence
                ) {
                    (
                        "order_or_args",
                        format!(
                            "{same_name} call(s) of `{}`, none matching at that place",
                            e.name
                        ),
                    )
                } else {
                    (
                        "args_mismatch",
                        format!(
                            "{same_name} call(s) of `{}`, none with matching arguments left",
                            e.name
                        ),
                    )
                };
                violations.push(
                    Violation::new(kind, format!("expected call {} {e}: {why}", i + 1))
                        .evidence(e.expected_json()),
                );
            }
        }
        violations
    }

    /// The failure of a trajectory that does not match, with both sides and the violations.
    fn mismatch(&self, actual: &[&Call], violations: Vec<Violation>) -> Outcome {
        let (e_len, a_len) = (self.expected.len(), actual.len());
        let got: Vec<Value> = actual
            .iter()
            .map(|a| json!({"name": a.name, "arguments": a.arguments}))
            .collect();
        Outcome::fail(format!(
            "the trajectory does not match ({} expected, {} made: {})",
            e_len,
            a_len,
            names_in_order(actual.iter().copied())
        ))
        .expected(Value::Array(
            self.expected
                .iter()
                .map(ExpectedCall::expected_json)
                .collect(),
        ))
        .actual(Value::Array(got))
        .violations(violations)
    }
}

/// A violation for each call made that the reference does not hold.
fn unexpected_violations(unmatched: &[(usize, &Call)], cx: &EvalContext<'_>) -> Vec<Violation> {
    unmatched
        .iter()
        .map(|&(place, a)| {
            let message = format!(
                "`{}` at {} is not in the reference",
                a.name,
                cx.position_name(place)
            );
            call_violation(cx, "unexpected_call", message, place, a.arguments.clone())
        })
        .collect()
}

impl super::CheckRules for TrajectoryCheck {
    const KIND: Kind = Kind::new(
        "trajectory",
        "the whole trajectory against reference calls: strict, unordered, subset, superset",
    )
    .words(&[
        Word::new("tool_call", Arg::Tool),
        Word::new("args_mode_for", Arg::ToolOption),
        Word::new("compare_fields", Arg::ToolOption),
        Word::new("compare_with", Arg::ToolOption),
        Word::new("compare_with", Arg::Closure),
    ]);

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![
            trajectory([tool_call("a").arg("x", 1), tool_call("b").parallel()])
                .strict()
                .args_mode(ArgsMode::Exact)
                .args_mode_for("a", ArgsMode::Subset)
                .compare_fields("b", ["x.y"])
                .succeeded()
                .into_expectation(),
        ]
    }

    fn semantic<'a>(&'a self, out: &mut Vec<Semantic<'a>>) {
        for e in &self.expected {
            Semantic::of_calls(Some(&e.name), false, &e.args, out);
        }
    }

    fn literal_problem(&self) -> Option<String> {
        self.expected
            .iter()
            .flat_map(|e| &e.args)
            .find_map(ArgConstraint::literal_problem)
    }

    fn reads(&self) -> &'static [Part] {
        &[Part::Calls, Part::Arguments]
    }

    /// Whether a pass rests on calls not made: the modes that forbid calls outside the
    /// reference (strict, unordered, subset).
    fn claims_absence(&self) -> bool {
        matches!(
            self.mode,
            TrajectoryMode::Strict | TrajectoryMode::Unordered | TrajectoryMode::Subset
        )
    }
}
