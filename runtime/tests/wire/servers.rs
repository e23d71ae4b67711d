//! Local servers for the wire tests: an HTTP agent, and an OpenAI-compatible chat endpoint
//! answering from a script.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};

/// A chat server's answers: a response, or an HTTP status to fail with.
type Script = Arc<Vec<Result<Value, u16>>>;

/// Requests a server received: (headers as "name: value" lines, JSON body).
pub type Log = Arc<Mutex<Vec<(Vec<String>, Value)>>>;

/// Serves `router` on 127.0.0.1 on a free port; returns its base URL.
pub async fn serve(router: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    format!("http://{addr}")
}

fn record(log: &Log, headers: &HeaderMap, body: &Bytes) -> Value {
    let json: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    let lines = headers
        .iter()
        .map(|(k, v)| format!("{k}: {}", v.to_str().unwrap_or("?")))
        .collect();
    log.lock().expect("log").push((lines, json.clone()));
    json
}

/// An agent server with endpoints for each behaviour under test.
pub async fn agent_server() -> (String, Log) {
    let log: Log = Arc::default();
    let router = Router::new()
        .route("/echo", post(echo))
        .route("/session", post(session))
        .route("/overloaded", post(overloaded))
        .route("/slow", post(slow))
        .route("/garbage", post(garbage))
        .route("/huge", post(huge))
        .route("/openai", post(openai_shaped))
        .route("/auth", post(auth))
        .route("/truncated", post(truncated))
        .route("/truncated-text", post(truncated_text))
        .route("/latin1", post(latin1))
        .route("/upstream-error", post(upstream_error))
        .route("/no-answer", post(no_answer))
        .route("/calls-not-a-list", post(calls_not_a_list))
        .with_state(log.clone());
    (serve(router).await, log)
}

async fn echo(State(log): State<Log>, headers: HeaderMap, body: Bytes) -> Response {
    let json = record(&log, &headers, &body);
    let input = json
        .get("input")
        .or_else(|| json.get("prompt"))
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_owned();
    axum::Json(json!({"reply": format!("you said: {input}"), "received": json, "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})).into_response()
}

async fn session(State(log): State<Log>, headers: HeaderMap, body: Bytes) -> Response {
    let json = record(&log, &headers, &body);
    let turn = log.lock().expect("log").len();
    let id = json
        .get("session_id")
        .and_then(Value::as_str)
        .map_or_else(|| "s-1".to_owned(), str::to_owned);
    axum::Json(
        json!({"session": {"id": id}, "data": {"answer": format!("turn {turn} of session {id}")}}),
    )
    .into_response()
}

async fn overloaded(State(log): State<Log>, headers: HeaderMap, body: Bytes) -> Response {
    record(&log, &headers, &body);
    (
        StatusCode::SERVICE_UNAVAILABLE,
        axum::Json(json!({"error": "overloaded, retry later"})),
    )
        .into_response()
}

async fn slow() -> Response {
    tokio::time::sleep(Duration::from_secs(3)).await;
    axum::Json(json!({"reply": "too late"})).into_response()
}

async fn garbage() -> Response {
    let mut bytes = b"<html>502 Bad Gateway".to_vec();
    bytes.extend_from_slice(&[0xff, 0xfe, 0x00]);
    (StatusCode::BAD_GATEWAY, bytes).into_response()
}

/// A JSON answer cut off in the middle, said to be JSON.
async fn truncated() -> Response {
    (
        [("content-type", "application/json; charset=utf-8")],
        r#"{"reply": "Your refund is on its way", "tool_calls": [{"name": "process_ref"#,
    )
        .into_response()
}

/// The same, sent without a Content-Type saying it is JSON.
async fn truncated_text() -> Response {
    (
        [("content-type", "text/plain")],
        r#"{"data": {"answer": "Your refund is on its way"#,
    )
        .into_response()
}

/// Latin-1 text: "café" with `é` as the single byte 0xE9.
async fn latin1() -> Response {
    (
        [("content-type", "text/plain")],
        b"Bienvenue au caf\xe9 !".to_vec(),
    )
        .into_response()
}

/// An error in the usual `{"error": {"message"}}` shape, which has no `data.answer`.
async fn upstream_error() -> Response {
    (
        StatusCode::BAD_GATEWAY,
        axum::Json(json!({"error": {"message": "upstream model overloaded", "code": 502}})),
    )
        .into_response()
}

/// A 200 whose JSON lacks the reply the client expects.
async fn no_answer() -> Response {
    axum::Json(json!({"data": {"status": "queued"}})).into_response()
}

/// Tool calls that are not a list of calls.
async fn calls_not_a_list() -> Response {
    axum::Json(json!({"data": {"answer": "done", "tool_calls": {"name": "lookup_order"}}, "items": [{"args": {}}]}))
        .into_response()
}

async fn huge() -> Response {
    axum::Json(json!({"reply": "x".repeat(2 * 1024 * 1024)})).into_response()
}

async fn openai_shaped() -> Response {
    axum::Json(json!({
        "object": "chat.completion",
        "choices": [{"message": {"role": "assistant", "content": "Looking it up.", "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "lookup_order", "arguments": "{\"order_id\": \"ORD-9921\"}"}}
        ]}}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
    }))
    .into_response()
}

async fn auth(headers: HeaderMap) -> Response {
    match headers.get("authorization").and_then(|v| v.to_str().ok()) {
        Some("Bearer s3cret-token") => axum::Json(json!({"reply": "welcome"})).into_response(),
        _ => (
            StatusCode::UNAUTHORIZED,
            axum::Json(json!({"error": "bad token"})),
        )
            .into_response(),
    }
}

/// An OpenAI-compatible chat-completions endpoint answering each request with the next
/// scripted response (the last one repeats); `Err(status)` answers with that status.
pub async fn chat_server(script: Vec<Result<Value, u16>>) -> (String, Log) {
    let log: Log = Arc::default();
    let state = (log.clone(), Arc::new(script));
    let router = Router::new()
        .route("/v1/chat/completions", post(chat))
        .with_state(state);
    (format!("{}/v1", serve(router).await), log)
}

async fn chat(
    State((log, script)): State<(Log, Script)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    record(&log, &headers, &body);
    let n = log.lock().expect("log").len() - 1;
    match script.get(n).or(script.last()) {
        Some(Ok(v)) => axum::Json(v.clone()).into_response(),
        Some(Err(status)) => (
            StatusCode::from_u16(*status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            "upstream error",
        )
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// A chat completion asking for tool calls: (id, name, JSON arguments).
pub fn tool_calls(calls: &[(&str, &str, Value)]) -> Value {
    let calls: Vec<Value> = calls
        .iter()
        .map(|(id, name, args)| json!({"id": id, "type": "function", "function": {"name": name, "arguments": args.to_string()}}))
        .collect();
    json!({"object": "chat.completion", "choices": [{"message": {"role": "assistant", "content": null, "tool_calls": calls}}],
           "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}})
}

/// A final chat completion.
pub fn answer(text: &str) -> Value {
    json!({"object": "chat.completion", "choices": [{"message": {"role": "assistant", "content": text}}],
           "usage": {"prompt_tokens": 150, "completion_tokens": 20, "total_tokens": 170}})
}
