//! Calling the agent for one turn without letting it take the run down.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use agent_test_core::model::Reply;
use agent_test_core::util::text::panic_message;
use agent_test_network::agent::{Agent, AgentError, AgentRequest};

/// Calls the agent, turning a panic or a timeout into an [`AgentError`], so that one broken
/// turn is reported with the rest of the run instead of aborting it.
pub(crate) async fn call_agent(
    agent: &dyn Agent,
    request: AgentRequest,
    timeout: Duration,
) -> Result<Reply, AgentError> {
    let mut future = match catch_unwind(AssertUnwindSafe(|| agent.respond(request))) {
        Ok(f) => f,
        Err(p) => {
            return Err(AgentError::new(format!(
                "the agent panicked: {}",
                panic_message(&p)
            )));
        }
    };
    let guarded = std::future::poll_fn(move |cx| {
        match catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(cx))) {
            Ok(poll) => poll,
            Err(p) => std::task::Poll::Ready(Err(AgentError::new(format!(
                "the agent panicked: {}",
                panic_message(&p)
            )))),
        }
    });
    // Timeouts need a tokio timer; without a tokio runtime (another executor) run unbounded.
    if tokio::runtime::Handle::try_current().is_err() {
        return guarded.await;
    }
    match tokio::time::timeout(timeout, guarded).await {
        Ok(result) => result,
        Err(_) => Err(AgentError::new(match agent.waiting_on() {
            Some(what) => format!("timed out after {}, {what}", human_duration(timeout)),
            None => format!("timed out after {}", human_duration(timeout)),
        })),
    }
}

fn human_duration(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{}ms", d.as_millis())
    }
}
