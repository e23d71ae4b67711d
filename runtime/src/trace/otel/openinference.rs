//! OpenInference (Arize Phoenix): what each span is, by `openinference.span.kind`.
//!
//! | kind | read as |
//! |---|---|
//! | `AGENT` | a node named `agent.name` (else the span's name) |
//! | `TOOL` | a call of `tool.name` (else the span's name), id `tool.id` / `tool_call.id`, arguments `input.value`, result `output.value` (JSON text read as JSON); the span's ERROR status is the call's failure |
//! | `LLM` | a model call: usage `llm.token_count.prompt` / `completion` / `total`; input `llm.input_messages.{i}.message.role` / `content` / `tool_call_id`; answer `llm.output_messages.{i}.message.content` and `…message.tool_calls.{j}.tool_call.id` / `function.name` / `function.arguments` |
//! | `CHAIN`, `RETRIEVER`, `EMBEDDING`, ... | structure only: their children are lifted to their parent |
//!
//! A trace's root (an `AGENT` or `CHAIN` span) gives the turn's input and reply (`input.value`,
//! `output.value`) when no model span does.

use serde_json::Value;

use super::spans::Span;
use super::{ModelStep, RequestedCall, Role, ToolSpan, json_text};
use crate::model::Usage;
use crate::trace::{arguments_from_string, json_or_string};

/// Whether the span follows OpenInference (it has `openinference.span.kind`): a live trace
/// may mix instrumentations, so the convention is chosen per span.
#[cfg(feature = "otlp")]
pub(crate) fn is_openinference(s: &Span) -> bool {
    s.attributes.contains_key("openinference.span.kind")
}

/// What a span is.
pub(crate) fn role(s: &Span) -> Role {
    let kind = s.text("openinference.span.kind").unwrap_or_default();
    match kind.to_ascii_uppercase().as_str() {
        "AGENT" => Role::Agent {
            name: s.text("agent.name").unwrap_or_else(|| s.name.clone()),
        },
        "TOOL" => Role::Tool(ToolSpan {
            name: s.text("tool.name").unwrap_or_else(|| s.name.clone()),
            id: s.text("tool.id").or_else(|| s.text("tool_call.id")),
            arguments: s.attributes.get("input.value").map(|v| match v {
                Value::String(t) => arguments_from_string(t),
                other => other.clone(),
            }),
            result: s.attributes.get("output.value").map(json_text),
        }),
        "LLM" => Role::Model(model(s)),
        _ => Role::Other,
    }
}

fn model(s: &Span) -> ModelStep {
    let input = s.count("llm.token_count.prompt");
    let output = s.count("llm.token_count.completion");
    let mut m = ModelStep {
        usage: (input.is_some() || output.is_some()).then(|| Usage {
            input_tokens: input,
            output_tokens: output,
            total_tokens: s
                .count("llm.token_count.total")
                .or(Some(input.unwrap_or(0).saturating_add(output.unwrap_or(0)))),
        }),
        ..ModelStep::default()
    };
    let get = |k: String| s.text(&k);
    for i in 0.. {
        let base = format!("llm.input_messages.{i}.message");
        let Some(role) = get(format!("{base}.role")) else {
            break;
        };
        let content = get(format!("{base}.content"));
        match role.as_str() {
            "user" => m.user_input = content.or(m.user_input.take()),
            "tool" => {
                if let (Some(id), Some(c)) = (get(format!("{base}.tool_call_id")), content) {
                    m.tool_results.push((id, json_or_string(&c)));
                }
            }
            _ => {}
        }
    }
    for i in 0.. {
        let base = format!("llm.output_messages.{i}.message");
        let content = get(format!("{base}.content"));
        let role = get(format!("{base}.role"));
        let first_call = get(format!("{base}.tool_calls.0.tool_call.function.name"));
        if role.is_none() && content.is_none() && first_call.is_none() {
            break;
        }
        if content.as_deref().is_some_and(|c| !c.is_empty()) {
            m.output_text = content;
        }
        for j in 0.. {
            let call = format!("{base}.tool_calls.{j}.tool_call");
            let Some(name) = get(format!("{call}.function.name")) else {
                break;
            };
            m.output_calls.push(RequestedCall {
                id: get(format!("{call}.id")),
                name,
                arguments: get(format!("{call}.function.arguments"))
                    .map_or(Value::Object(Default::default()), |a| {
                        arguments_from_string(&a)
                    }),
            });
        }
    }
    m
}
