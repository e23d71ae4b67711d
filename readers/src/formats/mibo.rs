//! Mibo test cases (JSON): one case, `{"context", "content": case}`, or an array of either.
//!
//! | Mibo | agent-test |
//! |---|---|
//! | `scenario` | the scenario's name (the file's stem when absent) |
//! | `input_utterance` / `turns[]` / `custom_body` | user turns; a custom body is sent as is (`agent::custom_body`) |
//! | `context` (also beside `content`) | context variables: template placeholders and expression variables |
//! | `optimization_target`, `test_dimension` | kept in the `extra` context variable |
//! | top-level `assertions` / a turn's `assertions` | checks on the whole conversation / on that turn |
//! | `node_call` MUST_CALL / MUST_NOT_CALL / CALL_COUNT | [`any_call`] (a node, or a tool in a flat trace), `.never()`, `.times(n)` |
//! | `expected_tool_calls[]` | [`ToolCheck::tool`](agent_test_core::check::ToolCheck::tool): checks on the calls inside the node; all fail when the node did not run |
//! | `expected_arguments`, `expected_index`, `strict`, `forbidden_arguments` | `.arg`, `.at_position`, `.strict()`, `.forbid_arg` |
//! | a bare value, `exact` | [`exact`] with unordered lists and the `"*"` wildcard; with `expression`, [`expr`] |
//! | `contains` | [`contains`]: both sides as text, case-sensitive |
//! | `regex`, `date` (+ `tolerance_minutes`, 0 by default), `one_of`, `any`, `optional: true` | [`regex`](agent_test_core::matcher::regex), [`date`], [`one_of`] of [`matches_schema`] variants, [`any`], [`optional`] |
//! | `json_match` (+ `condition: NOT_EQUALS`) | [`field`]`.is` / `.is_not` |
//! | `response_regex` (+ `should_match`) | [`reply`]`().matches` / `.not_matches` (case-sensitive unless `(?i)`) |
//! | `json_schema` (+ `field`) | [`schema`]`.at(field)` |
//! | `http_status`, `response_time`, `token_limit` | [`http_status`], [`latency`], [`tokens`] |
//! | `semantic`: `criteria`, `threshold`, `type`, `negative_constraints`, `target_node`, `output_key` | [`judge`]`.threshold`, `.hallucination()`, `.must_not`, `.on_node` |
//! | `id`, `depends_on` | `.id`, `.depends_on` (an unmet dependency skips the check) |
//!
//! Every object is closed: an unknown field is an error naming the file and the path.
//!
//! ```
//! use agent_test::scenario::RunScenario;
//! use agent_test::{formats::SeedFormat, load};
//! use agent_test::model::{Call, Reply, Transcript, Turn};
//! let text = r#"{
//!   "scenario": "Order uses SKU from context payload",
//!   "input_utterance": "Create an order",
//!   "context": {"ORDER_JSON": "{\"sku\": \"ABC-123\", \"qty\": 1}"},
//!   "assertions": {"procedural": [{"target": "node_call", "condition": "MUST_CALL",
//!     "expected_name": "Agent", "expected_tool_calls": [{"condition": "MUST_CALL",
//!     "expected_name": "create_order", "expected_arguments": {"sku": {"matcher": "exact",
//!     "expression": "JSON_EXTRACT(ORDER_JSON, 'sku')"}}}]}], "semantic": []}
//! }"#;
//! let case = load::cases_from_text(text, "order.json", Some(SeedFormat::Mibo)).unwrap().remove(0);
//! let reply = Reply::text("Done.").call(
//!     Call::node("Agent").child(Call::tool("create_order", serde_json::json!({"sku": "ABC-123"}))));
//! let report = case.scenario.evaluate(&Transcript::new(vec![Turn::new(0, "Create an order", reply, 5)]));
//! assert!(report.passed(), "{report}");
//! ```

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value};

use super::ImportedCase;
use super::read::{
    Problem, array, closed, index, join, kind, object, open_object, opt_bool, opt_object,
    opt_open_object, opt_string, opt_tag, opt_threshold, opt_u64, required, string, strings, tag,
};
use agent_test_core::check::{
    CheckExt, Expectation, IntoExpectation, ToolCheck, any_call, field, http_status, judge,
    latency, reply, schema, tokens, tool,
};
use agent_test_core::matcher::{
    IntoMatcher, Matcher, any, contains, date, exact, expr, matches_schema, one_of, optional, regex,
};
use agent_test_core::scenario::{Scenario, Step};
use agent_test_core::util::input::LoadError;

