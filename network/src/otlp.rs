//! A live OTLP/HTTP receiver: agents export their spans to it while a run drives them, and
//! each turn's spans are merged into that turn's transcript (see
//! [`HttpAgent::traces_from`](crate::agent::HttpAgent::traces_from)).
//!
//! It serves `POST /v1/traces` on 127.0.0.1, in OTLP's protobuf (`application/x-protobuf`,
//! decoded with the `opentelemetry-proto` crate's types) and JSON (`application/json`)
//! encodings, from a thread and runtime of its own so it outlives any one test. Spans are kept
//! by trace id until a turn takes its trace; what no turn takes is reported, not dropped
//! ([`OtlpReceiver::unclaimed`]). Garbage, oversized or unknown requests get an HTTP error and a
//! note ([`OtlpReceiver::problems`]), never a crash or a blocked run; memory is bounded.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use agent_test_readers::trace::otel::spans::{Span, SpanEvent};

/// The largest export accepted (a request body), as collectors default to.
const MAX_BODY: usize = 16 * 1024 * 1024;
/// At most this many spans are kept waiting for their turn; past it the oldest traces are
/// dropped (and counted).
const MAX_SPANS: usize = 200_000;
/// At most this many problems are kept.
const MAX_PROBLEMS: usize = 100;

/// An OTLP/HTTP trace receiver on 127.0.0.1.
///
/// ```
/// let receiver = agent_test::trace::OtlpReceiver::start().unwrap();
/// // What the agent under test is given: OTEL_EXPORTER_OTLP_ENDPOINT=<endpoint>
/// assert!(receiver.endpoint().starts_with("http://127.0.0.1:"));
/// assert!(receiver.traces_url().ends_with("/v1/traces"));
/// ```
#[derive(Clone)]
pub struct OtlpReceiver {
    addr: SocketAddr,
    shared: Arc<Shared>,
}

/// What the server thread and the turns share.
#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    /// Woken when spans arrive.
    arrived: tokio::sync::Notify,
}

#[derive(Default)]
struct State {
    traces: HashMap<String, Received>,
    /// Trace ids turns took: spans arriving for them later are late, not unclaimed.
    taken: std::collections::HashSet<String>,
    late: Vec<String>,
    problems: Vec<String>,
    /// Exports refused so far (a turn during which one was refused cannot know its calls).
    refused: u64,
    /// Problems and late spans past [`MAX_PROBLEMS`]: counted, not kept.
    unlisted: usize,
    spans: usize,
    dropped: usize,
    /// How many of `problems`, `late` and `unlisted` turns have noted already.
    noted: (usize, usize, usize),
    /// Unclaimed traces turns have noted already.
    orphans_noted: std::collections::HashSet<String>,
}

struct Received {
    spans: Vec<Span>,
    first: Instant,
    last: Instant,
}

/// A turn's spans, and whether the agent's root span was among them.
pub(crate) struct Taken {
    pub(crate) spans: Vec<Span>,
    pub(crate) rooted: bool,
}

/// Spans no turn took: a trace id and its spans' names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unclaimed {
    /// The trace id (hex).
    pub trace_id: String,
    /// The names of its spans, in arrival order.
    pub spans: Vec<String>,
}

impl OtlpReceiver {
    /// Starts a receiver at a free port of 127.0.0.1.
    ///
    /// See the type's example.
    pub fn start() -> std::io::Result<Self> {
        Self::bind("127.0.0.1:0")
    }

    /// Starts a receiver at `addr` (e.g. `127.0.0.1:4318`, OTLP/HTTP's usual port, when the
    /// agent's exporter is configured for it).
    ///
    /// ```
    /// let r = agent_test::trace::OtlpReceiver::bind("127.0.0.1:0").unwrap();
    /// assert_ne!(r.addr().port(), 0);
    /// ```
    pub fn bind(addr: impl std::net::ToSocketAddrs) -> std::io::Result<Self> {
        let listener = std::net::TcpListener::bind(addr)?;
        let addr = listener.local_addr()?;
        listener.set_nonblocking(true)?;
        let shared = Arc::new(Shared::default());
        let serving = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("agent-test-otlp".into())
            .spawn(move || {
                let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                else {
                    return;
                };
                runtime.block_on(serve(listener, serving));
            })?;
        Ok(OtlpReceiver { addr, shared })
    }

    /// The address it listens on.
    ///
    /// See [`OtlpReceiver::bind`].
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The base URL to give an OTLP exporter (`OTEL_EXPORTER_OTLP_ENDPOINT`): the exporter
    /// adds `/v1/traces`.
    ///
    /// See the type's example.
    pub fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The URL of the traces endpoint (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, used as given).
    ///
    /// See the type's example.
    pub fn traces_url(&self) -> String {
        format!("{}/v1/traces", self.endpoint())
    }

