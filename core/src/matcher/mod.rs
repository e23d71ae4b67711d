#![doc = include_str!("reference.md")]
// Every computation on input is checked (dates and tolerances included): an overflow is an
// error verdict, never a panic.
#![deny(clippy::arithmetic_side_effects)]

mod build;
mod compare;
mod email;
mod json_eq;
mod predicate;
#[cfg(any(test, feature = "samples"))]
mod samples;
mod semantic;

pub use crate::compare::pattern::Pattern;
pub use crate::compare::schema::{Schema, SchemaError};
pub use build::{
    ContainsMatcher, DateMatcher, ExactMatcher, all_of, any, any_of, contains, date, email, exact,
    expr, matches_schema, missing, not, one_of, optional, regex,
};
pub use json_eq::json_eq;
pub(crate) use json_eq::{ExactOptions, exact_eq};
pub use predicate::{PredicateMatcher, predicate};
pub use semantic::{date_time, free_text};

#[cfg(test)]
use agent_test_vocabulary::{Arg, Word};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The matchers whose first argument the `agent_test!` macro checks at compile time (with the
/// check kinds' words, in `agent_test_vocabulary::WORDS`).
#[cfg(test)]
pub(crate) const WORDS: &[Word] = &[
    Word::new("contains", Arg::Text),
    Word::new("regex", Arg::Regex),
    Word::new("date", Arg::Expression),
    Word::new("expr", Arg::Expression),
    Word::new("matches_schema", Arg::Schema),
];

use crate::compare::expression::{Env, ExprValue, Expression};
use crate::util::text::compact;

/// An expectation about one JSON value. Build matchers with the functions of this module;
/// plain values convert into exact matchers ([`IntoMatcher`]).
///
/// ```
/// use agent_test::matcher::{IntoMatcher, Matcher, Mismatch};
/// use agent_test::{expression::Env, model::Context};
/// use serde_json::json;
///
/// let now = jiff::Zoned::now();
/// let ctx = Context::default();
/// let env = Env::new(&now, &ctx);
/// let m = "ORD-9921".into_matcher();
/// assert!(m.check(Some(&json!("ORD-9921")), &env).is_ok());
/// assert_eq!(m.check(Some(&json!("ORD-1")), &env),
///            Err(Mismatch::Fail(r#"expected "ORD-9921", got "ORD-1""#.into())));
/// assert_eq!(m.check(None, &env), Err(Mismatch::Fail(r#"missing (expected "ORD-9921")"#.into())));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "matcher", rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum Matcher {
    /// Deep JSON equality (numbers by value); optionally lists as multisets and `"*"` as a
    /// wildcard.
    Exact {
        /// The expected value.
        value: Value,
        /// Compare arrays regardless of order.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        unordered: bool,
        /// Let an expected `"*"` match any value.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        wildcard: bool,
    },
    /// Equality with the value of an expression (dates compare as instants).
    Expr {
        /// The expression.
        expression: Expression,
    },
    /// Both sides rendered as text (numbers, objects as compact JSON); the expected text must
    /// occur in the actual one.
    Contains {
        /// The text to find.
        value: String,
        /// Ignore case.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        ignore_case: bool,
    },
    /// The rendered value matches the regex (unanchored).
    Regex {
        /// The regex.
        pattern: Pattern,
    },
    /// A date or date-time, within a tolerance of the expression's value.
    Date {
        /// The expected date or date-time.
        expression: Expression,
        /// Allowed difference in minutes (0 by default).
        #[serde(default)]
        tolerance_minutes: u32,
    },
    /// Valid against a JSON Schema (fragment): `{"type": "string", "pattern": "^x$"}`.
    Schema {
        /// The schema.
        schema: Schema,
    },
    /// Present, any value (`null` included).
    #[serde(deserialize_with = "no_fields")]
    Any,
    /// Missing or `null` passes; otherwise the inner matcher decides.
    Optional {
        /// The matcher for a present value.
        inner: Box<Matcher>,
    },
    /// Must be absent.
    #[serde(deserialize_with = "no_fields")]
    Missing,
    /// The same email address: local part exact, domain case-insensitive.
    Email {
        /// The expected address.
        address: String,
    },
    /// Every matcher must pass.
    AllOf {
        /// The matchers.
        matchers: Vec<Matcher>,
    },
    /// At least one matcher must pass (what [`one_of`] builds).
    AnyOf {
        /// The matchers.
        matchers: Vec<Matcher>,
    },
    /// The inner matcher must fail (a missing value fails `not` too).
    Not {
        /// The matcher that must not pass.
        inner: Box<Matcher>,
    },
    /// The value means what the description says, as judged (see [`free_text`]).
    FreeText {
        /// The description.
        value: String,
    },
    /// The value is a date/time denoting the description, as judged (see [`date_time`]).
    DateTime {
        /// The description, relative to the run's `user_time`.
        value: String,
    },
    /// A Rust closure (see [`predicate`]); cannot be loaded from data.
    #[serde(skip_deserializing)]
    Predicate(PredicateMatcher),
}

