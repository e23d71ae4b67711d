//! Expressions evaluated when a check runs: `TODAY()`, `DATE_ADD(..)`, `CONCAT(..)`, ...

// Every computation on input is checked: an overflow is an error verdict, never a panic.
#![deny(clippy::arithmetic_side_effects)]

mod error;

use std::fmt;

use agent_test_expr::{Expr, ExprKind, Func, MAX_DEPTH, Unit, parse_time_of_day};
use jiff::civil::{Date, Time};
use jiff::{Span, Zoned};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::compare::clock::parse_instant;
use crate::compare::path::FieldPath;
use crate::model::Context;
use crate::model::judgement::Judgements;
use crate::util::text::compact;
use error::Fault;
pub use error::{ExprError, ExprErrorKind};

/// What an expression is evaluated against: "now" (the run's pinned clock, in its time zone)
/// and the context variables.
#[derive(Clone, Copy, Debug)]
pub struct Env<'a> {
    /// The run's "now" (its `user_time`).
    pub now: &'a Zoned,
    /// The context variables.
    pub context: &'a Context,
    /// The judge's grades of the run's semantic matchers (`free_text`, `date_time`), when a
    /// judge ran.
    pub judgements: Option<&'a Judgements>,
}

impl<'a> Env<'a> {
    /// An environment with no judge grades.
    ///
    /// ```
    /// use agent_test::{expression::Env, model::Context};
    /// let now = jiff::Zoned::now();
    /// let context = Context::default();
    /// let env = Env::new(&now, &context);
    /// assert!(env.judgements.is_none());
    /// ```
    pub fn new(now: &'a Zoned, context: &'a Context) -> Self {
        Env {
            now,
            context,
            judgements: None,
        }
    }
}

/// The value of an expression: a date, a date and time, or JSON (text, numbers, context data).
#[derive(Clone, Debug, PartialEq)]
pub enum ExprValue {
    /// A calendar date (`TODAY()`, `DATE_ADD(TODAY(), 1, 'day')`).
    Date(Date),
    /// A date and time in the run's time zone (`NOW()`, `AT_TIME(..)`).
    DateTime(Zoned),
    /// Anything else.
    Json(Value),
}

impl ExprValue {
    /// As JSON: dates as `YYYY-MM-DD`, date-times as `YYYY-MM-DDTHH:MM:SS` (civil time in the
    /// run's time zone).
    ///
    /// ```
    /// use agent_test::{Clock, expression::{Env, Expression}, model::Context};
    /// let now = Clock::fixed("2026-11-23T09:30:00Z").now("UTC").unwrap();
    /// let ctx = Context::default();
    /// let env = Env::new(&now, &ctx);
    /// let v = Expression::new("AT_TIME(DATE_ADD(TODAY(), 2, 'days'), '3:30 PM')").eval(&env).unwrap();
    /// assert_eq!(v.to_json(), serde_json::json!("2026-11-25T15:30:00"));
    /// ```
    pub fn to_json(&self) -> Value {
        match self {
            ExprValue::Date(d) => Value::String(d.to_string()),
            ExprValue::DateTime(z) => Value::String(z.datetime().to_string()),
            ExprValue::Json(v) => v.clone(),
        }
    }

    /// As text: strings as they are, other JSON compact.
    fn text(&self) -> String {
        match self.to_json() {
            Value::String(s) => s,
            other => compact(&other),
        }
    }
}

