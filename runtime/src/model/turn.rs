//! One recorded turn: the user's input and the agent's reply.

use serde::{Deserialize, Serialize};

use super::{Call, CallKind, Message, Reply};

/// A recorded turn of a conversation.
///
/// `index` is 0-based in data and JSON; text reports number turns from 1.
///
/// ```
/// use agent_test_runtime::model::{Reply, Turn};
/// let turn = Turn::new(0, "hello", Reply::text("Hi! How can I help?"), 12);
/// assert_eq!(turn.reply.text, "Hi! How can I help?");
/// assert!(turn.error.is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    /// 0-based turn number.
    pub index: usize,
    /// Messages added to the conversation just before this turn's user message (system
    /// messages, injected history).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub before: Vec<Message>,
    /// The user's message.
    pub input: String,
    /// What the agent answered and did.
    #[serde(default)]
    pub reply: Reply,
    /// Time the agent took, in milliseconds (its own figure when it reported one).
    #[serde(default)]
    pub latency_ms: u64,
    /// Why the turn produced no reply: the agent returned an error, timed out or panicked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Turn {
    /// Records a turn; numbers the positions of its calls (see [`Call`]).
    ///
    /// ```
    /// use agent_test_runtime::model::{Call, Reply, Turn};
    /// let reply = Reply::text("")
    ///     .call(Call::node("Agent").child(Call::tool("a", serde_json::json!({}))))
    ///     .call(Call::tool("b", serde_json::json!({})));
    /// let turn = Turn::new(0, "go", reply, 1);
    /// assert_eq!(turn.reply.calls[0].children[0].position, 0); // tool `a`
    /// assert_eq!(turn.reply.calls[1].position, 1); // tool `b`
    /// ```
    pub fn new(index: usize, input: impl Into<String>, mut reply: Reply, measured_ms: u64) -> Self {
        super::call::number_positions(&mut reply.calls);
        let latency_ms = reply.latency_ms.unwrap_or(measured_ms);
        Turn {
            index,
            before: Vec::new(),
            input: input.into(),
            reply,
            latency_ms,
            error: None,
        }
    }

    /// Records a turn on which the agent failed.
    ///
    /// ```
    /// # use agent_test_runtime::model::Turn;
    /// let t = Turn::failed(1, "hi", "connection refused", 3);
    /// assert_eq!(t.error.as_deref(), Some("connection refused"));
    /// ```
    pub fn failed(
        index: usize,
        input: impl Into<String>,
        error: impl Into<String>,
        measured_ms: u64,
    ) -> Self {
        Turn {
            error: Some(error.into()),
            ..Turn::new(index, input, Reply::default(), measured_ms)
        }
    }

    /// The tool calls of this turn, depth-first in call order (nodes themselves excluded).
    ///
    /// ```
    /// # use agent_test_runtime::model::{Call, Reply, Turn};
    /// let reply = Reply::text("").call(Call::node("Agent").child(Call::tool("a", serde_json::json!({}))));
    /// let turn = Turn::new(0, "go", reply, 1);
    /// assert_eq!(turn.tool_calls().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["a"]);
    /// ```
    pub fn tool_calls(&self) -> impl Iterator<Item = &Call> {
        let mut out = Vec::new();
        for call in &self.reply.calls {
            call.walk(&mut |c| {
                if c.kind == CallKind::Tool {
                    out.push(c);
                }
            });
        }
        out.into_iter()
    }
}
