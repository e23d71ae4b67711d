//! How a turn read from trace spans accounted for them: how many there were, and those no
//! convention understood ("unread"), with why each might have been a call.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The spans a turn was read from: every span is an agent, a tool call, a model step or
/// structure its convention knows — or unread. Reports show it for every turn read from a
/// trace; unread spans that might be calls make a claim that a call did not happen (and a
/// count) over the turn *not measured*, an error verdict naming them.
///
/// ```
/// use agent_test::model::{SpanReading, UnreadSpans};
/// let mut reading = SpanReading::new(12);
/// assert_eq!(reading.to_string(), "12 spans, all read");
/// reading.unread.push(UnreadSpans::new("Function: book_train", 2, Some("its name says `function`".into())));
/// reading.unread.push(UnreadSpans::new("POST /chat", 1, None));
/// assert!(reading.may_hide_calls());
/// assert_eq!(
///     reading.to_string(),
///     "12 spans, 3 unread: `Function: book_train` ×2 (may be calls: its name says `function`), `POST /chat`"
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct SpanReading {
    /// How many spans the turn was read from.
    pub spans: usize,
    /// The spans no convention understood, by name, in the order they started.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unread: Vec<UnreadSpans>,
}

/// Spans of one name that were not understood, and why they might be calls.
///
/// See [`SpanReading`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct UnreadSpans {
    /// The spans' name.
    pub name: String,
    /// How many there were.
    pub count: usize,
    /// Why they might be tool or agent calls (`its name says "function"`, `it carries
    /// "tool.name"`); `None` when nothing says so (an HTTP or database span).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub possible_call: Option<String>,
}

impl UnreadSpans {
    /// `count` unread spans named `name`.
    ///
    /// See [`SpanReading`].
    pub fn new(name: impl Into<String>, count: usize, possible_call: Option<String>) -> Self {
        UnreadSpans {
            name: name.into(),
            count,
            possible_call,
        }
    }
}

impl SpanReading {
    /// A reading of `spans` spans, all understood.
    ///
    /// See the type's example.
    pub fn new(spans: usize) -> Self {
        SpanReading {
            spans,
            unread: Vec::new(),
        }
    }

    /// Whether some unread span might be a call: then whether a call did not happen, or how
    /// many there were, is not known from this turn.
    ///
    /// See the type's example.
    pub fn may_hide_calls(&self) -> bool {
        self.unread.iter().any(|u| u.possible_call.is_some())
    }

    /// The unread spans that might be calls, for a message: `` `a` ×2 (its name says …) ``.
    ///
    /// ```
    /// use agent_test::model::{SpanReading, UnreadSpans};
    /// let mut r = SpanReading::new(3);
    /// r.unread.push(UnreadSpans::new("task", 1, Some("it carries `tool.name`".into())));
    /// assert_eq!(r.possible_calls(), "1 span was not read and may be a call: `task` (it carries `tool.name`)");
    /// ```
    pub fn possible_calls(&self) -> String {
        let calls: Vec<&UnreadSpans> = self
            .unread
            .iter()
            .filter(|u| u.possible_call.is_some())
            .collect();
        let n: usize = calls.iter().map(|u| u.count).sum();
        let listed: Vec<String> = calls
            .iter()
            .map(|u| {
                format!(
                    "{} ({})",
                    u.shown(),
                    u.possible_call.as_deref().unwrap_or_default()
                )
            })
            .collect();
        let (was, call) = if n == 1 {
            ("span was", "a call")
        } else {
            ("spans were", "calls")
        };
        format!(
            "{n} {was} not read and may be {call}: {}",
            listed.join(", ")
        )
    }
}

impl UnreadSpans {
    /// `` `name` `` or `` `name` ×3 ``.
    fn shown(&self) -> String {
        if self.count == 1 {
            format!("`{}`", self.name)
        } else {
            format!("`{}` ×{}", self.name, self.count)
        }
    }
}

impl fmt::Display for SpanReading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n: usize = self.unread.iter().map(|u| u.count).sum();
        if n == 0 {
            return write!(f, "{} spans, all read", self.spans);
        }
        let listed: Vec<String> = self
            .unread
            .iter()
            .map(|u| match &u.possible_call {
                Some(why) if u.count == 1 => format!("{} (may be a call: {why})", u.shown()),
                Some(why) => format!("{} (may be calls: {why})", u.shown()),
                None => u.shown(),
            })
            .collect();
        write!(f, "{} spans, {n} unread: {}", self.spans, listed.join(", "))
    }
}