    /// How many exports were refused so far: a turn compares it before and after, since an
    /// export refused while it ran may have held its spans.
    pub(crate) fn refusals(&self) -> u64 {
        self.shared.lock().refused
    }

    /// Takes the spans of trace `trace_id`, waiting at most `max_wait` for them: until a span
    /// whose parent is `parent` (the agent's root span, a child of the span the request
    /// carried) has arrived and no span has arrived for `settle`. Later spans of the trace
    /// are counted as late ([`OtlpReceiver::problems`]). Says whether the root span came: a
    /// trace without it is incomplete.
    pub(crate) async fn take(
        &self,
        trace_id: &str,
        parent: &str,
        max_wait: Duration,
        settle: Duration,
    ) -> Taken {
        // Checked: `trace_wait(Duration::MAX)` is a wait without end, not an overflow.
        let deadline = Instant::now().checked_add(max_wait);
        loop {
            let notified = self.shared.arrived.notified();
            let now = Instant::now();
            let rooted = |r: &Received| r.spans.iter().any(|s| s.parent.as_deref() == Some(parent));
            let ready = {
                let state = self.shared.lock();
                state
                    .traces
                    .get(trace_id)
                    .is_some_and(|r| rooted(r) && now.duration_since(r.last) >= settle)
            };
            if ready || deadline.is_some_and(|d| now >= d) {
                let mut state = self.shared.lock();
                let received = state.traces.remove(trace_id);
                let rooted = received.as_ref().is_some_and(rooted);
                let spans = received.map(|r| r.spans).unwrap_or_default();
                state.spans = state.spans.saturating_sub(spans.len());
                state.taken.insert(trace_id.to_owned());
                return Taken { spans, rooted };
            }
            // Woken by arrivals; otherwise look again when the quiet period may be over.
            let nap = settle
                .max(Duration::from_millis(5))
                .min(deadline.map_or(Duration::MAX, |d| d.saturating_duration_since(now)));
            let _ = tokio::time::timeout(nap, notified).await;
        }
    }

    /// Traces that arrived but that no turn took (the agent's background work, or spans whose
    /// context did not come from a turn's request), with when the first of them arrived.
    ///
    /// ```
    /// let r = agent_test::trace::OtlpReceiver::start().unwrap();
    /// assert!(r.unclaimed().is_empty());
    /// ```
    pub fn unclaimed(&self) -> Vec<Unclaimed> {
        let state = self.shared.lock();
        let mut out: Vec<(Instant, Unclaimed)> = state
            .traces
            .iter()
            .map(|(id, r)| {
                (
                    r.first,
                    Unclaimed {
                        trace_id: id.clone(),
                        spans: r.spans.iter().map(|s| s.name.clone()).collect(),
                    },
                )
            })
            .collect();
        out.sort_by_key(|(first, _)| *first);
        out.into_iter().map(|(_, u)| u).collect()
    }

    /// What a turn should note: problems and late spans not noted yet, and traces that
    /// arrived more than `older_than` ago that no turn took (no turn still waiting can claim
    /// them).
    pub(crate) fn news(&self, older_than: Duration) -> Vec<String> {
        let mut state = self.shared.lock();
        let mut out = Vec::new();
        let (p, l, u) = state.noted;
        out.extend(state.problems.iter().skip(p).cloned());
        out.extend(state.late.iter().skip(l).cloned());
        if state.unlisted > u {
            out.push(format!(
                "{} more problems or late spans at the OTLP receiver (not listed: past {MAX_PROBLEMS})",
                state.unlisted - u
            ));
        }
        state.noted = (state.problems.len(), state.late.len(), state.unlisted);
        let now = Instant::now();
        let mut orphans: Vec<(Instant, String, Vec<String>)> = state
            .traces
            .iter()
            .filter(|(id, r)| {
                now.duration_since(r.first) >= older_than && !state.orphans_noted.contains(*id)
            })
            .map(|(id, r)| {
                (
                    r.first,
                    id.clone(),
                    r.spans.iter().map(|s| s.name.clone()).collect(),
                )
            })
            .collect();
        orphans.sort();
        for (_, id, names) in orphans {
            out.push(format!(
                "spans that belong to no turn arrived (trace {id}: {}): the agent's work outside \
                 a turn, or spans that did not continue the request's `traceparent`",
                names.join(", ")
            ));
            state.orphans_noted.insert(id);
        }
        out
    }

