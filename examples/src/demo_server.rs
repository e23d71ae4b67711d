//! The demo agent behind HTTP, the way most agents under test are deployed: a JSON endpoint
//! that keeps each conversation server-side, keyed by a session id it hands out.
//!
//! `POST /chat` with `{"message": "...", "session_id": null | "s-1", "context": {...}}`:
//!
//! - `session_id` null or absent starts a new session — a fresh demo shop (its own orders and
//!   bookings), so concurrent tests never see each other's refunds;
//! - the answer is `200` with `{"reply", "session_id", "intent", "state", "result",
//!   "tool_calls": [{"name", "arguments", "result", "error"}], "usage": {"prompt_tokens",
//!   "completion_tokens", "total_tokens"}}`;
//! - a body without a string `message` is `400`, an unknown `session_id` is `404`, both with
//!   `{"error": "..."}`.
//!
//! Tests start it with [`DemoServer::start`]; `cargo run -p agent-test-examples --bin
//! demo-server` runs it for the `agent-test run --http` command.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, OnceLock};

use agent_test::agent::AgentRequest;
use agent_test::model::{Call, CallKind, Message, Reply};
use agent_test::serde_json::{Map, Value, json};
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;

use crate::demo::DemoAgent;

/// A running demo server.
///
/// ```
/// use agent_test_examples::demo_server::DemoServer;
///
/// let server = DemoServer::shared();
/// assert!(server.chat_url().starts_with("http://127.0.0.1:"));
/// ```
#[derive(Clone, Debug)]
pub struct DemoServer {
    addr: SocketAddr,
}

impl DemoServer {
    /// Starts a server on `127.0.0.1` at a free port, on its own thread and runtime, so it
    /// outlives any one test's runtime.
    ///
    /// # Panics
    ///
    /// If no local port can be bound or no thread started — a broken test machine.
    pub fn start() -> DemoServer {
        DemoServer {
            addr: crate::background::serve("demo-server", router()),
        }
    }

    /// Starts the demo agent as a black box instrumented with OpenTelemetry: its answers carry
    /// only `reply` and `session_id`, and its spans — tool calls, sub-agents, model steps and
    /// usage — are exported over OTLP/HTTP to `otlp_endpoint` (see [`crate::demo_otel`]).
    ///
    /// # Panics
    ///
    /// As [`DemoServer::start`].
    pub fn start_traced(otlp_endpoint: &str) -> DemoServer {
        DemoServer {
            addr: crate::background::serve("demo-server-otel", traced_router(otlp_endpoint)),
        }
    }

    /// One server per process, started on first use: every test of a binary shares it (each
    /// conversation still gets its own session and shop).
    pub fn shared() -> &'static DemoServer {
        static SERVER: OnceLock<DemoServer> = OnceLock::new();
        SERVER.get_or_init(DemoServer::start)
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The URL of its chat endpoint, `http://127.0.0.1:PORT/chat`.
    pub fn chat_url(&self) -> String {
        format!("http://{}/chat", self.addr)
    }
}

/// The server's routes: `POST /chat`. Serve it with `axum::serve` on any listener.
///
/// ```no_run
/// # async fn serve() -> std::io::Result<()> {
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
/// axum::serve(listener, agent_test_examples::demo_server::router()).await
/// # }
/// ```
pub fn router() -> Router {
    Router::new()
        .route("/chat", post(chat))
        .with_state(Server::default())
}

/// The routes of [`DemoServer::start_traced`]: `POST /chat` answering `{"reply",
/// "session_id"}` only, the rest told by the spans exported to `otlp_endpoint`.
///
/// # Panics
///
/// If the OTLP exporter cannot be built.
pub fn traced_router(otlp_endpoint: &str) -> Router {
    Router::new().route("/chat", post(chat)).with_state(Server {
        sessions: Arc::default(),
        telemetry: Some(Arc::new(crate::demo_otel::Telemetry::new(otlp_endpoint))),
    })
}

/// The server's state: its conversations, and its telemetry when it is instrumented.
#[derive(Clone, Default)]
struct Server {
    sessions: Arc<Sessions>,
    telemetry: Option<Arc<crate::demo_otel::Telemetry>>,
}

