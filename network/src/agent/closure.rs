//! Any async closure as an agent.

use std::fmt;
use std::future::Future;

use super::{Agent, AgentError, AgentRequest, BoxFuture};
use agent_test_core::model::Reply;

/// An [`Agent`] made from a closure; see [`agent_fn`].
pub struct FnAgent<F> {
    f: F,
}

/// Turns an async closure into an [`Agent`]. The closure gets the [`AgentRequest`] and may
/// return a [`Reply`], a `String`, or a `Result` of either with any displayable error.
///
/// ```
/// use agent_test::agent::agent_fn;
/// use agent_test::model::{Call, Reply};
/// use serde_json::json;
///
/// let agent = agent_fn(|req| async move {
///     if req.input.contains("weather") {
///         Ok(Reply::text("Sunny, 24°C").call(Call::tool("get_weather", json!({"city": "Lisbon"}))))
///     } else {
///         Err("I only know the weather")
///     }
/// });
/// # let _ = agent;
/// ```
pub fn agent_fn<F, Fut, R>(f: F) -> FnAgent<F>
where
    F: Fn(AgentRequest) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = R> + Send + 'static,
    R: IntoAgentResult,
{
    FnAgent { f }
}

impl<F, Fut, R> Agent for FnAgent<F>
where
    F: Fn(AgentRequest) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = R> + Send + 'static,
    R: IntoAgentResult,
{
    fn respond(&self, request: AgentRequest) -> BoxFuture<'_, Result<Reply, AgentError>> {
        let fut = (self.f)(request);
        Box::pin(async move { fut.await.into_agent_result() })
    }
}

impl<F> fmt::Debug for FnAgent<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FnAgent")
    }
}

/// What an [`agent_fn`] closure may return.
///
/// ```
/// use agent_test::agent::IntoAgentResult;
/// assert_eq!("hi".into_agent_result().unwrap().text, "hi");
/// assert!(Err::<String, _>("boom").into_agent_result().is_err());
/// ```
pub trait IntoAgentResult {
    /// Performs the conversion.
    fn into_agent_result(self) -> Result<Reply, AgentError>;
}

impl IntoAgentResult for Reply {
    fn into_agent_result(self) -> Result<Reply, AgentError> {
        Ok(self)
    }
}

impl IntoAgentResult for String {
    fn into_agent_result(self) -> Result<Reply, AgentError> {
        Ok(Reply::text(self))
    }
}

impl IntoAgentResult for &str {
    fn into_agent_result(self) -> Result<Reply, AgentError> {
        Ok(Reply::text(self))
    }
}

impl<T: Into<Reply>, E: fmt::Display> IntoAgentResult for Result<T, E> {
    fn into_agent_result(self) -> Result<Reply, AgentError> {
        self.map(Into::into)
            .map_err(|e| AgentError::new(e.to_string()))
    }
}
