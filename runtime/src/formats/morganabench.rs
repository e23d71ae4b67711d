//! MorganaBench examples: `{inputs, expectations, outputs?}`, one per file (JSON), an array of
//! them, or one per line (JSONL).
//!
//! | MorganaBench | agent-test |
//! |---|---|
//! | `inputs.messages` (the last is the user's request) | earlier messages → the scenario's history; the last → its one user turn |
//! | `inputs.tools`, `inputs.metadata`, extra fields | context variables `tools`, `metadata`, `extra` (kept, shown in reports) |
//! | `expectations.expected_response` | [`expected_response`](crate::check::expected_response) (judged) |
//! | `assert_that: tool_called` + `parameters` | [`tool`](crate::check::tool) with one `.arg` per parameter; some call must satisfy all |
//! | `assert_that: no_tool_called` | [`no_tools`](crate::check::no_tools) |
//! | `match_as: equality / email / missing / optional` | `exact` / `email` / `missing` / `optional` matchers |
//! | `match_as: free_text / date_time` | the judged [`free_text`](crate::matcher::free_text) / [`date_time`](crate::matcher::date_time) (relative to `outputs.environment.user_time`) |
//! | a parameter group (`params` + matcher) | [`arg_group`](crate::check::ToolCheck::arg_group): the arguments judged together |
//! | `outputs` | the recorded run (see [`trace`](crate::trace)) |
//!
//! Closed objects (assertions, parameters, matchers, messages) reject unknown fields with the
//! file, the path and what was expected; the objects the schema leaves open (`**extra_data`)
//! keep their extra fields in the `extra` context variable.
//!
//! ```
//! use agent_test_runtime::formats::morganabench;
//! let text = r#"{
//!   "inputs": {"messages": [{"role": "user", "content": "Email Ana the agenda"}]},
//!   "expectations": {"assertions": [{"assert_that": "tool_called", "tool": "send_email",
//!     "parameters": [{"param": "to", "matcher": {"match_as": "email", "value": "ana@example.com"}}]}]},
//!   "outputs": {"response": "Sent.", "trace": [
//!     {"event": "tool_call", "id": "1", "tool": "send_email", "params": {"to": "ana@Example.COM"}}]}
//! }"#;
//! let case = morganabench::from_text(text, "agenda.json").unwrap().remove(0);
//! let report = case.scenario.evaluate(&case.recording.unwrap().transcript);
//! assert!(report.passed(), "{report}");
//! ```

use std::path::Path;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::ImportedCase;
use super::read::{Problem, list, object, string};
use crate::check::{IntoExpectation, expected_response, no_tools, tool};
use crate::matcher::{IntoMatcher, Matcher, date_time, email, exact, free_text, missing, optional};
use crate::model::{Message, Role, Scenario, Step};
use crate::run::ScenarioInfo;
use crate::trace::{self, Format};
use crate::{LoadError, RecordedRun};

#[derive(Deserialize)]
struct Example {
    inputs: Inputs,
    expectations: Expectations,
    #[serde(default)]
    outputs: Option<Value>,
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
fn assertion(v: &Value, at: &str) -> Result<crate::check::Expectation, Problem> {
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
            let params = match o.get("parameters") {
                None => &[][..],
                Some(Value::Array(a)) => a.as_slice(),
                Some(other) => {
                    return Err((
                        format!("{at}.parameters"),
                        format!("expected an array, got {other}"),
                    ));
                }
            };
            for (j, p) in params.iter().enumerate() {
                let here = format!("{at}.parameters[{j}]");
                let po = object(p, &here, &["param", "params", "matcher"])?;
                let matcher_at = format!("{here}.matcher");
                let m = po
                    .get("matcher")
                    .ok_or_else(|| (here.clone(), "missing field `matcher`".to_owned()))?;
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
                            (
                                format!("{here}.params"),
                                "expected parameter names".to_owned(),
                            )
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
            format!("{at}.assert_that"),
            format!("unknown assertion `{other}`, expected `tool_called` or `no_tool_called`"),
        )),
    }
}

/// A MorganaBench matcher as a native one.
fn matcher(v: &Value, at: &str) -> Result<Matcher, Problem> {
    let kind = v
        .get("match_as")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let value_of = |o: &Map<String, Value>| string(o, "value", at);
    Ok(match kind {
        "equality" => {
            let o = object(v, at, &["match_as", "value"])?;
            let value = o
                .get("value")
                .ok_or_else(|| (at.to_owned(), "missing field `value`".to_owned()))?;
            exact(value.clone()).into_matcher()
        }
        "email" => email(value_of(object(v, at, &["match_as", "value"])?)?),
        "missing" => {
            object(v, at, &["match_as"])?;
            missing()
        }
        "optional" => {
            let o = object(v, at, &["match_as", "default"])?;
            let inner = o
                .get("default")
                .ok_or_else(|| (at.to_owned(), "missing field `default`".to_owned()))?;
            optional(matcher(inner, &format!("{at}.default"))?)
        }
        "free_text" => free_text(value_of(object(v, at, &["match_as", "value"])?)?),
        "date_time" => date_time(value_of(object(v, at, &["match_as", "value"])?)?),
        other => {
            return Err((
                format!("{at}.match_as"),
                format!(
                    "unknown matcher `{other}`, expected one of {}",
                    list(&[
                        "equality",
                        "email",
                        "missing",
                        "optional",
                        "free_text",
                        "date_time"
                    ])
                ),
            ));
        }
    })
}

