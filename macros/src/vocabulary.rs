//! The runtime's functions and methods the macro reads by name, to check their literal
//! arguments at compile time: `agent_test_vocabulary`'s table, which the runtime derives from
//! each check kind's declaration (a runtime test fails when they differ, and when a runtime
//! function taking a regex, an expression or a query is declared by no kind). The matcher
//! words and the JSONPath nesting limit are shared with the runtime's loaders through
//! `agent_test_expr`.

pub(crate) use agent_test_vocabulary::{Arg, Vocabulary};

/// The vocabulary every expansion reads (tests pass others to the functions that take one).
pub(crate) const WORDS: Vocabulary<'static> = Vocabulary::STANDARD;
