//! The runtime's functions and methods the macro reads by name, to check their literal
//! arguments at compile time. Each list is tied to the runtime by a test
//! (`tests/vocabulary.rs`) in both directions: every name must be a public function of the
//! runtime, so a renamed check cannot leave the macro checking nothing; and every public
//! function of the runtime whose first argument is a regex, an expression or a query (by the
//! parameter's name: `regex`/`pattern`, `expression`, `query`) must be in its list, so a new
//! one cannot go unchecked at compile time. The matcher words and the JSONPath nesting
//! limit are shared with the runtime's loaders through `agent_test_expr`.

/// Functions and methods whose first argument is text.
pub(crate) const TEXT_TAKERS: &[&str] = &[
    "contains",
    "not_contains",
    "starts_with",
    "ends_with",
    "matches",
    "not_matches",
    "regex",
    "tool",
    "no_tool",
    "tool_call",
    "judge",
    "date",
    "expr",
    "json_path",
    "jmespath",
    "field",
    "id",
    "depends_on",
    "label",
    "node",
    "state_is",
    "transitioned_to",
    "guardrail_triggered",
    "guardrail_not_triggered",
    "must_not",
];

/// The options every check takes (`CheckExt`): they turn the check into an `Expectation`,
/// which has none of the check's own methods.
pub(crate) const CHECK_OPTIONS: &[&str] =
    &["id", "depends_on", "warning", "severity", "label", "so_far"];

/// Methods and functions whose first argument is a regex.
pub(crate) const REGEX_TAKERS: &[&str] = &["matches", "not_matches", "regex"];

/// Functions whose first argument is an expression (`TODAY()`, `DATE_ADD(..)`, ...).
pub(crate) const EXPR_TAKERS: &[&str] = &["date", "expr"];

/// Functions and methods whose first argument is a JSONPath query.
pub(crate) const JSONPATH_TAKERS: &[&str] = &["json_path", "arg_json_path", "result_json_path"];

/// Functions whose first argument is a JMESPath expression.
pub(crate) const JMESPATH_TAKERS: &[&str] = &["jmespath"];

/// Functions whose first argument is a JSON Schema, usually a `json!({...})` literal.
pub(crate) const SCHEMA_TAKERS: &[&str] = &["schema", "matches_schema"];

/// Functions whose arguments hold closures: not scanned (a closure may call `str::matches`).
pub(crate) const CLOSURE_TAKERS: &[&str] = &["check", "compare_with"];

/// Methods whose argument is an expected value (data, or a matcher).
pub(crate) const VALUE_TAKERS: &[&str] = &["arg", "is", "is_not", "result", "result_at"];

/// Functions naming one tool: checked against the declared tools.
pub(crate) const TOOL_TAKERS: &[&str] = &["tool", "tool_call", "no_tool"];

/// Functions naming a list of tools.
pub(crate) const TOOL_LIST_TAKERS: &[&str] =
    &["tool_sequence", "required_tools", "forbidden_tools"];

/// Trajectory options naming a tool: `.args_mode_for("x", ..)`, `.compare_fields("x", ..)`,
/// `.compare_with("x", ..)`.
pub(crate) const TOOL_OPTION_TAKERS: &[&str] = &["args_mode_for", "compare_fields", "compare_with"];
