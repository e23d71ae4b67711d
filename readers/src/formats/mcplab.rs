//! MCPLab scenarios (YAML): one scenario, `scenarios: [...]`, or a list of them.
//!
//! | MCPLab | agent-test |
//! |---|---|
//! | `id` / `name`, `description` | the scenario's name (the file's stem when both are absent; `id` is also kept in the `extra` context variable) and description |
//! | `prompt` | the one user turn; without one (and with an `eval`), the scenario is evaluated on a recording |
//! | `tool_constraints.required_tools` / `forbidden_tools` | [`required_tools`] / [`forbidden_tools`]: on the set of called names, one violation per tool |
//! | `tool_sequence` | [`tool_sequence`]: an ordered subsequence; a repeated name needs a call of its own |
//! | `tool_input_assertions`: `contains` / `regex` / `jsonpath` (`tool`, `value` / `pattern` / `path`, `equals`) | some call of the tool whose [`arguments`](agent_test_core::check::ToolCheck::arguments), as compact JSON, contain `value` (case-insensitive) or match `pattern` (case-sensitive), or whose [`arg_json_path`](agent_test_core::check::ToolCheck::arg_json_path) selects something (equal to `equals`) |
//! | `contains`, `not_contains`, `starts_with`, `ends_with`, `equals` | the [`reply`] text checks: literal, case-insensitive, untrimmed |
//! | `regex` | [`reply`]`().matches(..).case_insensitive()`: always case-insensitive, a leading `(?i)` is dropped |
//! | `jsonpath` (+ `equals`), `jsonpath_exists`, `jsonpath_not_exists` | [`json_path`] on the final answer's text; not JSON fails all three |
//! | `agent_assertions` (`label`, `prompt`) | [`judge`] checks labelled `label` and [graded as](agent_test_core::check::JudgeCheck::graded_as) `label` (two labels with one prompt are two grades), in one request; by default the judge sees the final answer only |
//! | `agent_context.include_prompt` / `include_tool_sequence` / `include_tool_inputs` | the judge also sees the scenario prompt / the called tool names / the tool calls' arguments |
//!
//! ```
//! use agent_test::scenario::RunScenario;
//! # #[cfg(feature = "yaml")] {
//! use agent_test::{formats::SeedFormat, load};
//! use agent_test::model::{Call, Reply, Transcript, Turn};
//! let yaml = "
//! name: refund
//! prompt: Refund order 7
//! eval:
//!   tool_constraints:
//!     required_tools: [lookup_account]
//!     forbidden_tools: [delete_account]
//!   response_assertions:
//!     - type: contains
//!       value: refund processed
//! ";
//! let case = load::cases_from_text(yaml, "refund.yaml", Some(SeedFormat::McpLab)).unwrap().remove(0);
//! let reply = Reply::text("Refund PROCESSED.").call(Call::tool("lookup_account", serde_json::json!({})));
//! let report = case.scenario.evaluate(&Transcript::new(vec![Turn::new(0, "Refund order 7", reply, 5)]));
//! assert!(report.passed(), "{report}");
//! # }
//! ```

use std::path::Path;

use serde_json::{Map, Value};

use super::ImportedCase;
use super::read::{
    Problem, array, closed, index, join, kind, named_scenario, number_text, object, open_object,
    opt_bool, opt_object, opt_string, required, string, strings, tag,
};
use agent_test_core::check::{
    CheckExt, Expectation, IntoExpectation, JsonSourceOptions, forbidden_tools, json_path, judge,
    reply, required_tools, tool, tool_sequence,
};
use agent_test_core::matcher::{any, contains, regex};
use agent_test_core::scenario::Scenario;
use agent_test_core::util::input::LoadError;

const SCENARIO_FIELDS: &[&str] = &["id", "name", "description", "prompt", "eval"];

pub(crate) fn from_value(doc: &Value, file: &Path) -> Result<Vec<ImportedCase>, LoadError> {
    super::read::cases(doc, file, Some("scenarios"), scenario)
}

/// Whether a document looks like MCPLab scenarios.
pub(crate) fn detect(v: &Value) -> bool {
    // A scenario with a prompt, or one evaluated on a recording alone: an `eval` block.
    let one = |v: &Value| {
        v.get("prompt").is_some_and(Value::is_string) || v.get("eval").is_some_and(Value::is_object)
    };
    super::read::first_case(v, Some("scenarios")).is_some_and(one)
}

