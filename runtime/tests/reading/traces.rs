//! Trace normalisation on realistic samples of each format, and malformed ones.

use agent_test_runtime::check::Status;
use agent_test_runtime::evaluate;
use agent_test_runtime::model::{CallKind, Transcript};
use agent_test_runtime::prelude::*;
use agent_test_runtime::trace::{TraceFormat, detect, parse};
use serde_json::Value;
use std::time::Duration;

fn fixture(name: &str) -> Value {
    let path = format!(
        "{}/tests/fixtures/traces/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(&path).expect("fixture exists"))
        .expect("fixture is JSON")
}

fn read(name: &str, format: TraceFormat) -> Transcript {
    let v = fixture(name);
    assert_eq!(detect(&v), Some(format), "{name} is detected as {format}");
    parse(&v, None).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn names(t: &Transcript, turn: usize) -> Vec<String> {
    t.turns[turn].tool_calls().map(|c| c.name.clone()).collect()
}

#[test]
fn openai_chat_response_with_string_arguments() {
    let t = read("openai_chat_response.json", TraceFormat::OpenAiChat);
    let calls = &t.turns[0].reply.calls;
    assert_eq!(calls[0].name, "lookup_order");
    assert_eq!(calls[0].id.as_deref(), Some("call_abc"));
    assert_eq!(calls[0].arguments, json!({"order_id": "ORD-9921"}));
    // Truncated JSON arguments are kept as the raw string: checks on them fail clearly.
    assert_eq!(
        calls[1].arguments,
        json!("{\"city\": \"Lisbon\", \"units\"")
    );
    assert_eq!(t.turns[0].reply.usage.unwrap().total(), Some(353));
    // Nothing timed the traced turn: a latency budget on it is not measured, never 0 ms.
    assert_eq!(t.turns[0].latency_ms, None);
    let v = evaluate(
        &t,
        &[latency().at_most(Duration::from_secs(1)).into_expectation()],
    );
    assert_eq!(
        (v[0].status, v[0].reason.as_str()),
        (
            Status::Error,
            "not measured: turn 1 has no latency (a recording or trace without a duration)"
        )
    );
    let v = evaluate(
        &t,
        &[tool("get_weather").arg("city", "Lisbon").into_expectation()],
    );
    assert_eq!(
        v[0].details.violations[0].message,
        r#"call at conversation position 1: city: missing (expected "Lisbon")"#
    );
}

#[test]
fn openai_chat_messages_become_turns_with_results() {
    let t = read("openai_chat_messages.json", TraceFormat::OpenAiChat);
    assert_eq!(t.history.len(), 1);
    assert_eq!(t.turns.len(), 2);
    assert_eq!(t.turns[0].input, "I was charged twice for ORD-9921");
    assert_eq!(
        t.turns[0].reply.text,
        "I see a double charge. Shall I refund it?"
    );
    assert_eq!(
        t.turns[0].reply.calls[0].result,
        Some(json!({"status": "delivered", "charges": 2}))
    );
    assert_eq!(t.turns[1].input, "Yes please");
    assert_eq!(
        t.turns[1].reply.calls[0].result,
        Some(json!("Error: refund service unavailable"))
    );
    let v = evaluate(
        &t,
        &[tool_sequence(["lookup_order", "process_refund"]).into_expectation()],
    );
    assert_eq!(v[0].status, Status::Pass);
}

#[test]
fn openai_responses_items() {
    let t = read("openai_responses.json", TraceFormat::OpenAiResponses);
    let turn = &t.turns[0];
    assert_eq!(turn.reply.text, "It is 14°C in Paris.");
    assert_eq!(
        turn.reply.calls[0].arguments,
        json!({"location": "Paris, France"})
    );
    assert_eq!(
        turn.reply.calls[0].result,
        Some(json!({"temperature": 14, "unit": "C"}))
    );
    assert_eq!(turn.reply.usage.unwrap().total(), Some(125));
}

#[test]
fn anthropic_messages_with_tool_results_and_errors() {
    let t = read("anthropic_messages.json", TraceFormat::Anthropic);
    assert_eq!(t.turns.len(), 1, "tool_result messages continue the turn");
    assert_eq!(t.history[0].content, "You are a travel assistant.");
    let turn = &t.turns[0];
    assert_eq!(turn.input, "Find hotels in Lisbon under €100");
    assert_eq!(
        turn.reply.text,
        "Let me search.\nCasa Azul is sold out, sorry."
    );
    assert_eq!(names(&t, 0), ["search_hotels", "create_booking"]);
    assert_eq!(
        turn.reply.calls[0].result,
        Some(json!("[{\"id\": \"H-101\"}]"))
    );
    assert!(turn.reply.calls[1].error);
    let v = evaluate(
        &t,
        &[tool("create_booking")
            .succeeded()
            .never()
            .into_expectation()],
    );
    assert_eq!(v[0].status, Status::Pass);
    let t = read("anthropic_response.json", TraceFormat::Anthropic);
    assert_eq!(
        t.turns[0].reply.calls[0].arguments,
        json!({"order_id": "ORD-1001"})
    );
    assert_eq!(t.turns[0].reply.usage.unwrap().total(), Some(462));
}

#[test]
fn gemini_response_and_contents() {
    let t = read("gemini_response.json", TraceFormat::Gemini);
    assert_eq!(
        t.turns[0].reply.calls[0].arguments["attendees"],
        json!(["Bob", "Alice"])
    );
    assert_eq!(t.turns[0].reply.usage.unwrap().total(), Some(153));
    let t = read("gemini_contents.json", TraceFormat::Gemini);
    assert_eq!(t.turns.len(), 1);
    assert_eq!(t.turns[0].input, "What's the weather in Boston?");
    assert_eq!(
        t.turns[0].reply.calls[0].result,
        Some(json!({"temperature": 38, "unit": "F"}))
    );
    assert_eq!(t.turns[0].reply.text, "It's 38°F in Boston.");
}

#[test]
fn langchain_message_dicts() {
    let t = read("langchain_messages.json", TraceFormat::LangChain);
    let turn = &t.turns[0];
    assert_eq!(
        turn.reply.calls[0].name,
        "a2a__research_agent__search_papers"
    );
    assert_eq!(
        turn.reply.calls[0].result,
        Some(json!("Quantum Computing Fundamentals (2021)"))
    );
    assert_eq!(
        turn.reply.usage.unwrap().total(),
        Some(510),
        "usage summed over the AI messages"
    );
    let v = evaluate(
        &t,
        &[agent_response("a2a__research_agent__search_papers")
            .contains("Quantum Computing")
            .into_expectation()],
    );
    assert_eq!(v[0].status, Status::Pass);
}

#[test]
fn mibo_pushed_trace_with_metadata() {
    let t = read("mibo_trace.json", TraceFormat::Mibo);
    let turn = &t.turns[0];
    assert_eq!(turn.reply.http_status, Some(200));
    assert_eq!(turn.latency_ms, Some(1500));
    assert_eq!(
        turn.reply.text,
        "Your meeting 'Client Lunch' is booked for 2026-11-25 at 12:00."
    );
    assert_eq!(turn.reply.calls[1].kind, CallKind::Node);
    assert_eq!(names(&t, 0), ["create_calendar", "notify"]);
    let notify = &turn.reply.calls[1].children[1];
    assert!(notify.error);
    assert_eq!(notify.arguments, json!({"channel": "email"}));
    let v = evaluate(
        &t,
        &[
            node("AI Agent")
                .tool(
                    tool("create_calendar")
                        .arg("summary", "Client Lunch")
                        .at_position(0),
                )
                .into_expectation(),
            http_status(200).into_expectation(),
            latency().at_most(Duration::from_secs(2)).into_expectation(),
            tokens().total_at_most(1000).into_expectation(),
        ],
    );
    assert!(v.iter().all(|x| x.status == Status::Pass), "{v:#?}");
}

#[test]
fn morganabench_example_with_user_time_and_history() {
    let t = read("morgana_example.json", TraceFormat::MorganaBench);
    assert_eq!(t.history.len(), 2);
    assert_eq!(
        t.turns[0].input,
        "Schedule a call with his office tomorrow at 3pm"
    );
    assert_eq!(
        t.turns[0].reply.text,
        "I've scheduled the call for tomorrow at 3 PM."
    );
    assert_eq!(names(&t, 0), ["search_contacts", "create_event"]);
    assert_eq!(
        t.turns[0].reply.calls[0].result,
        Some(json!([{"email": "office@royal.uk"}]))
    );
    assert_eq!(
        t.user_time
            .as_ref()
            .map(|z| z.timestamp().to_string())
            .as_deref(),
        Some("2026-11-23T09:30:00Z")
    );
    // Dates are evaluated against the recorded user time, not the wall clock.
    let v = evaluate(
        &t,
        &[tool("create_event")
            .arg(
                "when",
                date("AT_TIME(DATE_ADD(TODAY(), 1, 'day'), '3:00 PM')"),
            )
            .into_expectation()],
    );
    assert_eq!(v[0].status, Status::Pass, "{}", v[0].reason);
}

#[test]
fn n8n_execution_nests_sub_nodes_under_the_agent() {
    let t = read("n8n_execution.json", TraceFormat::N8n);
    let turn = &t.turns[0];
    let top: Vec<&str> = turn.reply.calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(top, ["Webhook", "Scrape Website", "AI Agent"]);
    let agent = &turn.reply.calls[2];
    let inner: Vec<(&str, CallKind)> = agent
        .children
        .iter()
        .map(|c| (c.name.as_str(), c.kind))
        .collect();
    assert_eq!(
        inner,
        [
            ("OpenAI Chat Model", CallKind::Node),
            ("Search Docs", CallKind::Tool),
            ("OpenAI Chat Model", CallKind::Node)
        ]
    );
    assert_eq!(
        agent.children[1].arguments,
        json!({"query": "mibo pricing"})
    );
    assert_eq!(
        turn.reply.text,
        "The homepage presents Mibo's testing platform."
    );
    assert_eq!(turn.reply.latency_ms, Some(3250));
    let v = evaluate(
        &t,
        &[
            node("Scrape Website")
                .arg("url", contains("mibo-ai.com"))
                .arg("method", "GET")
                .into_expectation(),
            node("AI Agent")
                .tool(tool("Search Docs").arg("query", contains("pricing")))
                .into_expectation(),
            tokens().total_at_most(1850).into_expectation(),
            tokens().total_at_most(1849).into_expectation(),
        ],
    );
    assert_eq!(v[0].status, Status::Pass, "{}", v[0].reason);
    assert_eq!(v[1].status, Status::Pass, "{}", v[1].reason);
    assert_eq!(
        v[2].status,
        Status::Pass,
        "tokens summed across the AI nodes: {}",
        v[2].reason
    );
    assert_eq!(v[3].reason, "token budget exceeded: total 1850 > 1849");
}

#[test]
fn malformed_traces_name_the_place() {
    let cases = [
        (
            json!({"choices": "x"}),
            TraceFormat::OpenAiChat,
            "openai-chat trace: at $.choices: expected an array of choices",
        ),
        (
            json!({"choices": [{"message": {"tool_calls": [{"id": "1"}]}}]}),
            TraceFormat::OpenAiChat,
            "openai-chat trace: at $.choices[0].message.tool_calls[0]: expected a `function` with a name and arguments",
        ),
        (
            json!([{"role": "wizard", "content": "x"}]),
            TraceFormat::OpenAiChat,
            "openai-chat trace: at $[0].role: unknown role `wizard`",
        ),
        (
            json!({"object": "response", "output": [{"type": "function_call", "arguments": "{}"}]}),
            TraceFormat::OpenAiResponses,
            "openai-responses trace: at $.output[0].name: expected the function's name",
        ),
        (
            json!({"type": "message", "content": [{"type": "tool_use", "id": "t"}]}),
            TraceFormat::Anthropic,
            "anthropic trace: at $.content[0].name: expected the tool's name",
        ),
        (
            json!({"candidates": []}),
            TraceFormat::Gemini,
            "gemini trace: at $.candidates: expected at least one candidate",
        ),
        (
            json!([{"type": "ai", "tool_calls": [{"args": {}}]}]),
            TraceFormat::LangChain,
            "langchain trace: at $[0].tool_calls[0].name: expected the tool's name",
        ),
        (
            json!({"data": {"nodes": [{"output": 1}]}, "metadata": {}}),
            TraceFormat::Mibo,
            "mibo trace: at $.data.nodes[0].name: expected the node's name",
        ),
        (
            json!({"data": {}, "metadata": {"http_status": "ok"}}),
            TraceFormat::Mibo,
            "mibo trace: at $.metadata.http_status: expected an HTTP status code",
        ),
        (
            json!({"response": "x", "trace": [{"event": "tool_call", "tool": "t", "params": [1]}]}),
            TraceFormat::MorganaBench,
            "morganabench trace: at $.trace[0].params: expected an object of parameters",
        ),
        (
            json!({"response": "x", "environment": {"user_time": "yesterday"}}),
            TraceFormat::MorganaBench,
            "morganabench trace: at $.environment.user_time: 'yesterday' is not a date-time",
        ),
        (
            json!({"data": {"resultData": {"runData": {"A": {"not": "runs"}}}}}),
            TraceFormat::N8n,
            "n8n trace: at $.data.resultData.runData.A: expected an array of runs",
        ),
    ];
    for (doc, format, message) in cases {
        assert_eq!(
            parse(&doc, Some(format)).unwrap_err().to_string(),
            message,
            "{doc}"
        );
    }
    let err = parse(&json!({"hello": "world"}), None).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("at $: not a trace agent-test knows"),
        "{err}"
    );
    for garbage in [json!(null), json!(42), json!("text"), json!([]), json!({})] {
        for f in TraceFormat::ALL {
            let _ = parse(&garbage, Some(f)); // never panics
        }
    }
}

/// Arguments given as a JSON string that names a key twice are kept as the string: which value
/// the tool received is unknown, so no argument check may pass on them.
#[test]
fn string_arguments_with_a_repeated_key_are_kept_as_text() {
    let raw = r#"{"amount": 10, "amount": 1000}"#;
    let trace = json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "refund", "arguments": raw}}]}}]});
    let t = parse(&trace, Some(TraceFormat::OpenAiChat)).expect("parses");
    assert_eq!(t.turns[0].reply.calls[0].arguments, json!(raw));
    let v = evaluate(&t, &[tool("refund").arg("amount", 1000).into_expectation()]);
    assert_eq!(v[0].status, Status::Fail, "{}", v[0].reason);
}

