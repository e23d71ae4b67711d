//! JSON field, JSONPath and JSON Schema checks.

use agent_test_runtime::check::Status;
use agent_test_runtime::model::Call;
use agent_test_runtime::model::Reply;
use agent_test_runtime::prelude::*;

use super::{conv, one_turn, transcript, turn};

fn body(v: serde_json::Value) -> agent_test_runtime::model::Transcript {
    one_turn(Reply::text("Here you go").body(v))
}

#[test]
fn field_equals_and_not_equals() {
    let t = body(
        json!({"data": {"order": {"status": "confirmed", "item_count": 3}, "message": "Order success!"}}),
    );
    assert_eq!(
        conv(&t, field("data.order.status").is("confirmed")).status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, field("data.order.item_count").is(3.0)).status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, field("data.message").is(contains("success"))).status,
        Status::Pass
    );
    let v = conv(&t, field("data.order.status").is("shipped"));
    assert_eq!(
        v.reason,
        r#"data.order.status: expected "shipped", got "confirmed""#
    );
    assert_eq!(v.details.actual, Some(json!("confirmed")));
    assert_eq!(
        conv(&t, field("data.status").is_not("error")).status,
        Status::Pass,
        "missing passes NOT_EQUALS"
    );
    assert_eq!(
        conv(&t, field("data.order.status").is_not("confirmed")).reason,
        r#"data.order.status: expected not "confirmed", got "confirmed""#
    );
    assert_eq!(conv(&t, field("data.order").exists()).status, Status::Pass);
    assert_eq!(conv(&t, field("error").missing()).status, Status::Pass);
    assert_eq!(
        conv(&t, field("data.nope").is(1)).reason,
        "data.nope: missing (expected 1)"
    );
}

#[test]
fn field_object_mismatch_has_a_diff() {
    let t = body(json!({"data": {"a": 1, "b": 2}}));
    let v = conv(&t, field("data").is(json!({"a": 1, "b": 3})));
    assert!(
        v.details
            .diff
            .as_deref()
            .unwrap_or_default()
            .contains("-   \"b\": 3"),
        "{:?}",
        v.details.diff
    );
}

