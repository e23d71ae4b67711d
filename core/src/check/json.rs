//! The check on a JSON field at a dot path ([`FieldCheck`]); JSONPath queries and JSON Schema
//! have files of their own.

use super::Semantic;
use agent_test_vocabulary::{Arg, Kind, Word};
use crate::model::Part;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::json_source::{JsonSource, JsonSourceOptions};
use super::Outcome;
use crate::evaluate::context::EvalContext;
use crate::compare::path::FieldPath;
use crate::matcher::{IntoMatcher, Matcher, Mismatch};
use crate::util::diff::json_diff;

/// A check on the value at a dot path of the JSON response (Mibo's `json_match`). Build it
/// with [`field`].
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Reply, Transcript, Turn};
///
/// let reply = Reply::text("").body(json!({"data": {"order": {"status": "confirmed", "item_count": 3}}}));
/// let t = Transcript::new(vec![Turn::new(0, "order", reply, 1)]);
/// let v = evaluate(&t, &[
///     field("data.order.status").is("confirmed").into_expectation(),
///     field("data.order.item_count").is(3).into_expectation(),
///     field("data.order.status").is_not("confirmed").into_expectation(),
/// ]);
/// assert_eq!(v[0].status, Status::Pass);
/// assert_eq!(v[1].status, Status::Pass);
/// assert_eq!(v[2].reason, r#"data.order.status: expected not "confirmed", got "confirmed""#);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldCheck {
    #[serde(serialize_with = "ser_path", deserialize_with = "de_path")]
    pub(crate) path: FieldPath,
    pub(crate) matcher: Matcher,
    #[serde(default)]
    source: JsonSource,
}

fn ser_path<S: Serializer>(p: &FieldPath, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(p.as_str())
}

fn de_path<'de, D: Deserializer<'de>>(d: D) -> Result<FieldPath, D::Error> {
    String::deserialize(d).map(FieldPath::new)
}

/// Selects the value at a dot path (`data.order.status`, `items.0.sku`) of the JSON response;
/// finish with [`Field::is`], [`Field::is_not`], [`Field::exists`] or [`Field::missing`].
///
/// ```
/// use agent_test::prelude::*;
/// let c = field("data.message").is(contains("success"));
/// assert_eq!(c.describe(), r#"data.message of the response is text containing "success""#);
/// ```
pub fn field(path: impl Into<String>) -> Field {
    Field {
        path: FieldPath::new(path),
    }
}

/// A path selected by [`field`].
#[derive(Clone, Debug)]
pub struct Field {
    path: FieldPath,
}

impl Field {
    fn check(self, matcher: Matcher) -> FieldCheck {
        FieldCheck {
            path: self.path,
            matcher,
            source: JsonSource::Auto,
        }
    }

    /// The value equals `expected` (JSON equality, numbers by value) or satisfies a matcher.
    ///
    /// See [`field`].
    pub fn is(self, expected: impl IntoMatcher) -> FieldCheck {
        self.check(expected.into_matcher())
    }

    /// The value does not equal `expected` (or does not satisfy the matcher); a missing value
    /// passes (Mibo's `NOT_EQUALS`).
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// let c = field("data.status").is_not("error");
    /// # let _ = c;
    /// ```
    pub fn is_not(self, expected: impl IntoMatcher) -> FieldCheck {
        self.check(crate::matcher::optional(crate::matcher::not(expected)))
    }

    /// The field is present.
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// let c = field("data.id").exists();
    /// # let _ = c;
    /// ```
    pub fn exists(self) -> FieldCheck {
        self.check(Matcher::Any)
    }

    /// The field is absent.
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// let c = field("error").missing();
    /// # let _ = c;
    /// ```
    pub fn missing(self) -> FieldCheck {
        self.check(Matcher::Missing)
    }
}

impl JsonSourceOptions for FieldCheck {
    fn with_source(mut self, source: JsonSource) -> Self {
        self.source = source;
        self
    }
}

impl FieldCheck {
    /// One line describing the check.
    ///
    /// See [`field`].
    pub fn describe(&self) -> String {
        let what = match &self.matcher {
            Matcher::Optional { inner } if matches!(**inner, Matcher::Not { .. }) => {
                inner.describe().replacen("not ", "is not ", 1)
            }
            Matcher::Any => "exists".to_owned(),
            Matcher::Missing => "is absent".to_owned(),
            m => format!("is {}", m.describe()),
        };
        format!(
            "{} of {} {what}",
            self.path.as_str(),
            self.source.describe()
        )
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        if let Some(p) = self.matcher.problem() {
            return Outcome::error(p);
        }
        if let Some(e) = self.source.failed(cx) {
            return Outcome::error(e);
        }
        let json = match self.source.read(cx) {
            Ok(v) => v,
            Err(e) => return Outcome::fail(format!("{}: {e}", self.path.as_str())),
        };
        let actual = self.path.get(json);
        match self.matcher.check(actual, &cx.env()) {
            Ok(()) => Outcome::passed(),
            Err(Mismatch::Error(e)) => Outcome::error(e),
            Err(Mismatch::Fail(e)) => {
                let mut o = Outcome::fail(format!("{}: {e}", self.path.as_str()))
                    .expected(self.matcher.expected_json())
                    .actual(actual.cloned().unwrap_or(Value::Null));
                if let (Matcher::Exact { value, .. }, Some(a)) = (&self.matcher, actual)
                    && (value.is_object() || value.is_array())
                {
                    o = o.diff(json_diff(value, a));
                }
                o
            }
        }
    }
}

impl super::CheckRules for FieldCheck {
    const KIND: Kind = Kind::new(
        "field",
        "a field of the JSON answered: exists, missing, is, is not",
    )
    .words(&[
        Word::new("field", Arg::Text),
        Word::new("is", Arg::Value),
        Word::new("is_not", Arg::Value),
    ]);

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        use crate::matcher::*;
        vec![
            field("x")
                .exists()
                .with_source(super::JsonSource::Lenient {
                    fenced: true,
                    embedded: true,
                })
                .into_expectation(),
            field("a.b").is(optional(exact(1))).into_expectation(),
        ]
    }

    fn semantic<'a>(&'a self, out: &mut Vec<Semantic<'a>>) {
        Semantic::of_matcher(&self.matcher, out, |matcher| Semantic::Field {
            path: &self.path,
            matcher,
        });
    }

    fn reads(&self) -> &'static [Part] {
        self.source.reads()
    }

    fn literal_problem(&self) -> Option<String> {
        self.matcher.literal_problem()
    }
}