fn scenario(v: &Value, at: &str, default_name: String) -> Result<Scenario, Problem> {
    let o = object(v, at, SCENARIO_FIELDS)?;
    let mut scenario = named_scenario(o, at, default_name)?;
    // Without a prompt the scenario is evaluated on a recording (`agent-test eval`): its
    // checks see the recorded conversation.
    if let Some(prompt) = opt_string(o, "prompt", at)? {
        scenario = scenario.user(prompt);
    }
    let Some(eval) = opt_object(
        o,
        "eval",
        at,
        &[
            "tool_constraints",
            "tool_sequence",
            "tool_input_assertions",
            "response_assertions",
            "agent_assertions",
            "agent_context",
        ],
    )?
    else {
        if !o.contains_key("prompt") {
            return Err((
                at.to_owned(),
                "missing field `prompt` (or an `eval` to evaluate a recording with)".into(),
            ));
        }
        return Ok(scenario);
    };
    let at = join(at, "eval");
    scenario.expect = checks(eval, &at)?;
    Ok(scenario)
}

fn checks(eval: &Map<String, Value>, at: &str) -> Result<Vec<Expectation>, Problem> {
    let mut out = Vec::new();
    if let Some(tc) = opt_object(
        eval,
        "tool_constraints",
        at,
        &["required_tools", "forbidden_tools"],
    )? {
        let here = join(at, "tool_constraints");
        let required = strings(tc, "required_tools", &here)?;
        if !required.is_empty() {
            out.push(required_tools(required).into_expectation());
        }
        let forbidden = strings(tc, "forbidden_tools", &here)?;
        if !forbidden.is_empty() {
            out.push(forbidden_tools(forbidden).into_expectation());
        }
    }
    let sequence = strings(eval, "tool_sequence", at)?;
    if !sequence.is_empty() {
        out.push(tool_sequence(sequence).into_expectation());
    }
    let here = join(at, "tool_input_assertions");
    for (i, a) in array(eval, "tool_input_assertions", at)?.iter().enumerate() {
        out.push(tool_input_assertion(a, &index(&here, i))?);
    }
    let here = join(at, "response_assertions");
    for (i, a) in array(eval, "response_assertions", at)?.iter().enumerate() {
        out.push(response_assertion(a, &index(&here, i))?);
    }
    let (with_prompt, with_tools, with_inputs) = match opt_object(
        eval,
        "agent_context",
        at,
        &[
            "include_prompt",
            "include_tool_sequence",
            "include_tool_inputs",
        ],
    )? {
        Some(ctx) => {
            let here = join(at, "agent_context");
            (
                opt_bool(ctx, "include_prompt", &here)?.unwrap_or(false),
                opt_bool(ctx, "include_tool_sequence", &here)?.unwrap_or(false),
                opt_bool(ctx, "include_tool_inputs", &here)?.unwrap_or(false),
            )
        }
        None => (false, false, false),
    };
    let here = join(at, "agent_assertions");
    for (i, a) in array(eval, "agent_assertions", at)?.iter().enumerate() {
        let here = index(&here, i);
        let o = object(a, &here, &["label", "prompt"])?;
        let mut c = judge(string(o, "prompt", &here)?);
        if !with_prompt {
            c = c.without_prompt();
        }
        if with_tools {
            c = c.with_tool_sequence();
        }
        if with_inputs {
            c = c.with_tool_inputs();
        }
        let label = opt_string(o, "label", &here)?;
        // MCPLab grades each labelled assertion: two with the same prompt are two grades.
        if let Some(label) = &label {
            c = c.graded_as(label.clone());
        }
        let mut e = c.into_expectation();
        if let Some(label) = label {
            e = e.label(label);
        }
        out.push(e);
    }
    Ok(out)
}

const TOOL_INPUT_TYPES: &[&str] = &["contains", "regex", "jsonpath"];

/// A `tool_input_assertions` item: some call of `tool` whose input (its arguments) matches —
/// `contains` (the arguments as compact JSON, case-insensitive), `regex` (on that JSON,
/// case-sensitive: MCPLab gives it no flag) or `jsonpath` (some selected value, strictly equal
/// to `equals` when given).
fn tool_input_assertion(v: &Value, at: &str) -> Result<Expectation, Problem> {
    let o = open_object(v, at)?;
    let which = tag(o, "type", at, TOOL_INPUT_TYPES)?;
    let fields: &[&str] = match which {
        "contains" => &["type", "tool", "value"],
        "regex" => &["type", "tool", "pattern"],
        _ => &["type", "tool", "path", "equals"],
    };
    let o = closed(o, at, fields)?;
    let name = string(o, "tool", at)?;
    let (c, shown) = match which {
        "contains" => {
            let value = literal_text(o, at)?;
            let shown = format!("contains {value}");
            (
                tool(name.clone()).arguments(contains(value).ignore_case()),
                shown,
            )
        }
        "regex" => {
            let pattern = string(o, "pattern", at)?;
            let shown = format!("matches regex {pattern}");
            (tool(name.clone()).arguments(regex(pattern)), shown)
        }
        _ => {
            let path = string(o, "path", at)?;
            match o.get("equals") {
                None => {
                    let shown = format!("JSONPath {path} exists");
                    (tool(name.clone()).arg_json_path(path, any()), shown)
                }
                Some(value @ (Value::String(_) | Value::Number(_) | Value::Bool(_))) => {
                    let shown = format!("JSONPath {path} == {}", shown_value(value));
                    (tool(name.clone()).arg_json_path(path, value.clone()), shown)
                }
                Some(other) => {
                    return Err((
                        join(at, "equals"),
                        format!("expected a string, number or boolean, got {}", kind(other)),
                    ));
                }
            }
        }
    };
    // MCPLab's own label: "Tool input · search contains Paris".
    Ok(c.into_expectation()
        .label(format!("Tool input · {name} {shown}")))
}

