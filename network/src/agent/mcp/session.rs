//! A connection to an MCP server (the official Rust SDK, `rmcp`): its tools, calls, resources
//! and prompts, with every failure a message that names the server — and, for a server run
//! over stdio, ends with the last lines it wrote to its standard error.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::{
    CallToolRequestParams, GetPromptRequestParams, JsonObject, ReadResourceRequestParams,
};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use serde_json::{Map, Value};
use tokio::io::AsyncReadExt;

use super::client::{Client, Received, Recording};
use super::process::ServerProcess;
use super::stdout::{Fault, StdoutCheck, StdoutFault};
use super::{McpServer, Transport};
use agent_test_core::compare::schema::Schema;

/// A tool an MCP server offers.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct McpTool {
    pub(crate) name: String,
    pub(crate) description: Option<String>,
    pub(crate) input_schema: Value,
    /// The schema its structured results must satisfy, when it declares one (compiled once,
    /// for every call of the tool).
    pub(crate) output_schema: Option<Schema>,
}

/// What a tool call answered: its result (structured content, else the content as JSON or
/// text), and whether the tool said it failed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Answer {
    pub(crate) result: Value,
    pub(crate) is_error: bool,
    /// The whole `CallToolResult`, as the protocol has it.
    pub(crate) raw: Value,
    /// Its text blocks, joined.
    pub(crate) text: String,
}

/// Why a request got no answer: a protocol error the server sent (the request was wrong — an
/// unknown tool, invalid parameters), the connection failed (the server died or could not be
/// reached), or no answer came within the timeout (the server is alive but silent).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Failure {
    Protocol { code: i32, message: String },
    Connection(String),
    Timeout(Duration),
}

/// The last lines a stdio server wrote to its standard error.
#[derive(Clone, Default)]
struct StderrTail {
    lines: Arc<Mutex<VecDeque<StderrLine>>>,
    /// Becomes true when the server's standard error ends (none for an HTTP server).
    ended: Option<tokio::sync::watch::Receiver<bool>>,
}

/// A line of standard error as read (at most [`STDERR_LINE_BYTES`]), and whether it was cut.
struct StderrLine {
    bytes: Vec<u8>,
    cut: bool,
}

/// Lines kept of a server's standard error.
const STDERR_LINES: usize = 20;

/// How long a failure waits for a server's standard error to end (a bound, not a timing: a
/// server that exited ends it at once; on a busy machine that can take a while).
const SETTLE: Duration = Duration::from_secs(5);

/// Bytes kept of one line: a server may write anything to standard error, in any amount.
const STDERR_LINE_BYTES: usize = 1000;

impl StderrTail {
    /// Reads the server's standard error to its end — so the server never blocks on a full
    /// pipe — keeping the last lines, each cut at [`STDERR_LINE_BYTES`], bytes that are not
    /// UTF-8 replaced.
    fn read(stderr: tokio::process::ChildStderr) -> Self {
        let (ended, ended_rx) = tokio::sync::watch::channel(false);
        let tail = StderrTail {
            lines: Arc::default(),
            ended: Some(ended_rx),
        };
        let lines = tail.clone();
        tokio::spawn(async move {
            let mut stderr = stderr;
            let mut chunk = vec![0u8; 8192];
            let mut line: Vec<u8> = Vec::new();
            let mut cut = false;
            while let Ok(n) = stderr.read(&mut chunk).await {
                if n == 0 {
                    break;
                }
                let read = chunk.get(..n).unwrap_or_default();
                for piece in read.split_inclusive(|b| *b == b'\n') {
                    let (text, ends) = match piece.strip_suffix(b"\n") {
                        Some(text) => (text, true),
                        None => (piece, false),
                    };
                    let room = STDERR_LINE_BYTES.saturating_sub(line.len());
                    line.extend_from_slice(text.get(..room.min(text.len())).unwrap_or_default());
                    cut |= text.len() > room;
                    if ends {
                        lines.push(&line, cut);
                        line.clear();
                        cut = false;
                    }
                }
            }
            if !line.is_empty() {
                lines.push(&line, cut);
            }
            let _ = ended.send(true);
        });
        tail
    }