/// An expression, parsed once when the check is built and evaluated when it runs.
///
/// The language (functions, units, time formats) is documented in `agent_test_expr`. An
/// expression that does not parse is kept with its error, which the check reports as an error
/// verdict (literal expressions in `agent_test!` are checked at compile time instead).
/// Serialises as its source.
///
/// ```
/// use agent_test::{Clock, expression::{Env, ExprErrorKind, Expression}, model::Context};
/// let now = Clock::fixed("2026-11-23T09:30:00Z").now("UTC").unwrap();
/// let mut context = Context::default();
/// context.insert("ORDER_JSON", r#"{"items": [{"sku": "ABC-123"}]}"#);
/// let env = Env::new(&now, &context);
/// let e = Expression::new("CONCAT('sku-', LOWER(JSON_EXTRACT(ORDER_JSON, 'items.0.sku')))");
/// assert_eq!(e.eval(&env).unwrap().to_json(), serde_json::json!("sku-abc-123"));
/// let err = Expression::new("DATE_ADD(TODAY(), 1, 'fortnight')").eval(&env).unwrap_err();
/// assert_eq!(err.kind, ExprErrorKind::Invalid);
///
/// // Dates go from the year -9999 to 9999; beyond is an error, never an overflow.
/// let err = Expression::new("DATE_ADD('9999-12-31', 1, 'day')").eval(&env).unwrap_err();
/// assert_eq!(err.kind, ExprErrorKind::OutOfRange);
/// assert_eq!(err.to_string(),
///            "`DATE_ADD('9999-12-31', 1, 'day')`: DATE_ADD: the result is out of range (dates go from the year -9999 to 9999)");
/// // A count that is out of range for any date is refused when the expression is built.
/// let err = Expression::new("DATE_SUB(TODAY(), -9223372036854775808, 'day')").eval(&env).unwrap_err();
/// assert_eq!(err.kind, ExprErrorKind::Invalid);
/// assert_eq!(err.to_string(),
///            "invalid expression `DATE_SUB(TODAY(), -9223372036854775808, 'day')`: DATE_SUB: -9223372036854775808 days is out of range (dates go from the year -9999 to 9999)");
/// ```
#[derive(Clone)]
pub struct Expression {
    source: String,
    parsed: Result<Expr, ExprError>,
}

impl Expression {
    /// Parses and statically checks `source`.
    ///
    /// See the type's example.
    pub fn new(source: impl Into<String>) -> Self {
        let source = source.into();
        let parsed = agent_test_expr::compile(&source, None).map_err(|errors| {
            let msgs: Vec<String> = errors.iter().map(ToString::to_string).collect();
            ExprError {
                kind: ExprErrorKind::Invalid,
                expression: shorten(&source),
                message: msgs.join("; "),
            }
        });
        Expression { source, parsed }
    }

    /// The expression as written.
    ///
    /// ```
    /// # use agent_test::Expression;
    /// assert_eq!(Expression::new("TODAY()").source(), "TODAY()");
    /// ```
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Why the expression cannot be evaluated whatever the context: it does not parse, or
    /// calls an unknown function, with a wrong number of arguments, or a unit that does not
    /// exist.
    #[doc(hidden)]
    pub fn problem(&self) -> Option<String> {
        self.parsed.as_ref().err().map(ToString::to_string)
    }

    /// Evaluates the expression; an error says what [kind](ExprErrorKind) of problem stopped
    /// it (an expression that does not parse is [`ExprErrorKind::Invalid`]).
    ///
    /// See the type's example.
    pub fn eval(&self, env: &Env<'_>) -> Result<ExprValue, ExprError> {
        let expr = self.parsed.as_ref().map_err(Clone::clone)?;
        eval(expr, env, 0).map_err(|f| ExprError {
            kind: f.kind,
            expression: shorten(&self.source),
            message: f.message,
        })
    }
}

/// At most 100 characters of an expression's source, for messages.
fn shorten(source: &str) -> String {
    match source.char_indices().nth(100) {
        None => source.to_owned(),
        Some((end, _)) => format!("{}…", source.get(..end).unwrap_or_default()),
    }
}

/// `depth`: how many calls enclose `e`. Parsed expressions are never deeper than
/// [`MAX_DEPTH`]; the guard keeps the evaluator safe whatever the tree.
fn eval(e: &Expr, env: &Env<'_>, depth: usize) -> Result<ExprValue, Fault> {
    if depth > MAX_DEPTH {
        return Err(Fault::new(
            ExprErrorKind::Invalid,
            format!("expression nested deeper than {MAX_DEPTH} levels"),
        ));
    }
    Ok(match &e.kind {
        ExprKind::Str(s) => ExprValue::Json(Value::String(s.clone())),
        ExprKind::Int(i) => ExprValue::Json(integer(*i)),
        ExprKind::Num(n) => ExprValue::Json(number(*n)),
        ExprKind::Var(name) => {
            ExprValue::Json(env.context.get(name).cloned().ok_or_else(|| {
                Fault::new(
                    ExprErrorKind::UnknownVariable,
                    format!("unknown context variable `{name}`"),
                )
            })?)
        }
        ExprKind::Call { func, args } => call(*func, args, env, depth)?,
    })
}

