//! OpenInference (Arize Phoenix): what each span is, by `openinference.span.kind`.
//!
//! | kind | read as |
//! |---|---|
//! | `AGENT` | a node named `agent.name`, else `graph.node.id` (CrewAI), else the span's name without a `.run` suffix (smolagents); an `AGENT` span that is a LangGraph graph node (`metadata.langgraph_node`) is structure only |
//! | `TOOL` | a call of `tool.name` (else the span's name), id `tool.id` / `tool_call.id` or the one its payload carries, arguments `input.value`, result `output.value`, both unwrapped from the frameworks' envelopes ([`payload`](super::payload)) |
//! | `LLM` | a model call: usage `llm.token_count.prompt` / `completion` / `total`; input `llm.input_messages.{i}.message.role` / `content` / `tool_call_id`; answer `llm.output_messages.{i}.message.content` and `…message.tool_calls.{j}.tool_call.id` / `function.name` / `function.arguments` |
//! | `CHAIN`, `RETRIEVER`, `RERANKER`, `EMBEDDING`, `GUARDRAIL`, `EVALUATOR`, `PROMPT` | structure only: their children are lifted to their parent |
//! | `UNKNOWN`, or any other kind | unread ([`unread`](super::unread)) |
//!
//! A span's `metadata.lc_agent_name` (LangChain, LangGraph) names the agent it works for: a
//! `CHAIN` that starts another agent's work (a sub-agent's graph run as a tool) is that agent.

use serde_json::Value;

use super::payload::json_text;
use super::spans::Span;
use super::{AgentSpan, ModelStep, RequestedCall, Role, ToolSpan};
use crate::trace::arguments_from_string;
use agent_test_core::model::Usage;

/// The attribute that marks an OpenInference span.
pub(crate) const KIND: &str = "openinference.span.kind";

/// Whether the span follows OpenInference (it has [`KIND`]).
pub(crate) fn claims(s: &Span) -> bool {
    s.attributes.contains_key(KIND)
}

/// What a span is.
pub(crate) fn role(s: &Span) -> Role {
    let kind = s.text(KIND).unwrap_or_default();
    match kind.to_ascii_uppercase().as_str() {
        // LangGraph's graph nodes: the instrumentation calls any run whose name has "agent"
        // in it an AGENT (`create_react_agent`'s node `agent`), but a graph node is a step of
        // the agent around it, not an agent of its own.
        "AGENT" if metadata(s, "langgraph_node").is_some() => Role::Structure,
        "AGENT" => {
            let declared = s.text("agent.name").or_else(|| s.text("graph.node.id"));
            Role::Agent(AgentSpan {
                declared: declared.is_some(),
                // smolagents names an agent's span `<agent>.run`.
                name: declared
                    .unwrap_or_else(|| s.name.strip_suffix(".run").unwrap_or(&s.name).to_owned()),
                ..Default::default()
            })
        }
        "TOOL" => Role::Tool(ToolSpan::read(
            s.text("tool.name").unwrap_or_else(|| s.name.clone()),
            s.text("tool.id").or_else(|| s.text("tool_call.id")),
            s.attributes.get("input.value"),
            s.attributes.get("output.value"),
        )),
        "LLM" => Role::Model(model(s)),
        "CHAIN" | "RETRIEVER" | "RERANKER" | "EMBEDDING" | "GUARDRAIL" | "EVALUATOR" | "PROMPT" => {
            Role::Structure
        }
        // `UNKNOWN`, or a kind newer than this reader.
        _ => Role::Unknown,
    }
}

/// The agent a span says it works for: LangChain's `lc_agent_name` in its `metadata`.
pub(crate) fn agent_of(s: &Span) -> Option<String> {
    metadata(s, "lc_agent_name")
}

/// A field of the span's `metadata` (a JSON object, as text).
pub(crate) fn metadata(s: &Span, key: &str) -> Option<String> {
    let metadata = match s.attributes.get("metadata")? {
        Value::String(t) => agent_test_core::util::json::parse(t).ok()?,
        other => other.clone(),
    };
    metadata.get(key).and_then(super::spans::text)
}

fn model(s: &Span) -> ModelStep {
    let input = s.count("llm.token_count.prompt");
    let output = s.count("llm.token_count.completion");
    let mut m = ModelStep {
        usage: (input.is_some() || output.is_some()).then(|| {
            let total = (s.count("llm.token_count.total"))
                .or(Some(input.unwrap_or(0).saturating_add(output.unwrap_or(0))));
            Usage::counted(input, output, total)
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
                    m.tool_results.push((id, json_text(&Value::String(c))));
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
