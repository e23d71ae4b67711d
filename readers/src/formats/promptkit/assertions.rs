//! PromptKit's assertion registry: each assertion type with the parameters its handler reads,
//! as native checks with PromptKit's meaning.
//!
//! A required parameter that is missing or empty makes, as in PromptKit, a failing assertion
//! ("misconfigured: …") rather than a refused file: the rest of the suite still runs. Unknown
//! parameters, parameters of the wrong type and impossible constraints are still errors naming
//! their place.

mod content;
mod json;
mod tools;
mod workflow;

use std::time::Duration;

use tools::{
    chain, excluded_args, no_errors, sequence, tool_args, tool_call_count, tool_calls_with_args,
    tool_result, tools_called, tools_called_session, tools_not_called,
};

use serde_json::{Map, Value};

use super::super::read::{
    Problem, join, kind, number_text, object, opt_bool, opt_object, opt_string, opt_u64, strings,
    tag,
};
use agent_test_core::check::{
    CheckExt, Expectation, IntoExpectation, JsonSource, Outcome, check, latency, workflow_complete,
};
use agent_test_core::matcher::{IntoMatcher, Matcher, any, any_of, exact, regex};

/// Every assertion type read, canonical names first, then PromptKit's aliases.
pub(super) const TYPES: &[&str] = &[
    "content_includes",
    "content_includes_any",
    "content_not_includes",
    "content_matches",
    "min_length",
    "max_length",
    "json_valid",
    "json_schema",
    "json_path",
    "tools_called",
    "tools_not_called",
    "tool_args",
    "tool_calls_with_args",
    "tools_called_session",
    "tools_not_called_session",
    "tool_args_session",
    "tool_args_excluded_session",
    "tools_not_called_with_args",
    "tool_call_count",
    "tool_call_sequence",
    "tool_call_chain",
    "tool_result_includes",
    "tool_result_matches",
    "no_tool_errors",
    "latency_budget",
    "agent_invoked",
    "agent_not_invoked",
    "agent_response_contains",
    "state_is",
    "transitioned_to",
    "workflow_complete",
    "guardrail_triggered",
    // Aliases PromptKit's registry keeps.
    "contains",
    "contains_any",
    "content_excludes",
    "regex",
    "is_valid_json",
    "valid_json",
    "tool_called",
];

/// The canonical name of a type or alias.
fn canonical(which: &str) -> &str {
    match which {
        "contains" => "content_includes",
        "contains_any" => "content_includes_any",
        "content_excludes" => "content_not_includes",
        "regex" => "content_matches",
        "is_valid_json" | "valid_json" => "json_valid",
        "tool_called" => "tools_called",
        "tools_not_called_with_args" => "tool_args_excluded_session",
        other => other,
    }
}

/// The parameters each (canonical) type reads, besides `message`.
fn params_of(which: &str) -> &'static [&'static str] {
    match which {
        "content_includes" | "content_includes_any" => &["patterns"],
        "content_not_includes" => &["patterns", "match_mode"],
        "content_matches" => &["pattern", "expect_match"],
        "min_length" => &["min", "min_characters", "min_chars"],
        "max_length" => &["max", "max_characters", "max_chars", "max_tokens"],
        "json_valid" => &["allow_wrapped", "extract_json"],
        "json_schema" => &["schema", "allow_wrapped", "extract_json"],
        "json_path" => &[
            "expression",
            "jmespath_expression",
            "expected",
            "contains",
            "min",
            "max",
            "min_results",
            "max_results",
            "allow_wrapped",
            "extract_json",
        ],
        "tools_called" => &[
            "tools",
            "tool_names",
            "min_calls",
            "max_calls",
            "ignore_validation",
            "require_args",
        ],
        "tools_not_called" | "tools_not_called_session" => &["tools", "tool_names"],
        "tools_called_session" => &["tools", "tool_names", "min_calls"],
        "tool_args" | "tool_args_session" => &["tool_name", "expected_args"],
        "tool_args_excluded_session" => &["tool_name", "excluded_args", "forbidden_args"],
        "tool_calls_with_args" => &[
            "tool_name",
            "expected_args",
            "required_args",
            "args_match",
            "result_includes",
            "result_matches",
            "no_error",
        ],
        "tool_call_count" => &["tool", "min", "max"],
        "tool_call_sequence" => &["sequence"],
        "tool_call_chain" => &["steps"],
        "tool_result_includes" => &["tool", "patterns", "occurrence"],
        "tool_result_matches" => &["tool", "pattern", "occurrence"],
        "no_tool_errors" => &["tools"],
        "latency_budget" => &["max_ms"],
        "agent_invoked" => &["agents", "agent_names", "min_calls"],
        "agent_not_invoked" => &["agents", "agent_names"],
        "agent_response_contains" => &["agent", "contains"],
        "state_is" | "transitioned_to" => &["state"],
        "workflow_complete" => &[],
        _ => &[
            "guardrail",
            "validator_type",
            "validator",
            "expected",
            "should_trigger",
            "assertions",
        ],
    }
}

