//! MorganaBench examples: `{inputs, expectations, outputs?}`, one per file (JSON), an array of
//! them, or one per line (JSONL).
//!
//! | MorganaBench | agent-test |
//! |---|---|
//! | `inputs.messages` (the last is the user's request) | earlier messages → the scenario's history; the last → its one user turn |
//! | `inputs.tools`, `inputs.metadata`, extra fields | context variables `tools`, `metadata`, `extra` (kept, shown in reports) |
//! | `expectations.expected_response` | [`expected_response`] (judged) |
//! | `assert_that: tool_called` + `parameters` | [`tool`] with one `.arg` per parameter; some call must satisfy all |
//! | `assert_that: no_tool_called` | [`no_tools`] |
//! | `match_as: equality / email / missing / optional` | `exact` / `email` / `missing` / `optional` matchers (an `equality` value is a string, number or boolean, as the schema says) |
//! | `match_as: free_text / date_time` | the judged [`free_text`] / [`date_time`] (relative to `outputs.environment.user_time`) |
//! | a parameter group (`params` + matcher) | [`arg_group`](agent_test_core::check::ToolCheck::arg_group): the arguments judged together |
//! | `outputs` | the recorded run (see [`trace`]) |
//!
//! Closed objects (assertions, parameters, matchers, messages) reject unknown fields with the
//! file, the path and what was expected; the objects the schema leaves open (`**extra_data`)
//! keep their extra fields in the `extra` context variable.
//!
//! ```
//! use agent_test::scenario::RunScenario;
//! use agent_test::{formats::SeedFormat, load};
//! let text = r#"{
//!   "inputs": {"messages": [{"role": "user", "content": "Email Ana the agenda"}]},
//!   "expectations": {"assertions": [{"assert_that": "tool_called", "tool": "send_email",
//!     "parameters": [{"param": "to", "matcher": {"match_as": "email", "value": "ana@example.com"}}]}]},
//!   "outputs": {"response": "Sent.", "trace": [
//!     {"event": "tool_call", "id": "1", "tool": "send_email", "params": {"to": "ana@Example.COM"}}]}
//! }"#;
//! let case = load::cases_from_text(text, "agenda.json", Some(SeedFormat::MorganaBench)).unwrap().remove(0);
//! let report = case.scenario.evaluate(&case.recording.unwrap().transcript);
//! assert!(report.passed(), "{report}");
//! ```

use std::path::Path;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::ImportedCase;
use super::read::{Problem, array, index, join, list, load_error, object, required, stem, string};
use crate::trace::{self, TraceFormat};
use agent_test_core::check::{IntoExpectation, expected_response, no_tools, tool};
use agent_test_core::matcher::{
    IntoMatcher, Matcher, date_time, email, exact, free_text, missing, optional,
};
use agent_test_core::model::RecordedRun;
use agent_test_core::model::ScenarioInfo;
use agent_test_core::model::{Message, Role};
use agent_test_core::scenario::Scenario;
use agent_test_core::util::input::LoadError;
use agent_test_core::util::json::{self as strict_json, JsonTextError, strip_bom};

#[derive(Deserialize)]
struct Example {
    inputs: Inputs,
    expectations: Expectations,
    /// Read by the trace parser; here only whether it is there.
    #[serde(default)]
    outputs: Option<serde::de::IgnoredAny>,
    #[serde(flatten)]
    extra: Map<String, Value>,
}

