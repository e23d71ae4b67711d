//! PromptKit's JSON assertions: the reply is JSON, matches a schema, or a JMESPath query of it
//! gives what is expected.

use serde_json::{Map, Value, json};

use super::super::super::read::{Problem, kind, open_object};
use super::Ctx;
use agent_test_core::check::{Expectation, JsonSourceOptions, jmespath, schema};
use agent_test_core::matcher::{IntoMatcher, Matcher, all_of, exact, matches_schema};

/// `json_valid`: the reply (read as `json_source` says) is JSON.
pub(super) fn valid(cx: &Ctx<'_>) -> Result<Vec<Expectation>, Problem> {
    cx.one(jmespath("@").evaluates().with_source(cx.json_source()?))
}

/// `json_schema`: the reply is JSON valid against `schema`.
pub(super) fn schema_of(cx: &Ctx<'_>) -> Result<Vec<Expectation>, Problem> {
    let Some(s) = cx.p.get("schema").filter(|s| !s.is_null()) else {
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

/// `json_path`: a JMESPath query of the reply, with every constraint given (`expected`,
/// `contains`, `min`/`max`, `min_results`/`max_results`) as one matcher of its result.
pub(super) fn path(cx: &Ctx<'_>) -> Result<Vec<Expectation>, Problem> {
    let expression = match cx.text("expression")? {
        Some(e) => e,
        None => match cx.text("jmespath_expression")? {
            Some(e) => e,
            None => return cx.misconfigured("no `expression`"),
        },
    };
    let mut parts: Vec<Matcher> = Vec::new();
    if let Some(expected) = cx.p.get("expected") {
        parts.push(exact(expected.clone()).into_matcher());
    }
    contained(cx, &mut parts)?;
    if let Some(range) = value_range(cx)? {
        parts.push(range);
    }
    if let Some(count) = result_count(cx)? {
        parts.push(count);
    }
    let q = jmespath(expression);
    let c = match parts.len() {
        0 => q.evaluates(),
        1 => q.is(parts.remove(0)),
        _ => q.is(all_of(parts)),
    };
    cx.one(c.with_source(cx.json_source()?))
}

/// `contains`: each item must be in the result (an array), one matcher per item.
fn contained(cx: &Ctx<'_>, parts: &mut Vec<Matcher>) -> Result<(), Problem> {
    let Some(items) = cx.p.get("contains") else {
        return Ok(());
    };
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
    Ok(())
}

/// `min` / `max`: the result is a number in range (`None`: neither given).
fn value_range(cx: &Ctx<'_>) -> Result<Option<Matcher>, Problem> {
    let mut range = Map::new();
    for (key, keyword) in [("min", "minimum"), ("max", "maximum")] {
        match cx.p.get(key) {
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
    if range.is_empty() {
        return Ok(None);
    }
    range.insert("type".into(), json!("number"));
    Ok(Some(matches_schema(Value::Object(range))))
}

/// `min_results` / `max_results`: the result is an array of that many items (`None`: neither
/// given).
fn result_count(cx: &Ctx<'_>) -> Result<Option<Matcher>, Problem> {
    let mut count = Map::new();
    for (key, keyword) in [("min_results", "minItems"), ("max_results", "maxItems")] {
        // PromptKit reads 0 as "not set".
        if let Some(n) = cx.count(key)?.filter(|n| *n > 0) {
            count.insert(keyword.into(), json!(n));
        }
    }
    if count.is_empty() {
        return Ok(None);
    }
    count.insert("type".into(), json!("array"));
    Ok(Some(matches_schema(Value::Object(count))))
}