/// Reads MorganaBench examples from a `.json` or `.jsonl` file.
///
/// ```
/// # use agent_test_runtime::formats::morganabench;
/// let err = morganabench::load("missing.jsonl").unwrap_err();
/// assert!(err.to_string().starts_with("missing.jsonl: cannot read the file"));
/// ```
pub fn load(path: impl AsRef<Path>) -> Result<Vec<ImportedCase>, LoadError> {
    let path = path.as_ref();
    from_text(&super::read_file(path)?, path)
}

/// Whether a JSON document looks like MorganaBench examples.
pub(crate) fn detect(v: &Value) -> bool {
    let one = |v: &Value| v.get("inputs").is_some() && v.get("expectations").is_some();
    match v {
        Value::Array(items) => items.first().is_some_and(one),
        v => one(v),
    }
}

/// Reads MorganaBench examples from text: one example, an array of them, or JSONL (one per
/// line; blank lines skipped; always so for a `.jsonl` file). `file` names the source in
/// errors and scenario names.
///
/// See the [module documentation](self).
pub fn from_text(text: &str, file: impl AsRef<Path>) -> Result<Vec<ImportedCase>, LoadError> {
    let file = file.as_ref();
    let stem = file.file_stem().map_or_else(
        || "example".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    // A `.jsonl` file is read line by line even when it has a single line, so errors name it.
    // Other text is one JSON document unless it reads as JSON lines: a broken pretty-printed
    // example is reported where it breaks, not as a broken first line.
    let whole = if super::is_jsonl(file) {
        Err(())
    } else {
        match serde_json::from_str::<Value>(text) {
            Ok(v) => Ok(v),
            Err(_) if looks_like_jsonl(text) => Err(()),
            Err(_) => {
                return Err(super::read::json(text, file)
                    .err()
                    .unwrap_or_else(|| LoadError {
                        file: file.to_owned(),
                        path: String::new(),
                        message: "not valid JSON".into(),
                    }));
            }
        }
    };
    let docs: Vec<(String, Value, String)> = match whole {
        Ok(Value::Array(items)) => items
            .into_iter()
            .enumerate()
            .map(|(i, v)| (format!("{stem}-{}", i + 1), v, format!("[{i}]")))
            .collect(),
        Ok(v) => vec![(stem.clone(), v, String::new())],
        Err(_) => {
            let mut out = Vec::new();
            for (n, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let v = serde_json::from_str(line).map_err(|e| LoadError {
                    file: file.to_owned(),
                    path: format!("line {}", n + 1),
                    message: format!("not valid JSON: {e}"),
                })?;
                out.push((format!("{stem}-{}", n + 1), v, format!("line {}", n + 1)));
            }
            out
        }
    };
    docs.into_iter()
        .map(|(name, value, at)| case(name, value, &at, file))
        .collect()
}

/// Several non-empty lines, the first of them a JSON document by itself.
fn looks_like_jsonl(text: &str) -> bool {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next();
    lines.next().is_some() && first.is_some_and(|l| serde_json::from_str::<Value>(l).is_ok())
}

fn case(name: String, value: Value, at: &str, file: &Path) -> Result<ImportedCase, LoadError> {
    let err = |path: String, message: String| LoadError {
        file: file.to_owned(),
        path: match (at.is_empty(), path.is_empty()) {
            (true, _) => path,
            (false, true) => at.to_owned(),
            (false, false) if at.starts_with('[') => format!("{at}.{path}"),
            (false, false) => format!("{at}: {path}"),
        },
        message,
    };
    let example: Example = serde_path_to_error::deserialize(value.clone())
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
                    format!("expected `user`, `assistant` or `system`, got `{other}`"),
                ));
            }
        };
        history.push(Message::new(role, m.content.clone()));
    }
    let mut scenario = Scenario::new(name.clone()).history(history);
    scenario.steps.push(Step::User {
        text: last.content.clone(),
        body: None,
        expect: Vec::new(),
    });
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
    let recording = match example.outputs {
        None => None,
        Some(_) => {
            let transcript = trace::parse(&value, Some(Format::MorganaBench)).map_err(|e| {
                err(
                    e.path
                        .trim_start_matches('$')
                        .trim_start_matches('.')
                        .to_owned(),
                    e.message,
                )
            })?;
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