/// A matcher without options (`{"matcher": "any"}`): any other field is an error, as for the
/// others (serde would ignore the fields of a unit variant).
fn no_fields<'de, D: serde::Deserializer<'de>>(d: D) -> Result<(), D::Error> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct NoFields {}
    NoFields::deserialize(d).map(|NoFields {}| ())
}

/// Why a value does not satisfy a matcher.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mismatch {
    /// The value is wrong (a failed check).
    Fail(String),
    /// The comparison could not be made: an invalid regex or schema, an expression that cannot
    /// be evaluated (an error verdict).
    Error(String),
}

impl Mismatch {
    /// The message.
    ///
    /// ```
    /// # use agent_test::matcher::Mismatch;
    /// assert_eq!(Mismatch::Fail("x".into()).message(), "x");
    /// ```
    pub fn message(&self) -> &str {
        match self {
            Mismatch::Fail(m) | Mismatch::Error(m) => m,
        }
    }
}

fn fail(msg: String) -> Result<(), Mismatch> {
    Err(Mismatch::Fail(msg))
}

impl Matcher {
    /// Whether an actual value (`None` when absent) satisfies the matcher.
    ///
    /// ```
    /// # use agent_test::matcher::IntoMatcher;
    /// # use agent_test::{expression::Env, model::Context};
    /// # let now = jiff::Zoned::now();
    /// # let ctx = Context::default();
    /// # let env = Env::new(&now, &ctx);
    /// assert!(1.into_matcher().is_match(Some(&serde_json::json!(1.0)), &env));
    /// ```
    pub fn is_match(&self, actual: Option<&Value>, env: &Env<'_>) -> bool {
        match self {
            // The common case, without building a message.
            Matcher::Exact {
                value,
                unordered,
                wildcard,
            } => actual.is_some_and(|a| {
                exact_eq(
                    value,
                    a,
                    ExactOptions {
                        unordered: *unordered,
                        wildcard: *wildcard,
                    },
                )
            }),
            _ => self.check(actual, env).is_ok(),
        }
    }

    /// Checks an actual value (`None` when absent); the error explains the mismatch in one line.
    ///
    /// See the type's example.
    pub fn check(&self, actual: Option<&Value>, env: &Env<'_>) -> Result<(), Mismatch> {
        let shown = || actual.map_or_else(|| "nothing".to_owned(), compact);
        match self {
            Matcher::Exact {
                value,
                unordered,
                wildcard,
            } => match actual {
                None => fail(format!("missing (expected {})", self.describe())),
                Some(a)
                    if exact_eq(
                        value,
                        a,
                        ExactOptions {
                            unordered: *unordered,
                            wildcard: *wildcard,
                        },
                    ) =>
                {
                    Ok(())
                }
                Some(a) => fail(format!(
                    "expected {}, got {}",
                    self.describe(),
                    crate::util::text::shown(a)
                )),
            },
            Matcher::Expr { expression } => compare::expression(expression, actual, env),
            Matcher::Contains { value, ignore_case } => {
                compare::contains(value, *ignore_case, actual)
            }
            Matcher::Regex { pattern } => compare::regex(pattern, actual),
            Matcher::Date {
                expression,
                tolerance_minutes,
            } => compare::date(expression, *tolerance_minutes, actual, env),
            Matcher::Schema { schema } => compare::schema(schema, actual),
            Matcher::Any => match actual {
                Some(_) => Ok(()),
                None => fail("missing (expected any value)".to_owned()),
            },
            Matcher::Optional { inner } => match actual {
                None | Some(Value::Null) => Ok(()),
                some => inner.check(some, env),
            },
            Matcher::Missing => match actual {
                None => Ok(()),
                Some(a) => fail(format!(
                    "expected it to be absent, got {}",
                    crate::util::text::shown(a)
                )),
            },
            Matcher::Email { address } => compare::email(address, actual),
            Matcher::AllOf { matchers } => {
                for m in matchers {
                    m.check(actual, env)?;
                }
                Ok(())
            }
            Matcher::AnyOf { matchers } => {
                let mut error = None;
                for m in matchers {
                    match m.check(actual, env) {
                        Ok(()) => return Ok(()),
                        Err(Mismatch::Error(e)) => error = Some(e),
                        Err(Mismatch::Fail(_)) => {}
                    }
                }
                if let Some(e) = error {
                    return Err(Mismatch::Error(e));
                }
                match actual {
                    None => fail(format!("missing (expected {})", self.describe())),
                    Some(_) => fail(format!("expected {}, got {}", self.describe(), shown())),
                }
            }
            Matcher::Not { inner } => match inner.check(actual, env) {
                Ok(()) => fail(format!("expected {}, got {}", self.describe(), shown())),
                Err(Mismatch::Error(e)) => Err(Mismatch::Error(e)),
                Err(Mismatch::Fail(_)) if actual.is_none() => {
                    fail(format!("missing (expected {})", self.describe()))
                }
                Err(Mismatch::Fail(_)) => Ok(()),
            },
            Matcher::FreeText { .. } | Matcher::DateTime { .. } => self.check_semantic(actual, env),
            Matcher::Predicate(p) => p.check(actual),
        }
    }

