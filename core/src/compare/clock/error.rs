//! Why a clock cannot say "now": the [kind](ClockErrorKind) of problem and the text at fault.

use std::fmt;

/// What kind of problem stopped a clock, to match on without reading the message.
///
/// ```
/// use agent_test::{Clock, ClockErrorKind};
/// assert_eq!(Clock::system().now("Mars/Olympus").unwrap_err().kind, ClockErrorKind::UnknownTimeZone);
/// assert_eq!(Clock::fixed("yesterday-ish").now("UTC").unwrap_err().kind, ClockErrorKind::InvalidInstant);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ClockErrorKind {
    /// The time zone is not an IANA name (`Europe/Lisbon`) nor `UTC`.
    UnknownTimeZone,
    /// A fixed clock's instant is not RFC 3339, a civil date-time nor a date.
    InvalidInstant,
}

/// A clock that cannot say "now": the [kind](ClockErrorKind) of problem and the text at fault
/// (the time zone, or the fixed instant).
///
/// ```
/// use agent_test::{Clock, ClockErrorKind};
/// let err = Clock::fixed("2026-11-23T09:30:00Z").now("Europe/Lisbonn").unwrap_err();
/// assert_eq!(err.kind, ClockErrorKind::UnknownTimeZone);
/// assert_eq!(err.value, "Europe/Lisbonn");
/// assert_eq!(
///     err.to_string(),
///     "unknown time zone 'Europe/Lisbonn': use an IANA name such as Europe/Lisbon, or UTC"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockError {
    /// What kind of problem it is.
    pub kind: ClockErrorKind,
    /// The text at fault: the time zone's name, or the fixed clock's instant.
    pub value: String,
}

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = &self.value;
        match self.kind {
            ClockErrorKind::UnknownTimeZone => write!(
                f,
                "unknown time zone '{value}': use an IANA name such as Europe/Lisbon, or UTC"
            ),
            ClockErrorKind::InvalidInstant => write!(
                f,
                "invalid fixed clock '{value}': use RFC 3339, like 2026-11-23T09:30:00Z"
            ),
        }
    }
}

impl std::error::Error for ClockError {}
