//! The OpenAI-compatible chat agent's tool loop, against a scripted local endpoint.

use agent_test_runtime::agent::ChatAgent;
use agent_test_runtime::check::Status;
use agent_test_runtime::prelude::*;
use agent_test_runtime::report::prices::Prices;
use agent_test_runtime::{ScenarioRun, Suite, evaluate};

use super::servers::{answer, chat_server, tool_calls};

fn agent(base: &str) -> ChatAgent {
    ChatAgent::new("test-model")
        .base_url(base)
        .api_key("sk-test-key")
        .system("You are Acme's support agent.")
        .tool(
            "lookup_order",
            "Look an order up",
            json!({"type": "object", "properties": {"order_id": {"type": "string"}}}),
        )
        .mock(
            "lookup_order",
            json!({"order_id": "ORD-9921", "total": 42.5, "charges": 2}),
        )
        .mock_fn("process_refund", |args| {
            if args["amount"].as_f64().unwrap_or(0.0) > 100.0 {
                Err("amount exceeds the order total".into())
            } else {
                Ok(json!({"refund_id": "RF-1"}))
            }
        })
}

#[tokio::test]
async fn the_tool_loop_runs_until_the_model_answers() {
    let (base, log) = chat_server(vec![
        Ok(tool_calls(&[(
            "c1",
            "lookup_order",
            json!({"order_id": "ORD-9921"}),
        )])),
        Ok(tool_calls(&[
            (
                "c2",
                "process_refund",
                json!({"order_id": "ORD-9921", "amount": 42.5}),
            ),
            ("c3", "process_refund", json!({"amount": 500})),
        ])),
        Ok(answer("Refunded €42.50 (RF-1).")),
    ])
    .await;
    let mut run = ScenarioRun::new(Suite::new().agent(agent(&base)), "refund");
    run.user("Refund my double charge on ORD-9921").await;
    run.expect(tool_sequence(["lookup_order", "process_refund"]));
    run.expect(
        tool("process_refund")
            .arg("amount", 42.5)
            .result_at("refund_id", "RF-1"),
    );
    run.expect(tool("process_refund").failed().times(1));
    run.expect(reply().contains("RF-1"));
    run.expect(tokens().total_at_most(390));
    let report = run.report().await;
    assert!(report.passed(), "{report}");

    let requests = log.lock().unwrap().clone();
    assert_eq!(requests.len(), 3, "one request per model step");
    let (headers, first) = &requests[0];
    assert!(
        headers
            .iter()
            .any(|h| h == "authorization: Bearer sk-test-key")
    );
    assert_eq!(first["model"], "test-model");
    assert_eq!(first["temperature"], 0.0);
    assert_eq!(
        first["messages"][0],
        json!({"role": "system", "content": "You are Acme's support agent."})
    );
    assert_eq!(
        first["messages"][1],
        json!({"role": "user", "content": "Refund my double charge on ORD-9921"})
    );
    let tools: Vec<&str> = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        tools,
        ["lookup_order", "process_refund"],
        "a mocked tool without a definition is offered too"
    );
    // The third request carries the tool results, the failing mock's error included.
    let third = &requests[2].1["messages"];
    let tool_messages: Vec<&serde_json::Value> = third
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .collect();
    assert_eq!(tool_messages.len(), 3);
    assert_eq!(tool_messages[0]["tool_call_id"], "c1");
    assert_eq!(
        tool_messages[2]["content"],
        r#"{"error":"amount exceeds the order total"}"#
    );
}

#[tokio::test]
async fn unmocked_tools_and_the_step_limit() {
    let (base, _) = chat_server(vec![Ok(tool_calls(&[(
        "c1",
        "delete_account",
        json!({"id": 1}),
    )]))])
    .await;
    let mut run = ScenarioRun::new(Suite::new().agent(agent(&base).max_steps(3)), "loop");
    run.user("Delete everything").await;
    run.expect(no_tool("delete_account"));
    let report = run.report().await;
    assert_eq!(
        report.verdicts[0].reason,
        "the agent failed: the model was still calling tools after 3 steps"
    );
    // The calls made before the limit are kept and checked.
    assert_eq!(report.verdicts[1].status, Status::Fail);
    assert_eq!(
        report.verdicts[1].reason,
        "tool `delete_account` was called 3 times (expected no call)"
    );
    let call = &report.transcript.turns[0].reply.calls[0];
    assert!(call.error);
    assert_eq!(
        call.result,
        Some(json!("no mock for tool `delete_account`"))
    );
}

#[tokio::test]
async fn endpoint_errors_are_agent_errors() {
    let (base, _) = chat_server(vec![Err(500)]).await;
    let mut run = ScenarioRun::new(Suite::new().agent(agent(&base)), "500");
    run.user("hi").await;
    let report = run.report().await;
    assert_eq!(
        report.verdicts[0].reason,
        format!(
            "the agent failed: the model endpoint {base}/chat/completions answered HTTP 500: upstream error"
        )
    );
    let (base, _) = chat_server(vec![Ok(json!({"unexpected": true}))]).await;
    let mut run = ScenarioRun::new(Suite::new().agent(agent(&base)), "shape");
    run.user("hi").await;
    let report = run.report().await;
    assert_eq!(
        report.verdicts[0].reason,
        "the agent failed: the model endpoint's answer has no `choices[0].message`"
    );
    let debug = format!("{:?}", agent(&base));
    assert!(!debug.contains("sk-test-key"), "{debug}");
}

