//! The reading rules: one trace's spans, each read by its convention, into one turn. The same
//! rules hold for every framework (docs/opentelemetry.md states them for users):
//!
//! 1. **Agents.** An agent span is a node of the call tree. The same agent seen twice (a
//!    workflow span and the agent span it wraps, both named `travel_agent`) is one node; an
//!    agent span known only by its span's name that wraps named agents (the OpenAI Agents
//!    SDK's `Agent workflow`) is a wrapper, not an agent; a span that declares it works for
//!    another agent than the one around it (LangChain's `lc_agent_name`) starts that agent;
//!    an agent node with nothing in it beside a sibling of the same name is that sibling's
//!    shadow (OpenLLMetry's childless `invoke_agent`).
//! 2. **One executed call is one call.** The calls a model asked for are joined with the tool
//!    spans that ran them: by call id wherever one appears (the span's attributes, the
//!    envelope of its arguments or result, its parent's list of calls to run), else by name
//!    (compared without case and punctuation), arguments and order, within the same agent,
//!    after the model step. A joined call takes the model's name, id and step, and the
//!    model's arguments when the span has only a display text. A request carried out by a
//!    sub-agent of that name (a smolagents managed agent) is that agent's node.
//! 3. **What is not understood is a gap, never a guess.** A request no span ran, in a trace
//!    whose tools have spans, a tool span without arguments or result: the turn gets a
//!    [`Gap`] in that part, so the checks that read it are errors. Only in a trace without
//!    any tool span (an app that instruments only its model client) are the model's requests
//!    the calls, with the results the next model calls were given.
//! 4. **Failures from everywhere they are written**: the span's ERROR status, an `exception`
//!    event, a result envelope's error status. The failed call's result is the exception's
//!    message, else the result the span recorded, else the status message.
//! 5. **Usage once**: the sum of the model steps. A model span with no answer and no usage (a
//!    wrapper around the real call) is no step; a model span inside a step is the same call
//!    seen twice; agent spans' aggregated usage is never added.
//! 6. **Text**: the input is the first step's last user message, the reply the last answer
//!    with text of a top-level agent's step, else the root span's own input and output.

mod echoes;
mod graphs;
mod join;

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::payload::json_text;
use super::spans::{Span, text};
use super::{ModelStep, RequestedCall, Role, ToolSpan, convention, vercel};
use agent_test_core::model::{Call, Gap, Part, Reply, SpanReading, Turn, UnreadSpans, Usage};

/// The turn of one trace.
#[doc(hidden)]
pub fn turn(index: usize, mut spans: Vec<Span>) -> Turn {
    spans.sort_by_key(|s| (s.start_ns, s.end_ns));
    // A span repeated (an exporter retried) counts once.
    let mut seen = HashSet::new();
    spans.retain(|s| seen.insert(s.span_id.clone()));
    let reading = Reading::new(&spans);
    let root = reading.roots.first().copied();
    let (input, reply) = reading.reply();
    let start = spans.iter().map(|s| s.start_ns).min().unwrap_or(0);
    let end = spans.iter().map(|s| s.end_ns).max().unwrap_or(0);
    let mut turn = Turn::timed(
        index,
        input,
        reply,
        Some(end.saturating_sub(start) / 1_000_000),
    );
    if let Some(root) = root.and_then(|r| spans.get(r))
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

/// A call a model step asked for.
struct Request {
    step: usize,
    /// The model span.
    model: usize,
    call: RequestedCall,
    /// The agent span around the model span.
    owner: Option<usize>,
}

/// One trace's spans, read.
struct Reading<'a> {
    spans: &'a [Span],
    roles: Vec<Role>,
    children: Vec<Vec<usize>>,
    roots: Vec<usize>,
    /// Spans parents first.
    order: Vec<usize>,
    /// The agent span around each span (itself excluded).
    owner: Vec<Option<usize>>,
    /// The model spans that are steps, in time order.
    steps: Vec<usize>,
    requests: Vec<Request>,
    /// The request each tool span ran.
    ran: HashMap<usize, usize>,
    /// Each tool span's call id, wherever it was found.
    tool_ids: HashMap<usize, String>,
    /// Requests not joined with any span (kept as calls only in a trace without tool spans).
    unjoined: Vec<usize>,
    /// Tools whose span carries no arguments (or only a display text), and no result.
    no_arguments: Vec<(usize, String)>,
    no_result: Vec<(usize, String)>,
    /// Calls whose spans may say they failed in a convention not read.
    unknown_outcomes: Vec<(usize, String)>,
    gaps: Vec<Gap>,
    notes: Vec<String>,
}