/// A scalar as JavaScript's `String(..)` writes it.
fn shown_value(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => number_text(n),
        other => other.to_string(),
    }
}

/// A literal check's `value`, as text (YAML may have read `value: 42` as a number).
fn literal_text(o: &Map<String, Value>, at: &str) -> Result<String, Problem> {
    match required(o, "value", at)? {
        Value::String(s) => Ok(s.clone()),
        // As JavaScript's `String(..)` writes it: `1.0` is "1".
        Value::Number(n) => Ok(number_text(n)),
        Value::Bool(b) => Ok(b.to_string()),
        other => Err((
            join(at, "value"),
            format!("expected a string, got {}", kind(other)),
        )),
    }
}

const RESPONSE_TYPES: &[&str] = &[
    "contains",
    "not_contains",
    "starts_with",
    "ends_with",
    "equals",
    "regex",
    "jsonpath",
    "jsonpath_exists",
    "jsonpath_not_exists",
];

fn response_assertion(v: &Value, at: &str) -> Result<Expectation, Problem> {
    let o = open_object(v, at)?;
    let kind_ = tag(o, "type", at, RESPONSE_TYPES)?;
    let fields: &[&str] = match kind_ {
        "regex" => &["type", "pattern"],
        "jsonpath" => &["type", "path", "equals"],
        "jsonpath_exists" | "jsonpath_not_exists" => &["type", "path"],
        _ => &["type", "value"],
    };
    let o = closed(o, at, fields)?;
    Ok(match kind_ {
        "regex" => {
            let pattern = string(o, "pattern", at)?;
            // JavaScript's `i` flag is always on; `(?i)` is accepted and redundant.
            let pattern = pattern
                .strip_prefix("(?i)")
                .map_or(pattern.clone(), str::to_owned);
            reply()
                .matches(pattern)
                .case_insensitive()
                .into_expectation()
        }
        "jsonpath" | "jsonpath_exists" | "jsonpath_not_exists" => {
            let q = json_path(string(o, "path", at)?);
            match (kind_, o.get("equals")) {
                ("jsonpath", Some(value)) => q.equals(value.clone()),
                ("jsonpath_not_exists", _) => q.not_exists(),
                _ => q.exists(),
            }
            .in_reply()
            .into_expectation()
        }
        _ => {
            // Literal checks compare text; YAML may have read `value: 42` as a number.
            let value = literal_text(o, at)?;
            let text = reply();
            match kind_ {
                "contains" => text.contains(value),
                "not_contains" => text.not_contains(value),
                "starts_with" => text.starts_with(value),
                "ends_with" => text.ends_with(value),
                _ => text.equals(value),
            }
            .into_expectation()
        }
    })
}

#[cfg(all(test, feature = "yaml"))]
mod tests {
    #[test]
    fn errors_name_the_path_and_what_was_expected() {
        let err = |text: &str| {
            crate::formats::read_named(text, "s.yaml", crate::formats::SeedFormat::McpLab)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err("prompt: hi\neval:\n  response_assertions:\n    - type: contain\n      value: x\n"),
            "s.yaml: at eval.response_assertions[0].type: unknown type `contain`, expected one of `contains`, `not_contains`, `starts_with`, `ends_with`, `equals`, `regex`, `jsonpath`, `jsonpath_exists`, `jsonpath_not_exists`"
        );
        assert_eq!(
            err("prompt: hi\neval:\n  tool_constraint: {}\n"),
            "s.yaml: at eval.tool_constraint: unknown field `tool_constraint` (did you mean `tool_constraints`?), expected one of `tool_constraints`, `tool_sequence`, `tool_input_assertions`, `response_assertions`, `agent_assertions`, `agent_context`"
        );
        assert_eq!(
            err("scenarios:\n  - prompt: a\n  - name: b\n"),
            "s.yaml: at scenarios[1]: missing field `prompt` (or an `eval` to evaluate a recording with)"
        );
        assert_eq!(
            err(
                "prompt: hi\neval:\n  response_assertions:\n    - type: regex\n      pattern: \"a\\s\"\n"
            ),
            "s.yaml: at line 5, column 16: not valid YAML: while parsing a quoted scalar, found unknown escape character"
        );
    }
}
