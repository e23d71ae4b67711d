use agent_test_runtime::check::Status;
use agent_test_runtime::model::{Call, Reply};
use agent_test_runtime::prelude::*;
use serde_json::json;

use super::{conv, one_turn, tool_call, transcript, turn};

fn calls(names: &[&str]) -> Reply {
    names.iter().fold(Reply::text(""), |r, n| {
        r.call(tool_call(n, json!({"n": n})))
    })
}

#[test]
fn required_tools_must_all_be_called() {
    let t = one_turn(calls(&["verify_identity", "lookup_account"]));
    assert_eq!(
        conv(&t, required_tools(["lookup_account", "verify_identity"])).status,
        Status::Pass
    );
    let v = conv(
        &t,
        required_tools(["lookup_account", "process_refund", "notify"]),
    );
    assert_eq!(v.status, Status::Fail);
    assert_eq!(v.reason, "required tool not called: process_refund, notify");
    let msgs: Vec<&str> = v
        .details
        .violations
        .iter()
        .map(|x| x.message.as_str())
        .collect();
    assert_eq!(
        msgs,
        ["`process_refund` was not called", "`notify` was not called"]
    );
    assert_eq!(
        v.details.actual,
        Some(json!(["verify_identity", "lookup_account"]))
    );
}

#[test]
fn forbidden_tools_report_each_call_with_its_turn_and_arguments() {
    let t = transcript(vec![
        ("a", calls(&["lookup_account"])),
        ("b", calls(&["delete_account", "delete_account"])),
    ]);
    assert_eq!(
        conv(&t, forbidden_tools(["drop_tables"])).status,
        Status::Pass
    );
    assert_eq!(
        turn(&t, 0, forbidden_tools(["delete_account"])).status,
        Status::Pass
    );
    let v = conv(&t, forbidden_tools(["delete_account", "drop_tables"]));
    assert_eq!(v.status, Status::Fail);
    assert_eq!(v.reason, "forbidden tool called: delete_account");
    assert_eq!(v.details.violations.len(), 2);
    assert_eq!(
        v.details.violations[0].message,
        "`delete_account` was called at conversation position 1"
    );
    assert_eq!(v.details.violations[0].turn_index, Some(1));
    assert_eq!(
        v.details.violations[0].evidence,
        Some(json!({"tool": "delete_account", "arguments": {"n": "delete_account"}}))
    );
}

#[test]
fn no_tools_at_all() {
    let t = transcript(vec![("a", Reply::text("hello")), ("b", calls(&["search"]))]);
    assert_eq!(turn(&t, 0, no_tools()).status, Status::Pass);
    let v = turn(&t, 1, no_tools());
    assert_eq!(v.status, Status::Fail);
    assert_eq!(
        v.reason,
        "expected no tool call, but 1 tool was called: search"
    );
    assert_eq!(v.details.violations[0].kind, "unexpected_call");
    let v = conv(&t, no_tools());
    assert_eq!(v.status, Status::Fail);
}

#[test]
fn succeeded_ignores_failed_calls() {
    let r = Reply::text("").call(Call::tool("pay", json!({})).failed(json!("declined")));
    let t = one_turn(r);
    assert_eq!(
        conv(&t, required_tools(["pay"])).status,
        Status::Pass,
        "a failed call still counts as called"
    );
    assert_eq!(
        conv(&t, required_tools(["pay"]).succeeded()).reason,
        "required tool not called: pay"
    );
    assert_eq!(conv(&t, no_tools()).status, Status::Fail);
    assert_eq!(conv(&t, no_tools().succeeded()).status, Status::Pass);
    assert_eq!(
        conv(&t, forbidden_tools(["pay"]).succeeded()).status,
        Status::Pass
    );
}
