//! Argument matchers, each passing and failing with its message.

use agent_test_runtime::check::Status;
use agent_test_runtime::model::Call;
use agent_test_runtime::model::Reply;
use agent_test_runtime::prelude::*;

use super::{conv, one_turn, tool_call};

/// A turn calling `t` with these arguments.
fn args(a: serde_json::Value) -> agent_test_runtime::model::Transcript {
    one_turn(Reply::text("").call(tool_call("t", a)))
}

/// The first violation's message of `check` on `transcript`, or "pass".
fn outcome(
    t: &agent_test_runtime::model::Transcript,
    check: agent_test_runtime::check::ToolCheck,
) -> String {
    let v = conv(t, check);
    match v.status {
        Status::Pass => "pass".to_owned(),
        Status::Error => format!("error: {}", v.reason),
        _ => v
            .details
            .violations
            .first()
            .map_or(v.reason.clone(), |x| x.message.clone()),
    }
}

#[test]
fn exact_with_unordered_lists_and_wildcards() {
    let t = args(json!({"tags": ["urgent", "vip"], "meta": {"id": "x-1", "n": 2}}));
    assert_eq!(
        outcome(
            &t,
            tool("t").arg("tags", exact(json!(["vip", "urgent"])).unordered())
        ),
        "pass"
    );
    assert_eq!(
        outcome(&t, tool("t").arg("tags", json!(["vip", "urgent"]))),
        r#"call at conversation position 0: tags: expected ["vip","urgent"], got ["urgent","vip"]"#
    );
    assert_eq!(
        outcome(
            &t,
            tool("t").arg("meta", exact(json!({"id": "*", "n": 2})).wildcards())
        ),
        "pass"
    );
    assert_eq!(
        outcome(
            &t,
            tool("t").arg("meta", exact(json!({"id": "*", "n": 3})).wildcards())
        ),
        r#"call at conversation position 0: meta: expected {"id":"*","n":3} ("*" = any), got {"id":"x-1","n":2}"#
    );
}

#[test]
fn contains_renders_both_sides_as_text() {
    let t = args(json!({"query": "Onboarding steps", "n": 1042}));
    assert_eq!(
        outcome(&t, tool("t").arg("query", contains("boarding"))),
        "pass"
    );
    assert_eq!(
        outcome(&t, tool("t").arg("n", contains("04"))),
        "pass",
        "numbers are rendered"
    );
    assert_eq!(
        outcome(&t, tool("t").arg("query", contains("onboarding"))),
        r#"call at conversation position 0: query: expected text containing "onboarding", got "Onboarding steps""#
    );
    assert_eq!(
        outcome(
            &t,
            tool("t").arg("query", contains("onboarding").ignore_case())
        ),
        "pass"
    );
}

#[test]
fn regex_on_the_rendered_value() {
    let t = args(json!({"email": "john.doe@example.com", "order": "ORD-12345"}));
    assert_eq!(
        outcome(
            &t,
            tool("t").arg("email", regex(r"^[^@\s]+@[^@\s]+\.[^@\s]+$"))
        ),
        "pass"
    );
    assert_eq!(
        outcome(&t, tool("t").arg("order", regex(r"^ORD-\d{4}$"))),
        r#"call at conversation position 0: order: expected a match of /^ORD-\d{4}$/, got "ORD-12345""#
    );
    let bad = String::from("(");
    assert!(
        outcome(&t, tool("t").arg("order", regex(bad))).starts_with("error: invalid regex `(`")
    );
}

#[test]
fn one_of_values_matchers_and_schema_fragments() {
    let t = args(json!({"units": "si"}));
    let units = || {
        one_of([
            matches_schema(json!({"type": "string", "pattern": "^(metric|si)$"})),
            matches_schema(json!({"type": "string", "pattern": "^celsius$"})),
        ])
    };
    assert_eq!(outcome(&t, tool("t").arg("units", units())), "pass");
    assert_eq!(
        outcome(&t, tool("t").arg("units", one_of(["metric", "si"]))),
        "pass"
    );
    let t2 = args(json!({"units": "kelvin"}));
    assert_eq!(
        outcome(&t2, tool("t").arg("units", one_of(["metric", "si"]))),
        r#"call at conversation position 0: units: expected one of "metric", "si", got "kelvin""#
    );
    assert!(
        outcome(&t2, tool("t").arg("units", units())).contains("expected one of valid against")
    );
    assert!(
        outcome(
            &t2,
            tool("t").arg("units", matches_schema(json!({"type": 5})))
        )
        .starts_with("error: units: invalid JSON Schema")
    );
}