impl<'a> Reading<'a> {
    fn new(spans: &'a [Span]) -> Self {
        let roles: Vec<Role> = spans.iter().map(|s| (convention(s).role)(s)).collect();
        let index: HashMap<&str, usize> = spans
            .iter()
            .enumerate()
            .map(|(i, s)| (s.span_id.as_str(), i))
            .collect();
        let parent: Vec<Option<usize>> = spans
            .iter()
            .enumerate()
            .map(|(i, s)| {
                s.parent
                    .as_deref()
                    .and_then(|p| index.get(p).copied())
                    .filter(|&p| p != i)
            })
            .collect();
        let mut parent = parent;
        let mut roles = roles;
        graphs::adopt(spans, &roles, &mut parent);
        let children = children_of(&parent);
        graphs::subgraph_agents(spans, &mut roles, &children);
        echoes::collapse(spans, &mut roles, &parent);
        let roots = parent
            .iter()
            .enumerate()
            .filter(|(_, p)| p.is_none())
            .map(|(i, _)| i)
            .collect();
        let mut reading = Reading {
            spans,
            roles,
            children,
            roots,
            order: Vec::new(),
            owner: vec![None; spans.len()],
            steps: Vec::new(),
            requests: Vec::new(),
            ran: HashMap::new(),
            tool_ids: HashMap::new(),
            unjoined: Vec::new(),
            no_arguments: Vec::new(),
            no_result: Vec::new(),
            unknown_outcomes: Vec::new(),
            gaps: Vec::new(),
            notes: Vec::new(),
        };
        reading.walk();
        reading.join(&parent);
        reading
    }

    /// Visits the spans parents first, deciding which are agents and which model spans are
    /// steps. Iterative, so a deep trace cannot exhaust the stack; spans caught in a parent
    /// loop (unreachable from a root) become roots.
    fn walk(&mut self) {
        let n = self.spans.len();
        let mut visited = vec![false; n];
        let mut order = Vec::with_capacity(n);
        let mut roots = self.roots.clone();
        let mut next_root = 0;
        loop {
            let Some(&root) = roots.get(next_root) else {
                match visited.iter().position(|v| !v) {
                    Some(i) => {
                        roots.push(i);
                        continue;
                    }
                    None => break,
                }
            };
            next_root += 1;
            let mut stack = vec![root];
            while let Some(i) = stack.pop() {
                let Some(seen) = visited.get_mut(i) else {
                    continue;
                };
                if std::mem::replace(seen, true) {
                    continue;
                }
                order.push(i);
                stack.extend(self.children_of(i).iter().rev());
            }
        }
        // A loop's spans hang from the span that was made their root.
        let parents = self.parents();
        for &r in roots.iter().skip(self.roots.len()) {
            let parent = parents.get(r).copied().flatten();
            if let Some(siblings) = parent.and_then(|p| self.children.get_mut(p)) {
                siblings.retain(|&c| c != r);
            }
        }
        self.roots = roots;
        // The spans with a declared agent somewhere below them.
        let mut declared_below = HashSet::new();
        for &i in order.iter().rev() {
            let below = self.children_of(i).iter().any(|&c| {
                declared_below.contains(&c)
                    || matches!(self.roles.get(c), Some(Role::Agent(a)) if a.declared)
            });
            if below {
                declared_below.insert(i);
            }
        }
        // Parents first: each span's agent context (its owner), and its refined role.
        let mut in_step = HashSet::new();
        let mut steps = Vec::new();
        let parents = self.parents();
        let spans = self.spans;
        for &i in &order {
            let (Some(span), Some(role)) = (spans.get(i), self.roles.get(i)) else {
                continue;
            };
            let parent = parents.get(i).copied().flatten();
            let enclosing = parent.and_then(|p| match self.roles.get(p) {
                Some(Role::Agent(_)) => Some(p),
                _ => self.owner_of(p),
            });
            let enclosing_name = enclosing
                .and_then(|a| self.agent_name(a))
                .map(str::to_owned);
            let declared = (convention(span).agent_of)(span);
            let refined = match role {
                Role::Agent(a) if Some(&a.name) == enclosing_name.as_ref() => Some(Role::Structure),
                Role::Agent(a) if !a.declared && declared_below.contains(&i) => {
                    Some(Role::Structure)
                }
                Role::Agent(a) if a.guessed => Some(Role::Unknown),
                Role::Structure | Role::Unknown => declared
                    .filter(|d| Some(d) != enclosing_name.as_ref())
                    .map(|name| {
                        Role::Agent(super::AgentSpan {
                            name,
                            declared: true,
                            ..Default::default()
                        })
                    }),
                _ => None,
            };
            if let Some(r) = refined
                && let Some(role) = self.roles.get_mut(i)
            {
                *role = r;
            }
            if let Some(owner) = self.owner.get_mut(i) {
                *owner = enclosing;
            }
            let inside = parent.is_some_and(|p| in_step.contains(&p));
            let step =
                !inside && matches!(self.roles.get(i), Some(Role::Model(m)) if m.says_something());
            if step {
                steps.push(i);
            }
            if inside || step {
                in_step.insert(i);
            }
        }
        steps.sort_by_key(|&m| spans.get(m).map(|s| (s.start_ns, s.end_ns)));
        self.steps = steps;
        self.order = order;
    }

