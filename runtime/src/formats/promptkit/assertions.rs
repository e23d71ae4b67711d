//! PromptKit's assertion registry: each assertion type with the parameters its handler reads,
//! as native checks with PromptKit's meaning.
//!
//! A required parameter that is missing or empty makes, as in PromptKit, a failing assertion
//! ("misconfigured: …") rather than a refused file: the rest of the suite still runs. Unknown
//! parameters, parameters of the wrong type and impossible constraints are still errors naming
//! their place.

mod tools;

use std::time::Duration;

use tools::{chain, excluded_args, tool_calls_with_args, tool_result, tools_called};

use serde_json::{Map, Value, json};

use super::super::read::{
    Problem, join, kind, number_text, object, open_object, opt_bool, opt_object, opt_string,
    opt_u64, strings, tag,
};
use crate::check::{
    CheckExt, Expectation, IntoExpectation, JsonSource, JsonSourceOptions, Outcome, agent_invoked,
    agent_not_invoked, agent_response, any_guardrail_triggered, any_tool, check, forbidden_tools,
    guardrail_not_triggered, guardrail_triggered, jmespath, latency, no_guardrail_triggered,
    no_tool_errors, replies, reply, required_tools, schema, state_is, tool, tool_sequence,
    transitioned_to, workflow_complete,
};
use crate::matcher::{IntoMatcher, Matcher, all_of, any, any_of, exact, matches_schema, regex};

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
    let text = || match place {
        Place::Turn => reply(),
        Place::Conversation => replies(),
    };
    match which {
        "content_includes" => {
            let Some(patterns) = cx.names(&["patterns"])? else {
                return cx.misconfigured("no `patterns` to look for");
            };
            Ok(patterns
                .iter()
                .map(|pat| {
                    let e = text().contains(pat.clone()).into_expectation();
                    let extra = (patterns.len() > 1).then_some(pat.as_str());
                    cx.label(e, extra)
                })
                .collect())
        }
        "content_includes_any" | "content_not_includes" => {
            let Some(patterns) = cx.names(&["patterns"])? else {
                return cx.misconfigured("no `patterns` to look for");
            };
            // Both read every assistant message (so far, in a turn).
            let word = match opt_string(p, "match_mode", &cx.at)?.as_deref() {
                None | Some("" | "substring") => false,
                Some("word_boundary") => true,
                Some(other) => {
                    return Err((
                        cx.here("match_mode"),
                        format!("expected `substring` or `word_boundary`, got `{other}`"),
                    ));
                }
            };
            let alternatives: Vec<String> = patterns
                .iter()
                .map(|p| {
                    let lit = regex::escape(p);
                    if word { format!(r"\b{lit}\b") } else { lit }
                })
                .collect();
            let re = format!("(?:{})", alternatives.join("|"));
            let c = if which == "content_includes_any" {
                replies().matches(re)
            } else {
                replies().not_matches(re)
            }
            .case_insensitive();
            Ok(vec![cx.label(cx.session(c), None)])
        }
        "content_matches" => {
            let Some(pattern) = cx.text("pattern")? else {
                return cx.misconfigured("no `pattern`");
            };
            let expect_match = opt_bool(p, "expect_match", &cx.at)?.unwrap_or(true);
            cx.one(if expect_match {
                text().matches(pattern)
            } else {
                text().not_matches(pattern)
            })
        }
        "min_length" | "max_length" => length(&cx, which == "min_length"),
        "json_valid" => cx.one(jmespath("@").evaluates().with_source(cx.json_source()?)),
        "json_schema" => {
            let Some(s) = p.get("schema").filter(|s| !s.is_null()) else {
                return cx.misconfigured("no `schema` provided");
            };
            let s_obj = open_object(s, &cx.here("schema"))?;
            let source = cx.json_source()?;
            if s_obj.is_empty() {
                // PromptKit validates any JSON against `{}`: the reply must be JSON.
                return cx.one(jmespath("@").evaluates().with_source(source));
            }
            cx.one(schema(s.clone()).with_source(source))
        }
        "json_path" => json_path(&cx),
        "tools_called" => tools_called(&cx),
        "tools_not_called" | "tools_not_called_session" => {
            let Some(tools) = cx.names(&["tools", "tool_names"])? else {
                return cx.misconfigured("no `tools` named");
            };
            let c = forbidden_tools(tools);
            Ok(vec![cx.label(
                if which == "tools_not_called_session" {
                    cx.session(c)
                } else {
                    c.into_expectation()
                },
                None,
            )])
        }
        "tools_called_session" => {
            let Some(tools) = cx.names(&["tool_names", "tools"])? else {
                return cx.misconfigured("no `tool_names` named");
            };
            match cx.count("min_calls")? {
                None | Some(0 | 1) => Ok(vec![cx.label(cx.session(required_tools(tools)), None)]),
                Some(n) => Ok(tools
                    .iter()
                    .map(|t| cx.label(cx.session(tool(t.clone()).at_least(n)), Some(t)))
                    .collect()),
            }
        }
        "tool_args" | "tool_args_session" => {
            let Some(name) = cx.text("tool_name")? else {
                return cx.misconfigured("no `tool_name`");
            };
            let args = match p.get("expected_args") {
                None | Some(Value::Null) => None,
                Some(v) => {
                    Some(open_object(v, &cx.here("expected_args"))?).filter(|a| !a.is_empty())
                }
            };
            let Some(args) = args else {
                return cx.misconfigured("no `expected_args` to compare");
            };
            let mut c = tool(name);
            for (k, v) in args {
                refuse_matcher(v, &join(&cx.here("expected_args"), k), "expected_args", k)?;
                // Here `null` is a value (Go renders both sides `<nil>`): the argument is null.
                let m = if v.is_null() {
                    exact(Value::Null).into_matcher()
                } else {
                    rendered_as(v)
                };
                c = c.arg(k.clone(), m);
            }
            cx.one(if which == "tool_args_session" {
                cx.session(c)
            } else {
                c.into_expectation()
            })
        }
        "tool_args_excluded_session" => excluded_args(&cx),
        "tool_calls_with_args" => tool_calls_with_args(&cx),
        "tool_call_count" => {
            let (min, max) = (cx.count("min")?, cx.count("max")?);
            let c = match opt_string(p, "tool", &cx.at)?.filter(|t| !t.is_empty()) {
                Some(t) => tool(t),
                None => any_tool(),
            };
            let c = match (min, max) {
                (None, None) => return cx.misconfigured("neither `min` nor `max` is given"),
                (Some(0), None) => {
                    return cx.misconfigured("`min: 0` with no `max` can never fail");
                }
                (Some(a), Some(b)) => c.between(a, b),
                (Some(a), None) => c.at_least(a),
                (None, Some(b)) => c.at_most(b),
            };
            cx.one(c)
        }
        "tool_call_sequence" => {
            let Some(sequence) = cx.names(&["sequence"])? else {
                return cx.misconfigured("an empty `sequence`");
            };
            cx.one(tool_sequence(sequence))
        }
        "tool_call_chain" => chain(&cx),
        "tool_result_includes" | "tool_result_matches" => tool_result(&cx, which),
        "no_tool_errors" => {
            let tools = strings(p, "tools", &cx.at)?;
            cx.one(no_tool_errors().of_tools(tools))
        }
        "latency_budget" => {
            // The number as written (`1e300`, not 301 digits) for messages.
            let (ms, shown) = match p.get("max_ms") {
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
        "agent_invoked" | "agent_not_invoked" => {
            let mut agents = strings(p, "agents", &cx.at)?;
            agents.extend(strings(p, "agent_names", &cx.at)?);
            if agents.is_empty() {
                return cx.misconfigured("no `agents` named");
            }
            // PromptKit names the member tools themselves: exact names only.
            if which == "agent_not_invoked" {
                return cx.one(agent_not_invoked(agents).exact_names());
            }
            let mut c = agent_invoked(agents).exact_names();
            if let Some(n) = cx.count("min_calls")? {
                if n == 0 {
                    return Err((
                        cx.here("min_calls"),
                        "expected at least 1: `min_calls: 0` can never fail (to require that an \
                         agent is not invoked, use `agent_not_invoked`)"
                            .into(),
                    ));
                }
                c = c.min_calls(n);
            }
            cx.one(c)
        }
        "agent_response_contains" => {
            let (Some(agent), Some(text)) = (cx.text("agent")?, cx.text("contains")?) else {
                return cx.misconfigured("`agent` and `contains` are both required");
            };
            cx.one(agent_response(agent).contains(text).exact_name())
        }
        "state_is" | "transitioned_to" => {
            let Some(state) = cx.text("state")? else {
                return cx.misconfigured("no `state`");
            };
            if which == "state_is" {
                return cx.one(state_is(state));
            }
            // The accumulated transition history: in a turn, every turn so far.
            Ok(vec![cx.label(cx.session(transitioned_to(state)), None)])
        }
        "workflow_complete" => cx.one(workflow_complete()),
        _ => guardrail(&cx),
    }
}

fn length(cx: &Ctx<'_>, min: bool) -> Result<Vec<Expectation>, Problem> {
    let keys: &[&str] = if min {
        &["min", "min_characters", "min_chars"]
    } else {
        &["max", "max_characters", "max_chars"]
    };
    let mut n = None;
    for k in keys {
        if let Some(v) = cx.count(k)?.filter(|v| *v > 0) {
            n = Some(v);
            break;
        }
    }
    let text = match cx.place {
        Place::Turn => reply(),
        Place::Conversation => replies(),
    };
    if min {
        let Some(n) = n else {
            return cx.misconfigured("`min` must be a positive number of characters");
        };
        // Go's `len()` counts bytes.
        return cx.one(text.length().at_least(n).in_bytes());
    }
    // `max_tokens` estimates four characters a token: `len / 4 > max_tokens` fails.
    let tokens = cx
        .count("max_tokens")?
        .filter(|t| *t > 0)
        .map(|t| t.saturating_mul(4).saturating_add(3));
    let Some(max) = n else {
        return cx.misconfigured("`max` must be a positive number of characters");
    };
    let max = tokens.map_or(max, |t| t.min(max));
    cx.one(text.length().at_most(max).in_bytes())
}

fn json_path(cx: &Ctx<'_>) -> Result<Vec<Expectation>, Problem> {
    let p = cx.p;
    let expression = match cx.text("expression")? {
        Some(e) => e,
        None => match cx.text("jmespath_expression")? {
            Some(e) => e,
            None => return cx.misconfigured("no `expression`"),
        },
    };
    let mut parts: Vec<Matcher> = Vec::new();
    if let Some(expected) = p.get("expected") {
        parts.push(exact(expected.clone()).into_matcher());
    }
    if let Some(items) = p.get("contains") {
        let items = match items {
            Value::Array(a) => a,
            other => {
                return Err((
                    cx.here("contains"),
                    format!("expected an array of items, got {}", kind(other)),
                ));
            }
        };
        for item in items {
            parts.push(matches_schema(
                json!({"type": "array", "contains": {"const": item}}),
            ));
        }
    }
    let mut range = Map::new();
    for (key, keyword) in [("min", "minimum"), ("max", "maximum")] {
        match p.get(key) {
            None | Some(Value::Null) => {}
            Some(Value::Number(n)) => {
                range.insert(keyword.into(), Value::Number(n.clone()));
            }
            Some(other) => {
                return Err((
                    cx.here(key),
                    format!("expected a number, got {}", kind(other)),
                ));
            }
        }
    }
    if !range.is_empty() {
        range.insert("type".into(), json!("number"));
        parts.push(matches_schema(Value::Object(range)));
    }
    let mut count = Map::new();
    for (key, keyword) in [("min_results", "minItems"), ("max_results", "maxItems")] {
        // PromptKit reads 0 as "not set".
        if let Some(n) = cx.count(key)?.filter(|n| *n > 0) {
            count.insert(keyword.into(), json!(n));
        }
    }
    if !count.is_empty() {
        count.insert("type".into(), json!("array"));
        parts.push(matches_schema(Value::Object(count)));
    }
    let q = jmespath(expression);
    let c = match parts.len() {
        0 => q.evaluates(),
        1 => q.is(parts.remove(0)),
        _ => q.is(all_of(parts)),
    };
    cx.one(c.with_source(cx.json_source()?))
}

fn guardrail(cx: &Ctx<'_>) -> Result<Vec<Expectation>, Problem> {
    let p = cx.p;
    // `expected` (documented), `should_trigger` (the handler), `assertions` (the seed's
    // examples): one flag, three spellings.
    let mut expected: Option<(bool, &str)> = None;
    for key in ["expected", "should_trigger", "assertions"] {
        if let Some(b) = opt_bool(p, key, &cx.at)? {
            match expected {
                Some((a, first)) if a != b => {
                    return Err((
                        cx.here(key),
                        format!("`{first}` and `{key}` say opposite things: give one"),
                    ));
                }
                _ => expected = Some((b, key)),
            }
        }
    }
    let expected = expected.is_none_or(|(b, _)| b);
    let mut name = None;
    for key in ["guardrail", "validator_type", "validator"] {
        if let Some(n) = cx.text(key)? {
            name = Some(n);
            break;
        }
    }
    // In PromptKit a validator that did not run did not trigger.
    cx.one(match (name, expected) {
        (Some(g), true) => guardrail_triggered(g).into_expectation(),
        (Some(g), false) => guardrail_not_triggered(g).or_not_run().into_expectation(),
        (None, true) => any_guardrail_triggered().into_expectation(),
        (None, false) => no_guardrail_triggered().or_not_run().into_expectation(),
    })
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
