//! The result of evaluating one check.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How a check ended.
///
/// ```
/// use agent_test::check::Status;
/// assert_eq!(serde_json::to_string(&Status::Skipped).unwrap(), "\"skipped\"");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The agent did what the check asks.
    Pass,
    /// The agent did not.
    Fail,
    /// Not evaluated because a check it depends on did not pass.
    Skipped,
    /// Could not be evaluated (invalid pattern, the agent failed on the turn, ...).
    Error,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Skipped => "skipped",
            Status::Error => "error",
        })
    }
}

/// One concrete way the agent's behaviour broke a check (a missing tool, a wrong argument).
///
/// ```
/// use agent_test::check::Violation;
/// let v = Violation::new("missing_tool", "`verify_identity` was never called");
/// assert_eq!(v.kind, "missing_tool");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Violation {
    /// A stable, snake_case name for the kind of violation.
    pub kind: String,
    /// A one-line explanation.
    pub message: String,
    /// The 0-based turn where it happened, when it belongs to one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_index: Option<usize>,
    /// Supporting data (the offending call's arguments, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Value>,
}

impl Violation {
    /// A violation with a kind and a message.
    ///
    /// See the type's example.
    pub fn new(kind: impl Into<String>, message: impl Into<String>) -> Self {
        Violation {
            kind: kind.into(),
            message: message.into(),
            turn_index: None,
            evidence: None,
        }
    }

    /// Attaches the 0-based turn index.
    ///
    /// ```
    /// # use agent_test::check::Violation;
    /// assert_eq!(Violation::new("k", "m").in_turn(2).turn_index, Some(2));
    /// ```
    pub fn in_turn(mut self, turn_index: usize) -> Self {
        self.turn_index = Some(turn_index);
        self
    }

    /// Attaches evidence.
    ///
    /// ```
    /// # use agent_test::check::Violation;
    /// let v = Violation::new("k", "m").evidence(serde_json::json!({"command": "rm"}));
    /// assert!(v.evidence.is_some());
    /// ```
    pub fn evidence(mut self, evidence: Value) -> Self {
        self.evidence = Some(evidence);
        self
    }
}

/// Structured details of an outcome, for reports: what was expected, what happened, and how
/// they differ.
///
/// ```
/// use agent_test::check::Details;
/// assert!(Details::default().is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Details {
    /// The expectation, as data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Value>,
    /// What the agent did, as data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actual: Option<Value>,
    /// Each way the check was broken.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<Violation>,
    /// A rendered diff of expected against actual (text or JSON), when one helps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
}

impl Details {
    /// Whether nothing is recorded.
    ///
    /// See the type's example.
    pub fn is_empty(&self) -> bool {
        self.expected.is_none()
            && self.actual.is_none()
            && self.violations.is_empty()
            && self.diff.is_none()
    }
}

/// What evaluating a check produced: a status, a one-line reason and details.
///
/// ```
/// use agent_test::check::{Outcome, Status};
/// let o = Outcome::fail("tool `x` was not called").expected(serde_json::json!("x"));
/// assert_eq!(o.status, Status::Fail);
/// assert!(o.details.expected.is_some());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Pass, fail, skipped or error.
    pub status: Status,
    /// One line saying why.
    pub reason: String,
    /// Expected, actual, violations, diff.
    #[serde(default, skip_serializing_if = "Details::is_empty")]
    pub details: Details,
}

impl Outcome {
    fn with(status: Status, reason: impl Into<String>) -> Self {
        Outcome {
            status,
            reason: reason.into(),
            details: Details::default(),
        }
    }

    /// A pass.
    ///
    /// ```
    /// # use agent_test::check::{Outcome, Status};
    /// assert_eq!(Outcome::pass("ok").status, Status::Pass);
    /// ```
    pub fn pass(reason: impl Into<String>) -> Self {
        Self::with(Status::Pass, reason)
    }

    /// A pass with no reason given (what checks return: the label says what passed, and the
    /// passing path then allocates nothing).
    ///
    /// ```
    /// # use agent_test::check::{Outcome, Status};
    /// assert_eq!(Outcome::passed().reason, "");
    /// ```
    pub fn passed() -> Self {
        Self::with(Status::Pass, String::new())
    }

