//! Spans no convention understood, and whether each might have been a call or a model step.
//!
//! Reading a trace classifies every span: an agent, a tool call, a model step, structure its
//! convention knows (a framework's step, a graph node, a wrapper) — or **unread**. An unread
//! span is read as structure (its children are lifted to its parent) and accounted for in the
//! turn's [`SpanReading`](agent_test_core::model::SpanReading). Whether it *might be a call* decides what
//! it costs (docs/opentelemetry.md states the rule for users):
//!
//! - it might be a tool or agent call when its name, or the name of an attribute outside the
//!   namespaces that describe the process and the network (`code.*`, `http.*`, `db.*`, ...),
//!   has a word of calls in it (`tool`, `function`, `call`, `invoke`, `execute`, `action`,
//!   `task`, `skill`, `plugin`, `mcp`, `agent`, `handoff`, `delegate`), or when it carries a
//!   payload (an attribute named `input`, `arguments`, `args`, `parameters`, `output`,
//!   `result`, or ending so). Then a claim that a call did not happen, or a count, over its
//!   turn is not measured ([`agent_test_core::model::SpanReading::may_hide_calls`]);
//! - it might be a model step when an attribute speaks of tokens or usage: the turn's usage is
//!   then a gap;
//! - otherwise (an HTTP server's or client's span, a database query) it is listed and costs
//!   nothing.

use super::spans::Span;

/// Words that name calls, in span names and attribute names.
const CALL_WORDS: [&str; 18] = [
    "tool",
    "tools",
    "function",
    "functions",
    "call",
    "calls",
    "invoke",
    "execute",
    "action",
    "actions",
    "task",
    "skill",
    "plugin",
    "mcp",
    "agent",
    "agents",
    "handoff",
    "delegate",
];

/// Attribute names (last segment) that carry a call's data.
const PAYLOADS: [&str; 11] = [
    "input",
    "inputs",
    "arguments",
    "args",
    "parameters",
    "params",
    "output",
    "outputs",
    "result",
    "results",
    "return_value",
];

/// Namespaces of attributes that describe where code ran, not what it did: no evidence.
const PLACES: [&str; 14] = [
    "code.",
    "thread.",
    "process.",
    "http.",
    "url.",
    "server.",
    "client.",
    "net.",
    "network.",
    "db.",
    "user_agent.",
    "service.",
    "telemetry.",
    "otel.",
];

/// Why an unread span might be a tool or agent call, if anything says so.
pub(crate) fn possible_call(s: &Span) -> Option<String> {
    if let Some(w) = words(&s.name).find(|w| CALL_WORDS.contains(&w.as_str())) {
        return Some(format!("its name says `{w}`"));
    }
    let evidence = |k: &&String| !PLACES.iter().any(|p| k.starts_with(p));
    if let Some(k) = s
        .attributes
        .keys()
        .filter(evidence)
        .find(|k| words(k).any(|w| CALL_WORDS.contains(&w.as_str())))
    {
        return Some(format!("it carries `{k}`"));
    }
    let payloads: Vec<&str> = s
        .attributes
        .keys()
        .filter(evidence)
        .filter(|k| {
            let last = k.rsplit('.').next().unwrap_or(k).to_ascii_lowercase();
            PAYLOADS
                .iter()
                .any(|p| last == *p || last.ends_with(&format!("_{p}")))
        })
        .map(String::as_str)
        .collect();
    match payloads.as_slice() {
        [] => None,
        [one] => Some(format!("it carries `{one}`")),
        [first, .., last] => Some(format!("it carries `{first}` and `{last}`")),
    }
}

/// The attribute by which an unread span might be a model step (it speaks of tokens).
pub(crate) fn possible_model(s: &Span) -> Option<&str> {
    s.attributes
        .keys()
        .find(|k| words(k).any(|w| matches!(w.as_str(), "token" | "tokens" | "usage")))
        .map(String::as_str)
}

/// Words that speak of how an operation ended.
const FAILURE_WORDS: [&str; 10] = [
    "error",
    "errors",
    "exception",
    "exceptions",
    "fail",
    "failed",
    "failure",
    "failures",
    "outcome",
    "status",
];

