//! JMESPath queries on the JSON an agent answered (PromptKit's `json_path`, which is JMESPath,
//! not JSONPath).

use super::Semantic;
use agent_test_vocabulary::{Arg, Kind, Word};
use crate::model::Part;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::json_source::{JsonSource, JsonSourceOptions};
use super::Outcome;
use crate::evaluate::context::EvalContext;
use crate::matcher::{IntoMatcher, Matcher, Mismatch};

/// A check on the value a [JMESPath](https://jmespath.org) expression gives for the JSON
/// response (`locations[?state == 'WA'].name | sort(@)`). Build it with [`jmespath()`]. JMESPath
/// has no "missing": a path that leads nowhere gives `null`, so [`JmesPath::exists`] means "not
/// null". A response that is not JSON fails with an "invalid JSON" reason; an expression that
/// does not compile, or fails (a function given the wrong type), is an error verdict. Needs the
/// `jmespath` feature (on by default).
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Reply, Transcript, Turn};
/// let reply = Reply::text(r#"{"locations": [{"name": "Seattle", "state": "WA"}, {"name": "Bellevue", "state": "WA"}, {"name": "Portland", "state": "OR"}]}"#);
/// let t = Transcript::new(vec![Turn::new(0, "q", reply, 1)]);
/// let v = evaluate(&t, &[
///     jmespath("locations[?state == 'WA'].name | sort(@)").is(json!(["Bellevue", "Seattle"])).into_expectation(),
///     jmespath("length(locations)").is(matches_schema(json!({"minimum": 5}))).into_expectation(),
///     jmespath("missing.field").exists().into_expectation(),
/// ]);
/// assert_eq!(v[0].status, Status::Pass);
/// assert_eq!(v[1].reason, r#"`length(locations)` gives 3: 3 is not valid against {"minimum":5}: (root): 3 is less than the minimum of 5"#);
/// assert_eq!(v[2].reason, "`missing.field` gives null: expected not null, got null");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JmesPathCheck {
    pub(crate) expression: String,
    pub(crate) matcher: Matcher,
    #[serde(default)]
    source: JsonSource,
}

/// Evaluates a JMESPath expression on the JSON response; finish with [`JmesPath::is`],
/// [`JmesPath::exists`] or [`JmesPath::evaluates`].
///
/// See [`JmesPathCheck`].
pub fn jmespath(expression: impl Into<String>) -> JmesPath {
    JmesPath {
        expression: expression.into(),
    }
}

/// An expression selected by [`jmespath()`].
#[derive(Clone, Debug)]
pub struct JmesPath {
    expression: String,
}

impl JmesPath {
    fn check(self, matcher: Matcher) -> JmesPathCheck {
        JmesPathCheck {
            expression: self.expression,
            matcher,
            source: JsonSource::Auto,
        }
    }

    /// The value the expression gives equals `expected` (JSON equality, numbers by value) or
    /// satisfies a matcher.
    ///
    /// See [`JmesPathCheck`].
    pub fn is(self, expected: impl IntoMatcher) -> JmesPathCheck {
        self.check(expected.into_matcher())
    }

    /// The expression gives something other than `null`.
    ///
    /// See [`JmesPathCheck`].
    pub fn exists(self) -> JmesPathCheck {
        self.check(crate::matcher::not(Value::Null))
    }

    /// The response is JSON and the expression evaluates on it, whatever it gives (`null`
    /// included): PromptKit's `json_path` with an expression and nothing to compare. With the
    /// expression `@`, the check that the response is valid JSON (PromptKit's `json_valid`).
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::evaluate;
    /// use agent_test::model::{Reply, Transcript, Turn};
    /// let t = Transcript::new(vec![Turn::new(0, "q", Reply::text("not json"), 1)]);
    /// let v = evaluate(&t, &[jmespath("@").evaluates().in_reply().into_expectation()]);
    /// assert_eq!(v[0].reason, "`@`: invalid JSON: the reply is not valid JSON: expected ident at line 1 column 2");
    /// assert_eq!(jmespath("@").evaluates().describe(), "the response is JSON");
    /// ```
    pub fn evaluates(self) -> JmesPathCheck {
        self.check(Matcher::Any)
    }
}

