use agent_test_runtime::check::Status;
use agent_test_runtime::model::{Call, Reply};
use agent_test_runtime::prelude::*;
use serde_json::json;

use super::{conv, one_turn, tool_call, transcript, turn};

fn refund_turn() -> Reply {
    Reply::text("done")
        .call(tool_call("lookup_order", json!({"order_id": "ORD-9921"})))
        .call(tool_call(
            "process_refund",
            json!({"order_id": "ORD-9921", "amount": 42.5, "reason": "dup"}),
        ))
}

#[test]
fn called_and_not_called() {
    let t = one_turn(refund_turn());
    assert_eq!(conv(&t, tool("lookup_order")).status, Status::Pass);
    let v = conv(&t, tool("cancel_order"));
    assert_eq!(v.status, Status::Fail);
    assert_eq!(v.reason, "tool `cancel_order` was not called");
    assert_eq!(
        v.details.actual,
        Some(json!([
            {"name": "lookup_order", "turn_index": 0, "position": 0, "arguments": {"order_id": "ORD-9921"}},
            {"name": "process_refund", "turn_index": 0, "position": 1, "arguments": {"order_id": "ORD-9921", "amount": 42.5, "reason": "dup"}},
        ]))
    );
    assert_eq!(
        v.details.expected,
        Some(json!({"tool": "cancel_order", "count": "at least 1 time"}))
    );
}

#[test]
fn arguments_compare_as_json_with_numbers_by_value() {
    let t = one_turn(Reply::text("").call(tool_call(
        "t",
        json!({"n": 1, "x": 42.50, "s": "10", "list": [1, 2]}),
    )));
    assert_eq!(
        conv(
            &t,
            tool("t")
                .arg("n", 1.0)
                .arg("x", 42.5)
                .arg("list", json!([1.0, 2]))
        )
        .status,
        Status::Pass
    );
    // No string/number coercion.
    let v = conv(&t, tool("t").arg("s", 10));
    assert_eq!(v.status, Status::Fail);
    assert_eq!(v.details.violations[0].kind, "value_mismatch");
    assert_eq!(
        v.details.violations[0].message,
        r#"call at conversation position 0: s: expected 10, got "10""#
    );
    // Lists are ordered.
    assert_eq!(
        conv(&t, tool("t").arg("list", json!([2, 1]))).status,
        Status::Fail
    );
}

#[test]
fn argument_mismatch_details() {
    let t = one_turn(refund_turn());
    let v = conv(
        &t,
        tool("process_refund")
            .arg("order_id", "ORD-1")
            .arg("amount", 42.5)
            .arg("currency", "EUR"),
    );
    assert_eq!(v.status, Status::Fail);
    assert_eq!(
        v.reason,
        "tool `process_refund` was called 1 time, but no call matched"
    );
    let kinds: Vec<&str> = v
        .details
        .violations
        .iter()
        .map(|x| x.kind.as_str())
        .collect();
    assert_eq!(kinds, ["value_mismatch", "missing_argument"]);
    assert_eq!(
        v.details.violations[0].message,
        r#"call at conversation position 1: order_id: expected "ORD-1", got "ORD-9921""#
    );
    assert_eq!(
        v.details.violations[1].message,
        r#"call at conversation position 1: currency: missing (expected "EUR")"#
    );
    assert_eq!(v.details.violations[0].turn_index, Some(0));
    let diff = v.details.diff.expect("a JSON diff of the arguments");
    assert!(diff.contains("-   \"order_id\": \"ORD-1\""), "{diff}");
    assert!(diff.contains("+   \"order_id\": \"ORD-9921\""), "{diff}");
}

#[test]
fn extra_arguments_are_allowed_unless_strict() {
    let t = one_turn(refund_turn());
    assert_eq!(
        conv(&t, tool("process_refund").arg("order_id", "ORD-9921")).status,
        Status::Pass
    );
    let v = conv(
        &t,
        tool("process_refund")
            .arg("order_id", "ORD-9921")
            .arg("amount", 42.5)
            .strict(),
    );
    assert_eq!(v.status, Status::Fail);
    assert_eq!(v.details.violations[0].kind, "unexpected_argument");
    assert_eq!(
        v.details.violations[0].message,
        r#"call at conversation position 1: reason: not expected (strict), got "dup""#
    );
    assert_eq!(
        conv(
            &t,
            tool("process_refund")
                .args(json!({"order_id": "ORD-9921", "amount": 42.5, "reason": "dup"}))
                .strict()
        )
        .status,
        Status::Pass
    );
}

