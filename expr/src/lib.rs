//! The expression language of agent-test, for expected values computed when the check runs:
//!
//! ```text
//! AT_TIME(DATE_ADD(TODAY(), 2, 'days'), '12:00')
//! CONCAT('Reminder for ', FORMAT_DATE(DATE_ADD(TODAY, 1, 'day'), '%Y-%m-%d'))
//! JSON_EXTRACT(ORDER_JSON, 'items.0.sku')
//! ```
//!
//! This crate parses expressions and checks them statically (known functions, arity, units,
//! time literals, known variables). It has no dependencies on dates or JSON: `agent_test!`
//! uses it to report errors at compile time, and the runtime evaluates the same tree against a
//! pinned clock.
//!
//! | function | meaning |
//! |---|---|
//! | `TODAY()` or `TODAY` | the current date |
//! | `NOW()` or `NOW` | the current date and time |
//! | `DATE_ADD(date, n, unit)`, `DATE_SUB(..)` | add / subtract `n` day(s), hour(s), minute(s) or week(s) |
//! | `AT_TIME(date, time)` | the date at a time: `'14:30'`, `'09:00:00'`, `'3:30 PM'` |
//! | `FORMAT_DATE(date, format)` | strftime formatting: `'%Y-%m-%d'` |
//! | `CONCAT(a, b, ...)` | joins values as text |
//! | `UPPER(text)`, `LOWER(text)` | changes case |
//! | `JSON_EXTRACT(data, path)` | the value at a dot path (`'items.0.sku'`) in a JSON object or JSON string |
//!
//! Bare identifiers are context variables. Strings use single or double quotes.
//!
//! ```
//! use agent_test_expr::{parse, validate, Func, ExprKind};
//! let e = parse("AT_TIME(DATE_ADD(TODAY(), 2, 'days'), '12:00')").unwrap();
//! assert!(matches!(e.kind, ExprKind::Call { func: Func::AtTime, .. }));
//! assert!(validate(&e, None).is_empty());
//!
//! let e = parse("DATE_ADD(TODAY(), 2, 'fortnights')").unwrap();
//! assert_eq!(validate(&e, None)[0].message,
//!            "unknown unit 'fortnights': use day(s), hour(s), minute(s) or week(s)");
//! ```
//!
//! Calls nest at most [`MAX_DEPTH`] deep: deeper input is an error, never a stack overflow.
//!
//! It also holds what the macro and the runtime must read alike beyond expressions: the words
//! of matchers and when an object reads as one ([`matcher_words`]), and how deep a JSONPath
//! query may nest ([`json_path_limit`]).

// Every computation on input is checked: an overflow is an error message, never a panic.
#![deny(clippy::arithmetic_side_effects)]
// Expressions are external data: a bad one must be an error message, never a crash of the run.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]

mod ast;
mod check;
mod error;
pub mod json_path_limit;
mod lex;
mod literal;
pub mod matcher_words;
mod parse;

pub use ast::{Expr, ExprKind, Func};
pub use check::{Vars, validate};
pub use error::Error;
pub use literal::{TimeOfDay, Unit, parse_path, parse_time_of_day};
pub use parse::parse;

/// How deep calls may nest in an expression (`UPPER(UPPER(..))` is 2 deep). Deeper input is
/// the error "expression nested deeper than 64 levels at column N", so that no input can
/// exhaust the stack of the parser, the static checks or the runtime's evaluator.
pub const MAX_DEPTH: usize = 64;

/// Parses and validates in one go: the tree, or every error found.
///
/// ```
/// let known = ["USER_ID"];
/// assert!(agent_test_expr::compile("CONCAT('u-', USER_ID)", Some(&known)).is_ok());
/// let errors = agent_test_expr::compile("CONCAT('u-', USER)", Some(&known)).unwrap_err();
/// assert_eq!(errors[0].message, "unknown context variable `USER`; did you mean `USER_ID`?");
/// ```
pub fn compile(source: &str, vars: Option<&Vars<'_>>) -> Result<Expr, Vec<Error>> {
    let expr = parse(source).map_err(|e| vec![e])?;
    let errors = validate(&expr, vars);
    if errors.is_empty() {
        Ok(expr)
    } else {
        Err(errors)
    }
}
