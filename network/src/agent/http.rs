//! An agent reached over HTTP.

use std::borrow::Cow;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::http_body::{default_text, fill, generic_call, is_json_media_type};
use super::wire::{
    DEFAULT_MAX_BODY_BYTES, Redactor, Secret, client, excerpt, read_body, request_error, shown_url,
};
use super::{Agent, AgentError, AgentRequest, BoxFuture};
use agent_test_core::compare::path::FieldPath;
use agent_test_core::model::{Gap, Part, Reply};
use agent_test_core::util::text::compact;
use agent_test_readers::trace::{self, TraceFormat};

/// An agent behind an HTTP endpoint: each turn is one request, built from a JSON template, and
/// the response becomes the turn's reply.
///
/// **Request.** The body is the template with placeholders filled: `"{input}"` (the user's
/// message), `"{messages}"` (the conversation so far as OpenAI-style messages), `"{context}"`
/// (the context variables), `"{session_id}"` (see [`HttpAgent::session_id_from`]) and
/// `"{NAME}"` for any context variable. A string that is exactly a placeholder takes the value
/// (a number stays a number); placeholders inside longer strings are replaced by text. The
/// default template is `{"input": "{input}", "messages": "{messages}", "context": "{context}",
/// "session_id": "{session_id}"}`. A turn with a custom body ([`custom_body`](super::custom_body))
/// sends that body instead.
///
/// **Response.** The status and time are recorded; a non-2xx answer is a reply like any other
/// (so `http_status(..)` sees it), not an error. A JSON body is kept as the turn's body; the
/// reply text, tool calls and usage come from the paths you give, else from a trace format the
/// body is in (OpenAI, Responses API, Anthropic, Gemini, LangChain, Mibo, MorganaBench, n8n),
/// else from the first of `reply`, `response`, `output`, `text`, `message`, `answer`, `content`.
/// A non-2xx answer whose body has none of these (nor the `reply_at` path) shows the server's
/// error message (`error`, `error.message`), else the body itself, as its text.
///
/// **Broken answers are agent errors, never replies.** No answer within the timeout, a refused
/// connection or a body over 10 MiB; a body that is not UTF-8 (unless
/// [`HttpAgent::lossy_utf8`]); a body that is not JSON although JSON was expected — its
/// `Content-Type` says JSON (`application/json`, `…+json`), or, for a 2xx answer, a path or
/// trace format is configured ([`reply_at`](HttpAgent::reply_at),
/// [`tool_calls_at`](HttpAgent::tool_calls_at), [`session_id_from`](HttpAgent::session_id_from),
/// [`trace_format`](HttpAgent::trace_format)); a 2xx answer without the `reply_at` path; tool
/// calls at `tool_calls_at` that are not a list of named calls (an absent or `null` list is no
/// calls). The message names the URL, the status and the problem, with an excerpt of the body;
/// the turn keeps the HTTP status. Otherwise a body that is not JSON is the reply text.
///
/// Header values set with [`HttpAgent::secret_header`] or [`HttpAgent::bearer_token`] never
/// appear in reports, recordings, logs or `Debug` output: they are replaced by `***` in
/// everything the agent records (reply text, body, tool calls) and in its errors, whatever the
/// server sends back.
///
/// ```no_run
/// use agent_test::agent::HttpAgent;
/// use serde_json::json;
/// let agent = HttpAgent::post("https://support.example.com/chat")
///     .bearer_token(std::env::var("SUPPORT_API_KEY").unwrap_or_default())
///     .body_template(json!({"prompt": "{input}", "user_id": "{USER_ID}", "mode": "test"}))
///     .session_id_from("session.id")
///     .reply_at("data.answer");
/// ```
pub struct HttpAgent {
    url: String,
    method: reqwest::Method,
    headers: Vec<(String, HeaderValue)>,
    template: Value,
    session_from: Option<FieldPath>,
    reply_at: Option<FieldPath>,
    calls_at: Option<FieldPath>,
    format: Option<TraceFormat>,
    timeout: Duration,
    max_body_bytes: usize,
    lossy_utf8: bool,
    session: Mutex<Option<Value>>,
    /// Built on first use, then reused (and shared by clones): a client holds the
    /// connection pool and TLS setup.
    client: Arc<OnceLock<Result<reqwest::Client, AgentError>>>,
    /// The secret headers' values, removed from everything recorded; built on first use.
    redactor: OnceLock<Redactor>,
    /// Where the agent's spans arrive, when its tool calls come from them.
    #[cfg(feature = "otlp")]
    traces: Option<super::http_traces::Traces>,
}