    /// Each span's parent in the tree as [`Reading::walk`] left it.
    fn parents(&self) -> Vec<Option<usize>> {
        parents_of(&self.children, self.spans.len())
    }

    /// The children of span `i`.
    fn children_of(&self, i: usize) -> &[usize] {
        self.children.get(i).map_or(&[], Vec::as_slice)
    }

    /// The agent span around span `i`.
    fn owner_of(&self, i: usize) -> Option<usize> {
        self.owner.get(i).copied().flatten()
    }

    /// When span `i` started.
    fn start(&self, i: usize) -> Option<u64> {
        self.spans.get(i).map(|s| s.start_ns)
    }

    fn agent_name(&self, i: usize) -> Option<&str> {
        match self.roles.get(i) {
            Some(Role::Agent(a)) => Some(&a.name),
            _ => None,
        }
    }

    fn model(&self, span: usize) -> Option<&ModelStep> {
        match self.roles.get(span) {
            Some(Role::Model(m)) => Some(m),
            _ => None,
        }
    }

    fn tool(&self, span: usize) -> Option<&ToolSpan> {
        match self.roles.get(span) {
            Some(Role::Tool(t)) => Some(t),
            _ => None,
        }
    }

    /// The turn's input and reply.
    fn reply(mut self) -> (String, Reply) {
        let calls = self.calls();
        if !self.no_arguments.is_empty() {
            self.gaps.push(Gap::new(
                Part::Arguments,
                format!(
                    "the spans of {} carry no arguments (or only a display text) and no model \
                     request gives them",
                    names(&self.no_arguments)
                ),
            ));
        }
        if !self.unknown_outcomes.is_empty() {
            let marked: Vec<&str> = self
                .unknown_outcomes
                .iter()
                .map(|(_, m)| m.as_str())
                .collect();
            self.gaps.push(Gap::new(
                Part::Outcomes,
                format!("whether {} failed is unknown", marked.join(", ")),
            ));
        }
        if !self.no_result.is_empty() {
            self.gaps.push(Gap::new(
                Part::Results,
                format!(
                    "no span of the trace carries the result of {}",
                    names(&self.no_result)
                ),
            ));
        }
        let mut usage: Option<Usage> = None;
        for &m in &self.steps {
            if let Some(u) = self.model(m).and_then(|m| m.usage) {
                usage.get_or_insert_with(Usage::default).add(&u);
            }
        }
        let roots: Vec<(Option<String>, Option<String>)> = self
            .roots
            .iter()
            .filter_map(|&r| self.spans.get(r))
            .map(root_texts)
            .collect();
        let input = self
            .steps
            .iter()
            .find_map(|&m| self.model(m)?.user_input.clone())
            .or_else(|| roots.iter().find_map(|(i, _)| i.clone()))
            .unwrap_or_default();
        let top = |m: usize| self.owner_of(m).is_none_or(|a| self.owner_of(a).is_none());
        let text = self
            .steps
            .iter()
            .rev()
            .filter(|&&m| top(m))
            .find_map(|&m| self.model(m)?.output_text.clone())
            .or_else(|| roots.iter().find_map(|(_, o)| o.clone()));
        if text.is_none() {
            self.gaps.push(Gap::new(
                Part::ReplyText,
                "no span of the trace carries the agent's answer",
            ));
        }
        let spans = self.span_reading();
        let mut reply = Reply::text(text.unwrap_or_default());
        reply.calls = calls;
        reply.usage = usage;
        reply.gaps = self.gaps;
        reply.notes = self.notes;
        reply.spans = Some(spans);
        (input, reply)
    }