/// The conversations in progress.
#[derive(Default)]
struct Sessions {
    next_id: Mutex<u64>,
    open: Mutex<HashMap<String, Arc<Session>>>,
}

/// One conversation: its own shop and what was said so far.
struct Session {
    agent: DemoAgent,
    messages: Mutex<Vec<Message>>,
}

impl Sessions {
    fn open(&self) -> (String, Arc<Session>) {
        let mut next = lock(&self.next_id);
        *next += 1;
        let id = format!("s-{next}");
        let session = Arc::new(Session {
            agent: DemoAgent::new(),
            messages: Mutex::new(Vec::new()),
        });
        lock(&self.open).insert(id.clone(), Arc::clone(&session));
        (id, session)
    }

    fn get(&self, id: &str) -> Option<Arc<Session>> {
        lock(&self.open).get(id).cloned()
    }
}

/// A lock that survives a panicked holder: the data is still consistent for a demo.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// `POST /chat`. The body is read as raw JSON so that a bad one gets the demo's own error
/// message instead of axum's rejection text.
async fn chat(
    State(server): State<Server>,
    headers: axum::http::HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let started = std::time::SystemTime::now();
    let sessions = &server.sessions;
    let Ok(body) = agent_test::serde_json::from_slice::<Value>(&body) else {
        return error(StatusCode::BAD_REQUEST, "the body is not JSON");
    };
    let Some(message) = body.get("message").and_then(Value::as_str) else {
        return error(StatusCode::BAD_REQUEST, "expected a string `message`");
    };
    let (id, session) = match body.get("session_id") {
        None | Some(Value::Null) => sessions.open(),
        Some(Value::String(id)) => match sessions.get(id) {
            Some(session) => (id.clone(), session),
            None => return error(StatusCode::NOT_FOUND, &format!("unknown session `{id}`")),
        },
        Some(_) => return error(StatusCode::BAD_REQUEST, "`session_id` must be a string"),
    };
    let mut messages = lock(&session.messages);
    messages.push(Message::user(message));
    let mut request = AgentRequest::new("http", messages.len() / 2, messages.clone());
    if let Some(Value::Object(context)) = body.get("context") {
        request.context = context
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
    }
    let reply = session.agent.handle(&request);
    messages.push(Message::assistant(reply.text.clone()));
    drop(messages);
    let Some(telemetry) = &server.telemetry else {
        return (StatusCode::OK, axum::Json(response(&id, &reply))).into_response();
    };
    // A black box: the answer is the reply; what the agent did is in its spans.
    let headers = headers
        .iter()
        .filter_map(|(k, v)| Some((k.as_str().to_owned(), v.to_str().ok()?.to_owned())))
        .collect();
    telemetry.record(
        &headers,
        message,
        &reply,
        started,
        std::time::SystemTime::now(),
    );
    let answer = json!({"reply": reply.text, "session_id": id});
    (StatusCode::OK, axum::Json(answer)).into_response()
}

/// The response body: the agent's own JSON body, plus the session, its tool calls and usage.
fn response(session_id: &str, reply: &Reply) -> Value {
    let mut out = match &reply.body {
        Some(Value::Object(body)) => body.clone(),
        _ => Map::new(),
    };
    out.insert("reply".into(), Value::String(reply.text.clone()));
    out.insert("session_id".into(), Value::String(session_id.into()));
    let mut calls = Vec::new();
    for call in &reply.calls {
        call.walk(&mut |c: &Call| {
            if c.kind == CallKind::Tool {
                calls.push(json!({
                    "name": c.name,
                    "arguments": c.arguments,
                    "result": c.result,
                    "error": c.error,
                }));
            }
        });
    }
    out.insert("tool_calls".into(), Value::Array(calls));
    if let Some(usage) = reply.usage {
        out.insert(
            "usage".into(),
            json!({
                "prompt_tokens": usage.input_tokens,
                "completion_tokens": usage.output_tokens,
                "total_tokens": usage.total(),
            }),
        );
    }
    Value::Object(out)
}

fn error(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}