    /// Waits, at most `max`, for the server's standard error to end: a server that failed is
    /// usually exiting, and its last words are the point of the message.
    async fn settled(&self, max: Duration) {
        if let Some(ended) = &self.ended {
            let mut ended = ended.clone();
            let _ = tokio::time::timeout(max, ended.wait_for(|e| *e)).await;
        }
    }

    /// Keeps a line as read: escaping waits for [`StderrTail::shown`], so that a server
    /// writing megabytes costs a copy per line, not an escape of every byte (which, in a debug
    /// build on a busy machine, outlasted the wait for the tail).
    fn push(&self, line: &[u8], cut: bool) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let mut q = self.lines.lock().unwrap_or_else(|p| p.into_inner());
        if q.len() == STDERR_LINES {
            q.pop_front();
        }
        q.push_back(StderrLine {
            bytes: line.to_vec(),
            cut,
        });
    }

    fn shown(&self) -> String {
        let q = self.lines.lock().unwrap_or_else(|p| p.into_inner());
        if q.is_empty() {
            return String::new();
        }
        let lines: Vec<String> = q
            .iter()
            .map(|line| {
                let mut text = agent_test_core::util::text::escape_bytes(&line.bytes);
                if line.cut {
                    text.push_str(" [...]");
                }
                text
            })
            .collect();
        format!(
            "; its standard error ended with:\n    {}",
            lines.join("\n    ")
        )
    }
}

/// A running client of one server.
pub(crate) struct Session {
    pub(crate) server: McpServer,
    client: Option<RunningService<RoleClient, Client>>,
    /// What the server sent besides its answers (notifications, its own requests).
    pub(crate) received: Received,
    stderr: StderrTail,
    /// A stdio server's process (ended with the session; see [`ServerProcess`]).
    process: Mutex<Option<ServerProcess>>,
    /// What was wrong with a stdio server's standard output, if anything was.
    stdout: StdoutFault,
    pub(crate) tools: Vec<McpTool>,
}

/// What [`Session::start`] brings up.
struct Started {
    client: RunningService<RoleClient, Client>,
    received: Received,
    stderr: StderrTail,
    process: Option<ServerProcess>,
    stdout: StdoutFault,
}

/// Why a server could not start, and what it said meanwhile.
struct NotStarted {
    why: String,
    stderr: StderrTail,
    stdout: StdoutFault,
}

impl Session {
    /// Starts (stdio) or reaches (HTTP) the server, and lists its tools — all within the
    /// server's timeout.
    pub(crate) async fn connect(server: &McpServer) -> Result<Session, String> {
        if let Some(misuse) = &server.misuse {
            return Err(format!("{} is misconfigured: {misuse}", server.describe()));
        }
        // A server that hangs in the handshake is ended with the dropped future: its process
        // guard is inside it.
        let stdout = StdoutFault::default();
        let started =
            tokio::time::timeout(server.timeout, Self::start(server, stdout.clone())).await;
        let started = match started {
            Ok(Ok(started)) => started,
            Ok(Err(e)) => {
                let why = e.stdout.seen().map_or(e.why, |f| stdout_fault(server, &f));
                return Err(format!(
                    "{} could not start: {why}{}",
                    server.describe(),
                    e.stderr.shown()
                ));
            }
            Err(_) => {
                // What a hung server printed is the likeliest reason it hangs (a prompt for
                // input, a line without its end).
                let printed = stdout
                    .unfinished()
                    .map(|line| format!("; its standard output so far (no line end): {line}"))
                    .unwrap_or_default();
                return Err(format!(
                    "{} did not answer the MCP handshake within {} ms{printed}",
                    server.describe(),
                    server.timeout.as_millis()
                ));
            }
        };
        // Answers come from the server, never from rmcp's cache of an earlier answer (which
        // it serves in place of an error): what is tested is what the server says now.
        started
            .client
            .set_response_cache_config(rmcp::ClientCacheConfig::disabled())
            .await;
        let mut session = Session {
            server: server.clone(),
            received: started.received,
            client: Some(started.client),
            stderr: started.stderr,
            process: Mutex::new(started.process),
            stdout: started.stdout,
            tools: Vec::new(),
        };
        let listed = match &session.client {
            Some(c) => tokio::time::timeout(server.timeout, c.list_all_tools()).await,
            None => return Err("the MCP client is closed".into()),
        };
        session.tools = match listed {
            Ok(Ok(tools)) => tools
                .into_iter()
                .map(|t| McpTool {
                    name: t.name.to_string(),
                    description: t.description.map(|d| d.to_string()),
                    input_schema: Value::Object((*t.input_schema).clone()),
                    output_schema: t
                        .output_schema
                        .map(|o| Schema::new(Value::Object((*o).clone()))),
                })
                .collect(),
            Ok(Err(e)) => {
                return Err(session.failure_text("tools/list", &connection(&e)).await);
            }
            Err(_) => {
                let hung = Failure::Timeout(server.timeout);
                return Err(session.failure_text("tools/list", &hung).await);
            }
        };
        Ok(session)
    }

