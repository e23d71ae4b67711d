//! The HTTP agent: templates, custom bodies, sessions, non-2xx, timeouts, garbage, limits,
//! secrets.

use std::time::Duration;

use agent_test_runtime::agent::{HttpAgent, custom_body};
use agent_test_runtime::check::Status;
use agent_test_runtime::prelude::*;
use agent_test_runtime::{ScenarioRun, Suite};

use super::servers::agent_server;

#[tokio::test]
async fn template_placeholders_context_and_history() {
    let (url, log) = agent_server().await;
    let agent = HttpAgent::post(format!("{url}/echo"))
        .header("X-Tenant", "acme")
        .body_template(json!({"prompt": "{input}", "user_id": "{USER_ID}", "note": "plan {PLAN}", "history": "{messages}", "mode": "test"}));
    let mut run = ScenarioRun::new(
        Suite::new()
            .agent(agent)
            .context("USER_ID", 12345)
            .context("PLAN", "premium"),
        "template",
    );
    run.user("What are my recent orders?").await;
    run.user("And the one before?").await;
    run.expect_turn(reply().equals("you said: And the one before?"));
    run.expect(http_status(200));
    run.expect(tokens().total_at_most(30));
    let report = run.report().await;
    assert!(report.passed(), "{report}");
    let requests = log.lock().unwrap().clone();
    assert_eq!(requests.len(), 2);
    let (headers, first) = &requests[0];
    assert_eq!(first["prompt"], "What are my recent orders?");
    assert_eq!(
        first["user_id"], 12345,
        "a whole-string placeholder keeps the value's type"
    );
    assert_eq!(first["note"], "plan premium");
    assert_eq!(first["mode"], "test");
    assert!(headers.iter().any(|h| h == "x-tenant: acme"), "{headers:?}");
    let history = requests[1].1["history"].as_array().unwrap().clone();
    let roles: Vec<&str> = history
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["user", "assistant", "user"]);
    assert_eq!(
        history[1]["content"],
        "you said: What are my recent orders?"
    );
}

#[tokio::test]
async fn custom_body_replaces_the_template() {
    let (url, log) = agent_server().await;
    let mut run = ScenarioRun::new(
        Suite::new().agent(HttpAgent::post(format!("{url}/echo"))),
        "custom",
    );
    run.user(custom_body(
        json!({"action": "process_order", "order_id": "ORD-1001", "amount": 109.97}),
    ))
    .await;
    run.expect(field("received.order_id").is("ORD-1001"));
    let report = run.report().await;
    assert!(report.passed(), "{report}");
    assert_eq!(
        log.lock().unwrap()[0].1,
        json!({"action": "process_order", "order_id": "ORD-1001", "amount": 109.97})
    );
    assert_eq!(
        report.transcript.turns[0].input,
        r#"{"action":"process_order","amount":109.97,"order_id":"ORD-1001"}"#
    );
}

#[tokio::test]
async fn sessions_returned_by_the_server_are_sent_back() {
    let (url, log) = agent_server().await;
    let agent = HttpAgent::post(format!("{url}/session"))
        .body_template(json!({"message": "{input}", "session_id": "{session_id}"}))
        .session_id_from("session.id")
        .reply_at("data.answer");
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "session");
    run.user("hello").await;
    run.user("again").await;
    run.expect_turn(reply().equals("turn 2 of session s-1"));
    let report = run.report().await;
    assert!(report.passed(), "{report}");
    let requests = log.lock().unwrap().clone();
    assert_eq!(requests[0].1["session_id"], json!(null));
    assert_eq!(requests[1].1["session_id"], "s-1");
}