/// A function call: its arguments evaluated one level deeper, on demand (a missing one is an
/// error naming the function).
fn call(func: Func, args: &[Expr], env: &Env<'_>, depth: usize) -> Result<ExprValue, Fault> {
    let arg = |i: usize| -> Result<ExprValue, Fault> {
        args.get(i)
            .ok_or_else(|| {
                Fault::new(
                    ExprErrorKind::Invalid,
                    format!("{} is missing an argument", func.name()),
                )
            })
            .and_then(|a| eval(a, env, depth.saturating_add(1)))
    };
    Ok(match func {
        Func::Today => ExprValue::Date(env.now.date()),
        Func::Now => ExprValue::DateTime(env.now.clone()),
        Func::DateAdd | Func::DateSub => {
            let base = as_when(arg(0)?, env)?;
            let (count, shown) = as_count(&arg(1)?)?;
            let unit = arg(2)?.text();
            let unit = Unit::parse(&unit).ok_or_else(|| {
                Fault::bad_argument(format!(
                    "unknown unit '{unit}': use day(s), hour(s), minute(s) or week(s)"
                ))
            })?;
            let out_of_range = |what: String| {
                Fault::new(
                    ExprErrorKind::OutOfRange,
                    format!(
                        "{}: {what} is out of range (dates go from the year -9999 to 9999)",
                        func.name()
                    ),
                )
            };
            let signed = if func == Func::DateSub {
                count.and_then(i128::checked_neg)
            } else {
                count
            };
            let span = signed
                .and_then(|n| i64::try_from(n).ok())
                .and_then(|n| span_of(n, unit))
                .ok_or_else(|| out_of_range(amount(&shown, unit)))?;
            date_add(base, span, unit, env).ok_or_else(|| out_of_range("the result".to_owned()))?
        }
        Func::AtTime => {
            let date = match as_when(arg(0)?, env)? {
                When::Date(d) => d,
                When::At(z) => z.date(),
            };
            let t = parse_time_of_day(&arg(1)?.text()).map_err(Fault::bad_argument)?;
            let time = Time::new(
                i8::try_from(t.hour).unwrap_or(i8::MAX),
                i8::try_from(t.minute).unwrap_or(i8::MAX),
                i8::try_from(t.second).unwrap_or(i8::MAX),
                0,
            )
            .map_err(|e| Fault::bad_argument(format!("AT_TIME: {e}")))?;
            ExprValue::DateTime(
                date.to_datetime(time)
                    .to_zoned(env.now.time_zone().clone())
                    .map_err(|e| Fault::new(ExprErrorKind::OutOfRange, format!("AT_TIME: {e}")))?,
            )
        }
        Func::FormatDate => {
            let fmt = arg(1)?.text();
            let text = match as_when(arg(0)?, env)? {
                When::Date(d) => jiff::fmt::strtime::format(fmt.as_bytes(), d),
                When::At(z) => jiff::fmt::strtime::format(fmt.as_bytes(), &z),
            }
            .map_err(|e| {
                Fault::bad_argument(format!("FORMAT_DATE: invalid format '{fmt}': {e}"))
            })?;
            ExprValue::Json(Value::String(text))
        }
        Func::Concat => {
            let mut out = String::new();
            for i in 0..args.len() {
                out.push_str(&arg(i)?.text());
            }
            ExprValue::Json(Value::String(out))
        }
        Func::Upper => ExprValue::Json(Value::String(arg(0)?.text().to_uppercase())),
        Func::Lower => ExprValue::Json(Value::String(arg(0)?.text().to_lowercase())),
        Func::JsonExtract => {
            let data = match arg(0)?.to_json() {
                Value::String(s) => serde_json::from_str::<Value>(&s).map_err(|e| {
                    Fault::bad_argument(format!("JSON_EXTRACT: the data is not JSON: {e}"))
                })?,
                other => other,
            };
            let path = arg(1)?.text();
            let found = FieldPath::new(path.as_str())
                .get(&data)
                .cloned()
                .ok_or_else(|| {
                    Fault::new(
                        ExprErrorKind::NotFound,
                        format!("JSON_EXTRACT: nothing at '{path}'"),
                    )
                })?;
            ExprValue::Json(found)
        }
    })
}

