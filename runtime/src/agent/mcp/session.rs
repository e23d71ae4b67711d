//! A connection to an MCP server (the official Rust SDK, `rmcp`): its tools, calls, resources
//! and prompts, with every failure a message that names the server — and, for a server run
//! over stdio, ends with the last lines it wrote to its standard error.

use std::collections::VecDeque;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ContentBlock, GetPromptRequestParams,
    Implementation, JsonObject, ReadResourceRequestParams,
};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use serde_json::{Map, Value};
use tokio::io::AsyncReadExt;

use super::{McpServer, Transport};

/// A tool an MCP server offers.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct McpTool {
    pub(crate) name: String,
    pub(crate) description: Option<String>,
    pub(crate) input_schema: Value,
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
/// unknown tool, invalid parameters), or the connection failed (the server died, hung, or
/// could not be reached).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Failure {
    Protocol { code: i32, message: String },
    Connection(String),
}

/// The last lines a stdio server wrote to its standard error.
#[derive(Clone, Default)]
struct StderrTail {
    lines: Arc<Mutex<VecDeque<String>>>,
    /// Becomes true when the server's standard error ends (none for an HTTP server).
    ended: Option<tokio::sync::watch::Receiver<bool>>,
}

/// Lines kept of a server's standard error.
const STDERR_LINES: usize = 20;

/// How long a failure waits for a server's standard error to end.
const SETTLE: Duration = Duration::from_millis(500);

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
                for &b in &chunk[..n] {
                    if b == b'\n' {
                        lines.push(&line, cut);
                        line.clear();
                        cut = false;
                    } else if line.len() < STDERR_LINE_BYTES {
                        line.push(b);
                    } else {
                        cut = true;
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

    fn push(&self, line: &[u8], cut: bool) {
        let mut text = String::from_utf8_lossy(line)
            .trim_end_matches('\r')
            .to_owned();
        if cut {
            text.push_str(" [...]");
        }
        let mut q = self.lines.lock().unwrap_or_else(|p| p.into_inner());
        if q.len() == STDERR_LINES {
            q.pop_front();
        }
        q.push_back(text);
    }

    fn shown(&self) -> String {
        let q = self.lines.lock().unwrap_or_else(|p| p.into_inner());
        if q.is_empty() {
            return String::new();
        }
        let lines: Vec<&str> = q.iter().map(String::as_str).collect();
        format!(
            "; its standard error ended with:\n    {}",
            lines.join("\n    ")
        )
    }
}

/// A running client of one server.
pub(crate) struct Session {
    pub(crate) server: McpServer,
    client: Option<RunningService<RoleClient, ClientConfig>>,
    stderr: StderrTail,
    pub(crate) tools: Vec<McpTool>,
}

fn client_config() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("agent-test", env!("CARGO_PKG_VERSION")),
    )
}

impl Session {
    /// Starts (stdio) or reaches (HTTP) the server, and lists its tools — all within the
    /// server's timeout.
    pub(crate) async fn connect(server: &McpServer) -> Result<Session, String> {
        if let Some(misuse) = &server.misuse {
            return Err(format!("{} is misconfigured: {misuse}", server.describe()));
        }
        let started = tokio::time::timeout(server.timeout, Self::start(server)).await;
        let (client, stderr) = match started {
            Ok(Ok(pair)) => pair,
            Ok(Err((e, stderr))) => {
                return Err(format!(
                    "{} could not start: {e}{}",
                    server.describe(),
                    stderr.shown()
                ));
            }
            Err(_) => {
                return Err(format!(
                    "{} did not answer the MCP handshake within {} ms",
                    server.describe(),
                    server.timeout.as_millis()
                ));
            }
        };
        let mut session = Session {
            server: server.clone(),
            client: Some(client),
            stderr,
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
                })
                .collect(),
            Ok(Err(e)) => {
                return Err(session.failure_text("tools/list", &connection(&e)).await);
            }
            Err(_) => {
                let hung = Failure::Connection(format!(
                    "no answer within {} ms",
                    server.timeout.as_millis()
                ));
                return Err(session.failure_text("tools/list", &hung).await);
            }
        };
        Ok(session)
    }

    #[allow(clippy::type_complexity)]
    async fn start(
        server: &McpServer,
    ) -> Result<(RunningService<RoleClient, ClientConfig>, StderrTail), (String, StderrTail)> {
        match &server.transport {
            Transport::Stdio { command, args, env } => {
                use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
                let cmd = tokio::process::Command::new(command).configure(|c| {
                    c.args(args);
                    for (k, v) in env {
                        c.env(k, v);
                    }
                });
                let (transport, stderr) = TokioChildProcess::builder(cmd)
                    .stderr(Stdio::piped())
                    .spawn()
                    .map_err(|e| (e.to_string(), StderrTail::default()))?;
                let tail = stderr.map(StderrTail::read).unwrap_or_default();
                match client_config().serve(transport).await {
                    Ok(c) => Ok((c, tail)),
                    Err(e) => {
                        tail.settled(SETTLE).await;
                        Err((e.to_string(), tail))
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
                        .map_err(|e| (format!("header `{k}`: {e}"), StderrTail::default()))?;
                    let value = reqwest::header::HeaderValue::from_str(v.expose())
                        .map_err(|e| (format!("header `{k}`: {e}"), StderrTail::default()))?;
                    map.insert(name, value);
                }
                let transport = StreamableHttpClientTransport::from_config(
                    StreamableHttpClientTransportConfig::with_uri(url.as_str()).custom_headers(map),
                );
                client_config()
                    .serve(transport)
                    .await
                    .map(|c| (c, StderrTail::default()))
                    .map_err(|e| (e.to_string(), StderrTail::default()))
            }
        }
    }

    /// What a failed request of `what` says, with the server's standard error (waiting a
    /// moment for its end when the connection failed).
    pub(crate) async fn failure_text(&self, what: &str, f: &Failure) -> String {
        if let Failure::Connection(_) = f {
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
        }
    }

    fn client(&self) -> Result<&RunningService<RoleClient, ClientConfig>, Failure> {
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
            let text = text_of(&r.content);
            let result = match &r.structured_content {
                Some(v) => v.clone(),
                None => crate::trace::json_or_string(&text),
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

    async fn timed<T>(
        &self,
        request: impl std::future::Future<Output = Result<T, ServiceError>>,
    ) -> Result<T, Failure> {
        match tokio::time::timeout(self.server.timeout, request).await {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(connection(&e)),
            Err(_) => Err(Failure::Connection(format!(
                "no answer within {} ms",
                self.server.timeout.as_millis()
            ))),
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
        other => Failure::Connection(other.to_string()),
    }
}

fn text_of(content: &[ContentBlock]) -> String {
    content
        .iter()
        .filter_map(|b| b.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Drop for Session {
    fn drop(&mut self) {
        // rmcp ends a stdio server from a task of the current runtime; without one, the
        // client is let go (the server sees its input close and exits) rather than panicking.
        if let Some(client) = self.client.take()
            && tokio::runtime::Handle::try_current().is_err()
        {
            std::mem::forget(client);
        }
    }
}