const CASE_FIELDS: &[&str] = &[
    "scenario",
    "input_utterance",
    "turns",
    "custom_body",
    "context",
    "assertions",
    "optimization_target",
    "test_dimension",
];

pub(crate) fn from_value(doc: &Value, file: &Path) -> Result<Vec<ImportedCase>, LoadError> {
    super::read::cases(doc, file, None, case)
}

/// Whether a JSON document looks like Mibo test cases.
pub(crate) fn detect(v: &Value) -> bool {
    let one = |v: &Value| {
        let v = v.get("content").unwrap_or(v);
        v.get("assertions")
            .is_some_and(|a| a.get("procedural").is_some() || a.get("semantic").is_some())
            || v.get("input_utterance").is_some()
            || v.get("turns").is_some_and(|t| {
                t.as_array()
                    .is_some_and(|t| t.iter().any(|t| t.get("input_utterance").is_some()))
            })
    };
    super::read::first_case(v, None).is_some_and(one)
}

fn case(v: &Value, at: &str, default_name: String) -> Result<Scenario, Problem> {
    // `{"context": {...}, "content": {case}}`: the platform's wrapper, context beside the case.
    let outer_at = at;
    let (v, at, outer_context) = match v.get("content") {
        Some(content) => {
            let o = object(v, at, &["context", "content"])?;
            (content, join(at, "content"), o.get("context"))
        }
        None => (v, at.to_owned(), None),
    };
    let o = object(v, &at, CASE_FIELDS)?;
    let name = opt_string(o, "scenario", &at)?.unwrap_or(default_name);
    let mut scenario = Scenario::new(name);
    for (key, ctx_at) in [
        (outer_context, outer_at.to_owned()),
        (o.get("context"), at.clone()),
    ] {
        match key {
            None | Some(Value::Null) => {}
            Some(Value::Object(vars)) => {
                for (k, v) in vars {
                    scenario = scenario.context(k.clone(), v.clone());
                }
            }
            Some(other) => {
                return Err((
                    join(&ctx_at, "context"),
                    format!("expected an object of variables, got {}", kind(other)),
                ));
            }
        }
    }
    let mut extra = Map::new();
    for key in ["optimization_target", "test_dimension"] {
        if let Some(v) = o.get(key) {
            extra.insert(key.to_owned(), v.clone());
        }
    }
    if !extra.is_empty() {
        scenario = scenario.context("extra", Value::Object(extra));
    }

    let turns = array(o, "turns", &at)?;
    if turns.is_empty() {
        let text = opt_string(o, "input_utterance", &at)?;
        let body = o.get("custom_body").cloned();
        if text.is_none() && body.is_none() {
            return Err((
                at,
                "expected `input_utterance`, `turns` or `custom_body`".into(),
            ));
        }
        scenario.steps.push(user_step(text, body, Vec::new()));
    } else {
        for key in ["input_utterance", "custom_body"] {
            if o.contains_key(key) {
                return Err((
                    join(&at, key),
                    format!("a case with `turns` gives each turn its own `{key}`"),
                ));
            }
        }
        for (i, t) in turns.iter().enumerate() {
            let here = index(&join(&at, "turns"), i);
            let to = object(t, &here, &["input_utterance", "custom_body", "assertions"])?;
            let text = opt_string(to, "input_utterance", &here)?;
            let body = to.get("custom_body").cloned();
            if text.is_none() && body.is_none() {
                return Err((here, "expected `input_utterance` or `custom_body`".into()));
            }
            let expect = assertions(to, &here)?;
            scenario.steps.push(user_step(text, body, expect));
        }
    }
    scenario.expect = assertions(o, &at)?;
    Ok(scenario)
}

fn user_step(text: Option<String>, body: Option<Value>, expect: Vec<Expectation>) -> Step {
    Step::User {
        text: text.unwrap_or_default(),
        body,
        expect,
    }
}

/// `assertions: {procedural: [...], semantic: [...]}` as checks.
fn assertions(o: &Map<String, Value>, at: &str) -> Result<Vec<Expectation>, Problem> {
    let Some(a) = opt_object(o, "assertions", at, &["procedural", "semantic"])? else {
        return Ok(Vec::new());
    };
    let at = join(at, "assertions");
    let mut out = Vec::new();
    let procedural = join(&at, "procedural");
    for (i, p) in array(a, "procedural", &at)?.iter().enumerate() {
        out.push(procedural_assertion(p, &index(&procedural, i))?);
    }
    let semantic = join(&at, "semantic");
    for (i, s) in array(a, "semantic", &at)?.iter().enumerate() {
        out.push(semantic_assertion(s, &index(&semantic, i))?);
    }
    Ok(out)
}