// ---------------------------------------------------------------------------------------------
// Model steps: every format that says which calls came from one model response keeps it, so a
// strict trajectory can compare steps (parallel calls match in any order within theirs).

fn steps(t: &Transcript) -> Vec<(String, Option<usize>)> {
    t.turns
        .iter()
        .flat_map(|turn| turn.tool_calls().map(|c| (c.name.clone(), c.step)))
        .collect()
}

fn step_list(items: &[(&str, Option<usize>)]) -> Vec<(String, Option<usize>)> {
    items.iter().map(|(n, s)| ((*n).to_owned(), *s)).collect()
}

#[test]
fn every_format_that_knows_them_keeps_model_steps() {
    let openai = json!({"messages": [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "1", "type": "function", "function": {"name": "a", "arguments": "{}"}},
            {"id": "2", "type": "function", "function": {"name": "b", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "1", "content": "x"},
        {"role": "tool", "tool_call_id": "2", "content": "y"},
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "3", "type": "function", "function": {"name": "c", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "3", "content": "z"},
        {"role": "assistant", "content": "done"}
    ]});
    let anthropic = json!({"messages": [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "1", "name": "a", "input": {}},
            {"type": "tool_use", "id": "2", "name": "b", "input": {}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "1", "content": "x"},
            {"type": "tool_result", "tool_use_id": "2", "content": "y"}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "3", "name": "c", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "3", "content": "z"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "done"}]}
    ]});
    let gemini = json!({"contents": [
        {"role": "user", "parts": [{"text": "go"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "a", "args": {}}}, {"functionCall": {"name": "b", "args": {}}}]},
        {"role": "function", "parts": [{"functionResponse": {"name": "a", "response": {}}}, {"functionResponse": {"name": "b", "response": {}}}]},
        {"role": "model", "parts": [{"functionCall": {"name": "c", "args": {}}}]},
        {"role": "function", "parts": [{"functionResponse": {"name": "c", "response": {}}}]},
        {"role": "model", "parts": [{"text": "done"}]}
    ]});
    let langchain = json!([
        {"type": "human", "content": "go"},
        {"type": "ai", "content": "", "tool_calls": [{"name": "a", "args": {}, "id": "1"}, {"name": "b", "args": {}, "id": "2"}]},
        {"type": "tool", "content": "x", "tool_call_id": "1"},
        {"type": "tool", "content": "y", "tool_call_id": "2"},
        {"type": "ai", "content": "", "tool_calls": [{"name": "c", "args": {}, "id": "3"}]},
        {"type": "tool", "content": "z", "tool_call_id": "3"},
        {"type": "ai", "content": "done"}
    ]);
    let responses = json!([
        {"role": "user", "content": "go"},
        {"type": "reasoning", "summary": []},
        {"type": "function_call", "call_id": "1", "name": "a", "arguments": "{}"},
        {"type": "function_call", "call_id": "2", "name": "b", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "1", "output": "x"},
        {"type": "function_call_output", "call_id": "2", "output": "y"},
        {"type": "function_call", "call_id": "3", "name": "c", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "3", "output": "z"},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "done"}]}
    ]);
    for (doc, format) in [
        (openai, TraceFormat::OpenAiChat),
        (anthropic, TraceFormat::Anthropic),
        (gemini, TraceFormat::Gemini),
        (langchain, TraceFormat::LangChain),
        (responses, TraceFormat::OpenAiResponses),
    ] {
        let t = parse(&doc, Some(format)).unwrap_or_else(|e| panic!("{format}: {e}"));
        let got = steps(&t);
        // Steps are numbered per turn in response order; what matters is which calls share one.
        assert_eq!(got.len(), 3, "{format}: {got:?}");
        assert_eq!(
            got[0].1, got[1].1,
            "{format}: a and b in one response: {got:?}"
        );
        assert_ne!(got[1].1, got[2].1, "{format}: c in another: {got:?}");
        assert!(got.iter().all(|(_, s)| s.is_some()), "{format}: {got:?}");
        // And a strict trajectory with the two in one step passes on it, in either order.
        let reference =
            trajectory([tool_call("b"), tool_call("a").parallel(), tool_call("c")]).strict();
        let v = agent_test_runtime::evaluate(&t, &[reference.into_expectation()]);
        assert_eq!(v[0].status, Status::Pass, "{format}: {}", v[0].reason);
    }
    // A trace that does not say (MorganaBench's events) leaves the step unknown.
    let mb = json!({"response": "done", "trace": [
        {"event": "tool_call", "id": "1", "tool": "a", "params": {}},
        {"event": "tool_call", "id": "2", "tool": "b", "params": {}}
    ]});
    let t = parse(&mb, Some(TraceFormat::MorganaBench)).unwrap();
    assert_eq!(steps(&t), step_list(&[("a", None), ("b", None)]));
}

/// Recordings keep the step and the error kind of every call.
#[test]
fn recordings_keep_steps_and_error_kinds() {
    let text = r#"{"scenario": {"name": "s"}, "transcript": {"turns": [{"index": 0, "input": "go", "reply": {"calls": [
        {"name": "a", "arguments": {}, "step": 0},
        {"name": "b", "arguments": {}, "step": 0, "error": true, "error_kind": "validation", "result": "bad date"}
    ]}}]}}"#;
    let run = agent_test_runtime::load::run_from_text(text, "r.json", None).unwrap();
    let calls = &run.transcript.turns[0].reply.calls;
    assert_eq!(calls[1].step, Some(0));
    assert_eq!(
        calls[1].error_kind,
        Some(agent_test_runtime::model::ToolErrorKind::Validation)
    );
    let err = agent_test_runtime::load::run_from_text(
        &text.replace("\"validation\"", "\"timeout\""),
        "r.json",
        None,
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("unknown variant `timeout`"),
        "{err}"
    );
}
