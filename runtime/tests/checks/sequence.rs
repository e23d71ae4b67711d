use agent_test_runtime::check::Status;
use agent_test_runtime::model::{Call, Reply};
use agent_test_runtime::prelude::*;
use serde_json::json;

use super::{conv, one_turn, tool_call, transcript};

fn calls(names: &[&str]) -> Reply {
    names
        .iter()
        .fold(Reply::text(""), |r, n| r.call(tool_call(n, json!({}))))
}

#[test]
fn subsequence_with_gaps() {
    let t = one_turn(calls(&[
        "lookup_account",
        "log",
        "verify_identity",
        "log",
        "process_refund",
    ]));
    assert_eq!(
        conv(
            &t,
            tool_sequence(["lookup_account", "verify_identity", "process_refund"])
        )
        .status,
        Status::Pass
    );
    assert_eq!(conv(&t, tool_sequence(["log", "log"])).status, Status::Pass);
    let empty = conv(&t, tool_sequence(Vec::<String>::new()));
    assert_eq!(
        (empty.status, empty.reason.as_str()),
        (
            Status::Error,
            "compared nothing: the tool sequence is empty"
        )
    );
}

#[test]
fn repeats_need_separate_calls() {
    let t = one_turn(calls(&["search", "summarize"]));
    let v = conv(&t, tool_sequence(["search", "search", "summarize"]));
    assert_eq!(v.status, Status::Fail);
    assert_eq!(v.details.violations[0].kind, "out_of_order");
    assert_eq!(
        v.details.violations[0].message,
        "step 2: `search` was called at conversation position 0, but not after `search` (conversation position 0)"
    );
    let t = one_turn(calls(&["search", "search", "summarize"]));
    assert_eq!(
        conv(&t, tool_sequence(["search", "search", "summarize"])).status,
        Status::Pass
    );
}

#[test]
fn order_violation_and_missing_tool_are_reported_differently() {
    let t = one_turn(calls(&["verify_identity", "lookup_account"]));
    let v = conv(
        &t,
        tool_sequence(["lookup_account", "verify_identity", "process_refund"]),
    );
    assert_eq!(v.status, Status::Fail);
    assert_eq!(
        v.reason,
        "tools were called out of order and some never: expected lookup_account → verify_identity → process_refund, observed verify_identity → lookup_account"
    );
    let kinds: Vec<&str> = v
        .details
        .violations
        .iter()
        .map(|x| x.kind.as_str())
        .collect();
    assert_eq!(kinds, ["out_of_order", "missing_tool"]);
    assert_eq!(
        v.details.violations[0].message,
        "step 2: `verify_identity` was called at conversation position 0, but not after `lookup_account` (conversation position 1)"
    );
    assert_eq!(
        v.details.violations[1].message,
        "step 3: `process_refund` was never called"
    );
    assert_eq!(
        v.details.expected,
        Some(json!([
            "lookup_account",
            "verify_identity",
            "process_refund"
        ]))
    );
    assert_eq!(
        v.details.actual,
        Some(json!(["verify_identity", "lookup_account"]))
    );
}

#[test]
fn spans_turns_after_the_turns() {
    let t = transcript(vec![
        ("a", calls(&["lookup_order"])),
        ("b", calls(&["process_refund"])),
    ]);
    assert_eq!(
        conv(&t, tool_sequence(["lookup_order", "process_refund"])).status,
        Status::Pass
    );
    let v = conv(&t, tool_sequence(["process_refund", "lookup_order"]));
    assert_eq!(
        v.reason,
        "tools were called out of order: expected process_refund → lookup_order, observed lookup_order → process_refund"
    );
    let t = one_turn(Reply::text(""));
    assert_eq!(
        conv(&t, tool_sequence(["a"])).reason,
        "tools in the sequence were never called: expected a, observed no calls"
    );
}

#[test]
fn succeeded_skips_failed_calls() {
    let r = Reply::text("")
        .call(Call::tool("pay", json!({})).failed(json!("declined")))
        .call(tool_call("notify", json!({})));
    let t = one_turn(r);
    assert_eq!(
        conv(&t, tool_sequence(["pay", "notify"])).status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, tool_sequence(["pay", "notify"]).succeeded()).status,
        Status::Fail
    );
}
