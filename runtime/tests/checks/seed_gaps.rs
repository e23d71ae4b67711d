//! The native checks the seed systems' files exposed: reply length, JSON in prose, tool error
//! kinds and "no tool call failed", constraints on a call's whole argument object, JSONPath
//! over arguments and results, any tool, tool chains, JMESPath — each passing and failing,
//! with its messages.

use agent_test_runtime::check::Status;
use agent_test_runtime::model::{Call, Reply, ToolErrorKind, Transcript, Turn};
use agent_test_runtime::prelude::*;

use super::{conv, one_turn, tool_call as call, transcript, turn};

fn sr(v: agent_test_runtime::Verdict) -> (Status, String) {
    (v.status, v.reason)
}

fn pass() -> (Status, String) {
    (Status::Pass, String::new())
}

fn fail(reason: &str) -> (Status, String) {
    (Status::Fail, reason.to_owned())
}

// ---------------------------------------------------------------------------------------------
// Reply length

#[test]
fn reply_length_in_characters_or_bytes() {
    let t = one_turn(Reply::text("  Déjà vu.  "));
    assert_eq!(sr(conv(&t, reply().length().between(10, 12))), pass());
    assert_eq!(
        sr(conv(&t, reply().length().at_most(7).trimmed())),
        fail("reply has 8 characters (expected at most 7 characters)")
    );
    assert_eq!(
        sr(conv(&t, reply().length().at_most(12).in_bytes())),
        fail("reply has 14 bytes (expected at most 12 bytes)")
    );
    // Every reply, in a turn or after the turns.
    let t = transcript(vec![("a", Reply::text("12345")), ("b", Reply::text("678"))]);
    assert_eq!(sr(turn(&t, 1, reply().length().at_least(3))), pass());
    assert_eq!(
        sr(conv(&t, replies().length().at_most(5))),
        fail("replies has 9 characters (expected at most 5 characters)")
    );
    assert_eq!(
        reply().length().at_least(1).in_bytes().describe(),
        "reply is at least 1 byte long"
    );
}

// ---------------------------------------------------------------------------------------------
// JSON in prose

#[test]
fn json_embedded_in_prose() {
    let t = one_turn(Reply::text(
        r#"Use {name} as you like. The order: {"id": 7, "items": ["a"]} — anything else?"#,
    ));
    assert_eq!(sr(conv(&t, field("id").is(7).in_text())), pass());
    assert_eq!(
        sr(conv(&t, json_path("$.items[0]").equals("a").in_text())),
        pass()
    );
    assert_eq!(
        sr(conv(&t, field("id").is(8).in_text())),
        fail("id: expected 8, got 7")
    );
    assert_eq!(
        field("id").is(7).in_text().describe(),
        "id of the JSON in the reply is 7"
    );
    let t = one_turn(Reply::text("no JSON at all"));
    assert_eq!(
        sr(conv(&t, field("id").exists().in_text())),
        fail("id: the reply has no JSON object or array")
    );
}

// ---------------------------------------------------------------------------------------------
// Tool errors

fn failing_calls() -> Transcript {
    one_turn(
        Reply::text("")
            .call(call("search", json!({"q": "x"})).result(json!([])))
            .call(
                call("book", json!({"date": "soon"}))
                    .failed_with(ToolErrorKind::Validation, json!("date: not a date")),
            )
            .call(
                call("book", json!({"date": "2026-12-01"}))
                    .failed_with(ToolErrorKind::Execution, json!("upstream timeout")),
            )
            .call(call("pay", json!({})).failed(json!("declined"))),
    )
}

#[test]
fn no_tool_errors_by_tool_and_kind() {
    let t = failing_calls();
    let v = conv(&t, no_tool_errors());
    assert_eq!(v.reason, "3 tool calls failed: book, pay");
    let messages: Vec<&str> = v
        .details
        .violations
        .iter()
        .map(|x| x.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            r#"`book` at conversation position 1 failed (validation error): "date: not a date""#,
            r#"`book` at conversation position 2 failed (execution error): "upstream timeout""#,
            r#"`pay` at conversation position 3 failed: "declined""#,
        ]
    );
    assert_eq!(sr(conv(&t, no_tool_errors().of_tools(["search"]))), pass());
    // An error of unknown kind counts as either kind.
    assert_eq!(
        sr(conv(
            &t,
            no_tool_errors()
                .of_tools(["pay"])
                .of_kind(ToolErrorKind::Validation)
        )),
        fail("1 tool call failed: pay")
    );
    assert_eq!(
        sr(conv(
            &t,
            no_tool_errors()
                .of_tools(["book"])
                .of_kind(ToolErrorKind::Execution)
        )),
        fail("1 tool call failed: book")
    );
    // An absence: with turns and no call, nothing failed.
    assert_eq!(
        sr(conv(&one_turn(Reply::text("hi")), no_tool_errors())),
        pass()
    );
}