#[test]
fn forbidden_arguments() {
    let t = one_turn(Reply::text("").call(tool_call(
        "search",
        json!({"query": "onboarding", "api_key": "sk-1"}),
    )));
    assert_eq!(
        conv(&t, tool("search").forbid_arg("password")).status,
        Status::Pass
    );
    let v = conv(
        &t,
        tool("search").forbid_arg("api_key").forbid_arg("password"),
    );
    assert_eq!(v.status, Status::Fail);
    assert_eq!(v.details.violations[0].kind, "forbidden_argument");
    assert_eq!(
        v.details.violations[0].message,
        r#"call at conversation position 0: api_key: forbidden, but present ("sk-1")"#
    );
}

#[test]
fn counts() {
    let r = Reply::text("")
        .call(tool_call("send_email", json!({"to": "a"})))
        .call(tool_call("send_email", json!({"to": "b"})))
        .call(tool_call("send_email", json!({"to": "a"})));
    let t = one_turn(r);
    assert_eq!(conv(&t, tool("send_email").times(3)).status, Status::Pass);
    assert_eq!(
        conv(&t, tool("send_email").arg("to", "a").times(2)).status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, tool("send_email").at_least(2)).status,
        Status::Pass
    );
    assert_eq!(conv(&t, tool("send_email").at_most(3)).status, Status::Pass);
    assert_eq!(
        conv(&t, tool("send_email").between(1, 3)).status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, tool("other").at_most(1)).status,
        Status::Pass,
        "at_most admits zero"
    );

    let v = conv(&t, tool("send_email").times(2));
    assert_eq!(
        v.reason,
        "tool `send_email` was called 3 times (expected exactly 2 times)"
    );
    let v = conv(&t, tool("send_email").arg("to", "a").at_least(3));
    assert_eq!(
        v.reason,
        "tool `send_email` was called 2 times with matching arguments (expected at least 3 times)"
    );
    let v = conv(&t, tool("send_email").at_most(1));
    assert_eq!(
        v.reason,
        "tool `send_email` was called 3 times (expected at most 1 time)"
    );
    let v = conv(&t, tool("send_email").between(4, 5));
    assert_eq!(
        v.reason,
        "tool `send_email` was called 3 times (expected between 4 and 5 times)"
    );
}

#[test]
fn not_called() {
    let t = one_turn(refund_turn());
    assert_eq!(conv(&t, no_tool("cancel_order")).status, Status::Pass);
    let v = conv(&t, no_tool("process_refund"));
    assert_eq!(v.status, Status::Fail);
    assert_eq!(
        v.reason,
        "tool `process_refund` was called 1 time (expected no call)"
    );
    assert_eq!(v.details.violations[0].kind, "unexpected_call");
    assert_eq!(
        v.details.violations[0].message,
        "called at conversation position 1"
    );
    assert_eq!(
        v.details.violations[0].evidence,
        Some(json!({"order_id": "ORD-9921", "amount": 42.5, "reason": "dup"}))
    );
    // With arguments: only calls with those arguments are forbidden.
    assert_eq!(
        conv(&t, no_tool("process_refund").arg("order_id", "ORD-1")).status,
        Status::Pass
    );
    let v = conv(&t, no_tool("process_refund").arg("order_id", "ORD-9921"));
    assert_eq!(
        v.reason,
        "tool `process_refund` was called 1 time with matching arguments (expected no call)"
    );
}

#[test]
fn positions() {
    let t = one_turn(refund_turn());
    assert_eq!(
        conv(&t, tool("lookup_order").at_position(0)).status,
        Status::Pass
    );
    assert_eq!(
        conv(
            &t,
            tool("process_refund")
                .at_position(1)
                .arg("order_id", "ORD-9921")
        )
        .status,
        Status::Pass
    );
    let v = conv(&t, tool("process_refund").at_position(0));
    assert_eq!(v.status, Status::Fail);
    assert_eq!(
        v.reason,
        "expected tool `process_refund` at conversation position 0, but conversation position 0 is `lookup_order` (`process_refund` is at 1)"
    );
    let v = turn(&t, 0, tool("lookup_order").at_position(5));
    assert_eq!(
        v.reason,
        "expected tool `lookup_order` at position 5, but there are only 2 tool calls"
    );
}

