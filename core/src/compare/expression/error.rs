//! Why an expression gave no value: the [kind](ExprErrorKind) of problem, the expression and
//! what is wrong.

use std::fmt;

/// What kind of problem stopped an expression, to match on without reading the message.
///
/// ```
/// use agent_test::{Clock, expression::{Env, ExprErrorKind, Expression}, model::Context};
/// let now = Clock::fixed("2026-11-23T09:30:00Z").now("UTC").unwrap();
/// let mut context = Context::default();
/// context.insert("DUE", "soon");
/// let env = Env::new(&now, &context);
/// let kind = |source: &str| Expression::new(source).eval(&env).unwrap_err().kind;
/// assert_eq!(kind("UPPER("), ExprErrorKind::Invalid);
/// assert_eq!(kind("DATE_ADD('soon', 1, 'day')"), ExprErrorKind::Invalid);
/// assert_eq!(kind("UPPER(ORDER_ID)"), ExprErrorKind::UnknownVariable);
/// assert_eq!(kind("DATE_ADD(DUE, 1, 'day')"), ExprErrorKind::BadArgument);
/// assert_eq!(kind("DATE_ADD('9999-12-31', 1, 'day')"), ExprErrorKind::OutOfRange);
/// assert_eq!(kind("JSON_EXTRACT('{}', 'items.0')"), ExprErrorKind::NotFound);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ExprErrorKind {
    /// The expression cannot be evaluated whatever the context: it does not parse, calls an
    /// unknown function or with a wrong number of arguments, names a unit or a time that does
    /// not exist, or nests too deep.
    Invalid,
    /// It names a context variable the run does not have.
    UnknownVariable,
    /// A function got a value it cannot take: text that is not a date, a count that is not a
    /// whole number, an unknown unit, an invalid time or date format, data that is not JSON.
    BadArgument,
    /// A date beyond what dates hold (the years -9999 to 9999).
    OutOfRange,
    /// `JSON_EXTRACT` found nothing at its path.
    NotFound,
}

/// An expression that gave no value: the [kind](ExprErrorKind) of problem, the expression (at
/// most its first 100 characters) and what is wrong.
///
/// ```
/// use agent_test::{Clock, expression::{Env, ExprErrorKind, Expression}, model::Context};
/// let now = Clock::fixed("2026-11-23T09:30:00Z").now("UTC").unwrap();
/// let context = Context::default();
/// let err = Expression::new("CONCAT('u-', USER_ID)").eval(&Env::new(&now, &context)).unwrap_err();
/// assert_eq!(err.kind, ExprErrorKind::UnknownVariable);
/// assert_eq!(err.expression, "CONCAT('u-', USER_ID)");
/// assert_eq!(err.message, "unknown context variable `USER_ID`");
/// assert_eq!(err.to_string(), "`CONCAT('u-', USER_ID)`: unknown context variable `USER_ID`");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    /// What kind of problem it is.
    pub kind: ExprErrorKind,
    /// The expression, shortened to its first 100 characters (and `…`) when longer.
    pub expression: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ExprErrorKind::Invalid => {
                write!(
                    f,
                    "invalid expression `{}`: {}",
                    self.expression, self.message
                )
            }
            _ => write!(f, "`{}`: {}", self.expression, self.message),
        }
    }
}

impl std::error::Error for ExprError {}

/// What went wrong inside an evaluation, before the expression is named.
pub(super) struct Fault {
    pub(super) kind: ExprErrorKind,
    pub(super) message: String,
}

impl Fault {
    /// A fault of `kind`.
    pub(super) fn new(kind: ExprErrorKind, message: impl Into<String>) -> Self {
        Fault {
            kind,
            message: message.into(),
        }
    }

    /// A value a function cannot take.
    pub(super) fn bad_argument(message: impl Into<String>) -> Self {
        Fault::new(ExprErrorKind::BadArgument, message)
    }
}