#[derive(Deserialize)]
struct Inputs {
    messages: Vec<ChatMessage>,
    #[serde(default)]
    metadata: Option<Value>,
    #[serde(default)]
    tools: Option<Vec<String>>,
    #[serde(flatten)]
    extra: Map<String, Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChatMessage {
    role: String,
    content: String,
}

#[derive(Deserialize)]
struct Expectations {
    #[serde(default)]
    expected_response: Option<String>,
    /// Read by hand ([`assertion`]): serde's tagged enums lose the path inside them.
    #[serde(default)]
    assertions: Vec<Value>,
    #[serde(flatten)]
    extra: Map<String, Value>,
}

/// `tool_called` / `no_tool_called` as a native check.
fn assertion(v: &Value, at: &str) -> Result<agent_test_core::check::Expectation, Problem> {
    let kind = v
        .get("assert_that")
        .and_then(Value::as_str)
        .unwrap_or_default();
    match kind {
        "no_tool_called" => {
            object(v, at, &["assert_that"])?;
            Ok(no_tools().into_expectation())
        }
        "tool_called" => {
            let o = object(v, at, &["assert_that", "tool", "parameters"])?;
            let mut check = tool(string(o, "tool", at)?);
            let params_at = join(at, "parameters");
            for (j, p) in array(o, "parameters", at)?.iter().enumerate() {
                let here = index(&params_at, j);
                let po = object(p, &here, &["param", "params", "matcher"])?;
                let matcher_at = join(&here, "matcher");
                let m = required(po, "matcher", &here)?;
                check = match (po.get("param"), po.get("params")) {
                    (Some(Value::String(param)), None) => {
                        check.arg(param.clone(), matcher(m, &matcher_at)?)
                    }
                    (None, Some(Value::Array(group))) if !group.is_empty() => {
                        let names: Option<Vec<String>> = group
                            .iter()
                            .map(|g| g.as_str().map(str::to_owned))
                            .collect();
                        let names = names.ok_or_else(|| {
                            (join(&here, "params"), "expected parameter names".to_owned())
                        })?;
                        let kind = m
                            .get("match_as")
                            .and_then(Value::as_str)
                            .unwrap_or_default();
                        if !matches!(kind, "free_text" | "date_time" | "optional") {
                            return Err((
                                matcher_at,
                                "a parameter group is judged jointly: expected a `free_text`, `date_time` or `optional` matcher".into(),
                            ));
                        }
                        check.arg_group(names, matcher(m, &matcher_at)?)
                    }
                    _ => {
                        return Err((
                            here,
                            "expected either `param` (one parameter) or a non-empty `params` (a group)".into(),
                        ));
                    }
                };
            }
            Ok(check.into_expectation())
        }
        other => Err((
            join(at, "assert_that"),
            format!("unknown assertion `{other}`, expected `tool_called` or `no_tool_called`"),
        )),
    }
}

/// A MorganaBench matcher as a native one.
fn matcher(v: &Value, at: &str) -> Result<Matcher, Problem> {
    const MATCH_AS: &[&str] = &[
        "equality",
        "email",
        "missing",
        "optional",
        "free_text",
        "date_time",
    ];
    let o = super::read::open_object(v, at)?;
    if !o.contains_key("match_as") {
        // Another system's matcher (Mibo's `{"matcher": "regex"}`), a misspelt `match_as`, or
        // none at all: never read as something else.
        let foreign = o.keys().find(|k| super::read::names_a_matcher(k));
        return Err(match foreign {
            Some(k) => (
                join(at, k),
                format!(
                    "{} is not MorganaBench's matcher syntax: write {{\"match_as\": {}, ...}}",
                    super::read::matcher_word(k),
                    list(MATCH_AS).replace(", ", " | ")
                ),
            ),
            None => (
                at.to_owned(),
                format!(
                    "missing field `match_as`, expected one of {}",
                    list(MATCH_AS)
                ),
            ),
        });
    }
    let kind = v
        .get("match_as")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let value_of = |o: &Map<String, Value>| string(o, "value", at);
    Ok(match kind {
        "equality" => {
            let o = object(v, at, &["match_as", "value"])?;
            // `EqualsMatcher.value: str | int | float | bool`: a list, an object or null is
            // not an equality value in MorganaBench's schema.
            match required(o, "value", at)? {
                value @ (Value::String(_) | Value::Number(_) | Value::Bool(_)) => {
                    exact(value.clone()).into_matcher()
                }
                other => {
                    return Err((
                        join(at, "value"),
                        format!(
                            "expected a string, number or boolean (an `equality` value is \
                             `str | int | float | bool`), got {}",
                            super::read::kind(other)
                        ),
                    ));
                }
            }
        }
        "email" => email(value_of(object(v, at, &["match_as", "value"])?)?),
        "missing" => {
            object(v, at, &["match_as"])?;
            missing()
        }
        "optional" => {
            let o = object(v, at, &["match_as", "default"])?;
            optional(matcher(required(o, "default", at)?, &join(at, "default"))?)
        }
        "free_text" => free_text(value_of(object(v, at, &["match_as", "value"])?)?),
        "date_time" => date_time(value_of(object(v, at, &["match_as", "value"])?)?),
        other => {
            return Err((
                format!("{at}.match_as"),
                format!(
                    "unknown matcher `{other}`, expected one of {}",
                    list(MATCH_AS)
                ),
            ));
        }
    })
}

/// Whether a JSON document looks like MorganaBench examples.
pub(crate) fn detect(v: &Value) -> bool {
    let one = |v: &Value| v.get("inputs").is_some() && v.get("expectations").is_some();
    super::read::first_case(v, None).is_some_and(one)
}

/// The examples of MorganaBench text: JSON lines when `lines` (a `.jsonl` file), else one
/// JSON document, or JSON lines when the text reads as such.
pub(crate) fn read_text(
    text: &str,
    file: &Path,
    lines: bool,
) -> Result<Vec<ImportedCase>, LoadError> {
    let text = strip_bom(text);
    // A `.jsonl` file is read line by line even when it has a single line, so errors name it.
    // Other text is one JSON document unless it reads as JSON lines: a broken pretty-printed
    // example is reported where it breaks, not as a broken first line.
    if !lines {
        match strict_json::parse(text) {
            Ok(doc) => return from_value(&doc, file),
            Err(JsonTextError::Syntax(_)) if looks_like_jsonl(text) => {}
            Err(e) => return Err(super::read::json_text_error(file, e)),
        }
    }
    let stem = stem(file);
    jsonl_lines(text)
        .map(|(n, line)| from_line(line, n, &stem, file))
        .collect()
}

/// The non-blank lines of JSON lines text, each with its 0-based number.
pub(crate) fn jsonl_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
}