/// A whole number as JSON: exact within `i64` and `u64`, else the nearest float.
fn integer(i: i128) -> Value {
    i64::try_from(i)
        .map(Value::from)
        .or_else(|_| u64::try_from(i).map(Value::from))
        .unwrap_or_else(|_| number(i as f64))
}

/// `f64` to a JSON number, integral values as integers (so `3` equals an argument `3`).
fn number(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9e15 {
        Value::from(n as i64)
    } else {
        serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
    }
}

/// A count: its value (`None` when it is whole but beyond `i128`, like `1e39`) and how it
/// was written, for messages. Anything but a whole number is an error.
fn as_count(v: &ExprValue) -> Result<(Option<i128>, String), Fault> {
    /// Beyond this a float does not fit an `i128` (and is far out of any date range).
    const HUGE: f64 = 1e38;
    match v.to_json() {
        Value::Number(n) => {
            let exact = n
                .as_i64()
                .map(i128::from)
                .or_else(|| n.as_u64().map(i128::from));
            let value = match (exact, n.as_f64()) {
                (Some(i), _) => Some(i),
                (None, Some(f)) if f.fract() == 0.0 => (f.abs() < HUGE).then_some(f as i128),
                _ => {
                    return Err(Fault::bad_argument(format!(
                        "the count must be a whole number, got {n}"
                    )));
                }
            };
            Ok((value, n.to_string()))
        }
        Value::String(s) => {
            let t = s.trim();
            match (t.parse::<i128>(), t.parse::<f64>()) {
                (Ok(i), _) => Ok((Some(i), t.to_owned())),
                (Err(_), Ok(f))
                    if f.fract() == 0.0 && t.bytes().all(|b| b.is_ascii_digit() || b == b'-') =>
                {
                    Ok((None, t.to_owned()))
                }
                _ => Err(Fault::bad_argument(format!(
                    "the count must be a whole number, got '{s}'"
                ))),
            }
        }
        other => Err(Fault::bad_argument(format!(
            "the count must be a number, got {}",
            compact(&other)
        ))),
    }
}

/// `3 days`, `1 hour`.
fn amount(count: &str, unit: Unit) -> String {
    let plural = if count == "1" { "" } else { "s" };
    format!("{count} {}{plural}", unit.name())
}

/// `count` units as a span, `None` beyond what a span can hold.
fn span_of(count: i64, unit: Unit) -> Option<Span> {
    match unit {
        Unit::Minute => Span::new().try_minutes(count),
        Unit::Hour => Span::new().try_hours(count),
        Unit::Day => Span::new().try_days(count),
        Unit::Week => Span::new().try_weeks(count),
    }
    .ok()
}

/// A date or an instant, for the date functions.
enum When {
    Date(Date),
    At(Zoned),
}

/// Dates and date-times stay; text is read as a date or an instant.
fn as_when(v: ExprValue, env: &Env<'_>) -> Result<When, Fault> {
    match v {
        ExprValue::Date(d) => Ok(When::Date(d)),
        ExprValue::DateTime(z) => Ok(When::At(z)),
        ExprValue::Json(Value::String(s)) => {
            if let Ok(d) = s.trim().parse::<Date>() {
                return Ok(When::Date(d));
            }
            parse_instant(&s, env.now.time_zone())
                .map(When::At)
                .ok_or_else(|| Fault::bad_argument(format!("'{s}' is not a date")))
        }
        ExprValue::Json(other) => Err(Fault::bad_argument(format!(
            "{} is not a date",
            compact(&other)
        ))),
    }
}

/// `base` moved by `span`; `None` when the result is out of range. Days and weeks keep a
/// date a date; hours and minutes make it a date-time from midnight.
fn date_add(base: When, span: Span, unit: Unit, env: &Env<'_>) -> Option<ExprValue> {
    Some(match base {
        When::Date(d) if matches!(unit, Unit::Day | Unit::Week) => {
            ExprValue::Date(d.checked_add(span).ok()?)
        }
        When::Date(d) => {
            let midnight = d.to_zoned(env.now.time_zone().clone()).ok()?;
            ExprValue::DateTime(midnight.checked_add(span).ok()?)
        }
        When::At(z) => ExprValue::DateTime(z.checked_add(span).ok()?),
    })
}

impl fmt::Debug for Expression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Expression({:?})", self.source)
    }
}

