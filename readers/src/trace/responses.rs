//! OpenAI Responses API: a response object, or a list of input/output items.

use serde_json::Value;

use super::conversation::Conversation;
use super::openai::result_value;
use super::{TraceError, TraceFormat, arguments_from_string};
use agent_test_core::model::{Call, Transcript, usage_in};
use agent_test_core::util::text::content_text;

const F: TraceFormat = TraceFormat::OpenAiResponses;

fn items(v: &Value) -> Option<(&Vec<Value>, &'static str)> {
    match v {
        Value::Array(a) => Some((a, "$")),
        Value::Object(o) => o
            .get("output")
            .and_then(Value::as_array)
            .map(|a| (a, "$.output")),
        _ => None,
    }
}

pub(super) fn detect(v: &Value) -> bool {
    if v.get("object").and_then(Value::as_str) == Some("response") {
        return true;
    }
    let Some((list, _)) = items(v) else {
        return false;
    };
    list.iter().any(|i| {
        matches!(
            i.get("type").and_then(Value::as_str),
            Some("function_call" | "function_call_output" | "reasoning")
        )
    }) || (v.is_object()
        && list
            .iter()
            .any(|i| i.get("type").and_then(Value::as_str) == Some("message")))
}

pub(super) fn parse(v: &Value) -> Result<Transcript, TraceError> {
    let (list, base) = items(v).ok_or_else(|| {
        TraceError::at(
            F,
            "$",
            "expected a response (with `output`) or a list of items",
        )
    })?;
    let mut conv = Conversation::default();
    // Consecutive `function_call` items (reasoning between them aside) come from one response:
    // one step. Anything else between them ends it.
    let mut in_step = false;
    for (i, item) in list.iter().enumerate() {
        let path = format!("{base}[{i}]");
        let kind = item.get("type").and_then(Value::as_str);
        let role = item.get("role").and_then(Value::as_str);
        match (kind, role) {
            (Some("function_call"), _) if !in_step => {
                conv.model_response();
                in_step = true;
            }
            (Some("function_call" | "reasoning"), _) => {}
            _ => {
                conv.end_response();
                in_step = false;
            }
        }
        match (kind, role) {
            (Some("function_call"), _) => {
                let name = item.get("name").and_then(Value::as_str).ok_or_else(|| {
                    TraceError::at(F, format!("{path}.name"), "expected the function's name")
                })?;
                let arguments = match item.get("arguments") {
                    Some(Value::String(s)) => arguments_from_string(s),
                    Some(other) => other.clone(),
                    None => Value::Object(Default::default()),
                };
                let id = item
                    .get("call_id")
                    .or_else(|| item.get("id"))
                    .and_then(Value::as_str);
                conv.call(Call::tool(name, arguments).with_id_opt(id));
            }
            (Some("function_call_output"), _) => {
                let id = item.get("call_id").and_then(Value::as_str);
                let output = item.get("output").unwrap_or(&Value::Null);
                conv.result(id, None, result_value(output), false);
            }
            (Some("reasoning"), _) => {}
            (_, Some("user")) => {
                conv.user(content_text(item.get("content").unwrap_or(&Value::Null)))
            }
            (_, Some("system" | "developer")) => {
                conv.system(content_text(item.get("content").unwrap_or(&Value::Null)))
            }
            (Some("message") | None, Some("assistant") | None) => {
                let content = item.get("content").ok_or_else(|| {
                    TraceError::at(F, &path, "expected `content` in a message item")
                })?;
                conv.assistant_text(&content_text(content));
            }
            (Some(other), _) => {
                return Err(TraceError::at(
                    F,
                    format!("{path}.type"),
                    format!("unknown item type `{other}`"),
                ));
            }
            (None, Some(other)) => {
                return Err(TraceError::at(
                    F,
                    format!("{path}.role"),
                    format!("unknown role `{other}`"),
                ));
            }
        }
    }
    if v.is_object() {
        if let Some(u) = usage_in(v) {
            conv.usage(u);
        }
        conv.reply().body = Some(v.clone());
    }
    Ok(conv.finish())
}