    /// Every span accounted for: those no convention understood, by name in the order they
    /// started, with why they might be calls ([`unread`](super::unread)); an unread span that
    /// speaks of tokens leaves the usage a gap.
    fn span_reading(&mut self) -> SpanReading {
        let mut reading = SpanReading::new(self.spans.len());
        let mut model_like = Vec::new();
        for (span, role) in self.spans.iter().zip(&self.roles) {
            if !matches!(role, Role::Unknown) {
                continue;
            }
            let why = super::unread::possible_call(span);
            match reading
                .unread
                .iter_mut()
                .find(|u| u.name == span.name && u.possible_call == why)
            {
                Some(u) => u.count += 1,
                None => reading
                    .unread
                    .push(UnreadSpans::new(span.name.clone(), 1, why)),
            }
            if let Some(key) = super::unread::possible_model(span) {
                model_like.push(format!("`{}` (it carries `{key}`)", span.name));
            }
        }
        if !model_like.is_empty() {
            model_like.dedup();
            self.gaps.push(Gap::new(
                Part::Usage,
                format!("unread spans may be model calls: {}", model_like.join(", ")),
            ));
        }
        reading
    }

    /// The call tree: every span's calls, children first.
    fn calls(&mut self) -> Vec<Call> {
        let no_tool_spans = !self.roles.iter().any(|r| matches!(r, Role::Tool(_)));
        let mut from_request: HashMap<usize, Vec<usize>> = HashMap::new();
        if no_tool_spans && !self.unjoined.is_empty() {
            self.gaps.push(Gap::new(
                Part::Outcomes,
                "no span ran the tools: the calls are what the model asked for, and whether \
                 each succeeded is unknown (a failure goes back to the model as text)",
            ));
            for &r in &self.unjoined {
                if let Some(q) = self.requests.get(r) {
                    from_request.entry(q.model).or_default().push(r);
                }
            }
        }
        // Each span's calls, taken by its parent.
        let mut built: HashMap<usize, Vec<Call>> = HashMap::new();
        let order = self.order.clone();
        let spans = self.spans;
        for &i in order.iter().rev() {
            let (Some(span), Some(role)) = (spans.get(i), self.roles.get(i).cloned()) else {
                continue;
            };
            let mut nested: Vec<Call> = Vec::new();
            for c in self.children_of(i) {
                nested.extend(built.remove(c).into_iter().flatten());
            }
            drop_shadows(&mut nested);
            let calls = match role {
                Role::Agent(a) => vec![nested.into_iter().fold(Call::node(a.name), Call::child)],
                Role::Tool(t) => vec![self.tool_call(i, span, &t, nested)],
                Role::Model(_) => {
                    let requests = from_request.get(&i).into_iter().flatten();
                    for q in requests.filter_map(|&r| self.requests.get(r)) {
                        nested.push(self.requested_call(q));
                    }
                    nested
                }
                Role::Structure | Role::Unknown => nested,
            };
            built.insert(i, calls);
        }
        let mut calls = Vec::new();
        for r in &self.roots {
            calls.extend(built.remove(r).into_iter().flatten());
        }
        drop_shadows(&mut calls);
        calls
    }

    /// A call taken from a model's request (a trace without tool spans).
    fn requested_call(&self, q: &Request) -> Call {
        let mut call = Call::tool(q.call.name.clone(), q.call.arguments.clone()).in_step(q.step);
        if let Some(id) = &q.call.id {
            call = call.with_id(id.clone());
            if let Some(result) = self.given_result(id) {
                call = call.result(result);
            }
        }
        call
    }