    /// A failure.
    ///
    /// See the type's example.
    pub fn fail(reason: impl Into<String>) -> Self {
        Self::with(Status::Fail, reason)
    }

    /// An error: the check could not be evaluated.
    ///
    /// ```
    /// # use agent_test::check::{Outcome, Status};
    /// assert_eq!(Outcome::error("invalid regex").status, Status::Error);
    /// ```
    pub fn error(reason: impl Into<String>) -> Self {
        Self::with(Status::Error, reason)
    }

    /// A skip (used for unmet dependencies).
    ///
    /// ```
    /// # use agent_test::check::{Outcome, Status};
    /// assert_eq!(Outcome::skipped("depends on `a`").status, Status::Skipped);
    /// ```
    pub fn skipped(reason: impl Into<String>) -> Self {
        Self::with(Status::Skipped, reason)
    }

    /// Pass when `ok`, else fail; the same reason either way.
    ///
    /// ```
    /// # use agent_test::check::{Outcome, Status};
    /// assert_eq!(Outcome::pass_if(false, "reply contains `x`").status, Status::Fail);
    /// ```
    pub fn pass_if(ok: bool, reason: impl Into<String>) -> Self {
        Self::with(if ok { Status::Pass } else { Status::Fail }, reason)
    }

    /// Records the expected side.
    ///
    /// See the type's example.
    pub fn expected(mut self, expected: Value) -> Self {
        self.details.expected = Some(expected);
        self
    }

    /// Records the actual side.
    ///
    /// ```
    /// # use agent_test::check::Outcome;
    /// assert!(Outcome::fail("x").actual(serde_json::json!(1)).details.actual.is_some());
    /// ```
    pub fn actual(mut self, actual: Value) -> Self {
        self.details.actual = Some(actual);
        self
    }

    /// Adds a violation.
    ///
    /// ```
    /// # use agent_test::check::{Outcome, Violation};
    /// let o = Outcome::fail("x").violation(Violation::new("missing_tool", "`a` never called"));
    /// assert_eq!(o.details.violations.len(), 1);
    /// ```
    pub fn violation(mut self, violation: Violation) -> Self {
        self.details.violations.push(violation);
        self
    }

    /// Adds several violations.
    ///
    /// ```
    /// # use agent_test::check::{Outcome, Violation};
    /// let o = Outcome::fail("x").violations(vec![Violation::new("a", "b"), Violation::new("c", "d")]);
    /// assert_eq!(o.details.violations.len(), 2);
    /// ```
    pub fn violations(mut self, violations: impl IntoIterator<Item = Violation>) -> Self {
        self.details.violations.extend(violations);
        self
    }

    /// Attaches a rendered diff.
    ///
    /// ```
    /// # use agent_test::check::Outcome;
    /// assert!(Outcome::fail("x").diff("-a\n+b\n").details.diff.is_some());
    /// ```
    pub fn diff(mut self, diff: impl Into<String>) -> Self {
        self.details.diff = Some(diff.into());
        self
    }
}

/// What a custom check closure may return: `bool`, `Result<(), impl Display>` or an
/// [`Outcome`].
///
/// ```
/// use agent_test::check::{IntoOutcome, Status};
/// assert_eq!(true.into_outcome("short reply").status, Status::Pass);
/// assert_eq!(Err::<(), _>("too long").into_outcome("short reply").reason, "too long");
/// ```
pub trait IntoOutcome {
    /// Converts, using `label` as the reason when the value carries none.
    fn into_outcome(self, label: &str) -> Outcome;
}

impl IntoOutcome for bool {
    fn into_outcome(self, label: &str) -> Outcome {
        Outcome::pass_if(self, label)
    }
}

impl<E: fmt::Display> IntoOutcome for Result<(), E> {
    fn into_outcome(self, label: &str) -> Outcome {
        match self {
            Ok(()) => Outcome::pass(label),
            Err(e) => Outcome::fail(e.to_string()),
        }
    }
}

impl IntoOutcome for Outcome {
    fn into_outcome(self, _label: &str) -> Outcome {
        self
    }
}