const TARGETS: &[&str] = &[
    "node_call",
    "json_match",
    "response_regex",
    "json_schema",
    "http_status",
    "response_time",
    "token_limit",
];

/// A `node_call`'s fields, and those of the tool calls nested in it.
const NODE_CALL_FIELDS: &[&str] = &[
    "condition",
    "expected_name",
    "expected_arguments",
    "expected_index",
    "expected_count",
    "strict",
    "forbidden_arguments",
    "expected_tool_calls",
];

fn procedural_assertion(v: &Value, at: &str) -> Result<Expectation, Problem> {
    let o = open_object(v, at)?;
    let target = tag(o, "target", at, TARGETS)?;
    let fields: &[&str] = match target {
        "node_call" => NODE_CALL_FIELDS,
        "json_match" => &["field", "expected_value", "condition"],
        "response_regex" => &["pattern", "should_match"],
        "json_schema" => &["schema", "field"],
        "http_status" => &["expected_status"],
        "response_time" => &["max_ms"],
        _ => &["max_total_tokens", "max_output_tokens", "max_input_tokens"],
    };
    let mut allowed = vec!["target", "id", "depends_on"];
    allowed.extend(fields);
    let o = closed(o, at, &allowed)?;
    let check = match target {
        "node_call" => node_call(o, at, false)?.into_expectation(),
        "json_match" => {
            let path = string(o, "field", at)?;
            let expected = matcher(
                required(o, "expected_value", at)?,
                &join(at, "expected_value"),
            )?;
            let negate =
                opt_tag(o, "condition", at, &["EQUALS", "NOT_EQUALS"])? == Some("NOT_EQUALS");
            if negate {
                field(path).is_not(expected)
            } else {
                field(path).is(expected)
            }
            .into_expectation()
        }
        "response_regex" => {
            let pattern = string(o, "pattern", at)?;
            if opt_bool(o, "should_match", at)?.unwrap_or(true) {
                reply().matches(pattern)
            } else {
                reply().not_matches(pattern)
            }
            .into_expectation()
        }
        "json_schema" => {
            let s = required(o, "schema", at)?;
            if !s.is_object() && !s.is_boolean() {
                return Err((
                    join(at, "schema"),
                    format!("expected a JSON Schema object, got {}", kind(s)),
                ));
            }
            let mut c = schema(s.clone());
            if let Some(f) = opt_string(o, "field", at)? {
                c = c.at(f);
            }
            c.into_expectation()
        }
        "http_status" => {
            let status = opt_u64(o, "expected_status", at)?.ok_or_else(|| {
                (
                    at.to_owned(),
                    "expected `expected_status`, an HTTP status code".to_owned(),
                )
            })?;
            let status = u16::try_from(status)
                .ok()
                .filter(|s| (100..=599).contains(s))
                .ok_or_else(|| {
                    (
                        join(at, "expected_status"),
                        format!("expected an HTTP status from 100 to 599, got {status}"),
                    )
                })?;
            http_status(status).into_expectation()
        }
        "response_time" => {
            let ms = opt_u64(o, "max_ms", at)?
                .ok_or_else(|| (at.to_owned(), "missing field `max_ms`".to_owned()))?;
            latency()
                .at_most(Duration::from_millis(ms))
                .into_expectation()
        }
        _ => {
            let mut c = tokens();
            let mut any_limit = false;
            if let Some(n) = opt_u64(o, "max_total_tokens", at)? {
                c = c.total_at_most(n);
                any_limit = true;
            }
            if let Some(n) = opt_u64(o, "max_output_tokens", at)? {
                c = c.output_at_most(n);
                any_limit = true;
            }
            if let Some(n) = opt_u64(o, "max_input_tokens", at)? {
                c = c.input_at_most(n);
                any_limit = true;
            }
            if !any_limit {
                return Err((
                    at.to_owned(),
                    "a token_limit needs at least one of `max_total_tokens`, `max_output_tokens`, `max_input_tokens`".into(),
                ));
            }
            c.into_expectation()
        }
    };
    with_ids(check, o, at)
}