/// Where an assertion sits: in a turn (it sees that turn) or in `conversation_assertions`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    Turn,
    Conversation,
}

/// What building one assertion needs: its parameters, where it sits, its label.
struct Ctx<'a> {
    which: &'a str,
    p: &'a Map<String, Value>,
    at: String,
    place: Place,
    message: Option<String>,
}

impl Ctx<'_> {
    fn label(&self, e: Expectation, extra: Option<&str>) -> Expectation {
        match (&self.message, extra) {
            (Some(m), Some(x)) => e.label(format!("{m} ({x})")),
            (Some(m), None) => e.label(m.clone()),
            (None, _) => e,
        }
    }

    fn one(&self, e: impl IntoExpectation) -> Result<Vec<Expectation>, Problem> {
        Ok(vec![self.label(e.into_expectation(), None)])
    }

    /// A failing assertion saying what is missing, as PromptKit fails it.
    fn misconfigured(&self, why: impl Into<String>) -> Result<Vec<Expectation>, Problem> {
        let why = format!("misconfigured: {}", why.into());
        let shown = format!("{} ({why})", self.which);
        let e = check(shown, move |_| Outcome::fail(why.clone())).into_expectation();
        Ok(vec![self.label(e, None)])
    }

    /// In a turn, the session-wide handlers see the conversation so far.
    fn session(&self, e: impl IntoExpectation) -> Expectation {
        match self.place {
            Place::Turn => e.so_far(),
            Place::Conversation => e.into_expectation(),
        }
    }

    fn here(&self, key: &str) -> String {
        join(&self.at, key)
    }

    /// The first of `keys` given, as a non-empty list of strings (`None`: missing or empty).
    fn names(&self, keys: &[&str]) -> Result<Option<Vec<String>>, Problem> {
        for k in keys {
            let v = strings(self.p, k, &self.at)?;
            if !v.is_empty() {
                return Ok(Some(v));
            }
        }
        Ok(None)
    }

    /// A non-empty string parameter (`None`: missing or empty).
    fn text(&self, key: &str) -> Result<Option<String>, Problem> {
        Ok(opt_string(self.p, key, &self.at)?.filter(|s| !s.is_empty()))
    }

    fn flag(&self, key: &str) -> Result<bool, Problem> {
        Ok(opt_bool(self.p, key, &self.at)?.unwrap_or(false))
    }

    /// A count parameter (a non-negative integer).
    fn count(&self, key: &str) -> Result<Option<usize>, Problem> {
        Ok(opt_u64(self.p, key, &self.at)?.map(|n| usize::try_from(n).unwrap_or(usize::MAX)))
    }

    /// Where the JSON assertions read: the reply text, as PromptKit's `CurrentOutput`, read
    /// leniently with `allow_wrapped` / `extract_json`.
    fn json_source(&self) -> Result<JsonSource, Problem> {
        let fenced = self.flag("allow_wrapped")?;
        let embedded = self.flag("extract_json")?;
        Ok(if fenced || embedded {
            JsonSource::Lenient { fenced, embedded }
        } else {
            JsonSource::Reply
        })
    }
}

