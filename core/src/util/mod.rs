//! Small helpers every layer may use: text for messages, diffs, strict reading of JSON and
//! YAML input, and where agent-test writes its files. Nothing here knows checks, agents or
//! runs.

pub mod diff;
pub mod dirs;
pub mod input;
pub mod json;
pub mod python_literal;
pub mod shared_strings;
pub mod text;
pub mod typed;