#[test]
fn every_call() {
    let r = Reply::text("")
        .call(tool_call(
            "get_weather",
            json!({"city": "Lisbon", "units": "metric"}),
        ))
        .call(tool_call(
            "get_weather",
            json!({"city": "Porto", "units": "imperial"}),
        ));
    let t = one_turn(r);
    // By default one matching call is enough...
    assert_eq!(
        conv(&t, tool("get_weather").arg("units", "metric")).status,
        Status::Pass
    );
    // ...with every_call, all of them must match.
    let v = conv(&t, tool("get_weather").arg("units", "metric").every_call());
    assert_eq!(v.status, Status::Fail);
    assert_eq!(v.reason, "1 of 2 calls of tool `get_weather` did not match");
    assert_eq!(
        v.details.violations[0].message,
        r#"call at conversation position 1: units: expected "metric", got "imperial""#
    );
    assert_eq!(
        conv(
            &t,
            tool("get_weather").arg("city", json!(null)).every_call()
        )
        .status,
        Status::Fail
    );
    assert_eq!(
        conv(&t, tool("get_weather").forbid_arg("api_key").every_call()).status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, tool("nothing").every_call()).reason,
        "tool `nothing` was not called"
    );
}

#[test]
fn errored_calls_count_unless_succeeded_is_asked() {
    let r = Reply::text("")
        .call(Call::tool("pay", json!({"amount": 5})).failed(json!("card declined")));
    let t = one_turn(r);
    assert_eq!(conv(&t, tool("pay")).status, Status::Pass);
    let v = conv(&t, tool("pay").succeeded());
    assert_eq!(v.status, Status::Fail);
    assert_eq!(v.reason, "tool `pay` was called, but every call failed");
    assert_eq!(v.details.violations[0].kind, "call_failed");
    assert_eq!(
        v.details.violations[0].message,
        "call at conversation position 0 returned an error"
    );
    assert_eq!(
        conv(&t, tool("pay").succeeded().never()).status,
        Status::Pass
    );
    assert_eq!(v.details.actual.as_ref().unwrap()[0]["error"], json!(true));
}

#[test]
fn a_filtered_count_says_how_many_calls_it_left_out() {
    // `refund` called twice: once failing, once succeeding with another amount.
    let r = Reply::text("")
        .call(Call::tool("refund", json!({"amount_cents": 99999})).failed(json!("over the total")))
        .call(Call::tool("refund", json!({"amount_cents": 1200})).result(json!("ok")));
    let t = one_turn(r);
    let v = conv(&t, tool("refund").succeeded().arg("amount_cents", 99999));
    assert_eq!(v.status, Status::Fail);
    assert_eq!(
        v.reason,
        "tool `refund` was called 2 times (1 successful), but no call matched"
    );
    let v = conv(&t, tool("refund").failed().arg("amount_cents", 1200));
    assert_eq!(
        v.reason,
        "tool `refund` was called 2 times (1 failed), but no call matched"
    );
}

#[test]
fn nested_tool_calls_inside_nodes_count() {
    let r = Reply::text("").call(
        Call::node("AI Agent")
            .child(tool_call("search_products", json!({"q": "laptop"})))
            .child(tool_call("create_order", json!({"sku": "L-1"}))),
    );
    let t = one_turn(r);
    assert_eq!(
        conv(&t, tool("create_order").at_position(1)).status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, no_tool("AI Agent")).status,
        Status::Pass,
        "a node is not a tool call"
    );
}

#[test]
fn turn_and_conversation_scope() {
    let t = transcript(vec![
        (
            "a",
            Reply::text("").call(tool_call("lookup_order", json!({"order_id": "ORD-1"}))),
        ),
        (
            "b",
            Reply::text("").call(tool_call("process_refund", json!({"order_id": "ORD-1"}))),
        ),
    ]);
    assert_eq!(turn(&t, 0, tool("lookup_order")).status, Status::Pass);
    assert_eq!(turn(&t, 1, tool("lookup_order")).status, Status::Fail);
    assert_eq!(conv(&t, tool("lookup_order")).status, Status::Pass);
    assert_eq!(
        conv(&t, tool("process_refund").at_position(1)).status,
        Status::Pass
    );
    assert_eq!(
        turn(&t, 1, tool("process_refund").at_position(0)).status,
        Status::Pass
    );
    let v = conv(&t, no_tool("process_refund"));
    assert_eq!(
        v.details.violations[0].message,
        "called at conversation position 1"
    );
    assert_eq!(v.details.violations[0].turn_index, Some(1));
}

#[test]
fn malformed_arguments_fail_clearly() {
    let t = one_turn(Reply::text("").call(tool_call("t", json!("not an object"))));
    let v = conv(&t, tool("t").arg("a", 1));
    assert_eq!(
        v.details.violations[0].message,
        "call at conversation position 0: a: missing (expected 1)"
    );
    let v = conv(&t, tool("t").strict());
    assert_eq!(
        v.details.violations[0].message,
        r#"call at conversation position 0: arguments are not a JSON object: "not an object""#
    );
    let v = conv(&t, tool("t").args(json!(["x"])));
    assert_eq!(
        v.details.violations[0].message,
        r#"call at conversation position 0: arguments: expected ["x"], got "not an object""#
    );
}
