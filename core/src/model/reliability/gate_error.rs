//! Why repeated runs did not meet a [`MinPassRate`](super::MinPassRate): the
//! [kind](PassRateErrorKind) of problem and what is wrong.

use std::fmt;

/// Why the runs did not meet the gate, to match on without reading the message: a gate no
/// runs can meet (or fail), no runs to measure, or a lower bound under the rate.
///
/// ```
/// use agent_test::report::reliability::{MinPassRate, PassRateErrorKind};
/// let gate = MinPassRate::from(0.9);
/// assert_eq!(gate.check(7, 10).unwrap_err().kind, PassRateErrorKind::BelowRate);
/// assert_eq!(gate.check(0, 0).unwrap_err().kind, PassRateErrorKind::NotMeasured);
/// assert_eq!(MinPassRate::from(1.0).check(50, 50).unwrap_err().kind, PassRateErrorKind::Impossible);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PassRateErrorKind {
    /// The gate can never be met, or can never fail, whatever the runs: a rate or a confidence
    /// out of range (see [`MinPassRate::problem`](super::MinPassRate::problem)).
    Impossible,
    /// No run was made: a rate over no run says nothing.
    NotMeasured,
    /// The lower bound of the pass rate is under the rate asked for: the runs failed the gate.
    BelowRate,
}

/// Repeated runs that did not meet a [`MinPassRate`](super::MinPassRate): the
/// [kind](PassRateErrorKind) of problem and what is wrong (the numbers, for
/// [`BelowRate`](PassRateErrorKind::BelowRate)).
///
/// ```
/// use agent_test::report::reliability::{MinPassRate, PassRateErrorKind};
/// let err = MinPassRate::from((0.9, 1.0)).check(10, 10).unwrap_err();
/// assert_eq!(err.kind, PassRateErrorKind::Impossible);
/// assert_eq!(
///     err.message,
///     "min_pass_rate = (0.9, 1): the confidence must be more than 0 and less than 1 (0.95 for 95%)"
/// );
/// assert_eq!(err.to_string(), format!("impossible constraint: {}", err.message));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassRateError {
    /// What kind of problem it is.
    pub kind: PassRateErrorKind,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PassRateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            PassRateErrorKind::Impossible => write!(f, "impossible constraint: {}", self.message),
            PassRateErrorKind::NotMeasured => write!(f, "not measured: {}", self.message),
            PassRateErrorKind::BelowRate => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for PassRateError {}