#[tokio::test]
async fn a_non_2xx_answer_is_recorded_not_thrown_away() {
    let (url, _) = agent_server().await;
    let mut run = ScenarioRun::new(
        Suite::new().agent(HttpAgent::post(format!("{url}/overloaded"))),
        "503",
    );
    run.user("hi").await;
    run.expect(http_status(200).id("ok"));
    run.expect(field("data").exists().depends_on("ok"));
    run.expect(field("error").is(contains("overloaded")));
    let report = run.report().await;
    let statuses: Vec<Status> = report.verdicts.iter().map(|v| v.status).collect();
    assert_eq!(
        statuses,
        [Status::Fail, Status::Skipped, Status::Pass],
        "{report}"
    );
    assert_eq!(
        report.verdicts[0].reason,
        "HTTP status 503 on turn 1 (expected 200)"
    );
    // The error message is the reply text, so the report's transcript says what went wrong.
    assert_eq!(
        report.transcript.turns[0].reply.text,
        "overloaded, retry later"
    );
}

#[tokio::test]
async fn slow_answers_time_out() {
    let (url, _) = agent_server().await;
    let agent = HttpAgent::post(format!("{url}/slow")).timeout(Duration::from_millis(300));
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "slow");
    run.user("hi").await;
    run.expect(reply().contains("x"));
    run.expect(http_status(200));
    let report = run.report().await;
    let failure = format!("no answer from {url}/slow within 300ms");
    assert_eq!(
        report.verdicts[0].reason,
        format!("the agent failed: {failure}")
    );
    // The conversation checks are evaluated, and say there was nothing to see.
    let reasons: Vec<_> = report.verdicts[1..]
        .iter()
        .map(|v| (v.status, v.reason.clone()))
        .collect();
    assert_eq!(
        reasons,
        [
            (
                Status::Error,
                format!("not evaluated: the agent failed on turn 1: {failure}")
            ),
            (
                Status::Error,
                format!(
                    "not measured: turn 1: the agent failed ({failure}), so there is no HTTP status"
                )
            ),
        ]
    );
}

/// The statuses of a report's verdicts, in order.
fn statuses(report: &agent_test_runtime::report::Report) -> Vec<Status> {
    report.verdicts.iter().map(|v| v.status).collect()
}

#[tokio::test]
async fn a_body_that_is_not_utf8_is_an_agent_error_unless_read_lossily() {
    let (url, _) = agent_server().await;
    let mut run = ScenarioRun::new(
        Suite::new().agent(HttpAgent::post(format!("{url}/garbage"))),
        "garbage",
    );
    run.user("hi").await;
    run.expect_turn(reply().starts_with("<html>502 Bad Gateway"));
    run.expect(http_status(502));
    let report = run.report().await;
    assert_eq!(
        statuses(&report),
        [Status::Error, Status::Error, Status::Pass],
        "{report}"
    );
    assert_eq!(
        report.verdicts[0].reason,
        format!(
            "the agent failed: the response from {url}/garbage (HTTP 502) is not valid UTF-8 \
             (at byte 21; `.lossy_utf8()` reads it anyway): `<html>502 Bad Gateway\u{fffd}\u{fffd}\\0`"
        )
    );
    assert!(
        report.verdicts[1]
            .reason
            .starts_with("not evaluated: the agent failed on turn 1")
    );
    assert_eq!(
        report.transcript.turns[0].reply.text, "",
        "no text was read"
    );

    // Latin-1 text reads as text with replacement characters when asked for.
    let agent = HttpAgent::post(format!("{url}/latin1")).lossy_utf8();
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "latin1");
    run.user("hi").await;
    run.expect_turn(reply().equals("Bienvenue au caf\u{fffd} !"));
    let report = run.report().await;
    assert!(report.passed(), "{report}");

    let mut run = ScenarioRun::new(
        Suite::new().agent(HttpAgent::post(format!("{url}/latin1"))),
        "latin1-strict",
    );
    run.user("hi").await;
    run.expect_turn(reply().contains("Bienvenue"));
    let report = run.report().await;
    assert_eq!(
        statuses(&report),
        [Status::Error, Status::Error],
        "{report}"
    );
    assert!(
        report.verdicts[0]
            .reason
            .contains("(HTTP 200) is not valid UTF-8 (at byte 16;"),
        "{}",
        report.verdicts[0].reason
    );
}

