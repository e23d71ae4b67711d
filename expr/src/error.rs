//! Errors, with the byte range of the expression they concern.

use std::fmt;
use std::ops::Range;

/// A problem in an expression: a message and the byte range it concerns.
///
/// ```
/// let e = agent_test_expr::parse("UPPER(").unwrap_err();
/// assert_eq!(e.message, "unexpected end of expression: expected an argument");
/// assert_eq!(e.span, 6..6);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What is wrong.
    pub message: String,
    /// Where, as a byte range of the source.
    pub span: Range<usize>,
}

impl Error {
    pub(crate) fn new(message: impl Into<String>, span: Range<usize>) -> Self {
        Error {
            message: message.into(),
            span,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
