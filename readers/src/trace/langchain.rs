//! LangChain message dicts: `{"type": "human" | "ai" | "tool" | "system", ...}`, also the
//! `messages_to_dict` form `{"type": ..., "data": {...}}`.

use serde_json::Value;

use super::conversation::Conversation;
use super::openai::result_value;
use super::{TraceError, TraceFormat};
use agent_test_core::model::{Call, Transcript, usage_in};
use agent_test_core::util::text::content_text;

const F: TraceFormat = TraceFormat::LangChain;

fn kind(m: &Value) -> Option<&str> {
    m.get("type").and_then(Value::as_str)
}

pub(super) fn detect(v: &Value) -> bool {
    let list = match v {
        Value::Array(a) => a,
        Value::Object(o) => match o.get("messages").and_then(Value::as_array) {
            Some(a) => a,
            None => return false,
        },
        _ => return false,
    };
    !list.is_empty()
        && list.iter().all(|m| {
            matches!(
                kind(m),
                Some("human" | "ai" | "tool" | "system" | "AIMessageChunk" | "function")
            )
        })
}

pub(super) fn parse(v: &Value) -> Result<Transcript, TraceError> {
    let (list, base) = match v {
        Value::Array(a) => (a, "$"),
        _ => (
            v.get("messages")
                .and_then(Value::as_array)
                .ok_or_else(|| TraceError::at(F, "$", "expected a list of messages"))?,
            "$.messages",
        ),
    };
    let mut conv = Conversation::default();
    for (i, m) in list.iter().enumerate() {
        let path = format!("{base}[{i}]");
        let t = kind(m)
            .ok_or_else(|| TraceError::at(F, format!("{path}.type"), "expected a message type"))?;
        // `messages_to_dict` wraps the fields in `data`.
        let d = m.get("data").filter(|d| d.is_object()).unwrap_or(m);
        let content = d.get("content").unwrap_or(&Value::Null);
        match t {
            "system" => conv.system(content_text(content)),
            "human" => conv.user(content_text(content)),
            "ai" | "AIMessageChunk" => {
                // One AI message is one model response: its tool calls are one step.
                conv.model_response();
                conv.assistant_text(&content_text(content));
                if let Some(calls) = d.get("tool_calls").and_then(Value::as_array) {
                    for (j, c) in calls.iter().enumerate() {
                        let name = c.get("name").and_then(Value::as_str).ok_or_else(|| {
                            TraceError::at(
                                F,
                                format!("{path}.tool_calls[{j}].name"),
                                "expected the tool's name",
                            )
                        })?;
                        let args = c
                            .get("args")
                            .cloned()
                            .unwrap_or(Value::Object(Default::default()));
                        conv.call(
                            Call::tool(name, args).with_id_opt(c.get("id").and_then(Value::as_str)),
                        );
                    }
                }
                if let Some(u) = usage_in(d) {
                    conv.usage(u);
                }
            }
            "tool" | "function" => {
                let error = d.get("status").and_then(Value::as_str) == Some("error");
                conv.result(
                    d.get("tool_call_id").and_then(Value::as_str),
                    d.get("name").and_then(Value::as_str),
                    result_value(content),
                    error,
                );
            }
            other => {
                return Err(TraceError::at(
                    F,
                    format!("{path}.type"),
                    format!("unknown message type `{other}`"),
                ));
            }
        }
    }
    Ok(conv.finish())
}
