//! The clock expressions like `TODAY()` are evaluated against, and its time zone.

// Every computation on input is checked: an overflow is an error, never a panic.
#![deny(clippy::arithmetic_side_effects)]

mod error;

use jiff::tz::TimeZone;
use jiff::{Timestamp, Zoned};

pub use error::{ClockError, ClockErrorKind};

/// Where "now" comes from for a run: the wall clock, or a fixed instant so that date checks
/// are reproducible.
///
/// A run records "now" as its `user_time` when it starts; every expression of the run's
/// checks (`TODAY()`, `NOW()`, `DATE_ADD(..)`) is evaluated against that instant, in the suite's
/// time zone (UTC unless set), so re-evaluating a recorded run gives the same answers.
///
/// ```
/// use agent_test::{Clock, ClockErrorKind};
/// let clock = Clock::fixed("2026-11-23T09:30:00Z");
/// let now = clock.now("Europe/Lisbon").unwrap();
/// assert_eq!(now.to_string(), "2026-11-23T09:30:00+00:00[Europe/Lisbon]");
/// let err = Clock::fixed("yesterday-ish").now("UTC").unwrap_err();
/// assert_eq!(err.kind, ClockErrorKind::InvalidInstant);
/// assert_eq!(err.to_string(), "invalid fixed clock 'yesterday-ish': use RFC 3339, like 2026-11-23T09:30:00Z");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Clock {
    /// The wall clock.
    #[default]
    System,
    /// A fixed instant: RFC 3339 (`2026-11-23T09:30:00Z`, `...+01:00`), a civil date-time
    /// (`2026-11-23T09:30:00`, read in the time zone) or a date (midnight).
    Fixed(String),
}

impl Clock {
    /// The wall clock.
    ///
    /// ```
    /// # use agent_test::Clock;
    /// assert!(Clock::system().now("UTC").is_ok());
    /// ```
    pub fn system() -> Clock {
        Clock::System
    }

    /// A fixed instant (see [`Clock::Fixed`]); an unreadable one is reported when the run
    /// starts, as an error verdict.
    ///
    /// See the type's example.
    pub fn fixed(at: impl Into<String>) -> Clock {
        Clock::Fixed(at.into())
    }

    /// "Now" in the time zone `tz` (an IANA name such as `Europe/Lisbon`, or `UTC`); an error
    /// says what [kind of problem](ClockErrorKind) stopped it.
    ///
    /// See the type's example, and [`ClockErrorKind`]'s.
    pub fn now(&self, tz: &str) -> Result<Zoned, ClockError> {
        let tz = time_zone(tz)?;
        match self {
            Clock::System => Ok(Timestamp::now().to_zoned(tz)),
            Clock::Fixed(at) => parse_instant(at, &tz).ok_or_else(|| ClockError {
                kind: ClockErrorKind::InvalidInstant,
                value: at.clone(),
            }),
        }
    }
}

/// The time zone named `name` (IANA names, `UTC`).
#[doc(hidden)]
pub fn time_zone(name: &str) -> Result<TimeZone, ClockError> {
    TimeZone::get(name).map_err(|_| ClockError {
        kind: ClockErrorKind::UnknownTimeZone,
        value: name.to_owned(),
    })
}

/// An instant from RFC 3339, a zoned string, a civil date-time or a date (midnight), reading
/// civil forms in `tz`.
#[doc(hidden)]
pub fn parse_instant(s: &str, tz: &TimeZone) -> Option<Zoned> {
    let s = s.trim();
    if let Ok(ts) = s.parse::<Timestamp>() {
        return Some(ts.to_zoned(tz.clone()));
    }
    if let Ok(z) = s.parse::<Zoned>() {
        return Some(z.with_time_zone(tz.clone()));
    }
    if let Ok(dt) = s.parse::<jiff::civil::DateTime>() {
        return dt.to_zoned(tz.clone()).ok();
    }
    s.parse::<jiff::civil::Date>()
        .ok()
        .and_then(|d| d.to_zoned(tz.clone()).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An absent or garbled time zone and a garbled instant are told by their kinds, with the
    /// messages a run's setup error shows.
    #[test]
    fn clock_errors_have_kinds() {
        for (clock, tz, kind, message) in [
            (
                Clock::system(),
                "",
                ClockErrorKind::UnknownTimeZone,
                "unknown time zone '': use an IANA name such as Europe/Lisbon, or UTC",
            ),
            (
                Clock::fixed("2026-11-23"),
                "Europe/Lisbonn",
                ClockErrorKind::UnknownTimeZone,
                "unknown time zone 'Europe/Lisbonn': use an IANA name such as Europe/Lisbon, \
                 or UTC",
            ),
            (
                Clock::fixed(""),
                "UTC",
                ClockErrorKind::InvalidInstant,
                "invalid fixed clock '': use RFC 3339, like 2026-11-23T09:30:00Z",
            ),
            (
                Clock::fixed("2026-13-01"),
                "UTC",
                ClockErrorKind::InvalidInstant,
                "invalid fixed clock '2026-13-01': use RFC 3339, like 2026-11-23T09:30:00Z",
            ),
        ] {
            let err = clock.now(tz).unwrap_err();
            assert_eq!(err.kind, kind, "{clock:?} in {tz:?}");
            assert_eq!(err.to_string(), message);
        }
    }
}