    /// Starts or reaches the server; `stdout` is where a stdio server's output faults are kept
    /// (passed in, so that they are seen when the start times out).
    async fn start(server: &McpServer, stdout: StdoutFault) -> Result<Started, NotStarted> {
        let not = |why: String| NotStarted {
            why,
            stderr: StderrTail::default(),
            stdout: StdoutFault::default(),
        };
        match &server.transport {
            Transport::Stdio { command, args, env } => {
                let mut cmd = tokio::process::Command::new(command);
                cmd.args(args);
                for (k, v) in env {
                    cmd.env(k, v);
                }
                let (process, pipes) =
                    ServerProcess::spawn(cmd, server.grace).map_err(|e| not(e.to_string()))?;
                let fault = stdout;
                let stdout =
                    StdoutCheck::new(pipes.stdout, server.max_message_bytes, fault.clone());
                let stderr = pipes.stderr.map(StderrTail::read).unwrap_or_default();
                // The size limit is ours (a clear failure at once); rmcp's would drop the line
                // and leave the request waiting for its timeout.
                let transport =
                    rmcp::transport::async_rw::AsyncRwTransport::new_client(stdout, pipes.stdin)
                        .with_max_line_length(usize::MAX);
                let received = Received::default();
                let transport = Recording::new(transport, received.clone());
                match Client::new(server.answers.clone()).serve(transport).await {
                    Ok(client) => Ok(Started {
                        client,
                        received,
                        stderr,
                        process: Some(process),
                        stdout: fault,
                    }),
                    Err(e) => {
                        // The server is ended first, so that its standard error ends too.
                        drop(process);
                        stderr.settled(SETTLE).await;
                        Err(NotStarted {
                            why: cause(&e),
                            stderr,
                            stdout: fault,
                        })
                    }
                }
            }
            Transport::Http { url, headers } => {
                use rmcp::transport::StreamableHttpClientTransport;
                use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
                // reqwest is built with rustls and no crypto provider: ring's (another one
                // already installed stays).
                let _ = rustls::crypto::ring::default_provider().install_default();
                let mut map = std::collections::HashMap::new();
                for (k, v) in headers {
                    let name = reqwest::header::HeaderName::from_bytes(k.as_bytes())
                        .map_err(|e| not(format!("header `{k}`: {e}")))?;
                    let value = reqwest::header::HeaderValue::from_str(v.expose())
                        .map_err(|e| not(format!("header `{k}`: {e}")))?;
                    map.insert(name, value);
                }
                let transport = StreamableHttpClientTransport::from_config(
                    StreamableHttpClientTransportConfig::with_uri(url.as_str()).custom_headers(map),
                );
                let received = Received::default();
                let transport = Recording::new(transport, received.clone());
                Client::new(server.answers.clone())
                    .serve(transport)
                    .await
                    .map(|client| Started {
                        client,
                        received,
                        stderr: StderrTail::default(),
                        process: None,
                        stdout: StdoutFault::default(),
                    })
                    .map_err(|e| not(cause(&e)))
            }
        }
    }