    /// What went wrong so far: requests that were not OTLP, too large or of an unsupported
    /// encoding, spans that arrived after their turn took its trace, traces dropped to bound
    /// memory.
    ///
    /// ```
    /// let r = agent_test::trace::OtlpReceiver::start().unwrap();
    /// assert!(r.problems().is_empty());
    /// ```
    pub fn problems(&self) -> Vec<String> {
        let state = self.shared.lock();
        let mut out = state.problems.clone();
        out.extend(state.late.iter().cloned());
        if state.dropped > 0 {
            out.push(format!(
                "{} spans were dropped: more than {MAX_SPANS} waited for a turn",
                state.dropped
            ));
        }
        out
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves plain data: go on with it.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn problem(&self, p: String) {
        let mut state = self.lock();
        if state.problems.len() < MAX_PROBLEMS {
            state.problems.push(p);
        } else {
            state.unlisted += 1;
        }
    }

    fn add(&self, spans: Vec<Span>) {
        let now = Instant::now();
        let mut state = self.lock();
        for s in spans {
            if state.taken.contains(&s.trace_id) {
                let note = format!(
                    "span `{}` of trace {} arrived after its turn took the trace",
                    s.name, s.trace_id
                );
                if state.late.len() < MAX_PROBLEMS {
                    state.late.push(note);
                } else {
                    state.unlisted += 1;
                }
                continue;
            }
            state.spans += 1;
            let r = state.traces.entry(s.trace_id.clone()).or_insert(Received {
                spans: Vec::new(),
                first: now,
                last: now,
            });
            r.last = now;
            r.spans.push(s);
        }
        // Bounded: the oldest traces go first.
        while state.spans > MAX_SPANS {
            let Some(oldest) = state
                .traces
                .iter()
                .min_by_key(|(_, r)| r.first)
                .map(|(id, _)| id.clone())
            else {
                break;
            };
            if let Some(r) = state.traces.remove(&oldest) {
                state.spans -= r.spans.len();
                state.dropped += r.spans.len();
            }
        }
        drop(state);
        self.arrived.notify_waiters();
    }
}

async fn serve(listener: std::net::TcpListener, shared: Arc<Shared>) {
    let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
        return;
    };
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        // Small writes go out at once: without it Nagle's algorithm holds an answer's last
        // segment until the exporter acknowledges the previous one, and a peer that delays its
        // acknowledgements (most do, by up to 40 ms) waits that long for every answer.
        let _ = stream.set_nodelay(true);
        let shared = Arc::clone(&shared);
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| {
                let shared = Arc::clone(&shared);
                async move { Ok::<_, std::convert::Infallible>(handle(req, &shared).await) }
            });
            // A connection that breaks is the exporter's problem, never the run's.
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .await;
        });
    }
}

type Response = hyper::Response<http_body_util::Full<bytes::Bytes>>;

fn respond(status: u16, content_type: &str, body: Vec<u8>) -> Response {
    let mut r = hyper::Response::new(http_body_util::Full::new(bytes::Bytes::from(body)));
    *r.status_mut() = hyper::StatusCode::from_u16(status).unwrap_or(hyper::StatusCode::OK);
    if let Ok(v) = hyper::header::HeaderValue::from_str(content_type) {
        r.headers_mut().insert(hyper::header::CONTENT_TYPE, v);
    }
    r
}

fn refuse(shared: &Shared, status: u16, why: String) -> Response {
    shared.lock().refused += 1;
    shared.problem(why.clone());
    respond(status, "text/plain", why.into_bytes())
}

