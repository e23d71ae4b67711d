//! OpenTelemetry traces of agents: OTLP/JSON spans ([`spans`]) read span by span by the
//! convention that claims each (`CONVENTIONS`: OpenInference, the Vercel AI SDK's `ai.*`
//! spans, the OpenTelemetry GenAI semantic conventions with OpenLLMetry's older names) into
//! what each span is (`Role`), then assembled into a transcript by one set of reading
//! rules for all of them (`reading`).
//!
//! Each trace is a turn (in the order the traces start; a trace with no agent, tool or model
//! span — a framework's `create_agent` — is none). The rules, which docs/opentelemetry.md
//! states for users, are in `reading`: one executed tool call is one call (what a model
//! asked for is joined with the span that ran it), failures come from every place a
//! framework writes them, framework wrappers are not sub-agents, usage is counted once, and
//! what cannot be read is a [`Gap`](agent_test_core::model::Gap), never a silent guess.

pub(crate) mod genai;
pub(crate) mod haystack;
pub(crate) mod logfire;
pub(crate) mod openinference;
pub(crate) mod payload;
mod reading;
#[doc(hidden)]
pub mod spans;
mod unread;
pub(crate) mod vercel;

use std::collections::BTreeMap;

use serde_json::Value;

use self::spans::Span;
use super::{TraceError, TraceFormat};
use agent_test_core::model::{Reply, Transcript, Turn, Usage};

#[doc(hidden)]
pub use reading::turn;

/// What a span is, by a convention's reading of it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Role {
    /// An agent (or a workflow): a node of the call tree.
    Agent(AgentSpan),
    /// A tool execution.
    Tool(ToolSpan),
    /// A model call.
    Model(ModelStep),
    /// A span its convention knows to be structure only (a framework's step, a graph node, a
    /// wrapper): its children are lifted to its parent.
    Structure,
    /// A span no convention understood: read as structure, and accounted for as *unread*
    /// ([`unread`]), so that a claim that something did not happen is not made over it.
    Unknown,
}

/// An agent span: its name, and whether an attribute says it (`gen_ai.agent.name`,
/// `agent.name`) rather than only the span's name.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct AgentSpan {
    pub(crate) name: String,
    pub(crate) declared: bool,
    /// The name is the span's, where the convention puts the agent's name in an attribute
    /// whenever there is one (GenAI's `invoke_agent <name>`): unless the span wraps named
    /// agents, nobody knows which agent it is.
    pub(crate) guessed: bool,
}

/// A tool span's call.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ToolSpan {
    pub(crate) name: String,
    /// The call id, from an attribute or the wrapper of its arguments or result.
    pub(crate) id: Option<String>,
    /// The arguments as the span has them: an object, or a display text (a single-argument
    /// tool's value alone); `None` when the span has none.
    pub(crate) arguments: Option<Value>,
    /// The result, unwrapped ([`payload`]).
    pub(crate) result: Option<Value>,
    /// A failure the result's wrapper reports (beyond the span's status and events).
    pub(crate) failure: Option<String>,
    /// The convention writes a failure only in the result (LlamaIndex's `is_error`): without
    /// a result, whether the call failed is unknown.
    pub(crate) failure_in_result: bool,
}

impl ToolSpan {
    /// A tool span whose raw arguments and result are unwrapped ([`payload`]).
    pub(crate) fn read(
        name: String,
        id: Option<String>,
        arguments: Option<&Value>,
        result: Option<&Value>,
    ) -> Self {
        let (arguments, args_id) = match arguments {
            Some(a) => {
                let (a, id) = payload::arguments(a);
                (Some(a), id)
            }
            None => (None, None),
        };
        let result = result.map(payload::result).unwrap_or_default();
        ToolSpan {
            name,
            id: id.or(args_id).or(result.id),
            arguments,
            result: result.value,
            failure: result.failure,
            failure_in_result: false,
        }
    }
}

/// What a model call saw and answered.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ModelStep {
    pub(crate) usage: Option<Usage>,
    /// The last user message among its input.
    pub(crate) user_input: Option<String>,
    /// Tool results among its input, by call id.
    pub(crate) tool_results: Vec<(String, Value)>,
    /// Its answer's text, if it answered with text.
    pub(crate) output_text: Option<String>,
    /// The tool calls its answer asked for.
    pub(crate) output_calls: Vec<RequestedCall>,
}

impl ModelStep {
    /// Whether the span says anything of the call: a wrapper around the real model call (an
    /// outer LlamaIndex span) has no answer and no usage, and is no step of its own.
    pub(crate) fn says_something(&self) -> bool {
        self.usage.is_some() || self.output_text.is_some() || !self.output_calls.is_empty()
    }
}

/// A tool call a model's answer asked for.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RequestedCall {
    pub(crate) id: Option<String>,
    pub(crate) name: String,
    pub(crate) arguments: Value,
}

/// A span convention: which spans it claims, what each of them is, and which agent a span
/// says it belongs to.
pub(crate) struct Convention {
    /// Its name, as the documentation says it (a test holds docs/opentelemetry.md to it).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) name: &'static str,
    pub(crate) claims: fn(&Span) -> bool,
    pub(crate) role: fn(&Span) -> Role,
    /// The agent a span of any role declares it works for (LangChain's `lc_agent_name`):
    /// a span that declares another agent than the one around it starts that agent.
    pub(crate) agent_of: fn(&Span) -> Option<String>,
}