    /// The call of tool span `i` (`span`), joined with its request.
    fn tool_call(&mut self, i: usize, span: &Span, t: &ToolSpan, nested: Vec<Call>) -> Call {
        let request = self.ran.get(&i).and_then(|&r| self.requests.get(r));
        let name = request.map_or_else(|| t.name.clone(), |q| q.call.name.clone());
        let arguments = match (&t.arguments, request) {
            (Some(a @ Value::Object(_)), _) => a.clone(),
            (_, Some(q)) => q.call.arguments.clone(),
            (Some(shown), None) => {
                self.no_arguments.push((i, name.clone()));
                shown.clone()
            }
            (None, None) => {
                self.no_arguments.push((i, name.clone()));
                Value::Object(Default::default())
            }
        };
        let id = self
            .tool_ids
            .get(&i)
            .cloned()
            .or_else(|| request.and_then(|q| q.call.id.clone()));
        let mut call = Call::tool(name.clone(), arguments);
        if let Some(id) = &id {
            call = call.with_id(id.clone());
        }
        let step = request.map(|q| q.step).or_else(|| self.step_by_time(i));
        if let Some(step) = step {
            call = call.in_step(step);
        }
        let result = t
            .result
            .clone()
            .or_else(|| id.as_deref().and_then(|id| self.given_result(id)));
        let exception = span.events.iter().find(|e| e.name == "exception").map(|e| {
            e.attributes
                .get("exception.message")
                .and_then(text)
                .unwrap_or_default()
        });
        // OpenTelemetry's `error.type` marks a failed operation whatever its status says.
        let error_type = span.text("error.type");
        let failed = span.error.is_some()
            || exception.is_some()
            || t.failure.is_some()
            || error_type.is_some();
        if !failed && let Some(marker) = super::unread::unread_failure(span) {
            self.unknown_outcomes.push((
                i,
                format!("`{name}` (its span carries {marker}, which no convention here reads)"),
            ));
        } else if !failed && result.is_none() && t.failure_in_result {
            self.unknown_outcomes.push((
                i,
                format!("`{name}` (it reports a failure only in its result, and has none)"),
            ));
        }
        if failed {
            let status = span
                .error
                .as_deref()
                .map(|m| m.lines().next().unwrap_or_default().to_owned())
                .filter(|m| !m.is_empty());
            let why = exception
                .filter(|m| !m.is_empty())
                .map(Value::String)
                .or(result)
                .or_else(|| t.failure.clone().map(Value::String))
                .or_else(|| status.map(Value::String))
                .or_else(|| error_type.map(Value::String))
                .unwrap_or_else(|| Value::String("failed".into()));
            call = call.failed(why);
        } else if let Some(r) = result {
            call = call.result(r);
        } else {
            self.no_result.push((i, name.clone()));
        }
        call = call.took_ms(span.end_ns.saturating_sub(span.start_ns) / 1_000_000);
        let nested = match crewai_coworker(&name, &call.arguments) {
            Some(coworker) if !nested.iter().any(|c| c.name == coworker) => {
                vec![nested.into_iter().fold(Call::node(coworker), Call::child)]
            }
            _ => nested,
        };
        nested.into_iter().fold(call, Call::child)
    }
}

/// Each span's children, in document order, from each span's parent.
fn children_of(parent: &[Option<usize>]) -> Vec<Vec<usize>> {
    let mut children = vec![Vec::new(); parent.len()];
    for (i, p) in parent.iter().enumerate() {
        if let Some(siblings) = p.and_then(|p| children.get_mut(p)) {
            siblings.push(i);
        }
    }
    children
}

/// Each span's parent, from each span's children.
fn parents_of(children: &[Vec<usize>], n: usize) -> Vec<Option<usize>> {
    let mut parent = vec![None; n];
    for (p, list) in children.iter().enumerate() {
        for &c in list {
            if let Some(slot) = parent.get_mut(c) {
                *slot = Some(p);
            }
        }
    }
    parent
}

