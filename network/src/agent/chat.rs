//! A model with tools as the agent: OpenAI-compatible chat completions with mocked tools.

mod step;

use std::fmt;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::wire::{Redactor, Secret, client, env, shown_url};
use super::{Agent, AgentError, AgentRequest, BoxFuture};
use agent_test_core::model::{Call, Reply, Usage, usage_in};

type MockFn = dyn Fn(&Value) -> Result<Value, String> + Send + Sync;

/// What a mocked tool answers.
#[derive(Clone)]
pub enum Mock {
    /// Always this value.
    Value(Value),
    /// A closure over the call's arguments; `Err` is returned to the model as the tool's error.
    Fn(Arc<MockFn>),
}

impl fmt::Debug for Mock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mock::Value(v) => write!(f, "Value({v})"),
            Mock::Fn(_) => f.write_str("Fn(..)"),
        }
    }
}

/// The model *is* the agent (prompt testing): an OpenAI-compatible chat-completions endpoint
/// (OpenAI, Ollama, vLLM, llama.cpp, ...) given a system prompt and tool definitions. When the
/// model calls a tool, the call is answered from a mock declared in the test — a value, or a
/// closure over the arguments — and the model continues, until it answers or the step limit
/// (8 by default) is hit. Every call, with its arguments and mocked result, is recorded; usage
/// is summed over the steps.
///
/// The endpoint and key come from the environment unless set: `AGENT_TEST_BASE_URL` or
/// `OPENAI_BASE_URL` (default `https://api.openai.com/v1`), `AGENT_TEST_API_KEY` or
/// `OPENAI_API_KEY`. Temperature is 0 unless set. The key never appears in reports,
/// recordings or `Debug` output: it is replaced with `***` in the replies and errors the agent
/// records, even when the endpoint echoes it back.
///
/// ```no_run
/// use agent_test::agent::ChatAgent;
/// use serde_json::json;
/// let agent = ChatAgent::new("gpt-4o-mini")
///     .system("You are a support agent for Acme. Use the tools.")
///     .tool("lookup_order", "Look an order up by id", json!({
///         "type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]
///     }))
///     .mock("lookup_order", json!({"status": "delivered", "total": 42.5}))
///     .mock_fn("process_refund", |args| {
///         if args["amount"].as_f64() > Some(100.0) { Err("amount too high".into()) } else { Ok(json!({"refund_id": "RF-1"})) }
///     });
/// ```
pub struct ChatAgent {
    base_url: String,
    api_key: Option<Secret>,
    model: String,
    system: Option<String>,
    tools: Vec<(String, String, Value)>,
    mocks: Vec<(String, Mock)>,
    max_steps: usize,
    temperature: Option<f64>,
    params: Map<String, Value>,
    timeout: Duration,
    client: OnceLock<Result<reqwest::Client, AgentError>>,
    /// The key, removed from everything recorded; built on first use.
    redactor: OnceLock<Redactor>,
    /// MCP servers whose tools the model is offered.
    #[cfg(feature = "mcp")]
    mcp: Vec<super::mcp::McpServer>,
    /// Their sessions, started on the first turn and kept for the agent's life.
    #[cfg(feature = "mcp")]
    mcp_sessions: tokio::sync::OnceCell<Result<Vec<Arc<super::mcp::Session>>, String>>,
    /// What the turn in progress waits for (a timeout's message says it).
    waiting_on: std::sync::Mutex<Option<String>>,
}

impl ChatAgent {
    /// A chat agent using `model`, with the endpoint and key from the environment.
    ///
    /// See the type's example.
    pub fn new(model: impl Into<String>) -> Self {
        ChatAgent {
            base_url: env(&["AGENT_TEST_BASE_URL", "OPENAI_BASE_URL"])
                .unwrap_or_else(|| "https://api.openai.com/v1".to_owned()),
            api_key: env(&["AGENT_TEST_API_KEY", "OPENAI_API_KEY"]).map(Secret::new),
            model: model.into(),
            system: None,
            tools: Vec::new(),
            mocks: Vec::new(),
            max_steps: 8,
            temperature: Some(0.0),
            params: Map::new(),
            timeout: Duration::from_secs(120),
            client: OnceLock::new(),
            redactor: OnceLock::new(),
            #[cfg(feature = "mcp")]
            mcp: Vec::new(),
            #[cfg(feature = "mcp")]
            mcp_sessions: tokio::sync::OnceCell::new(),
            waiting_on: std::sync::Mutex::new(None),
        }
    }

