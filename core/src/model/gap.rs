//! What the record of a turn is known to lack: a part of the turn that could not be read, and
//! why. Checks that read that part are errors on the turn, never passes or failures on what
//! was read; checks of the other parts are evaluated as usual.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A part of a turn's record.
///
/// ```
/// use agent_test::model::Part;
/// assert_eq!(Part::Calls.to_string(), "tool calls");
/// assert_eq!(serde_json::to_value(Part::ReplyText).unwrap(), "reply_text");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
// Exhaustive on purpose: the runtime (another crate) matches every variant, so that one
// added here is a compile error where it must be handled, not a wildcard's silence.
pub enum Part {
    /// The calls: which tools and sub-agents were called, in which order, and which failed.
    Calls,
    /// The calls' arguments.
    Arguments,
    /// The calls' results.
    Results,
    /// Whether each call succeeded or failed.
    Outcomes,
    /// The reply text.
    ReplyText,
    /// The token usage.
    Usage,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Part::Calls => "tool calls",
            Part::Arguments => "tool calls' arguments",
            Part::Results => "tool calls' results",
            Part::Outcomes => "tool calls' outcomes (success or failure)",
            Part::ReplyText => "reply text",
            Part::Usage => "token usage",
        })
    }
}

/// A part of a turn that could not be read completely, and why: a trace span that could not
/// be joined with the call it ran, a reply field that is missing. The reply holds what *was*
/// read; a check that reads a part with a gap is an error verdict naming it.
///
/// ```
/// use agent_test::model::{Gap, Part, Reply};
/// let reply = Reply::text("Booked.").gap(Gap::new(Part::Calls, "a tool span could not be read"));
/// assert_eq!(reply.gaps[0].to_string(), "the tool calls are incomplete: a tool span could not be read");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gap {
    /// The part.
    pub part: Part,
    /// Why it is incomplete.
    pub reason: String,
}

impl Gap {
    /// A gap in `part`, for `reason`.
    ///
    /// See the type's example.
    pub fn new(part: Part, reason: impl Into<String>) -> Self {
        Gap {
            part,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Gap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = match self.part {
            Part::ReplyText | Part::Usage => "is",
            _ => "are",
        };
        write!(f, "the {} {verb} incomplete: {}", self.part, self.reason)
    }
}
