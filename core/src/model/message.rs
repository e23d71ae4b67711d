//! Conversation messages: what the agent under test is shown as history.

use serde::{Deserialize, Serialize};

/// Who wrote a [`Message`].
///
/// ```
/// use agent_test::model::Role;
/// assert_eq!(serde_json::to_string(&Role::Assistant).unwrap(), "\"assistant\"");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Role {
    /// Instructions for the agent.
    System,
    /// The (simulated) user.
    User,
    /// The agent under test.
    Assistant,
    /// A tool's answer, when a history carries one.
    Tool,
}

impl Role {
    /// The lowercase name used in reports and JSON.
    ///
    /// ```
    /// use agent_test::model::Role;
    /// assert_eq!(Role::User.as_str(), "user");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }
}

/// One message of a conversation, in the OpenAI chat shape (`role` + `content`).
///
/// ```
/// use agent_test::model::{Message, Role};
/// let m = Message::user("Where is my order?");
/// assert_eq!(m.role, Role::User);
/// assert_eq!(m.content, "Where is my order?");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Message {
    /// Who wrote it.
    pub role: Role,
    /// Its text.
    pub content: String,
}

impl Message {
    /// A message with the given role.
    ///
    /// ```
    /// use agent_test::model::{Message, Role};
    /// assert_eq!(Message::new(Role::Tool, "42").role, Role::Tool);
    /// ```
    pub fn new(role: Role, content: impl Into<String>) -> Self {
        Message {
            role,
            content: content.into(),
        }
    }

    /// A user message.
    ///
    /// ```
    /// # use agent_test::model::{Message, Role};
    /// assert_eq!(Message::user("hi").role, Role::User);
    /// ```
    pub fn user(content: impl Into<String>) -> Self {
        Message::new(Role::User, content)
    }

    /// An assistant message.
    ///
    /// ```
    /// # use agent_test::model::{Message, Role};
    /// assert_eq!(Message::assistant("hello").role, Role::Assistant);
    /// ```
    pub fn assistant(content: impl Into<String>) -> Self {
        Message::new(Role::Assistant, content)
    }

    /// A system message.
    ///
    /// ```
    /// # use agent_test::model::{Message, Role};
    /// assert_eq!(Message::system("be brief").role, Role::System);
    /// ```
    pub fn system(content: impl Into<String>) -> Self {
        Message::new(Role::System, content)
    }
}
