//! The clock expressions like `TODAY()` are evaluated against, and its time zone.

// Every computation on input is checked: an overflow is an error, never a panic.
#![deny(clippy::arithmetic_side_effects)]

use jiff::tz::TimeZone;
use jiff::{Timestamp, Zoned};

/// Where "now" comes from for a run: the wall clock, or a fixed instant so that date checks
/// are reproducible.
///
/// A run records "now" as its `user_time` when it starts; every expression of the run's
/// checks (`TODAY()`, `NOW()`, `DATE_ADD(..)`) is evaluated against that instant, in the suite's
/// time zone (UTC unless set), so re-evaluating a recorded run gives the same answers.
///
/// ```
/// use agent_test::Clock;
/// let clock = Clock::fixed("2026-11-23T09:30:00Z");
/// let now = clock.now("Europe/Lisbon").unwrap();
/// assert_eq!(now.to_string(), "2026-11-23T09:30:00+00:00[Europe/Lisbon]");
/// assert!(Clock::fixed("yesterday-ish").now("UTC").is_err());
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

    /// "Now" in the time zone `tz` (an IANA name such as `Europe/Lisbon`, or `UTC`).
    ///
    /// See the type's example.
    pub fn now(&self, tz: &str) -> Result<Zoned, String> {
        let tz = time_zone(tz)?;
        match self {
            Clock::System => Ok(Timestamp::now().to_zoned(tz)),
            Clock::Fixed(at) => parse_instant(at, &tz).ok_or_else(|| {
                format!("invalid fixed clock '{at}': use RFC 3339, like 2026-11-23T09:30:00Z")
            }),
        }
    }
}

/// The time zone named `name` (IANA names, `UTC`).
pub(crate) fn time_zone(name: &str) -> Result<TimeZone, String> {
    TimeZone::get(name).map_err(|_| {
        format!("unknown time zone '{name}': use an IANA name such as Europe/Lisbon, or UTC")
    })
}

/// An instant from RFC 3339, a zoned string, a civil date-time or a date (midnight), reading
/// civil forms in `tz`.
pub(crate) fn parse_instant(s: &str, tz: &TimeZone) -> Option<Zoned> {
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