#[test]
fn json_sources() {
    // No body: the reply text is parsed.
    let t = one_turn(Reply::text(r#"{"status": "ok"}"#));
    assert_eq!(conv(&t, field("status").is("ok")).status, Status::Pass);
    assert_eq!(
        conv(&t, field("status").is("ok").in_body()).reason,
        "status: the response has no body"
    );
    // JSON wrapped in Markdown.
    let t = one_turn(Reply::text("Result:\n```json\n{\"status\": \"ok\"}\n```"));
    assert!(
        conv(&t, field("status").is("ok"))
            .reason
            .starts_with("status: the reply is not valid JSON")
    );
    assert_eq!(
        conv(&t, field("status").is("ok").in_code_block()).status,
        Status::Pass
    );
    // A body wins over the reply unless asked.
    let t = one_turn(Reply::text(r#"{"status": "text"}"#).body(json!({"status": "body"})));
    assert_eq!(conv(&t, field("status").is("body")).status, Status::Pass);
    assert_eq!(
        conv(&t, field("status").is("text").in_reply()).status,
        Status::Pass
    );
    // A node's output.
    let t = one_turn(Reply::text("").call(
        Call::node("Message a model").result(json!({"content": {"parts": [{"text": "RSI 70"}]}})),
    ));
    assert_eq!(
        conv(
            &t,
            field("content.parts.0.text")
                .is(contains("RSI"))
                .in_node("a model")
        )
        .status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, field("x").is(1).in_node("Other")).reason,
        "x: no node named like `Other` ran"
    );
}

#[test]
fn json_checks_read_the_last_turn_of_their_scope() {
    let t = transcript(vec![
        ("a", Reply::text(r#"{"n": 1}"#)),
        ("b", Reply::text(r#"{"n": 2}"#)),
    ]);
    assert_eq!(turn(&t, 0, field("n").is(1)).status, Status::Pass);
    assert_eq!(conv(&t, field("n").is(2)).status, Status::Pass);
}

#[test]
fn jsonpath_exists_not_exists_equals() {
    let t = one_turn(Reply::text(
        r#"{"status": "success", "data": {"id": 42, "items": [{"id": "a"}, {"id": "b"}]}}"#,
    ));
    assert_eq!(
        conv(&t, json_path("$.data.id").exists()).status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, json_path("$.error").not_exists()).status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, json_path("$.data.items[*].id").equals("b")).status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, json_path("$.data.id").equals("42")).reason,
        r#"$.data.id selects [42], none equal to "42""#,
        "no string/number coercion"
    );
    assert_eq!(
        conv(&t, json_path("$.nope").exists()).reason,
        "$.nope selects nothing"
    );
    assert_eq!(
        conv(&t, json_path("$.status").not_exists()).reason,
        r#"$.status selects ["success"]"#
    );
}

#[test]
fn jsonpath_on_a_non_json_reply_fails_even_not_exists() {
    let t = one_turn(Reply::text("Sure! The status is success."));
    for c in [
        json_path("$.status").exists(),
        json_path("$.error").not_exists(),
        json_path("$.status").equals("success"),
    ] {
        let v = conv(&t, c);
        assert_eq!(v.status, Status::Fail);
        assert!(
            v.reason
                .contains("invalid JSON: the reply is not valid JSON"),
            "{}",
            v.reason
        );
    }
    // A broken query is said as such whatever the reply (never "the reply is not valid
    // JSON", which would hide it).
    let q = String::from("$[");
    let v = conv(&t, json_path(q).exists());
    assert_eq!(v.status, Status::Error);
    assert!(
        v.reason.starts_with("invalid JSONPath `$[`"),
        "{}",
        v.reason
    );
    let t = one_turn(Reply::text("{}"));
    let q = String::from("$[");
    let v = conv(&t, json_path(q).exists());
    assert_eq!(v.status, Status::Error);
    assert!(
        v.reason.starts_with("invalid JSONPath `$[`"),
        "{}",
        v.reason
    );
}

#[test]
fn schema_on_body_and_field() {
    let t = body(
        json!({"id": "p-1", "status": "active", "data": {"items": [{"id": "1", "name": "A"}, {"id": 2}]}}),
    );
    let product = json!({"type": "object", "required": ["id", "status"], "properties": {"id": {"type": "string"}, "status": {"enum": ["active", "inactive"]}}});
    assert_eq!(conv(&t, schema(product)).status, Status::Pass);
    let items = json!({"type": "array", "items": {"type": "object", "required": ["id", "name"], "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}});
    let v = conv(&t, schema(items).at("data.items"));
    assert_eq!(v.status, Status::Fail);
    assert_eq!(
        v.reason,
        "data.items is not valid against the schema (2 problems)"
    );
    let msgs: Vec<&str> = v
        .details
        .violations
        .iter()
        .map(|x| x.message.as_str())
        .collect();
    assert!(
        msgs.contains(&r#"/1: "name" is a required property"#),
        "{msgs:?}"
    );
    assert!(
        msgs.contains(&r#"/1/id: 2 is not of type "string""#),
        "{msgs:?}"
    );
    let v = conv(&t, schema(json!({"type": "nonsense"})));
    assert_eq!(v.status, Status::Error);
    assert_eq!(
        conv(&t, schema(json!({"type": "object"})).at("nowhere")).reason,
        "nowhere: missing"
    );
}

/// Nested filters took exponential time to parse (20 levels: minutes) and a few thousand
/// parentheses overflowed the stack: brackets nest at most 10 deep, an error verdict beyond.
#[test]
fn json_path_queries_nest_at_most_10_levels() {
    let t = one_turn(Reply::text("").body(json!({"a": 1})));
    let filters = |n: usize| format!("${}.a{}", "[?@".repeat(n), "]".repeat(n));
    let started = std::time::Instant::now();
    let v = conv(&t, json_path(filters(40)).exists());
    assert_eq!(v.status, Status::Error);
    assert!(
        v.reason
            .ends_with("…`: brackets nest deeper than 10 levels at column 32"),
        "{}",
        v.reason
    );
    let parens = format!("$[?{}@.a == 1{}]", "(".repeat(5000), ")".repeat(5000));
    let v = conv(&t, json_path(parens).exists());
    assert_eq!(v.status, Status::Error);
    assert!(v.reason.ends_with("at column 13"), "{}", v.reason);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    // Brackets inside string literals do not count; 10 levels are fine.
    let v = conv(
        &t,
        json_path(format!("$[?@.a == '{}']", "[(".repeat(50))).exists(),
    );
    assert_eq!(v.status, Status::Fail, "{}", v.reason);
    let v = conv(&t, json_path(filters(9)).exists());
    assert_eq!(v.status, Status::Fail, "{}", v.reason);
}

/// A path of thousands of segments into a deep value joined every prefix of the path at every
/// level to look for dotted keys: 38 s for 3,000 segments over 120 levels. Now linear.
#[test]
fn long_paths_take_linear_time() {
    let mut body = json!({"a.b": 1});
    for _ in 0..120 {
        body = json!({ "a": body });
    }
    let t = one_turn(Reply::text("").body(body));
    let path = format!("{}.b", vec!["a"; 3000].join("."));
    let started = std::time::Instant::now();
    let v = conv(&t, field(path).exists());
    assert_eq!(v.status, Status::Fail);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    // Dotted keys are still found.
    let path = format!("{}.a.b", vec!["a"; 120].join("."));
    assert_eq!(conv(&t, field(path).is(1)).status, Status::Pass);
}