fn with_ids(mut e: Expectation, o: &Map<String, Value>, at: &str) -> Result<Expectation, Problem> {
    if let Some(id) = opt_string(o, "id", at)? {
        e = e.id(id);
    }
    if let Some(dep) = opt_string(o, "depends_on", at)? {
        e = e.depends_on(dep);
    }
    Ok(e)
}

/// A `node_call` (top level: a node or, in a flat trace, a tool) or one of its
/// `expected_tool_calls` (nested: a tool inside the node).
fn node_call(o: &Map<String, Value>, at: &str, nested: bool) -> Result<ToolCheck, Problem> {
    let name = string(o, "expected_name", at)?;
    let mut check = if nested { tool(name) } else { any_call(name) };
    let condition = tag(
        o,
        "condition",
        at,
        &["MUST_CALL", "MUST_NOT_CALL", "CALL_COUNT"],
    )?;
    if condition != "CALL_COUNT" && o.contains_key("expected_count") {
        return Err((
            join(at, "expected_count"),
            "`expected_count` goes with `condition: CALL_COUNT`".into(),
        ));
    }
    match condition {
        "MUST_NOT_CALL" => check = check.never(),
        "CALL_COUNT" => {
            let n = opt_u64(o, "expected_count", at)?.ok_or_else(|| {
                (
                    at.to_owned(),
                    "CALL_COUNT needs `expected_count`".to_owned(),
                )
            })?;
            check = check.times(usize::try_from(n).unwrap_or(usize::MAX));
        }
        _ => {}
    }
    if let Some(i) = opt_u64(o, "expected_index", at)? {
        check = check.at_position(usize::try_from(i).unwrap_or(usize::MAX));
    }
    if opt_bool(o, "strict", at)?.unwrap_or(false) {
        check = check.strict();
    }
    for name in strings(o, "forbidden_arguments", at)? {
        check = check.forbid_arg(name);
    }
    if let Some(args) = opt_open_object(o, "expected_arguments", at)? {
        let here = join(at, "expected_arguments");
        for (k, v) in args {
            check = check.arg(k.clone(), matcher(v, &join(&here, k))?);
        }
    }
    let nested_at = join(at, "expected_tool_calls");
    for (i, t) in array(o, "expected_tool_calls", at)?.iter().enumerate() {
        let here = index(&nested_at, i);
        let to = object(t, &here, NODE_CALL_FIELDS)?;
        check = check.tool(node_call(to, &here, true)?);
    }
    Ok(check)
}

const MATCHERS: &[&str] = &["exact", "contains", "regex", "date", "one_of", "any"];

/// A `one_of` variant is a JSON Schema fragment, and JSON Schema ignores keywords it does not
/// know: a misspelt `patern`, or a Mibo matcher written as a variant, would accept anything.
fn schema_fragment(fragment: &Map<String, Value>, at: &str) -> Result<(), Problem> {
    let Some(unknown) = fragment
        .keys()
        .find(|k| !agent_test_core::compare::schema::KEYWORDS.contains(&k.as_str()))
    else {
        return Ok(());
    };
    let hint = agent_test_core::compare::schema::KEYWORDS
        .iter()
        .map(|k| (strsim::damerau_levenshtein(unknown, k), k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 4))
        .min_by_key(|(d, _)| *d)
        .map_or_else(String::new, |(_, k)| format!(" (did you mean `{k}`?)"));
    Err((
        join(at, unknown),
        format!(
            "unknown JSON Schema keyword `{unknown}`{hint}: a `one_of` variant is a JSON Schema \
             fragment like {{\"type\": \"string\", \"pattern\": \"^x\"}}, and JSON Schema \
             ignores a keyword it does not know, so this variant would match anything"
        ),
    ))
}

/// How a matcher that looks like `key` is written in Mibo.
fn mibo_syntax(key: &str) -> &'static str {
    match key {
        "exact" | "equality" => r#"{"matcher": "exact", "value": ...}"#,
        "contains" => r#"{"matcher": "contains", "value": "..."}"#,
        "regex" | "pattern" => r#"{"matcher": "regex", "value": "^...$"}"#,
        "date" | "date_time" | "tolerance_minutes" | "expression" => {
            r#"{"matcher": "date", "expression": "TODAY()", "tolerance_minutes": 0}"#
        }
        "one_of" | "any_of" | "variants" => r#"{"matcher": "one_of", "variants": [...]}"#,
        "any" => r#"{"matcher": "any"}"#,
        "expr" => r#"{"matcher": "exact", "expression": "..."}"#,
        _ => r#"{"matcher": "exact" | "contains" | "regex" | "date" | "one_of" | "any", ...}"#,
    }
}

