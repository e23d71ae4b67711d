//! The network side of [agent-test](https://docs.rs/agent-test): the agents a run drives
//! (in-process closures, HTTP endpoints, OpenAI-compatible chat models, MCP servers, replayed
//! recordings), the judge's clients, cassettes of model traffic, HTTP requests for a scenario's
//! steps, and the live OTLP receiver. Each network piece is behind a feature (`http`, `mcp`,
//! `cassette`, `otlp`, `tracing`); without it, its names are stubs whose use is a compile error
//! naming the feature. The runtime runs scenarios on top of it; users reach it through the
//! `agent-test` facade.
//!
//! ```
//! use agent_test::agent::{Agent, AgentRequest, agent_fn};
//! use agent_test::model::{Message, Reply};
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let agent = agent_fn(|req| async move { Reply::text(format!("You said: {}", req.input)) });
//! let reply = agent.respond(AgentRequest::new("echo", 0, vec![Message::user("hi")])).await.unwrap();
//! assert_eq!(reply.text, "You said: hi");
//! # });
//! ```

// External data must never crash a run: answers from the network are errors, not panics.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]

pub mod agent;
pub mod cassette;
pub mod judge;
#[cfg(feature = "otlp")]
#[doc(hidden)]
pub mod otlp;
#[cfg(feature = "http")]
pub mod request;
/// HTTP calls for a scenario's setup and verification: they need the `http` feature.
#[cfg(not(feature = "http"))]
pub mod request {
    pub use crate::agent::gated::{get, post};
}