    /// A short description of what the matcher expects, for messages and reports.
    ///
    /// ```
    /// use agent_test::matcher::*;
    /// assert_eq!(one_of(["metric", "celsius"]).describe(), r#"one of "metric", "celsius""#);
    /// assert_eq!(date("TODAY()").tolerance_minutes(5).into_matcher().describe(), "a date TODAY() ± 5 min");
    /// assert_eq!(not(contains("secret")).describe(), r#"not text containing "secret""#);
    /// ```
    pub fn describe(&self) -> String {
        match self {
            Matcher::Exact {
                value,
                unordered,
                wildcard,
            } => {
                let mut s = crate::util::text::shown(value);
                // Only a value with a list in it has an order to ignore.
                if *unordered && has_array(value) {
                    s.push_str(" (any order)");
                }
                if *wildcard && s.contains("\"*\"") {
                    s.push_str(" (\"*\" = any)");
                }
                s
            }
            Matcher::Expr { expression } => format!("= {}", expression.source()),
            Matcher::Contains { value, ignore_case } => {
                format!(
                    "text containing {value:?}{}",
                    if *ignore_case { " (any case)" } else { "" }
                )
            }
            Matcher::Regex { pattern } => format!("/{}/", pattern.source()),
            Matcher::Date {
                expression,
                tolerance_minutes,
            } => {
                format!(
                    "a date {}{}",
                    expression.source(),
                    tolerance(*tolerance_minutes)
                )
            }
            Matcher::Schema { schema } => format!(
                "valid against {}",
                crate::util::text::shown(schema.schema())
            ),
            Matcher::Any => "any value".to_owned(),
            Matcher::Optional { inner } => format!("optionally {}", inner.describe()),
            Matcher::Missing => "absent".to_owned(),
            Matcher::Email { address } => format!("the email {address:?}"),
            Matcher::AllOf { matchers } => join("all of", matchers),
            Matcher::AnyOf { matchers } => join("one of", matchers),
            Matcher::Not { inner } => format!("not {}", inner.describe()),
            Matcher::FreeText { value } => format!("(judged) means {value:?}"),
            Matcher::DateTime { value } => format!("(judged) a date/time meaning {value:?}"),
            Matcher::Predicate(p) => p.describe().to_owned(),
        }
    }

    /// The expected side as JSON, for reports: the value for exact matchers, the description
    /// for the others.
    ///
    /// ```
    /// # use agent_test::matcher::{IntoMatcher, any};
    /// assert_eq!(3.into_matcher().expected_json(), serde_json::json!(3));
    /// assert_eq!(any().expected_json(), serde_json::json!("any value"));
    /// ```
    pub fn expected_json(&self) -> Value {
        match self {
            Matcher::Exact { value, .. } => value.clone(),
            other => Value::String(other.describe()),
        }
    }

    /// A static problem of the matcher, if any: an invalid regex, or a matcher that compares
    /// nothing ("compared nothing: …") because it accepts every value — `contains("")`, a regex
    /// that matches the empty string (`x*`), the schema `{}`, `all_of([])`, `optional(any())`
    /// — or none (`one_of([])`), or a judged matcher without a description.
    /// Why a literal in the matcher is broken whatever the value: a regex that does not
    /// compile, an expression that does not parse (or calls an unknown function), a JSON
    /// Schema that is not one. What a loader refuses, as the macro does at compile time.
    pub(crate) fn literal_problem(&self) -> Option<String> {
        match self {
            Matcher::Regex { pattern } => pattern.regex().err().map(ToOwned::to_owned),
            Matcher::Expr { expression } | Matcher::Date { expression, .. } => expression.problem(),
            Matcher::Schema { schema } => schema.problem(),
            Matcher::Optional { inner } | Matcher::Not { inner } => inner.literal_problem(),
            Matcher::AllOf { matchers } | Matcher::AnyOf { matchers } => {
                matchers.iter().find_map(Matcher::literal_problem)
            }
            _ => None,
        }
    }

