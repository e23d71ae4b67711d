//! OpenTelemetry traces of agents: OTLP/JSON spans ([`spans`]) interpreted by one of two
//! conventions — the OpenTelemetry GenAI semantic conventions ([`genai`], [`TraceFormat::Otel`])
//! or OpenInference ([`openinference`], [`TraceFormat::OpenInference`]) — into a transcript.
//!
//! Each trace is a turn (in the order the traces start). Within it, spans form a tree by their
//! parent ids: agent spans become nodes (sub-agents nest), tool spans become calls — with their
//! arguments, results and error status, in start-time order, nested under the agent or tool
//! that made them — and model spans give the turn's usage, its input (the last user message the
//! model saw) and its reply (the model's last answer), and group the calls into model steps
//! (the calls one model response asked for). A call a model asked for that has no tool span of
//! its own (an app that instruments only its model client) is taken from the model's answer,
//! with its result from the tool message the next model call was given. The turn's latency is
//! the trace's span of time.

pub(crate) mod genai;
pub(crate) mod openinference;
pub(crate) mod spans;

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::Value;

use self::spans::Span;
use super::{TraceError, TraceFormat};
use crate::model::{Call, Reply, Transcript, Turn, Usage};

/// What a span is, by a convention's reading of it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Role {
    /// An agent (or a workflow): a node of the call tree.
    Agent { name: String },
    /// A tool execution.
    Tool(ToolSpan),
    /// A model call.
    Model(ModelStep),
    /// Anything else: its children are lifted to its parent.
    Other,
}

/// A tool span's call.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ToolSpan {
    pub(crate) name: String,
    pub(crate) id: Option<String>,
    pub(crate) arguments: Option<Value>,
    pub(crate) result: Option<Value>,
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

/// A tool call a model's answer asked for.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RequestedCall {
    pub(crate) id: Option<String>,
    pub(crate) name: String,
    pub(crate) arguments: Value,
}

/// Reads OTLP/JSON spans with a convention's reading of each.
pub(crate) fn parse(
    v: &Value,
    format: TraceFormat,
    role: fn(&Span) -> Role,
) -> Result<Transcript, TraceError> {
    let spans = spans::read(v, format)?;
    if spans.is_empty() {
        return Err(TraceError::at(
            format,
            "$",
            "no spans: the export holds no span",
        ));
    }
    Ok(Transcript::new(turns(spans, role)))
}

/// A live turn's reply completed by what its spans say: their calls when the reply lists
/// none (else a note that they were not merged), their usage when it has none, their text
/// when it has none; the error of the agent's root span, as a note.
#[cfg(any(feature = "otlp", feature = "tracing"))]
pub(crate) fn merge(reply: &mut Reply, traced: Turn) {
    if reply.calls.is_empty() {
        reply.calls = traced.reply.calls;
    } else if !traced.reply.calls.is_empty() {
        reply.notes.push(format!(
            "the reply listed its tool calls: they were kept, and the {} calls of its spans \
             were not merged",
            traced.reply.calls.len()
        ));
    }
    if reply.usage.is_none() {
        reply.usage = traced.reply.usage;
    }
    if reply.text.is_empty() {
        reply.text = traced.reply.text;
    }
    if let Some(e) = traced.error {
        reply.notes.push(e);
    }
}

/// One turn per trace, in the order the traces start.
pub(crate) fn turns(spans: Vec<Span>, role: fn(&Span) -> Role) -> Vec<Turn> {
    let mut traces: BTreeMap<String, Vec<Span>> = BTreeMap::new();
    for s in spans {
        traces.entry(s.trace_id.clone()).or_default().push(s);
    }
    let mut traces: Vec<Vec<Span>> = traces.into_values().collect();
    traces.sort_by_key(|t| t.iter().map(|s| s.start_ns).min().unwrap_or(0));
    traces
        .into_iter()
        .enumerate()
        .map(|(i, t)| turn(i, t, role))
        .collect()
}