impl PartialEq for Expression {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Serialize for Expression {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.source)
    }
}

impl<'de> Deserialize<'de> for Expression {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Expression::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts from context variables, as text: beyond `i128` and at its edge.
    #[test]
    fn counts_from_text_out_of_range() {
        let now = crate::compare::clock::Clock::fixed("2026-11-22T09:30:00Z")
            .now("UTC")
            .unwrap();
        let mut context = Context::default();
        context.insert("MIN", "-170141183460469231731687303715884105728");
        context.insert("HUGE", "99999999999999999999999999999999999999999");
        context.insert("HALF", "1.5");
        let env = Env::new(&now, &context);
        let range = "is out of range (dates go from the year -9999 to 9999)";
        for (source, message) in [
            (
                "DATE_SUB(TODAY(), MIN, 'day')",
                format!("DATE_SUB: -170141183460469231731687303715884105728 days {range}"),
            ),
            (
                "DATE_ADD(TODAY(), MIN, 'day')",
                format!("DATE_ADD: -170141183460469231731687303715884105728 days {range}"),
            ),
            (
                "DATE_ADD(TODAY(), HUGE, 'week')",
                format!("DATE_ADD: 99999999999999999999999999999999999999999 weeks {range}"),
            ),
            (
                "DATE_ADD(TODAY(), HALF, 'week')",
                "the count must be a whole number, got '1.5'".to_owned(),
            ),
        ] {
            assert_eq!(
                Expression::new(source).eval(&env).unwrap_err().to_string(),
                format!("`{source}`: {message}")
            );
        }
    }

    /// Each kind of problem, from an absent variable to garbled data, is told by its kind.
    #[test]
    fn errors_have_kinds() {
        let now = crate::compare::clock::Clock::fixed("2026-11-22T09:30:00Z")
            .now("UTC")
            .unwrap();
        let mut context = Context::default();
        context.insert("DUE", "next tuesday-ish");
        context.insert("RAW", "{not json");
        context.insert("N", "1.5");
        let env = Env::new(&now, &context);
        for (source, kind, message) in [
            ("CONCAT(", ExprErrorKind::Invalid, None),
            ("NOPE()", ExprErrorKind::Invalid, None),
            (
                "UPPER(MISSING)",
                ExprErrorKind::UnknownVariable,
                Some("unknown context variable `MISSING`"),
            ),
            (
                "DATE_ADD(DUE, 1, 'day')",
                ExprErrorKind::BadArgument,
                Some("'next tuesday-ish' is not a date"),
            ),
            (
                "DATE_ADD(TODAY(), N, 'day')",
                ExprErrorKind::BadArgument,
                Some("the count must be a whole number, got '1.5'"),
            ),
            (
                "AT_TIME(TODAY(), DUE)",
                ExprErrorKind::BadArgument,
                Some("invalid time 'next tuesday-ish': use '14:30', '09:00:00' or '3:30 PM'"),
            ),
            ("JSON_EXTRACT(RAW, 'a')", ExprErrorKind::BadArgument, None),
            (
                "DATE_ADD('9999-12-31', 1, 'week')",
                ExprErrorKind::OutOfRange,
                None,
            ),
            (
                "JSON_EXTRACT('{\"a\": 1}', 'b')",
                ExprErrorKind::NotFound,
                Some("JSON_EXTRACT: nothing at 'b'"),
            ),
        ] {
            let err = Expression::new(source).eval(&env).unwrap_err();
            assert_eq!(err.kind, kind, "{source}: {err}");
            assert_eq!(err.expression, source);
            if let Some(message) = message {
                assert_eq!(err.message, message, "{source}");
            }
            let prefix = if kind == ExprErrorKind::Invalid {
                format!("invalid expression `{source}`: ")
            } else {
                format!("`{source}`: ")
            };
            assert_eq!(err.to_string(), format!("{prefix}{}", err.message));
        }
        // A long expression is named by its first 100 characters.
        let long = format!("CONCAT('{}', MISSING)", "x".repeat(120));
        let err = Expression::new(long.as_str()).eval(&env).unwrap_err();
        assert_eq!(err.kind, ExprErrorKind::UnknownVariable);
        assert_eq!(err.expression.chars().count(), 101);
        assert!(err.expression.ends_with('…'));
    }
}
