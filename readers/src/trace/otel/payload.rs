//! What frameworks wrap a tool's arguments and result in, unwrapped: the value the tool was
//! given or returned, the call id the wrapper carries, and the failure it reports.
//!
//! | wrapper | written by | read as |
//! |---|---|---|
//! | `{"type": "tool", "data": {"content", "tool_call_id", "status"}}` | LangChain's `ToolMessage`, serialised (OpenInference) | `content` (JSON text read as JSON); `status: "error"` is a failure |
//! | `{"lc": 1, "type": "constructor", "id": [.., "ToolMessage"], "kwargs": {..}}` | LangChain's `ToolMessage`, `dumpd` form | the same, from `kwargs` |
//! | `{"output": <ToolMessage>, "kwargs": {..}}` / `{"inputs": {..}, "input_str", "kwargs": {"tool_call_id"}}` | OpenLLMetry's LangChain callbacks | the `output` / the `inputs`, and the id |
//! | `{"raw_output", "is_error", "tool_name", ..}` | LlamaIndex's `ToolOutput` | `raw_output`; `is_error: true` is a failure |
//! | `{"tool_name", "tool_kwargs", "tool_id", "tool_output": <ToolOutput>}` | LlamaIndex's tool-call step (OpenLLMetry) | the `ToolOutput`, and the id |
//! | `{"input": {..}, "options": null}` | tool inputs with their call options beside them | the `input` |
//! | `{"args": [], "kwargs": {..}}` / `{"kwargs": {..}}` | smolagents, LlamaIndex tool inputs | the keyword arguments |
//! | `[{"text": ".."}, ..]` | Strands' content blocks | the text, JSON text read as JSON |
//! | `{'city': 'Lisbon'}` (a Python `str(dict)`) | Semantic Kernel's results | the literal, read as JSON |
//!
//! Nothing else is unwrapped: a value of another shape is the tool's own.

use serde_json::{Map, Value};

use super::spans::text;
use crate::trace::json_or_string;

/// How deep wrappers may nest (a ToolMessage inside OpenLLMetry's `output`).
const MAX_WRAPPERS: usize = 4;

/// A tool's result as a framework wrote it, unwrapped.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Unwrapped {
    /// The value itself.
    pub(crate) value: Option<Value>,
    /// The call id the wrapper carries.
    pub(crate) id: Option<String>,
    /// The failure the wrapper reports (its error text).
    pub(crate) failure: Option<String>,
}

/// Text that may hold JSON or a Python literal: the structured value, else the text.
pub(crate) fn json_text(v: &Value) -> Value {
    match v {
        Value::String(s) => match json_or_string(s) {
            Value::String(s) => {
                agent_test_core::util::python_literal::literal(&s).unwrap_or(Value::String(s))
            }
            parsed => parsed,
        },
        other => other.clone(),
    }
}

/// A tool's result attribute, unwrapped.
pub(crate) fn result(raw: &Value) -> Unwrapped {
    let mut out = Unwrapped::default();
    let mut v = json_text(raw);
    for _ in 0..MAX_WRAPPERS {
        let Some(next) = unwrap_result(&v, &mut out) else {
            break;
        };
        v = next;
    }
    if out.failure.as_deref() == Some("") {
        out.failure = Some(text(&v).unwrap_or_default());
    }
    out.value = Some(v);
    out
}

/// One wrapper's content, noting its id and failure; `None` when `v` is no wrapper.
fn unwrap_result(v: &Value, out: &mut Unwrapped) -> Option<Value> {
    if let Some(items) = v.as_array() {
        // Content blocks: every item a `{"text": ..}` object.
        let texts: Option<Vec<&str>> = items
            .iter()
            .map(|i| {
                let o = i.as_object()?;
                (o.len() == 1).then(|| o.get("text")?.as_str()).flatten()
            })
            .collect();
        return match texts {
            Some(t) if !t.is_empty() => Some(json_text(&Value::String(t.concat()))),
            _ => None,
        };
    }
    let o = v.as_object()?;
    if let Some(message) = tool_message(o) {
        if out.id.is_none() {
            out.id = message.get("tool_call_id").and_then(text);
        }
        let content = message.get("content").map(json_text).unwrap_or(Value::Null);
        if message.get("status").and_then(Value::as_str) == Some("error") {
            out.failure = Some(text(&content).unwrap_or_default());
        }
        return Some(content);
    }
    // OpenLLMetry: `{"output": <the tool's return>, "kwargs": {...}}`.
    if o.len() <= 2 && o.contains_key("output") && o.keys().all(|k| k == "output" || k == "kwargs")
    {
        if out.id.is_none() {
            out.id = o
                .get("kwargs")
                .and_then(|k| k.get("tool_call_id"))
                .and_then(text);
        }
        return o.get("output").map(json_text);
    }
    // LlamaIndex's tool-call step: the call and its `ToolOutput`.
    if let Some(output) = o.get("tool_output").filter(|t| t.is_object())
        && o.contains_key("tool_name")
    {
        if out.id.is_none() {
            out.id = o.get("tool_id").and_then(text);
        }
        return Some(output.clone());
    }
    // LlamaIndex's ToolOutput.
    if o.contains_key("raw_output") && o.contains_key("tool_name") {
        if o.get("is_error").and_then(Value::as_bool) == Some(true) {
            out.failure = Some(String::new());
        }
        return o.get("raw_output").map(json_text);
    }
    None
}

/// A serialised LangChain `ToolMessage`'s fields, in either form.
fn tool_message(o: &Map<String, Value>) -> Option<&Map<String, Value>> {
    if o.get("type").and_then(Value::as_str) == Some("tool") {
        return o.get("data").and_then(Value::as_object);
    }
    let constructor = o.get("lc").is_some()
        && o.get("id")
            .and_then(Value::as_array)
            .and_then(|id| id.last())
            .and_then(Value::as_str)
            == Some("ToolMessage");
    if constructor {
        return o.get("kwargs").and_then(Value::as_object);
    }
    None
}

