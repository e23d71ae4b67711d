//! Small helpers every layer may use: text for messages, diffs, strict reading of JSON and
//! YAML input, and where agent-test writes its files. Nothing here knows checks, agents or
//! runs.

#[doc(hidden)]
pub mod diff;
#[doc(hidden)]
pub mod dirs;
#[doc(hidden)]
pub mod input;
#[doc(hidden)]
pub mod json;
#[doc(hidden)]
pub mod python_literal;
#[doc(hidden)]
pub mod shared_strings;
#[doc(hidden)]
pub mod text;
#[doc(hidden)]
pub mod typed;