    /// What a failed request of `what` says, with the server's standard error (waiting a
    /// moment for its end when the connection failed).
    pub(crate) async fn failure_text(&self, what: &str, f: &Failure) -> String {
        match self.stdout.seen() {
            Some(Fault::TooLong(n)) => {
                return format!(
                    "{} answered {what} with {}",
                    self.server.describe(),
                    oversized(&self.server, n)
                );
            }
            Some(fault) => {
                return format!(
                    "{} failed during {what}: {}{}",
                    self.server.describe(),
                    stdout_fault(&self.server, &fault),
                    self.stderr.shown()
                );
            }
            None => {}
        }
        if let Failure::Connection(_) = f {
            // A server whose connection failed is exiting, or hung with its output closed: it
            // is ended when closed, so that its standard error ends and its last words are
            // whole. A server that only timed out is alive and keeps its standard error open:
            // waiting for its end would add the whole settle bound to every timeout.
            if self.closed() {
                self.end_process();
            }
            self.stderr.settled(SETTLE).await;
        }
        match f {
            Failure::Protocol { code, message } => format!(
                "{} answered {what} with a protocol error {code}: {message}",
                self.server.describe()
            ),
            Failure::Connection(e) => format!(
                "{} failed during {what}: {e}{}",
                self.server.describe(),
                self.stderr.shown()
            ),
            Failure::Timeout(after) => format!(
                "{} failed during {what}: no answer within {} ms{}",
                self.server.describe(),
                after.as_millis(),
                self.stderr.shown()
            ),
        }
    }

    /// Whether the connection to the server is closed.
    fn closed(&self) -> bool {
        self.client.as_ref().is_none_or(RunningService::is_closed)
    }

    /// Ends a stdio server's process now (see [`ServerProcess::shutdown`]).
    fn end_process(&self) {
        let process = self
            .process
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        drop(process);
    }

    fn client(&self) -> Result<&RunningService<RoleClient, Client>, Failure> {
        self.client
            .as_ref()
            .ok_or_else(|| Failure::Connection("the MCP client is closed".into()))
    }

    /// Calls a tool, within the server's timeout; returns the answer and how long it took.
    pub(crate) async fn call_tool(
        &self,
        name: &str,
        arguments: &Value,
    ) -> (Result<Answer, Failure>, Duration) {
        let started = Instant::now();
        let args: Option<JsonObject> = match arguments {
            Value::Object(o) => Some(o.clone()),
            Value::Null => None,
            other => {
                let mut m = Map::new();
                m.insert("value".into(), other.clone());
                Some(m)
            }
        };
        let mut params = CallToolRequestParams::new(name.to_owned());
        if let Some(a) = args {
            params = params.with_arguments(a);
        }
        let result = match self.client() {
            Ok(c) => self.timed(c.call_tool(params)).await,
            Err(e) => Err(e),
        };
        let answer = result.map(|r| {
            let raw = serde_json::to_value(&r).unwrap_or(Value::Null);
            let content = raw.get("content").cloned().unwrap_or(Value::Null);
            let (text, only_text) = rendered(&content);
            // What the tool returned: its structured content; else its text (JSON when it is
            // JSON); else, with images or resources in it, the content blocks themselves.
            let result = match &r.structured_content {
                Some(v) => v.clone(),
                None if only_text => agent_test_readers::trace::json_or_string(&text),
                None => content,
            };
            Answer {
                result,
                is_error: r.is_error.unwrap_or(false),
                raw,
                text,
            }
        });
        (answer, started.elapsed())
    }

    /// The output schema tool `name` declared in the tool list, if any.
    pub(crate) fn output_schema(&self, name: &str) -> Option<&Schema> {
        self.tools
            .iter()
            .find(|t| t.name == name)
            .and_then(|t| t.output_schema.as_ref())
    }

    /// `tools/list`, as the protocol has it.
    pub(crate) async fn list_tools_raw(&self) -> Result<Value, Failure> {
        let c = self.client()?;
        let tools = self.timed(c.list_all_tools()).await?;
        Ok(serde_json::json!({"tools": serde_json::to_value(tools).unwrap_or(Value::Null)}))
    }

    /// `resources/read`: the result, and its text contents joined.
    pub(crate) async fn read_resource(&self, uri: &str) -> Result<(Value, String), Failure> {
        let c = self.client()?;
        let r = self
            .timed(c.read_resource(ReadResourceRequestParams::new(uri.to_owned())))
            .await?;
        let raw = serde_json::to_value(&r).unwrap_or(Value::Null);
        let text = raw
            .get("contents")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|c| c.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n");
        Ok((raw, text))
    }

