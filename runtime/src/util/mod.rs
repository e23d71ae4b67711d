//! Small helpers every layer may use: text for messages, diffs, strict reading of JSON and
//! YAML input, and where agent-test writes its files. Nothing here knows checks, agents or
//! runs.

pub(crate) mod diff;
pub(crate) mod dirs;
pub(crate) mod input;
pub(crate) mod json;
pub(crate) mod python_literal;
pub(crate) mod shared_strings;
pub(crate) mod text;
pub(crate) mod typed;
