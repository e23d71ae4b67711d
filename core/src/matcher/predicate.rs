//! Matchers written as Rust closures: the escape hatch for comparisons the vocabulary does not
//! have (googletest's `predicate(..).with_description(..)`).

use std::fmt;
use std::sync::Arc;

use serde::{Serialize, Serializer};
use serde_json::Value;

use super::{IntoMatcher, Matcher, Mismatch};
use crate::util::text::panic_message;

type PredicateFn = dyn Fn(&Value) -> bool + Send + Sync;

/// A matcher that asks a closure about the value. Build it with [`predicate`], and say what it
/// expects with [`PredicateMatcher::with_description`]: reports show that description.
///
/// A missing value fails (there is nothing to ask the closure about); a panicking closure is
/// an error verdict naming the panic. Like [`check`](crate::check::check) closures, predicates
/// cannot be loaded from data files: they serialise as their description only.
#[derive(Clone)]
pub struct PredicateMatcher {
    description: String,
    f: Arc<PredicateFn>,
}

/// A matcher that passes when `f` returns `true` for the value.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::matcher::predicate;
/// use agent_test::model::{Call, Reply, Transcript, Turn};
///
/// let positive = || predicate(|v| v.as_f64().is_some_and(|n| n > 0.0)).with_description("a positive amount");
/// let refund = |amount: f64| Transcript::new(vec![Turn::new(0, "refund", Reply::text("")
///     .call(Call::tool("process_refund", json!({"amount": amount}))), 1)]);
/// let check = || tool("process_refund").arg("amount", positive()).into_expectation();
/// assert_eq!(evaluate(&refund(42.5), &[check()])[0].status, Status::Pass);
/// let v = &evaluate(&refund(-5.0), &[check()])[0];
/// assert_eq!(v.status, Status::Fail);
/// assert!(v.reason.starts_with("tool `process_refund` was called 1 time, but no call matched"), "{}", v.reason);
/// assert_eq!(v.details.violations[0].message, "call at conversation position 0: amount: expected a positive amount, got -5.0");
/// ```
pub fn predicate<F>(f: F) -> PredicateMatcher
where
    F: Fn(&Value) -> bool + Send + Sync + 'static,
{
    PredicateMatcher {
        description: "a value satisfying a predicate".to_owned(),
        f: Arc::new(f),
    }
}

impl PredicateMatcher {
    /// What the predicate expects, as reports say it ("a positive amount").
    ///
    /// See [`predicate`].
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = description.into();
        self
    }

    /// The description.
    ///
    /// ```
    /// # use agent_test::matcher::predicate;
    /// assert_eq!(predicate(|v| v.is_string()).with_description("text").describe(), "text");
    /// ```
    pub fn describe(&self) -> &str {
        &self.description
    }

    pub(crate) fn check(&self, actual: Option<&Value>) -> Result<(), Mismatch> {
        let Some(a) = actual else {
            return Err(Mismatch::Fail(format!(
                "missing (expected {})",
                self.description
            )));
        };
        // A panicking predicate is a bug in the test: an error verdict, never a lost report.
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (self.f)(a))) {
            Ok(true) => Ok(()),
            Ok(false) => Err(Mismatch::Fail(format!(
                "expected {}, got {}",
                self.description,
                crate::util::text::shown(a)
            ))),
            Err(panic) => Err(Mismatch::Error(format!(
                "the predicate `{}` panicked: {}",
                self.description,
                panic_message(&panic)
            ))),
        }
    }
}

impl IntoMatcher for PredicateMatcher {
    fn into_matcher(self) -> Matcher {
        Matcher::Predicate(self)
    }
}

impl fmt::Debug for PredicateMatcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PredicateMatcher")
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

/// The same closure (a clone), with the same description.
impl PartialEq for PredicateMatcher {
    fn eq(&self, other: &Self) -> bool {
        self.description == other.description && Arc::ptr_eq(&self.f, &other.f)
    }
}

/// A predicate has no data form: it serialises as its description.
impl Serialize for PredicateMatcher {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Shown<'a> {
            description: &'a str,
        }
        Shown {
            description: &self.description,
        }
        .serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_value_fails_and_a_panic_is_an_error() {
        let p = predicate(|v| v.as_i64().unwrap_or_else(|| panic!("not an integer")) > 0)
            .with_description("a positive integer");
        assert_eq!(p.check(Some(&serde_json::json!(3))), Ok(()));
        assert_eq!(
            p.check(None),
            Err(Mismatch::Fail(
                "missing (expected a positive integer)".into()
            ))
        );
        assert_eq!(
            p.check(Some(&serde_json::json!("x"))),
            Err(Mismatch::Error(
                "the predicate `a positive integer` panicked: not an integer".into()
            ))
        );
    }
}