/// A tool's arguments attribute, unwrapped, and the call id its wrapper carries.
pub(crate) fn arguments(raw: &Value) -> (Value, Option<String>) {
    let v = match raw {
        // An empty text is no arguments (a tool without parameters).
        Value::String(s) if s.trim().is_empty() => return (Value::Object(Map::new()), None),
        other => json_text(other),
    };
    let Some(o) = v.as_object() else {
        return (v, None);
    };
    // OpenLLMetry's LangChain callbacks: `{"input_str", "inputs": {..}, "kwargs": {"tool_call_id"}}`.
    if let Some(inputs) = o.get("inputs").filter(|i| i.is_object())
        && o.contains_key("input_str")
    {
        let id = o
            .get("kwargs")
            .and_then(|k| k.get("tool_call_id"))
            .and_then(text);
        return (inputs.clone(), id);
    }
    // smolagents / LlamaIndex: `{"args": [], "kwargs": {..}}`, nothing positional.
    let keyword_only = o
        .keys()
        .all(|k| matches!(k.as_str(), "args" | "kwargs" | "sanitize_inputs_outputs"))
        && o.get("args")
            .is_none_or(|a| a.as_array().is_some_and(Vec::is_empty));
    if keyword_only && let Some(kwargs) = o.get("kwargs").filter(|k| k.is_object()) {
        return (kwargs.clone(), None);
    }
    // `{"input": {..}, "options": ..}`: the input object, its call options beside it.
    if o.len() == 2
        && let (Some(input @ Value::Object(_)), Some(options)) = (o.get("input"), o.get("options"))
        && (options.is_null() || options.is_object())
    {
        return (input.clone(), None);
    }
    (v, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn results_are_unwrapped_with_their_id_and_failure() {
        let r = result(&json!(
            r#"{"type": "tool", "data": {"content": "{\"booking_id\": \"BK-311\"}", "tool_call_id": "call_3_0", "status": "success"}}"#
        ));
        assert_eq!(r.value, Some(json!({"booking_id": "BK-311"})));
        assert_eq!(r.id.as_deref(), Some("call_3_0"));
        assert_eq!(r.failure, None);
        let r = result(
            &json!({"output": {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "ToolMessage"],
            "kwargs": {"content": "Error: sold out", "tool_call_id": "call_2_0", "status": "error"}}, "kwargs": {}}),
        );
        assert_eq!(r.value, Some(json!("Error: sold out")));
        assert_eq!(r.failure.as_deref(), Some("Error: sold out"));
        assert_eq!(r.id.as_deref(), Some("call_2_0"));
        let r = result(
            &json!({"blocks": [], "tool_name": "t", "raw_output": {"a": 1}, "is_error": true}),
        );
        assert_eq!(r.value, Some(json!({"a": 1})));
        assert_eq!(r.failure.as_deref(), Some("{\"a\":1}"));
        assert_eq!(
            result(&json!(r#"[{"text": "{\"city\": \"Lisbon\"}"}]"#)).value,
            Some(json!({"city": "Lisbon"}))
        );
        assert_eq!(
            result(&json!("{'city': 'Lisbon', 'ok': True}")).value,
            Some(json!({"city": "Lisbon", "ok": true}))
        );
        // The tool's own values are not wrappers.
        for own in [
            json!({"output": 1, "other": 2}),
            json!([{"text": "a", "b": 1}]),
            json!("plain"),
        ] {
            assert_eq!(result(&own).value, Some(own.clone()));
        }
    }

    #[test]
    fn arguments_are_unwrapped() {
        assert_eq!(
            arguments(
                &json!({"args": [], "sanitize_inputs_outputs": true, "kwargs": {"city": "Lisbon"}})
            ),
            (json!({"city": "Lisbon"}), None)
        );
        assert_eq!(
            arguments(&json!(
                r#"{"input_str": "{'hotel_id': 'HTL-205'}", "inputs": {"hotel_id": "HTL-205"}, "kwargs": {"tool_call_id": "call_2_0"}}"#
            )),
            (json!({"hotel_id": "HTL-205"}), Some("call_2_0".into()))
        );
        // Positional arguments are not dropped.
        let positional = json!({"args": ["x"], "kwargs": {}});
        assert_eq!(arguments(&positional).0, positional);
        assert_eq!(arguments(&json!("HTL-205")).0, json!("HTL-205"));
        assert_eq!(arguments(&json!("")).0, json!({}));
        assert_eq!(
            arguments(&json!({"input": {"city": "Lisbon"}, "options": null})).0,
            json!({"city": "Lisbon"})
        );
        // A tool whose own parameters are `input` and `options` keeps them.
        let own = json!({"input": "Lisbon", "options": "fast"});
        assert_eq!(arguments(&own).0, own);
    }

    #[test]
    fn a_llamaindex_tool_step_is_its_tool_output_and_id() {
        let r = result(
            &json!({"tool_name": "book_hotel", "tool_kwargs": {"hotel_id": "HTL-205"},
            "tool_id": "call_2_0", "tool_output": {"blocks": [], "tool_name": "book_hotel",
            "raw_input": {"hotel_id": "HTL-205"}, "raw_output": "HTL-205 is sold out", "is_error": true},
            "return_direct": false}),
        );
        assert_eq!(r.value, Some(json!("HTL-205 is sold out")));
        assert_eq!(r.id.as_deref(), Some("call_2_0"));
        assert_eq!(r.failure.as_deref(), Some("HTL-205 is sold out"));
    }
}
