//! An agent built on a real Rust LLM crate, [`genai`], with its `otel` feature: genai writes a
//! `tracing` span per model call (`chat <model>`, with usage and — when content capture is on
//! — the messages), and the agent uses genai's own span builders for its agent and tool
//! spans. The agent returns only its text: wrapped in
//! [`traced`](agent_test::agent::traced), its tool calls, sub-agent and tokens come from those
//! spans, with no recording code of its own.
//!
//! The model is [`ScriptedModel`]: an OpenAI-compatible endpoint on 127.0.0.1 that asks for a
//! tool when the user names an order, then answers from the tool's result — a stand-in, so the
//! example runs offline and gives the same answers every time, through genai's real client.
//!
//! genai records message content and tool arguments only when
//! `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true` (the repository sets it in
//! `.cargo/config.toml` for its tests).
//!
//! A workspace of its own (`cargo test --manifest-path examples/genai-agent/Cargo.toml`):
//! genai turns on serde_json's `preserve_order`, which would change the key order of the JSON
//! the main workspace's tests compare.

use std::sync::Arc;

use agent_test::agent::{Agent, AgentError, AgentRequest, BoxFuture};
use agent_test::model::Reply;
use agent_test::serde_json::{Value, json};
use axum::Router;
use axum::routing::post;
use genai::adapter::AdapterKind;
use genai::chat::{ChatMessage, ChatRequest, Tool, ToolResponse};
use genai::otel::agent::{AgentSpan, ExecuteToolSpan, execute_tool_span, set_error};
use genai::resolver::{AuthData, Endpoint, ServiceTargetResolver};
use genai::{Client, ModelIden, ServiceTarget};
use tracing::Instrument;

/// The model the scripted endpoint answers as.
const MODEL: &str = "scripted-model";

/// A support agent on genai: one model, two tools, a tool-calling loop.
///
/// ```no_run
/// use agent_test_example_genai::{GenaiAgent, ScriptedModel};
/// let agent = GenaiAgent::new(&ScriptedModel::start());
/// # let _ = agent;
/// ```
pub struct GenaiAgent {
    client: Client,
}

impl GenaiAgent {
    /// The agent, talking to the OpenAI-compatible endpoint at `base_url` (`.../v1/`).
    ///
    /// # Panics
    ///
    /// If genai cannot build its client (its HTTP client cannot start).
    pub fn new(base_url: &str) -> Self {
        // reqwest is built here with rustls and no crypto provider of its own: install ring's
        // (another one already installed stays).
        let _ = rustls::crypto::ring::default_provider().install_default();
        let endpoint = Endpoint::from_owned(format!("{}/", base_url.trim_end_matches('/')));
        let resolver = ServiceTargetResolver::from_resolver_fn(
            move |target: ServiceTarget| -> Result<ServiceTarget, genai::resolver::Error> {
                Ok(ServiceTarget {
                    endpoint: endpoint.clone(),
                    auth: AuthData::from_single("sk-scripted"),
                    model: ModelIden::new(AdapterKind::OpenAI, target.model.model_name),
                })
            },
        );
        GenaiAgent {
            client: Client::builder()
                .with_service_target_resolver(resolver)
                .build()
                .expect("genai's client"),
        }
    }

