//! A support agent built on [rig](https://crates.io/crates/rig) 0.44 — its real agent loop,
//! tools and OpenAI client — and tested with agent-test in two ways (`tests/support.rs`):
//!
//! - **from rig's own spans**: rig's agent writes `tracing` spans by the OpenTelemetry GenAI
//!   conventions (`invoke_agent`, `chat`, `execute_tool` with `gen_ai.tool.call.outcome`);
//!   wrapped in [`traced`](agent_test::agent::traced), the agent returns only its text and
//!   the tool calls, their arguments, results and failures, and the usage are read from those
//!   spans ([`SupportAgent`]);
//! - **from rig's result**: rig's [`PromptResponse`] carries the run's messages — every tool
//!   call the model made (id, name, arguments) and every tool result (content, `is_error`) —
//!   and the usage; [`reply_from`] turns it into agent-test's [`Reply`] (for an `agent_fn`).
//!
//! The agent: [`support_agent`] has three tools — [`LookupOrder`], [`Refund`] (which **fails**
//! with a tool error when the amount is above the order's total) and [`Escalate`] — and
//! records message content on its spans (`.record_content_telemetry(true)`: without it, rig
//! writes no tool arguments or results). Its model is [`ScriptedModel`], an OpenAI-compatible
//! endpoint on 127.0.0.1 that asks for the tool the user's words call for, then answers from
//! the tool's result: a stand-in for a real model, so the suite runs offline and gives the same
//! answers every time, through rig's real OpenAI client (plain HTTP, no TLS).
//!
//! rig 0.44 needs **Rust 1.95** (agent-test itself needs 1.88). A workspace of its own
//! (`cargo test --manifest-path examples/rig-agent/Cargo.toml`): rig turns on serde_json's
//! `preserve_order`, which would change the key order of the JSON the main workspace's tests
//! compare. The `travel` binary (feature `travel`) is the rig entry of the OpenTelemetry
//! framework corpus (`runtime/tests/fixtures/frameworks/rig/make.py`).
//!
//! Things about rig 0.44 worth knowing when testing it:
//!
//! - an agent makes **one** model call unless told otherwise: `.default_max_turns(n)` on the
//!   builder (or `.max_turns(n)` on a run) lets it call tools and answer;
//! - a tool fails by returning `Err`: a [`ToolExecutionError`] made with one of its kind
//!   constructors (`invalid_args`, `not_found`, `other`, ...) shows its message to the model;
//!   any other error type is shown as "the tool failed" (rig redacts it) and keeps its text
//!   for operators. Either way the `execute_tool` span says `gen_ai.tool.call.outcome = error`
//!   and `gen_ai.tool.error.type` (the kind), and the tool result message says `is_error`;
//! - `agent.prompt(..)` is a runner: `.await` it for the blocking run, `.stream()` for a stream
//!   of [`MultiTurnStreamItem`]s ending with the `FinalResponse`;
//! - rig opens its `invoke_agent` span only when no span is current: inside an enabled span
//!   it adopts that span as the agent's, so `agent.chat(..)` (itself `#[instrument]`ed) and a
//!   caller's own span hide the agent's name. Call `agent.prompt(..).history(..)` outside any
//!   span of your own, as [`SupportAgent`] does.
//! - a provider client made with `OpenAIConfig::client()` / `OpenAI::from_env()` sends through
//!   rig's **process-wide** reqwest client: fine on agent-test's shared runtime, not with a
//!   runtime per test ([`Transport`]);
//! - an [`Agent`](rig::Agent) owns an effect bus whose driver every concurrent run of that
//!   agent polls (whichever run takes its lock drives, and drops, the others' tool futures):
//!   one turn's spans are carried into another turn's polls. agent-test's
//!   [`traced`](agent_test::agent::traced) keeps every traced turn's spans in one registry and
//!   gives each span to its parent's turn, so one rig agent built once (`LazyLock`) and shared
//!   by concurrent traced scenarios works (`SupportAgent::shared`); with a registry per turn,
//!   as agent-test had before, the same suite panicked in `tracing-subscriber` ("tried to drop
//!   a ref to Id(..), but no such span exists!") or lost a turn's tool spans in 12–15 of 16
//!   scenarios per run.

