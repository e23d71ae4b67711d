//! The functions that build matchers, and the builders of those with options.

use serde_json::Value;

use super::{IntoMatcher, Matcher};
use crate::compare::expression::Expression;
use crate::compare::pattern::Pattern;
use crate::compare::schema::Schema;

/// An exact matcher with options; build it with [`exact`].
#[derive(Clone, Debug, PartialEq)]
pub struct ExactMatcher {
    value: Value,
    unordered: bool,
    wildcard: bool,
}

/// Deep JSON equality (numbers by value), as a plain value gives, with options for unordered
/// lists and `"*"` wildcards.
///
/// ```
/// use agent_test::matcher::*;
/// let tags = exact(serde_json::json!(["vip", "urgent"])).unordered();
/// assert_eq!(tags.into_matcher().describe(), r#"["vip","urgent"] (any order)"#);
/// ```
pub fn exact(value: impl Into<Value>) -> ExactMatcher {
    ExactMatcher {
        value: value.into(),
        unordered: false,
        wildcard: false,
    }
}

impl ExactMatcher {
    /// Compare arrays (at any depth) regardless of order, one-to-one.
    ///
    /// See [`exact`].
    pub fn unordered(mut self) -> Self {
        self.unordered = true;
        self
    }

    /// Let an expected `"*"` (at any depth) match any value.
    ///
    /// ```
    /// use agent_test::matcher::*;
    /// let m = exact(serde_json::json!({"id": "*", "status": "open"})).wildcards();
    /// # let _ = m;
    /// ```
    pub fn wildcards(mut self) -> Self {
        self.wildcard = true;
        self
    }
}

impl IntoMatcher for ExactMatcher {
    fn into_matcher(self) -> Matcher {
        Matcher::Exact {
            value: self.value,
            unordered: self.unordered,
            wildcard: self.wildcard,
        }
    }
}

/// Equality with an expression's value, computed when the check runs: context variables,
/// `CONCAT`, `JSON_EXTRACT`, dates (compared as instants). A literal expression in
/// `agent_test!` is checked at compile time.
///
/// ```
/// use agent_test::matcher::*;
/// let m = expr("CONCAT('order-', ORDER_ID)");
/// assert_eq!(m.describe(), "= CONCAT('order-', ORDER_ID)");
/// ```
pub fn expr(expression: impl Into<String>) -> Matcher {
    Matcher::Expr {
        expression: Expression::new(expression),
    }
}

/// A text-containment matcher; build it with [`contains`].
#[derive(Clone, Debug, PartialEq)]
pub struct ContainsMatcher {
    value: String,
    ignore_case: bool,
}

/// The value, rendered as text (numbers and objects as compact JSON), contains `text`.
/// Case-sensitive unless [`ContainsMatcher::ignore_case`].
///
/// ```
/// use agent_test::matcher::*;
/// let m = contains("onboarding").ignore_case();
/// assert_eq!(m.into_matcher().describe(), r#"text containing "onboarding" (any case)"#);
/// ```
pub fn contains(text: impl Into<String>) -> ContainsMatcher {
    ContainsMatcher {
        value: text.into(),
        ignore_case: false,
    }
}

impl ContainsMatcher {
    /// Compare case-insensitively.
    ///
    /// See [`contains`].
    pub fn ignore_case(mut self) -> Self {
        self.ignore_case = true;
        self
    }
}

impl IntoMatcher for ContainsMatcher {
    fn into_matcher(self) -> Matcher {
        Matcher::Contains {
            value: self.value,
            ignore_case: self.ignore_case,
        }
    }
}

/// The value, rendered as text, matches the regex (Rust `regex` syntax, unanchored:
/// use `^...$` to match it whole). A literal pattern in `agent_test!` is checked at compile
/// time.
///
/// ```
/// use agent_test::matcher::*;
/// assert_eq!(regex(r"^ORD-\d{4}$").describe(), r"/^ORD-\d{4}$/");
/// ```
pub fn regex(pattern: impl Into<String>) -> Matcher {
    Matcher::Regex {
        pattern: Pattern::new(pattern),
    }
}

/// A date matcher; build it with [`date`].
#[derive(Clone, Debug, PartialEq)]
pub struct DateMatcher {
    expression: Expression,
    tolerance_minutes: u32,
}

