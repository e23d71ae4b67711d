//! The tool calls a check on names counts (the tool-set, no-tools and sequence checks): those
//! in scope with their positions, and their names as a report shows them.

use serde_json::Value;

use crate::check::EvalContext;
use crate::model::Call;

/// The tool calls in scope with their positions, without failed calls when `succeeded`.
pub(in crate::check) fn counted_calls<'a>(
    cx: &EvalContext<'a>,
    succeeded: bool,
) -> Vec<(usize, &'a Call)> {
    cx.tool_calls()
        .iter()
        .enumerate()
        .filter(|(_, c)| !(succeeded && c.error))
        .map(|(i, c)| (i, *c))
        .collect()
}

/// The called tool names, in call order, as JSON.
pub(in crate::check) fn called_names(calls: &[(usize, &Call)]) -> Value {
    Value::Array(
        calls
            .iter()
            .map(|(_, c)| Value::String(c.name.clone()))
            .collect(),
    )
}

/// What a description adds for a check counting only calls that succeeded.
pub(in crate::check) fn successful_only(succeeded: bool) -> &'static str {
    if succeeded {
        " (successful calls only)"
    } else {
        ""
    }
}
