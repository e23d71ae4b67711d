//! An MCP server under test, without a model: each turn is one MCP request.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::{Failure, McpServer, Session};
use crate::agent::{Agent, AgentError, AgentRequest, BoxFuture};
use crate::model::{Call, Reply, ToolErrorKind};

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
}

impl McpAgent {
    /// An agent sending its turns to `server`.
    ///
    /// See the type's example.
    pub fn new(server: McpServer) -> Self {
        McpAgent {
            server,
            session: tokio::sync::OnceCell::new(),
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
                 `mcp::list_tools()`, `mcp::read_resource(..)` or `mcp::get_prompt(..)` (got {:?})",
                request.input
            )));
        };
        let request = McpRequest::read(body).map_err(AgentError::new)?;
        let session = self.session().await?;
        match request {
            McpRequest::CallTool { name, arguments } => {
                let arguments = Value::Object(arguments);
                let (answer, took) = session.call_tool(&name, &arguments).await;
                let call = Call::tool(&name, arguments).took_ms(took.as_millis() as u64);
                let node = |call: Call| Call::node(self.server.name()).child(call);
                match answer {
                    Ok(a) => {
                        let call = if a.is_error {
                            call.failed_with(ToolErrorKind::Execution, a.result)
                        } else {
                            call.result(a.result)
                        };
                        Ok(Reply::text(a.text).body(a.raw).call(node(call)))
                    }
                    Err(Failure::Protocol { code, message }) => {
                        let error = json!({"code": code, "message": message});
                        Ok(Reply::text(format!("protocol error {code}: {message}"))
                            .body(json!({"error": error}))
                            .call(node(call.failed_with(ToolErrorKind::Validation, error))))
                    }
                    Err(f) => Err(AgentError::new(
                        session.failure_text("tools/call", &f).await,
                    )),
                }
            }
            McpRequest::ListTools {} => {
                failed(&session, "tools/list", session.list_tools_raw().await)
                    .await
                    .map(|raw| {
                        let names: Vec<&str> = raw["tools"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(|t| t.get("name").and_then(Value::as_str))
                            .collect();
                        Reply::text(names.join(", ")).body(raw.clone())
                    })
            }
            McpRequest::ReadResource { uri } => failed(
                &session,
                "resources/read",
                session.read_resource(&uri).await,
            )
            .await
            .map(|(raw, text)| Reply::text(text).body(raw)),
            McpRequest::GetPrompt { name, arguments } => {
                let arguments = Value::Object(arguments);
                failed(
                    &session,
                    "prompts/get",
                    session.get_prompt(&name, &arguments).await,
                )
                .await
                .map(|(raw, text)| Reply::text(text).body(raw))
            }
        }
    }
}

/// One MCP request, read strictly from a turn's body: a garbled body is the turn's error,
/// never a request for a tool named "" or with its arguments dropped.
#[derive(Debug, serde::Deserialize)]
#[serde(tag = "mcp", deny_unknown_fields)]
enum McpRequest {
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
    fn read(body: &Value) -> Result<McpRequest, String> {
        let request = McpRequest::deserialize(body).map_err(|e| {
            format!(
                "the turn's body is not an MCP request: {e} (expected {{\"mcp\": \"tools/call\", \
                 \"name\": .., \"arguments\": {{..}}}}, {{\"mcp\": \"tools/list\"}}, \
                 {{\"mcp\": \"resources/read\", \"uri\": ..}} or {{\"mcp\": \"prompts/get\", \
                 \"name\": .., \"arguments\": {{..}}}})"
            )
        })?;
        match &request {
            McpRequest::CallTool { name, .. } | McpRequest::GetPrompt { name, .. }
                if name.trim().is_empty() =>
            {
                Err("the turn's body is not an MCP request: `name` is empty".into())
            }
            McpRequest::ReadResource { uri } if uri.trim().is_empty() => {
                Err("the turn's body is not an MCP request: `uri` is empty".into())
            }
            _ => Ok(request),
        }
    }
}

/// A request's result, its failure made the turn's agent error.
async fn failed<T>(session: &Session, what: &str, r: Result<T, Failure>) -> Result<T, AgentError> {
    match r {
        Ok(v) => Ok(v),
        Err(f) => Err(AgentError::new(session.failure_text(what, &f).await)),
    }
}

impl Agent for McpAgent {
    fn respond(&self, request: AgentRequest) -> BoxFuture<'_, Result<Reply, AgentError>> {
        Box::pin(self.turn(request))
    }
}

impl std::fmt::Debug for McpAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpAgent")
            .field("server", &self.server)
            .finish()
    }
}