    /// `prompts/get`: the result, and its messages' text joined.
    pub(crate) async fn get_prompt(
        &self,
        name: &str,
        arguments: &Value,
    ) -> Result<(Value, String), Failure> {
        let c = self.client()?;
        let mut params = GetPromptRequestParams::new(name.to_owned());
        if let Value::Object(o) = arguments {
            params = params.with_arguments(o.clone());
        }
        let r = self.timed(c.get_prompt(params)).await?;
        let raw = serde_json::to_value(&r).unwrap_or(Value::Null);
        let text = r
            .messages
            .iter()
            .filter_map(|m| m.content.as_text().map(|t| t.text.clone()))
            .collect::<Vec<_>>()
            .join("\n");
        Ok((raw, text))
    }

    /// Any other request of a client (`resources/list`, `completion/complete`, `ping`, ...),
    /// its params and result as the protocol has them. Lists are read to their last page.
    pub(crate) async fn request(&self, method: &str, params: Value) -> Result<Value, Failure> {
        use rmcp::model::{ClientRequest, PingRequest};
        let c = self.client()?;
        match method {
            "resources/list" => {
                let all = self.timed(c.list_all_resources()).await?;
                Ok(
                    serde_json::json!({"resources": serde_json::to_value(&all).unwrap_or(Value::Null)}),
                )
            }
            "resources/templates/list" => {
                let all = self.timed(c.list_all_resource_templates()).await?;
                Ok(
                    serde_json::json!({"resourceTemplates": serde_json::to_value(&all).unwrap_or(Value::Null)}),
                )
            }
            "prompts/list" => {
                let all = self.timed(c.list_all_prompts()).await?;
                Ok(
                    serde_json::json!({"prompts": serde_json::to_value(&all).unwrap_or(Value::Null)}),
                )
            }
            "completion/complete" => {
                let r = self.timed(c.complete(typed(method, params)?)).await?;
                Ok(serde_json::to_value(&r).unwrap_or(Value::Null))
            }
            "ping" => {
                let r = self
                    .timed(c.send_request(ClientRequest::PingRequest(PingRequest::default())))
                    .await?;
                Ok(serde_json::to_value(&r).unwrap_or(Value::Null))
            }
            #[allow(deprecated)]
            "logging/setLevel" => {
                self.timed(c.set_level(typed(method, params)?)).await?;
                Ok(serde_json::json!({}))
            }
            #[allow(deprecated)]
            "resources/subscribe" => {
                self.timed(c.subscribe(typed(method, params)?)).await?;
                Ok(serde_json::json!({}))
            }
            #[allow(deprecated)]
            "resources/unsubscribe" => {
                self.timed(c.unsubscribe(typed(method, params)?)).await?;
                Ok(serde_json::json!({}))
            }
            other => Err(Failure::Protocol {
                code: -32601,
                message: format!("agent-test does not send {other}"),
            }),
        }
    }

    async fn timed<T>(
        &self,
        request: impl std::future::Future<Output = Result<T, ServiceError>>,
    ) -> Result<T, Failure> {
        match tokio::time::timeout(self.server.timeout, request).await {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(connection(&e)),
            Err(_) => Err(Failure::Timeout(self.server.timeout)),
        }
    }
}

fn connection(e: &ServiceError) -> Failure {
    match e {
        ServiceError::McpError(data) => Failure::Protocol {
            code: data.code.0,
            message: data.message.to_string(),
        },
        ServiceError::TransportClosed => {
            Failure::Connection("the connection closed (the server exited?)".into())
        }
        other => Failure::Connection(cause(other)),
    }
}

/// A request's params as rmcp types them; params it cannot type are refused before sending,
/// as the server would refuse them (invalid params).
fn typed<T: serde::de::DeserializeOwned>(method: &str, params: Value) -> Result<T, Failure> {
    serde_json::from_value(params).map_err(|e| Failure::Protocol {
        code: -32602,
        message: format!("invalid params for {method}: {e}"),
    })
}

/// An error with its causes, as a sentence: what failed, then why (`source()` after
/// `source()`), so that a transport's failure shows the refused connection or the HTTP status
/// rather than only the transport's type.
///
/// rmcp's wrappers are seen through rather than printed: `DynamicTransportError` prints the
/// transport's Rust type (`Transport [..Recording<..WorkerTransport<..>>]`), and its HTTP
/// client error does not mark the reqwest error inside as its source — without reaching in, a
/// refused connection read "error sending request" and never "refused".
fn cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut next = Some(e);
    for _ in 0..12 {
        let Some(err) = next else { break };
        let (text, inner) = layer(err);
        if let Some(text) = text
            && !parts.iter().any(|p| p.contains(&text))
        {
            parts.push(text);
        }
        next = inner;
    }
    parts.join(": ")
}