#[tokio::test]
async fn a_truncated_json_body_is_an_agent_error_not_a_reply() {
    let (url, _) = agent_server().await;
    // Said to be JSON by its Content-Type: every check of the turn passed on it before.
    let mut run = ScenarioRun::new(
        Suite::new().agent(HttpAgent::post(format!("{url}/truncated"))),
        "truncated",
    );
    run.user("refund ORD-9921").await;
    run.expect_turn(reply().contains("refund"));
    run.expect_turn(no_tool("cancel_order"));
    run.expect(reply().contains("refund"));
    let report = run.report().await;
    assert_eq!(
        statuses(&report),
        // The conversation's reply is that of the failed turn: not evaluated either.
        [Status::Error, Status::Error, Status::Error, Status::Error],
        "{report}"
    );
    let body = r#"{"reply": "Your refund is on its way", "tool_calls": [{"name": "process_ref"#;
    assert_eq!(
        report.verdicts[0].reason,
        format!(
            "the agent failed: the response from {url}/truncated (HTTP 200) is not valid JSON, \
             though its Content-Type is `application/json; charset=utf-8`: {}: `{body}`",
            serde_json::from_str::<serde_json::Value>(body).unwrap_err()
        )
    );
    assert_eq!(report.transcript.turns[0].reply.http_status, Some(200));
    assert!(!report.passed());

    // Sent as text, but a reply path is configured: the client expects JSON.
    let agent = HttpAgent::post(format!("{url}/truncated-text")).reply_at("data.answer");
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "truncated-text");
    run.user("refund ORD-9921").await;
    let report = run.report().await;
    assert!(
        report.verdicts[0].reason.starts_with(&format!(
            "the agent failed: the response from {url}/truncated-text (HTTP 200) is not valid \
             JSON, though `.reply_at(..)` is set: EOF while parsing"
        )),
        "{}",
        report.verdicts[0].reason
    );
    // Without either, a text body is the reply, as before.
    let mut run = ScenarioRun::new(
        Suite::new().agent(HttpAgent::post(format!("{url}/truncated-text"))),
        "text",
    );
    run.user("hi").await;
    run.expect_turn(reply().starts_with(r#"{"data""#));
    let report = run.report().await;
    assert!(report.passed(), "{report}");
}

#[tokio::test]
async fn configured_paths_that_are_missing_or_malformed_are_gaps_of_the_turn() {
    // What is missing makes the checks that need it errors; the checks of what is there are
    // still evaluated (the answer's fields, its status).
    let (url, _) = agent_server().await;
    let agent = HttpAgent::post(format!("{url}/no-answer")).reply_at("data.answer");
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "no-answer");
    run.user("hi").await;
    run.expect_turn(reply().not_contains("error"));
    run.expect_turn(field("data.status").is("queued"));
    run.expect_turn(http_status(200));
    let report = run.report().await;
    assert_eq!(
        statuses(&report),
        [Status::Error, Status::Pass, Status::Pass],
        "{report}"
    );
    let gap = "the reply text is incomplete: the answer has no `data.answer`, where \
               `.reply_at(..)` says the reply is: `{\"data\":{\"status\":\"queued\"}}`";
    assert_eq!(
        report.verdicts[0].reason,
        format!("not evaluated: on turn 1, {gap}")
    );
    assert_eq!(report.notes, [format!("turn 1: {gap}")]);

    let agent = HttpAgent::post(format!("{url}/calls-not-a-list"))
        .reply_at("data.answer")
        .tool_calls_at("data.tool_calls");
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "calls");
    run.user("hi").await;
    run.expect_turn(no_tool("cancel_order"));
    run.expect_turn(field("data.tool_calls.name").is("lookup_order"));
    let report = run.report().await;
    assert_eq!(statuses(&report), [Status::Error, Status::Pass], "{report}");
    assert_eq!(
        report.verdicts[0].reason,
        "not evaluated: on turn 1, the tool calls are incomplete: the answer has no list of \
         tool calls at `data.tool_calls` (`.tool_calls_at(..)`): `{\"name\":\"lookup_order\"}`"
    );

    let agent = HttpAgent::post(format!("{url}/calls-not-a-list")).tool_calls_at("items");
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "nameless");
    run.user("hi").await;
    run.expect_turn(tool("lookup_order"));
    let report = run.report().await;
    assert_eq!(
        report.verdicts[0].reason,
        "not evaluated: on turn 1, the tool calls are incomplete: the answer has a tool call \
         without a `name` at `items[0]`: `{\"args\":{}}`"
    );
}

