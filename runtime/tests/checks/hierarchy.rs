//! Workflow nodes with nested tool calls (Mibo's node_call hierarchy).

use agent_test_runtime::check::Status;
use agent_test_runtime::model::Call;
use agent_test_runtime::model::Reply;
use agent_test_runtime::prelude::*;

use super::{conv, one_turn, tool_call};

fn workflow() -> agent_test_runtime::model::Transcript {
    one_turn(
        Reply::text("Order placed")
            .call(Call::node("Webhook"))
            .call(
                Call::node("AI Agent")
                    .child(tool_call("search_products", json!({"q": "laptop"})))
                    .child(tool_call("create_order", json!({"sku": "L-1"})))
                    .child(tool_call("create_shipment", json!({"order": "O-1"}))),
            )
            .call(
                Call::node("Scrape Website")
                    .with_arguments(json!({"url": "https://mibo-ai.com/", "method": "GET"})),
            ),
    )
}

#[test]
fn nested_tool_checks_inside_a_node() {
    let t = workflow();
    let ok = node("AI Agent")
        .tool(tool("search_products").at_position(0))
        .tool(tool("create_order").at_position(1))
        .tool(tool("create_shipment").at_position(2))
        .tool(no_tool("delete_records"));
    assert_eq!(conv(&t, ok).status, Status::Pass);
    let v = conv(
        &t,
        node("AI Agent")
            .tool(tool("create_order").at_position(0))
            .tool(no_tool("create_shipment")),
    );
    assert_eq!(v.status, Status::Fail);
    assert_eq!(
        v.reason,
        "node `AI Agent` was called 1 time, but no call matched"
    );
    let msgs: Vec<&str> = v
        .details
        .violations
        .iter()
        .map(|x| x.message.as_str())
        .collect();
    assert_eq!(
        msgs,
        [
            "call at conversation position 1: inside: expected tool `create_order` at position 0, but position 0 is `search_products` (`create_order` is at 1)",
            "call at conversation position 1: inside: tool `create_shipment` was called 1 time (expected no call)",
        ]
    );
}

#[test]
fn nested_checks_fail_when_the_node_did_not_run() {
    let t = workflow();
    let v = conv(
        &t,
        node("Research Agent")
            .tool(no_tool("get_user_credentials"))
            .tool(tool("search")),
    );
    assert_eq!(v.status, Status::Fail);
    assert_eq!(v.reason, "node `Research Agent` was not called");
    let msgs: Vec<&str> = v
        .details
        .violations
        .iter()
        .map(|x| x.message.as_str())
        .collect();
    assert_eq!(
        msgs,
        [
            "tool `get_user_credentials` not called: fails, the node did not run",
            "tool `search` called: fails, the node did not run",
        ]
    );
}

#[test]
fn node_parameters_positions_and_counts() {
    let t = workflow();
    assert_eq!(
        conv(
            &t,
            node("Scrape Website")
                .arg("url", contains("mibo-ai.com"))
                .arg("method", "GET")
        )
        .status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, node("AI Agent").at_position(1)).status,
        Status::Pass,
        "positions count nodes"
    );
    assert_eq!(conv(&t, node("Webhook").times(1)).status, Status::Pass);
    assert_eq!(
        conv(
            &t,
            node("Scrape Website")
                .forbid_arg("api_key")
                .strict()
                .arg("url", any())
                .arg("method", any())
        )
        .status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, node("search_products")).reason,
        "node `search_products` was not called",
        "a tool is not a node"
    );
}

#[test]
fn any_call_matches_nodes_and_flat_tool_calls() {
    let t = workflow();
    assert_eq!(
        conv(&t, any_call("search_products").arg("q", "laptop")).status,
        Status::Pass
    );
    assert_eq!(conv(&t, any_call("AI Agent")).status, Status::Pass);
    assert_eq!(
        conv(&t, any_call("Send Email").times(3)).reason,
        "call `Send Email` was not called"
    );
}
