//! What a user turn sends: text, or a custom JSON body.

use serde_json::Value;

/// The user's side of a turn: a message, or a custom JSON body that replaces an HTTP agent's
/// request template (Mibo's `custom_body`, for workflows that take structured payloads).
///
/// Strings convert into a message; build a body with [`custom_body`].
///
/// ```
/// use agent_test::agent::{UserInput, custom_body};
/// let text: UserInput = "Where is my order?".into();
/// assert!(text.body.is_none());
/// let body = custom_body(serde_json::json!({"action": "process_order", "order_id": "ORD-1001"}));
/// assert_eq!(body.text, r#"{"action":"process_order","order_id":"ORD-1001"}"#);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct UserInput {
    /// The message (for a custom body, the body as compact JSON).
    pub text: String,
    /// A custom request body, sent instead of the agent's template.
    pub body: Option<Value>,
}

/// A turn that sends `body` as the request instead of a message (see [`UserInput`]).
pub fn custom_body(body: Value) -> UserInput {
    UserInput {
        text: serde_json::to_string(&body).unwrap_or_default(),
        body: Some(body),
    }
}

impl From<&str> for UserInput {
    fn from(text: &str) -> Self {
        UserInput {
            text: text.to_owned(),
            body: None,
        }
    }
}

impl From<String> for UserInput {
    fn from(text: String) -> Self {
        UserInput { text, body: None }
    }
}

impl From<&String> for UserInput {
    fn from(text: &String) -> Self {
        text.as_str().into()
    }
}

/// What a `user` turn of `agent_test!` accepts: text (`&str`, `String`, `&String`), or a
/// [`UserInput`] (a [`custom_body`]).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a user message",
    label = "expected the user's message here",
    note = "a user turn sends text: `user \"I was charged twice\";`, `user format!(..);`, or a JSON body with `user custom_body(json!(..));`"
)]
pub trait UserMessage {
    /// The message as the turn's input.
    fn into_user_input(self) -> UserInput;
}

impl UserMessage for UserInput {
    fn into_user_input(self) -> UserInput {
        self
    }
}

impl UserMessage for &str {
    fn into_user_input(self) -> UserInput {
        self.into()
    }
}

impl UserMessage for String {
    fn into_user_input(self) -> UserInput {
        self.into()
    }
}

impl UserMessage for &String {
    fn into_user_input(self) -> UserInput {
        self.into()
    }
}

impl UserMessage for std::borrow::Cow<'_, str> {
    fn into_user_input(self) -> UserInput {
        self.into_owned().into()
    }
}

/// What `user <expr>` compiles to: the message, with a targeted error for anything else.
#[doc(hidden)]
pub fn user_message(message: impl UserMessage) -> UserInput {
    message.into_user_input()
}