use std::net::SocketAddr;
use std::sync::Arc;

use agent_test::agent::{Agent as TestAgent, AgentError, AgentRequest, BoxFuture};
use agent_test::model::{Call, Message as TestMessage, Reply, Role, Usage};
use axum::Router;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use futures::StreamExt;
use rig::agent::{MultiTurnStreamItem, PromptResponse};
use rig::completion::Message;
use rig::message::{AssistantContent, ToolResultContent, UserContent};
use rig::providers::openai::OpenAIConfig;
use rig::tool::{PortableTool, ToolExecutionError};
use serde::Deserialize;
use serde_json::{Value, json};

/// The model name the scripted endpoint answers as.
const MODEL: &str = "scripted-support-model";

/// The support agent's instructions.
const INSTRUCTIONS: &str = "You are Acme's support agent. Look orders up, refund within the order's total, escalate \
     when asked for a manager.";

/// The orders the tools know: id, total in cents, status.
const ORDERS: [(&str, u64, &str); 2] = [
    ("ORD-1001", 4250, "delivered"),
    ("ORD-1002", 1999, "shipped"),
];

fn order(order_id: &str) -> Result<(u64, &'static str), ToolExecutionError> {
    ORDERS
        .iter()
        .find(|(id, _, _)| *id == order_id)
        .map(|&(_, total, status)| (total, status))
        .ok_or_else(|| ToolExecutionError::not_found(format!("no order {order_id}")))
}

/// The arguments of [`LookupOrder`].
///
/// ```
/// let args: agent_test_example_rig::OrderArgs = serde_json::from_str(r#"{"order_id": "ORD-1001"}"#).unwrap();
/// assert_eq!(args.order_id, "ORD-1001");
/// ```
#[derive(Debug, Deserialize)]
pub struct OrderArgs {
    /// The order's id, `ORD-1001`.
    pub order_id: String,
}

/// `lookup_order(order_id)`: the order's total (in cents) and status.
///
/// ```
/// use agent_test_example_rig::{LookupOrder, OrderArgs};
/// use rig::tool::PortableTool;
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let order = LookupOrder.call(OrderArgs { order_id: "ORD-1001".into() }).await.unwrap();
/// assert_eq!(order["total_cents"], 4250);
/// # });
/// ```
pub struct LookupOrder;

impl PortableTool for LookupOrder {
    const NAME: &'static str = "lookup_order";
    type Args = OrderArgs;
    type Output = Value;
    type Error = ToolExecutionError;

    fn description(&self) -> String {
        "Look an order up by its id: its total in cents and its status".into()
    }

    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]})
    }

    async fn call(&self, args: OrderArgs) -> Result<Value, ToolExecutionError> {
        let (total, status) = order(&args.order_id)?;
        Ok(json!({"order_id": args.order_id, "total_cents": total, "status": status}))
    }
}

/// The arguments of [`Refund`].
///
/// ```
/// let args: agent_test_example_rig::RefundArgs =
///     serde_json::from_str(r#"{"order_id": "ORD-1001", "amount_cents": 1500}"#).unwrap();
/// assert_eq!(args.amount_cents, 1500);
/// ```
#[derive(Debug, Deserialize)]
pub struct RefundArgs {
    /// The order to refund.
    pub order_id: String,
    /// How much, in cents.
    pub amount_cents: u64,
}

/// `refund(order_id, amount_cents)`: refunds up to the order's total; an amount above it is a
/// tool **error** (`invalid_args`), which the model sees and rig's span records as
/// `gen_ai.tool.call.outcome = error`.
///
/// ```
/// use agent_test_example_rig::{Refund, RefundArgs};
/// use rig::tool::PortableTool;
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let done = Refund.call(RefundArgs { order_id: "ORD-1001".into(), amount_cents: 1500 }).await.unwrap();
/// assert_eq!(done["refund_id"], "RF-1001-1500");
/// let refused = Refund.call(RefundArgs { order_id: "ORD-1001".into(), amount_cents: 99999 }).await;
/// assert!(refused.unwrap_err().message().contains("above the order's total"));
/// # });
/// ```
pub struct Refund;

