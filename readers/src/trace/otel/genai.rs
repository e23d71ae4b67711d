//! The OpenTelemetry GenAI semantic conventions: what each span is, by
//! `gen_ai.operation.name` (`invoke_agent`, `execute_tool`, `chat`, ...) or, for older
//! instrumentations, by the attributes they write.
//!
//! | reads | current convention | older names also read |
//! |---|---|---|
//! | agents | `invoke_agent` with `gen_ai.agent.name`; `invoke_workflow` with `gen_ai.workflow.name` | OpenLLMetry `traceloop.span.kind` `agent` / `workflow` with `traceloop.entity.name` |
//! | tools | `execute_tool` with `gen_ai.tool.name`, `gen_ai.tool.call.id`, `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result` (objects or JSON text); the span's ERROR status is the call's failure | `traceloop.span.kind` `tool` with `traceloop.entity.input` / `output` |
//! | model calls | `chat`, `text_completion`, `generate_content`; usage `gen_ai.usage.input_tokens` / `output_tokens`; messages `gen_ai.input.messages` / `gen_ai.output.messages` (parts `text`, `tool_call`, `tool_call_response` with `response` or `result`) | usage `gen_ai.usage.prompt_tokens` / `completion_tokens`; OpenLLMetry's `gen_ai.prompt.{i}.*` / `gen_ai.completion.{i}.*` (with `tool_calls.{j}.*`); span events `gen_ai.user.message`, `gen_ai.tool.message`, `gen_ai.choice` |

use serde_json::Value;

use super::payload::{self, json_text};
use super::spans::{Span, text};
use super::{AgentSpan, ModelStep, RequestedCall, Role, ToolSpan};
use crate::trace::arguments_from_string;
use agent_test_core::model::Usage;

/// What a span is.
pub(crate) fn role(s: &Span) -> Role {
    let op = s.text("gen_ai.operation.name");
    let traceloop = s.text("traceloop.span.kind");
    let named = |prefix: &str| {
        s.name
            .strip_prefix(prefix)
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_owned)
    };
    // The conventions name the agent in an attribute whenever the application gives one,
    // and the span after it: a span with a name in its span's name only (the AI SDK's
    // `invoke_agent <model>`) may name something else — a wrapper when it wraps named agents
    // (`Agent workflow`), else an agent nobody can name.
    let agent = |key: &str, prefix: &str| {
        let declared = s.text(key);
        Role::Agent(AgentSpan {
            declared: declared.is_some(),
            guessed: declared.is_none(),
            name: declared
                .or_else(|| named(prefix))
                .unwrap_or_else(|| prefix.to_owned()),
        })
    };
    match (op.as_deref(), traceloop.as_deref()) {
        (Some("invoke_agent"), _) => agent("gen_ai.agent.name", "invoke_agent"),
        (Some("invoke_workflow"), _) => agent("gen_ai.workflow.name", "invoke_workflow"),
        // A tool span that names no tool is a call nobody can count.
        (Some("execute_tool"), _) => {
            match s.text("gen_ai.tool.name").or_else(|| named("execute_tool")) {
                Some(name) => tool(s, name),
                None => Role::Unknown,
            }
        }
        (Some("chat" | "text_completion" | "generate_content"), _) => Role::Model(model(s)),
        // Building an agent, embedding text: nothing a turn did with tools or models; a
        // framework's step (the AI SDK 7's `agent_step`, Strands' event loop cycle) holds its
        // work in its children.
        (Some("create_agent" | "embeddings" | "agent_step" | "execute_event_loop_cycle"), _) => {
            Role::Structure
        }
        // OpenLLMetry's tasks (a LangGraph node, a LlamaIndex step), with the operation name
        // newer versions write: a task that calls a tool names it; one that carries a model's
        // call or a tool call's envelope without saying so is not structure.
        (Some("execute_task"), _) | (None, Some("task")) if is_model(s) => Role::Model(model(s)),
        (Some("execute_task"), _) | (None, Some("task"))
            if s.attributes.contains_key("tool.name") =>
        {
            let mut t = ToolSpan::read(
                s.text("tool.name").unwrap_or_default(),
                None,
                s.attributes.get("tool.arguments"),
                s.attributes.get("traceloop.entity.output"),
            );
            // LlamaIndex says a call failed only in its output (`is_error`).
            t.failure_in_result = true;
            with_failure(s, t)
        }
        (Some("execute_task"), _) | (None, Some("task")) if carries_call(s) => Role::Unknown,
        (Some("execute_task"), _) | (None, Some("task")) => Role::Structure,
        (Some(_), _) if framework_step(&s.name) => Role::Structure,
        (Some(_), _) => Role::Unknown,
        // A workflow named after the framework's method (LlamaIndex's
        // `FunctionAgent.workflow`) names no agent: it is the run's wrapper.
        (None, Some("agent" | "workflow")) if method_name(s) => Role::Structure,
        // OpenLLMetry names its spans `<entity>.<kind>`: without the entity's name, the span's
        // name gives it; a span named otherwise names nothing.
        (None, Some(kind @ ("agent" | "workflow"))) => {
            match s.text("traceloop.entity.name").or_else(|| entity(s, kind)) {
                Some(name) => Role::Agent(AgentSpan {
                    declared: s.attributes.contains_key("traceloop.entity.name"),
                    name,
                    ..Default::default()
                }),
                None => Role::Unknown,
            }
        }
        (None, Some("tool")) => match s
            .text("traceloop.entity.name")
            .or_else(|| entity(s, "tool"))
        {
            Some(name) => with_failure(
                s,
                ToolSpan::read(
                    name,
                    None,
                    s.attributes.get("traceloop.entity.input"),
                    s.attributes.get("traceloop.entity.output"),
                ),
            ),
            None => Role::Unknown,
        },
        (None, _) if s.attributes.contains_key("gen_ai.tool.name") => {
            tool(s, s.text("gen_ai.tool.name").unwrap_or_default())
        }
        // A model's attributes beside an agent's name, and no operation to tell which: an agent
        // span that lost its operation (read as a model it would hide the agent) — unread.
        (None, _) if is_model(s) && !s.attributes.contains_key("gen_ai.agent.name") => {
            Role::Model(model(s))
        }
        (None, _) if framework_step(&s.name) => Role::Structure,
        _ => Role::Unknown,
    }
}

