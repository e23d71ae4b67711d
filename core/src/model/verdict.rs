//! The verdict on one check of a run.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::outcome::Outcome;
use super::{Details, Scope, Severity, Status};

/// What one check concluded about a run: the check's label and scope, its status, a one-line
/// reason and structured details (expected, actual, violations, diff).
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Reply, Transcript, Turn};
///
/// let t = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello"), 1)]);
/// let v = &evaluate(&t, &[reply().contains("bye").warning()])[0];
/// assert_eq!(v.status, Status::Fail);
/// assert!(!v.fails_test()); // a warning
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Verdict {
    /// What the check is called in reports.
    pub label: String,
    /// The check's family (`tool`, `text`, ...), or `agent` for a turn the agent failed.
    pub check: Cow<'static, str>,
    /// The part of the run it saw.
    pub scope: Scope,
    /// Whether a failure fails the test.
    pub severity: Severity,
    /// The check's id, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Pass, fail, skipped or error.
    pub status: Status,
    /// One line saying why (empty for most passes: the label says what passed).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// Expected, actual, violations, diff.
    #[serde(default, skip_serializing_if = "Details::is_empty")]
    pub details: Details,
}

impl Verdict {
    /// A verdict on the whole conversation, of error severity and without an id, from a
    /// check's outcome: what a run's own steps (a variable check, the snapshot store) give.
    ///
    /// ```
    /// use agent_test::check::{Outcome, Scope};
    /// use agent_test::Verdict;
    /// let v = Verdict::conversation("refund sent", "variable", Outcome::fail("no refund id"));
    /// assert_eq!((v.scope, v.reason.as_str()), (Scope::Conversation, "no refund id"));
    /// ```
    pub fn conversation(
        label: impl Into<String>,
        check: impl Into<Cow<'static, str>>,
        outcome: Outcome,
    ) -> Self {
        Verdict {
            label: label.into(),
            check: check.into(),
            scope: Scope::Conversation,
            severity: Severity::Error,
            id: None,
            status: outcome.status,
            reason: outcome.reason,
            details: outcome.details,
        }
    }

    /// Whether this verdict makes the test fail: an error-severity check that failed or could
    /// not be evaluated.
    ///
    /// See the type's example.
    pub fn fails_test(&self) -> bool {
        self.severity == Severity::Error && matches!(self.status, Status::Fail | Status::Error)
    }
}