/// The example on line `n` (0-based) of a JSON lines file, named `<stem>-<line>`.
pub(crate) fn from_line(
    line: &str,
    n: usize,
    stem: &str,
    file: &Path,
) -> Result<ImportedCase, LoadError> {
    let at = format!("line {}", n + 1);
    let v = strict_json::parse(line).map_err(|e| match e {
        JsonTextError::Syntax(e) => load_error(file, (at.clone(), format!("not valid JSON: {e}"))),
        JsonTextError::Duplicate(d) => {
            load_error(file, (format!("{at}: {}", d.path), d.message(n)))
        }
    })?;
    case(format!("{stem}-{}", n + 1), &v, &at, file)
}

/// Examples from a parsed JSON document: one example, or an array of them.
pub(crate) fn from_value(doc: &Value, file: &Path) -> Result<Vec<ImportedCase>, LoadError> {
    let stem = stem(file);
    match doc {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| case(format!("{stem}-{}", i + 1), v, &index("", i), file))
            .collect(),
        v => Ok(vec![case(stem, v, "", file)?]),
    }
}

/// Several non-empty lines, the first of them a JSON document by itself.
fn looks_like_jsonl(text: &str) -> bool {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next();
    lines.next().is_some()
        && first.is_some_and(|l| !matches!(strict_json::parse(l), Err(JsonTextError::Syntax(_))))
}

fn case(name: String, value: &Value, at: &str, file: &Path) -> Result<ImportedCase, LoadError> {
    let err = |path: String, message: String| LoadError {
        kind: agent_test_core::util::input::LoadErrorKind::Invalid,
        file: file.to_owned(),
        // A document's root is "." to serde_path_to_error: the example's own place.
        path: match (at.is_empty(), path.is_empty() || path == ".") {
            (true, _) => path,
            (false, true) => at.to_owned(),
            (false, false) if at.starts_with('[') => format!("{at}.{path}"),
            (false, false) => format!("{at}: {path}"),
        },
        message,
    };
    let example: Example = serde_path_to_error::deserialize(value)
        .map_err(|e| err(e.path().to_string(), e.inner().to_string()))?;
    let Some((last, earlier)) = example.inputs.messages.split_last() else {
        return Err(err(
            "inputs.messages".into(),
            "expected at least one message (the user's request)".into(),
        ));
    };
    if last.role != "user" {
        return Err(err(
            format!(
                "inputs.messages[{}].role",
                example.inputs.messages.len() - 1
            ),
            format!(
                "the last message is the user's request: expected role `user`, got `{}`",
                last.role
            ),
        ));
    }
    let mut history = Vec::new();
    for (i, m) in earlier.iter().enumerate() {
        let role = match m.role.as_str() {
            "user" => Role::User,
            "assistant" => Role::Assistant,
            "system" | "developer" => Role::System,
            other => {
                return Err(err(
                    format!("inputs.messages[{i}].role"),
                    format!("expected `user`, `assistant`, `system` or `developer`, got `{other}`"),
                ));
            }
        };
        history.push(Message::new(role, m.content.clone()));
    }
    let mut scenario = Scenario::new(name.clone())
        .history(history)
        .user(last.content.clone());
    if let Some(tools) = example.inputs.tools {
        scenario = scenario.context("tools", tools);
    }
    if let Some(metadata) = example.inputs.metadata {
        scenario = scenario.context("metadata", metadata);
    }
    let mut extra = example.extra;
    extra.extend(
        example
            .inputs
            .extra
            .into_iter()
            .map(|(k, v)| (format!("inputs.{k}"), v)),
    );
    extra.extend(
        example
            .expectations
            .extra
            .into_iter()
            .map(|(k, v)| (format!("expectations.{k}"), v)),
    );
    if !extra.is_empty() {
        scenario = scenario.context("extra", Value::Object(extra));
    }
    if let Some(reference) = example.expectations.expected_response {
        scenario = scenario.expect(expected_response(reference));
    }
    for (i, a) in example.expectations.assertions.iter().enumerate() {
        let e =
            assertion(a, &format!("expectations.assertions[{i}]")).map_err(|(p, m)| err(p, m))?;
        scenario = scenario.expect(e);
    }
    let scenario = super::read::possible(scenario, "").map_err(|(p, m)| err(p, m))?;
    let recording = match example.outputs {
        None => None,
        Some(_) => {
            let transcript = trace::parse(value, Some(TraceFormat::MorganaBench))
                .map_err(|e| err(e.relative_path().to_owned(), e.message))?;
            Some(RecordedRun {
                scenario: ScenarioInfo::new(name),
                transcript,
            })
        }
    };
    Ok(ImportedCase {
        scenario,
        recording,
    })
}
