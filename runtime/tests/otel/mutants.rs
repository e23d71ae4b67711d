//! The guard for the frameworks nobody has tried yet: over every trace of the corpus, a tool,
//! agent or model span whose recognised attributes are removed or renamed — its kind, its tool's or agent's name,
//! its arguments, its result, its failure markers — never turns a failing check into a
//! passing one. A reader that no longer understands a span must say so (an unread span, a
//! gap), never report what it did not see as not having happened.
//!
//! Failure markers are renamed, not removed: a tool span without its ERROR status, its
//! `exception` event or Haystack's `haystack.tool.error` is what a successful call looks like,
//! and no reader can tell the two apart; a marker under a name nobody reads can be noticed.

use agent_test_runtime::check::{Expectation, Status};
use agent_test_runtime::evaluate;
use agent_test_runtime::prelude::*;
use agent_test_runtime::trace::parse;
use serde_json::{Value, json};

use super::corpus::{Entry, entries};

/// Attributes a convention reads to know what a span is, what it called, with what and how
/// it ended.
const RECOGNISED: [&str; 36] = [
    // kinds
    "openinference.span.kind",
    "traceloop.span.kind",
    "gen_ai.operation.name",
    "logfire.msg_template",
    "ai.operationId",
    // names
    "gen_ai.tool.name",
    "tool.name",
    "haystack.tool.name",
    "name",
    "ai.toolCall.name",
    "traceloop.entity.name",
    "gen_ai.agent.name",
    "agent.name",
    // arguments
    "gen_ai.tool.call.arguments",
    "input.value",
    "tool.arguments",
    "haystack.agent.step.tool.input",
    "input",
    "ai.toolCall.args",
    "ai.toolCall.input",
    "traceloop.entity.input",
    // results
    "gen_ai.tool.call.result",
    "output.value",
    "traceloop.entity.output",
    "haystack.agent.step.tool.output",
    "output",
    "ai.toolCall.result",
    "ai.toolCall.output",
    // failure markers (renamed only)
    "gen_ai.tool.call.outcome",
    "gen_ai.tool.error.type",
    "gen_ai.task.status",
    "error.type",
    "haystack.tool.error",
    "error",
    "tool.id",
    "gen_ai.tool.call.id",
];

/// The markers that are only renamed (see the module's documentation).
fn marker(key: &str) -> bool {
    matches!(
        key,
        "gen_ai.tool.call.outcome"
            | "gen_ai.tool.error.type"
            | "gen_ai.task.status"
            | "error.type"
            | "haystack.tool.error"
            | "error"
    )
}

/// One change to one span.
#[derive(Clone, Debug)]
enum Mutation {
    Remove(String),
    Rename(String),
    /// The ERROR status under a code no reader knows.
    UnknownStatus,
    /// The `exception` event under a name no reader knows.
    RenameException,
}

/// Every span of an export, mutable, in document order.
fn spans_mut(doc: &mut Value) -> Vec<&mut Value> {
    let mut out = Vec::new();
    let requests: Vec<&mut Value> = match doc {
        Value::Array(items) => items.iter_mut().collect(),
        other => vec![other],
    };
    for req in requests {
        for rs in req["resourceSpans"].as_array_mut().into_iter().flatten() {
            for ss in rs["scopeSpans"].as_array_mut().into_iter().flatten() {
                out.extend(ss["spans"].as_array_mut().into_iter().flatten());
            }
        }
    }
    out
}

/// The attribute `key` of a raw span, as text.
fn attribute<'a>(span: &'a Value, key: &str) -> Option<&'a str> {
    span["attributes"]
        .as_array()?
        .iter()
        .find(|a| a["key"] == key)?["value"]["stringValue"]
        .as_str()
}

/// Whether a span is a tool call, an agent or a model step by the conventions the corpus
/// uses — the spans whose reading decides what was called, by whom, and at what cost.
fn matters(span: &Value) -> bool {
    let has = |k: &str| attribute(span, k).is_some();
    let kind = |k: &str, values: &[&str]| attribute(span, k).is_some_and(|v| values.contains(&v));
    let name = span["name"].as_str().unwrap_or_default();
    has("gen_ai.tool.name")
        || has("tool.name")
        || has("haystack.tool.name")
        || has("ai.toolCall.name")
        || kind("openinference.span.kind", &["TOOL", "AGENT", "LLM"])
        || kind("traceloop.span.kind", &["tool", "agent", "workflow"])
        || kind(
            "gen_ai.operation.name",
            &[
                "execute_tool",
                "invoke_agent",
                "invoke_workflow",
                "chat",
                "text_completion",
                "generate_content",
            ],
        )
        || attribute(span, "logfire.msg_template").is_some_and(|t| {
            ["Function", "Agent run", "Responses API", "Chat completion"]
                .iter()
                .any(|p| t.starts_with(p))
        })
        || attribute(span, "ai.operationId").is_some_and(|o| {
            o == "ai.toolCall"
                || o.ends_with(".doGenerate")
                || o.ends_with(".doStream")
                || o.starts_with("ai.generate")
                || o.starts_with("ai.stream")
        })
        || name.starts_with("haystack.agent.step.")
}

