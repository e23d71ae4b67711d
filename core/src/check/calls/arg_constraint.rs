//! One constraint on a value at a path of a call's arguments or result: the path (or a group of
//! arguments, or a JSONPath query) and the matcher it must satisfy.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::check::json_path::JsonPathQuery;
use crate::compare::path::FieldPath;
use crate::matcher::{IntoMatcher, Matcher, Mismatch};

/// One constraint on a value at a path: an argument (`order_id`, `address.city`,
/// `items.0.sku`) or a part of a result (the empty path is the whole value).
///
/// In JSON, `name` is the path; a key taken literally that a path would read otherwise (a
/// key of `.args(json!({..}))` with a dot in it) is marked `"literal": true`, so that it
/// reloads as the same key:
///
/// ```
/// use agent_test::check::ArgConstraint;
/// use agent_test::prelude::*;
/// let check = tool("t").args(json!({"a.b": 1}));
/// let text = serde_json::to_string(&check.into_expectation()).unwrap();
/// assert!(text.contains(r#""name":"a.b","literal":true"#), "{text}");
/// let c: ArgConstraint = serde_json::from_str(r#"{"name": "a.b", "literal": true, "matcher": "any"}"#).unwrap();
/// assert_eq!(c.value(&json!({"a": {"b": 2}, "a.b": 1})).unwrap().as_ref(), &json!(1));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "ArgRepr", into = "ArgRepr")]
pub struct ArgConstraint {
    /// Where the value is.
    pub path: FieldPath,
    /// What it must satisfy.
    pub matcher: Matcher,
    /// Several arguments judged together (MorganaBench's parameter groups): the value is an
    /// object of those present; `path` names the group in messages.
    pub group: Vec<String>,
    /// An RFC 9535 JSONPath query selecting the values instead of `path` (which then only
    /// names it): the constraint holds when some selected value satisfies the matcher; when
    /// nothing is selected the matcher sees a missing value.
    pub(crate) query: Option<JsonPathQuery>,
}

/// [`ArgConstraint`] as JSON.
#[derive(Serialize, Deserialize)]
struct ArgRepr {
    name: String,
    /// `name` is one key, not a path.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    literal: bool,
    /// `name` is an RFC 9535 JSONPath query.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    json_path: bool,
    #[serde(flatten)]
    matcher: Matcher,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    group: Vec<String>,
}

impl From<ArgRepr> for ArgConstraint {
    fn from(r: ArgRepr) -> Self {
        if r.json_path {
            let mut c = ArgConstraint::json_path(r.name, r.matcher);
            c.group = r.group;
            return c;
        }
        ArgConstraint {
            path: if r.literal {
                FieldPath::key(r.name)
            } else {
                FieldPath::new(r.name)
            },
            matcher: r.matcher,
            group: r.group,
            query: None,
        }
    }
}

impl From<ArgConstraint> for ArgRepr {
    fn from(c: ArgConstraint) -> Self {
        ArgRepr {
            literal: c.query.is_none() && c.path.is_literal_key(),
            json_path: c.query.is_some(),
            name: c.path.as_str().to_owned(),
            matcher: c.matcher,
            group: c.group,
        }
    }
}

impl ArgConstraint {
    /// A constraint on the value at `path`.
    ///
    /// ```
    /// use agent_test::check::ArgConstraint;
    /// let c = ArgConstraint::new("order_id", "ORD-1");
    /// assert_eq!(c.value(&serde_json::json!({"order_id": "ORD-1"})).unwrap().as_str(), Some("ORD-1"));
    /// ```
    pub fn new(path: impl Into<String>, expected: impl IntoMatcher) -> Self {
        Self::at(FieldPath::new(path), expected)
    }

    /// A constraint on the argument named `key`: a name, not a path (a dotted key means that
    /// key, as `args(json!({..}))` reads its keys).
    ///
    /// ```
    /// use agent_test::check::ArgConstraint;
    /// let c = ArgConstraint::key("a.b", 1);
    /// assert_eq!(c.value(&serde_json::json!({"a.b": 1})).unwrap().as_i64(), Some(1));
    /// ```
    pub fn key(key: impl Into<String>, expected: impl IntoMatcher) -> Self {
        Self::at(FieldPath::key(key), expected)
    }

    fn at(path: FieldPath, expected: impl IntoMatcher) -> Self {
        ArgConstraint {
            path,
            matcher: expected.into_matcher(),
            group: Vec::new(),
            query: None,
        }
    }