impl PortableTool for Refund {
    const NAME: &'static str = "refund";
    type Args = RefundArgs;
    type Output = Value;
    type Error = ToolExecutionError;

    fn description(&self) -> String {
        "Refund part or all of an order, in cents (at most the order's total)".into()
    }

    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {
            "order_id": {"type": "string"},
            "amount_cents": {"type": "integer", "description": "the amount to refund, in cents"}
        }, "required": ["order_id", "amount_cents"]})
    }

    async fn call(&self, args: RefundArgs) -> Result<Value, ToolExecutionError> {
        let (total, _) = order(&args.order_id)?;
        if args.amount_cents > total {
            // A kind constructor: the model sees this message (a plain error type's text would
            // be redacted to "the tool failed").
            return Err(ToolExecutionError::invalid_args(format!(
                "{} cents is above the order's total of {total} cents",
                args.amount_cents
            )));
        }
        let number = args.order_id.trim_start_matches("ORD-");
        Ok(json!({
            "refund_id": format!("RF-{number}-{}", args.amount_cents),
            "order_id": args.order_id,
            "amount_cents": args.amount_cents,
        }))
    }
}

/// The arguments of [`Escalate`].
///
/// ```
/// let args: agent_test_example_rig::EscalateArgs = serde_json::from_str(r#"{"reason": "angry"}"#).unwrap();
/// assert_eq!(args.reason, "angry");
/// ```
#[derive(Debug, Deserialize)]
pub struct EscalateArgs {
    /// Why a human should look at this.
    pub reason: String,
}

/// `escalate(reason)`: hands the conversation to a human; returns the ticket.
///
/// ```
/// use agent_test_example_rig::{Escalate, EscalateArgs};
/// use rig::tool::PortableTool;
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let ticket = Escalate.call(EscalateArgs { reason: "wants a manager".into() }).await.unwrap();
/// assert_eq!(ticket["ticket"], "ESC-1");
/// # });
/// ```
pub struct Escalate;

impl PortableTool for Escalate {
    const NAME: &'static str = "escalate";
    type Args = EscalateArgs;
    type Output = Value;
    type Error = ToolExecutionError;

    fn description(&self) -> String {
        "Hand the conversation to a human manager".into()
    }

    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {"reason": {"type": "string"}}, "required": ["reason"]})
    }

    async fn call(&self, args: EscalateArgs) -> Result<Value, ToolExecutionError> {
        Ok(json!({"ticket": "ESC-1", "reason": args.reason}))
    }
}

/// Which reqwest client rig's OpenAI client sends through.
///
/// [`Transport::Shared`] is rig's default (`OpenAIConfig::client()`, `OpenAI::from_env()`):
/// one reqwest client, and one connection pool, for the whole process. A pooled connection's
/// I/O belongs to the tokio runtime that opened it. agent-test runs every scenario of a test
/// binary on **one** shared runtime by default, so rig's shared client works in every
/// scenario (16 scenarios × 3 turns, 5 runs: no failure). With a runtime per test
/// (`runtime = RuntimeFlavor::current_thread();`, or a `#[test]` with a runtime of its own) a
/// connection dies with the test that opened it and a later one fails with "HttpError: Http
/// client error: error sending request for url" (11 and 13 of 80 scenarios in 5 runs);
/// [`Transport::OwnClient`] — a reqwest client per agent — has no such failure (0 of 80).
///
/// ```
/// use agent_test_example_rig::{Transport, support_agent};
/// let agent = support_agent("http://127.0.0.1:9/v1", Transport::OwnClient);
/// assert_eq!(agent.name(), Some("support_agent"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// A reqwest client (and connection pool) of this agent's own.
    OwnClient,
    /// rig's process-wide reqwest client (`rig_reqwest::shared()`).
    Shared,
}

