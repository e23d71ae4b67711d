//! MorganaBench outputs: `response`, `citations`, `environment.user_time`, and a `trace` of
//! `tool_call` / `tool_result` / retrieval events. A whole example (`inputs` + `outputs`) is
//! read too: its messages give the turn's input and the history.

use serde_json::Value;

use super::conversation::Conversation;
use super::{TraceError, TraceFormat};
use agent_test_core::model::{Call, Message, Role, Transcript};

const F: TraceFormat = TraceFormat::MorganaBench;

fn outputs(v: &Value) -> Option<(&Value, &'static str)> {
    if v.get("trace").is_some() || v.get("environment").is_some() {
        return Some((v, "$"));
    }
    v.get("outputs")
        .filter(|o| o.is_object())
        .map(|o| (o, "$.outputs"))
}

pub(super) fn detect(v: &Value) -> bool {
    outputs(v).is_some_and(|(o, _)| {
        o.get("response").is_some()
            && o.get("trace").is_none_or(|t| {
                t.as_array()
                    .is_some_and(|a| a.iter().all(|e| e.get("event").is_some()))
            })
    })
}

pub(super) fn parse(v: &Value) -> Result<Transcript, TraceError> {
    let (out, base) = outputs(v)
        .ok_or_else(|| TraceError::at(F, "$", "expected outputs (`response`, `trace`)"))?;
    let mut conv = Conversation::default();
    let history = read_inputs(v, &mut conv)?;
    let response = out.get("response").ok_or_else(|| {
        TraceError::at(
            F,
            format!("{base}.response"),
            "expected the agent's response",
        )
    })?;
    let response = response
        .as_str()
        .ok_or_else(|| TraceError::at(F, format!("{base}.response"), "expected text"))?;
    if let Some(trace) = out.get("trace") {
        read_trace(trace, base, &mut conv)?;
    }
    conv.assistant_text(response);
    conv.reply().body = Some(out.clone());
    let mut transcript = conv.finish();
    transcript.history = history;
    if let Some(zoned) = user_time(out, base)? {
        transcript.user_time = Some(zoned);
    }
    Ok(transcript)
}

/// A whole example's `inputs.messages`: the last (the user's request) opens the turn, and the
/// earlier ones are returned as its history. No messages, no history.
fn read_inputs(v: &Value, conv: &mut Conversation) -> Result<Vec<Message>, TraceError> {
    let mut history = Vec::new();
    let Some(messages) = v.pointer("/inputs/messages") else {
        return Ok(history);
    };
    let messages = messages
        .as_array()
        .ok_or_else(|| TraceError::at(F, "$.inputs.messages", "expected an array of messages"))?;
    for (i, m) in messages.iter().enumerate() {
        let role = match m.get("role").and_then(Value::as_str) {
            Some("user") => Role::User,
            Some("assistant") => Role::Assistant,
            Some("system" | "developer") => Role::System,
            _ => {
                return Err(TraceError::at(
                    F,
                    format!("$.inputs.messages[{i}].role"),
                    "expected user, assistant or system",
                ));
            }
        };
        let content = m.get("content").and_then(Value::as_str).ok_or_else(|| {
            TraceError::at(
                F,
                format!("$.inputs.messages[{i}].content"),
                "expected text",
            )
        })?;
        history.push(Message::new(role, content));
    }
    // The last message is the user's request; earlier ones are history.
    match history.pop() {
        Some(last) if last.role == Role::User => conv.user(last.content),
        _ => {
            return Err(TraceError::at(
                F,
                "$.inputs.messages",
                "the last message must be the user's",
            ));
        }
    }
    Ok(history)
}

/// The `trace` events in order: tool calls and their results; other events carry no calls.
fn read_trace(trace: &Value, base: &str, conv: &mut Conversation) -> Result<(), TraceError> {
    let events = trace
        .as_array()
        .ok_or_else(|| TraceError::at(F, format!("{base}.trace"), "expected an array of events"))?;
    for (i, e) in events.iter().enumerate() {
        let path = format!("{base}.trace[{i}]");
        match e.get("event").and_then(Value::as_str) {
            Some("tool_call") => {
                let tool = e.get("tool").and_then(Value::as_str).ok_or_else(|| {
                    TraceError::at(F, format!("{path}.tool"), "expected the tool's name")
                })?;
                let params = e
                    .get("params")
                    .cloned()
                    .unwrap_or(Value::Object(Default::default()));
                if !params.is_object() {
                    return Err(TraceError::at(
                        F,
                        format!("{path}.params"),
                        "expected an object of parameters",
                    ));
                }
                conv.call(
                    Call::tool(tool, params).with_id_opt(e.get("id").and_then(Value::as_str)),
                );
            }
            Some("tool_result") => {
                let id = e.get("id").and_then(Value::as_str).ok_or_else(|| {
                    TraceError::at(F, format!("{path}.id"), "expected the id of the tool call")
                })?;
                conv.result(
                    Some(id),
                    None,
                    e.get("result").cloned().unwrap_or(Value::Null),
                    false,
                );
            }
            Some(_) => {} // retrieval results and future events carry no calls
            None => {
                return Err(TraceError::at(
                    F,
                    format!("{path}.event"),
                    "expected an event type",
                ));
            }
        }
    }
    Ok(())
}

/// `environment.user_time`, the user's clock when the example ran; absent or null is `None`.
fn user_time(out: &Value, base: &str) -> Result<Option<jiff::Zoned>, TraceError> {
    let Some(t) = out
        .pointer("/environment/user_time")
        .filter(|t| !t.is_null())
    else {
        return Ok(None);
    };
    let text = t.as_str().ok_or_else(|| {
        TraceError::at(
            F,
            format!("{base}.environment.user_time"),
            "expected a date-time",
        )
    })?;
    let zoned = agent_test_core::compare::clock::parse_instant(text, &jiff::tz::TimeZone::UTC)
        .ok_or_else(|| {
            TraceError::at(
                F,
                format!("{base}.environment.user_time"),
                format!("'{text}' is not a date-time"),
            )
        })?;
    Ok(Some(zoned))
}
