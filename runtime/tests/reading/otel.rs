//! OpenTelemetry traces read as transcripts: golden files produced by real instrumentations
//! and the real OTLP exporter (`tests/fixtures/otel/make_fixtures.py` says how), checked with
//! the checks users write; then the conventions' edge rules and malformed input.

use agent_test_runtime::agent::agent_fn;
use agent_test_runtime::check::Status;
use agent_test_runtime::model::Message;
use agent_test_runtime::model::{Call, CallKind, Transcript};
use agent_test_runtime::prelude::*;
use agent_test_runtime::trace::{TraceFormat, detect, parse};
use agent_test_runtime::{ScenarioRun, Suite, evaluate};
use serde_json::{Value, json};

fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/otel/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).expect("fixture")).expect("json")
}

/// Every call of a turn, depth first.
fn flat(calls: &[Call]) -> Vec<&Call> {
    let mut out = Vec::new();
    for c in calls {
        c.walk(&mut |c| out.push(c));
    }
    out
}

/// The turns every fixture shows: an order lookup, then a cancellation whose tool failed, by
/// one agent `support_agent` over two model calls per turn.
fn assert_the_agent_s_two_turns(t: &Transcript) {
    assert_eq!(t.turns.len(), 2, "{t:#?}");
    let first = &t.turns[0].reply;
    let [agent] = first.calls.as_slice() else {
        panic!("one agent node: {:#?}", first.calls)
    };
    assert_eq!(
        (agent.kind, agent.name.as_str()),
        (CallKind::Node, "support_agent")
    );
    let tools: Vec<&Call> = flat(&first.calls)
        .into_iter()
        .filter(|c| c.kind == CallKind::Tool)
        .collect();
    assert_eq!(tools.len(), 1, "{tools:#?}");
    assert_eq!(tools[0].name, "lookup_order");
    assert_eq!(tools[0].arguments, json!({"order_id": "ORD-9921"}));
    assert_eq!(tools[0].result.as_ref().unwrap()["status"], "delivered");
    assert_eq!(tools[0].id.as_deref(), Some("call_lookup_order"));
    assert_eq!(tools[0].step, Some(0), "asked for by the first model call");
    assert!(!tools[0].error);
    let usage = first.usage.expect("usage from the model spans");
    assert_eq!(
        (usage.input_tokens, usage.output_tokens),
        (Some(180), Some(24))
    );
    assert!(t.turns[0].latency_ms.is_some());
    let second = flat(&t.turns[1].reply.calls);
    let cancel = second
        .iter()
        .find(|c| c.name == "cancel_order")
        .expect("the cancellation");
    assert!(cancel.error, "the tool span's ERROR status");
}

#[test]
fn the_genai_conventions_of_a_real_instrumentation() {
    // opentelemetry-instrumentation-openai-v2: model spans without message content (it sends
    // content as log records), the agent's own agent and tool spans.
    let doc = fixture("genai.json");
    assert_eq!(detect(&doc), Some(TraceFormat::Otel));
    let t = parse(&doc, None).unwrap();
    assert_the_agent_s_two_turns(&t);
    // No message content on the spans: no input or reply text is invented.
    assert_eq!(t.turns[0].input, "");
    assert_eq!(t.turns[0].reply.text, "");
    let cancel = flat(&t.turns[1].reply.calls)
        .into_iter()
        .find(|c| c.name == "cancel_order")
        .cloned()
        .unwrap();
    assert_eq!(
        cancel.result,
        Some(json!("order ORD-9921 has already shipped"))
    );
}

#[test]
fn messages_on_spans_give_the_input_and_the_reply() {
    // OpenLLMetry: `gen_ai.input.messages` / `gen_ai.output.messages` on the model spans.
    let t = parse(&fixture("openllmetry.json"), None).unwrap();
    assert_the_agent_s_two_turns(&t);
    assert_eq!(t.turns[0].input, "Where is my order ORD-9921?");
    assert_eq!(
        t.turns[0].reply.text,
        "Order ORD-9921 was delivered yesterday."
    );
    assert_eq!(t.turns[1].input, "Please cancel it.");
    assert_eq!(
        t.turns[1].reply.text,
        "I could not cancel order ORD-9921: it has already shipped."
    );
}