/// The support agent on rig: the OpenAI chat-completions client pointed at `base_url`
/// (`http://127.0.0.1:PORT/v1`), the three tools, up to 5 model calls a run, content recorded
/// on its spans.
///
/// ```
/// use agent_test_example_rig::{ScriptedModel, Transport, support_agent};
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let agent = support_agent(&ScriptedModel::start(), Transport::OwnClient);
/// let response = agent.prompt("Where is my order ORD-1001?").await.unwrap();
/// assert_eq!(response.output(), "Order ORD-1001 is delivered; its total was €42.50.");
/// # });
/// ```
pub fn support_agent(base_url: &str, transport: Transport) -> rig::Agent {
    // reqwest is built with rustls and no crypto provider here (agent-test's `cassette`
    // feature): install ring's (one already installed stays). Plain HTTP needs none, but
    // reqwest will not build a client without one.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let config = OpenAIConfig::new("sk-scripted").with_base_url(base_url);
    let client = match transport {
        Transport::OwnClient => config.connect(rig::http_client::ReqwestClient::from(
            rig::rig_reqwest::reqwest::Client::new(),
        )),
        Transport::Shared => config.client(),
    };
    rig::AgentBuilder::new(client.chat(MODEL))
        .name("support_agent")
        .preamble(INSTRUCTIONS)
        .default_max_turns(5)
        .record_content_telemetry(true)
        .tool(LookupOrder)
        .tool(Refund)
        .tool(Escalate)
        .build()
}

/// The conversation before this turn, as rig's messages: the earlier user messages and the
/// agent's earlier replies (their text; tool calls of earlier turns are not replayed).
///
/// ```
/// use agent_test::agent::AgentRequest;
/// use agent_test::model::Message;
/// let request = AgentRequest::new("s", 1, vec![
///     Message::user("Where is ORD-1001?"), Message::assistant("Delivered."), Message::user("Refund it"),
/// ]);
/// assert_eq!(agent_test_example_rig::history(&request).len(), 2);
/// ```
pub fn history(request: &AgentRequest) -> Vec<Message> {
    let earlier = &request.messages[..request.messages.len().saturating_sub(1)];
    earlier
        .iter()
        .filter_map(|m: &TestMessage| match m.role {
            Role::User => Some(Message::user(m.content.clone())),
            Role::Assistant => Some(Message::assistant(m.content.clone())),
            _ => None,
        })
        .collect()
}

/// Runs one turn of `agent`: blocking (`.await` on the runner) or streamed (`.stream()`,
/// folded to its `FinalResponse`).
///
/// # Errors
///
/// rig's error (a provider failure, the turn budget), as text.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// use agent_test::agent::AgentRequest;
/// use agent_test::model::Message;
/// use agent_test_example_rig::{ScriptedModel, Transport, run_turn, support_agent};
/// let agent = support_agent(&ScriptedModel::start(), Transport::OwnClient);
/// let request = AgentRequest::new("s", 0, vec![Message::user("Where is ORD-1001?")]);
/// let response = run_turn(&agent, &request, true).await.unwrap();
/// assert!(response.output().contains("delivered"));
/// # });
/// ```
pub async fn run_turn(
    agent: &rig::Agent,
    request: &AgentRequest,
    streaming: bool,
) -> Result<PromptResponse, String> {
    let runner = agent
        .prompt(request.input.as_str())
        .history(history(request));
    if !streaming {
        return runner.await.map_err(|e| e.to_string());
    }
    let mut stream = runner.stream();
    let mut last = None;
    while let Some(item) = stream.next().await {
        if let MultiTurnStreamItem::FinalResponse(response) = item.map_err(|e| e.to_string())? {
            last = Some(response);
        }
    }
    last.ok_or_else(|| "the stream ended without a final response".to_owned())
}

/// The rig agent as an agent-test agent that returns **only its text**: wrap it in
/// [`traced`](agent_test::agent::traced) and the tool calls, their results and failures, the
/// agent node and the usage come from rig's spans.
///
/// ```no_run
/// use agent_test::agent::traced;
/// use agent_test_example_rig::{ScriptedModel, SupportAgent, Transport};
/// let agent = traced(SupportAgent::new(&ScriptedModel::start(), Transport::OwnClient).streaming(true));
/// # let _ = agent;
/// ```
pub struct SupportAgent {
    agent: Arc<rig::Agent>,
    streaming: bool,
}