/// The entity an OpenLLMetry span's name gives (`travel_agent.workflow` for `workflow`).
fn entity(s: &Span, kind: &str) -> Option<String> {
    s.name
        .strip_suffix(&format!(".{kind}"))
        .filter(|n| !n.is_empty())
        .map(str::to_owned)
}

/// Whether an OpenLLMetry task carries a tool call in its payload (a LlamaIndex tool step
/// whose `tool.name` is gone: its output names the tool, its `ToolOutput`, its call id).
fn carries_call(s: &Span) -> bool {
    ["traceloop.entity.output", "traceloop.entity.input"]
        .iter()
        .filter_map(|k| s.attributes.get(*k))
        .map(json_text)
        .any(|v| {
            v.as_object().is_some_and(|o| {
                [
                    "tool_name",
                    "tool_output",
                    "tool_id",
                    "tool_call_id",
                    "is_error",
                ]
                .iter()
                .any(|k| o.contains_key(*k))
            })
        })
}

/// Whether an OpenLLMetry agent or workflow span is named by the framework's method
/// (`FunctionAgent.workflow`: its entity name is the span's name, a `Class.method`) rather
/// than by the agent.
fn method_name(s: &Span) -> bool {
    s.text("traceloop.entity.name").is_none_or(|n| n == s.name)
        && s.name.split_once('.').is_some_and(|(class, method)| {
            class.chars().next().is_some_and(char::is_uppercase) && !method.is_empty()
        })
}

