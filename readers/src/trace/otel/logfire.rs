//! The OpenAI Agents SDK as Logfire exports it (`logfire.instrument_openai_agents()`): spans
//! named by their message template (`Function: {name}`), their data under the SDK's own bare
//! keys (`name`, `input`, `output`, `error`), JSON text described by `logfire.json_schema`.
//!
//! | template | read as |
//! |---|---|
//! | `Agent run: {name!r}` | an agent named `name` |
//! | `Function: {name}` | a call of `name`: arguments `input`, result `output`; failed when it has an `error` (`{"message", "data": {"error"}}`) or its `logfire.msg` says `… failed: …` |
//! | `Responses API…`, `Chat completion with …` | a model step: usage `gen_ai.usage.*`; the answer from `response` (a Responses object: `function_call` items, `output_text`), else the trailing assistant messages of `events` (GenAI events, one JSON list holding the whole conversation) or of `request_data.messages`; the last user message and the tool results (`gen_ai.tool.message` by `id`, `function_call_output` by `call_id`) from the same |
//! | `OpenAI Agents trace: {name}`, `Task: …`, `Turn {turn} for agent …`, `Handoff: …`, `Guardrail …`, `MCP: list tools …`, speech | structure (a task's and a turn's `usage` repeat their model calls') |
//! | `Custom span: {name}`, `OpenAI agents: {type} span` | unread ([`unread`](super::unread)) |
//!
//! The spans carry no call id: a call is joined with the model's request by name, arguments
//! and order. With the SDK's default `failure_error_function` the error's text is redacted:
//! the failed call's result is the SDK's generic message.

use serde_json::Value;

use super::payload::json_text;
use super::spans::{Span, text};
use super::{AgentSpan, ModelStep, RequestedCall, Role, ToolSpan};

/// The attribute every Logfire span has: its message template (the span's name).
const TEMPLATE: &str = "logfire.msg_template";

/// The templates of the OpenAI Agents integration.
fn kind(s: &Span) -> Option<Kind> {
    let t = s.text(TEMPLATE)?;
    Some(match t.as_str() {
        "Agent run: {name!r}" => Kind::Agent,
        "Function: {name}" => Kind::Function,
        "Chat completion with {gen_ai.request.model!r}" => Kind::Generation,
        t if t.starts_with("Responses API") => Kind::Response,
        "Custom span: {name}" | "OpenAI agents: {type} span" => Kind::Unread,
        "OpenAI Agents trace: {name}"
        | "Guardrail {name!r} {triggered=}"
        | "Handoff: {from_agent} → {to_agent}"
        | "Text → Speech group"
        | "Text → Speech"
        | "Speech → Text with {gen_ai.request.model!r}"
        | "MCP: list tools from server {server}" => Kind::Structure,
        t if t.starts_with("Task: ") || t.starts_with("Turn {turn} for agent ") => Kind::Structure,
        _ => return None,
    })
}

enum Kind {
    Agent,
    Function,
    Generation,
    Response,
    Structure,
    Unread,
}

/// Whether the span is the OpenAI Agents integration's (a template of its own).
pub(crate) fn claims(s: &Span) -> bool {
    kind(s).is_some()
}

/// What a span is.
pub(crate) fn role(s: &Span) -> Role {
    match kind(s) {
        // Without its `name`, a span names only its template: an agent or a call nobody can
        // count.
        Some(Kind::Agent) => match s.text("name") {
            Some(name) => Role::Agent(AgentSpan {
                declared: true,
                name,
                ..Default::default()
            }),
            None => Role::Unknown,
        },
        Some(Kind::Function) if s.attributes.contains_key("name") => Role::Tool(tool(s)),
        Some(Kind::Function) => Role::Unknown,
        Some(Kind::Generation | Kind::Response) => Role::Model(model(s)),
        Some(Kind::Structure) => Role::Structure,
        Some(Kind::Unread) | None => Role::Unknown,
    }
}

/// The integration's spans declare no agent beyond their agent runs.
pub(crate) fn agent_of(_: &Span) -> Option<String> {
    None
}

fn tool(s: &Span) -> ToolSpan {
    let mut t = ToolSpan::read(
        s.text("name").unwrap_or_default(),
        None,
        s.attributes.get("input"),
        s.attributes.get("output"),
    );
    let error = s
        .attributes
        .get("error")
        .map(json_text)
        .filter(|e| !e.is_null());
    let failed_message = s
        .text("logfire.msg")
        .and_then(|m| m.split_once(" failed: ").map(|(_, why)| why.to_owned()));
    if let Some(e) = error {
        let data = e.get("data").and_then(|d| d.get("error")).and_then(text);
        let message = e.get("message").and_then(text);
        t.failure = Some(data.or(message).unwrap_or_else(|| e.to_string()));
    } else if let Some(why) = failed_message {
        t.failure = Some(why);
    }
    t
}