impl SupportAgent {
    /// The agent of [`support_agent`], blocking runs.
    ///
    /// ```no_run
    /// use agent_test_example_rig::{SupportAgent, Transport};
    /// let agent = SupportAgent::new("http://127.0.0.1:8080/v1", Transport::Shared);
    /// # let _ = agent;
    /// ```
    pub fn new(base_url: &str, transport: Transport) -> Self {
        SupportAgent::shared(Arc::new(support_agent(base_url, transport)))
    }

    /// One rig agent shared by every scenario (built once, in a `LazyLock`): concurrent
    /// traced turns of one rig agent each read their own spans.
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// use agent_test_example_rig::{SupportAgent, Transport, support_agent};
    /// let rig = Arc::new(support_agent("http://127.0.0.1:8080/v1", Transport::Shared));
    /// let agent = SupportAgent::shared(rig);
    /// # let _ = agent;
    /// ```
    pub fn shared(agent: Arc<rig::Agent>) -> Self {
        SupportAgent {
            agent,
            streaming: false,
        }
    }

    /// Streamed runs (`.stream()`) instead of blocking ones.
    ///
    /// ```no_run
    /// use agent_test_example_rig::{SupportAgent, Transport};
    /// let agent = SupportAgent::new("http://127.0.0.1:8080/v1", Transport::Shared).streaming(true);
    /// # let _ = agent;
    /// ```
    pub fn streaming(mut self, on: bool) -> Self {
        self.streaming = on;
        self
    }
}

impl TestAgent for SupportAgent {
    fn respond(&self, request: AgentRequest) -> BoxFuture<'_, Result<Reply, AgentError>> {
        // Everything happens inside the future, so that the spans rig opens are the turn's.
        Box::pin(async move {
            let response = run_turn(&self.agent, &request, self.streaming)
                .await
                .map_err(AgentError::new)?;
            Ok(Reply::text(response.output()))
        })
    }
}

/// agent-test's [`Reply`] from rig's result: the final text, the usage, and a tool call for
/// every call the model made in the run's messages — its arguments, and the tool's result (or,
/// when the result says `is_error`, the failure). A result that is JSON is read as JSON, else
/// it is text.
///
/// ```
/// use agent_test_example_rig::reply_from;
/// use rig::agent::PromptResponse;
/// use rig::completion::{Message, Usage};
/// let response = PromptResponse::new("Hello", Usage::default()).with_messages(vec![Message::user("Hi")]);
/// let reply = reply_from(&response);
/// assert_eq!(reply.text, "Hello");
/// assert!(reply.calls.is_empty());
/// ```
pub fn reply_from(response: &PromptResponse) -> Reply {
    let mut calls: Vec<(String, Call)> = Vec::new();
    for message in &response.messages {
        match message {
            Message::Assistant(turn) => {
                for content in &turn.content {
                    if let AssistantContent::ToolCall(call) = content {
                        let id = call.id.to_string();
                        let tool = Call::tool(
                            call.function.name.to_string(),
                            call.function.arguments_value(),
                        )
                        .with_id(id.clone());
                        calls.push((id, tool));
                    }
                }
            }
            Message::User { content } => {
                for content in content {
                    let UserContent::ToolResult(result) = content else {
                        continue;
                    };
                    let id = result.call.to_string();
                    let value = result_value(&result.content);
                    if let Some((_, call)) = calls.iter_mut().find(|(c, _)| *c == id) {
                        let done = call.clone();
                        *call = if result.is_error {
                            done.failed(value)
                        } else {
                            done.result(value)
                        };
                    }
                }
            }
            Message::System { .. } => {}
        }
    }
    let mut reply = calls
        .into_iter()
        .fold(Reply::text(response.output()), |reply, (_, call)| {
            reply.call(call)
        });
    let usage = response.usage;
    if let (Some(input), Some(output)) = (usage.input_tokens, usage.output_tokens) {
        reply = reply.usage(Usage::new(input, output));
    }
    reply
}

/// A tool result's content as JSON: its JSON block, or its text (parsed when it is JSON).
fn result_value(content: &[ToolResultContent]) -> Value {
    let mut parts = content.iter().filter_map(|c| match c {
        ToolResultContent::Json { value } => Some(value.clone()),
        ToolResultContent::Text(text) => Some(
            serde_json::from_str(text.text())
                .unwrap_or_else(|_| Value::String(text.text().to_owned())),
        ),
        _ => None,
    });
    match (parts.next(), parts.next()) {
        (Some(one), None) => one,
        (first, second) => Value::Array(first.into_iter().chain(second).chain(parts).collect()),
    }
}