#[test]
fn tool_checks_filter_by_error_kind() {
    let t = failing_calls();
    assert_eq!(
        sr(conv(
            &t,
            tool("book").failed_with(ToolErrorKind::Validation).times(1)
        )),
        pass()
    );
    assert_eq!(
        sr(conv(&t, tool("pay").failed_with(ToolErrorKind::Execution))),
        fail("tool `pay` was called, but no call failed with an execution error")
    );
    let v = conv(&t, tool("pay").failed_with(ToolErrorKind::Execution));
    assert_eq!(
        v.details.violations[0].message,
        "call at conversation position 3 failed, but its error has no kind (expected execution)"
    );
    assert_eq!(
        sr(conv(&t, tool("book").succeeded_or_invalid().times(1))),
        pass()
    );
    assert_eq!(
        sr(conv(&t, tool("pay").succeeded_or_invalid())),
        fail("tool `pay` was called, but every call failed in execution")
    );
    // `no_error()` is a constraint: with every_call a failed call is a mismatch.
    assert_eq!(
        sr(conv(&t, tool("book").no_error().every_call())),
        fail("2 of 2 calls of tool `book` did not match")
    );
}

// ---------------------------------------------------------------------------------------------
// The whole argument object, JSONPath over arguments and results, any tool

#[test]
fn constraints_on_the_whole_argument_object() {
    let t = one_turn(Reply::text("").call(call("search", json!({"q": "Lisbon", "limit": 5}))));
    assert_eq!(
        sr(conv(
            &t,
            tool("search").arguments(json!({"limit": 5, "q": "Lisbon"}))
        )),
        pass()
    );
    assert_eq!(
        sr(conv(&t, tool("search").arguments(regex(r#""q":"Lis"#)))),
        pass()
    );
    assert_eq!(
        sr(conv(
            &t,
            tool("search").arguments(matches_schema(json!({"required": ["page"]})))
        )),
        fail("tool `search` was called 1 time, but no call matched")
    );
    // The whole object is what `.strict()` allows, with such a constraint.
    assert_eq!(
        sr(conv(
            &t,
            tool("search")
                .arguments(contains("lisbon").ignore_case())
                .strict()
        )),
        pass()
    );
    assert_eq!(
        tool("search").arguments(contains("x")).describe(),
        r#"tool `search` called with arguments: text containing "x""#
    );
}

#[test]
fn json_path_over_arguments_and_results() {
    let t = one_turn(
        Reply::text("").call(
            call(
                "order",
                json!({"items": [{"sku": "A-1", "qty": 2}, {"sku": "B-2", "qty": 1}]}),
            )
            .result(json!({"status": "placed", "lines": [{"sku": "A-1"}]})),
        ),
    );
    assert_eq!(
        sr(conv(
            &t,
            tool("order").arg_json_path("$.items[?@.qty > 1].sku", "A-1")
        )),
        pass()
    );
    assert_eq!(
        sr(conv(
            &t,
            tool("order").result_json_path("$.lines[*].sku", "A-1")
        )),
        pass()
    );
    let v = conv(&t, tool("order").result_json_path("$.lines[*].sku", "B-2"));
    assert_eq!(v.status, Status::Fail);
    assert_eq!(
        v.details.violations[0].message,
        r#"call at conversation position 0: $.lines[*].sku: selects ["A-1"], none matching (expected "B-2", got "A-1")"#
    );
    let v = conv(&t, tool("order").arg_json_path("$.coupon", any()));
    assert_eq!(
        v.details.violations[0].message,
        "call at conversation position 0: $.coupon: selects nothing: missing (expected any value)"
    );
    // An invalid query is an error, never a pass of `missing()`.
    let v = conv(&t, tool("order").arg_json_path("$.items[", missing()));
    assert_eq!(v.status, Status::Error);
    assert!(
        v.reason.starts_with("invalid JSONPath `$.items[`"),
        "{}",
        v.reason
    );
}

#[test]
fn any_tool_applies_to_every_call() {
    let t = one_turn(
        Reply::text("")
            .call(call("a", json!({"id": "ORD-1"})))
            .call(call("b", json!({"id": "X-2"}))),
    );
    assert_eq!(sr(conv(&t, any_tool().times(2))), pass());
    assert_eq!(
        sr(conv(&t, any_tool().arg("id", regex("^ORD-")).every_call())),
        fail("1 of 2 tool calls did not match")
    );
    assert_eq!(
        sr(conv(&one_turn(Reply::text("")), any_tool())),
        fail("no tool was called")
    );
}

// ---------------------------------------------------------------------------------------------
// Tool chains

#[test]
fn tool_chains_take_the_next_call_of_each_step() {
    let t = one_turn(
        Reply::text("")
            .call(call("search", json!({"city": "Lisbon"})).result(json!({"id": "H-7"})))
            .call(call("weather", json!({})))
            .call(call("book", json!({"hotel": "H-9"})))
            .call(call("book", json!({"hotel": "H-7"})).result(json!("ok"))),
    );
    let chain = |hotel: &str| {
        tool_chain([
            tool("search").result_at("id", hotel.to_owned()),
            tool("book").arg("hotel", hotel.to_owned()),
        ])
    };
    // The first `book` after the search is the step's call: H-9, not H-7.
    let v = conv(&t, chain("H-7"));
    assert_eq!(
        v.reason,
        "tool chain broken at step 2 (`book`): the call at conversation position 2 did not match"
    );
    assert_eq!(
        v.details.violations[0].message,
        r#"hotel: expected "H-7", got "H-9""#
    );
    let v = conv(&t, tool_chain([tool("book"), tool("search")]));
    assert_eq!(
        v.reason,
        "tool chain incomplete: 1 of 2 steps satisfied, no call of `search` after step 1"
    );
    assert_eq!(
        sr(conv(
            &t,
            tool_chain([tool("search"), tool("weather"), tool("book")])
        )),
        pass()
    );
    // Options that do not apply to a step are errors, not ignored.
    assert_eq!(
        sr(conv(&t, tool_chain([tool("search").times(2)]))),
        (
            Status::Error,
            "tool chain step 1 takes no count (it is the next call of its tool)".to_owned()
        )
    );
}

// ---------------------------------------------------------------------------------------------
// JMESPath

#[test]
fn jmespath_on_the_json_answer() {
    let t = one_turn(
        Reply::text("")
            .body(json!({"users": [{"name": "Ada", "age": 36}, {"name": "Bob", "age": 17}]})),
    );
    assert_eq!(
        sr(conv(
            &t,
            jmespath("users[?age >= `18`].name").is(json!(["Ada"]))
        )),
        pass()
    );
    assert_eq!(
        sr(conv(&t, jmespath("length(users)").is(3))),
        fail("`length(users)` gives 2: expected 3, got 2")
    );
    assert_eq!(
        sr(conv(&t, jmespath("users[0].email").exists())),
        fail("`users[0].email` gives null: expected not null, got null")
    );
    let v = conv(&t, jmespath("users[").is(1));
    assert_eq!(v.status, Status::Error);
    assert!(
        v.reason.starts_with("invalid JMESPath `users[`"),
        "{}",
        v.reason
    );
}

// ---------------------------------------------------------------------------------------------
// Trajectories by model step

fn stepped(calls: Vec<(&str, Option<usize>)>) -> Transcript {
    let reply = calls.into_iter().fold(Reply::text(""), |r, (name, step)| {
        let mut c = Call::tool(name, json!({}));
        c.step = step;
        r.call(c)
    });
    Transcript::new(vec![Turn::new(0, "go", reply, 1)])
}

#[test]
fn strict_trajectories_compare_model_steps() {
    // One response called weather twice (any order within it), then summarize.
    let t = stepped(vec![
        ("weather_rome", Some(0)),
        ("weather_paris", Some(0)),
        ("summarize", Some(1)),
    ]);
    let parallel = || {
        trajectory([
            tool_call("weather_paris"),
            tool_call("weather_rome").parallel(),
            tool_call("summarize"),
        ])
        .strict()
    };
    assert_eq!(sr(conv(&t, parallel())), pass());
    // A flat reference expects three responses.
    let v = conv(
        &t,
        trajectory([
            tool_call("weather_rome"),
            tool_call("weather_paris"),
            tool_call("summarize"),
        ])
        .strict(),
    );
    assert_eq!(v.status, Status::Fail);
    let messages: Vec<&str> = v
        .details
        .violations
        .iter()
        .map(|x| x.message.as_str())
        .collect();
    assert!(
        messages.contains(
            &"step 1: the reference expects 1 call in one model response (weather_rome), the agent made 2 calls (weather_rome, weather_paris)"
        ),
        "{messages:?}"
    );
    assert!(
        messages.contains(&"the reference has 3 model steps, the agent made 2"),
        "{messages:?}"
    );
    // Calls in separate responses do not make one step.
    let t = stepped(vec![
        ("weather_paris", Some(0)),
        ("weather_rome", Some(1)),
        ("summarize", Some(2)),
    ]);
    assert_eq!(conv(&t, parallel()).status, Status::Fail);
    // Other modes compare calls, not steps.
    assert_eq!(
        sr(conv(
            &t,
            trajectory([tool_call("weather_rome"), tool_call("weather_paris")])
                .unordered()
                .subset()
        )),
        fail(
            "the trajectory does not match (2 expected, 3 made: weather_paris → weather_rome → summarize)"
        )
    );
    // Without steps in the transcript each call is its own step; a grouped reference cannot
    // be confirmed.
    let t = stepped(vec![
        ("weather_paris", None),
        ("weather_rome", None),
        ("summarize", None),
    ]);
    assert_eq!(
        sr(conv(&t, parallel())),
        (
            Status::Error,
            "not measured: the reference has calls made in one model response, but the transcript \
             does not say which calls were (the call of `weather_paris` at conversation position 0 \
             has no model step)"
                .to_owned()
        )
    );
    assert_eq!(
        sr(conv(
            &t,
            trajectory([
                tool_call("weather_paris"),
                tool_call("weather_rome"),
                tool_call("summarize")
            ])
            .strict()
        )),
        pass()
    );
}