/// A chat agent's HTTP exchanges are with its model endpoint (one per model step), not an HTTP
/// status of its answer: `http_status` on it is "not measured", and says the agent is a chat
/// model — also on a recording of the run — and, when the endpoint failed, what it answered.
#[tokio::test]
async fn http_status_on_a_chat_agent_says_it_is_a_chat_model() {
    let (base, log) = chat_server(vec![
        Ok(tool_calls(&[(
            "c1",
            "lookup_order",
            json!({"order_id": "ORD-9921"}),
        )])),
        Ok(answer("Order ORD-9921 was charged twice.")),
    ])
    .await;
    let mut run = ScenarioRun::new(Suite::new().agent(agent(&base)), "status");
    run.user("Was ORD-9921 charged twice?").await;
    run.expect_turn(http_status(200));
    run.expect(http_success());
    run.expect(reply().contains("charged twice"));
    let report = run.report().await;
    assert_eq!(log.lock().unwrap().len(), 2, "two model steps, both 200");
    let why = "not measured: turn 1 has no HTTP status (the agent is the chat model `test-model`, \
               whose answers carry no HTTP status of their own: its HTTP requests go to the model \
               endpoint, and one that fails fails the turn)";
    let got: Vec<(Status, &str)> = report
        .verdicts
        .iter()
        .map(|v| (v.status, v.reason.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (Status::Error, why),
            (Status::Error, why),
            (Status::Pass, "")
        ]
    );
    // The recording keeps it: evaluating it again says the same.
    let turn = &report.transcript.turns[0];
    assert_eq!(turn.reply.chat_model.as_deref(), Some("test-model"));
    assert_eq!(turn.reply.http_status, None);
    let json = serde_json::to_value(&report.transcript).unwrap();
    let reloaded: agent_test_runtime::model::Transcript = serde_json::from_value(json).unwrap();
    let v = evaluate(&reloaded, &[http_success().into_expectation()]);
    assert_eq!((v[0].status, v[0].reason.as_str()), (Status::Error, why));

    // The endpoint failing fails the turn, and the status check says what it answered.
    let (base, _) = chat_server(vec![Err(503)]).await;
    let mut run = ScenarioRun::new(Suite::new().agent(agent(&base)), "down");
    run.user("hi").await;
    run.expect(http_success());
    let report = run.report().await;
    assert_eq!(report.verdicts[1].status, Status::Error);
    assert_eq!(
        report.verdicts[1].reason,
        format!(
            "not measured: turn 1: the agent failed (the model endpoint {base}/chat/completions \
             answered HTTP 503: upstream error), so there is no HTTP status"
        )
    );
}

#[tokio::test]
async fn a_chat_agent_s_turns_are_priced_by_the_model_it_names() {
    let script = || {
        vec![
            Ok(tool_calls(&[(
                "c1",
                "lookup_order",
                json!({"order_id": "ORD-9921"}),
            )])),
            Ok(answer("Your order ORD-9921 came to €42.50.")),
        ]
    };
    // 100 + 150 input and 10 + 20 output tokens, at $2 and $8 per million: $0.00074.
    let prices = Prices::new().model("test-model", 2.0, 8.0);
    let (base, _) = chat_server(script()).await;
    let mut run = ScenarioRun::new(
        Suite::new().agent(agent(&base)).prices(prices.clone()),
        "priced",
    );
    run.user("What did ORD-9921 cost?").await;
    run.expect(cost().at_most_usd(0.001));
    run.expect(cost().at_most_usd(0.0007));
    let report = run.report().await;
    let reasons: Vec<(Status, &str)> = report
        .verdicts
        .iter()
        .map(|v| (v.status, v.reason.as_str()))
        .collect();
    assert_eq!(
        reasons,
        [
            (Status::Pass, ""),
            (Status::Fail, "cost budget exceeded: $0.00074 > $0.0007"),
        ],
        "{report}"
    );
    let text = report.to_string();
    assert!(text.contains("  agent cost: $0.00074\n"), "{text}");
    assert!(text.contains(", $0.00074]"), "{text}");
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(
        json["transcript"]["turns"][0]["cost"],
        json!({"usd": 0.00074})
    );

    // The same agent priced by a table without its model: unknown, with the reason.
    let (base, _) = chat_server(script()).await;
    let mut run = ScenarioRun::new(
        Suite::new()
            .agent(agent(&base))
            .prices(Prices::new().model("other-model", 1.0, 1.0)),
        "unpriced",
    );
    run.user("What did ORD-9921 cost?").await;
    run.expect(cost().at_most_usd(1.0));
    let report = run.report().await;
    assert_eq!(
        report.verdicts[0].reason,
        "not measured: turn 1: model `test-model` is not in the price table (prices for: \
         `other-model`)"
    );
    assert!(
        report.to_string().contains(
            "  agent cost: unknown: turn 1: model `test-model` is not in the price table"
        ),
        "{report}"
    );
}
