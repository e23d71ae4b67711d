//! The Vercel AI SDK's own telemetry (`experimental_telemetry`, AI SDK 3 to 6, and
//! `@ai-sdk/otel`'s legacy integration): spans named by `ai.operationId`.
//!
//! | span | read as |
//! |---|---|
//! | `ai.generateText`, `ai.streamText`, `ai.generateObject`, `ai.streamObject` with `ai.telemetry.functionId` | an agent named after the function id (without one: structure only); its `ai.usage.*` is not counted — AI SDK 5 writes the last step's usage there, AI SDK 6 its own steps' total |
//! | `ai.toolCall` | a call: `ai.toolCall.name`, `.id`, `.args` (or `.input`), `.result` (or `.output`); the span's ERROR status and `exception` event are its failure |
//! | `….doGenerate`, `….doStream` | a model step: usage `ai.usage.promptTokens` / `completionTokens` (AI SDK 6: `inputTokens` / `outputTokens`); calls `ai.response.toolCalls` (`toolCallId`, `toolName`, `args` or `input`); text `ai.response.text`; input `ai.prompt.messages` (the last user text, `tool-result` parts by `toolCallId`) |
//!
//! The AI SDK 7's `@ai-sdk/otel` default integration writes the GenAI conventions instead
//! (read by [`genai`](super::genai)).

use serde_json::Value;

use super::payload::{self, json_text};
use super::spans::{Span, text};
use super::{AgentSpan, ModelStep, RequestedCall, Role, ToolSpan};
use agent_test_core::model::Usage;

/// The attribute every span of the SDK's telemetry has.
const OPERATION: &str = "ai.operationId";

/// Whether the span is the AI SDK's (it has `ai.operationId`).
pub(crate) fn claims(s: &Span) -> bool {
    s.attributes.contains_key(OPERATION)
}

/// What a span is.
pub(crate) fn role(s: &Span) -> Role {
    let op = s.text(OPERATION).unwrap_or_default();
    match op.as_str() {
        "ai.toolCall" => Role::Tool(ToolSpan::read(
            s.text("ai.toolCall.name").unwrap_or_else(|| s.name.clone()),
            s.text("ai.toolCall.id"),
            s.attributes
                .get("ai.toolCall.args")
                .or_else(|| s.attributes.get("ai.toolCall.input")),
            s.attributes
                .get("ai.toolCall.result")
                .or_else(|| s.attributes.get("ai.toolCall.output")),
        )),
        o if o.ends_with(".doGenerate") || o.ends_with(".doStream") => Role::Model(model(s)),
        "ai.generateText" | "ai.streamText" | "ai.generateObject" | "ai.streamObject" => {
            match s.text("ai.telemetry.functionId") {
                Some(name) => Role::Agent(AgentSpan {
                    name,
                    declared: true,
                    ..Default::default()
                }),
                None => Role::Structure,
            }
        }
        o if o.starts_with("ai.embed") => Role::Structure,
        _ => Role::Unknown,
    }
}

/// The agent a span works for: its call's function id.
pub(crate) fn agent_of(s: &Span) -> Option<String> {
    s.text("ai.telemetry.functionId")
}

/// What a top-level call was asked and answered: `ai.prompt`'s prompt (or last user
/// message), `ai.response.text`.
pub(crate) fn texts(s: &Span) -> (Option<String>, Option<String>) {
    let prompt = s.attributes.get("ai.prompt").map(json_text);
    let input = prompt.as_ref().and_then(|p| {
        p.get("prompt")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| p.get("messages").and_then(last_user_text))
    });
    (input, s.text("ai.response.text"))
}

fn model(s: &Span) -> ModelStep {
    let count = |keys: &[&str]| keys.iter().find_map(|k| s.count(k));
    let input = count(&[
        "ai.usage.promptTokens",
        "ai.usage.inputTokens",
        "gen_ai.usage.input_tokens",
    ]);
    let output = count(&[
        "ai.usage.completionTokens",
        "ai.usage.outputTokens",
        "gen_ai.usage.output_tokens",
    ]);
    let mut m = ModelStep {
        usage: (input.is_some() || output.is_some()).then(|| {
            let total = count(&["ai.usage.totalTokens"])
                .or(Some(input.unwrap_or(0).saturating_add(output.unwrap_or(0))));
            Usage::counted(input, output, total)
        }),
        output_text: s.text("ai.response.text").filter(|t| !t.is_empty()),
        ..ModelStep::default()
    };
    let calls = s.attributes.get("ai.response.toolCalls").map(json_text);
    for c in calls
        .as_ref()
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        m.output_calls.push(RequestedCall {
            id: c.get("toolCallId").and_then(text),
            name: c.get("toolName").and_then(text).unwrap_or_default(),
            arguments: c
                .get("args")
                .or_else(|| c.get("input"))
                .map_or(Value::Object(Default::default()), |a| {
                    payload::arguments(a).0
                }),
        });
    }
    let messages = s.attributes.get("ai.prompt.messages").map(json_text);
    if let Some(messages) = &messages {
        m.user_input = last_user_text(messages);
        for msg in messages.as_array().into_iter().flatten() {
            for part in msg
                .get("content")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if part.get("type").and_then(Value::as_str) != Some("tool-result") {
                    continue;
                }
                let Some(id) = part.get("toolCallId").and_then(text) else {
                    continue;
                };
                // AI SDK 5: `output: {type: "json" | "text" | "error-text", value}`; 4: `result`.
                let value = part
                    .get("output")
                    .map(|o| o.get("value").cloned().unwrap_or_else(|| o.clone()))
                    .or_else(|| part.get("result").cloned())
                    .unwrap_or(Value::Null);
                m.tool_results.push((id, json_text(&value)));
            }
        }
    }
    m
}

/// The text of the last user message of a message list (content a string, or text parts).
fn last_user_text(messages: &Value) -> Option<String> {
    messages.as_array()?.iter().rev().find_map(|msg| {
        if msg.get("role").and_then(Value::as_str) != Some("user") {
            return None;
        }
        match msg.get("content")? {
            Value::String(t) => Some(t.clone()),
            Value::Array(parts) => {
                let texts: Vec<&str> = parts
                    .iter()
                    .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
                    .filter_map(|p| p.get("text").and_then(Value::as_str))
                    .collect();
                (!texts.is_empty()).then(|| texts.concat())
            }
            _ => None,
        }
    })
}
