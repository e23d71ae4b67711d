//! Structured results against their tools' output schemas: an MCP server's answers (turn
//! bodies) and a model's MCP calls (calls carrying the tool's schema), each judged from what
//! it holds — never a pass on a result that was refused, broken, absent or compared with a
//! schema that cannot be used.

use agent_test_runtime::check::Status;
use agent_test_runtime::model::{Call, Reply, ToolErrorKind};
use agent_test_runtime::prelude::*;

use super::{conv, one_turn};

fn schema() -> serde_json::Value {
    json!({"type": "object", "properties": {"temperature_c": {"type": "number"}},
           "required": ["temperature_c"]})
}

/// A model's call of `weather`, declaring the schema.
fn weather() -> Call {
    Call::tool("weather", json!({"city": "Lisbon"})).with_output_schema(schema())
}

fn with(call: Call) -> Reply {
    Reply::text("done").call(call)
}

#[test]
fn a_call_whose_result_meets_the_schema_passes() {
    let t = one_turn(with(weather().result(json!({"temperature_c": 21.5}))));
    let v = conv(&t, valid_structured_output());
    assert_eq!((v.status, v.reason.as_str()), (Status::Pass, ""));
}

#[test]
fn refused_broken_absent_and_unusable_results_fail_naming_the_call() {
    let refused = weather().failed_with(
        ToolErrorKind::Output,
        json!({"error": "the structured result does not meet the tool's output schema: /temperature_c: \"warm\" is not of type \"number\""}),
    );
    // A recording edited by hand, or written by another client: a successful call whose
    // result breaks the schema is judged from its result.
    let broken = weather().result(json!({"temperature_c": "warm"}));
    let mut absent = weather();
    absent.result = None;
    let unusable = Call::tool("weather", json!({}))
        .with_output_schema(json!({"type": 12}))
        .result(json!({"temperature_c": 1}));
    for (call, said) in [
        (
            refused,
            "turn 1: `weather`: the structured result does not meet the tool's output schema: /temperature_c: \"warm\" is not of type \"number\"",
        ),
        (
            broken,
            "turn 1: `weather`: the structured result does not meet the tool's output schema: /temperature_c: \"warm\" is not of type \"number\"",
        ),
        (
            absent,
            "turn 1: `weather`: the tool declares an output schema, and its result was not recorded",
        ),
        (
            unusable,
            "turn 1: `weather`: the tool's output schema cannot be used: invalid JSON Schema",
        ),
    ] {
        let v = conv(&one_turn(with(call)), valid_structured_output());
        assert_eq!(v.status, Status::Fail, "{said}: {}", v.reason);
        assert!(v.reason.starts_with(said), "{}", v.reason);
    }
}

#[test]
fn a_failed_call_need_not_follow_the_schema_and_nothing_is_not_a_pass() {
    // The tool failed (an `isError` result): its error need not follow the schema.
    let failed = weather().failed_with(ToolErrorKind::Execution, json!("no such city"));
    let v = conv(&one_turn(with(failed)), valid_structured_output());
    assert_eq!(v.status, Status::Pass, "{}", v.reason);
    // No call of a tool that declares a schema: nothing was measured.
    let plain = Call::tool("weather", json!({})).result(json!({"temperature_c": 1}));
    let v = conv(&one_turn(with(plain)), valid_structured_output());
    assert_eq!(v.status, Status::Error);
    assert!(v.reason.starts_with("not measured"), "{}", v.reason);
}

#[test]
fn output_errors_are_a_kind_of_their_own_in_messages() {
    let refused = weather().failed_with(ToolErrorKind::Output, json!({"error": "broken"}));
    let v = conv(
        &one_turn(with(refused)),
        no_tool_errors().of_kind(ToolErrorKind::Output),
    );
    assert_eq!(v.status, Status::Fail);
    assert_eq!(v.label, "no tool call failed with an output error");
    assert!(
        v.reason.starts_with("1 tool call failed: weather"),
        "{}",
        v.reason
    );
    // Asked for an output error where the call succeeded: said with its article.
    let ok = weather().result(json!({"temperature_c": 1}));
    let v = conv(
        &one_turn(with(ok)),
        tool("weather").failed_with(ToolErrorKind::Output),
    );
    assert_eq!(v.status, Status::Fail);
    assert!(
        v.reason.contains("no call failed with an output error"),
        "{}",
        v.reason
    );
}