#[derive(Clone)]
enum HeaderValue {
    Plain(String),
    Secret(Secret),
}

impl HeaderValue {
    fn value(&self) -> &str {
        match self {
            HeaderValue::Plain(v) => v,
            HeaderValue::Secret(s) => s.expose(),
        }
    }
}

impl HttpAgent {
    /// An agent answering `POST` requests at `url`.
    ///
    /// See the type's example.
    pub fn post(url: impl Into<String>) -> Self {
        HttpAgent {
            url: url.into(),
            method: reqwest::Method::POST,
            headers: Vec::new(),
            template: json!({"input": "{input}", "messages": "{messages}", "context": "{context}", "session_id": "{session_id}"}),
            session_from: None,
            reply_at: None,
            calls_at: None,
            format: None,
            timeout: Duration::from_secs(60),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            lossy_utf8: false,
            session: Mutex::new(None),
            client: Arc::default(),
            redactor: OnceLock::new(),
            #[cfg(feature = "otlp")]
            traces: None,
        }
    }

    /// Reads the agent's tool calls (and usage, and its reply if the body has none) from the
    /// OpenTelemetry spans it exports to `receiver`, for an agent whose HTTP answer carries
    /// only its reply: each request carries a W3C `traceparent` header starting a new trace;
    /// the agent continues it (any OpenTelemetry SDK does, with the W3C propagator) and exports
    /// its spans to the receiver (`OTEL_EXPORTER_OTLP_ENDPOINT` set to
    /// [`OtlpReceiver::endpoint`](crate::otlp::OtlpReceiver::endpoint)); after the answer the
    /// turn waits for them (see [`HttpAgent::trace_wait`]) and reads them by the GenAI
    /// conventions or OpenInference (see [`TraceFormat::Otel`](agent_test_readers::trace::TraceFormat::Otel)).
    ///
    /// The spans' calls are the turn's unless the body listed calls itself; their usage is the
    /// turn's unless the body gave some. A turn whose spans do not arrive is an agent error
    /// (its tool calls are unknown: no check on them may pass); spans that arrive late or
    /// belong to no turn, and exports the receiver refused, are noted in the report.
    ///
    /// ```no_run
    /// use agent_test::agent::HttpAgent;
    /// use agent_test::trace::OtlpReceiver;
    /// let receiver = OtlpReceiver::bind("127.0.0.1:4318").unwrap();
    /// let agent = HttpAgent::post("http://127.0.0.1:8080/chat").traces_from(&receiver);
    /// # let _ = agent;
    /// ```
    #[cfg(feature = "otlp")]
    pub fn traces_from(mut self, receiver: &crate::otlp::OtlpReceiver) -> Self {
        self.traces = Some(super::http_traces::Traces {
            receiver: receiver.clone(),
            max_wait: Duration::from_secs(2),
            settle: Duration::from_millis(50),
        });
        self
    }

    /// How long a turn waits for its spans after the answer (default 2 s): until the agent's
    /// root span has arrived and no span has for a moment (exporters batch), at most this
    /// long. Give a batching exporter's delay here, or have it export at once.
    ///
    /// ```
    /// # use agent_test::{agent::HttpAgent, trace::OtlpReceiver};
    /// # use std::time::Duration;
    /// let r = OtlpReceiver::start().unwrap();
    /// let agent = HttpAgent::post("http://127.0.0.1:8080/chat").traces_from(&r).trace_wait(Duration::from_secs(6));
    /// # let _ = agent;
    /// ```
    #[cfg(feature = "otlp")]
    pub fn trace_wait(mut self, max_wait: Duration) -> Self {
        if let Some(t) = &mut self.traces {
            t.max_wait = max_wait;
        }
        self
    }

    /// Uses another HTTP method (`PUT`, `PATCH`, ...). An invalid method name keeps `POST`.
    ///
    /// ```
    /// # use agent_test::agent::HttpAgent;
    /// let agent = HttpAgent::post("http://localhost:8080/agent").method("PUT");
    /// # let _ = agent;
    /// ```
    pub fn method(mut self, method: &str) -> Self {
        if let Ok(m) = reqwest::Method::from_bytes(method.to_ascii_uppercase().as_bytes()) {
            self.method = m;
        }
        self
    }