/// The agent read from rig's result, as an `agent_fn`: [`run_turn`] then [`reply_from`], on
/// `agent` (which may be shared: nothing here captures spans per turn, so one rig agent can
/// serve every scenario of a suite).
///
/// ```no_run
/// use std::sync::Arc;
/// use agent_test_example_rig::{ScriptedModel, Transport, glue_agent, support_agent};
/// let agent = glue_agent(Arc::new(support_agent(&ScriptedModel::start(), Transport::Shared)), false);
/// # let _ = agent;
/// ```
pub fn glue_agent(agent: Arc<rig::Agent>, streaming: bool) -> impl TestAgent {
    agent_test::agent::agent_fn(move |request: AgentRequest| {
        let agent = agent.clone();
        async move {
            run_turn(&agent, &request, streaming)
                .await
                .map(|response| reply_from(&response))
                .map_err(AgentError::new)
        }
    })
}

/// A scripted OpenAI-compatible chat endpoint (`POST /v1/chat/completions`, streamed or not):
/// it asks for `refund` when the user asks for a refund (the order and the amount from the
/// user's words), `escalate` when they ask for a manager, `lookup_order` when they name an
/// order; after a tool result it answers from it. Every answer reports usage.
///
/// ```no_run
/// let base_url = agent_test_example_rig::ScriptedModel::start();
/// assert!(base_url.starts_with("http://127.0.0.1:"));
/// ```
pub struct ScriptedModel;

impl ScriptedModel {
    /// Serves it on 127.0.0.1; returns its base URL (`http://127.0.0.1:PORT/v1`).
    ///
    /// See the type's example.
    ///
    /// # Panics
    ///
    /// If no local port can be bound or no thread started.
    pub fn start() -> String {
        let router = Router::new().route("/v1/chat/completions", post(answer));
        format!("http://{}/v1", serve(router))
    }
}

