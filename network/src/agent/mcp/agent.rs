//! An MCP server under test, without a model: each turn is one MCP request.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::{Failure, McpServer, Session};
use crate::agent::{Agent, AgentError, AgentRequest, BoxFuture};
use agent_test_core::model::{Call, Reply, ToolErrorKind};

/// An MCP server tested directly: each turn sends one MCP request built by
/// [`mcp::call_tool`](super::call_tool), [`mcp::list_tools`](super::list_tools),
/// [`mcp::read_resource`](super::read_resource) or [`mcp::get_prompt`](super::get_prompt), and
/// the answer is the turn's reply, checked with the usual checks:
///
/// - a tool call is the turn's one call — arguments, result (its structured content, else its
///   text content as JSON when it is JSON, else as text), failure and latency — and its text
///   content is the reply's text, the protocol's whole result its body. A result with
///   `isError` is a failed call (an execution error); a protocol error (an unknown tool,
///   invalid parameters) is a failed call of the validation kind with the error as its result;
/// - a tool list, a resource or a prompt is the reply's body (the protocol's result) and text.
///
/// A server that does not start, dies or hangs makes the turn an agent error that names it,
/// with the last lines it wrote to standard error; the run goes on. The server is started on
/// the first turn and stopped with the agent.
///
/// ```no_run
/// use agent_test::prelude::*;
/// use std::time::Duration;
/// use agent_test::agent::{McpAgent, McpServer, mcp};
///
/// agent_test! {
///     agent = McpAgent::new(McpServer::stdio("demo-mcp"));
///
///     scenario search_answers_hotels {
///         user mcp::call_tool("search_hotels", json!({"city": "Lisbon"})) {
///             expect tool("search_hotels").result(contains("Lisbon")).succeeded();
///             expect latency().at_most(Duration::from_millis(500));
///         }
///         user mcp::list_tools() {
///             expect mcp::valid_tool_list();
///         }
///     }
/// }
/// # fn main() {}
/// ```
pub struct McpAgent {
    server: McpServer,
    session: tokio::sync::OnceCell<Result<Arc<Session>, String>>,
    /// What the turn in progress waits for (a timeout's message says it).
    waiting_on: std::sync::Mutex<Option<String>>,
}

impl McpAgent {
    /// An agent sending its turns to `server`.
    ///
    /// See the type's example.
    pub fn new(server: McpServer) -> Self {
        McpAgent {
            server,
            session: tokio::sync::OnceCell::new(),
            waiting_on: std::sync::Mutex::new(None),
        }
    }

    async fn session(&self) -> Result<Arc<Session>, AgentError> {
        self.session
            .get_or_init(|| async { Session::connect(&self.server).await.map(Arc::new) })
            .await
            .clone()
            .map_err(AgentError::new)
    }

    async fn turn(&self, request: AgentRequest) -> Result<Reply, AgentError> {
        let Some(body) = request.custom_body.as_ref() else {
            return Err(AgentError::new(format!(
                "an MCP server under test takes MCP requests, not text: `user mcp::call_tool(..)`, \
                 `mcp::list_tools()`, `mcp::read_resource(..)`, `mcp::request(..)`, ... (got {:?})",
                request.input
            )));
        };
        let request = McpRequest::read(body).map_err(AgentError::new)?;
        self.waiting(Some(format!(
            "waiting for {} to start",
            self.server.describe()
        )));
        let session = self.session().await;
        self.waiting(None);
        let session = session?;
        let method = request.method();
        self.waiting(Some(format!(
            "waiting for {} to answer {method}",
            self.server.describe()
        )));
        let from = session.received.len();
        let reply = self.answer(&session, request).await;
        self.waiting(None);
        let mut reply = reply?;
        // What the server sent while it answered (progress, logs, its own requests), with the
        // answer: checks read them at `notifications` in the body.
        let received = session.received.since(from);
        if !received.is_empty()
            && let Some(Value::Object(body)) = &mut reply.body
        {
            body.insert("notifications".into(), Value::Array(received));
        }
        Ok(reply)
    }

    fn waiting(&self, what: Option<String>) {
        *self
            .waiting_on
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = what;
    }