    /// Offers the model the tools of an MCP server: on the first turn the server is started
    /// (stdio) or reached (HTTP) and its tools listed; each call the model makes to one of
    /// them runs on the server, and is recorded under a node named after the server (so
    /// `node("demo")` checks target one server) with its arguments, result, failure and
    /// latency. A mock of the same name wins over the server's tool. A server that does not
    /// start, dies or hangs makes the turn an agent error naming it, with the last lines it
    /// wrote to standard error; a protocol error (an unknown tool, invalid parameters) is a
    /// failed call of the validation kind, and the model is told, as a real tool would.
    ///
    /// ```no_run
    /// use agent_test::agent::{ChatAgent, McpServer};
    /// let agent = ChatAgent::new("gpt-4o-mini")
    ///     .mcp(McpServer::stdio("demo-mcp").named("shop"))
    ///     .mcp(McpServer::http("http://127.0.0.1:8000/mcp").named("maps"));
    /// # let _ = agent;
    /// ```
    #[cfg(feature = "mcp")]
    pub fn mcp(mut self, server: super::mcp::McpServer) -> Self {
        self.mcp.push(server);
        self
    }

    /// Why the servers cannot be told apart, if they cannot: two with one name (their calls
    /// would nest under one node), or two offering one tool no mock answers (which one a call
    /// meant would be a guess).
    #[cfg(feature = "mcp")]
    fn ambiguity(&self, sessions: &[Arc<super::mcp::Session>]) -> Option<String> {
        let mut owners: Vec<(&str, &str)> = Vec::new();
        // One session per server, in the servers' order.
        for (i, (server, session)) in self.mcp.iter().zip(sessions).enumerate() {
            if let Some(first) = self.mcp.iter().take(i).find(|s| s.name() == server.name()) {
                return Some(format!(
                    "two MCP servers are named `{}` ({first:?} and {server:?}): name one otherwise with `.named(..)`",
                    server.name()
                ));
            }
            for tool in &session.tools {
                let mocked = self.mocks.iter().any(|(n, _)| *n == tool.name);
                match owners.iter().find(|(t, _)| *t == tool.name) {
                    Some((_, first)) if !mocked => {
                        return Some(format!(
                            "the MCP servers `{first}` and `{}` both offer the tool `{}`: a call of it would be ambiguous (connect one of them, or mock the tool)",
                            server.name(),
                            tool.name
                        ));
                    }
                    _ => owners.push((&tool.name, server.name())),
                }
            }
        }
        None
    }

    fn waiting(&self, what: Option<String>) {
        *self
            .waiting_on
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = what;
    }

    /// The MCP sessions, started on first use.
    #[cfg(feature = "mcp")]
    async fn mcp_sessions(&self) -> Result<&[Arc<super::mcp::Session>], AgentError> {
        let sessions = self
            .mcp_sessions
            .get_or_init(|| async {
                let mut out: Vec<Arc<super::mcp::Session>> = Vec::new();
                for server in &self.mcp {
                    self.waiting(Some(format!("waiting for {} to start", server.describe())));
                    out.push(Arc::new(super::mcp::Session::connect(server).await?));
                }
                self.ambiguity(&out).map_or(Ok(out), Err)
            })
            .await;
        sessions
            .as_ref()
            .map(Vec::as_slice)
            .map_err(|e| AgentError::new(e.clone()))
    }

    /// The model from `AGENT_TEST_MODEL` (or `OPENAI_MODEL`, default `gpt-4o-mini`).
    ///
    /// ```
    /// # use agent_test::agent::ChatAgent;
    /// let agent = ChatAgent::from_env();
    /// # let _ = agent;
    /// ```
    pub fn from_env() -> Self {
        Self::new(
            env(&["AGENT_TEST_MODEL", "OPENAI_MODEL"]).unwrap_or_else(|| "gpt-4o-mini".to_owned()),
        )
    }