/// The mutations that apply to a span.
fn mutations(span: &Value) -> Vec<Mutation> {
    let mut out = Vec::new();
    if !matters(span) {
        return out;
    }
    for a in span["attributes"].as_array().into_iter().flatten() {
        let Some(key) = a["key"].as_str() else {
            continue;
        };
        if RECOGNISED.contains(&key) {
            if !marker(key) {
                out.push(Mutation::Remove(key.to_owned()));
            }
            out.push(Mutation::Rename(key.to_owned()));
        }
    }
    if span["status"]["code"].as_u64() == Some(2) {
        out.push(Mutation::UnknownStatus);
    }
    let events = span["events"].as_array().into_iter().flatten();
    if events.clone().any(|e| e["name"] == "exception") {
        out.push(Mutation::RenameException);
    }
    out
}

fn apply(span: &mut Value, m: &Mutation) {
    match m {
        Mutation::Remove(key) => {
            if let Some(list) = span["attributes"].as_array_mut() {
                list.retain(|a| a["key"] != key.as_str());
            }
        }
        Mutation::Rename(key) => {
            for a in span["attributes"].as_array_mut().into_iter().flatten() {
                if a["key"] == key.as_str() {
                    a["key"] = json!(format!("mutated.{key}"));
                }
            }
        }
        Mutation::UnknownStatus => span["status"]["code"] = json!(7),
        Mutation::RenameException => {
            for e in span["events"].as_array_mut().into_iter().flatten() {
                if e["name"] == "exception" {
                    e["name"] = json!("mutated.exception");
                }
            }
        }
    }
}

/// Claims that are false of what ran in `e`'s story: each fails on the trace as exported.
fn false_claims(e: &Entry) -> Vec<Expectation> {
    let t = |n: &str| e.tool(n);
    let mut claims = vec![
        no_tool(t("search_hotels")).into_expectation(),
        no_tool(t("book_hotel")).into_expectation(),
        tool(t("book_hotel")).at_most(1).into_expectation(),
        tool(t("book_hotel")).times(1).into_expectation(),
        no_tool(t("find_restaurants")).into_expectation(),
        tool(t("search_hotels")).times(2).into_expectation(),
    ];
    if !e.lacks("outcomes") {
        claims.push(no_tool_errors().into_expectation());
        claims.push(tool(t("book_hotel")).failed().never().into_expectation());
    }
    if !e.lacks("outcomes") && !e.lacks("arguments") {
        claims.push(
            tool(t("book_hotel"))
                .arg("hotel_id", "HTL-205")
                .succeeded()
                .into_expectation(),
        );
    }
    if !e.lacks("sub_agents") {
        claims.push(agent_not_invoked(["concierge"]).into_expectation());
    }
    if e.turns() > 1 {
        claims.push(no_tool(t("list_bookings")).into_expectation());
    }
    if !e.lacks("usage") {
        claims.push(
            tokens()
                .total_at_most(e.total_tokens() - 1)
                .into_expectation(),
        );
    }
    claims
}

fn verdicts(trace: &Value, claims: &[Expectation]) -> Option<Vec<Status>> {
    let t = parse(trace, None).ok()?;
    Some(evaluate(&t, claims).into_iter().map(|v| v.status).collect())
}

#[test]
fn no_mutant_of_a_corpus_trace_turns_a_failing_claim_into_a_pass() {
    let entries = entries();
    // The entries share out among the cores; each mutant is read and evaluated alone.
    let results: Vec<(usize, Vec<String>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = entries
            .iter()
            .map(|e| scope.spawn(move || mutants_of(e)))
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a worker"))
            .collect()
    });
    let tried: usize = results.iter().map(|(n, _)| n).sum();
    let passes: Vec<String> = results.into_iter().flat_map(|(_, p)| p).collect();
    assert!(tried > 1000, "{tried} mutants");
    assert!(
        passes.is_empty(),
        "{} of {tried} mutants made a false claim pass:\n{}",
        passes.len(),
        passes.join("\n")
    );
}

/// Every mutant of `e`'s trace: how many, and the false claims each made pass.
fn mutants_of(e: &Entry) -> (usize, Vec<String>) {
    let mut tried = 0;
    let mut passes = Vec::new();
    let claims = false_claims(e);
    let before = verdicts(&e.trace, &claims).expect("the trace reads");
    for (claim, status) in claims.iter().zip(&before) {
        assert_eq!(
            *status,
            Status::Fail,
            "{}: `{}` must fail on the trace as exported",
            e.name,
            claim.display_label()
        );
    }
    // Each mutant is the trace with one span changed, then restored.
    let mut mutant = e.trace.clone();
    let originals: Vec<Value> = spans_mut(&mut mutant)
        .into_iter()
        .map(|s| s.clone())
        .collect();
    for (i, span) in originals.iter().enumerate() {
        for m in mutations(span) {
            if let Some(s) = spans_mut(&mut mutant).into_iter().nth(i) {
                apply(s, &m);
            }
            tried += 1;
            let after = verdicts(&mutant, &claims);
            if let Some(s) = spans_mut(&mut mutant).into_iter().nth(i) {
                *s = span.clone();
            }
            // A mutant the reader refuses whole cannot pass anything.
            let Some(after) = after else {
                continue;
            };
            for (claim, status) in claims.iter().zip(after) {
                if status == Status::Pass {
                    passes.push(format!(
                        "{}: span `{}` {m:?}: `{}` passed",
                        e.name,
                        span["name"].as_str().unwrap_or_default(),
                        claim.display_label()
                    ));
                }
            }
        }
    }
    (tried, passes)
}