    async fn answer(&self, session: &Session, request: McpRequest) -> Result<Reply, AgentError> {
        let method = request.method();
        match request {
            McpRequest::CallTool { name, arguments } => {
                let arguments = Value::Object(arguments);
                let (answer, took) = session.call_tool(&name, &arguments).await;
                let call = Call::tool(&name, arguments)
                    .took_ms(u64::try_from(took.as_millis()).unwrap_or(u64::MAX));
                let node = |call: Call| Call::node(self.server.name()).child(call);
                match answer {
                    Ok(a) => {
                        let call = if a.is_error {
                            call.failed_with(ToolErrorKind::Execution, a.result)
                        } else {
                            call.result(a.result)
                        };
                        // The schema its structured result must meet, beside it, for
                        // `valid_structured_output()`.
                        let mut body = a.raw;
                        if let (Some(schema), Value::Object(b)) =
                            (session.output_schema(&name), &mut body)
                        {
                            b.insert("outputSchema".into(), schema.schema().clone());
                        }
                        Ok(Reply::text(a.text).body(body).call(node(call)))
                    }
                    Err(Failure::Protocol { code, message }) => {
                        let error = json!({"code": code, "message": message});
                        Ok(refused(code, &message)
                            .call(node(call.failed_with(ToolErrorKind::Validation, error))))
                    }
                    Err(f) => Err(AgentError::new(session.failure_text(method, &f).await)),
                }
            }
            McpRequest::ListTools => {
                let r = session.list_tools_raw().await;
                answered(session, method, r, |raw| listed(raw, "tools", "name")).await
            }
            McpRequest::ReadResource { uri } => {
                let r = session.read_resource(&uri).await;
                answered(session, method, r, |(raw, text)| {
                    Reply::text(text).body(raw)
                })
                .await
            }
            McpRequest::GetPrompt { name, arguments } => {
                let r = session.get_prompt(&name, &Value::Object(arguments)).await;
                answered(session, method, r, |(raw, text)| {
                    Reply::text(text).body(raw)
                })
                .await
            }
            McpRequest::Other { params, .. } => {
                let r = session.request(method, params).await;
                answered(session, method, r, |raw| match method {
                    "resources/list" => listed(raw, "resources", "uri"),
                    "resources/templates/list" => listed(raw, "resourceTemplates", "uriTemplate"),
                    "prompts/list" => listed(raw, "prompts", "name"),
                    "completion/complete" => {
                        let values: Vec<&str> = raw
                            .pointer("/completion/values")
                            .and_then(Value::as_array)
                            .into_iter()
                            .flatten()
                            .filter_map(Value::as_str)
                            .collect();
                        Reply::text(values.join(", ")).body(raw.clone())
                    }
                    _ => Reply::text("").body(raw),
                })
                .await
            }
        }
    }
}

/// A list result as a reply: the names (or URIs) as the text, the result as the body.
fn listed(raw: Value, key: &str, name: &str) -> Reply {
    let names: Vec<&str> = raw
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| t.get(name).and_then(Value::as_str))
        .collect();
    Reply::text(names.join(", ")).body(raw.clone())
}

/// A protocol error the server answered: the turn's reply, so that a check can assert it
/// (`field("error.code").is(-32002)`), never the turn's failure.
fn refused(code: i32, message: &str) -> Reply {
    Reply::text(format!("protocol error {code}: {message}"))
        .body(json!({"error": {"code": code, "message": message}}))
}

/// A request's outcome as the turn's: its result as a reply; a protocol error as a reply too
/// ([`refused`]); a broken connection as the turn's agent error, naming the server.
async fn answered<T>(
    session: &Session,
    what: &str,
    r: Result<T, Failure>,
    reply: impl FnOnce(T) -> Reply,
) -> Result<Reply, AgentError> {
    match r {
        Ok(v) => Ok(reply(v)),
        Err(Failure::Protocol { code, message }) => Ok(refused(code, &message)),
        Err(f) => Err(AgentError::new(session.failure_text(what, &f).await)),
    }
}