impl JsonSourceOptions for JmesPathCheck {
    fn with_source(mut self, source: JsonSource) -> Self {
        self.source = source;
        self
    }
}

impl JmesPathCheck {
    /// One line describing the check.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(jmespath("user.name").is("Ada").describe(), r#"JMESPath `user.name` of the response is "Ada""#);
    /// ```
    pub fn describe(&self) -> String {
        let src = self.source.describe();
        match &self.matcher {
            Matcher::Any if self.expression.trim() == "@" => format!("{src} is JSON"),
            Matcher::Any => format!("JMESPath `{}` evaluates on {src}", self.expression),
            Matcher::Exact { value, .. } => format!(
                "JMESPath `{}` of {src} is {}",
                self.expression,
                crate::util::text::shown(value)
            ),
            m => format!(
                "JMESPath `{}` of {src} is {}",
                self.expression,
                m.describe()
            ),
        }
    }

    /// Why the expression does not compile, if it does not.
    fn expression_problem(&self) -> Option<String> {
        #[cfg(feature = "jmespath")]
        if let Err(e) = jmespath::compile(&self.expression) {
            return Some(format!(
                "invalid JMESPath `{}`: {}",
                self.expression,
                one_line(&e.to_string())
            ));
        }
        None
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        if let Some(p) = self.matcher.problem() {
            return Outcome::error(p);
        }
        if let Some(e) = self.source.failed(cx) {
            return Outcome::error(e);
        }
        let q = &self.expression;
        let json = match self.source.read(cx) {
            Ok(v) => v,
            Err(e) => return Outcome::fail(format!("`{q}`: invalid JSON: {e}")),
        };
        let value = match search(q, json) {
            Ok(v) => v,
            Err(e) => return Outcome::error(e),
        };
        match self.matcher.check(Some(&value), &cx.env()) {
            Ok(()) => Outcome::passed(),
            Err(Mismatch::Error(e)) => Outcome::error(e),
            Err(Mismatch::Fail(e)) => Outcome::fail(format!(
                "`{q}` gives {}: {e}",
                crate::util::text::shown(&value)
            ))
            .expected(self.matcher.expected_json())
            .actual(value),
        }
    }
}

/// The value of `expression` on `json`, or why there is none.
#[cfg(feature = "jmespath")]
#[doc(hidden)]
pub fn search(expression: &str, json: &Value) -> Result<Value, String> {
    let compiled = jmespath::compile(expression).map_err(|e| {
        format!(
            "invalid JMESPath `{expression}`: {}",
            one_line(&e.to_string())
        )
    })?;
    let result = compiled.search(json).map_err(|e| {
        format!(
            "JMESPath `{expression}` failed: {}",
            one_line(&e.to_string())
        )
    })?;
    serde_json::to_value(&*result).map_err(|e| format!("JMESPath `{expression}`: {e}"))
}

#[cfg(feature = "jmespath")]
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Without the `jmespath` feature: why there is no value.
#[cfg(not(feature = "jmespath"))]
#[doc(hidden)]
pub fn search(_expression: &str, _json: &Value) -> Result<Value, String> {
    Err("JMESPath checks need agent-test's `jmespath` feature".to_owned())
}

impl super::CheckRules for JmesPathCheck {
    const KIND: Kind = Kind::new(
        "jmespath",
        "the value of a JMESPath expression on the JSON answered",
    )
    .words(&[
        Word::new("jmespath", Arg::JmesPath),
        Word::new("is", Arg::Value),
    ]);

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![jmespath("a.b").is(1).in_text().into_expectation()]
    }

    fn semantic<'a>(&'a self, out: &mut Vec<Semantic<'a>>) {
        Semantic::of_matcher(&self.matcher, out, |matcher| Semantic::Jmespath {
            expression: &self.expression,
            matcher,
        });
    }

    fn reads(&self) -> &'static [Part] {
        self.source.reads()
    }

    fn literal_problem(&self) -> Option<String> {
        self.expression_problem()
            .or_else(|| self.matcher.literal_problem())
    }
}
