//! Scripted model providers on 127.0.0.1 for the cassette tests: an OpenAI-compatible one
//! (chat completions, streamed or not, the Responses API, and the judge's structured-output
//! requests) and an Anthropic one (Messages, streamed or not, and the judge's forced tool
//! call). Each echoes the credentials it was sent in its answers — as a careless provider or
//! proxy would — counts what it answered, and can be stopped.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use bytes::Bytes;
use http_body_util::channel::Channel;
use serde_json::{Value, json};

/// How long a streamed answer waits between its events.
pub const STREAM_GAP: Duration = Duration::from_millis(120);

/// The gap between the events of the careless provider's paced stream: well under the 40 ms a
/// client may delay its acknowledgements.
pub const PACED_GAP: Duration = Duration::from_millis(5);

/// A scripted provider, stopped when dropped.
pub struct Provider {
    /// Its base URL, up to `/v1`.
    pub url: String,
    answered: Arc<AtomicUsize>,
    server: tokio::task::JoinHandle<()>,
}

impl Provider {
    /// How many requests it answered.
    pub fn answered(&self) -> usize {
        self.answered.load(Ordering::SeqCst)
    }
}

impl Drop for Provider {
    fn drop(&mut self) {
        self.server.abort();
    }
}

async fn start(router: Router<Arc<AtomicUsize>>) -> Provider {
    let answered = Arc::new(AtomicUsize::new(0));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let app = router.with_state(Arc::clone(&answered));
    // A provider that sends its writes at once, as real ones do: what is measured through a
    // cassette is then the cassette's own delay.
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let server = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Provider {
        url: format!("http://{addr}/v1"),
        answered,
        server,
    }
}

/// What the request's credentials were, as a server echoing them would quote them.
fn echo(headers: &HeaderMap) -> Value {
    let get = |n: &str| headers.get(n).and_then(|v| v.to_str().ok()).unwrap_or("");
    json!({"authorization": get("authorization"), "x-api-key": get("x-api-key")})
}

/// An event stream sending `events` (already framed) with [`STREAM_GAP`] between them.
fn stream(events: Vec<String>) -> Response {
    paced(events, STREAM_GAP)
}

/// An event stream sending `events` with `gap` between them.
fn paced(events: Vec<String>, gap: Duration) -> Response {
    let (mut tx, body) = Channel::<Bytes, std::convert::Infallible>::new(4);
    tokio::spawn(async move {
        for (i, event) in events.into_iter().enumerate() {
            if i > 0 && !gap.is_zero() {
                tokio::time::sleep(gap).await;
            }
            if tx.send_data(Bytes::from(event)).await.is_err() {
                return;
            }
        }
    });
    ([("content-type", "text/event-stream")], Body::new(body)).into_response()
}

fn answered(count: &AtomicUsize) {
    count.fetch_add(1, Ordering::SeqCst);
}

/// An OpenAI-compatible provider: `/v1/chat/completions` (the support agent's tool call and
/// answer, the judge's verdicts, a stream of three deltas) and `/v1/responses`.
pub async fn openai() -> Provider {
    start(
        Router::new()
            .route("/v1/chat/completions", post(chat))
            .route("/v1/responses", post(responses)),
    )
    .await
}

async fn chat(
    State(count): State<Arc<AtomicUsize>>,
    headers: HeaderMap,
    axum::Json(body): axum::Json<Value>,
) -> Response {
    answered(&count);
    if body.get("response_format").is_some() {
        return axum::Json(completion(
            json!({"role": "assistant", "content": verdicts(&body).to_string()}),
            &headers,
        ))
        .into_response();
    }
    if body["stream"] == true {
        let mut events: Vec<String> = ["Hel", "lo ", "there"]
            .iter()
            .map(|d| {
                let chunk = json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": d}}]});
                format!("data: {chunk}\n\n")
            })
            .collect();
        events.push("data: [DONE]\n\n".to_owned());
        return stream(events);
    }
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    let message = match messages.iter().find(|m| m["role"] == "tool") {
        None => json!({"role": "assistant", "content": null, "tool_calls": [{
            "id": "call_1", "type": "function",
            "function": {"name": "lookup_order", "arguments": "{\"order_id\":\"ORD-9921\"}"}
        }]}),
        Some(result) => {
            let status = result["content"].as_str().unwrap_or("unknown");
            json!({"role": "assistant", "content": format!("Sorry for the wait! Your order is {status}.")})
        }
    };
    axum::Json(completion(message, &headers)).into_response()
}

fn completion(message: Value, headers: &HeaderMap) -> Value {
    json!({
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 60, "completion_tokens": 12},
        "echo": echo(headers),
    })
}

/// The judge's answer: every check passes, except those about rudeness (so a run has a
/// failing verdict to keep too).
fn verdicts(body: &Value) -> Value {
    let batch = body["messages"][1]["content"].as_str().unwrap_or("{}");
    let checks: Value = serde_json::from_str(batch).unwrap_or_default();
    let results: Vec<Value> = checks["checks"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|check| {
            let pass = !check["criteria"]
                .as_str()
                .unwrap_or_default()
                .contains("rude");
            let score = if pass { 1.0 } else { 0.0 };
            json!({"id": check["id"], "score": score, "pass": pass, "reasoning": "scripted"})
        })
        .collect();
    json!({"results": results})
}