async fn handle(req: hyper::Request<hyper::body::Incoming>, shared: &Shared) -> Response {
    use http_body_util::BodyExt;
    let path = req.uri().path().to_owned();
    let post = req.method() == hyper::Method::POST;
    let header = |name: hyper::header::HeaderName| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.to_ascii_lowercase())
            .unwrap_or_default()
    };
    let content_type = header(hyper::header::CONTENT_TYPE);
    let encoding = header(hyper::header::CONTENT_ENCODING);
    // The body is read before anything is refused: a connection left with an unread body
    // cannot carry the exporter's next request.
    let body = match http_body_util::Limited::new(req.into_body(), MAX_BODY)
        .collect()
        .await
    {
        Ok(b) => b.to_bytes(),
        Err(e) => {
            let mut r = refuse(
                shared,
                413,
                format!(
                    "OTLP receiver: the export could not be read (at most {MAX_BODY} bytes): {e}"
                ),
            );
            // The rest of the body was not read: the connection cannot carry another request.
            r.headers_mut().insert(
                hyper::header::CONNECTION,
                hyper::header::HeaderValue::from_static("close"),
            );
            return r;
        }
    };
    if !post {
        return respond(405, "text/plain", b"POST an OTLP export".to_vec());
    }
    if !matches!(path.as_str(), "/v1/traces" | "/v1/logs" | "/v1/metrics") {
        return refuse(
            shared,
            404,
            format!("OTLP receiver: no endpoint {path}: spans go to /v1/traces"),
        );
    }
    if !encoding.is_empty() && encoding != "identity" {
        return refuse(
            shared,
            415,
            format!(
                "OTLP receiver: `Content-Encoding: {encoding}` is not supported: export uncompressed"
            ),
        );
    }
    let json = content_type.starts_with("application/json");
    if path != "/v1/traces" {
        // Logs and metrics are accepted (an exporter pointed at the receiver for all of its
        // signals keeps working) and not read.
        return ok(json);
    }
    let spans = if json {
        // The project's one strict reader: a key given twice is refused, never "the last
        // one wins" (a doubled `spans` would drop spans silently).
        std::str::from_utf8(&body)
            .map_err(|e| format!("not UTF-8: {e}"))
            .and_then(|text| agent_test_core::util::json::parse(text).map_err(|e| e.to_string()))
            .and_then(|v| {
                agent_test_readers::trace::otel::spans::read(
                    &v,
                    agent_test_readers::trace::TraceFormat::Otel,
                )
                .map_err(|e| e.to_string())
            })
    } else if content_type.starts_with("application/x-protobuf") || content_type.is_empty() {
        protobuf(&body)
    } else {
        return refuse(
            shared,
            415,
            format!(
                "OTLP receiver: unsupported Content-Type `{content_type}`: application/x-protobuf or application/json"
            ),
        );
    };
    match spans {
        Ok(spans) => {
            shared.add(spans);
            ok(json)
        }
        Err(e) => refuse(
            shared,
            400,
            format!("OTLP receiver: not an OTLP trace export: {e}"),
        ),
    }
}

/// An empty `ExportTraceServiceResponse`: success.
fn ok(json: bool) -> Response {
    if json {
        respond(200, "application/json", b"{}".to_vec())
    } else {
        respond(200, "application/x-protobuf", Vec::new())
    }
}

/// A protobuf `ExportTraceServiceRequest`'s spans.
fn protobuf(body: &[u8]) -> Result<Vec<Span>, String> {
    use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
    use prost::Message;
    let request = ExportTraceServiceRequest::decode(body).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for rs in request.resource_spans {
        for ss in rs.scope_spans {
            for s in ss.spans {
                out.push(Span {
                    trace_id: hex(&s.trace_id),
                    span_id: hex(&s.span_id),
                    parent: (!s.parent_span_id.is_empty()).then(|| hex(&s.parent_span_id)),
                    name: s.name,
                    start_ns: s.start_time_unix_nano,
                    end_ns: s.end_time_unix_nano.max(s.start_time_unix_nano),
                    attributes: attributes(&s.attributes),
                    events: s
                        .events
                        .iter()
                        .map(|e| SpanEvent {
                            name: e.name.clone(),
                            time_ns: e.time_unix_nano,
                            attributes: attributes(&e.attributes),
                        })
                        .collect(),
                    error: s
                        .status
                        .as_ref()
                        .filter(|st| st.code == 2)
                        .map(|st| st.message.clone()),
                    unknown_status: s
                        .status
                        .as_ref()
                        .and_then(|st| u64::try_from(st.code).ok())
                        .filter(|c| *c > 2),
                });
            }
        }
    }
    Ok(out)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn attributes(list: &[opentelemetry_proto::tonic::common::v1::KeyValue]) -> Map<String, Value> {
    list.iter()
        .map(|kv| (kv.key.clone(), any_value(kv.value.as_ref(), 0)))
        .collect()
}

/// An `AnyValue` as JSON, as the OTLP/JSON reader gives it.
fn any_value(v: Option<&opentelemetry_proto::tonic::common::v1::AnyValue>, depth: usize) -> Value {
    use opentelemetry_proto::tonic::common::v1::any_value::Value as V;
    if depth > 32 {
        return Value::Null;
    }
    match v.and_then(|v| v.value.as_ref()) {
        None => Value::Null,
        Some(V::StringValue(s)) => Value::String(s.clone()),
        Some(V::BoolValue(b)) => Value::Bool(*b),
        Some(V::IntValue(i)) => Value::from(*i),
        Some(V::DoubleValue(d)) => {
            serde_json::Number::from_f64(*d).map_or(Value::Null, Value::Number)
        }
        Some(V::ArrayValue(a)) => Value::Array(
            a.values
                .iter()
                .map(|x| any_value(Some(x), depth + 1))
                .collect(),
        ),
        Some(V::KvlistValue(kv)) => Value::Object(
            kv.values
                .iter()
                .map(|e| (e.key.clone(), any_value(e.value.as_ref(), depth + 1)))
                .collect(),
        ),
        Some(V::BytesValue(b)) => Value::String(hex(b)),
        #[allow(unreachable_patterns)]
        Some(_) => Value::Null,
    }
}
