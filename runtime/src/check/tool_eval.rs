//! Evaluating a [`ToolCheck`]: a fast path that allocates nothing when the check passes, and
//! explanations (violations, expected and actual, a diff of arguments) when it fails.

use serde_json::{Map, Value, json};

use super::arg_constraint::ArgConstraint;
use super::call_filter::CallFilter;
use super::count::{Count, times};
use super::tool::ToolCheck;
use super::{EvalContext, Outcome, Status, Violation};
use crate::compare::expression::Env;
use crate::matcher::Mismatch;
use crate::model::{Call, CallKind};
use crate::util::diff::json_diff;

/// Why a call does not match: a violation kind and a message, or an evaluation error.
pub(crate) enum Problem {
    Mismatch(&'static str, String),
    Error(String),
}

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

/// The calls a check is evaluated on, and how to name them in messages.
struct Calls<'c> {
    calls: &'c [&'c Call],
    turn_of: &'c dyn Fn(usize) -> usize,
    position_name: &'c dyn Fn(usize) -> String,
}

impl ToolCheck {
    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        if let Some(problem) = self.static_problem() {
            return Outcome::error(problem);
        }
        let env = cx.env();
        let calls = cx.calls(self.target);
        if self.passes(calls, &env) {
            return Outcome::passed();
        }
        let target = self.target;
        let turn_of = |i| cx.turn_of(target, i);
        let position_name = |i| cx.position_name(i);
        self.explain(
            &Calls {
                calls,
                turn_of: &turn_of,
                position_name: &position_name,
            },
            &env,
        )
    }

    /// What makes the check (or a nested one) impossible to evaluate: an invalid regex, or a
    /// part that compares nothing (an empty name, `at_least(0)`, a matcher that accepts every
    /// value).
    pub(crate) fn static_problem(&self) -> Option<String> {
        if self.name.is_empty() && !self.any_name {
            return Some(format!(
                "compared nothing: the {} name is empty",
                self.target.noun()
            ));
        }
        if self.count == Count::AtLeast(0) {
            return Some("compared nothing: at least 0 calls is always true".to_owned());
        }
        self.args
            .iter()
            .chain(&self.result)
            .find_map(ArgConstraint::problem)
            .or_else(|| self.nested.iter().find_map(ToolCheck::static_problem))
    }

    /// Whether `call` has this check's name (any name for [`any_tool`](super::any_tool)).
    pub(crate) fn names(&self, call: &Call) -> bool {
        self.any_name || call.name == self.name
    }

    fn is_candidate(&self, call: &Call) -> bool {
        self.names(call) && self.filter.admits(call)
    }

    /// The fast path: whether the check passes on `calls`, without building messages.
    fn passes(&self, calls: &[&Call], env: &Env<'_>) -> bool {
        let (mut candidates, mut matching) = (0, 0);
        for c in calls.iter().filter(|c| self.is_candidate(c)) {
            candidates += 1;
            matching += usize::from(self.matches_call(c, env));
        }
        let counted = if self.every_call {
            candidates
        } else {
            matching
        };
        // `every_call` needs a call: "every call matches" of no call saw nothing.
        let count_ok = self.count.admits(counted)
            && (!self.every_call || (candidates > 0 && matching == candidates));
        count_ok
            && self.position.is_none_or(|p| {
                calls
                    .get(p)
                    .is_some_and(|c| self.is_candidate(c) && self.matches_call(c, env))
            })
    }

    /// Whether `call` satisfies every constraint — the allocation-free twin of
    /// [`ToolCheck::problems`] (`matches_call(c) == problems(c).is_empty()`).
    pub(crate) fn matches_call(&self, call: &Call, env: &Env<'_>) -> bool {
        let args = call.arguments.as_object();
        let values_ok = self
            .args
            .iter()
            .all(|c| c.is_match(Some(&call.arguments), env));
        let shape_ok = match args {
            Some(map) => {
                !self.forbidden.iter().any(|f| map.contains_key(f))
                    && (!self.strict || map.keys().all(|k| self.allows_key(k)))
            }
            None => call.arguments.is_null() || (!self.strict && self.forbidden.is_empty()),
        };
        let result_ok = self.result.is_empty()
            || (self.compares_result_of(call)
                && self
                    .result
                    .iter()
                    .all(|c| c.is_match(call.result.as_ref(), env)));
        values_ok
            && shape_ok
            && !(self.no_error && call.error)
            && result_ok
            && (self.nested.is_empty() || {
                let inner = inner_tool_calls(call);
                self.nested.iter().all(|n| n.passes(&inner, env))
            })
    }

    fn allows_key(&self, key: &str) -> bool {
        self.args.iter().any(|c| {
            c.query.is_none()
                && (c.path.head() == Some(key)
                    || c.path.as_str() == key
                    // A constraint on the whole argument object says what it allows.
                    || (c.path.as_str().is_empty() && c.group.is_empty()))
        })
    }

    /// Why `call` does not match (empty when it does), in a fixed order: arguments, their
    /// shape, the call's error, its result, then the calls inside it.
    pub(crate) fn problems(&self, call: &Call, env: &Env<'_>) -> Vec<Problem> {
        let mut out = Vec::new();
        self.argument_problems(call, env, &mut out);
        self.shape_problems(call, &mut out);
        if self.no_error && call.error {
            let error = call
                .result
                .as_ref()
                .map_or_else(|| "no message".to_owned(), crate::util::text::compact);
            out.push(Problem::Mismatch(
                "tool_error",
                format!("returned an error: {error}"),
            ));
        }
        self.result_problems(call, env, &mut out);
        if !self.nested.is_empty() {
            self.nested_problems(call, env, &mut out);
        }
        out
    }

    /// The argument constraints `call` fails: a missing argument or a wrong value.
    fn argument_problems(&self, call: &Call, env: &Env<'_>, out: &mut Vec<Problem>) {
        for c in &self.args {
            let actual = if c.query.is_some() {
                Some(std::borrow::Cow::Borrowed(&call.arguments))
            } else {
                c.value(&call.arguments)
            };
            let actual = actual.as_deref();
            let label = if c.path.as_str().is_empty() {
                "arguments"
            } else {
                c.path.as_str()
            };
            match c.check(Some(&call.arguments), env) {
                Ok(()) => {}
                Err(Mismatch::Error(e)) => out.push(Problem::Error(format!("{label}: {e}"))),
                Err(Mismatch::Fail(e)) => {
                    let kind = if actual.is_none() {
                        "missing_argument"
                    } else {
                        "value_mismatch"
                    };
                    out.push(Problem::Mismatch(kind, format!("{label}: {e}")));
                }
            }
        }
    }

    /// Which arguments `call` has that it should not: forbidden ones, any not expected
    /// (`strict`), or arguments that are not an object at all.
    fn shape_problems(&self, call: &Call, out: &mut Vec<Problem>) {
        match call.arguments.as_object() {
            Some(map) => {
                for f in &self.forbidden {
                    if let Some(v) = map.get(f) {
                        out.push(Problem::Mismatch(
                            "forbidden_argument",
                            format!(
                                "{f}: forbidden, but present ({})",
                                crate::util::text::shown(v)
                            ),
                        ));
                    }
                }
                if self.strict {
                    for (k, v) in map.iter().filter(|(k, _)| !self.allows_key(k)) {
                        out.push(Problem::Mismatch(
                            "unexpected_argument",
                            format!(
                                "{k}: not expected (strict), got {}",
                                crate::util::text::shown(v)
                            ),
                        ));
                    }
                }
            }
            None if !call.arguments.is_null() && (self.strict || !self.forbidden.is_empty()) => {
                out.push(Problem::Mismatch(
                    "value_mismatch",
                    format!(
                        "arguments are not a JSON object: {}",
                        crate::util::text::shown(&call.arguments)
                    ),
                ));
            }
            None => {}
        }
    }

    /// Whether the result constraints apply to `call`'s result: a call that succeeded, or a
    /// failed call when the check asks for failures (`.failed()`, `.failed_with(..)`) — a
    /// failed call's result is its error text, which is no result.
    pub(crate) fn compares_result_of(&self, call: &Call) -> bool {
        !call.error || matches!(self.filter, CallFilter::Failed | CallFilter::FailedWith(_))
    }

    /// The result constraints `call` fails.
    fn result_problems(&self, call: &Call, env: &Env<'_>, out: &mut Vec<Problem>) {
        if !self.result.is_empty() && !self.compares_result_of(call) {
            let error = call
                .result
                .as_ref()
                .map_or_else(|| "no message".to_owned(), crate::util::text::compact);
            // Say when the error text is what the check would have matched.
            let would = self
                .result
                .iter()
                .all(|c| c.is_match(call.result.as_ref(), env));
            let hint = if would {
                " — its error text would have matched: add `.failed()` to check a failure's text"
            } else {
                ""
            };
            out.push(Problem::Mismatch(
                "result_mismatch",
                format!("result: the call failed ({error}), and a failed call has no result{hint}"),
            ));
            return;
        }
        for c in &self.result {
            let label = if c.path.as_str().is_empty() {
                "result".to_owned()
            } else if c.query.is_some() {
                c.path.as_str().to_owned()
            } else {
                format!("result.{}", c.path.as_str())
            };
            match c.check(call.result.as_ref(), env) {
                Ok(()) => {}
                Err(Mismatch::Error(e)) => out.push(Problem::Error(format!("{label}: {e}"))),
                Err(Mismatch::Fail(e)) => out.push(Problem::Mismatch(
                    "result_mismatch",
                    format!("{label}: {e}"),
                )),
            }
        }
    }

    /// The nested checks the calls inside `call` fail, each explained as at the top level.
    fn nested_problems(&self, call: &Call, env: &Env<'_>, out: &mut Vec<Problem>) {
        let inner = inner_tool_calls(call);
        let turn_of = |_| 0;
        let position_name = |i| format!("position {i}");
        let calls = Calls {
            calls: &inner,
            turn_of: &turn_of,
            position_name: &position_name,
        };
        for n in self.nested.iter().filter(|n| !n.passes(&inner, env)) {
            let o = n.explain(&calls, env);
            if o.status == Status::Error {
                // An inner check that cannot be evaluated makes the whole check an error,
                // as it would at the top level.
                out.push(Problem::Error(format!("inside: {}", o.reason)));
                continue;
            }
            // Say why the inner calls did not match (which argument, which value), not
            // only that they did not.
            let why: Vec<&str> = o
                .details
                .violations
                .iter()
                .filter(|v| v.kind != "unexpected_call")
                .map(|v| v.message.as_str())
                .collect();
            let message = if why.is_empty() {
                format!("inside: {}", o.reason)
            } else {
                format!("inside: {} ({})", o.reason, why.join("; "))
            };
            out.push(Problem::Mismatch("nested_check", message));
        }
    }

    /// Why the check failed on `calls` (it did not pass): a reason, expected and actual, a
    /// violation per problem, and a diff of the closest call's arguments.
    fn explain(&self, calls: &Calls<'_>, env: &Env<'_>) -> Outcome {
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

/// The tool calls made inside a call (a node), depth-first.
fn inner_tool_calls(call: &Call) -> Vec<&Call> {
    let mut out = Vec::new();
    for c in &call.children {
        c.walk(&mut |c| {
            if c.kind == CallKind::Tool {
                out.push(c);
            }
        });
    }
    out
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