/// A bare expected value is data compared as it is: an object in it that reads as a matcher
/// (`{"one_of": [...]}`, `{"regex": "^x"}`, `{"matchr": "regex"}`, MorganaBench's
/// `{"match_as": ...}`) would silently compare as a literal, so it is an error showing Mibo's
/// syntax, and the explicit `exact` for an object that really is data.
fn literal(v: &Value, at: &str) -> Result<Value, Problem> {
    match super::read::matcher_like(v, at) {
        None => Ok(v.clone()),
        Some((path, key)) if key == "matcher" => Err((
            path,
            "a matcher inside a literal object is compared as data: check the nested value on \
             its own, with a dotted path (`\"address.city\": {\"matcher\": ...}` in \
             `expected_arguments`, or a `json_match` on that field)"
                .into(),
        )),
        Some((path, key)) => Err((
            path,
            format!(
                "{} is not Mibo's matcher syntax, and a bare object is compared as data: write \
                 {} (or {{\"matcher\": \"exact\", \"value\": ...}} to compare the object as it is)",
                super::read::matcher_word(&key),
                mibo_syntax(&key)
            ),
        )),
    }
}

/// A Mibo expected value: a matcher object (`{"matcher": ...}`) or a bare value (`exact`).
fn matcher(v: &Value, at: &str) -> Result<Matcher, Problem> {
    let Some(o) = v.as_object().filter(|o| o.contains_key("matcher")) else {
        return Ok(exact(literal(v, at)?)
            .unordered()
            .wildcards()
            .into_matcher());
    };
    let which = tag(o, "matcher", at, MATCHERS)?;
    let fields: &[&str] = match which {
        "exact" => &["value", "expression"],
        "contains" | "regex" => &["value"],
        "date" => &["expression", "tolerance_minutes"],
        "one_of" => &["variants"],
        _ => &[],
    };
    let mut allowed = vec!["matcher", "optional"];
    allowed.extend(fields);
    let o = closed(o, at, &allowed)?;
    let m = match which {
        "exact" => match (o.get("value"), opt_string(o, "expression", at)?) {
            (Some(value), None) => exact(value.clone()).unordered().wildcards().into_matcher(),
            (None, Some(e)) => expr(e),
            _ => {
                return Err((
                    at.to_owned(),
                    "an `exact` matcher takes either `value` or `expression`".into(),
                ));
            }
        },
        // Both sides are cast to text: numbers and booleans as written, JSON otherwise.
        "contains" => {
            contains(agent_test_core::matcher::text(required(o, "value", at)?)).into_matcher()
        }
        "regex" => regex(string(o, "value", at)?),
        "date" => {
            let e = string(o, "expression", at)?;
            let tolerance = opt_u64(o, "tolerance_minutes", at)?.unwrap_or(0);
            let tolerance = u32::try_from(tolerance).map_err(|_| {
                (
                    join(at, "tolerance_minutes"),
                    format!("expected at most {} minutes, got {tolerance}", u32::MAX),
                )
            })?;
            date(e).tolerance_minutes(tolerance).into_matcher()
        }
        "one_of" => {
            let variants = array(o, "variants", at)?;
            if variants.is_empty() {
                return Err((join(at, "variants"), "expected at least one variant".into()));
            }
            // Variants are JSON Schema fragments (`{"type", "pattern"}`); plain values are
            // accepted as exact values.
            let variants_at = join(at, "variants");
            let mut matchers = Vec::new();
            for (i, v) in variants.iter().enumerate() {
                let here = index(&variants_at, i);
                matchers.push(match v.as_object() {
                    Some(fragment) => {
                        schema_fragment(fragment, &here)?;
                        matches_schema(v.clone())
                    }
                    None => exact(literal(v, &here)?).into_matcher(),
                });
            }
            one_of(matchers)
        }
        _ => any(),
    };
    Ok(if opt_bool(o, "optional", at)?.unwrap_or(false) {
        optional(m)
    } else {
        m
    })
}