async fn responses(
    State(count): State<Arc<AtomicUsize>>,
    headers: HeaderMap,
    axum::Json(body): axum::Json<Value>,
) -> Response {
    answered(&count);
    let input = body["input"].as_str().unwrap_or_default();
    axum::Json(json!({
        "id": "resp_1", "object": "response", "status": "completed",
        "output": [{"type": "message", "role": "assistant",
                    "content": [{"type": "output_text", "text": format!("You said: {input}")}]}],
        "echo": echo(&headers),
    }))
    .into_response()
}

/// An Anthropic provider: `/v1/messages` (the judge's forced tool call, a streamed answer in
/// Anthropic's named events, a plain answer).
pub async fn anthropic() -> Provider {
    start(Router::new().route("/v1/messages", post(messages))).await
}

async fn messages(
    State(count): State<Arc<AtomicUsize>>,
    headers: HeaderMap,
    axum::Json(body): axum::Json<Value>,
) -> Response {
    answered(&count);
    if body["tool_choice"]["name"] == "record_verdicts" {
        let batch = body["messages"][0]["content"].as_str().unwrap_or("{}");
        let as_openai = json!({"messages": [{}, {"content": batch}]});
        return axum::Json(json!({
            "type": "message", "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "record_verdicts", "input": verdicts(&as_openai)}],
            "usage": {"input_tokens": 80, "output_tokens": 20},
            "echo": echo(&headers),
        }))
        .into_response();
    }
    if body["stream"] == true {
        let named = |name: &str, data: Value| format!("event: {name}\ndata: {data}\n\n");
        return stream(vec![
            named(
                "message_start",
                json!({"type": "message_start", "message": {"role": "assistant", "content": []}}),
            ),
            named(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hello"}}),
            ),
            named(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": " from Claude"}}),
            ),
            named("message_stop", json!({"type": "message_stop"})),
        ]);
    }
    axum::Json(json!({
        "type": "message", "role": "assistant",
        "content": [{"type": "text", "text": "Hello from Claude"}],
        "echo": echo(&headers),
    }))
    .into_response()
}

/// A careless OpenAI-compatible provider, for what a cassette must survive: `/v1/chat/completions`
/// streams the caller's key back four characters per event (in the content, then in a tool
/// call's arguments), without pauses; `/v1/gzip/chat/completions` answers in gzip whatever the
/// request accepted (RFC 9110 lets a server choose when a request names no coding — and some
/// choose so even when it does), noting the `accept-encoding` it was sent;
/// `/v1/br/chat/completions` answers in `br`, a coding the proxy does not decode.
pub async fn careless() -> (Provider, Arc<std::sync::Mutex<Vec<String>>>) {
    let accepted = Arc::new(std::sync::Mutex::new(Vec::new()));
    let noted = Arc::clone(&accepted);
    let provider = start(
        Router::new()
            .route("/v1/chat/completions", post(leaky))
            .route(
                "/v1/paced/chat/completions",
                post(|| async {
                    let events = (0..12)
                        .map(|i| {
                            let chunk = json!({"object": "chat.completion.chunk",
                                "choices": [{"index": 0, "delta": {"content": format!("{i} ")}}]});
                            format!("data: {chunk}\n\n")
                        })
                        .chain(["data: [DONE]\n\n".to_owned()])
                        .collect();
                    paced(events, PACED_GAP)
                }),
            )
            .route(
                "/v1/gzip/chat/completions",
                post(move |headers: HeaderMap| {
                    let noted = Arc::clone(&noted);
                    async move {
                        let asked = headers
                            .get("accept-encoding")
                            .and_then(|v| v.to_str().ok())
                            .unwrap_or("(none)");
                        noted
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .push(asked.to_owned());
                        let body = completion(
                            json!({"role": "assistant", "content": "Compressed, unasked."}),
                            &headers,
                        );
                        let mut gz = flate2::write::GzEncoder::new(
                            Vec::new(),
                            flate2::Compression::default(),
                        );
                        std::io::Write::write_all(&mut gz, body.to_string().as_bytes())
                            .expect("gzip");
                        let bytes = gz.finish().expect("gzip");
                        (
                            [
                                ("content-type", "application/json"),
                                ("content-encoding", "gzip"),
                            ],
                            bytes,
                        )
                            .into_response()
                    }
                }),
            )
            .route(
                "/v1/br/chat/completions",
                post(|| async {
                    (
                        [
                            ("content-type", "application/json"),
                            ("content-encoding", "br"),
                        ],
                        vec![0x8b_u8, 0x02, 0x80, 0x7b, 0x7d, 0x03],
                    )
                        .into_response()
                }),
            ),
    )
    .await;
    (provider, accepted)
}

/// The caller's key, streamed back in pieces.
async fn leaky(State(count): State<Arc<AtomicUsize>>, headers: HeaderMap) -> Response {
    answered(&count);
    let key = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("")
        .to_owned();
    let chunk = |delta: Value| {
        let chunk =
            json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta}]});
        format!("data: {chunk}\n\n")
    };
    let said = format!("Your key is {key}. Keep it safe.");
    let mut events: Vec<String> = said
        .as_bytes()
        .chunks(4)
        .map(|c| chunk(json!({"content": String::from_utf8_lossy(c)})))
        .collect();
    events.push(chunk(
        json!({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
        "function": {"name": "store_key", "arguments": ""}}]}),
    ));
    let arguments = format!("{{\"key\":\"{key}\"}}");
    events.extend(arguments.as_bytes().chunks(4).map(|c| {
        chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": String::from_utf8_lossy(c)}}]}))
    }));
    events.push("data: [DONE]\n\n".to_owned());
    paced(events, Duration::ZERO)
}