/// The value is a date or date-time equal to the expression's value, within a tolerance
/// (0 minutes unless [`DateMatcher::tolerance_minutes`]). Dates mean midnight; text without an
/// offset is read in the run's time zone. A literal expression in `agent_test!` is checked at
/// compile time.
///
/// ```
/// use agent_test::matcher::*;
/// let tomorrow_at_nine = date("AT_TIME(DATE_ADD(TODAY, 1, 'day'), '09:00')").tolerance_minutes(5);
/// # let _ = tomorrow_at_nine;
/// ```
pub fn date(expression: impl Into<String>) -> DateMatcher {
    DateMatcher {
        expression: Expression::new(expression),
        tolerance_minutes: 0,
    }
}

impl DateMatcher {
    /// Accept a difference of up to `minutes`.
    ///
    /// See [`date`].
    pub fn tolerance_minutes(mut self, minutes: u32) -> Self {
        self.tolerance_minutes = minutes;
        self
    }
}

impl IntoMatcher for DateMatcher {
    fn into_matcher(self) -> Matcher {
        Matcher::Date {
            expression: self.expression,
            tolerance_minutes: self.tolerance_minutes,
        }
    }
}

/// The value is valid against a JSON Schema fragment, like `{"type": "string", "pattern":
/// "^(metric|si)$"}` (needs the `schema` feature, on by default).
///
/// ```
/// use agent_test::matcher::*;
/// let units = one_of([
///     matches_schema(serde_json::json!({"type": "string", "pattern": "^(metric|si)$"})),
///     matches_schema(serde_json::json!({"type": "string", "pattern": "^celsius$"})),
/// ]);
/// # let _ = units;
/// ```
pub fn matches_schema(schema: Value) -> Matcher {
    Matcher::Schema {
        schema: Schema::new(schema),
    }
}

/// Present, with any value (`null` included).
///
/// ```
/// use agent_test::matcher::*;
/// assert_eq!(any().describe(), "any value");
/// ```
pub fn any() -> Matcher {
    Matcher::Any
}

/// Missing or `null` passes; a present value must satisfy `inner`.
///
/// ```
/// use agent_test::matcher::*;
/// assert_eq!(optional("en-US").describe(), r#"optionally "en-US""#);
/// ```
pub fn optional(inner: impl IntoMatcher) -> Matcher {
    Matcher::Optional {
        inner: Box::new(inner.into_matcher()),
    }
}

/// Must be absent (`null` is present).
///
/// ```
/// use agent_test::matcher::*;
/// assert_eq!(missing().describe(), "absent");
/// ```
pub fn missing() -> Matcher {
    Matcher::Missing
}

/// The same email address: the part before `@` exactly, the domain in any case; a display
/// name (`Ana <ana@example.com>`) is ignored.
///
/// ```
/// use agent_test::matcher::*;
/// assert_eq!(email("ana@example.com").describe(), r#"the email "ana@example.com""#);
/// ```
pub fn email(address: impl Into<String>) -> Matcher {
    Matcher::Email {
        address: address.into(),
    }
}

/// Any of the variants: values, matchers, schema fragments ([`matches_schema`]).
///
/// ```
/// use agent_test::matcher::*;
/// let m = one_of(["metric", "si"]);
/// # let _ = m;
/// ```
pub fn one_of<M: IntoMatcher>(variants: impl IntoIterator<Item = M>) -> Matcher {
    any_of(variants)
}

/// At least one of the matchers passes.
///
/// ```
/// use agent_test::matcher::*;
/// let m = any_of([regex("^ORD-"), regex("^REF-")]);
/// # let _ = m;
/// ```
pub fn any_of<M: IntoMatcher>(matchers: impl IntoIterator<Item = M>) -> Matcher {
    Matcher::AnyOf {
        matchers: matchers
            .into_iter()
            .map(IntoMatcher::into_matcher)
            .collect(),
    }
}

/// Every matcher passes.
///
/// ```
/// use agent_test::matcher::*;
/// let m = all_of([regex("^ORD-"), not(contains("TEST"))]);
/// # let _ = m;
/// ```
pub fn all_of<M: IntoMatcher>(matchers: impl IntoIterator<Item = M>) -> Matcher {
    Matcher::AllOf {
        matchers: matchers
            .into_iter()
            .map(IntoMatcher::into_matcher)
            .collect(),
    }
}

/// The matcher must not pass (an absent value fails too: use [`optional`] to allow it).
///
/// ```
/// use agent_test::matcher::*;
/// assert_eq!(not("admin").describe(), r#"not "admin""#);
/// ```
pub fn not(inner: impl IntoMatcher) -> Matcher {
    Matcher::Not {
        inner: Box::new(inner.into_matcher()),
    }
}