/// What the script says next: tool calls (name, arguments) or a text.
enum Answer {
    Tools(Vec<(&'static str, Value)>),
    Text(String),
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == '?' || c == '!')
        .filter(|w| !w.is_empty())
}

/// The first amount in `text` (`€15.00`, `15`), in cents.
fn amount_cents(text: &str) -> Option<u64> {
    words(text).find_map(|w| {
        let w = w.trim_start_matches('€').trim_end_matches('.');
        let euros: f64 = w.parse().ok()?;
        Some((euros * 100.0).round() as u64)
    })
}

fn script(body: &Value) -> Answer {
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    let last_user = messages
        .iter()
        .rposition(|m| m["role"] == "user")
        .unwrap_or(0);
    let user = messages
        .get(last_user)
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_owned();
    let lower = user.to_lowercase();
    let tool_result = messages[last_user..]
        .iter()
        .rev()
        .find(|m| m["role"] == "tool");
    if let Some(result) = tool_result {
        let text = result["content"].as_str().unwrap_or_default();
        let value: Value = serde_json::from_str(text).unwrap_or(Value::Null);
        let euros = |cents: &Value| format!("€{:.2}", cents.as_f64().unwrap_or(0.0) / 100.0);
        return Answer::Text(if value.get("refund_id").is_some() {
            format!(
                "Done: refund {} of {} on {} is on its way.",
                value["refund_id"].as_str().unwrap_or("?"),
                euros(&value["amount_cents"]),
                value["order_id"].as_str().unwrap_or("?")
            )
        } else if value.get("ticket").is_some() {
            format!(
                "I have passed this to a manager: ticket {}.",
                value["ticket"].as_str().unwrap_or("?")
            )
        } else if value.get("status").is_some() {
            format!(
                "Order {} is {}; its total was {}.",
                value["order_id"].as_str().unwrap_or("?"),
                value["status"].as_str().unwrap_or("?"),
                euros(&value["total_cents"])
            )
        } else {
            format!("Sorry, I could not do that: {text}.")
        });
    }
    let order = words(&user)
        .map(|w| w.trim_end_matches('.'))
        .find(|w| w.starts_with("ORD-"))
        .map(str::to_owned);
    if lower.contains("manager") {
        return Answer::Tools(vec![("escalate", json!({"reason": user}))]);
    }
    match (order, amount_cents(&user)) {
        (Some(order), Some(cents)) if lower.contains("refund") => Answer::Tools(vec![(
            "refund",
            json!({"order_id": order, "amount_cents": cents}),
        )]),
        (Some(order), _) => Answer::Tools(vec![("lookup_order", json!({"order_id": order}))]),
        _ => Answer::Text("Happy to help: what is your order number?".into()),
    }
}

async fn answer(axum::Json(body): axum::Json<Value>) -> Response {
    let prompt = 40 + 15 * body["messages"].as_array().map_or(0, Vec::len) as u64;
    let usage =
        json!({"prompt_tokens": prompt, "completion_tokens": 12, "total_tokens": prompt + 12});
    let (text, calls) = match script(&body) {
        Answer::Text(text) => (Some(text), Vec::new()),
        Answer::Tools(calls) => (None, calls),
    };
    let tool_calls: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, (name, args))| {
            json!({"id": format!("call_{i}"), "type": "function",
                   "function": {"name": name, "arguments": args.to_string()}})
        })
        .collect();
    let finish = if tool_calls.is_empty() {
        "stop"
    } else {
        "tool_calls"
    };
    let base = json!({"id": "chatcmpl-scripted", "created": 0, "model": MODEL});
    let with = |mut v: Value, extra: Value| {
        for (k, x) in extra.as_object().into_iter().flatten() {
            v[k] = x.clone();
        }
        v
    };
    if body["stream"] != true {
        let mut message = json!({"role": "assistant", "content": text});
        if !tool_calls.is_empty() {
            message["tool_calls"] = Value::Array(tool_calls);
        }
        let done = with(
            base,
            json!({"object": "chat.completion", "usage": usage,
                   "choices": [{"index": 0, "message": message, "finish_reason": finish}]}),
        );
        return axum::Json(done).into_response();
    }
    // Streamed: the role, the text in two halves or each call's name then its arguments, the
    // finish reason, the usage when asked for, `[DONE]`.
    let chunk = |delta: Value, finish: Value| {
        with(
            base.clone(),
            json!({"object": "chat.completion.chunk",
                   "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}),
        )
    };
    let mut events = vec![chunk(json!({"role": "assistant"}), Value::Null)];
    if let Some(text) = &text {
        let half = text
            .char_indices()
            .nth(text.chars().count() / 2)
            .map_or(0, |(i, _)| i);
        events.push(chunk(json!({"content": &text[..half]}), Value::Null));
        events.push(chunk(json!({"content": &text[half..]}), Value::Null));
    }
    for (i, call) in tool_calls.iter().enumerate() {
        events.push(chunk(
            json!({"tool_calls": [{"index": i, "id": call["id"], "type": "function",
                                   "function": {"name": call["function"]["name"], "arguments": ""}}]}),
            Value::Null,
        ));
        events.push(chunk(
            json!({"tool_calls": [{"index": i, "function": {"arguments": call["function"]["arguments"]}}]}),
            Value::Null,
        ));
    }
    events.push(chunk(json!({}), json!(finish)));
    if body["stream_options"]["include_usage"] == true {
        events.push(with(
            base.clone(),
            json!({"object": "chat.completion.chunk", "choices": [], "usage": usage}),
        ));
    }
    let mut sse: String = events.iter().map(|e| format!("data: {e}\n\n")).collect();
    sse.push_str("data: [DONE]\n\n");
    ([("content-type", "text/event-stream")], sse).into_response()
}

/// Serves `router` at a free port of 127.0.0.1 from a thread and runtime of its own (so it
/// outlives any one test's runtime).
fn serve(router: Router) -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    let addr = listener.local_addr().expect("local address");
    listener
        .set_nonblocking(true)
        .expect("non-blocking listener");
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("tokio runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("tokio listener");
            let _ = axum::serve(listener, router).await;
        });
    });
    addr
}
