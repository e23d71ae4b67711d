//! The system under test: the [`Agent`] trait and its adapters.

#[doc(hidden)]
pub mod cassette_entries;
#[cfg(feature = "http")]
mod chat;
mod closure;
pub(crate) mod gated;
#[cfg(feature = "http")]
mod http;
#[cfg(feature = "http")]
mod http_body;
#[cfg(all(feature = "http", feature = "otlp"))]
mod http_traces;
mod input;
#[cfg(feature = "mcp")]
pub mod mcp;
mod replay;
#[cfg(feature = "tracing")]
mod traced;
mod turn_request;
#[cfg(feature = "http")]
pub(crate) mod wire;

#[cfg(feature = "http")]
pub use chat::{ChatAgent, Mock};
pub use closure::{FnAgent, IntoAgentResult, agent_fn};
#[cfg(feature = "http")]
pub use http::HttpAgent;
pub use input::{UserInput, UserMessage, custom_body, user_message};
#[cfg(feature = "mcp")]
pub use mcp::{Elicitation, McpAgent, McpServer, McpSpecError, McpSpecErrorKind};
pub use replay::ReplayAgent;
#[cfg(feature = "tracing")]
pub use traced::{Traced, traced};
pub use turn_request::AgentRequest;
#[cfg(feature = "http")]
pub use wire::{DEFAULT_MAX_BODY_BYTES, Secret};

// Without a feature, items of the same names whose use is an error naming the feature.
#[cfg(not(feature = "tracing"))]
pub use gated::traced;
#[cfg(not(feature = "http"))]
pub use gated::{ChatAgent, HttpAgent};
#[cfg(not(feature = "mcp"))]
pub use gated::{McpAgent, McpServer};

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use agent_test_core::model::Reply;

/// A boxed, sendable future, as returned by [`Agent::respond`].
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The agent under test.
///
/// For each user turn the runtime calls [`Agent::respond`] with the conversation so far and
/// the scenario's context, and records the returned [`Reply`]. The trait is object-safe; an
/// async closure becomes an agent with [`agent_fn`].
///
/// ```
/// use agent_test::agent::{Agent, AgentError, AgentRequest, BoxFuture};
/// use agent_test::model::{Call, Reply};
/// use serde_json::json;
///
/// struct EchoAgent;
///
/// impl Agent for EchoAgent {
///     fn respond(&self, request: AgentRequest) -> BoxFuture<'_, Result<Reply, AgentError>> {
///         Box::pin(async move {
///             Ok(Reply::text(format!("You said: {}", request.input))
///                 .call(Call::tool("echo", json!({"text": request.input}))))
///         })
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an agent",
    label = "expected the agent under test",
    note = "implement `agent_test::agent::Agent` for it, or wrap an async closure: `agent_fn(|req| async move {{ .. }})`"
)]
pub trait Agent: Send + Sync {
    /// Answers one user turn.
    fn respond(&self, request: AgentRequest) -> BoxFuture<'_, Result<Reply, AgentError>>;

    /// Whether the time the runner measures around [`Agent::respond`] is the agent's latency
    /// (a reply's own [`Reply::latency_ms`] wins either way). True for agents that do the work;
    /// [`ReplayAgent`] answers from a recording, so only the recorded figure counts, and a turn
    /// recorded without one stays *not measured* instead of taking the replay's ~0 ms.
    fn runner_measures_latency(&self) -> bool {
        true
    }

    /// What the agent is waiting on right now (an MCP server's answer, a model's), for the
    /// message of a turn that times out: "timed out after 5s, waiting for MCP server `files`
    /// (stdio: ...) to answer tools/call". `None` (the default) when it cannot say.
    fn waiting_on(&self) -> Option<String> {
        None
    }
}

impl<A: Agent + ?Sized> Agent for Arc<A> {
    fn respond(&self, request: AgentRequest) -> BoxFuture<'_, Result<Reply, AgentError>> {
        (**self).respond(request)
    }

    fn runner_measures_latency(&self) -> bool {
        (**self).runner_measures_latency()
    }

    fn waiting_on(&self) -> Option<String> {
        (**self).waiting_on()
    }
}

impl<A: Agent + ?Sized> Agent for Box<A> {
    fn respond(&self, request: AgentRequest) -> BoxFuture<'_, Result<Reply, AgentError>> {
        (**self).respond(request)
    }

    fn runner_measures_latency(&self) -> bool {
        (**self).runner_measures_latency()
    }

    fn waiting_on(&self) -> Option<String> {
        (**self).waiting_on()
    }
}

/// Why an agent produced no reply for a turn (a transport failure, a timeout, a crash).
///
/// An answer that *is* a reply, even an HTTP 500, is not an error: it is recorded so checks can
/// look at it.
///
/// ```
/// use agent_test::agent::AgentError;
/// let e = AgentError::new("connection refused");
/// assert_eq!(e.to_string(), "connection refused");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct AgentError {
    message: String,
    partial: Option<Box<Reply>>,
}

impl AgentError {
    /// An error with a message.
    ///
    /// See the type's example.
    pub fn new(message: impl Into<String>) -> Self {
        AgentError {
            message: message.into(),
            partial: None,
        }
    }

    /// An error that still has what the agent did before it failed (the tool calls of a model
    /// that hit its step limit): the turn records it, so nothing is lost.
    ///
    /// ```
    /// # use agent_test::{agent::AgentError, model::Reply};
    /// let e = AgentError::new("step limit").with_partial(Reply::text("..."));
    /// assert!(e.partial().is_some());
    /// ```
    pub fn with_partial(mut self, reply: Reply) -> Self {
        self.partial = Some(Box::new(reply));
        self
    }

    /// What the agent did before failing, if known.
    pub fn partial(&self) -> Option<&Reply> {
        self.partial.as_deref()
    }

    /// Takes the partial reply.
    #[doc(hidden)]
    pub fn into_partial(self) -> Option<Reply> {
        self.partial.map(|b| *b)
    }

    /// The message.
    ///
    /// ```
    /// # use agent_test::agent::AgentError;
    /// assert_eq!(AgentError::new("x").message(), "x");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for AgentError {}

impl From<String> for AgentError {
    fn from(message: String) -> Self {
        AgentError::new(message)
    }
}

impl From<&str> for AgentError {
    fn from(message: &str) -> Self {
        AgentError::new(message)
    }
}