/// One error of a chain: its own text (none for a wrapper that only names a type or repeats
/// its inner error), and the error it wraps.
fn layer<'e>(
    err: &'e (dyn std::error::Error + 'static),
) -> (
    Option<String>,
    Option<&'e (dyn std::error::Error + 'static)>,
) {
    use rmcp::service::ClientInitializeError;
    use rmcp::transport::DynamicTransportError;
    use rmcp::transport::streamable_http_client::StreamableHttpError;
    if let Some(ClientInitializeError::TransportError { error, .. }) = err.downcast_ref() {
        return (None, Some(error));
    }
    if let Some(ServiceError::TransportSend(error)) = err.downcast_ref() {
        return (None, Some(error));
    }
    if let Some(d) = err.downcast_ref::<DynamicTransportError>() {
        return (None, Some(&*d.error));
    }
    if let Some(StreamableHttpError::Client(e)) =
        err.downcast_ref::<StreamableHttpError<reqwest::Error>>()
    {
        return (None, Some(e));
    }
    (Some(err.to_string()), err.source())
}

/// What was wrong with a server's standard output, for a failure's text.
fn stdout_fault(server: &McpServer, fault: &Fault) -> String {
    match fault {
        Fault::TooLong(n) => oversized(server, *n),
        Fault::NotMcp(line) => format!(
            "it wrote to its standard output what is not an MCP message: {line} (a stdio \
             server's standard output carries only JSON-RPC messages; logs belong on its \
             standard error)"
        ),
    }
}

/// A message over the size limit, for a failure's text.
fn oversized(server: &McpServer, n: u64) -> String {
    format!(
        "a message of {} ({n} bytes), over the limit of {} (`McpServer::max_message_bytes`, \
         `--mcp-max-message`)",
        agent_test_core::util::text::size(n),
        agent_test_core::util::text::size(server.max_message_bytes)
    )
}

/// A tool result's content as text, for the model and the reply: text blocks as they are,
/// other blocks as a typed placeholder saying what came back (`[image: image/png, 12 KiB]`;
/// an embedded text resource with its text). And whether every block was text.
pub(crate) fn rendered(content: &Value) -> (String, bool) {
    let mut parts = Vec::new();
    let mut only_text = true;
    for block in content.as_array().into_iter().flatten() {
        let field = |k: &str| block.get(k).and_then(Value::as_str).unwrap_or_default();
        let kind = field("type");
        if kind == "text" {
            parts.push(field("text").to_owned());
            continue;
        }
        only_text = false;
        // Base64 carries 3 bytes in 4 characters.
        let decoded = |data: &str| agent_test_core::util::text::size(data.len() as u64 / 4 * 3);
        parts.push(match kind {
            "image" | "audio" => format!(
                "[{kind}: {}, {}]",
                field("mimeType"),
                decoded(field("data"))
            ),
            "resource" => {
                let r = block.get("resource").cloned().unwrap_or(Value::Null);
                let rf = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or_default();
                match r.get("text").and_then(Value::as_str) {
                    Some(text) => format!("[resource {} ({})]\n{text}", rf("uri"), rf("mimeType")),
                    None => format!(
                        "[resource {}: {}, {}]",
                        rf("uri"),
                        rf("mimeType"),
                        decoded(rf("blob"))
                    ),
                }
            }
            "resource_link" => format!(
                "[resource link: {} ({}{})]",
                field("uri"),
                field("name"),
                block
                    .get("mimeType")
                    .and_then(Value::as_str)
                    .map(|m| format!(", {m}"))
                    .unwrap_or_default()
            ),
            other => format!("[{other} content]"),
        });
    }
    (parts.join("\n"), only_text)
}

impl Drop for Session {
    fn drop(&mut self) {
        // rmcp ends its transport from a task of the current runtime; without one, the client
        // is let go rather than panicking — the server's process is ended below either way.
        if let Some(client) = self.client.take()
            && tokio::runtime::Handle::try_current().is_err()
        {
            std::mem::forget(client);
        }
        self.end_process();
    }
}
