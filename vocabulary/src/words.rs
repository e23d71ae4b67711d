//! Generated from the runtime's declarations (each check kind's `CheckRules::KIND`, the
//! matchers' and the options' words) by `AGENT_TEST_UPDATE_VOCABULARY=1 cargo test -p
//! agent-test-core --lib vocabulary`: do not edit. The runtime's test fails when this
//! differs from the declarations.

use crate::{Arg, Word};

/// Every function and method whose first argument the macro checks, by name.
pub const WORDS: &[Word] = &[
    Word::new("agent_response", Arg::Text),
    Word::new("any_call", Arg::Text),
    Word::new("arg", Arg::Value),
    Word::new("arg_json_path", Arg::JsonPath),
    Word::new("args_mode_for", Arg::ToolOption),
    Word::new("check", Arg::Closure),
    Word::new("compare_fields", Arg::ToolOption),
    Word::new("compare_with", Arg::ToolOption),
    Word::new("compare_with", Arg::Closure),
    Word::new("contains", Arg::Text),
    Word::new("date", Arg::Expression),
    Word::new("depends_on", Arg::Text),
    Word::new("ends_with", Arg::Text),
    Word::new("expr", Arg::Expression),
    Word::new("field", Arg::Text),
    Word::new("forbidden_tools", Arg::ToolList),
    Word::new("guardrail_not_triggered", Arg::Text),
    Word::new("guardrail_triggered", Arg::Text),
    Word::new("id", Arg::Text),
    Word::new("is", Arg::Value),
    Word::new("is_not", Arg::Value),
    Word::new("jmespath", Arg::JmesPath),
    Word::new("json_path", Arg::JsonPath),
    Word::new("judge", Arg::Text),
    Word::new("label", Arg::Text),
    Word::new("matches", Arg::Regex),
    Word::new("matches_schema", Arg::Schema),
    Word::new("must_not", Arg::Text),
    Word::new("no_tool", Arg::Tool),
    Word::new("node", Arg::Text),
    Word::new("node_output", Arg::Text),
    Word::new("not_contains", Arg::Text),
    Word::new("not_matches", Arg::Regex),
    Word::new("regex", Arg::Regex),
    Word::new("required_tools", Arg::ToolList),
    Word::new("result", Arg::Value),
    Word::new("result_at", Arg::Value),
    Word::new("result_json_path", Arg::JsonPath),
    Word::new("schema", Arg::Schema),
    Word::new("starts_with", Arg::Text),
    Word::new("state_is", Arg::Text),
    Word::new("tool", Arg::Tool),
    Word::new("tool_call", Arg::Tool),
    Word::new("tool_sequence", Arg::ToolList),
    Word::new("transitioned_to", Arg::Text),
];

/// The options every check takes (`CheckExt`'s methods).
pub const OPTIONS: &[&str] = &["id", "depends_on", "warning", "severity", "label", "so_far"];