/// Every convention, in the order they claim spans: the first that claims a span reads it, so
/// one trace may mix instrumentations (an OpenInference framework span around a GenAI client
/// span). The GenAI conventions come last and claim every span (OpenLLMetry's older names
/// included). Adding a convention is a module and a line here.
pub(crate) const CONVENTIONS: [Convention; 5] = [
    Convention {
        name: "openinference",
        claims: openinference::claims,
        role: openinference::role,
        agent_of: openinference::agent_of,
    },
    Convention {
        name: "vercel-ai",
        claims: vercel::claims,
        role: vercel::role,
        agent_of: vercel::agent_of,
    },
    Convention {
        name: "haystack",
        claims: haystack::claims,
        role: haystack::role,
        agent_of: haystack::agent_of,
    },
    Convention {
        name: "logfire-openai-agents",
        claims: logfire::claims,
        role: logfire::role,
        agent_of: logfire::agent_of,
    },
    Convention {
        name: "genai",
        claims: |_| true,
        role: genai::role,
        agent_of: genai::agent_of,
    },
];

/// The convention that reads a span: the first that claims it.
pub(crate) fn convention(s: &Span) -> &'static Convention {
    // The last (GenAI) claims every span.
    let [.., last] = &CONVENTIONS;
    CONVENTIONS.iter().find(|c| (c.claims)(s)).unwrap_or(last)
}

/// Whether a document is OTLP/JSON trace data.
pub(crate) fn detect_otel(v: &Value) -> bool {
    spans::detect(v)
}

/// Whether a document is OTLP/JSON with OpenInference spans.
pub(crate) fn detect_openinference(v: &Value) -> bool {
    spans::detect(v) && spans::has_attribute(v, openinference::KIND)
}

/// Reads OTLP/JSON spans detected as OpenInference.
pub(crate) fn parse_openinference(v: &Value) -> Result<Transcript, TraceError> {
    parse(v, TraceFormat::OpenInference)
}

/// Reads OTLP/JSON spans detected as the GenAI conventions.
pub(crate) fn parse_otel(v: &Value) -> Result<Transcript, TraceError> {
    parse(v, TraceFormat::Otel)
}

/// Reads OTLP/JSON spans, each by the convention that claims it; `format` names the document
/// in errors.
fn parse(v: &Value, format: TraceFormat) -> Result<Transcript, TraceError> {
    let spans = spans::read(v, format)?;
    if spans.is_empty() {
        return Err(TraceError::at(
            format,
            "$",
            "no spans: the export holds no span",
        ));
    }
    let turns = turns(spans);
    if turns.is_empty() {
        return Err(TraceError::at(
            format,
            "$",
            "no agent, tool or model span in any trace: nothing a turn could be read from",
        ));
    }
    Ok(Transcript::new(turns))
}

/// A live turn's reply completed by what its spans say: their calls when the reply lists
/// none (else a note that they were not merged), their usage when it has none, their text
/// when it has none; the error of the agent's root span, as a note. What the spans could
/// not read is a gap of the reply, unless the reply has that part itself. (The runtime's live
/// receivers, `otlp` and `tracing`, merge with it.)
#[doc(hidden)]
pub fn merge(reply: &mut Reply, traced: Turn) {
    use agent_test_core::model::Part;
    let own_calls = !reply.calls.is_empty();
    if !own_calls {
        reply.calls = traced.reply.calls;
        // What the spans left unread bears on the calls only when the calls are theirs.
        reply.spans = traced.reply.spans;
    } else if !traced.reply.calls.is_empty() {
        reply.notes.push(format!(
            "the reply listed its tool calls: they were kept, and the {} calls of its spans \
             were not merged",
            traced.reply.calls.len()
        ));
    }
    let own_usage = reply.usage.is_some();
    if !own_usage {
        reply.usage = traced.reply.usage;
    }
    let own_text = !reply.text.is_empty();
    if !own_text {
        reply.text = traced.reply.text;
    }
    reply.notes.extend(traced.reply.notes);
    reply
        .gaps
        .extend(traced.reply.gaps.into_iter().filter(|g| match g.part {
            Part::Calls | Part::Arguments | Part::Results | Part::Outcomes => !own_calls,
            Part::ReplyText => !own_text,
            Part::Usage => !own_usage,
        }));
    if let Some(e) = traced.error {
        reply.notes.push(e);
    }
}

/// One turn per trace, in the order the traces start; a trace with nothing to read (no
/// agent, tool or model span: a framework's `create_agent` span alone) is no turn, and the
/// first turn notes it.
pub(crate) fn turns(spans: Vec<Span>) -> Vec<Turn> {
    let mut traces: BTreeMap<String, Vec<Span>> = BTreeMap::new();
    for s in spans {
        traces.entry(s.trace_id.clone()).or_default().push(s);
    }
    let mut traces: Vec<Vec<Span>> = traces.into_values().collect();
    traces.sort_by_key(|t| t.iter().map(|s| s.start_ns).min().unwrap_or(0));
    let mut skipped = Vec::new();
    let mut out: Vec<Turn> = Vec::new();
    for t in traces {
        if t.iter().any(|s| match (convention(s).role)(s) {
            Role::Structure => false,
            Role::Unknown => unread::possible_call(s).is_some(),
            _ => true,
        }) {
            out.push(turn(out.len(), t));
        } else {
            let names: Vec<&str> = t.iter().take(3).map(|s| s.name.as_str()).collect();
            skipped.push(format!(
                "trace {} ({}) holds no agent, tool or model span: it is not a turn",
                t.first().map(|s| s.trace_id.as_str()).unwrap_or_default(),
                names.join(", ")
            ));
        }
    }
    if let Some(first) = out.first_mut() {
        first.reply.notes.splice(0..0, skipped);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::CONVENTIONS;

    #[test]
    fn every_convention_is_documented() {
        let docs = include_str!("../../../../docs/opentelemetry.md");
        for c in &CONVENTIONS {
            assert!(
                docs.contains(&format!("`{}`", c.name)),
                "docs/opentelemetry.md does not name the convention `{}`",
                c.name
            );
        }
    }
}