fn model(s: &Span) -> ModelStep {
    let mut m = ModelStep {
        usage: super::genai::usage(s),
        ..ModelStep::default()
    };
    // The conversation the step was given, for the user's text and the tools' results.
    let events = s.attributes.get("events").map(json_text);
    let request = s
        .attributes
        .get("request_data")
        .map(json_text)
        .and_then(|r| r.get("messages").cloned());
    let raw_input = s.attributes.get("raw_input").map(json_text);
    let history: Vec<Value> = events
        .as_ref()
        .or(request.as_ref())
        .or(raw_input.as_ref())
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    // The answer is the trailing assistant messages (the list holds input, then output).
    let first_out = history
        .iter()
        .rposition(|e| role_of(e) != Some("assistant"))
        .map_or(0, |i| i + 1);
    for e in history.get(..first_out).unwrap_or_default() {
        match role_of(e) {
            Some("user") => m.user_input = content_text(e).or(m.user_input.take()),
            Some("tool") => {
                if let (Some(id), Some(c)) = (
                    e.get("id").or_else(|| e.get("tool_call_id")).and_then(text),
                    e.get("content"),
                ) {
                    m.tool_results.push((id, json_text(c)));
                }
            }
            _ => {}
        }
        if e.get("type").and_then(Value::as_str) == Some("function_call_output")
            && let (Some(id), Some(out)) = (e.get("call_id").and_then(text), e.get("output"))
        {
            m.tool_results.push((id, json_text(out)));
        }
    }
    match s.attributes.get("response").map(json_text) {
        Some(response) if response.get("output").is_some_and(Value::is_array) => {
            responses_output(&response, &mut m);
        }
        _ => {
            for e in history.get(first_out..).unwrap_or_default() {
                assistant_message(e, &mut m);
            }
        }
    }
    m
}

/// A message's or an event's role (`event.name` `gen_ai.user.message` is `user`).
fn role_of(e: &Value) -> Option<&str> {
    e.get("role").and_then(Value::as_str).or_else(|| {
        e.get("event.name")
            .and_then(Value::as_str)?
            .strip_prefix("gen_ai.")?
            .strip_suffix(".message")
    })
}

/// A message's text: its `content` string, or its text parts.
fn content_text(e: &Value) -> Option<String> {
    match e.get("content")? {
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => {
            let t: Vec<&str> = parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect();
            (!t.is_empty()).then(|| t.concat())
        }
        _ => None,
    }
}

/// An assistant message of the chat-completions form: its text and `tool_calls`.
fn assistant_message(e: &Value, m: &mut ModelStep) {
    if let Some(t) = content_text(e).filter(|t| !t.is_empty()) {
        m.output_text = Some(t);
    }
    for c in e
        .get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let f = c.get("function").unwrap_or(c);
        m.output_calls.push(RequestedCall {
            id: c.get("id").and_then(text),
            name: f.get("name").and_then(text).unwrap_or_default(),
            arguments: f
                .get("arguments")
                .map_or(Value::Object(Default::default()), |a| {
                    super::payload::arguments(a).0
                }),
        });
    }
}

/// A Responses API object's answer: its `function_call` items and `output_text`.
fn responses_output(response: &Value, m: &mut ModelStep) {
    let mut texts = Vec::new();
    for item in response
        .get("output")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        match item.get("type").and_then(Value::as_str) {
            Some("function_call") => m.output_calls.push(RequestedCall {
                id: item
                    .get("call_id")
                    .or_else(|| item.get("id"))
                    .and_then(text),
                name: item.get("name").and_then(text).unwrap_or_default(),
                arguments: item
                    .get("arguments")
                    .map_or(Value::Object(Default::default()), |a| {
                        super::payload::arguments(a).0
                    }),
            }),
            Some("message") => {
                for part in item
                    .get("content")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    if let Some(t) = part.get("text").and_then(Value::as_str) {
                        texts.push(t.to_owned());
                    }
                }
            }
            _ => {}
        }
    }
    if !texts.is_empty() {
        m.output_text = Some(texts.concat());
    }
}
