//! Haystack's own tracer (`OpenTelemetryTracer`: Haystack 2's `haystack.tracing.opentelemetry`,
//! Haystack 3's `opentelemetry-haystack`): spans named `haystack.*`, their data in `haystack.*`
//! tags (JSON text with content tracing on).
//!
//! | span | read as |
//! |---|---|
//! | `haystack.agent.run`, `haystack.agent.step`, `haystack.pipeline.run` | structure (Haystack's `Agent` has no name: an agent run inside a tool is that tool's work) |
//! | `haystack.agent.step.llm` | a model step: `haystack.agent.step.llm.output`'s `replies[]` — usage `meta.usage` (`prompt_tokens`, `completion_tokens`), calls `content[].tool_call` (`tool_name`, `arguments`, `id`), text `content[].text`; its `.input`'s `messages` — the last user text, `tool_call_result`s by `origin.id` |
//! | `haystack.agent.step.tool` | a call of `haystack.tool.name`: arguments `haystack.agent.step.tool.input`, result `….output`; `haystack.tool.error = true` is its failure, the output's `error` its text |
//! | anything else (`haystack.component.run`: Haystack 2's components, a pipeline's) | unread ([`unread`](super::unread)) |
//!
//! The root run's `haystack.agent.input` and `haystack.agent.output` (`last_message`) are the
//! turn's input and reply when no model step says them.

use serde_json::Value;

use super::payload::json_text;
use super::spans::{Span, text};
use super::{ModelStep, RequestedCall, Role, ToolSpan};
use agent_test_core::model::Usage;

/// Whether the span is Haystack's (its name starts with `haystack.`).
pub(crate) fn claims(s: &Span) -> bool {
    s.name.starts_with("haystack.")
}

/// What a span is.
pub(crate) fn role(s: &Span) -> Role {
    match s.name.as_str() {
        "haystack.agent.run" | "haystack.agent.step" | "haystack.pipeline.run" => Role::Structure,
        "haystack.agent.step.llm" => Role::Model(model(s)),
        "haystack.agent.step.tool" => Role::Tool(tool(s)),
        _ => Role::Unknown,
    }
}

/// Haystack's spans declare no agent.
pub(crate) fn agent_of(_: &Span) -> Option<String> {
    None
}

fn tool(s: &Span) -> ToolSpan {
    let mut t = ToolSpan::read(
        s.text("haystack.tool.name")
            .unwrap_or_else(|| s.name.clone()),
        None,
        s.attributes.get("haystack.agent.step.tool.input"),
        s.attributes.get("haystack.agent.step.tool.output"),
    );
    if s.attributes.get("haystack.tool.error") == Some(&Value::Bool(true)) {
        // The output is `{"error": "Failed to invoke Tool ..."}`: its text is the failure's.
        let why = t
            .result
            .as_ref()
            .and_then(|r| r.get("error"))
            .and_then(text);
        if let Some(why) = &why {
            t.result = Some(Value::String(why.clone()));
        }
        t.failure = Some(why.unwrap_or_else(|| "haystack.tool.error".to_owned()));
    }
    t
}

fn model(s: &Span) -> ModelStep {
    let mut m = ModelStep::default();
    if let Some(input) = s
        .attributes
        .get("haystack.agent.step.llm.input")
        .map(json_text)
    {
        for msg in messages(&input) {
            match msg.get("role").and_then(Value::as_str) {
                Some("user") => m.user_input = message_text(msg).or(m.user_input.take()),
                Some("tool") => {
                    for r in parts(msg).filter_map(|p| p.get("tool_call_result")) {
                        if let (Some(id), Some(result)) = (
                            r.get("origin").and_then(|o| o.get("id")).and_then(text),
                            r.get("result"),
                        ) {
                            m.tool_results.push((id, json_text(result)));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    let output = s
        .attributes
        .get("haystack.agent.step.llm.output")
        .map(json_text);
    for reply in output
        .as_ref()
        .and_then(|o| o.get("replies"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(u) = reply.get("meta").and_then(|meta| meta.get("usage")) {
            let count = |k: &str| u.get(k).and_then(super::spans::count);
            let (input, output) = (count("prompt_tokens"), count("completion_tokens"));
            if input.is_some() || output.is_some() {
                let total = count("total_tokens")
                    .or(Some(input.unwrap_or(0).saturating_add(output.unwrap_or(0))));
                let usage = Usage::counted(input, output, total);
                m.usage.get_or_insert_with(Usage::default).add(&usage);
            }
        }
        for call in parts(reply).filter_map(|p| p.get("tool_call")) {
            m.output_calls.push(RequestedCall {
                id: call.get("id").and_then(text),
                name: call.get("tool_name").and_then(text).unwrap_or_default(),
                arguments: call
                    .get("arguments")
                    .map_or(Value::Object(Default::default()), |a| {
                        super::payload::arguments(a).0
                    }),
            });
        }
        if let Some(t) = message_text(reply) {
            m.output_text = Some(t);
        }
    }
    m
}

/// The messages of an input (`{"messages": [...]}`).
fn messages(v: &Value) -> impl Iterator<Item = &Value> {
    v.get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// A `ChatMessage`'s content parts.
fn parts(msg: &Value) -> impl Iterator<Item = &Value> {
    msg.get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// A `ChatMessage`'s text (its `text` parts joined), if it has any.
fn message_text(msg: &Value) -> Option<String> {
    let texts: Vec<&str> = parts(msg)
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect();
    (!texts.is_empty()).then(|| texts.concat())
}

/// What a root agent run was asked (its input's last user message) and answered (its
/// output's `last_message`).
pub(crate) fn texts(s: &Span) -> (Option<String>, Option<String>) {
    let input = s.attributes.get("haystack.agent.input").map(json_text);
    let asked = input.as_ref().and_then(|i| {
        messages(i)
            .filter(|m| m.get("role").and_then(Value::as_str) == Some("user"))
            .filter_map(message_text)
            .last()
    });
    let output = s.attributes.get("haystack.agent.output").map(json_text);
    let answered = output
        .as_ref()
        .and_then(|o| o.get("last_message"))
        .and_then(message_text);
    (asked, answered)
}
