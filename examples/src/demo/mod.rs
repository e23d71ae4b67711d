//! The demo agent: "Acme Travel & Shop" customer service.
//!
//! **The planner is not an LLM.** [`planner`] is a deterministic, rule-based stand-in that
//! reads the conversation and decides which tools to call, the way a tool-calling model would,
//! so the examples run anywhere, instantly, with the same result every time. The tools
//! ([`tools`]) are real: they read and change an in-memory store ([`store`]).

pub mod planner;
pub mod store;
pub mod tools;

use std::sync::Mutex;

use agent_test::agent::{Agent, AgentError, AgentRequest, BoxFuture};
use agent_test::model::{Call, Guardrail, Reply, Usage, Workflow};
use agent_test::serde_json::json;

use self::planner::Action;
use self::store::Store;

/// The demo agent. Each instance has its own store, so tests do not affect each other.
///
/// ```
/// use agent_test::agent::{Agent, AgentRequest};
/// use agent_test::model::Message;
/// use agent_test_examples::demo::DemoAgent;
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let agent = DemoAgent::new();
/// let reply = agent
///     .respond(AgentRequest::new("demo", 0, vec![Message::user("Where is order ORD-1001?")]))
///     .await
///     .unwrap();
/// assert_eq!(reply.calls[0].children[0].name, "lookup_order");
/// # });
/// ```
pub struct DemoAgent {
    store: Mutex<Store>,
}

/// A fresh demo agent (see [`DemoAgent`]).
pub fn demo_agent() -> DemoAgent {
    DemoAgent::new()
}

impl DemoAgent {
    /// A demo agent with the sample catalogue and orders.
    pub fn new() -> Self {
        DemoAgent {
            store: Mutex::new(Store::sample()),
        }
    }

    /// Answers one turn synchronously: read the intent, then loop — call a tool, observe its
    /// result — until the planner answers.
    pub fn handle(&self, request: &AgentRequest) -> Reply {
        let mut store = match self.store.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        let today = request.user_time.as_ref().map(|t| t.date());
        let intent = planner::intent(&request.messages, &request.context, today);
        let mut observed: Vec<planner::Observation> = Vec::new();
        let mut calls = Vec::new();
        let text = loop {
            match planner::next_action(&intent, &observed) {
                Action::Reply(text) => break text,
                Action::Call { .. } if observed.len() >= MAX_TOOL_CALLS => {
                    break "Sorry, I could not finish that request.".to_owned();
                }
                Action::Call { name, arguments } => {
                    let result = tools::run(&mut store, &name, &arguments);
                    let call = Call::tool(name.clone(), arguments);
                    calls.push(match &result {
                        Ok(value) => call.result(value.clone()),
                        Err(message) => call.failed(serde_json::Value::String(message.clone())),
                    });
                    observed.push((name, result));
                }
            }
        };
        let last_result = observed
            .iter()
            .rev()
            .find_map(|(_, r)| r.as_ref().ok())
            .cloned();
        let failed = observed.iter().any(|(_, r)| r.is_err());
        let workflow = workflow_after(&intent, &text, failed);
        let mut reply = Reply::text(text.clone())
            .usage(estimate_usage(request, &text))
            .body(json!({
                "reply": text,
                "intent": intent.name(),
                "result": last_result,
                "state": workflow.state,
            }))
            .workflow(workflow)
            .guardrail(match intent {
                planner::Intent::Refuse => Guardrail::triggered("credentials")
                    .message("a request for credentials was refused"),
                _ => Guardrail::passed("credentials"),
            });
        if !calls.is_empty() {
            // The planner runs as one workflow node, its tool calls nested under it.
            reply = reply.call(
                calls
                    .into_iter()
                    .fold(Call::node("support_agent"), Call::child),
            );
        }
        reply
    }
}

/// A turn makes at most this many tool calls (a real agent loop needs a bound too).
const MAX_TOOL_CALLS: usize = 4;

impl Default for DemoAgent {
    fn default() -> Self {
        Self::new()
    }
}

impl Agent for DemoAgent {
    fn respond(&self, request: AgentRequest) -> BoxFuture<'_, Result<Reply, AgentError>> {
        Box::pin(async move { Ok(self.handle(&request)) })
    }
}

/// The support workflow's state after a turn: a small state machine the planner walks.
fn workflow_after(intent: &planner::Intent, reply: &str, failed: bool) -> Workflow {
    use planner::Intent;
    let (state, complete) = match intent {
        Intent::AskOrderNumber => ("awaiting_order_number", false),
        Intent::LookupOrder(_) if reply.contains("Shall I refund") => {
            ("awaiting_confirmation", false)
        }
        Intent::LookupOrder(_) => ("answered", false),
        Intent::Refund(_)
        | Intent::ConfirmRefund { .. }
        | Intent::Cancel(_)
        | Intent::Book { .. }
            if failed =>
        {
            ("escalated", false)
        }
        Intent::Refund(_) | Intent::ConfirmRefund { .. } => ("refunded", true),
        Intent::Cancel(_) => ("cancelled", true),
        Intent::Book { .. } => ("booked", true),
        Intent::SearchHotels { .. } | Intent::AskDate => ("choosing_hotel", false),
        Intent::Decline => ("closed", true),
        Intent::Greeting | Intent::Refuse | Intent::Unknown => ("idle", false),
    };
    let w = Workflow::in_state(state).transitions([state]);
    if complete { w.completed() } else { w }
}

/// Token counts as a model would report them: about 4/3 tokens per word.
fn estimate_usage(request: &AgentRequest, reply: &str) -> Usage {
    let words = |s: &str| s.split_whitespace().count() as u64;
    let prompt: u64 = 60
        + request
            .messages
            .iter()
            .map(|m| words(&m.content))
            .sum::<u64>();
    Usage::new(prompt * 4 / 3, words(reply) * 4 / 3)
}