    /// The endpoint's base URL (`.../v1`; `/chat/completions` is appended).
    ///
    /// ```
    /// # use agent_test::agent::ChatAgent;
    /// let ollama = ChatAgent::new("llama3.2").base_url("http://localhost:11434/v1");
    /// # let _ = ollama;
    /// ```
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = url.into().trim_end_matches('/').to_owned();
        self
    }

    /// The API key (sent as a bearer token; never printed).
    ///
    /// ```
    /// # use agent_test::agent::ChatAgent;
    /// let agent = ChatAgent::new("m").api_key("sk-test");
    /// assert!(!format!("{agent:?}").contains("sk-test"));
    /// ```
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(Secret::new(key));
        self
    }

    /// The system prompt.
    ///
    /// See the type's example.
    pub fn system(mut self, prompt: impl Into<String>) -> Self {
        self.system = Some(prompt.into());
        self
    }

    /// A tool the model may call: name, description, JSON Schema of the parameters.
    ///
    /// See the type's example.
    pub fn tool(
        mut self,
        name: impl Into<String>,
        description: impl Into<String>,
        parameters: Value,
    ) -> Self {
        self.tools
            .push((name.into(), description.into(), parameters));
        self
    }

    /// Answers calls of `tool` with `value`. A mocked tool without a definition is offered to
    /// the model with any parameters.
    ///
    /// See the type's example.
    pub fn mock(mut self, tool: impl Into<String>, value: Value) -> Self {
        self.mocks.push((tool.into(), Mock::Value(value)));
        self
    }

    /// Answers calls of `tool` with a closure over the arguments; `Err` is the tool's error.
    ///
    /// See the type's example.
    pub fn mock_fn(
        mut self,
        tool: impl Into<String>,
        f: impl Fn(&Value) -> Result<Value, String> + Send + Sync + 'static,
    ) -> Self {
        self.mocks.push((tool.into(), Mock::Fn(Arc::new(f))));
        self
    }

    /// At most `n` model calls per turn (default 8).
    ///
    /// ```
    /// # use agent_test::agent::ChatAgent;
    /// let agent = ChatAgent::new("m").max_steps(4);
    /// # let _ = agent;
    /// ```
    pub fn max_steps(mut self, n: usize) -> Self {
        self.max_steps = n.max(1);
        self
    }

    /// The sampling temperature (default 0); `None` leaves it to the server.
    ///
    /// ```
    /// # use agent_test::agent::ChatAgent;
    /// let agent = ChatAgent::new("m").temperature(None);
    /// # let _ = agent;
    /// ```
    pub fn temperature(mut self, t: Option<f64>) -> Self {
        self.temperature = t;
        self
    }

    /// Any other request parameter (`seed`, `max_tokens`, `tool_choice`, ...).
    ///
    /// ```
    /// # use agent_test::agent::ChatAgent;
    /// let agent = ChatAgent::new("m").param("seed", serde_json::json!(7));
    /// # let _ = agent;
    /// ```
    pub fn param(mut self, key: impl Into<String>, value: Value) -> Self {
        self.params.insert(key.into(), value);
        self
    }

    /// How long one model call may take (default 120 s).
    ///
    /// ```
    /// # use agent_test::agent::ChatAgent;
    /// let agent = ChatAgent::new("m").timeout(std::time::Duration::from_secs(30));
    /// # let _ = agent;
    /// ```
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    fn tool_definitions(&self, servers: &[Arc<McpSession>]) -> Vec<Value> {
        let mut defs: Vec<Value> = self
            .tools
            .iter()
            .map(|(n, d, p)| json!({"type": "function", "function": {"name": n, "description": d, "parameters": p}}))
            .collect();
        let defined = |defs: &[Value], name: &str| {
            defs.iter()
                .any(|d| d.pointer("/function/name").and_then(Value::as_str) == Some(name))
        };
        for (name, _) in &self.mocks {
            if !defined(&defs, name) {
                defs.push(json!({"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}));
            }
        }
        // The servers' tools (two servers offer one only when a mock answers it).
        for session in servers {
            for t in mcp_tools(session) {
                if !defined(&defs, &t.0) {
                    defs.push(json!({"type": "function", "function": {"name": t.0, "description": t.1, "parameters": t.2}}));
                }
            }
        }
        defs
    }

    fn answer(&self, tool: &str, args: &Value) -> Result<Value, String> {
        match self.mocks.iter().rev().find(|(n, _)| n == tool) {
            Some((_, Mock::Value(v))) => Ok(v.clone()),
            Some((_, Mock::Fn(f))) => f(args),
            None => Err(format!("no mock for tool `{tool}`")),
        }
    }

    async fn turn(&self, request: AgentRequest) -> Result<Reply, AgentError> {
        let http = self
            .client
            .get_or_init(|| client(self.timeout))
            .as_ref()
            .map_err(Clone::clone)?;
        let url = format!("{}/chat/completions", self.base_url);
        let mut messages: Vec<Value> = Vec::new();
        if let Some(s) = &self.system {
            messages.push(json!({"role": "system", "content": s}));
        }
        messages.extend(
            request
                .messages
                .iter()
                .map(|m| json!({"role": m.role.as_str(), "content": m.content})),
        );
        #[cfg(feature = "mcp")]
        let servers = self.mcp_sessions().await?;
        #[cfg(not(feature = "mcp"))]
        let servers: &[Arc<McpSession>] = &[];
        let tools = self.tool_definitions(servers);
        let marks: Vec<usize> = servers.iter().map(received_so_far).collect();
        // The reply says it is a chat model's: its HTTP exchanges are with the model endpoint.
        let mut reply = Reply::default().chat_model(self.model.clone());
        let mut usage: Option<Usage> = None;
        for step in 0..self.max_steps {
            let body = self.request_body(&messages, &tools);
            let json = self.complete(http, &url, &body, step, &reply).await?;
            if let Some(u) = usage_in(&json) {
                usage.get_or_insert_with(Usage::default).add(&u);
            }
            reply.usage = usage;
            let message = json.pointer("/choices/0/message").cloned().ok_or_else(|| {
                AgentError::new("the model endpoint's answer has no `choices[0].message`")
                    .with_partial(reply.clone())
            })?;
            let calls = message
                .get("tool_calls")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            if calls.is_empty() {
                reply.text = message
                    .get("content")
                    .map(agent_test_core::util::text::content_text)
                    .unwrap_or_default();
                reply.body = Some(json);
                with_notifications(&mut reply, servers, &marks);
                return Ok(reply);
            }
            messages.push(message.clone());
            for c in &calls {
                let (call, id, content) = self.run_call(c, step, servers, &reply).await?;
                reply.calls.push(call);
                messages.push(json!({"role": "tool", "tool_call_id": id, "content": content}));
            }
        }
        Err(AgentError::new(format!(
            "the model was still calling tools after {} steps",
            self.max_steps
        ))
        .with_partial(reply))
    }
}

/// An MCP session, or nothing without the `mcp` feature.
#[cfg(feature = "mcp")]
type McpSession = super::mcp::Session;
#[cfg(not(feature = "mcp"))]
enum McpSession {}

/// The server of a session, for messages.
#[cfg(feature = "mcp")]
fn described(session: &McpSession) -> String {
    session.server.describe()
}

#[cfg(not(feature = "mcp"))]
fn described(session: &McpSession) -> String {
    match *session {}
}

/// How many messages a server has sent so far (notifications, its own requests).
#[cfg(feature = "mcp")]
fn received_so_far(session: &Arc<McpSession>) -> usize {
    session.received.len()
}

#[cfg(not(feature = "mcp"))]
fn received_so_far(session: &Arc<McpSession>) -> usize {
    match **session {}
}

/// What the MCP servers sent during the turn (progress, logs, their own requests), each with
/// its server's name, at `notifications` in the reply's body, where checks read them as they
/// do an `McpAgent`'s.
#[cfg(feature = "mcp")]
fn with_notifications(reply: &mut Reply, servers: &[Arc<McpSession>], marks: &[usize]) {
    let mut all = Vec::new();
    for (session, from) in servers.iter().zip(marks) {
        for mut n in session.received.since(*from) {
            if let Value::Object(o) = &mut n {
                o.insert("server".into(), json!(session.server.name()));
            }
            all.push(n);
        }
    }
    if !all.is_empty()
        && let Some(Value::Object(body)) = &mut reply.body
    {
        body.insert("notifications".into(), Value::Array(all));
    }
}

#[cfg(not(feature = "mcp"))]
fn with_notifications(_: &mut Reply, _: &[Arc<McpSession>], _: &[usize]) {}

/// A server's tools as (name, description, input schema).
#[cfg(feature = "mcp")]
fn mcp_tools(session: &McpSession) -> Vec<(String, String, Value)> {
    session
        .tools
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                t.description.clone().unwrap_or_default(),
                t.input_schema.clone(),
            )
        })
        .collect()
}