/// One MCP request, read strictly from a turn's body: a garbled body is the turn's error,
/// never a request for a tool named "" or with its arguments dropped.
#[derive(Debug)]
enum McpRequest {
    CallTool {
        name: String,
        arguments: Map<String, Value>,
    },
    ListTools,
    ReadResource {
        uri: String,
    },
    GetPrompt {
        name: String,
        arguments: Map<String, Value>,
    },
    /// Another client request, with its params as the protocol has them.
    Other {
        method: &'static str,
        params: Value,
    },
}

/// The requests [`McpRequest::Other`] sends: `{"mcp": METHOD, "params": {..}}`.
pub(crate) const OTHER_METHODS: [&str; 8] = [
    "resources/list",
    "resources/templates/list",
    "prompts/list",
    "completion/complete",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// The body's shape of the requests with fields of their own.
#[derive(Debug, serde::Deserialize)]
#[serde(tag = "mcp", deny_unknown_fields)]
enum Known {
    #[serde(rename = "tools/call")]
    CallTool {
        name: String,
        #[serde(default)]
        arguments: Map<String, Value>,
    },
    #[serde(rename = "tools/list")]
    ListTools {},
    #[serde(rename = "resources/read")]
    ReadResource { uri: String },
    #[serde(rename = "prompts/get")]
    GetPrompt {
        name: String,
        #[serde(default)]
        arguments: Map<String, Value>,
    },
}

impl McpRequest {
    /// The protocol's name of the request.
    fn method(&self) -> &'static str {
        match self {
            McpRequest::CallTool { .. } => "tools/call",
            McpRequest::ListTools => "tools/list",
            McpRequest::ReadResource { .. } => "resources/read",
            McpRequest::GetPrompt { .. } => "prompts/get",
            McpRequest::Other { method, .. } => method,
        }
    }

    fn read(body: &Value) -> Result<McpRequest, String> {
        let not = |why: String| format!("the turn's body is not an MCP request: {why}");
        let asked = body.get("mcp").and_then(Value::as_str).unwrap_or_default();
        if let Some(method) = OTHER_METHODS.into_iter().find(|m| *m == asked) {
            let o = body
                .as_object()
                .ok_or_else(|| not("expected an object".into()))?;
            if let Some(k) = o.keys().find(|k| *k != "mcp" && *k != "params") {
                return Err(not(format!(
                    "unknown field `{k}` of {method}, expected `mcp` and `params`"
                )));
            }
            let params = o.get("params").cloned().unwrap_or(json!({}));
            if !params.is_object() {
                return Err(not(format!("`params` of {method} is not an object")));
            }
            return Ok(McpRequest::Other { method, params });
        }
        let request = Known::deserialize(body).map_err(|e| {
            not(format!(
                "{e} (expected {{\"mcp\": \"tools/call\", \"name\": .., \"arguments\": {{..}}}}, \
                 {{\"mcp\": \"tools/list\"}}, {{\"mcp\": \"resources/read\", \"uri\": ..}}, \
                 {{\"mcp\": \"prompts/get\", \"name\": .., \"arguments\": {{..}}}}, or \
                 {{\"mcp\": METHOD, \"params\": {{..}}}} for {})",
                OTHER_METHODS.join(", ")
            ))
        })?;
        match request {
            Known::CallTool { name, .. } | Known::GetPrompt { name, .. }
                if name.trim().is_empty() =>
            {
                Err(not("`name` is empty".into()))
            }
            Known::ReadResource { uri } if uri.trim().is_empty() => {
                Err(not("`uri` is empty".into()))
            }
            Known::CallTool { name, arguments } => Ok(McpRequest::CallTool { name, arguments }),
            Known::ListTools {} => Ok(McpRequest::ListTools),
            Known::ReadResource { uri } => Ok(McpRequest::ReadResource { uri }),
            Known::GetPrompt { name, arguments } => Ok(McpRequest::GetPrompt { name, arguments }),
        }
    }
}

impl Agent for McpAgent {
    fn respond(&self, request: AgentRequest) -> BoxFuture<'_, Result<Reply, AgentError>> {
        Box::pin(self.turn(request))
    }

    fn waiting_on(&self) -> Option<String> {
        self.waiting_on
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

impl std::fmt::Debug for McpAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpAgent")
            .field("server", &self.server)
            .finish()
    }
}