    pub(crate) fn problem(&self) -> Option<String> {
        let nothing = |why: String| Some(format!("compared nothing: {why}"));
        match self {
            Matcher::Regex { pattern } => match pattern.regex() {
                Err(e) => Some(e.to_owned()),
                Ok(_) if pattern.matches_everything() => nothing(format!(
                    "the regex /{}/ matches every value (it matches the empty string)",
                    pattern.source()
                )),
                Ok(_) => None,
            },
            Matcher::Contains { value, .. } if value.is_empty() => nothing(
                "contains(\"\") is found in every value (to require only presence, use any())"
                    .to_owned(),
            ),
            Matcher::Schema { schema }
                if crate::compare::schema::accepts_everything(schema.schema()) =>
            {
                nothing(format!(
                    "the schema {} accepts every value",
                    crate::util::text::shown(schema.schema())
                ))
            }
            Matcher::Optional { inner } if matches!(**inner, Matcher::Any) => nothing(
                "optional(any value) accepts every value, a missing one included".to_owned(),
            ),
            Matcher::AllOf { matchers } if matchers.is_empty() => {
                nothing("all_of([]) has no matcher".to_owned())
            }
            Matcher::AnyOf { matchers } if matchers.is_empty() => {
                nothing("one_of([]) has no variant".to_owned())
            }
            Matcher::FreeText { value } if value.trim().is_empty() => {
                nothing("free_text has no description".to_owned())
            }
            Matcher::DateTime { value } if value.trim().is_empty() => {
                nothing("date_time has no description".to_owned())
            }
            Matcher::Optional { inner } | Matcher::Not { inner } => inner.problem(),
            Matcher::AllOf { matchers } | Matcher::AnyOf { matchers } => {
                matchers.iter().find_map(Matcher::problem)
            }
            _ => None,
        }
    }
}

fn join(head: &str, matchers: &[Matcher]) -> String {
    let parts: Vec<String> = matchers.iter().map(Matcher::describe).collect();
    format!("{head} {}", parts.join(", "))
}

fn tolerance(minutes: u32) -> String {
    if minutes == 0 {
        String::new()
    } else {
        format!(" ± {minutes} min")
    }
}

/// The instant of a date-valued expression result: dates at midnight in the run's time zone.
fn instant_of(v: &ExprValue, env: &Env<'_>) -> Option<jiff::Zoned> {
    match v {
        ExprValue::Date(d) => d.to_zoned(env.now.time_zone().clone()).ok(),
        ExprValue::DateTime(z) => Some(z.clone()),
        ExprValue::Json(Value::String(s)) => {
            crate::compare::clock::parse_instant(s, env.now.time_zone())
        }
        ExprValue::Json(_) => None,
    }
}

/// Whether a value is or contains an array.
fn has_array(v: &Value) -> bool {
    match v {
        Value::Array(_) => true,
        Value::Object(o) => o.values().any(has_array),
        _ => false,
    }
}

/// A value as text: strings as they are (`Ok`), anything else as compact JSON (`Err`, so
/// callers can tell).
fn render(v: &Value) -> Result<String, String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        other => Err(compact(other)),
    }
}

/// A value as text: strings as they are, anything else as compact JSON (what `contains`,
/// `regex` and the judge compare).
#[doc(hidden)]
pub fn text(v: &Value) -> String {
    render(v).unwrap_or_else(|s| s)
}

/// Conversion into a [`Matcher`]: plain values become exact matchers.
///
/// Implemented for strings, numbers, booleans, `serde_json::Value`, matchers and the matcher
/// builders.
///
/// ```
/// use agent_test::matcher::{IntoMatcher, Matcher};
/// assert_eq!(true.into_matcher(), Matcher::Exact { value: serde_json::json!(true), unordered: false, wildcard: false });
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be used as an expected value",
    label = "expected a value or a matcher here",
    note = "use a plain value (\"text\", 42, true, json!(..)) or a matcher: contains(..), regex(..), date(..), any(), optional(..), missing(), one_of([..]), ..."
)]
pub trait IntoMatcher {
    /// Performs the conversion.
    fn into_matcher(self) -> Matcher;
}

impl IntoMatcher for Matcher {
    fn into_matcher(self) -> Matcher {
        self
    }
}

macro_rules! exact_from {
    ($($t:ty),*) => {$(
        impl IntoMatcher for $t {
            fn into_matcher(self) -> Matcher {
                Matcher::Exact { value: Value::from(self), unordered: false, wildcard: false }
            }
        }
    )*};
}
exact_from!(
    &str, String, bool, i8, i16, i32, i64, u8, u16, u32, u64, isize, usize, f32, f64, Value
);

impl IntoMatcher for &String {
    fn into_matcher(self) -> Matcher {
        self.as_str().into_matcher()
    }
}

impl IntoMatcher for &Value {
    fn into_matcher(self) -> Matcher {
        self.clone().into_matcher()
    }
}