/// Framework steps whose work is in their children, by name: Strands' event loop cycles,
/// Semantic Kernel's function-calling loop, the AI SDK's and others' numbered steps and turns.
fn framework_step(name: &str) -> bool {
    let numbered = |prefix: &str| {
        name.strip_prefix(prefix)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    matches!(
        name,
        "execute_event_loop_cycle" | "AutoFunctionInvocationLoop" | "turn"
    ) || numbered("step ")
        || numbered("Step ")
}

/// The failure a span's attributes declare beyond its status and events: rig's
/// `gen_ai.tool.call.outcome` (`error`, `denied`, `skipped`) and `gen_ai.tool.error.type`,
/// Strands' `gen_ai.tool.status` (`error`), OpenLLMetry's `gen_ai.task.status = failure`.
pub(crate) fn declared_failure(s: &Span) -> Option<String> {
    let outcome = s.text("gen_ai.tool.call.outcome");
    let error_type = s.text("gen_ai.tool.error.type");
    match (outcome.as_deref(), error_type) {
        (Some("success") | None, None) => {}
        (outcome, Some(kind)) => {
            return Some(match outcome {
                Some(o) if o != "error" => format!("{o}: {kind}"),
                _ => kind,
            });
        }
        (Some(other), None) => return Some(other.to_owned()),
    }
    if let Some(status) = s.text("gen_ai.tool.status").filter(|v| v != "success") {
        return Some(status);
    }
    (s.text("gen_ai.task.status").as_deref() == Some("failure")).then(|| "failure".to_owned())
}

/// A tool span's call with the failure its attributes declare.
fn with_failure(s: &Span, mut t: ToolSpan) -> Role {
    if t.failure.is_none() {
        t.failure = declared_failure(s);
    }
    Role::Tool(t)
}

/// A tool execution span. Google ADK adds a span `execute_tool (merged)` after parallel
/// calls, with the tool name `(merged tools)` and an event id for a call id: it ran nothing
/// and is structure only.
fn tool(s: &Span, name: String) -> Role {
    if name == "(merged tools)" {
        return Role::Structure;
    }
    with_failure(
        s,
        ToolSpan::read(
            name,
            s.text("gen_ai.tool.call.id"),
            s.attributes.get("gen_ai.tool.call.arguments"),
            s.attributes.get("gen_ai.tool.call.result"),
        ),
    )
}

/// The agent a span says it works for: `gen_ai.agent.name` on any span, or the LangChain
/// agent name OpenLLMetry carries in its association properties.
pub(crate) fn agent_of(s: &Span) -> Option<String> {
    s.text("gen_ai.agent.name")
        .or_else(|| s.text("traceloop.association.properties.lc_agent_name"))
}

/// A model span of an instrumentation that writes no operation name.
fn is_model(s: &Span) -> bool {
    [
        "gen_ai.request.model",
        "gen_ai.response.model",
        "llm.request.type",
    ]
    .iter()
    .any(|k| s.attributes.contains_key(*k))
}

/// What an agent span says it was asked and answered (its own message attributes or
/// events, as Semantic Kernel and Strands write them): the last user text, the last answer.
pub(crate) fn agent_messages(s: &Span) -> (Option<String>, Option<String>) {
    let mut m = model(s);
    m.usage = None;
    (m.user_input, m.output_text)
}

fn model(s: &Span) -> ModelStep {
    let mut m = ModelStep {
        usage: usage(s),
        ..ModelStep::default()
    };
    if let Some(input) = s.attributes.get("gen_ai.input.messages").map(json_text) {
        messages_in(&input, &mut m);
    }
    if let Some(output) = s.attributes.get("gen_ai.output.messages").map(json_text) {
        messages_out(&output, &mut m);
    }
    indexed(s, &mut m);
    events(s, &mut m);
    m
}

pub(crate) fn usage(s: &Span) -> Option<Usage> {
    let input = s
        .count("gen_ai.usage.input_tokens")
        .or_else(|| s.count("gen_ai.usage.prompt_tokens"));
    let output = s
        .count("gen_ai.usage.output_tokens")
        .or_else(|| s.count("gen_ai.usage.completion_tokens"));
    let total = match (
        input,
        output,
        s.count("gen_ai.usage.total_tokens")
            .or_else(|| s.count("llm.usage.total_tokens")),
    ) {
        (_, _, Some(t)) => Some(t),
        (i, o, None) => Some(i.unwrap_or(0).saturating_add(o.unwrap_or(0))),
    };
    (input.is_some() || output.is_some()).then(|| Usage::counted(input, output, total))
}

/// The parts of a message: its text, the tool calls it asks for, the tool results it gives.
fn parts(msg: &Value) -> (Option<String>, Vec<RequestedCall>, Vec<(String, Value)>) {
    let mut texts = Vec::new();
    let mut calls = Vec::new();
    let mut results = Vec::new();
    // A message of the older form (`{"role", "content"}`, Semantic Kernel) is its text.
    if msg.get("parts").is_none()
        && let Some(t) = msg.get("content").and_then(Value::as_str)
    {
        texts.push(t.to_owned());
    }
    for p in msg
        .get("parts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        match p.get("type").and_then(Value::as_str) {
            Some("text") => {
                if let Some(t) = p.get("content").and_then(Value::as_str) {
                    texts.push(t.to_owned());
                }
            }
            Some("tool_call") => calls.push(RequestedCall {
                id: p.get("id").and_then(text),
                name: p.get("name").and_then(text).unwrap_or_default(),
                arguments: p
                    .get("arguments")
                    .map_or(Value::Object(Default::default()), |a| {
                        payload::arguments(a).0
                    }),
            }),
            Some("tool_call_response") => {
                // The schema says `response`; the specification's example and some
                // producers write `result`.
                if let (Some(id), Some(r)) = (
                    p.get("id").and_then(text),
                    p.get("response").or_else(|| p.get("result")),
                ) {
                    results.push((id, payload::result(r).value.unwrap_or(Value::Null)));
                }
            }
            _ => {}
        }
    }
    let text = (!texts.is_empty()).then(|| texts.join(""));
    (text, calls, results)
}