/// Tool names for a message: `a`, `b` and `c` (each once, in the order of their spans).
fn names(list: &[(usize, String)]) -> String {
    let mut list = list.to_vec();
    list.sort();
    let mut unique: Vec<&str> = Vec::new();
    for (_, n) in &list {
        if !unique.contains(&n.as_str()) {
            unique.push(n);
        }
    }
    let quoted: Vec<String> = unique.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => quoted.concat(),
    }
}

/// CrewAI's delegation tools (`Delegate work to coworker`, `Ask question to coworker`): the
/// co-worker agent they hand work to, whose spans CrewAI's instrumentation does not write —
/// its calls nest under a node of its name.
fn crewai_coworker(tool: &str, arguments: &Value) -> Option<String> {
    let n = normalized(tool);
    (n == "delegate_work_to_coworker" || n == "ask_question_to_coworker")
        .then(|| arguments.get("coworker").and_then(Value::as_str))
        .flatten()
        .map(str::to_owned)
}

/// Drops agent nodes with nothing in them that have a sibling node of the same name: a
/// framework's second span for an agent whose work sits under the other.
fn drop_shadows(calls: &mut Vec<Call>) {
    let shadow = |c: &Call, all: &[Call]| {
        c.kind == agent_test_core::model::CallKind::Node
            && c.children.is_empty()
            && all.iter().any(|o| {
                o.kind == agent_test_core::model::CallKind::Node
                    && o.name == c.name
                    && !o.children.is_empty()
            })
    };
    let keep: Vec<bool> = calls.iter().map(|c| !shadow(c, calls)).collect();
    let mut keep = keep.into_iter();
    calls.retain(|_| keep.next().unwrap_or(true));
}

/// A name compared without case and punctuation (`Delegate work to coworker` is the model's
/// `delegate_work_to_coworker`).
fn normalized(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_matches('_').to_owned()
}

/// What a root span says the turn was asked and answered, by its convention.
fn root_texts(span: &Span) -> (Option<String>, Option<String>) {
    if vercel::claims(span) {
        return vercel::texts(span);
    }
    if super::haystack::claims(span) {
        return super::haystack::texts(span);
    }
    let (mut input, mut output) = super::genai::agent_messages(span);
    input = input.or_else(|| {
        span.attributes
            .get("input.value")
            .or_else(|| span.attributes.get("gen_ai.prompt"))
            .and_then(|v| message_text(v, "user"))
    });
    output = output.or_else(|| {
        span.attributes
            .get("output.value")
            .or_else(|| span.attributes.get("gen_ai.completion"))
            .and_then(|v| message_text(v, "assistant"))
    });
    (input, output)
}

/// The text a payload gives for `role`: itself when it is plain text, else the last message
/// of that role in its `messages` (LangGraph's state), else its `task` / `input` / `output`.
fn message_text(v: &Value, role: &str) -> Option<String> {
    let v = json_text(v);
    match &v {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => {
            let from_messages = o.get("messages").and_then(Value::as_array).and_then(|ms| {
                ms.iter().rev().find_map(|m| {
                    let m = m.get("data").unwrap_or(m);
                    let r = m
                        .get("role")
                        .or_else(|| m.get("type"))
                        .and_then(Value::as_str)?;
                    let is_role = match role {
                        "user" => matches!(r, "user" | "human"),
                        _ => matches!(r, "assistant" | "ai"),
                    };
                    is_role
                        .then(|| m.get("content").and_then(Value::as_str))
                        .flatten()
                        .filter(|t| !t.is_empty())
                        .map(str::to_owned)
                })
            });
            let keys: &[&str] = if role == "user" {
                &["task", "input", "prompt"]
            } else {
                &["output", "final_answer", "raw"]
            };
            from_messages.or_else(|| {
                keys.iter()
                    .find_map(|k| o.get(*k)?.as_str().map(str::to_owned))
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_compare_without_case_and_punctuation() {
        assert_eq!(
            normalized("Delegate work to coworker"),
            "delegate_work_to_coworker"
        );
        assert_eq!(
            normalized("delegate_work_to_coworker"),
            "delegate_work_to_coworker"
        );
        assert_eq!(normalized("travel-search_hotels"), "travel_search_hotels");
        let list = [
            (3, "c".into()),
            (0, "a".into()),
            (1, "b".into()),
            (2, "a".into()),
        ];
        assert_eq!(names(&list), "`a`, `b` and `c`");
    }
}