#[test]
fn openinference_spans_of_a_real_instrumentation() {
    let doc = fixture("openinference.json");
    assert_eq!(detect(&doc), Some(TraceFormat::OpenInference));
    let t = parse(&doc, None).unwrap();
    assert_the_agent_s_two_turns(&t);
    assert_eq!(t.turns[0].input, "Where is my order ORD-9921?");
    assert_eq!(
        t.turns[0].reply.text,
        "Order ORD-9921 was delivered yesterday."
    );
}

#[test]
fn checks_on_an_instrumented_agent_pass_and_fail_with_their_reasons() {
    let t = parse(&fixture("openllmetry.json"), Some(TraceFormat::Otel)).unwrap();
    let v = evaluate(
        &t,
        &[
            tool("lookup_order")
                .arg("order_id", "ORD-9921")
                .into_expectation(),
            agent_invoked(["support_agent"]).into_expectation(),
            replies().contains("delivered").into_expectation(),
            tokens().total_at_most(1_000).into_expectation(),
            no_tool_errors().into_expectation(),
            tool("refund_order").into_expectation(),
        ],
    );
    let statuses: Vec<Status> = v.iter().map(|v| v.status).collect();
    assert_eq!(
        statuses,
        [
            Status::Pass,
            Status::Pass,
            Status::Pass,
            Status::Pass,
            Status::Fail,
            Status::Fail
        ],
        "{v:#?}"
    );
    assert!(v[4].reason.contains("cancel_order"), "{}", v[4].reason);
}

/// A span of the GenAI conventions, as OTLP/JSON.
fn span(
    trace: &str,
    id: &str,
    parent: &str,
    name: &str,
    start: u64,
    end: u64,
    attrs: Value,
) -> Value {
    let attributes: Vec<Value> = attrs
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            let value = match v {
                Value::String(s) => json!({"stringValue": s}),
                Value::Number(n) => json!({"intValue": n.to_string()}),
                Value::Bool(b) => json!({"boolValue": b}),
                other => json!({"stringValue": other.to_string()}),
            };
            json!({"key": k, "value": value})
        })
        .collect();
    json!({"traceId": trace, "spanId": id, "parentSpanId": parent, "name": name,
           "startTimeUnixNano": start.to_string(), "endTimeUnixNano": end.to_string(),
           "attributes": attributes})
}

fn export(spans: Vec<Value>) -> Value {
    json!({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]})
}

