//! One call of a reference trajectory ([`ExpectedCall`]): a tool name and constraints on its
//! arguments, and how a constraint reads one field of them.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::arg_constraint::ArgConstraint;
use crate::compare::expression::Env;
use crate::compare::path::FieldPath;
use crate::matcher::{ExactOptions, IntoMatcher, Matcher, exact_eq};
use crate::util::text::compact;

/// One call of a reference trajectory: a tool name and argument constraints. Build it with
/// [`tool_call`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedCall {
    pub(crate) name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) args: Vec<ArgConstraint>,
    /// Made in the same model response as the reference call before it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) parallel: bool,
}

/// A reference call of the tool `name` (add expected arguments with [`ExpectedCall::arg`]).
///
/// ```
/// use agent_test::prelude::*;
/// let c = tool_call("search").arg("q", contains("laptop"));
/// assert_eq!(c.to_string(), r#"search(q: text containing "laptop")"#);
/// ```
pub fn tool_call(name: impl Into<String>) -> ExpectedCall {
    ExpectedCall {
        name: name.into(),
        args: Vec::new(),
        parallel: false,
    }
}

impl ExpectedCall {
    /// An expected argument: a value (JSON equality) or a matcher.
    ///
    /// See [`tool_call`].
    pub fn arg(mut self, path: impl Into<String>, expected: impl IntoMatcher) -> Self {
        self.args.push(ArgConstraint::new(path, expected));
        self
    }

    /// Made in the same model response as the reference call before it: the two (and any
    /// further `.parallel()` ones) are one model step, whose calls a [strict](crate::check::TrajectoryCheck::strict)
    /// trajectory matches in any order. Other modes compare calls, not steps.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = trajectory([
    ///     tool_call("weather").arg("city", "Paris"),
    ///     tool_call("weather").arg("city", "Rome").parallel(),
    ///     tool_call("summarize"),
    /// ]).strict();
    /// assert_eq!(c.describe(),
    ///            r#"trajectory (strict): [weather(city = "Paris") + weather(city = "Rome")] → summarize()"#);
    /// ```
    pub fn parallel(mut self) -> Self {
        self.parallel = true;
        self
    }

    /// Every field of a JSON object is an expected argument.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = tool_call("lookup_order").args(json!({"order_id": "ORD-1"}));
    /// assert_eq!(c.to_string(), r#"lookup_order(order_id = "ORD-1")"#);
    /// ```
    pub fn args(mut self, expected: Value) -> Self {
        if let Value::Object(map) = expected {
            for (k, v) in map {
                self.args.push(ArgConstraint::key(k, v));
            }
        }
        self
    }

    pub(in crate::check) fn expected_json(&self) -> Value {
        let args: Map<String, Value> = self
            .args
            .iter()
            .map(|a| (a.path.as_str().to_owned(), a.matcher.expected_json()))
            .collect();
        json!({"name": self.name, "arguments": args})
    }
}

impl fmt::Display for ExpectedCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| match &a.matcher {
                Matcher::Exact { value, .. } => format!("{} = {}", a.path.as_str(), compact(value)),
                m => format!("{}: {}", a.path.as_str(), m.describe()),
            })
            .collect();
        write!(f, "{}({})", self.name, args.join(", "))
    }
}

/// What an expected argument constraint says about one field of
/// [`compare_fields`](TrajectoryCheck::compare_fields).
pub(in crate::check) enum FieldPart<'e> {
    /// The constraint is at the field or inside it (`address.city` for the field `address`):
    /// it applies as it is.
    Whole,
    /// The constraint is an exact value around the field (`address = {"city": ..}` for the
    /// field `address.city`): the part of it at the field.
    Inside(&'e Value, ExactOptions),
}

impl FieldPart<'_> {
    pub(in crate::check) fn is_match(
        &self,
        c: &ArgConstraint,
        field: &FieldPath,
        actual: &Value,
        env: &Env<'_>,
    ) -> bool {
        match self {
            FieldPart::Whole => c.matcher.is_match(c.value(actual).as_deref(), env),
            FieldPart::Inside(expected, options) => field
                .get(actual)
                .is_some_and(|a| exact_eq(expected, a, *options)),
        }
    }
}

/// What the constraint `c` of a reference call gives for `field`, if anything.
pub(in crate::check) fn field_part<'e>(
    c: &'e ArgConstraint,
    field: &FieldPath,
) -> Option<FieldPart<'e>> {
    if !c.group.is_empty() {
        return None;
    }
    if c.path.as_str() == field.as_str() || c.path.segments().starts_with(field.segments()) {
        return Some(FieldPart::Whole);
    }
    let rest = field.segments().strip_prefix(c.path.segments())?;
    match &c.matcher {
        Matcher::Exact {
            value,
            unordered,
            wildcard,
        } => FieldPath::from_segments(rest).get(value).map(|v| {
            FieldPart::Inside(
                v,
                ExactOptions {
                    unordered: *unordered,
                    wildcard: *wildcard,
                },
            )
        }),
        _ => None,
    }
}