#[cfg(not(feature = "mcp"))]
fn mcp_tools(session: &McpSession) -> Vec<(String, String, Value)> {
    match *session {}
}

/// A model's call run on an MCP server: the call recorded under the server's node, and what
/// the model is told.
#[cfg(feature = "mcp")]
async fn call_on(
    session: &McpSession,
    call: Call,
    name: &str,
    args: &Value,
) -> Result<(Call, Value), AgentError> {
    use super::mcp::Failure;
    use agent_test_core::model::ToolErrorKind;
    let (answer, took) = session.call_tool(name, args).await;
    let mut call = call.took_ms(u64::try_from(took.as_millis()).unwrap_or(u64::MAX));
    // A result that breaks the tool's declared output schema is refused, as the official SDK
    // clients refuse it: the model is told why instead of being handed the bad JSON, and the
    // call fails with an `output` error that `valid_structured_output()` reports. A schema that
    // cannot be used compared nothing: the result is not refused for it (the check says so).
    let schema = session.output_schema(name);
    let broken = match (&answer, schema) {
        (Ok(a), Some(schema)) => match agent_test_core::check::against(schema, &a.raw) {
            agent_test_core::check::Against::Broken(why) => Some(why),
            agent_test_core::check::Against::Met | agent_test_core::check::Against::Unusable(_) => {
                None
            }
        },
        _ => None,
    };
    if let Some(schema) = schema {
        call = call.with_output_schema(schema.schema().clone());
    }
    let (call, content) = match (answer, broken) {
        (Ok(a), _) if a.is_error => (
            call.failed_with(ToolErrorKind::Execution, a.result.clone()),
            json!({"error": a.text}),
        ),
        (Ok(a), Some(why)) => {
            let refused =
                json!({"error": why, "structuredContent": a.raw.get("structuredContent")});
            (
                call.failed_with(ToolErrorKind::Output, refused),
                json!({"error": format!("the tool's result was refused: {why}")}),
            )
        }
        (Ok(a), None) => (call.result(a.result.clone()), Value::String(a.text)),
        (Err(Failure::Protocol { code, message }), _) => (
            call.failed_with(
                ToolErrorKind::Validation,
                json!({"code": code, "message": message}),
            ),
            json!({"error": message}),
        ),
        (Err(f), _) => {
            return Err(AgentError::new(
                session.failure_text("tools/call", &f).await,
            ));
        }
    };
    Ok((Call::node(session.server.name()).child(call), content))
}

#[cfg(not(feature = "mcp"))]
async fn call_on(
    session: &McpSession,
    _: Call,
    _: &str,
    _: &Value,
) -> Result<(Call, Value), AgentError> {
    match *session {}
}

impl Agent for ChatAgent {
    /// One turn, with the key redacted from the reply and the error (a model or proxy may echo
    /// it): the one place everything the agent records passes through.
    fn respond(&self, request: AgentRequest) -> BoxFuture<'_, Result<Reply, AgentError>> {
        Box::pin(async move {
            let result = self.turn(request).await;
            self.waiting(None);
            self.redactor
                .get_or_init(|| Redactor::new(&self.api_key))
                .result(result)
        })
    }

    fn waiting_on(&self) -> Option<String> {
        self.waiting_on
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

impl fmt::Debug for ChatAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChatAgent")
            .field("base_url", &shown_url(&self.base_url))
            .field("model", &self.model)
            .field("api_key", &self.api_key)
            .field(
                "tools",
                &self
                    .tools
                    .iter()
                    .map(|(n, _, _)| n.as_str())
                    .collect::<Vec<_>>(),
            )
            .field(
                "mocks",
                &self
                    .mocks
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>(),
            )
            .field("max_steps", &self.max_steps)
            .finish()
    }
}