/// The turn of one trace.
pub(crate) fn turn(index: usize, mut spans: Vec<Span>, role: fn(&Span) -> Role) -> Turn {
    spans.sort_by_key(|s| (s.start_ns, s.end_ns));
    // A span repeated (an exporter retried) counts once.
    let mut seen = HashSet::new();
    spans.retain(|s| seen.insert(s.span_id.clone()));
    let roles: Vec<Role> = spans.iter().map(role).collect();
    let tree = Tree::new(&spans, &roles);
    let reply = tree.reply();
    let start = spans.iter().map(|s| s.start_ns).min().unwrap_or(0);
    let end = spans.iter().map(|s| s.end_ns).max().unwrap_or(0);
    let mut turn = Turn::timed(
        index,
        tree.input(),
        reply,
        Some(end.saturating_sub(start) / 1_000_000),
    );
    if let Some(root) = tree.roots.first().map(|&r| &spans[r])
        && let Some(message) = &root.error
    {
        turn.error = Some(if message.is_empty() {
            format!("the agent's span `{}` ended with an error", root.name)
        } else {
            format!(
                "the agent's span `{}` ended with an error: {message}",
                root.name
            )
        });
    }
    turn
}

/// The spans of one trace as a tree, with each span's role.
struct Tree<'a> {
    spans: &'a [Span],
    roles: &'a [Role],
    children: Vec<Vec<usize>>,
    roots: Vec<usize>,
    /// Model spans in time order: a span's position is its step.
    models: Vec<usize>,
    /// Which model step asked for each call id.
    step_of_call: HashMap<String, usize>,
    /// Call ids some tool span ran.
    ran: HashSet<String>,
}

impl<'a> Tree<'a> {
    fn new(spans: &'a [Span], roles: &'a [Role]) -> Self {
        let index: HashMap<&str, usize> = spans
            .iter()
            .enumerate()
            .map(|(i, s)| (s.span_id.as_str(), i))
            .collect();
        let mut children = vec![Vec::new(); spans.len()];
        let mut roots = Vec::new();
        for (i, s) in spans.iter().enumerate() {
            match s.parent.as_deref().and_then(|p| index.get(p)) {
                // A span cannot be its own parent; such a loop is read as a root.
                Some(&p) if p != i => children[p].push(i),
                _ => roots.push(i),
            }
        }
        let models: Vec<usize> = (0..spans.len())
            .filter(|&i| matches!(roles[i], Role::Model(_)))
            .collect();
        let mut step_of_call = HashMap::new();
        for (step, &m) in models.iter().enumerate() {
            if let Role::Model(model) = &roles[m] {
                for c in &model.output_calls {
                    if let Some(id) = &c.id {
                        step_of_call.entry(id.clone()).or_insert(step);
                    }
                }
            }
        }
        let ran = roles
            .iter()
            .filter_map(|r| match r {
                Role::Tool(t) => t.id.clone(),
                _ => None,
            })
            .collect();
        Tree {
            spans,
            roles,
            children,
            roots,
            models,
            step_of_call,
            ran,
        }
    }

    fn model(&self, step: usize) -> Option<&ModelStep> {
        match &self.roles[*self.models.get(step)?] {
            Role::Model(m) => Some(m),
            _ => None,
        }
    }

    /// The model step a tool span belongs to: the one that asked for its call id, else the
    /// last model call that ended before it started.
    fn step_of(&self, tool: usize, id: Option<&String>) -> Option<usize> {
        if let Some(step) = id.and_then(|id| self.step_of_call.get(id)) {
            return Some(*step);
        }
        let start = self.spans[tool].start_ns;
        self.models
            .iter()
            .rposition(|&m| self.spans[m].end_ns <= start)
    }

    /// The result the model was given for a call, by id.
    fn given_result(&self, id: &str) -> Option<Value> {
        (0..self.models.len()).find_map(|s| {
            self.model(s)?
                .tool_results
                .iter()
                .find(|(i, _)| i == id)
                .map(|(_, v)| v.clone())
        })
    }

