//! What part of a run a check sees.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The part of the run a check sees: one turn, the conversation so far, or the whole
/// conversation.
///
/// A check written inside a turn sees that turn ([`CheckExt::so_far`](crate::check::CheckExt::so_far):
/// every turn up to it); a check written after the turns sees the whole conversation. Text
/// reports number turns from 1; data uses the 0-based index.
///
/// ```
/// use agent_test::check::Scope;
/// assert_eq!(Scope::Turn(0).to_string(), "turn 1");
/// assert_eq!(Scope::UpTo(2).to_string(), "turns 1-3");
/// assert_eq!(Scope::Conversation.to_string(), "conversation");
/// assert_eq!(serde_json::to_string(&Scope::Turn(2)).unwrap(), r#"{"turn":2}"#);
/// assert_eq!(serde_json::to_string(&Scope::UpTo(2)).unwrap(), r#"{"up_to":2}"#);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", remote = "Self")]
pub enum Scope {
    /// One turn, by 0-based index.
    Turn(usize),
    /// Every turn up to and including this one (0-based): the conversation so far.
    #[serde(rename = "up_to")]
    UpTo(usize),
    /// Every turn.
    #[default]
    Conversation,
}

crate::util::json::one_key_enum!(Scope, ["turn", "up_to", "conversation"]);

/// The 1-based number of the turn at 0-based `index`, for messages. Never overflows: turn
/// indices are read from recordings and scenario files, where any number can be written
/// (`usize::MAX` is turn 18446744073709551616).
pub fn turn_number(index: usize) -> u128 {
    (index as u128).saturating_add(1)
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scope::Turn(i) => write!(f, "turn {}", turn_number(*i)),
            Scope::UpTo(0) => f.write_str("turn 1"),
            Scope::UpTo(i) => write!(f, "turns 1-{}", turn_number(*i)),
            Scope::Conversation => f.write_str("conversation"),
        }
    }
}

impl Scope {
    /// The scope of a check written where `place` says (a turn, or after the turns): a check
    /// marked [`so_far`](crate::check::CheckExt::so_far) sees every turn up to that turn.
    ///
    /// ```
    /// use agent_test::check::Scope;
    /// assert_eq!(Scope::UpTo(0).placed(Scope::Turn(2)), Scope::UpTo(2));
    /// assert_eq!(Scope::Conversation.placed(Scope::Turn(2)), Scope::Turn(2));
    /// assert_eq!(Scope::UpTo(0).placed(Scope::Conversation), Scope::Conversation);
    /// ```
    pub fn placed(self, place: Scope) -> Scope {
        match (self, place) {
            (Scope::UpTo(_), Scope::Turn(i)) => Scope::UpTo(i),
            (_, place) => place,
        }
    }
}

/// Whether a failed check fails the test.
///
/// ```
/// use agent_test::check::Severity;
/// assert_eq!(Severity::default(), Severity::Error);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A failure fails the test (the default).
    #[default]
    Error,
    /// A failure is reported but does not fail the test.
    Warning,
}
