//! Evaluating a [`ToolCheck`]: a fast path that allocates nothing when the check passes, and
//! each call's problems when it does not (explained in `explain.rs`).

use super::arg_constraint::ArgConstraint;
use super::call_filter::CallFilter;
use super::count::Count;
use crate::check::tool::ToolCheck;
use crate::check::{Outcome, Status};
use crate::compare::expression::Env;
use crate::evaluate::context::EvalContext;
use crate::matcher::Mismatch;
use crate::model::{Call, CallKind};

/// Why a call does not match: a violation kind and a message, or an evaluation error.
pub(crate) enum Problem {
    Mismatch(&'static str, String),
    Error(String),
}

/// The calls a check is evaluated on, and how to name them in messages.
pub(super) struct Calls<'c> {
    pub(super) calls: &'c [&'c Call],
    pub(super) turn_of: &'c dyn Fn(usize) -> usize,
    pub(super) position_name: &'c dyn Fn(usize) -> String,
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

    pub(super) fn is_candidate(&self, call: &Call) -> bool {
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