/// Attributes some convention reads for a call's failure (the others that speak of failure
/// are a convention not read).
const FAILURE_KEYS: [&str; 14] = [
    "error",
    "gen_ai.tool.status",
    "error.type",
    "error.message",
    "otel.status_code",
    "otel.status_message",
    "gen_ai.tool.call.outcome",
    "gen_ai.tool.error.type",
    "gen_ai.task.status",
    "haystack.tool.error",
    "exception.type",
    "exception.message",
    "exception.stacktrace",
    "exception.escaped",
];

/// Where a read call's span may say it failed in a way no convention here reads: a status
/// code OTLP does not define, an event or an attribute whose name speaks of errors, failures
/// or outcomes. Then whether the call succeeded is not known.
pub(crate) fn unread_failure(s: &Span) -> Option<String> {
    if let Some(code) = s.unknown_status {
        return Some(format!(
            "its status code {code}, which OTLP does not define"
        ));
    }
    let speaks = |name: &str| words(name).any(|w| FAILURE_WORDS.contains(&w.as_str()));
    if let Some(e) = s
        .events
        .iter()
        .find(|e| e.name != "exception" && speaks(&e.name))
    {
        return Some(format!("its event `{}`", e.name));
    }
    s.attributes
        .keys()
        .filter(|k| !FAILURE_KEYS.contains(&k.as_str()))
        .filter(|k| !PLACES.iter().any(|p| k.starts_with(p)))
        .find(|k| speaks(k))
        .map(|k| format!("`{k}`"))
}

/// The words of a name, lower case: split at anything not a letter or digit and where a
/// lower-case letter meets an upper-case one (`toolCall` is `tool`, `call`).
fn words(name: &str) -> impl Iterator<Item = String> + '_ {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut lower_before = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            out.extend((!word.is_empty()).then(|| std::mem::take(&mut word)));
            lower_before = false;
            continue;
        }
        if c.is_uppercase() && lower_before {
            out.push(std::mem::take(&mut word));
        }
        lower_before = c.is_lowercase();
        word.extend(c.to_lowercase());
    }
    out.extend((!word.is_empty()).then_some(word));
    out.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, Value, json};

    fn span(name: &str, attributes: Value) -> Span {
        let Value::Object(attributes) = attributes else {
            unreachable!()
        };
        Span {
            trace_id: "t".into(),
            span_id: "s".into(),
            parent: None,
            name: name.into(),
            start_ns: 0,
            end_ns: 0,
            attributes,
            events: Vec::new(),
            error: None,
            unknown_status: None,
        }
    }

    #[test]
    fn words_split_at_punctuation_and_case() {
        let w: Vec<String> = words("Function: book_train toolCall").collect();
        assert_eq!(w, ["function", "book", "train", "tool", "call"]);
    }

    #[test]
    fn a_span_may_be_a_call_by_its_name_its_attributes_or_its_payload() {
        assert_eq!(
            possible_call(&span("Function: book_train", json!({}))).as_deref(),
            Some("its name says `function`")
        );
        assert_eq!(
            possible_call(&span("step", json!({"tool.name": "x"}))).as_deref(),
            Some("it carries `tool.name`")
        );
        assert_eq!(
            possible_call(&span("run", json!({"input": "{}", "output": "1"}))).as_deref(),
            Some("it carries `input` and `output`")
        );
        // Where code ran is no evidence of a call.
        let http = span(
            "POST /chat",
            json!({"http.request.method": "POST", "code.function": "chat", "url.path": "/chat"}),
        );
        assert_eq!(possible_call(&http), None);
        assert_eq!(
            possible_call(&span("connect", Value::Object(Map::new()))),
            None
        );
    }

    #[test]
    fn a_span_may_be_a_model_step_by_its_tokens() {
        let s = span("llm", json!({"llm.usage.total_tokens": 12}));
        assert_eq!(possible_model(&s), Some("llm.usage.total_tokens"));
        assert_eq!(possible_model(&span("x", json!({"a": 1}))), None);
    }
}
