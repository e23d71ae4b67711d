//! Anthropic Messages: a response, or a list of messages with content blocks.

use serde_json::Value;

use super::conversation::Conversation;
use super::openai::{messages, result_value};
use super::{TraceError, TraceFormat};
use agent_test_core::model::{Call, Transcript, usage_in};
use agent_test_core::util::text::content_text;

const F: TraceFormat = TraceFormat::Anthropic;

fn has_blocks(m: &Value) -> bool {
    m.get("content")
        .and_then(Value::as_array)
        .is_some_and(|blocks| {
            blocks.iter().any(|b| {
                matches!(
                    b.get("type").and_then(Value::as_str),
                    Some("tool_use" | "tool_result" | "thinking")
                )
            })
        })
}

pub(super) fn detect(v: &Value) -> bool {
    if v.get("type").and_then(Value::as_str) == Some("message")
        && v.get("content").is_some_and(Value::is_array)
    {
        return true;
    }
    messages(v).is_some_and(|(list, _)| {
        !list.is_empty()
            && list
                .iter()
                .all(|m| m.get("role").is_some_and(Value::is_string))
            && list
                .iter()
                .any(|m| has_blocks(m) || m.get("content").is_some_and(Value::is_array))
            && !list.iter().any(|m| m.get("tool_calls").is_some())
    })
}

pub(super) fn parse(v: &Value) -> Result<Transcript, TraceError> {
    let mut conv = Conversation::default();
    if v.get("type").and_then(Value::as_str) == Some("message") {
        conv.model_response();
        blocks(
            &mut conv,
            v.get("content").unwrap_or(&Value::Null),
            "$.content",
            true,
        )?;
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
            "expected a message (`type: message`) or a list of messages",
        )
    })?;
    if let Some(system) = v.get("system") {
        conv.system(content_text(system));
    }
    for (i, m) in list.iter().enumerate() {
        let path = format!("{base}[{i}]");
        let role = m
            .get("role")
            .and_then(Value::as_str)
            .ok_or_else(|| TraceError::at(F, format!("{path}.role"), "expected a role"))?;
        let content = m.get("content").unwrap_or(&Value::Null);
        match role {
            "user" => {
                // A user message holding only tool results continues the turn; text starts one.
                let text = match content {
                    Value::String(s) => s.clone(),
                    _ => content_text(content),
                };
                let only_results = content.as_array().is_some_and(|b| {
                    !b.is_empty()
                        && b.iter()
                            .all(|x| x.get("type").and_then(Value::as_str) == Some("tool_result"))
                });
                if !only_results {
                    conv.user(text);
                }
                blocks(&mut conv, content, &format!("{path}.content"), false)?;
            }
            "assistant" => {
                // One assistant message is one model response: its `tool_use` blocks are one
                // step.
                conv.model_response();
                blocks(&mut conv, content, &format!("{path}.content"), true)?
            }
            "system" => conv.system(content_text(content)),
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

fn blocks(
    conv: &mut Conversation,
    content: &Value,
    path: &str,
    assistant: bool,
) -> Result<(), TraceError> {
    let blocks = match content {
        Value::String(s) => {
            if assistant {
                conv.assistant_text(s);
            }
            return Ok(());
        }
        Value::Array(b) => b,
        _ => {
            return Err(TraceError::at(
                F,
                path,
                "expected text or an array of content blocks",
            ));
        }
    };
    for (j, b) in blocks.iter().enumerate() {
        let bpath = format!("{path}[{j}]");
        match b.get("type").and_then(Value::as_str) {
            Some("text") if assistant => {
                conv.assistant_text(b.get("text").and_then(Value::as_str).unwrap_or(""))
            }
            Some("tool_use") => {
                let name = b.get("name").and_then(Value::as_str).ok_or_else(|| {
                    TraceError::at(F, format!("{bpath}.name"), "expected the tool's name")
                })?;
                let input = b
                    .get("input")
                    .cloned()
                    .unwrap_or(Value::Object(Default::default()));
                conv.call(Call::tool(name, input).with_id_opt(b.get("id").and_then(Value::as_str)));
            }
            Some("tool_result") => {
                let id = b.get("tool_use_id").and_then(Value::as_str);
                let error = b.get("is_error").and_then(Value::as_bool).unwrap_or(false);
                conv.result(
                    id,
                    None,
                    result_value(b.get("content").unwrap_or(&Value::Null)),
                    error,
                );
            }
            Some(_) => {}
            None => {
                return Err(TraceError::at(
                    F,
                    format!("{bpath}.type"),
                    "expected a content block type",
                ));
            }
        }
    }
    Ok(())
}