#[test]
fn any_optional_and_missing() {
    let t = args(json!({"request_id": "r-1", "locale": null}));
    assert_eq!(outcome(&t, tool("t").arg("request_id", any())), "pass");
    assert_eq!(
        outcome(&t, tool("t").arg("locale", any())),
        "pass",
        "null is present"
    );
    assert_eq!(
        outcome(&t, tool("t").arg("trace", any())),
        "call at conversation position 0: trace: missing (expected any value)"
    );
    // optional: missing or null passes, otherwise the inner matcher decides.
    assert_eq!(
        outcome(&t, tool("t").arg("locale", optional("en-US"))),
        "pass"
    );
    assert_eq!(outcome(&t, tool("t").arg("tz", optional("UTC"))), "pass");
    assert_eq!(
        outcome(&t, tool("t").arg("request_id", optional("r-2"))),
        r#"call at conversation position 0: request_id: expected "r-2", got "r-1""#
    );
    // missing: must be absent.
    assert_eq!(outcome(&t, tool("t").arg("password", missing())), "pass");
    assert_eq!(
        outcome(&t, tool("t").arg("locale", missing())),
        "call at conversation position 0: locale: expected it to be absent, got null"
    );
}

#[test]
fn email_addresses() {
    let t = args(json!({"to": "John.Doe@EXAMPLE.com"}));
    assert_eq!(
        outcome(&t, tool("t").arg("to", email("John.Doe@example.com"))),
        "pass"
    );
    assert_eq!(
        outcome(&t, tool("t").arg("to", email("john.doe@example.com"))),
        r#"call at conversation position 0: to: expected the email "john.doe@example.com", got "John.Doe@EXAMPLE.com""#
    );
}

#[test]
fn composition() {
    let t = args(json!({"order": "ORD-1234"}));
    assert_eq!(
        outcome(
            &t,
            tool("t").arg("order", all_of([regex("^ORD-"), not(contains("TEST"))]))
        ),
        "pass"
    );
    assert_eq!(
        outcome(
            &t,
            tool("t").arg("order", any_of([regex("^REF-"), regex("^ORD-")]))
        ),
        "pass"
    );
    assert_eq!(
        outcome(
            &t,
            tool("t").arg("order", all_of([regex("^ORD-"), not(contains("1234"))]))
        ),
        r#"call at conversation position 0: order: expected not text containing "1234", got "ORD-1234""#
    );
    assert_eq!(
        outcome(&t, tool("t").arg("missing", not("x"))),
        r#"call at conversation position 0: missing: missing (expected not "x")"#
    );
}

#[test]
fn nested_paths() {
    let t = args(json!({"address": {"city": "Lisbon"}, "items": [{"sku": "A-1"}, {"sku": "B-2"}]}));
    assert_eq!(
        outcome(
            &t,
            tool("t")
                .arg("address.city", "Lisbon")
                .arg("items.1.sku", "B-2")
                .arg("items[0].sku", regex("^A"))
        ),
        "pass"
    );
    assert_eq!(
        outcome(&t, tool("t").arg("items.2.sku", "C-3")),
        r#"call at conversation position 0: items.2.sku: missing (expected "C-3")"#
    );
    // strict looks at top-level names: nested paths allow their first segment.
    assert_eq!(
        outcome(
            &t,
            tool("t")
                .arg("address.city", "Lisbon")
                .arg("items", any())
                .strict()
        ),
        "pass"
    );
}

#[test]
fn tool_results() {
    let t = one_turn(
        Reply::text("")
            .call(
                Call::tool("lookup_order", json!({"id": 1}))
                    .result(json!({"status": "delivered", "total": 42.5})),
            )
            .call(Call::tool("refund", json!({"id": 1})).failed(json!("already refunded"))),
    );
    assert_eq!(
        outcome(&t, tool("lookup_order").result(contains("delivered"))),
        "pass"
    );
    assert_eq!(
        outcome(&t, tool("lookup_order").result_at("total", 42.5)),
        "pass"
    );
    assert_eq!(
        outcome(&t, tool("lookup_order").result_at("status", "shipped")),
        r#"call at conversation position 0: result.status: expected "shipped", got "delivered""#
    );
    // A failed call has no result: its error text is matched only when the check asks for
    // failures, and the failure says when it would have matched.
    assert_eq!(
        outcome(&t, tool("refund").result(contains("already"))),
        r#"call at conversation position 1: result: the call failed ("already refunded"), and a failed call has no result — its error text would have matched: add `.failed()` to check a failure's text"#
    );
    assert_eq!(
        outcome(&t, tool("refund").result(contains("approved"))),
        r#"call at conversation position 1: result: the call failed ("already refunded"), and a failed call has no result"#
    );
    assert_eq!(
        outcome(&t, tool("refund").failed().result(contains("already"))),
        "pass"
    );
    assert_eq!(
        outcome(
            &t,
            tool("refund")
                .failed_with(agent_test_runtime::model::ToolErrorKind::Execution)
                .result(contains("already"))
        ),
        "call at conversation position 1 failed, but its error has no kind (expected execution)"
    );
    assert_eq!(outcome(&t, tool("refund").failed()), "pass");
    assert_eq!(outcome(&t, tool("lookup_order").failed().never()), "pass");
    assert_eq!(
        conv(&t, tool("lookup_order").failed()).reason,
        "tool `lookup_order` was called, but no call failed"
    );
}