/// One PromptKit assertion as native checks (some give one per pattern, tool or argument).
pub(super) fn assertion(v: &Value, at: &str, place: Place) -> Result<Vec<Expectation>, Problem> {
    let o = object(v, at, &["type", "params", "message"])?;
    let written = tag(o, "type", at, TYPES)?;
    let which = canonical(written);
    let mut allowed = vec!["message"];
    allowed.extend(params_of(which));
    let p_at = join(at, "params");
    let empty = Map::new();
    let p = opt_object(o, "params", at, &allowed)?.unwrap_or(&empty);
    let message = match opt_string(o, "message", at)? {
        Some(m) => Some(m),
        None => opt_string(p, "message", &p_at)?,
    };
    let cx = Ctx {
        which: written,
        p,
        at: p_at,
        place,
        message,
    };
    match which {
        "content_includes" => content::includes(&cx),
        "content_includes_any" => content::includes_any(&cx, true),
        "content_not_includes" => content::includes_any(&cx, false),
        "content_matches" => content::matches(&cx),
        "min_length" | "max_length" => content::length(&cx, which == "min_length"),
        "json_valid" => json::valid(&cx),
        "json_schema" => json::schema_of(&cx),
        "json_path" => json::path(&cx),
        "tools_called" => tools_called(&cx),
        "tools_not_called" => tools_not_called(&cx, false),
        "tools_not_called_session" => tools_not_called(&cx, true),
        "tools_called_session" => tools_called_session(&cx),
        "tool_args" => tool_args(&cx, false),
        "tool_args_session" => tool_args(&cx, true),
        "tool_args_excluded_session" => excluded_args(&cx),
        "tool_calls_with_args" => tool_calls_with_args(&cx),
        "tool_call_count" => tool_call_count(&cx),
        "tool_call_sequence" => sequence(&cx),
        "tool_call_chain" => chain(&cx),
        "tool_result_includes" | "tool_result_matches" => tool_result(&cx, which),
        "no_tool_errors" => no_errors(&cx),
        "latency_budget" => latency_budget(&cx),
        "agent_invoked" => workflow::agents(&cx, true),
        "agent_not_invoked" => workflow::agents(&cx, false),
        "agent_response_contains" => workflow::agent_response_contains(&cx),
        "state_is" => workflow::state(&cx, true),
        "transitioned_to" => workflow::state(&cx, false),
        "workflow_complete" => cx.one(workflow_complete()),
        _ => workflow::guardrail(&cx),
    }
}

/// `latency_budget`: the run took at most `max_ms`. An impossible budget (negative, not a
/// number, longer than a `Duration` holds) is an error naming its place, not a failing check.
fn latency_budget(cx: &Ctx<'_>) -> Result<Vec<Expectation>, Problem> {
    // The number as written (`1e300`, not 301 digits) for messages.
    let (ms, shown) = match cx.p.get("max_ms") {
        None | Some(Value::Null) => return cx.misconfigured("no `max_ms`"),
        Some(Value::Number(n)) => (n.as_f64().unwrap_or(f64::MAX), number_text(n)),
        Some(other) => {
            return Err((
                cx.here("max_ms"),
                format!("expected a number of milliseconds, got {}", kind(other)),
            ));
        }
    };
    if !(ms.is_finite() && ms >= 0.0) {
        return Err((
            cx.here("max_ms"),
            format!("expected a non-negative number of milliseconds, got {shown}"),
        ));
    }
    // Checked: 1e300 ms is finite, and more than a Duration holds.
    let max = Duration::try_from_secs_f64(ms / 1000.0).map_err(|_| {
        (
            cx.here("max_ms"),
            format!("{shown} milliseconds is longer than any run can take"),
        )
    })?;
    cx.one(latency().at_most(max))
}

/// Refuses a matcher written where PromptKit compares values as text.
fn refuse_matcher(v: &Value, here: &str, key: &str, arg: &str) -> Result<(), Problem> {
    if let Some((path, word)) = super::super::read::matcher_like(v, here) {
        return Err((
            path,
            format!(
                "{} is not PromptKit syntax: `{key}` values are compared as text; a pattern goes \
                 in `args_match` (`args_match: {{{arg}: \"^...$\"}}`)",
                super::super::read::matcher_word(&word),
            ),
        ));
    }
    Ok(())
}

/// An `expected_args` value of `tool_calls_with_args`: `null` = present; otherwise the actual
/// value must render as the expected one does.
pub(super) fn expected_arg(v: &Value) -> Matcher {
    if v.is_null() {
        return any();
    }
    rendered_as(v)
}

/// The actual value must render as `v` does. Go decodes JSON numbers as `float64`, so an
/// actual `10.0` renders `10` like `10`: a whole-number expectation also accepts a number equal
/// to it.
fn rendered_as(v: &Value) -> Matcher {
    let text = rendered(v);
    let same_text = regex(format!("^{}$", regex::escape(&text)));
    match text.parse::<i64>() {
        // Only the canonical text of a number ("007" is not how Go renders 7).
        Ok(n) if n.to_string() == text => any_of([same_text, exact(n).into_matcher()]),
        _ => same_text,
    }
}

/// How PromptKit renders a value to compare it (Go's `%v`): strings as they are, whole
/// floats without a fraction, everything else as JSON.
pub(super) fn rendered(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => number_text(n),
        other => other.to_string(),
    }
}
