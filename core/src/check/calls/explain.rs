//! Explaining why a [`ToolCheck`] failed: the calls counted, the reason, expected and actual,
//! a violation per problem and a diff of the closest call's arguments.

use serde_json::{Map, Value, json};

use super::call_filter::CallFilter;
use super::count::{Count, times};
use super::matching::{Calls, Problem};
use crate::check::tool::ToolCheck;
use crate::check::{Outcome, Violation};
use crate::compare::expression::Env;
use crate::model::Call;
use crate::util::diff::json_diff;

/// A call the check is about (its name, past its filter): its position, the call, and why it
/// does not match (empty when it does).
type Candidate<'c> = (usize, &'c Call, Vec<Problem>);

/// The candidates counted, as [`ToolCheck::explain`] judges them.
struct Tally<'c> {
    candidates: Vec<Candidate<'c>>,
    /// The candidates with no problem: position and call.
    matching: Vec<(usize, &'c Call)>,
    /// What the count is compared with: every candidate with `every_call`, else the matching.
    counted: usize,
    all_match: bool,
    count_ok: bool,
}

/// A call whose only problems are evaluation errors (a judged matcher without a judge) may or
/// may not match: the check cannot be decided, and this is the first such error. A call that
/// also has a certain mismatch does not match whatever the errors would say, so it decides
/// nothing.
fn undecided(candidates: &[Candidate<'_>]) -> Option<String> {
    candidates
        .iter()
        .filter(|(_, _, p)| !p.iter().any(|p| matches!(p, Problem::Mismatch(..))))
        .flat_map(|(_, _, p)| p)
        .find_map(|p| match p {
            Problem::Error(e) => Some(e.clone()),
            Problem::Mismatch(..) => None,
        })
}

impl ToolCheck {
    /// Why the check failed on `calls` (it did not pass): a reason, expected and actual, a
    /// violation per problem, and a diff of the closest call's arguments.
    pub(super) fn explain(&self, calls: &Calls<'_>, env: &Env<'_>) -> Outcome {
        let candidates: Vec<Candidate<'_>> = calls
            .calls
            .iter()
            .enumerate()
            .filter(|(_, c)| self.is_candidate(c))
            .map(|(i, c)| (i, *c, self.problems(c, env)))
            .collect();
        if let Some(e) = undecided(&candidates) {
            return Outcome::error(e);
        }
        let tally = self.tally(candidates);
        let outcome = Outcome::fail(self.reason(calls, &tally)).expected(self.expected_json());
        if tally.candidates.is_empty() {
            return self.not_called_outcome(outcome, calls);
        }
        self.mismatch_outcome(outcome, calls, &tally)
    }

    /// Counts the candidates and the matching calls as [`ToolCheck::passes`] does.
    fn tally<'c>(&self, candidates: Vec<Candidate<'c>>) -> Tally<'c> {
        let matching: Vec<(usize, &Call)> = candidates
            .iter()
            .filter(|(_, _, p)| p.is_empty())
            .map(|(i, c, _)| (*i, *c))
            .collect();
        let counted = if self.every_call {
            candidates.len()
        } else {
            matching.len()
        };
        let all_match = matching.len() == candidates.len();
        let count_ok = self.count.admits(counted)
            && (!self.every_call || (!candidates.is_empty() && all_match));
        Tally {
            candidates,
            matching,
            counted,
            all_match,
            count_ok,
        }
    }

    /// Whether the check constrains more than the name: then counts are "with matching
    /// arguments".
    fn with_args(&self) -> bool {
        !self.args.is_empty()
            || !self.forbidden.is_empty()
            || self.strict
            || !self.result.is_empty()
            || self.no_error
    }

    /// "tool `x` was called 2 times", or for any tool "tool calls were made 2 times".
    fn called(&self, n: usize) -> String {
        let noun = self.target.noun();
        if self.any_name {
            format!("{noun} calls were made {}", times(n))
        } else {
            format!("{noun} `{}` was called {}", self.name, times(n))
        }
    }

    /// "tool `x` was called 2 times", with how many of them the check's filter counts when it
    /// leaves some out ("2 times (1 successful)").
    fn called_filtered(&self, all: &[&Call], t: &Tally<'_>) -> String {
        let named = all.iter().filter(|c| self.names(c)).count();
        if self.filter == CallFilter::All || named == t.candidates.len() {
            return self.called(t.candidates.len());
        }
        let which = match self.filter {
            CallFilter::Succeeded => "successful".to_owned(),
            CallFilter::Failed => "failed".to_owned(),
            CallFilter::FailedWith(kind) => format!("with {} errors", kind.name()),
            CallFilter::SucceededOrInvalid => "successful or refused in validation".to_owned(),
            CallFilter::All => String::new(),
        };
        format!("{} ({} {which})", self.called(named), t.candidates.len())
    }

    /// The failure's one-line reason, the first that applies: not called, called when it
    /// should not be, some calls not matching, too few or many, or the wrong call at the
    /// position.
    fn reason(&self, calls: &Calls<'_>, t: &Tally<'_>) -> String {
        let noun = self.target.noun();
        if t.candidates.is_empty() {
            self.not_called_reason(calls.calls)
        } else if !t.count_ok && self.count == Count::Exactly(0) {
            format!(
                "{}{} (expected no call)",
                self.called(t.counted),
                if self.with_args() {
                    " with matching arguments"
                } else {
                    ""
                }
            )
        } else if self.every_call && !t.all_match {
            let of = if self.any_name {
                format!("{noun} calls")
            } else {
                format!("calls of {noun} `{}`", self.name)
            };
            format!(
                "{} of {} {of} did not match",
                t.candidates.len() - t.matching.len(),
                t.candidates.len()
            )
        } else if t.matching.is_empty() && !t.count_ok {
            format!(
                "{}, but no call matched",
                self.called_filtered(calls.calls, t)
            )
        } else if !t.count_ok {
            format!(
                "{}{} (expected {})",
                self.called(t.counted),
                if self.with_args() && !self.every_call {
                    " with matching arguments"
                } else {
                    ""
                },
                self.count
            )
        } else {
            self.position_reason(calls, &t.candidates)
        }
    }

    /// Why no call was a candidate: none of that name, or (with a filter on success or
    /// failure) none that succeeded or failed as required.
    fn not_called_reason(&self, all: &[&Call]) -> String {
        let noun = self.target.noun();
        let name = &self.name;
        let subject = if self.any_name {
            format!("a {noun}")
        } else {
            format!("{noun} `{name}`")
        };
        let was_called = if self.any_name {
            format!("{noun} calls were made")
        } else {
            format!("{noun} `{name}` was called")
        };
        let same_name = |c: &&Call| self.names(c);
        match self.filter {
            CallFilter::Succeeded | CallFilter::SucceededOrInvalid if all.iter().any(same_name) => {
                let how = if self.filter == CallFilter::Succeeded {
                    ""
                } else {
                    " in execution"
                };
                format!("{was_called}, but every call failed{how}")
            }
            CallFilter::Failed if all.iter().any(same_name) => {
                format!("{was_called}, but no call failed")
            }
            CallFilter::FailedWith(kind) if all.iter().any(same_name) => {
                let article = match kind {
                    crate::model::ToolErrorKind::Execution
                    | crate::model::ToolErrorKind::Output => "an",
                    _ => "a",
                };
                format!(
                    "{was_called}, but no call failed with {article} {} error",
                    kind.name()
                )
            }
            _ if self.any_name => format!("no {noun} was called"),
            _ => format!("{subject} was not called"),
        }
    }

    /// Why the count was right but the call at the required position was not.
    fn position_reason(&self, calls: &Calls<'_>, candidates: &[Candidate<'_>]) -> String {
        let noun = self.target.noun();
        let name = &self.name;
        let all = calls.calls;
        let p = self.position.unwrap_or(0);
        let pos = (calls.position_name)(p);
        let expected = if self.any_name {
            format!("a matching {noun} call")
        } else {
            format!("{noun} `{name}`")
        };
        match all.get(p) {
            None => format!(
                "expected {expected} at {pos}, but there are only {} {noun} calls",
                all.len()
            ),
            Some(c) if !self.names(c) => {
                let at: Vec<String> = candidates.iter().map(|(i, _, _)| i.to_string()).collect();
                format!(
                    "expected {expected} at {pos}, but {pos} is `{}` (`{name}` is at {})",
                    c.name,
                    at.join(", ")
                )
            }
            Some(c) if self.any_name => {
                format!("the call of `{}` at {pos} did not match", c.name)
            }
            Some(_) => format!("the call of `{name}` at {pos} did not match"),
        }
    }

    /// The outcome when no call was a candidate: every call as actual, why the first call of
    /// the name was filtered out, and the nested checks that could not run.
    fn not_called_outcome(&self, mut outcome: Outcome, calls: &Calls<'_>) -> Outcome {
        let all = calls.calls;
        outcome = outcome.actual(Value::Array(
            all.iter()
                .enumerate()
                .map(|(i, c)| call_json(calls, i, c))
                .collect(),
        ));
        if let Some((other, call)) = all.iter().enumerate().find(|(_, c)| self.names(c)) {
            let (kind, what) = self.filtered_out(call);
            outcome = outcome.violation(
                Violation::new(
                    kind,
                    format!("call at {} {what}", (calls.position_name)(other)),
                )
                .in_turn((calls.turn_of)(other)),
            );
        }
        // Checks on the calls inside a node that did not run fail too: nothing to check.
        let noun = self.target.noun();
        for n in &self.nested {
            outcome = outcome.violation(Violation::new(
                "nested_not_evaluated",
                format!("{}: fails, the {noun} did not run", n.describe()),
            ));
        }
        outcome
    }

    /// Why the filter turned `call` away: a violation kind and what the call did instead.
    fn filtered_out(&self, call: &Call) -> (&'static str, String) {
        match self.filter {
            CallFilter::Failed => ("call_succeeded", "returned no error".to_owned()),
            CallFilter::FailedWith(k) => match (call.error, call.error_kind) {
                (false, _) => ("call_succeeded", "returned no error".to_owned()),
                (true, Some(got)) => (
                    "other_error_kind",
                    format!("failed with a {} error", got.name()),
                ),
                (true, None) => (
                    "other_error_kind",
                    format!("failed, but its error has no kind (expected {})", k.name()),
                ),
            },
            _ => ("call_failed", "returned an error".to_owned()),
        }
    }

    /// The outcome when there were candidates: them as actual, then each unexpected call (for
    /// "never called") or each mismatch, and a diff against the closest call's arguments.
    fn mismatch_outcome(&self, mut outcome: Outcome, calls: &Calls<'_>, t: &Tally<'_>) -> Outcome {
        outcome = outcome.actual(Value::Array(
            t.candidates
                .iter()
                .map(|(i, c, _)| call_json(calls, *i, c))
                .collect(),
        ));
        if self.count == Count::Exactly(0) {
            for &(i, c) in &t.matching {
                outcome = outcome.violation(
                    Violation::new(
                        "unexpected_call",
                        format!("called at {}", (calls.position_name)(i)),
                    )
                    .in_turn((calls.turn_of)(i))
                    .evidence(c.arguments.clone()),
                );
            }
            return outcome;
        }
        for (i, _, problems) in &t.candidates {
            for p in problems {
                if let Problem::Mismatch(kind, msg) = p {
                    outcome = outcome.violation(
                        Violation::new(
                            *kind,
                            format!("call at {}: {msg}", (calls.position_name)(*i)),
                        )
                        .in_turn((calls.turn_of)(*i)),
                    );
                }
            }
        }
        let expected_args = self.expected_args();
        if !expected_args.is_empty()
            && let Some((_, closest, _)) = t
                .candidates
                .iter()
                .filter(|(_, _, p)| !p.is_empty())
                .min_by_key(|(_, _, p)| p.len())
        {
            outcome = outcome.diff(json_diff(&Value::Object(expected_args), &closest.arguments));
        }
        outcome
    }

    fn expected_json(&self) -> Value {
        let mut e = Map::new();
        let name = if self.any_name {
            Value::String("*".into())
        } else {
            Value::String(self.name.clone())
        };
        e.insert(self.target.noun().into(), name);
        let args = self.expected_args();
        if !args.is_empty() {
            e.insert("arguments".into(), Value::Object(args));
        }
        if !self.forbidden.is_empty() {
            e.insert("forbidden".into(), json!(self.forbidden));
        }
        if self.strict {
            e.insert("strict".into(), Value::Bool(true));
        }
        if !self.result.is_empty() {
            let r: Map<String, Value> = self
                .result
                .iter()
                .map(|a| (a.path.as_str().to_owned(), a.matcher.expected_json()))
                .collect();
            e.insert("result".into(), Value::Object(r));
        }
        e.insert("count".into(), Value::String(self.count.to_string()));
        if let Some(p) = self.position {
            e.insert("position".into(), json!(p));
        }
        if !self.nested.is_empty() {
            e.insert(
                "inside".into(),
                json!(
                    self.nested
                        .iter()
                        .map(ToolCheck::describe)
                        .collect::<Vec<_>>()
                ),
            );
        }
        Value::Object(e)
    }

    fn expected_args(&self) -> Map<String, Value> {
        self.args
            .iter()
            .filter(|a| !a.path.as_str().is_empty())
            .map(|a| (a.path.as_str().to_owned(), a.matcher.expected_json()))
            .collect()
    }
}

fn call_json(calls: &Calls<'_>, i: usize, c: &Call) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), Value::String(c.name.clone()));
    m.insert("turn_index".into(), json!((calls.turn_of)(i)));
    m.insert("position".into(), json!(i));
    m.insert("arguments".into(), c.arguments.clone());
    if c.error {
        m.insert("error".into(), Value::Bool(true));
    }
    Value::Object(m)
}
