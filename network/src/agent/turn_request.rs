//! What an agent receives for one turn.

use serde::{Deserialize, Serialize};

use agent_test_core::model::{Context, Message};

/// The input of one turn: the user's message, the conversation so far and the context.
///
/// ```
/// use agent_test::agent::AgentRequest;
/// use agent_test::model::Message;
/// let r = AgentRequest::new("refund", 0, vec![Message::user("refund please")]);
/// assert_eq!(r.input, "refund please");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct AgentRequest {
    /// The scenario's name.
    pub scenario: String,
    /// The 0-based turn number.
    pub turn: usize,
    /// The user's message for this turn (also the last entry of `messages`).
    pub input: String,
    /// The conversation so far, this turn's user message last: history, system messages,
    /// earlier user messages and the agent's earlier replies.
    pub messages: Vec<Message>,
    /// The scenario's context variables (suite variables overridden by the scenario's).
    pub context: Context,
    /// A custom request body for this turn (see [`UserInput`](super::UserInput)): HTTP agents
    /// send it instead of their template.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_body: Option<serde_json::Value>,
    /// When the user sent the first message of the run, in the suite's time zone: agents that
    /// reason about dates ("tomorrow") should use it, so that pinned clocks work end to end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_time: Option<jiff::Zoned>,
}

impl AgentRequest {
    /// A request whose input is the content of the last message.
    ///
    /// See the type's example.
    pub fn new(scenario: impl Into<String>, turn: usize, messages: Vec<Message>) -> Self {
        AgentRequest {
            scenario: scenario.into(),
            turn,
            input: messages
                .last()
                .map(|m| m.content.clone())
                .unwrap_or_default(),
            messages,
            context: Context::default(),
            custom_body: None,
            user_time: None,
        }
    }
}
