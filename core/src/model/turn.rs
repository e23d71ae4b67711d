//! One recorded turn: the user's input and the agent's reply.

use serde::{Deserialize, Serialize};

use super::{Call, CallKind, Message, Reply};

/// A recorded turn of a conversation.
///
/// `index` is 0-based in data and JSON; text reports number turns from 1.
///
/// ```
/// use agent_test::model::{Reply, Turn};
/// let turn = Turn::new(0, "hello", Reply::text("Hi! How can I help?"), 12);
/// assert_eq!(turn.reply.text, "Hi! How can I help?");
/// assert!(turn.error.is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
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
    /// Time the agent took, in milliseconds: its own figure when it reported one, else the
    /// runner's measurement. `None` when nothing measured it (a trace or recording without a
    /// duration): latency checks on such a turn are "not measured" errors, never a pass. Absent
    /// in JSON when not measured; recordings written with a figure load with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<u64>,
    /// Why the turn produced no reply: the agent returned an error, timed out or panicked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What the turn cost, worked out from its tokens with the suite's price table (see
    /// `Prices`); `None` when no table was set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<super::prices::Cost>,
}

impl Turn {
    /// Records a turn the runner timed (`measured_ms`, unless the reply carries the agent's own
    /// figure); numbers the positions of its calls (see [`Call`]).
    ///
    /// ```
    /// use agent_test::model::{Call, Reply, Turn};
    /// let reply = Reply::text("")
    ///     .call(Call::node("Agent").child(Call::tool("a", serde_json::json!({}))))
    ///     .call(Call::tool("b", serde_json::json!({})));
    /// let turn = Turn::new(0, "go", reply, 1);
    /// assert_eq!(turn.reply.calls[0].children[0].position, 0); // tool `a`
    /// assert_eq!(turn.reply.calls[1].position, 1); // tool `b`
    /// ```
    pub fn new(index: usize, input: impl Into<String>, reply: Reply, measured_ms: u64) -> Self {
        Self::timed(index, input, reply, Some(measured_ms))
    }

    /// Records a turn read from a trace or a recording, which nobody timed here: its latency is
    /// the reply's own figure ([`Reply::latency_ms`], a trace's `duration_ms`) or not measured.
    ///
    /// ```
    /// use agent_test::model::{Reply, Turn};
    /// assert_eq!(Turn::recorded(0, "hi", Reply::text("Hello")).latency_ms, None);
    /// assert_eq!(Turn::recorded(0, "hi", Reply::text("Hello").latency_ms(40)).latency_ms, Some(40));
    /// ```
    pub fn recorded(index: usize, input: impl Into<String>, reply: Reply) -> Self {
        Self::timed(index, input, reply, None)
    }

    /// A turn whose latency is the reply's own figure, else `measured_ms` (if anything measured).
    #[doc(hidden)]
    pub fn timed(
        index: usize,
        input: impl Into<String>,
        mut reply: Reply,
        measured_ms: Option<u64>,
    ) -> Self {
        super::call::number_positions(&mut reply.calls);
        let latency_ms = reply.latency_ms.or(measured_ms);
        Turn {
            index,
            before: Vec::new(),
            input: input.into(),
            reply,
            latency_ms,
            error: None,
            cost: None,
        }
    }

    /// Records a turn on which the agent failed.
    ///
    /// ```
    /// # use agent_test::model::Turn;
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
    /// # use agent_test::model::{Call, Reply, Turn};
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
