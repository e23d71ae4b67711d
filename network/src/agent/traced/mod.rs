//! In-process agents that emit `tracing` spans: Rust LLM crates (`genai` with its `otel`
//! feature, `rig`, your own code) write spans whose fields follow the OpenTelemetry GenAI
//! conventions (`gen_ai.operation.name`, `gen_ai.tool.name`, `gen_ai.usage.input_tokens`,
//! ...). [`traced`] wraps such an agent: while a turn runs, a `tracing` subscriber of the
//! turn's captures those spans ([`capture`]), and they are read into the turn like an
//! OpenTelemetry trace (see [`TraceFormat::Otel`](agent_test_readers::trace::TraceFormat::Otel)).

mod capture;
mod keepers;

use super::{Agent, AgentError, AgentRequest, BoxFuture};
use agent_test_core::model::Reply;

/// An agent whose turns are read from the `tracing` spans it emits, as well as from its reply
/// (see [`traced`]).
pub struct Traced<A> {
    inner: A,
}

/// Wraps `agent`: the `tracing` spans it emits during a turn — model calls, tool executions,
/// sub-agents, by the GenAI conventions — give the turn's tool calls (when the reply lists
/// none), its usage (when the reply has none) and its text (when the reply has none).
///
/// The spans are captured by a subscriber set for the turn's future as it is polled
/// (`tracing`'s `WithSubscriber`): a span the agent starts in `respond` before returning its
/// future, or in a task it spawns (unless spawned with `.with_current_subscriber()`), goes to
/// another subscriber — start them inside the future. Every traced turn's spans live in one
/// registry, so one agent shared by concurrent turns (a rig agent in a `LazyLock`) works: a
/// span belongs to the turn of its parent span, else to the turn whose subscriber started it. A span's ERROR status
/// (`otel.status_code = "ERROR"`, or an `error.type` field) is a failed call; its name is its
/// `otel.name` field when it has one.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::agent::{Agent, AgentRequest, agent_fn, traced};
/// use agent_test::model::Reply;
///
/// // An agent that runs a tool and says so in a span, as an instrumented crate does.
/// let agent = traced(agent_fn(|_req| async {
///     let span = tracing::info_span!(
///         "execute_tool",
///         "gen_ai.operation.name" = "execute_tool",
///         "gen_ai.tool.name" = "lookup_order",
///         "gen_ai.tool.call.arguments" = r#"{"order_id": "ORD-9921"}"#,
///     );
///     span.in_scope(|| ());
///     Reply::text("Order ORD-9921 was delivered.")
/// }));
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let reply = agent
///     .respond(AgentRequest::new("t", 0, vec![agent_test::model::Message::user("Where is it?")]))
///     .await
///     .unwrap();
/// assert_eq!(reply.calls[0].name, "lookup_order");
/// assert_eq!(reply.calls[0].arguments["order_id"], "ORD-9921");
/// # });
/// ```
pub fn traced<A: Agent>(agent: A) -> Traced<A> {
    keepers::keep_callsites_open();
    Traced { inner: agent }
}

impl<A: Agent> Agent for Traced<A> {
    fn respond(&self, request: AgentRequest) -> BoxFuture<'_, Result<Reply, AgentError>> {
        use tracing::instrument::WithSubscriber;
        // `Traced` values are only made by `traced`, which already did; cheap when done.
        keepers::keep_callsites_open();
        let (subscriber, captured) = capture::turn_subscriber();
        let turn = self.inner.respond(request).with_subscriber(subscriber);
        Box::pin(async move {
            let result = turn.await;
            let spans = captured.finish();
            match result {
                Ok(mut reply) => {
                    if !spans.is_empty() {
                        let traced = agent_test_readers::trace::otel::turn(0, spans);
                        agent_test_readers::trace::otel::merge(&mut reply, traced);
                    }
                    Ok(reply)
                }
                Err(e) => Err(e),
            }
        })
    }

    fn runner_measures_latency(&self) -> bool {
        self.inner.runner_measures_latency()
    }
}
