//! Literals with meaning: time-of-day strings, date units, dot paths.

/// A unit of `DATE_ADD` / `DATE_SUB`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// minute / minutes
    Minute,
    /// hour / hours
    Hour,
    /// day / days
    Day,
    /// week / weeks
    Week,
}

impl Unit {
    /// Parses `day`, `days`, `hour`, ... (case-insensitive).
    ///
    /// ```
    /// use agent_test_expr::Unit;
    /// assert_eq!(Unit::parse("Days"), Some(Unit::Day));
    /// assert_eq!(Unit::parse("month"), None);
    /// ```
    pub fn parse(s: &str) -> Option<Unit> {
        match s.trim().to_ascii_lowercase().as_str() {
            "minute" | "minutes" => Some(Unit::Minute),
            "hour" | "hours" => Some(Unit::Hour),
            "day" | "days" => Some(Unit::Day),
            "week" | "weeks" => Some(Unit::Week),
            _ => None,
        }
    }

    /// Its name, singular: `day`.
    ///
    /// ```
    /// assert_eq!(agent_test_expr::Unit::Week.name(), "week");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Unit::Minute => "minute",
            Unit::Hour => "hour",
            Unit::Day => "day",
            Unit::Week => "week",
        }
    }

    /// The largest count of this unit between two dates of the years -9999 to 9999 (the range
    /// of dates): a count beyond can never give a date.
    ///
    /// ```
    /// assert_eq!(agent_test_expr::Unit::Day.max_count(), 7_304_484);
    /// ```
    pub fn max_count(self) -> i128 {
        match self {
            Unit::Minute => 10_518_456_960,
            Unit::Hour => 175_307_616,
            Unit::Day => 7_304_484,
            Unit::Week => 1_043_497,
        }
    }
}

/// A time of day from `AT_TIME`: 24 h (`'14:30'`, `'09:00:00'`) or 12 h (`'3:30 PM'`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeOfDay {
    /// 0–23.
    pub hour: u8,
    /// 0–59.
    pub minute: u8,
    /// 0–59.
    pub second: u8,
}

/// Parses a time of day.
///
/// ```
/// use agent_test_expr::{parse_time_of_day, TimeOfDay};
/// assert_eq!(parse_time_of_day("3:30 PM"), Ok(TimeOfDay { hour: 15, minute: 30, second: 0 }));
/// assert_eq!(parse_time_of_day("12:00 am"), Ok(TimeOfDay { hour: 0, minute: 0, second: 0 }));
/// assert_eq!(parse_time_of_day("09:00:05").unwrap().second, 5);
/// assert!(parse_time_of_day("25:00").is_err());
/// ```
pub fn parse_time_of_day(s: &str) -> Result<TimeOfDay, String> {
    let bad = || format!("invalid time '{s}': use '14:30', '09:00:00' or '3:30 PM'");
    let t = s.trim();
    let lower = t.to_ascii_lowercase();
    let (clock, meridiem) = if let Some(rest) = lower.strip_suffix("am") {
        (rest.trim(), Some(false))
    } else if let Some(rest) = lower.strip_suffix("pm") {
        (rest.trim(), Some(true))
    } else {
        (lower.as_str(), None)
    };
    let parts: Vec<&str> = clock.split(':').collect();
    if parts.is_empty() || parts.len() > 3 || (parts.len() == 1 && meridiem.is_none()) {
        return Err(bad());
    }
    let num = |p: Option<&&str>| -> Result<u8, String> {
        match p {
            None => Ok(0),
            Some(p) if !p.is_empty() && p.len() <= 2 && p.bytes().all(|b| b.is_ascii_digit()) => {
                p.parse().map_err(|_| bad())
            }
            Some(_) => Err(bad()),
        }
    };
    let (mut hour, minute, second) = (num(parts.first())?, num(parts.get(1))?, num(parts.get(2))?);
    if minute > 59 || second > 59 {
        return Err(bad());
    }
    match meridiem {
        Some(pm) => {
            if !(1..=12).contains(&hour) {
                return Err(bad());
            }
            if hour == 12 {
                hour = 0;
            }
            if pm {
                hour = hour.checked_add(12).ok_or_else(bad)?;
            }
        }
        None if hour > 23 => return Err(bad()),
        None => {}
    }
    Ok(TimeOfDay {
        hour,
        minute,
        second,
    })
}

/// Splits a dot path (`items.0.sku`, also `items[0].sku`) into segments; `Err` for an empty
/// segment.
///
/// ```
/// use agent_test_expr::parse_path;
/// assert_eq!(parse_path("items[0].sku").unwrap(), ["items", "0", "sku"]);
/// assert!(parse_path("a..b").is_err());
/// ```
pub fn parse_path(path: &str) -> Result<Vec<String>, String> {
    let normalised = path.replace('[', ".").replace(']', "");
    let segments: Vec<String> = normalised.split('.').map(str::to_owned).collect();
    if path.is_empty() || segments.iter().any(String::is_empty) {
        return Err(format!(
            "invalid path '{path}': use dot segments like 'items.0.sku'"
        ));
    }
    Ok(segments)
}