    fn reply(&self) -> Reply {
        let mut reply = Reply::text(self.output());
        let mut usage: Option<Usage> = None;
        for s in 0..self.models.len() {
            if let Some(u) = self.model(s).and_then(|m| m.usage) {
                usage.get_or_insert_with(Usage::default).add(&u);
            }
        }
        reply.usage = usage;
        for &r in &self.roots {
            reply.calls.extend(self.calls(r));
        }
        reply
    }

    /// The calls of span `i`: a node for an agent, a call for a tool, else its children's.
    fn calls(&self, i: usize) -> Vec<Call> {
        let nested = || -> Vec<Call> {
            self.children[i]
                .iter()
                .flat_map(|&c| self.calls(c))
                .collect()
        };
        match &self.roles[i] {
            Role::Agent { name } => {
                vec![
                    nested()
                        .into_iter()
                        .fold(Call::node(name.clone()), Call::child),
                ]
            }
            Role::Tool(t) => {
                let mut call = Call::tool(
                    t.name.clone(),
                    t.arguments
                        .clone()
                        .unwrap_or_else(|| Value::Object(Default::default())),
                );
                if let Some(id) = &t.id {
                    call = call.with_id(id.clone());
                }
                let result = t
                    .result
                    .clone()
                    .or_else(|| t.id.as_deref().and_then(|id| self.given_result(id)));
                if let Some(error) = &self.spans[i].error {
                    let why = result.unwrap_or_else(|| Value::String(error.clone()));
                    call = call.failed(why);
                } else if let Some(r) = result {
                    call = call.result(r);
                }
                if let Some(step) = self.step_of(i, t.id.as_ref()) {
                    call = call.in_step(step);
                }
                let span = &self.spans[i];
                call = call.took_ms(span.end_ns.saturating_sub(span.start_ns) / 1_000_000);
                vec![nested().into_iter().fold(call, Call::child)]
            }
            Role::Model(m) => {
                // Calls the model asked for that no tool span ran: from its answer.
                let step = self.models.iter().position(|&x| x == i);
                let mut out = nested();
                for c in &m.output_calls {
                    if c.id.as_ref().is_some_and(|id| self.ran.contains(id)) {
                        continue;
                    }
                    if c.id.is_none() && self.tool_named_after(i, &c.name) {
                        continue;
                    }
                    let mut call = Call::tool(c.name.clone(), c.arguments.clone());
                    if let Some(id) = &c.id {
                        call = call.with_id(id.clone());
                        if let Some(r) = self.given_result(id) {
                            call = call.result(r);
                        }
                    }
                    if let Some(step) = step {
                        call = call.in_step(step);
                    }
                    out.push(call);
                }
                out
            }
            Role::Other => nested(),
        }
    }

    /// Whether a tool span named `name` started after model span `m` (calls without ids are
    /// matched by name).
    fn tool_named_after(&self, m: usize, name: &str) -> bool {
        let end = self.spans[m].end_ns;
        self.roles.iter().enumerate().any(|(i, r)| {
            matches!(r, Role::Tool(t) if t.name == name) && self.spans[i].start_ns >= end
        })
    }

    /// The user's message: the last one the first model call saw, else the root span's input.
    fn input(&self) -> String {
        (0..self.models.len())
            .find_map(|s| self.model(s)?.user_input.clone())
            .or_else(|| {
                self.roots
                    .iter()
                    .find_map(|&r| root_text(&self.spans[r], &["input.value", "gen_ai.prompt"]))
            })
            .unwrap_or_default()
    }

    /// The reply: the last model answer with text, else the root span's output.
    fn output(&self) -> String {
        (0..self.models.len())
            .rev()
            .find_map(|s| self.model(s)?.output_text.clone())
            .or_else(|| {
                self.roots.iter().find_map(|&r| {
                    root_text(&self.spans[r], &["output.value", "gen_ai.completion"])
                })
            })
            .unwrap_or_default()
    }
}

/// The first of `keys` a root span has, as text.
fn root_text(span: &Span, keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|k| span.text(k))
}

/// Text that may hold JSON: the JSON value, else the text.
pub(crate) fn json_text(v: &Value) -> Value {
    match v {
        Value::String(s) => super::json_or_string(s),
        other => other.clone(),
    }
}
