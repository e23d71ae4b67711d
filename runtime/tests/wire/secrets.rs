//! Configured credentials never reach any output, whatever a server sends back: servers on
//! 127.0.0.1 that echo the request's headers (in error pages, JSON bodies, tool calls, broken
//! bodies, judge verdicts and judge errors), and every output read back — the report's text
//! (the test's panic message), its JSON, the JSON report file.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use agent_test_runtime::agent::{ChatAgent, HttpAgent};
use agent_test_runtime::check::Status;
use agent_test_runtime::judge::{Judge, JudgeMode, OpenAiJudge};
use agent_test_runtime::prelude::*;
use agent_test_runtime::report::Report;
use agent_test_runtime::{ScenarioRun, Suite};
use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::Value;

use super::servers::serve;

const BEARER: &str = "sk-SENTINEL-bearer-0001";
const HEADER: &str = "sk-SENTINEL-header-0002";
const CHAT_KEY: &str = "sk-SENTINEL-chat-0003";
const JUDGE_KEY: &str = "sk-SENTINEL-judge-0004";

/// The request's headers as "name: value" lines, as an echoing server quotes them.
fn quoted(headers: &HeaderMap) -> String {
    headers
        .iter()
        .map(|(k, v)| format!("{k}: {}", v.to_str().unwrap_or("?")))
        .collect::<Vec<_>>()
        .join("\n")
}

/// An agent service that echoes the request's headers back, by the user's message: `fail` →
/// a 401 text page quoting them; `broken` → a truncated JSON body quoting them; anything
/// else → a JSON reply quoting them in its text, a field, a tool call's arguments and result.
async fn echo_agent(headers: HeaderMap, body: Bytes) -> Response {
    let json: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let lines = quoted(&headers);
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    match json["input"].as_str().unwrap_or_default() {
        "fail" => (
            StatusCode::UNAUTHORIZED,
            format!("401 Unauthorized\nYour request:\n{lines}\n\n{json}"),
        )
            .into_response(),
        "broken" => (
            [("content-type", "application/json")],
            format!(r#"{{"reply": "{auth} and more"#),
        )
            .into_response(),
        _ => axum::Json(serde_json::json!({
            "reply": format!("Refund issued. (You sent {lines})"),
            "seen": {"authorization": auth, "x-api-key": headers.get("x-api-key").and_then(|v| v.to_str().ok())},
            "tool_calls": [{"name": "audit", "arguments": {"token": auth}, "result": {"echo": lines}}],
        }))
        .into_response(),
    }
}

/// An OpenAI-compatible chat endpoint that echoes its key: first a tool call with the
/// `Authorization` header as argument, then an answer quoting it, then a 401 page quoting it.
async fn echo_chat(State(n): State<Arc<AtomicUsize>>, headers: HeaderMap) -> Response {
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    match n.fetch_add(1, Ordering::SeqCst) {
        0 => axum::Json(super::servers::tool_calls(&[(
            "call_1",
            "audit",
            serde_json::json!({"token": auth}),
        )]))
        .into_response(),
        1 => {
            axum::Json(super::servers::answer(&format!("Refund issued ({auth})."))).into_response()
        }
        _ => (
            StatusCode::UNAUTHORIZED,
            format!("invalid key in header `{auth}`"),
        )
            .into_response(),
    }
}

/// A judge that echoes its key: a 500 page quoting the request's headers, then verdicts whose
/// reasoning quotes the `Authorization` header.
async fn echo_judge(
    State(n): State<Arc<AtomicUsize>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    if n.fetch_add(1, Ordering::SeqCst) == 0 {
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            [("retry-after", "0")],
            format!("500 Internal Server Error\n{}", quoted(&headers)),
        )
            .into_response();
    }
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let user = request["messages"][1]["content"].as_str().unwrap_or("{}");
    let checks: Value = serde_json::from_str(user).unwrap_or(Value::Null);
    let results: Vec<Value> = checks["checks"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| serde_json::json!({"id": c["id"], "score": 0.5, "pass": false, "reasoning": format!("graded with {auth}")}))
        .collect();
    let content = serde_json::json!({ "results": results }).to_string();
    axum::Json(serde_json::json!({
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    }))
    .into_response()
}

async fn servers() -> String {
    let router = Router::new()
        .route("/agent", post(echo_agent))
        .route("/v1/chat/completions", post(echo_chat))
        .with_state(Arc::new(AtomicUsize::new(0)));
    serve(router).await
}

async fn judge_server() -> String {
    let router = Router::new()
        .route("/v1/chat/completions", post(echo_judge))
        .with_state(Arc::new(AtomicUsize::new(0)));
    format!("{}/v1", serve(router).await)
}

fn temp(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("agent-test-secrets-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Every output of a report: its text, the panic message of `assert_passed`, its JSON, and the
/// JSON report file.
fn outputs(report: &Report) -> Vec<(&'static str, String)> {
    let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| report.assert_passed()))
        .expect_err("the run fails");
    let panic = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    let path = report
        .json_path
        .as_ref()
        .expect("the JSON report is written");
    vec![
        ("text report", report.to_string()),
        ("panic message", panic),
        ("JSON", serde_json::to_string(report).expect("json")),
        (
            "JSON report file",
            std::fs::read_to_string(path).expect("read"),
        ),
    ]
}