    /// Adds a header.
    ///
    /// ```
    /// # use agent_test::agent::HttpAgent;
    /// let agent = HttpAgent::post("http://localhost:8080/agent").header("X-Tenant", "acme");
    /// # let _ = agent;
    /// ```
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers
            .push((name.into(), HeaderValue::Plain(value.into())));
        self
    }

    /// Adds a header whose value is secret (redacted everywhere).
    ///
    /// ```
    /// # use agent_test::agent::HttpAgent;
    /// let agent = HttpAgent::post("http://localhost:8080/agent").secret_header("X-Api-Key", "k-123");
    /// assert!(!format!("{agent:?}").contains("k-123"));
    /// ```
    pub fn secret_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers
            .push((name.into(), HeaderValue::Secret(Secret::new(value))));
        self
    }

    /// `Authorization: Bearer <token>`, as a secret.
    ///
    /// See the type's example.
    pub fn bearer_token(self, token: impl Into<String>) -> Self {
        let token = token.into();
        self.secret_header("Authorization", format!("Bearer {token}"))
    }

    /// The request body template (see the type's docs for placeholders).
    ///
    /// See the type's example.
    pub fn body_template(mut self, template: Value) -> Self {
        self.template = template;
        self
    }

    /// The server keeps the conversation: read a session id at this path of each response and
    /// send it back as `"{session_id}"` in later requests.
    ///
    /// See the type's example.
    pub fn session_id_from(mut self, path: impl Into<String>) -> Self {
        self.session_from = Some(FieldPath::new(path));
        self
    }

    /// The reply text is the string at this path of the response.
    ///
    /// See the type's example.
    pub fn reply_at(mut self, path: impl Into<String>) -> Self {
        self.reply_at = Some(FieldPath::new(path));
        self
    }

    /// The tool calls are the array at this path: items with `name`, `arguments` (or `args`,
    /// `input`), `result` (or `output`), `error` and, for a failed call, `error_kind` (or
    /// `error_type`): `validation` or `execution`.
    ///
    /// ```
    /// # use agent_test::agent::HttpAgent;
    /// let agent = HttpAgent::post("http://localhost:8080/agent").tool_calls_at("trace.tools");
    /// # let _ = agent;
    /// ```
    pub fn tool_calls_at(mut self, path: impl Into<String>) -> Self {
        self.calls_at = Some(FieldPath::new(path));
        self
    }

    /// Read responses as this trace format instead of detecting it.
    ///
    /// ```
    /// # use agent_test::{agent::HttpAgent, trace::TraceFormat};
    /// let agent = HttpAgent::post("http://localhost:8080/webhook").trace_format(TraceFormat::N8n);
    /// # let _ = agent;
    /// ```
    pub fn trace_format(mut self, format: TraceFormat) -> Self {
        self.format = Some(format);
        self
    }

    /// How long one request may take (default 60 s).
    ///
    /// ```
    /// # use agent_test::agent::HttpAgent;
    /// let agent = HttpAgent::post("http://localhost:8080/agent").timeout(std::time::Duration::from_secs(5));
    /// # let _ = agent;
    /// ```
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The largest response body accepted (default 10 MiB).
    ///
    /// ```
    /// # use agent_test::agent::HttpAgent;
    /// let agent = HttpAgent::post("http://localhost:8080/agent").max_body_bytes(1 << 20);
    /// # let _ = agent;
    /// ```
    pub fn max_body_bytes(mut self, max: usize) -> Self {
        self.max_body_bytes = max;
        self
    }

    /// Reads bodies that are not valid UTF-8 anyway, replacing each invalid sequence with
    /// `�` (U+FFFD), for services that answer in another encoding. Without it such a body is
    /// an agent error: text read wrongly could pass checks it should fail.
    ///
    /// ```
    /// # use agent_test::agent::HttpAgent;
    /// let legacy = HttpAgent::post("http://localhost:8080/agent").lossy_utf8();
    /// # let _ = legacy;
    /// ```
    pub fn lossy_utf8(mut self) -> Self {
        self.lossy_utf8 = true;
        self
    }

    fn redactor(&self) -> &Redactor {
        self.redactor.get_or_init(|| {
            Redactor::new(self.headers.iter().filter_map(|(_, v)| match v {
                HeaderValue::Secret(s) => Some(s),
                HeaderValue::Plain(_) => None,
            }))
        })
    }

    fn session(&self) -> Option<Value> {
        match self.session.lock() {
            Ok(g) => g.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }

    fn set_session(&self, value: Option<Value>) {
        match self.session.lock() {
            Ok(mut g) => *g = value,
            Err(p) => *p.into_inner() = value,
        }
    }

    /// The request body for a turn.
    fn body(&self, request: &AgentRequest) -> Value {
        if let Some(body) = &request.custom_body {
            return body.clone();
        }
        let messages: Vec<Value> = request
            .messages
            .iter()
            .map(|m| json!({"role": m.role.as_str(), "content": m.content}))
            .collect();
        let mut vars: Map<String, Value> = request
            .context
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        vars.insert("input".into(), Value::String(request.input.clone()));
        vars.insert("messages".into(), Value::Array(messages));
        vars.insert(
            "context".into(),
            serde_json::to_value(&request.context).unwrap_or(Value::Null),
        );
        vars.insert("session_id".into(), self.session().unwrap_or(Value::Null));
        fill(&self.template, &vars)
    }

    async fn turn(&self, request: AgentRequest) -> Result<Reply, AgentError> {
        let http = self
            .client
            .get_or_init(|| client(self.timeout))
            .as_ref()
            .map_err(Clone::clone)?;
        // The agent's own timeout, whichever clone built the shared client.
        let mut builder = http
            .request(self.method.clone(), &self.url)
            .timeout(self.timeout)
            .json(&self.body(&request));
        for (name, value) in &self.headers {
            builder = builder.header(name.as_str(), value.value());
        }
        #[cfg(feature = "otlp")]
        let context = self
            .traces
            .as_ref()
            .map(|t| super::http_traces::TraceContext::new(t.receiver.refusals()));
        #[cfg(feature = "otlp")]
        if let Some(c) = &context {
            builder = builder.header("traceparent", c.traceparent());
        }
        let response = builder
            .send()
            .await
            .map_err(|e| request_error(&e, &self.url, self.timeout))?;
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        let bytes = read_body(response, self.max_body_bytes, &self.url, self.timeout).await?;
        let reply = self
            .read(status, content_type.as_deref(), &bytes)
            .map_err(|problem| {
                // The turn keeps the status, so `http_status` checks on the conversation see it.
                let mut status_only = Reply::default();
                status_only.http_status = Some(status);
                AgentError::new(format!(
                    "the response from {} (HTTP {status}) {problem}",
                    shown_url(&self.url)
                ))
                .with_partial(status_only)
            })?;
        #[cfg(feature = "otlp")]
        if let (Some(traces), Some(context)) = (&self.traces, &context) {
            return traces.merge(context, reply).await;
        }
        Ok(reply)
    }

    /// The reply in a response, or what is wrong with it (the rest of a sentence that starts
    /// with "the response from <url> (HTTP <status>)").
    fn read(&self, status: u16, content_type: Option<&str>, bytes: &[u8]) -> Result<Reply, String> {
        let text = match std::str::from_utf8(bytes) {
            Ok(t) => Cow::Borrowed(t),
            Err(_) if self.lossy_utf8 => String::from_utf8_lossy(bytes),
            Err(e) => {
                return Err(format!(
                    "is not valid UTF-8 (at byte {}; `.lossy_utf8()` reads it anyway): {}",
                    e.valid_up_to(),
                    excerpt(&String::from_utf8_lossy(bytes))
                ));
            }
        };
        let success = (200..300).contains(&status);
        let mut reply = match serde_json::from_str::<Value>(&text) {
            Ok(json) => self.read_json(json, success)?,
            Err(e) => match self.json_expected(content_type, success) {
                Some(why) if text.trim().is_empty() => {
                    return Err(format!("is empty, though {why}"));
                }
                Some(why) => {
                    return Err(format!(
                        "is not valid JSON, though {why}: {e}: {}",
                        excerpt(&text)
                    ));
                }
                None => Reply::text(text.into_owned()),
            },
        };
        reply.http_status = Some(status);
        Ok(reply)
    }

    /// Why the body must be JSON, if it must: its Content-Type says so, or (for a 2xx answer:
    /// an error page need not have the success shape) the agent is configured to read JSON.
    fn json_expected(&self, content_type: Option<&str>, success: bool) -> Option<String> {
        if let Some(ct) = content_type.filter(|ct| is_json_media_type(ct)) {
            return Some(format!("its Content-Type is `{ct}`"));
        }
        if !success {
            return None;
        }
        let configured = [
            (self.reply_at.is_some(), "`.reply_at(..)`"),
            (self.calls_at.is_some(), "`.tool_calls_at(..)`"),
            (self.session_from.is_some(), "`.session_id_from(..)`"),
            (self.format.is_some(), "`.trace_format(..)`"),
        ];
        configured
            .iter()
            .find(|(set, _)| *set)
            .map(|(_, what)| format!("{what} is set"))
    }

    fn read_json(&self, json: Value, success: bool) -> Result<Reply, String> {
        if let Some(path) = &self.session_from
            && let Some(id) = path.get(&json)
        {
            self.set_session(Some(id.clone()));
        }
        let format = self.format.or_else(|| trace::detect(&json));
        let mut reply = match format {
            Some(f) => {
                let t = trace::parse(&json, Some(f))
                    .map_err(|e| format!("is not a valid {f} trace: {e}"))?;
                t.turns
                    .into_iter()
                    .last()
                    .map(|t| t.reply)
                    .unwrap_or_default()
            }
            None => Reply::text(default_text(&json)),
        };
        if let Some(path) = &self.reply_at {
            reply.text = match path.get(&json) {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) => String::new(),
                Some(other) => compact(other),
                // What is missing makes the checks that need it errors; the rest of the
                // answer (its status, its fields) is still there to check.
                None if success => {
                    reply.gaps.push(Gap::new(
                        Part::ReplyText,
                        format!(
                            "the answer has no `{}`, where `.reply_at(..)` says the reply is: {}",
                            path.as_str(),
                            excerpt(&compact(&json))
                        ),
                    ));
                    String::new()
                }
                // An error answer has its own shape: show what the server said.
                None => default_text(&json),
            };
        }
        if !success && reply.text.is_empty() {
            reply.text = compact(&json);
        }
        if let Some(path) = &self.calls_at {
            let calls = match path.get(&json) {
                // APIs leave an empty list out.
                None | Some(Value::Null) => Ok(Vec::new()),
                Some(Value::Array(items)) => items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| {
                        generic_call(item).ok_or_else(|| {
                            format!(
                                "the answer has a tool call without a `name` at `{}[{i}]`: {}",
                                path.as_str(),
                                excerpt(&compact(item))
                            )
                        })
                    })
                    .collect::<Result<_, _>>(),
                Some(other) => Err(format!(
                    "the answer has no list of tool calls at `{}` (`.tool_calls_at(..)`): {}",
                    path.as_str(),
                    excerpt(&compact(other))
                )),
            };
            // Calls that cannot be read make the checks of calls errors, not the whole turn.
            match calls {
                Ok(calls) => reply.calls = calls,
                Err(why) => reply.gaps.push(Gap::new(Part::Calls, why)),
            }
        }
        reply.body = Some(json);
        Ok(reply)
    }
}