fn semantic_assertion(v: &Value, at: &str) -> Result<Expectation, Problem> {
    let o = object(
        v,
        at,
        &[
            "criteria",
            "threshold",
            "type",
            "negative_constraints",
            "target_node",
            "output_key",
            "id",
            "depends_on",
        ],
    )?;
    let mut c = judge(string(o, "criteria", at)?);
    if let Some(t) = opt_threshold(o, "threshold", at)? {
        c = c.threshold(t);
    }
    if opt_tag(o, "type", at, &["quality_check", "hallucination_check"])?
        == Some("hallucination_check")
    {
        c = c.hallucination();
    }
    let constraints = strings(o, "negative_constraints", at)?;
    if !constraints.is_empty() {
        c = c.must_not(constraints);
    }
    match (
        opt_string(o, "target_node", at)?,
        opt_string(o, "output_key", at)?,
    ) {
        (Some(node), key) => c = c.on_node(node, key.unwrap_or_default()),
        (None, Some(_)) => {
            return Err((
                join(at, "output_key"),
                "`output_key` reads the output of `target_node`, which is missing".into(),
            ));
        }
        (None, None) => {}
    }
    with_ids(c.into_expectation(), o, at)
}

#[cfg(test)]
mod tests {
    /// The cases of `text` as this format, by the loader's one road.
    fn read_as_test(
        text: &str,
        file: &str,
    ) -> Result<Vec<super::ImportedCase>, agent_test_core::util::input::LoadError> {
        crate::formats::read_named(text, file, crate::formats::SeedFormat::Mibo)
    }

    #[test]
    fn errors_name_the_path_and_what_was_expected() {
        let err = |text: &str| read_as_test(text, "case.json").unwrap_err().to_string();
        assert_eq!(
            err(
                r#"{"input_utterance": "x", "assertions": {"procedural": [{"target": "node_cal"}]}}"#
            ),
            "case.json: at assertions.procedural[0].target: unknown target `node_cal`, expected one of `node_call`, `json_match`, `response_regex`, `json_schema`, `http_status`, `response_time`, `token_limit`"
        );
        assert_eq!(
            err(
                r#"{"input_utterance": "x", "assertions": {"procedural": [{"target": "http_status", "expected_status": 200, "extra": 1}]}}"#
            ),
            "case.json: at assertions.procedural[0].extra: unknown field `extra`, expected one of `target`, `id`, `depends_on`, `expected_status`"
        );
        assert_eq!(
            err(
                r#"{"input_utterance": "x", "assertions": {"procedural": [{"target": "node_call", "condition": "MUST_CALL", "expected_name": "a", "expected_arguments": {"d": {"matcher": "date", "value": "x"}}}]}}"#
            ),
            "case.json: at assertions.procedural[0].expected_arguments.d.value: unknown field `value`, expected one of `matcher`, `optional`, `expression`, `tolerance_minutes`"
        );
        assert_eq!(
            err(r#"[{"input_utterance": "x"}, {"scenario": "y"}]"#),
            "case.json: at [1]: expected `input_utterance`, `turns` or `custom_body`"
        );
        assert_eq!(
            err(
                r#"{"input_utterance": "x", "assertions": {"semantic": [{"criteria": "c", "threshold": 8}]}}"#
            ),
            "case.json: at assertions.semantic[0].threshold: expected a number from 0 to 1, got 8"
        );
        assert_eq!(
            err(
                r#"{"input_utterance": "x", "assertions": {"procedural": [{"target": "token_limit"}]}}"#
            ),
            "case.json: at assertions.procedural[0]: a token_limit needs at least one of `max_total_tokens`, `max_output_tokens`, `max_input_tokens`"
        );
        assert!(err("{").starts_with("case.json: at line 1, column 1: not valid JSON"));
    }

    #[test]
    fn the_wrapper_form_merges_its_context() {
        let cases = read_as_test(
            r#"{"context": {"USER_ID": "usr-abc-123"}, "content": {"scenario": "s", "input_utterance": "hi", "context": {"timezone": "America/New_York"}}}"#,
            "w.json",
        )
        .unwrap();
        let s = &cases[0].scenario;
        assert_eq!(s.name, "s");
        assert_eq!(s.context.get("USER_ID").unwrap(), "usr-abc-123");
        assert_eq!(s.context.get("timezone").unwrap(), "America/New_York");
        let err = read_as_test(
            r#"{"content": {"input_utterance": "hi"}, "extra": 1}"#,
            "w.json",
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "w.json: at extra: unknown field `extra`, expected one of `context`, `content`"
        );
    }
}