fn messages_in(v: &Value, m: &mut ModelStep) {
    for msg in v.as_array().into_iter().flatten() {
        let (text, _, results) = parts(msg);
        if msg.get("role").and_then(Value::as_str) == Some("user")
            && let Some(t) = text
        {
            m.user_input = Some(t);
        }
        m.tool_results.extend(results);
    }
}

fn messages_out(v: &Value, m: &mut ModelStep) {
    for msg in v.as_array().into_iter().flatten() {
        let (text, calls, _) = parts(msg);
        if text.is_some() {
            m.output_text = text;
        }
        m.output_calls.extend(calls);
    }
}

/// OpenLLMetry's indexed attributes: `gen_ai.prompt.{i}.role|content|tool_call_id` and
/// `gen_ai.completion.{i}.content|tool_calls.{j}.id|name|arguments`.
fn indexed(s: &Span, m: &mut ModelStep) {
    let get = |k: String| s.text(&k);
    for i in 0.. {
        let Some(role) = get(format!("gen_ai.prompt.{i}.role")) else {
            break;
        };
        let content = get(format!("gen_ai.prompt.{i}.content"));
        match role.as_str() {
            "user" => m.user_input = content.or(m.user_input.take()),
            "tool" => {
                if let (Some(id), Some(c)) =
                    (get(format!("gen_ai.prompt.{i}.tool_call_id")), content)
                {
                    m.tool_results.push((id, crate::trace::json_or_string(&c)));
                }
            }
            _ => {}
        }
    }
    for i in 0.. {
        let base = format!("gen_ai.completion.{i}");
        let content = get(format!("{base}.content"));
        let first_call = get(format!("{base}.tool_calls.0.name"));
        if content.is_none() && first_call.is_none() && get(format!("{base}.role")).is_none() {
            break;
        }
        if content.is_some() {
            m.output_text = content;
        }
        for j in 0.. {
            let Some(name) = get(format!("{base}.tool_calls.{j}.name")) else {
                break;
            };
            m.output_calls.push(RequestedCall {
                id: get(format!("{base}.tool_calls.{j}.id")),
                name,
                arguments: get(format!("{base}.tool_calls.{j}.arguments"))
                    .map_or(Value::Object(Default::default()), |a| {
                        arguments_from_string(&a)
                    }),
            });
        }
    }
}

/// Span events of the conventions before messages moved to attributes (and to logs):
/// `gen_ai.user.message`, `gen_ai.tool.message` (`id`), `gen_ai.assistant.message` and
/// `gen_ai.choice` (`message`, `tool_calls`).
fn events(s: &Span, m: &mut ModelStep) {
    for e in &s.events {
        let a = &e.attributes;
        // Strands (and the conventions' event form): the message attributes on an event.
        if e.name == "gen_ai.client.inference.operation.details" {
            if let Some(input) = a.get("gen_ai.input.messages").map(json_text) {
                messages_in(&input, m);
            }
            if let Some(output) = a.get("gen_ai.output.messages").map(json_text) {
                messages_out(&output, m);
            }
            continue;
        }
        let content = a
            .get("content")
            .or_else(|| a.get("message").and_then(|msg| msg.get("content")))
            .and_then(text);
        match e.name.as_str() {
            "gen_ai.user.message" => m.user_input = content.or(m.user_input.take()),
            "gen_ai.tool.message" => {
                if let (Some(id), Some(c)) = (a.get("id").and_then(text), content) {
                    m.tool_results.push((id, crate::trace::json_or_string(&c)));
                }
            }
            // An assistant message among the input is history; the choice is the answer.
            "gen_ai.choice" => {
                if content.is_some() {
                    m.output_text = content;
                }
                let calls = a
                    .get("tool_calls")
                    .or_else(|| a.get("message").and_then(|msg| msg.get("tool_calls")));
                for c in calls.and_then(Value::as_array).into_iter().flatten() {
                    let f = c.get("function").unwrap_or(c);
                    m.output_calls.push(RequestedCall {
                        id: c.get("id").and_then(text),
                        name: f.get("name").and_then(text).unwrap_or_default(),
                        arguments: f
                            .get("arguments")
                            .map_or(Value::Object(Default::default()), |a| {
                                payload::arguments(a).0
                            }),
                    });
                }
            }
            _ => {}
        }
    }
}