/// A clone is the same agent in a new conversation: the same settings, no session id yet, and
/// the same connection pool — what runs many scenarios against one endpoint at once use (the
/// `agent-test run` command does). Clones are meant for one async runtime: a pool's
/// connections belong to the runtime that opened them.
///
/// ```
/// use agent_test::agent::HttpAgent;
/// let agent = HttpAgent::post("http://127.0.0.1:8080/chat").session_id_from("session.id");
/// let for_the_next_scenario = agent.clone();
/// # let _ = for_the_next_scenario;
/// ```
impl Clone for HttpAgent {
    fn clone(&self) -> Self {
        HttpAgent {
            url: self.url.clone(),
            method: self.method.clone(),
            headers: self.headers.clone(),
            template: self.template.clone(),
            session_from: self.session_from.clone(),
            reply_at: self.reply_at.clone(),
            calls_at: self.calls_at.clone(),
            format: self.format,
            timeout: self.timeout,
            max_body_bytes: self.max_body_bytes,
            lossy_utf8: self.lossy_utf8,
            session: Mutex::new(None),
            client: Arc::clone(&self.client),
            redactor: OnceLock::new(),
            #[cfg(feature = "otlp")]
            traces: self.traces.clone(),
        }
    }
}

impl Agent for HttpAgent {
    /// One turn, with the secret headers' values redacted from the reply and the error: the
    /// one place everything the agent records passes through.
    fn respond(&self, request: AgentRequest) -> BoxFuture<'_, Result<Reply, AgentError>> {
        Box::pin(async move {
            let result = self.turn(request).await;
            self.redactor().result(result)
        })
    }
}

impl fmt::Debug for HttpAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headers: Vec<String> = self
            .headers
            .iter()
            .map(|(n, v)| match v {
                HeaderValue::Plain(p) => format!("{n}: {p}"),
                HeaderValue::Secret(_) => format!("{n}: ***"),
            })
            .collect();
        f.debug_struct("HttpAgent")
            .field("method", &self.method.as_str())
            .field("url", &super::wire::shown_url(&self.url))
            .field("headers", &headers)
            .field("timeout", &self.timeout)
            .finish()
    }
}
