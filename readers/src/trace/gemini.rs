//! Google Gemini: a `generateContent` response, or a `contents` list.

use serde_json::Value;

use super::conversation::Conversation;
use super::{TraceError, TraceFormat};
use agent_test_core::model::{Call, Transcript, usage_in};

const F: TraceFormat = TraceFormat::Gemini;

fn contents(v: &Value) -> Option<(&Vec<Value>, &'static str)> {
    match v {
        Value::Array(a) => Some((a, "$")),
        Value::Object(o) => o
            .get("contents")
            .and_then(Value::as_array)
            .map(|a| (a, "$.contents")),
        _ => None,
    }
}

pub(super) fn detect(v: &Value) -> bool {
    v.get("candidates").is_some_and(Value::is_array)
        || contents(v).is_some_and(|(list, _)| {
            !list.is_empty()
                && list
                    .iter()
                    .all(|c| c.get("parts").is_some_and(Value::is_array))
        })
}

pub(super) fn parse(v: &Value) -> Result<Transcript, TraceError> {
    let mut conv = Conversation::default();
    if let Some(candidates) = v.get("candidates") {
        let first = candidates
            .as_array()
            .and_then(|c| c.first())
            .ok_or_else(|| TraceError::at(F, "$.candidates", "expected at least one candidate"))?;
        let content = first
            .get("content")
            .ok_or_else(|| TraceError::at(F, "$.candidates[0]", "expected `content`"))?;
        conv.model_response();
        parts(&mut conv, content, "$.candidates[0].content", true)?;
        if let Some(u) = usage_in(v) {
            conv.usage(u);
        }
        conv.reply().body = Some(v.clone());
        return Ok(conv.finish());
    }
    let (list, base) = contents(v).ok_or_else(|| {
        TraceError::at(
            F,
            "$",
            "expected a response (`candidates`) or a `contents` list",
        )
    })?;
    if let Some(system) = v
        .get("systemInstruction")
        .or_else(|| v.get("system_instruction"))
    {
        let text = text_parts(system);
        conv.system(text);
    }
    for (i, c) in list.iter().enumerate() {
        let path = format!("{base}[{i}]");
        match c.get("role").and_then(Value::as_str).unwrap_or("user") {
            "model" => {
                // One model content is one response: its `functionCall` parts are one step.
                conv.model_response();
                parts(&mut conv, c, &path, true)?
            }
            "user" | "function" | "tool" => {
                let has_text = c["parts"]
                    .as_array()
                    .is_some_and(|p| p.iter().any(|x| x.get("text").is_some()));
                if has_text {
                    conv.user(text_parts(c));
                }
                parts(&mut conv, c, &path, false)?;
            }
            other => {
                return Err(TraceError::at(
                    F,
                    format!("{path}.role"),
                    format!("unknown role `{other}`"),
                ));
            }
        }
    }
    Ok(conv.finish())
}

fn text_parts(content: &Value) -> String {
    content
        .get("parts")
        .and_then(Value::as_array)
        .map(|p| {
            p.iter()
                .filter_map(|x| x.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("")
        })
        .unwrap_or_default()
}

fn parts(
    conv: &mut Conversation,
    content: &Value,
    path: &str,
    model: bool,
) -> Result<(), TraceError> {
    let parts = content
        .get("parts")
        .and_then(Value::as_array)
        .ok_or_else(|| TraceError::at(F, format!("{path}.parts"), "expected an array of parts"))?;
    for (j, p) in parts.iter().enumerate() {
        let ppath = format!("{path}.parts[{j}]");
        if let Some(fc) = p.get("functionCall") {
            let name = fc.get("name").and_then(Value::as_str).ok_or_else(|| {
                TraceError::at(
                    F,
                    format!("{ppath}.functionCall.name"),
                    "expected the function's name",
                )
            })?;
            let args = fc
                .get("args")
                .cloned()
                .unwrap_or(Value::Object(Default::default()));
            conv.call(Call::tool(name, args).with_id_opt(fc.get("id").and_then(Value::as_str)));
        } else if let Some(fr) = p.get("functionResponse") {
            let name = fr.get("name").and_then(Value::as_str);
            let response = fr.get("response").cloned().unwrap_or(Value::Null);
            let error = response.get("error").is_some_and(|e| !e.is_null());
            conv.result(fr.get("id").and_then(Value::as_str), name, response, error);
        } else if model && let Some(t) = p.get("text").and_then(Value::as_str) {
            conv.assistant_text(t);
        }
    }
    Ok(())
}