    /// A constraint on the values an RFC 9535 JSONPath query selects: some selected value must
    /// satisfy `expected`; when the query selects nothing, `expected` sees a missing value (so
    /// `missing()` requires that nothing is selected).
    ///
    /// ```
    /// use agent_test::check::ArgConstraint;
    /// use agent_test::prelude::*;
    /// let c = ArgConstraint::json_path("$.items[*].sku", "B-2");
    /// let env_check = tool("order").arguments_with(c);
    /// # let _ = env_check;
    /// ```
    pub fn json_path(query: impl Into<String>, expected: impl IntoMatcher) -> Self {
        let query = query.into();
        ArgConstraint {
            query: Some(JsonPathQuery::new(query.clone())),
            ..Self::key(query, expected)
        }
    }

    /// A broken literal of the constraint (its matcher's, or its JSONPath query), with the
    /// argument it is about.
    pub(crate) fn literal_problem(&self) -> Option<String> {
        self.matcher
            .literal_problem()
            .or_else(|| self.query.as_ref().and_then(JsonPathQuery::problem))
            .map(|p| match self.path.as_str() {
                "" => p,
                path => format!("{path}: {p}"),
            })
    }

    /// Why the constraint cannot be evaluated or compares nothing: its matcher's problem, or
    /// an invalid JSONPath query.
    pub(crate) fn problem(&self) -> Option<String> {
        self.matcher
            .problem()
            .or_else(|| self.query.as_ref().and_then(JsonPathQuery::problem))
    }

    /// Every value the constraint reads in `v`: the one at the path (or the group's object), or
    /// each value the query selects.
    #[doc(hidden)]
    pub fn values<'a>(&self, v: &'a Value) -> Vec<Cow<'a, Value>> {
        match &self.query {
            Some(q) => q
                .select(v)
                .unwrap_or_default()
                .into_iter()
                .map(Cow::Borrowed)
                .collect(),
            None => self.value(v).into_iter().collect(),
        }
    }

    /// Whether the values in `root` (absent: nothing to read) satisfy the constraint — the
    /// allocation-light twin of [`ArgConstraint::check`].
    pub(crate) fn is_match(
        &self,
        root: Option<&Value>,
        env: &crate::compare::expression::Env<'_>,
    ) -> bool {
        match &self.query {
            None => self
                .matcher
                .is_match(root.and_then(|r| self.value(r)).as_deref(), env),
            Some(_) => self.check(root, env).is_ok(),
        }
    }

    /// Whether the values in `root` satisfy the constraint, or why not.
    pub(crate) fn check(
        &self,
        root: Option<&Value>,
        env: &crate::compare::expression::Env<'_>,
    ) -> Result<(), Mismatch> {
        let Some(q) = &self.query else {
            return self
                .matcher
                .check(root.and_then(|r| self.value(r)).as_deref(), env);
        };
        let selected = match root {
            Some(r) => q.select(r).map_err(Mismatch::Error)?,
            None => Vec::new(),
        };
        if selected.is_empty() {
            return self.matcher.check(None, env).map_err(|m| match m {
                Mismatch::Fail(e) => Mismatch::Fail(format!("selects nothing: {e}")),
                other => other,
            });
        }
        let mut first = None;
        for v in &selected {
            match self.matcher.check(Some(v), env) {
                Ok(()) => return Ok(()),
                Err(Mismatch::Error(e)) => return Err(Mismatch::Error(e)),
                Err(Mismatch::Fail(e)) => {
                    first.get_or_insert(e);
                }
            }
        }
        let shown =
            crate::util::text::shown(&Value::Array(selected.into_iter().cloned().collect()));
        Err(Mismatch::Fail(format!(
            "selects {shown}, none matching ({})",
            first.unwrap_or_default()
        )))
    }

    /// The value constrained in `v`: at the path, or for a group the object of its members
    /// present in `v` (absent when none is).
    ///
    /// See [`ToolCheck::arg_group`](crate::check::ToolCheck::arg_group).
    pub fn value<'a>(&self, v: &'a Value) -> Option<Cow<'a, Value>> {
        if self.group.is_empty() {
            return self.path.get(v).map(Cow::Borrowed);
        }
        let members: Map<String, Value> = self
            .group
            .iter()
            .filter_map(|g| Some((g.clone(), FieldPath::new(g.as_str()).get(v)?.clone())))
            .collect();
        (!members.is_empty()).then_some(Cow::Owned(Value::Object(members)))
    }
}