#[test]
fn sub_agents_nest_and_calls_keep_their_order_and_model_steps() {
    let ms = 1_000_000;
    let t = parse(
        &export(vec![
            span("aa", "01", "", "invoke_agent triage", 0, 100 * ms,
                 json!({"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "triage"})),
            span("aa", "02", "01", "chat", ms, 10 * ms, json!({"gen_ai.operation.name": "chat",
                 "gen_ai.usage.input_tokens": 10, "gen_ai.usage.output_tokens": 2,
                 "gen_ai.output.messages": json!([{"role": "assistant", "parts": [
                     {"type": "tool_call", "id": "c1", "name": "search", "arguments": "{\"q\":\"a\"}"},
                     {"type": "tool_call", "id": "c2", "name": "search", "arguments": {"q": "b"}}]}]).to_string()})),
            // Parallel calls of one model answer, ending in the reverse order.
            span("aa", "04", "01", "execute_tool search", 12 * ms, 30 * ms, json!({
                 "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search", "gen_ai.tool.call.id": "c2",
                 "gen_ai.tool.call.arguments": "{\"q\":\"b\"}"})),
            span("aa", "03", "01", "execute_tool search", 11 * ms, 40 * ms, json!({
                 "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search", "gen_ai.tool.call.id": "c1",
                 "gen_ai.tool.call.arguments": "{\"q\":\"a\"}"})),
            span("aa", "05", "01", "invoke_agent visa", 41 * ms, 80 * ms,
                 json!({"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "visa"})),
            span("aa", "06", "05", "execute_tool book", 50 * ms, 60 * ms, json!({
                 "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "book"})),
            // A model answer naming a call that no tool span ran, in a trace whose tools have
            // spans: whether it ran is unknown, a gap of the turn's calls (not a call).
            span("aa", "07", "01", "chat", 81 * ms, 90 * ms, json!({"gen_ai.operation.name": "chat",
                 "gen_ai.output.messages": json!([{"role": "assistant", "parts": [
                     {"type": "tool_call", "id": "c9", "name": "notify", "arguments": {"to": "ana"}}]}]).to_string()})),
            span("aa", "08", "01", "chat", 91 * ms, 99 * ms, json!({"gen_ai.operation.name": "chat",
                 "gen_ai.input.messages": json!([{"role": "user", "parts": [{"type": "text", "content": "Book it"}]},
                     {"role": "tool", "parts": [{"type": "tool_call_response", "id": "c9", "result": {"sent": true}}]}]).to_string(),
                 "gen_ai.output.messages": json!([{"role": "assistant", "parts": [{"type": "text", "content": "Booked."}]}]).to_string()})),
        ]),
        None,
    )
    .unwrap();
    let turn = &t.turns[0];
    assert_eq!(turn.input, "Book it");
    assert_eq!(turn.reply.text, "Booked.");
    assert_eq!(turn.latency_ms, Some(100));
    let triage = &turn.reply.calls[0];
    let names: Vec<(&str, Option<usize>)> = triage
        .children
        .iter()
        .map(|c| (c.name.as_str(), c.step))
        .collect();
    assert_eq!(
        names,
        [("search", Some(0)), ("search", Some(0)), ("visa", None)],
        "in start order, with the step of the model answer that asked for each"
    );
    assert_eq!(triage.children[0].arguments, json!({"q": "a"}));
    assert_eq!(triage.children[2].children[0].name, "book");
    let gaps: Vec<String> = turn.reply.gaps.iter().map(ToString::to_string).collect();
    assert_eq!(
        gaps,
        [
            "the tool calls are incomplete: model step 2 asked for `notify` (call c9), and no \
             tool span of the trace can be joined with that request (the trace's other tools \
             have spans, so whether it ran is unknown)",
            "the tool calls' arguments are incomplete: the spans of `book` carry no arguments \
             (or only a display text) and no model request gives them",
            "the tool calls' results are incomplete: no span of the trace carries the result \
             of `search` and `book`"
        ]
    );
    // A sub-agent is found by name, and its member tools through it.
    let v = evaluate(
        &t,
        &[
            agent_invoked(["visa"]).into_expectation(),
            tool("book").into_expectation(),
        ],
    );
    // The gap in the calls makes every check of them an error, never a pass or a failure.
    assert!(v.iter().all(|v| v.status == Status::Error), "{v:#?}");
    assert!(
        v[1].reason.starts_with("not evaluated: on turn 1, the tool calls are incomplete: model step 2 asked for `notify`"),
        "{}",
        v[1].reason
    );
}

#[test]
fn older_attribute_names_are_read_too() {
    let t = parse(
        &export(vec![span(
            "bb",
            "01",
            "",
            "openai.chat",
            0,
            5_000_000,
            json!({
                "llm.request.type": "chat", "gen_ai.system": "openai",
                "gen_ai.usage.prompt_tokens": 30, "gen_ai.usage.completion_tokens": 4,
                "gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": "Weather in Lisbon?",
                "gen_ai.completion.0.role": "assistant",
                "gen_ai.completion.0.tool_calls.0.id": "t1",
                "gen_ai.completion.0.tool_calls.0.name": "get_weather",
                "gen_ai.completion.0.tool_calls.0.arguments": "{\"city\": \"Lisbon\"}"}),
        )]),
        Some(TraceFormat::Otel),
    )
    .unwrap();
    let turn = &t.turns[0];
    assert_eq!(turn.input, "Weather in Lisbon?");
    assert_eq!(turn.reply.calls[0].name, "get_weather");
    assert_eq!(turn.reply.calls[0].arguments, json!({"city": "Lisbon"}));
    assert_eq!(turn.reply.usage.unwrap().total(), Some(34));
}

#[test]
fn a_failed_root_span_is_the_turn_s_error_and_repeated_spans_count_once() {
    let mut root = span(
        "cc",
        "01",
        "",
        "invoke_agent a",
        0,
        1,
        json!({"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "a"}),
    );
    root["status"] = json!({"code": 2, "message": "model quota exceeded"});
    let tool_span = span(
        "cc",
        "02",
        "01",
        "execute_tool t",
        0,
        1,
        json!({"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "t"}),
    );
    let t = parse(&export(vec![root, tool_span.clone(), tool_span]), None).unwrap();
    assert_eq!(
        t.turns[0].error.as_deref(),
        Some("the agent's span `invoke_agent a` ended with an error: model quota exceeded")
    );
    assert_eq!(
        flat(&t.turns[0].reply.calls).len(),
        2,
        "the node and one tool call"
    );
}

#[test]
fn malformed_exports_are_errors_naming_the_place() {
    let err = |doc: Value, f: Option<TraceFormat>| parse(&doc, f).unwrap_err().to_string();
    assert_eq!(
        err(
            json!({"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "zz", "spanId": "01"}]}]}]}),
            None
        ),
        "otel trace: at $.resourceSpans[0].scopeSpans[0].spans[0].traceId: expected a hex id (OTLP/JSON writes ids as hex strings)"
    );
    assert_eq!(
        err(json!({"resourceSpans": []}), Some(TraceFormat::Otel)),
        "otel trace: at $: no spans: the export holds no span"
    );
    assert_eq!(
        err(json!({"hello": 1}), Some(TraceFormat::OpenInference)),
        "openinference trace: at $.resourceSpans: missing: expected an array"
    );
}

/// An in-process agent instrumented with `tracing`, the way Rust LLM crates write their spans
/// (`otel.name`, `otel.status_code`, the GenAI fields): a sub-agent, two model steps, a tool
/// that fails, recorded fields.
#[cfg(feature = "tracing")]
#[tokio::test]
async fn an_in_process_agent_s_tracing_spans_are_its_turn() {
    use agent_test_runtime::agent::{AgentRequest, traced};
    use agent_test_runtime::model::Reply;
    use tracing::field::Empty;

    let agent = traced(agent_fn(|req: AgentRequest| async move {
        let agent = tracing::info_span!(
            "invoke_agent",
            "otel.name" = "invoke_agent travel",
            "gen_ai.operation.name" = "invoke_agent",
            "gen_ai.agent.name" = "travel"
        );
        let _in_agent = agent.enter();
        let chat = tracing::info_span!(
            "chat",
            "otel.name" = "chat demo-model",
            "gen_ai.operation.name" = "chat",
            "gen_ai.usage.input_tokens" = Empty,
            "gen_ai.usage.output_tokens" = Empty
        );
        chat.record("gen_ai.usage.input_tokens", 100u64);
        chat.record("gen_ai.usage.output_tokens", 20u64);
        drop(chat);
        let search = tracing::info_span!(
            "execute_tool",
            "gen_ai.operation.name" = "execute_tool",
            "gen_ai.tool.name" = "search_hotels",
            "gen_ai.tool.call.id" = "t1",
            "gen_ai.tool.call.arguments" = r#"{"city": "Lisbon"}"#,
            "gen_ai.tool.call.result" = Empty
        );
        search.record("gen_ai.tool.call.result", r#"[{"id": "H-1"}]"#);
        drop(search);
        {
            let book = tracing::info_span!(
                "execute_tool",
                "gen_ai.operation.name" = "execute_tool",
                "gen_ai.tool.name" = "book",
                "gen_ai.tool.call.arguments" = r#"{"hotel": "H-1"}"#,
                "otel.status_code" = "ERROR",
                "otel.status_message" = "fully booked"
            );
            let _b = book.enter();
        }
        let chat = tracing::info_span!(
            "chat",
            "gen_ai.operation.name" = "chat",
            "gen_ai.usage.input_tokens" = 150u64,
            "gen_ai.usage.output_tokens" = 30u64
        );
        drop(chat);
        Reply::text(format!("Sorry, H-1 is fully booked ({}).", req.input))
    }));
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "tracing");
    run.user("Book a hotel in Lisbon").await;
    run.expect(
        tool("search_hotels")
            .arg("city", "Lisbon")
            .result(contains("H-1")),
    );
    run.expect(tool("book").failed());
    run.expect(agent_invoked(["travel"]));
    run.expect(tokens().total_at_most(300));
    run.expect(tokens().total_at_most(299));
    let report = run.report().await;
    let statuses: Vec<Status> = report.verdicts.iter().map(|v| v.status).collect();
    assert_eq!(
        statuses,
        [
            Status::Pass,
            Status::Pass,
            Status::Pass,
            Status::Pass,
            Status::Fail
        ],
        "{report}"
    );
    let turn = &report.transcript.turns[0];
    assert_eq!(turn.reply.calls[0].name, "travel");
    assert_eq!(
        turn.reply.calls[0].children[1].result,
        Some(json!("fully booked"))
    );
    let _ = Message::user("");
}

#[path = "../otel/corpus.rs"]
mod corpus;
#[path = "../otel/frameworks.rs"]
mod frameworks;
#[path = "../otel/mutants.rs"]
mod mutants;
