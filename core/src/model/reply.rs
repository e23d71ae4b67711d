//! What an agent returns for one user turn.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Call, Gap, Guardrail, SpanReading, Usage, Workflow};

/// The agent's side of one turn: its reply text and everything it did to produce it.
///
/// Agents build one per turn; the runtime stores it in the [`Turn`](super::Turn) together with
/// the user's input and the measured latency.
///
/// ```
/// use agent_test::model::{Call, Reply, Usage};
/// use serde_json::json;
///
/// let reply = Reply::text("Your order ORD-9921 has been refunded.")
///     .call(Call::tool("lookup_order", json!({"order_id": "ORD-9921"})).result(json!({"total": 42.5})))
///     .call(Call::tool("process_refund", json!({"order_id": "ORD-9921", "amount": 42.5})))
///     .usage(Usage::new(310, 24));
/// assert_eq!(reply.calls.len(), 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Reply {
    /// The reply text shown to the user.
    #[serde(default)]
    pub text: String,
    /// The raw response body: parsed JSON when the agent answered with JSON (an HTTP agent's
    /// response body, a structured output), else absent.
    #[serde(
        default,
        deserialize_with = "super::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub body: Option<Value>,
    /// The calls made during the turn, in order; workflow nodes hold their nested tool calls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<Call>,
    /// Token usage, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// The HTTP status of the agent's answer, for agents reached over HTTP.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_status: Option<u16>,
    /// The chat model that wrote the reply, when the agent *is* a model reached through an
    /// OpenAI-compatible chat endpoint (`ChatAgent` records it).
    /// Such an agent's HTTP exchanges are with its model endpoint, one per model step; its
    /// answer has no HTTP status of its own, so an `http_status` check on it says so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chat_model: Option<String>,
    /// Latency the agent measured itself (a trace's `duration_ms`); when absent the runtime's
    /// own measurement is used, and a turn read from a trace or replayed from a recording
    /// without one is *not measured* (see [`Turn::latency_ms`](super::Turn::latency_ms)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<u64>,
    /// The workflow's state after the turn, for state-machine agents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workflow: Option<Workflow>,
    /// The guardrails (validators) that ran on the turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub guardrails: Vec<Guardrail>,
    /// What the agent adapter wants the report to say of the turn, beside the checks (spans
    /// that arrived late, or that no turn claimed): the run copies them into the report's
    /// notes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Parts of the turn that could not be read completely ([`Gap`]): checks that read them
    /// are errors on this turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gaps: Vec<Gap>,
    /// For a turn read from trace spans (recorded, received over OTLP, or captured from
    /// `tracing`): how many spans there were and which were not understood. Unread spans that
    /// might be calls make claims that a call did not happen, and counts, *not measured* on
    /// this turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spans: Option<SpanReading>,
}

impl Reply {
    /// A reply with the given text.
    ///
    /// ```
    /// # use agent_test::model::Reply;
    /// assert_eq!(Reply::text("hi").text, "hi");
    /// ```
    pub fn text(text: impl Into<String>) -> Self {
        Reply {
            text: text.into(),
            ..Reply::default()
        }
    }

    /// Adds a call (a tool call, or a node with nested calls).
    ///
    /// ```
    /// # use agent_test::model::{Call, Reply};
    /// let r = Reply::text("ok").call(Call::tool("search", serde_json::json!({"q": "x"})));
    /// assert_eq!(r.calls[0].name, "search");
    /// ```
    pub fn call(mut self, call: Call) -> Self {
        self.calls.push(call);
        self
    }

    /// Sets the raw JSON body.
    ///
    /// ```
    /// # use agent_test::model::Reply;
    /// let r = Reply::text("").body(serde_json::json!({"status": "confirmed"}));
    /// assert_eq!(r.body.unwrap()["status"], "confirmed");
    /// ```
    pub fn body(mut self, body: Value) -> Self {
        self.body = Some(body);
        self
    }

    /// Sets the token usage.
    ///
    /// ```
    /// # use agent_test::model::{Reply, Usage};
    /// assert_eq!(Reply::text("").usage(Usage::new(3, 4)).usage.unwrap().total(), Some(7));
    /// ```
    pub fn usage(mut self, usage: Usage) -> Self {
        self.usage = Some(usage);
        self
    }

    /// Sets the HTTP status.
    ///
    /// ```
    /// # use agent_test::model::Reply;
    /// assert_eq!(Reply::text("").http_status(503).http_status, Some(503));
    /// ```
    pub fn http_status(mut self, status: u16) -> Self {
        self.http_status = Some(status);
        self
    }

    /// Records the chat model that wrote the reply (the field of the same name).
    ///
    /// ```
    /// # use agent_test::model::Reply;
    /// let r = Reply::text("Hello!").chat_model("gpt-4o-mini");
    /// assert_eq!(r.chat_model.as_deref(), Some("gpt-4o-mini"));
    /// ```
    pub fn chat_model(mut self, model: impl Into<String>) -> Self {
        self.chat_model = Some(model.into());
        self
    }

    /// Sets the workflow state.
    ///
    /// ```
    /// # use agent_test::model::{Reply, Workflow};
    /// let r = Reply::text("").workflow(Workflow::in_state("intake"));
    /// assert!(r.workflow.is_some());
    /// ```
    pub fn workflow(mut self, workflow: Workflow) -> Self {
        self.workflow = Some(workflow);
        self
    }

    /// Adds a guardrail result.
    ///
    /// ```
    /// # use agent_test::model::{Guardrail, Reply};
    /// let r = Reply::text("").guardrail(Guardrail::triggered("banned_words"));
    /// assert_eq!(r.guardrails.len(), 1);
    /// ```
    pub fn guardrail(mut self, guardrail: Guardrail) -> Self {
        self.guardrails.push(guardrail);
        self
    }

    /// Records a part of the turn that could not be read completely (see [`Gap`]).
    ///
    /// See [`Gap`]'s example.
    pub fn gap(mut self, gap: Gap) -> Self {
        self.gaps.push(gap);
        self
    }

    /// Sets the latency the agent measured itself, in milliseconds.
    ///
    /// ```
    /// # use agent_test::model::Reply;
    /// assert_eq!(Reply::text("").latency_ms(1500).latency_ms, Some(1500));
    /// ```
    pub fn latency_ms(mut self, ms: u64) -> Self {
        self.latency_ms = Some(ms);
        self
    }
}

impl From<&str> for Reply {
    fn from(text: &str) -> Self {
        Reply::text(text)
    }
}

impl From<String> for Reply {
    fn from(text: String) -> Self {
        Reply::text(text)
    }
}