#[track_caller]
fn assert_redacted(outputs: &[(&'static str, String)], secrets: &[&str]) {
    for (what, text) in outputs {
        for s in secrets {
            assert!(!text.contains(s), "{what} leaks {s}:\n{text}");
        }
        assert!(text.contains("***"), "{what} shows no redaction:\n{text}");
    }
}

#[tokio::test]
async fn an_http_agent_and_its_judge_echoing_credentials_never_leak_them() {
    let url = servers().await;
    let judge_url = judge_server().await;
    let agent = HttpAgent::post(format!("{url}/agent"))
        .bearer_token(BEARER)
        .secret_header("X-Api-Key", HEADER)
        .tool_calls_at("tool_calls");
    let grader = Judge::new(
        OpenAiJudge::new("judge-model")
            .base_url(&judge_url)
            .api_key(JUDGE_KEY),
    )
    .mode(JudgeMode::Off)
    .backoff(Duration::from_millis(1));
    let suite = Suite::new()
        .agent(agent)
        .judge(grader)
        .report_dir(temp("http"));
    let mut run = ScenarioRun::new(suite, "echo");
    run.user("refund please").await;
    run.expect_turn(judge("mentions refund"));
    run.expect_turn(reply().contains("sk-SENTINEL"));
    run.expect_turn(tool("audit").arg("token", contains("sk-SENTINEL")));
    run.user("fail").await;
    run.expect_turn(reply().contains("Bearer"));
    run.user("broken").await;
    let report = run.report().await;
    // The agent saw its credentials: the server got them.
    let texts: Vec<&str> = report
        .transcript
        .turns
        .iter()
        .map(|t| t.reply.text.as_str())
        .collect();
    assert!(texts[0].contains("authorization: Bearer ***"), "{texts:?}");
    assert!(texts[0].contains("x-api-key: ***"), "{texts:?}");
    assert!(texts[1].contains("authorization: Bearer ***"), "{texts:?}");
    let body = report.transcript.turns[0]
        .reply
        .body
        .as_ref()
        .expect("body");
    assert_eq!(body["seen"]["authorization"], "Bearer ***");
    assert_eq!(body["seen"]["x-api-key"], "***");
    let statuses: Vec<Status> = report.verdicts.iter().map(|v| v.status).collect();
    assert_eq!(
        statuses,
        [
            Status::Error,
            Status::Fail,
            Status::Fail,
            Status::Fail,
            Status::Pass
        ],
        "{report}"
    );
    let broken = format!(r#"{{"reply": "Bearer {BEARER} and more"#);
    assert_eq!(
        report.verdicts[0].reason,
        format!(
            "the agent failed: the response from {url}/agent (HTTP 200) is not valid JSON, \
             though its Content-Type is `application/json`: {}: `{{\"reply\": \"Bearer *** and more`",
            serde_json::from_str::<Value>(&broken).unwrap_err()
        )
    );
    assert!(
        report.verdicts[1].reason.contains("graded with Bearer ***"),
        "{}",
        report.verdicts[1].reason
    );
    assert_redacted(&outputs(&report), &[BEARER, HEADER, JUDGE_KEY]);
}

#[tokio::test]
async fn a_judge_error_quoting_the_key_never_leaks_it() {
    let judge_url = judge_server().await;
    let grader = Judge::new(
        OpenAiJudge::new("judge-model")
            .base_url(&judge_url)
            .api_key(JUDGE_KEY),
    )
    .mode(JudgeMode::Off)
    .retries(0);
    let suite = Suite::new()
        .agent(agent_test_runtime::agent::agent_fn(|_r| async {
            "Refund issued."
        }))
        .judge(grader)
        .report_dir(temp("judge"));
    let mut run = ScenarioRun::new(suite, "judge-echo");
    run.user("refund please").await;
    run.expect_turn(judge("mentions refund"));
    let report = run.report().await;
    assert_eq!(report.verdicts[0].status, Status::Error, "{report}");
    assert!(
        report.verdicts[0]
            .reason
            .contains("authorization: Bearer ***"),
        "{}",
        report.verdicts[0].reason
    );
    assert_redacted(&outputs(&report), &[JUDGE_KEY, "SENTINEL"]);
}

#[tokio::test]
async fn a_chat_model_echoing_its_key_never_leaks_it() {
    let url = servers().await;
    let agent = ChatAgent::new("m")
        .base_url(format!("{url}/v1"))
        .api_key(CHAT_KEY)
        .mock("audit", serde_json::json!({"ok": true}));
    let suite = Suite::new().agent(agent).report_dir(temp("chat"));
    let mut run = ScenarioRun::new(suite, "chat-echo");
    run.user("refund please").await;
    run.expect_turn(tool("audit").arg("token", "Bearer ***"));
    run.expect_turn(reply().equals("Refund issued (Bearer ***)."));
    run.user("again").await;
    let report = run.report().await;
    let statuses: Vec<Status> = report.verdicts.iter().map(|v| v.status).collect();
    assert_eq!(
        statuses,
        [Status::Error, Status::Pass, Status::Pass],
        "{report}"
    );
    assert_eq!(
        report.verdicts[0].reason,
        format!(
            "the agent failed: the model endpoint {url}/v1/chat/completions answered HTTP 401: \
             invalid key in header `Bearer ***`"
        )
    );
    assert_redacted(&outputs(&report), &[CHAT_KEY, "SENTINEL"]);
}