#[tokio::test]
async fn a_non_2xx_answer_without_the_reply_path_shows_the_servers_error() {
    let (url, _) = agent_server().await;
    let agent = HttpAgent::post(format!("{url}/upstream-error")).reply_at("data.answer");
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "upstream");
    run.user("hi").await;
    run.expect_turn(http_status(502));
    run.expect_turn(reply().contains("overloaded"));
    run.expect_turn(field("error.code").is(502));
    let report = run.report().await;
    assert!(report.passed(), "{report}");
    assert_eq!(
        report.transcript.turns[0].reply.text,
        "upstream model overloaded"
    );
}

#[tokio::test]
async fn huge_bodies_and_refused_connections_are_agent_errors() {
    let (url, _) = agent_server().await;
    let agent = HttpAgent::post(format!("{url}/huge")).max_body_bytes(1024 * 1024);
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "huge");
    run.user("hi").await;
    let report = run.report().await;
    assert_eq!(
        report.verdicts[0].reason,
        format!("the agent failed: the response from {url}/huge is larger than 1048576 bytes")
    );

    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap()
    };
    let mut run = ScenarioRun::new(
        Suite::new().agent(HttpAgent::post(format!("http://{closed}/agent?key=hidden"))),
        "refused",
    );
    run.user("hi").await;
    let report = run.report().await;
    let reason = &report.verdicts[0].reason;
    assert!(
        reason.starts_with(&format!(
            "the agent failed: cannot connect to http://{closed}/agent:"
        )),
        "{reason}"
    );
    assert!(
        !reason.contains("hidden"),
        "the query string (keys) is not shown"
    );
}

#[tokio::test]
async fn known_trace_shapes_give_tool_calls_and_usage() {
    let (url, _) = agent_server().await;
    let mut run = ScenarioRun::new(
        Suite::new().agent(HttpAgent::post(format!("{url}/openai"))),
        "openai",
    );
    run.user("where is ORD-9921?").await;
    run.expect(tool("lookup_order").arg("order_id", "ORD-9921"));
    run.expect(reply().equals("Looking it up."));
    run.expect(tokens().total_at_most(120));
    let report = run.report().await;
    assert!(report.passed(), "{report}");
}

#[tokio::test]
async fn secrets_never_appear() {
    let (url, log) = agent_server().await;
    let agent = HttpAgent::post(format!("{url}/auth")).bearer_token("s3cret-token");
    assert!(!format!("{agent:?}").contains("s3cret"));
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "auth");
    run.user("hi").await;
    run.expect(reply().equals("welcome"));
    let report = run.report().await;
    assert!(report.passed(), "{report}");
    let json = serde_json::to_string(&report).unwrap();
    assert!(!json.contains("s3cret") && !report.to_string().contains("s3cret"));
    assert!(
        log.lock().unwrap().is_empty(),
        "the auth endpoint does not log"
    );
}

#[tokio::test]
async fn the_request_helper_feeds_later_steps() {
    use agent_test_runtime::request;
    let (url, log) = agent_server().await;
    let created = request::post(format!("{url}/echo"))
        .header("X-Setup-Token", "setup-secret")
        .json(json!({"customer": "Ana"}))
        .send()
        .await
        .expect("a response");
    assert!(created.is_success());
    assert_eq!(log.lock().unwrap()[0].1["customer"], "Ana");
    let failed = request::post(format!("{url}/overloaded"))
        .send()
        .await
        .expect("a response");
    assert_eq!(
        (failed.status, failed.json["error"].as_str()),
        (503, Some("overloaded, retry later"))
    );
    let refused = request::get("http://127.0.0.1:9/nothing?key=abc")
        .send()
        .await
        .unwrap_err();
    assert!(
        refused
            .0
            .starts_with("cannot connect to http://127.0.0.1:9/nothing"),
        "{refused}"
    );
    assert!(!refused.0.contains("abc"));
}
