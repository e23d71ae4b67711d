//! OpenAI chat completions: a response, or a `messages` list.

use serde_json::Value;

use super::conversation::Conversation;
use super::{TraceError, TraceFormat, arguments_from_string};
use agent_test_core::model::{Call, Transcript, usage_in};
use agent_test_core::util::text::content_text;

const F: TraceFormat = TraceFormat::OpenAiChat;

/// The messages of a list or of a `{"messages": [...]}` object.
pub(super) fn messages(v: &Value) -> Option<(&Vec<Value>, &'static str)> {
    match v {
        Value::Array(a) => Some((a, "$")),
        Value::Object(o) => o
            .get("messages")
            .and_then(Value::as_array)
            .map(|a| (a, "$.messages")),
        _ => None,
    }
}

fn is_role_list(list: &[Value]) -> bool {
    !list.is_empty()
        && list
            .iter()
            .all(|m| m.get("role").is_some_and(Value::is_string))
}

pub(super) fn detect(v: &Value) -> bool {
    if v.get("choices").is_some_and(Value::is_array) {
        return true;
    }
    let Some((list, _)) = messages(v) else {
        return false;
    };
    is_role_list(list)
        && list.iter().all(|m| {
            // Anthropic and Gemini lists carry typed blocks; OpenAI content is text (or text parts).
            m.get("tool_calls").is_some()
                || match m.get("content") {
                    None | Some(Value::Null | Value::String(_)) => true,
                    Some(Value::Array(parts)) => parts.iter().all(|p| {
                        matches!(
                            p.get("type").and_then(Value::as_str),
                            Some("text" | "image_url" | "input_audio" | "refusal")
                        )
                    }),
                    _ => false,
                }
        })
        && !list
            .iter()
            .any(|m| m.get("role").and_then(Value::as_str) == Some("model"))
}

pub(super) fn parse(v: &Value) -> Result<Transcript, TraceError> {
    let mut conv = Conversation::default();
    if let Some(choices) = v.get("choices") {
        let choices = choices
            .as_array()
            .ok_or_else(|| TraceError::at(F, "$.choices", "expected an array of choices"))?;
        let choice = choices
            .first()
            .ok_or_else(|| TraceError::at(F, "$.choices", "expected at least one choice"))?;
        let message = choice
            .get("message")
            .ok_or_else(|| TraceError::at(F, "$.choices[0]", "expected a `message`"))?;
        assistant(&mut conv, message, "$.choices[0].message")?;
        if let Some(u) = usage_in(v) {
            conv.usage(u);
        }
        conv.reply().body = Some(v.clone());
        return Ok(conv.finish());
    }
    let (list, base) = messages(v).ok_or_else(|| {
        TraceError::at(
            F,
            "$",
            "expected a chat completion (with `choices`) or a list of messages",
        )
    })?;
    for (i, m) in list.iter().enumerate() {
        let path = format!("{base}[{i}]");
        let role = m
            .get("role")
            .and_then(Value::as_str)
            .ok_or_else(|| TraceError::at(F, format!("{path}.role"), "expected a role"))?;
        let content = m.get("content").unwrap_or(&Value::Null);
        match role {
            "system" | "developer" => conv.system(content_text(content)),
            "user" => conv.user(content_text(content)),
            "assistant" => assistant(&mut conv, m, &path)?,
            "tool" | "function" => {
                let id = m.get("tool_call_id").and_then(Value::as_str);
                let name = m.get("name").and_then(Value::as_str);
                conv.result(id, name, result_value(content), false);
            }
            other => {
                return Err(TraceError::at(
                    F,
                    format!("{path}.role"),
                    format!("unknown role `{other}`"),
                ));
            }
        }
        if let Some(u) = m.get("usage").and_then(|_| usage_in(m)) {
            conv.usage(u);
        }
    }
    Ok(conv.finish())
}

/// A tool message's content as a result: JSON when it is JSON text.
pub(super) fn result_value(content: &Value) -> Value {
    match content {
        Value::String(s) => super::json_or_string(s),
        Value::Array(_) => Value::String(content_text(content)),
        other => other.clone(),
    }
}

fn assistant(conv: &mut Conversation, m: &Value, path: &str) -> Result<(), TraceError> {
    // One assistant message is one model response: its tool calls are one step.
    conv.model_response();
    if let Some(content) = m.get("content") {
        conv.assistant_text(&content_text(content));
    }
    if let Some(calls) = m.get("tool_calls").filter(|c| !c.is_null()) {
        let calls = calls.as_array().ok_or_else(|| {
            TraceError::at(
                F,
                format!("{path}.tool_calls"),
                "expected an array of tool calls",
            )
        })?;
        for (j, c) in calls.iter().enumerate() {
            let cpath = format!("{path}.tool_calls[{j}]");
            let function = c
                .get("function")
                .or_else(|| c.get("custom"))
                .ok_or_else(|| {
                    TraceError::at(F, &cpath, "expected a `function` with a name and arguments")
                })?;
            conv.call(
                function_call(function, &cpath)?.with_id_opt(c.get("id").and_then(Value::as_str)),
            );
        }
    }
    if let Some(f) = m.get("function_call").filter(|c| !c.is_null()) {
        conv.call(function_call(f, &format!("{path}.function_call"))?);
    }
    Ok(())
}

fn function_call(f: &Value, path: &str) -> Result<Call, TraceError> {
    let name = f
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| TraceError::at(F, format!("{path}.name"), "expected the function's name"))?;
    let arguments = match f.get("arguments").or_else(|| f.get("input")) {
        Some(Value::String(s)) => arguments_from_string(s),
        Some(other) => other.clone(),
        None => Value::Object(Default::default()),
    };
    Ok(Call::tool(name, arguments))
}