    fn tools() -> Vec<Tool> {
        let order = json!({"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]});
        vec![
            Tool::new("lookup_order")
                .with_description("Look an order up")
                .with_schema(order.clone()),
            Tool::new("cancel_order")
                .with_description("Cancel an order")
                .with_schema(order),
        ]
    }

    /// Runs a tool of the demo: orders ORD-1xxx exist and are delivered; cancelling a
    /// delivered order fails.
    fn run_tool(name: &str, args: &Value) -> Result<Value, String> {
        let order = args["order_id"].as_str().unwrap_or_default();
        match name {
            "lookup_order" if order.starts_with("ORD-1") => {
                Ok(json!({"order_id": order, "status": "delivered"}))
            }
            "lookup_order" => Err(format!("no order {order}")),
            "cancel_order" => Err(format!(
                "order {order} was delivered: it cannot be cancelled"
            )),
            other => Err(format!("no tool {other}")),
        }
    }

    async fn turn(&self, request: AgentRequest) -> Result<String, genai::Error> {
        let mut chat = ChatRequest::new(vec![
            ChatMessage::system("You are Acme's support agent."),
            ChatMessage::user(request.input.clone()),
        ])
        .with_tools(Self::tools());
        for _ in 0..4 {
            let answer = self.client.exec_chat(MODEL, chat.clone(), None).await?;
            let text = answer.first_text().map(str::to_owned);
            let calls = answer.into_tool_calls();
            if calls.is_empty() {
                return Ok(text.unwrap_or_default());
            }
            chat = chat.append_message(calls.clone());
            for call in calls {
                let span = execute_tool_span(&call);
                let result = span.in_scope(|| Self::run_tool(&call.fn_name, &call.fn_arguments));
                let content = match result {
                    Ok(v) => {
                        ExecuteToolSpan::record_result(&span, v.to_string());
                        v.to_string()
                    }
                    Err(e) => {
                        set_error(&span, "tool_error");
                        json!({"error": e}).to_string()
                    }
                };
                drop(span);
                chat = chat.append_message(ToolResponse::new(call.call_id.clone(), content));
            }
        }
        Ok("I could not finish in four steps.".into())
    }
}

impl Agent for GenaiAgent {
    fn respond(&self, request: AgentRequest) -> BoxFuture<'_, Result<Reply, AgentError>> {
        Box::pin(async move {
            // Started when the turn runs, so in the subscriber the turn runs with.
            let span = AgentSpan::invoke_agent()
                .internal()
                .with_name("support_agent")
                .start();
            self.turn(request)
                .instrument(span)
                .await
                .map(Reply::text)
                .map_err(|e| AgentError::new(e.to_string()))
        })
    }
}

/// A scripted OpenAI-compatible chat endpoint: asks for `lookup_order` (or `cancel_order`)
/// with the order the user names, then answers from the tool's result.
pub struct ScriptedModel;

impl ScriptedModel {
    /// Serves it on 127.0.0.1; returns its base URL (`http://127.0.0.1:PORT/v1`).
    ///
    /// # Panics
    ///
    /// If no local port can be bound or no thread started.
    pub fn start() -> String {
        let router = Router::new().route("/v1/chat/completions", post(answer));
        format!("http://{}/v1", serve(router))
    }
}

async fn answer(axum::Json(body): axum::Json<Value>) -> axum::Json<Value> {
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    let last = messages.last().cloned().unwrap_or(Value::Null);
    let user = messages
        .iter()
        .rev()
        .find(|m| m["role"] == "user")
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_owned();
    let message = if last["role"] == "tool" {
        let result: Value =
            serde_json::from_str(last["content"].as_str().unwrap_or("null")).unwrap_or(Value::Null);
        let text = match result.get("error").and_then(Value::as_str) {
            Some(e) => format!("Sorry: {e}."),
            None => format!(
                "Order {} is {}.",
                result["order_id"].as_str().unwrap_or("?"),
                result["status"].as_str().unwrap_or("?")
            ),
        };
        json!({"role": "assistant", "content": text})
    } else {
        let order = user
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .find(|w| w.starts_with("ORD-"))
            .unwrap_or("ORD-0")
            .to_owned();
        let tool = if user.to_lowercase().contains("cancel") {
            "cancel_order"
        } else {
            "lookup_order"
        };
        json!({"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function",
            "function": {"name": tool, "arguments": json!({"order_id": order}).to_string()}}]})
    };
    let prompt = 40 + 15 * messages.len() as u64;
    axum::Json(json!({
        "id": "chatcmpl-scripted", "object": "chat.completion", "created": 0, "model": MODEL,
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": 12, "total_tokens": prompt + 12}
    }))
}

/// Serves `router` at a free port of 127.0.0.1 from a thread and runtime of its own (so it
/// outlives any one test's runtime).
fn serve(router: Router) -> std::net::SocketAddr {
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

/// The agent wrapped so that its spans are read: what a suite's `agent = ...;` names.
pub fn traced_genai_agent(base_url: &str) -> impl Agent {
    agent_test::agent::traced(Arc::new(GenaiAgent::new(base_url)))
}
