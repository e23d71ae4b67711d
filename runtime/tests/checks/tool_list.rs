//! An MCP server's tool list: usable by a model, or every problem named.

use agent_test_runtime::check::{Check, Status};
use agent_test_runtime::model::Reply;
use agent_test_runtime::prelude::*;

use super::{conv, one_turn, transcript, turn};

fn listed(tools: serde_json::Value) -> Reply {
    Reply::text("").body(json!({ "tools": tools }))
}

fn search() -> serde_json::Value {
    json!({"name": "search", "description": "Search hotels",
           "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}})
}

#[test]
fn a_usable_list_passes() {
    let t = one_turn(listed(
        json!([search(), {"name": "book", "description": "Book a room", "inputSchema": {"type": "object"}}]),
    ));
    let v = conv(&t, valid_tool_list());
    assert_eq!((v.status, v.reason.as_str()), (Status::Pass, ""));
}

#[test]
fn every_problem_is_named_with_its_tool() {
    let t = one_turn(listed(json!([
        search(),
        {"name": "search", "description": " ", "inputSchema": {"type": "object"}},
        {"description": "nameless", "inputSchema": {"type": "object"}},
        {"name": "book", "description": "Book"},
        {"name": "pay", "description": "Pay", "inputSchema": {"type": "object", "properties": {"x": {"type": "no-such-type"}}}}
    ])));
    let v = conv(&t, valid_tool_list());
    assert_eq!(v.status, Status::Fail);
    assert!(v.reason.starts_with("the tool list of turn 1 has 5 problems: tool 1 (`search`): the name is used by tool 0 too; tool 1 (`search`): no description; tool 2: no name; tool 3 (`book`): no input schema; tool 4 (`pay`): the input schema cannot be used: invalid JSON Schema"), "{}", v.reason);
    assert_eq!(v.details.violations.len(), 5);
    assert_eq!(v.details.violations[0].turn_index, Some(0));
    let empty = one_turn(listed(json!([])));
    assert_eq!(
        conv(&empty, valid_tool_list()).reason,
        "the tool list of turn 1 has 1 problem: the server lists no tool"
    );
}

#[test]
fn without_a_tool_list_it_is_not_measured() {
    // A tool call's turn, a body without `tools`, `tools` that is not a list.
    let t = transcript(vec![
        ("tools/call search", Reply::text("3 hotels")),
        ("other", Reply::text("").body(json!({"result": 1}))),
        ("garbled", Reply::text("").body(json!({"tools": "search"}))),
        ("tools/list", listed(json!([search()]))),
    ]);
    for i in 0..3 {
        let v = turn(&t, i, valid_tool_list());
        assert_eq!(v.status, Status::Error, "turn {i}");
        assert!(
            v.reason.starts_with("not measured: no turn listed tools"),
            "{}",
            v.reason
        );
    }
    // After the turns it checks the list there is.
    assert_eq!(conv(&t, valid_tool_list()).status, Status::Pass);
}

#[test]
fn every_list_in_scope_is_checked_and_garbled_entries_fail() {
    let t = transcript(vec![
        ("tools/list", listed(json!([search()]))),
        (
            "tools/list",
            listed(
                json!([search(), {"name": "search", "description": "again", "inputSchema": {"type": "object"}}]),
            ),
        ),
    ]);
    let v = conv(&t, valid_tool_list());
    assert_eq!(
        (v.status, v.reason.as_str()),
        (
            Status::Fail,
            "the tool list of turn 2 has 1 problem: tool 1 (`search`): the name is used by tool 0 too"
        )
    );
    assert_eq!(v.details.violations[0].turn_index, Some(1));
    let garbled = one_turn(listed(json!(["search", 7])));
    assert_eq!(
        conv(&garbled, valid_tool_list()).reason,
        "the tool list of turn 1 has 6 problems: tool 0: no name; tool 0 (``): no description; \
         tool 0 (``): no input schema; tool 1: no name; tool 1 (``): no description; tool 1 (``): \
         no input schema"
    );
}

#[test]
fn it_loads_from_data_and_refuses_unknown_fields() {
    let c: Check = serde_json::from_value(json!({"type": "tool_list"})).unwrap();
    assert_eq!(c, Check::from(valid_tool_list()));
    let e = serde_json::from_value::<Check>(json!({"type": "tool_list", "unique": true}))
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown field `unique`"), "{e}");
}
