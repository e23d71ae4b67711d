//! The record of one run of a scenario.

use serde::{Deserialize, Serialize};

use jiff::Zoned;

use super::{Context, Message, Turn};

/// Everything the agent was shown and did during one run of a scenario.
///
/// Serialisable: the same JSON is written in reports and read back to replay or re-evaluate a
/// run without calling the agent.
///
/// ```
/// use agent_test::model::{Message, Reply, Role, Transcript, Turn};
/// let t = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello!"), 5)])
///     .with_history(vec![Message::system("You are a booking assistant.")]);
/// let roles: Vec<Role> = t.messages().iter().map(|m| m.role).collect();
/// assert_eq!(roles, [Role::System, Role::User, Role::Assistant]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Transcript {
    /// Messages before the first turn (prior history, system prompts).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<Message>,
    /// The turns, in order.
    #[serde(default)]
    pub turns: Vec<Turn>,
    /// The context variables of the run (checks' expressions read them).
    #[serde(default, skip_serializing_if = "Context::is_empty")]
    pub context: Context,
    /// When the user sent the first message, in the run's time zone: the instant `TODAY()` and
    /// `NOW()` mean when the run's checks are evaluated (now, or when re-evaluated later).
    /// Without it, the wall clock in UTC is used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_time: Option<Zoned>,
    /// The variable bag of a data scenario's run (Lamdis's tests): every value its steps set,
    /// in order — extracted values and saved responses (`var.<name>`), step outputs
    /// (`steps.<id>.output`). A recording keeps them, so its variable checks can be evaluated
    /// later without calling anything.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<Variable>,
}

/// One value a data scenario's step set in the variable bag.
///
/// ```
/// use agent_test::model::Variable;
/// let v = Variable::new("var.orderId", serde_json::json!("ORD-7"));
/// assert_eq!(v.path, "var.orderId");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variable {
    /// Where in the bag: `var.<name>` or `steps.<id>.output`.
    pub path: String,
    /// The value set.
    pub value: serde_json::Value,
}

impl Variable {
    /// A value set at `path`.
    ///
    /// See the type's example.
    pub fn new(path: impl Into<String>, value: serde_json::Value) -> Self {
        Variable {
            path: path.into(),
            value,
        }
    }
}

impl Transcript {
    /// A transcript of these turns, with no history, context or user time.
    ///
    /// ```
    /// use agent_test::model::{Reply, Transcript, Turn};
    /// let t = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello!"), 5)]);
    /// assert_eq!(t.turns.len(), 1);
    /// ```
    pub fn new(turns: Vec<Turn>) -> Self {
        Transcript {
            turns,
            ..Transcript::default()
        }
    }

    /// The transcript with the messages that came before its turns (a system prompt, an
    /// earlier conversation).
    ///
    /// See the type's example.
    pub fn with_history(mut self, history: Vec<Message>) -> Self {
        self.history = history;
        self
    }

    /// The whole conversation as messages: history, then for each turn the messages added
    /// before it,
    /// the user's input and (unless the turn failed) the agent's reply.
    ///
    /// See the type's example.
    pub fn messages(&self) -> Vec<Message> {
        let mut out = self.history.clone();
        for turn in &self.turns {
            out.extend(turn.before.iter().cloned());
            out.push(Message::user(turn.input.clone()));
            if turn.error.is_none() {
                out.push(Message::assistant(turn.reply.text.clone()));
            }
        }
        out
    }

    /// The text of every message of [`Transcript::messages`] through `turns` (a prefix of this
    /// transcript's turns), in the same order, without copying.
    pub(crate) fn message_texts<'t>(&'t self, turns: &'t [Turn]) -> impl Iterator<Item = &'t str> {
        let history = self.history.iter().map(|m| m.content.as_str());
        history.chain(turns.iter().flat_map(|t| {
            t.before
                .iter()
                .map(|m| m.content.as_str())
                .chain([t.input.as_str()])
                .chain(t.error.is_none().then_some(t.reply.text.as_str()))
        }))
    }

    /// The last turn's reply text (the final answer), or `""` when no turn ran.
    ///
    /// ```
    /// # use agent_test::model::{Reply, Transcript, Turn};
    /// let t = Transcript::new(vec![Turn::new(0, "a", Reply::text("b"), 1)]);
    /// assert_eq!(t.final_reply(), "b");
    /// ```
    pub fn final_reply(&self) -> &str {
        self.turns.last().map_or("", |t| t.reply.text.as_str())
    }
}
