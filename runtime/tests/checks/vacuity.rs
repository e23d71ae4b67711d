//! Never a false pass: every check type and every matcher, on an input where what it checks is
//! absent (no turn, no call, no body, no usage, no state, ...), fails or errors — it never
//! passes. A check that would compare nothing is an error "compared nothing: …"; a measurement
//! that was not taken is an error "not measured: …".
//!
//! Some checks assert an absence and rightly pass on one when something ran: `no_tool`,
//! `no_tools`, `forbidden_tools([..])`, `agent_not_invoked([..])`, `no_tool_errors()`, a
//! strict, unordered or subset `trajectory([])`, `field(..).missing()`, `field(..).is_not(..)`,
//! and the matchers `missing()` and `optional(..)`. With no turn at all (nothing ran) they are
//! errors too.

use agent_test_runtime::check::{Check, Status};
use agent_test_runtime::model::{Guardrail, Usage, Workflow};
use agent_test_runtime::model::{Reply, Transcript, Turn};
use agent_test_runtime::prelude::*;
use agent_test_runtime::report::prices::Prices;
use std::time::Duration;

use super::{conv, one_turn, pinned, tool_call as call, turn};

/// Status and reason of a verdict, for one-line assertions.
fn sr(v: agent_test_runtime::Verdict) -> (Status, String) {
    (v.status, v.reason)
}

fn error(reason: &str) -> (Status, String) {
    (Status::Error, reason.to_owned())
}

fn fail(reason: &str) -> (Status, String) {
    (Status::Fail, reason.to_owned())
}

// With no turn at all, every check kind is an error ("no turn ran"): the runtime's
// `check::vocabulary` test evaluates every kind's samples (each kind declares its own, so a new
// kind cannot be left out).

// ---------------------------------------------------------------------------------------------
// Text

#[test]
fn text_on_an_empty_reply_fails() {
    let t = one_turn(Reply::text(""));
    assert_eq!(
        sr(conv(&t, reply().contains("refund"))),
        fail(r#"reply does not contain "refund""#)
    );
    assert_eq!(
        sr(conv(&t, reply().matches("ORD-[0-9]+"))),
        fail("reply does not match /ORD-[0-9]+/")
    );
    assert_eq!(
        sr(conv(&t, node_output("Agent", "").contains("x"))),
        fail("output of node `Agent` contains: no node named like `Agent` ran")
    );
}

/// A case-insensitive search the regex cannot make (past its size limit) was never made: an
/// error, not "not found" — which would pass the negative check and matcher.
#[test]
fn a_search_that_cannot_be_made_is_an_error() {
    let t = one_turn(
        Reply::text("Your refund is processed.").call(call("search", json!({"query": "refund"}))),
    );
    let huge = "é".repeat(400_000);
    let v = conv(&t, reply().not_contains(huge.as_str()));
    assert_eq!(v.status, Status::Error, "{}", v.reason);
    assert!(
        v.reason
            .starts_with("the text to look for cannot be searched ignoring case"),
        "{}",
        v.reason
    );
    let v = conv(
        &t,
        tool("search").arg("query", not(contains(huge.as_str()).ignore_case())),
    );
    assert_ne!(v.status, Status::Pass, "{}", v.reason);
    assert!(
        v.reason.contains("cannot be searched ignoring case"),
        "{}",
        v.reason
    );
}

#[test]
fn text_compared_with_nothing_is_an_error() {
    let t = one_turn(Reply::text("Your refund is processed."));
    let empty = "compared nothing: the text to look for is empty";
    assert_eq!(sr(conv(&t, reply().contains(""))), error(empty));
    assert_eq!(sr(conv(&t, reply().not_contains(""))), error(empty));
    assert_eq!(sr(conv(&t, reply().starts_with(""))), error(empty));
    assert_eq!(
        sr(conv(&t, replies().ends_with("").case_sensitive())),
        error(empty)
    );
    // An empty reply is something to compare with.
    assert_eq!(
        sr(conv(&t, reply().equals(""))).0,
        Status::Fail,
        "equals(\"\") requires an empty reply"
    );
    for re in ["", "x*", "(refund)?", "a|"] {
        let why = format!(
            "compared nothing: the regex /{re}/ matches every text (it matches the empty string)"
        );
        assert_eq!(sr(conv(&t, reply().matches(re))), error(&why));
        assert_eq!(sr(conv(&t, reply().not_matches(re))), error(&why));
    }
    // Anchored or asserting patterns that match the empty string still compare something.
    assert_eq!(sr(conv(&t, reply().matches("^$"))).0, Status::Fail);
    assert_eq!(
        sr(conv(&t, reply().matches(r"\bprocessed\b"))).0,
        Status::Pass
    );
}

// ---------------------------------------------------------------------------------------------
// Tools

#[test]
fn tool_checks_on_no_call() {
    let t = one_turn(Reply::text("Done."));
    assert_eq!(
        sr(conv(&t, tool("lookup_order"))),
        fail("tool `lookup_order` was not called")
    );
    assert_eq!(
        sr(conv(&t, node("AI Agent").tool(no_tool("x")))),
        fail("node `AI Agent` was not called")
    );
    // An absence, and something ran: it passes.
    assert_eq!(sr(conv(&t, no_tool("cancel_order"))).0, Status::Pass);
    assert_eq!(sr(conv(&t, no_tools())).0, Status::Pass);
}

#[test]
fn every_call_needs_a_call() {
    let t = one_turn(Reply::text("Done."));
    assert_eq!(
        sr(conv(
            &t,
            tool("get_weather")
                .arg("units", "metric")
                .every_call()
                .at_most(3)
        )),
        fail("tool `get_weather` was not called")
    );
}

/// After the turns, `reply()` and the JSON checks read the final turn: when the agent failed
/// on it there is no reply to read, not an empty one.
#[test]
fn a_failed_final_turn_has_no_reply_to_check() {
    let t = Transcript::new(vec![
        Turn::new(0, "a", Reply::text("Which order?"), 5),
        Turn::failed(1, "b", "timed out after 30s", 30_000),
    ]);
    let why = "not evaluated: the agent failed on turn 2: timed out after 30s";
    assert_eq!(sr(conv(&t, reply().not_contains("error"))), error(why));
    assert_eq!(sr(conv(&t, field("error").missing())), error(why));
    assert_eq!(sr(conv(&t, json_path("$.error").not_exists())), error(why));
    assert_eq!(sr(conv(&t, schema(json!({"type": "object"})))), error(why));
    assert_eq!(sr(conv(&t, judge("is polite"))), error(why));
    // Every reply, joined, still holds the turns that answered.
    assert_eq!(
        conv(&t, replies().contains("which order")).status,
        Status::Pass
    );
}

#[test]
fn tool_checks_compared_with_nothing_are_errors() {
    let t = one_turn(Reply::text("").call(call("search", json!({"q": "x"}))));
    assert_eq!(
        sr(conv(&t, no_tool(""))),
        error("compared nothing: the tool name is empty")
    );
    assert_eq!(
        sr(conv(&t, tool("search").at_least(0))),
        error("compared nothing: at least 0 calls is always true")
    );
    assert_eq!(
        sr(conv(&t, tool("search").arg("q", contains("")))),
        error(
            r#"compared nothing: contains("") is found in every value (to require only presence, use any())"#
        )
    );
    assert_eq!(
        sr(conv(&t, tool("search").result(regex(".*")))),
        error("compared nothing: the regex /.*/ matches every value (it matches the empty string)")
    );
}

#[test]
fn tool_sets_and_sequences_on_no_call_or_no_name() {
    let t = one_turn(Reply::text("Done."));
    assert_eq!(
        sr(conv(&t, required_tools(["verify_identity"]))),
        fail("required tool not called: verify_identity")
    );
    assert_eq!(
        sr(conv(&t, tool_sequence(["a", "b"]))),
        fail("tools in the sequence were never called: expected a → b, observed no calls")
    );
    // An absence, and something ran: it passes.
    assert_eq!(
        sr(conv(&t, forbidden_tools(["drop_table"]))).0,
        Status::Pass
    );

    assert_eq!(
        sr(conv(&t, required_tools(Vec::<String>::new()))),
        error("compared nothing: the list of required tools is empty")
    );
    assert_eq!(
        sr(conv(&t, forbidden_tools(Vec::<String>::new()))),
        error("compared nothing: the list of forbidden tools is empty")
    );
    assert_eq!(
        sr(conv(&t, forbidden_tools(["drop_table", ""]))),
        error("compared nothing: a tool name in the list is empty")
    );
    assert_eq!(
        sr(conv(&t, tool_sequence(Vec::<String>::new()))),
        error("compared nothing: the tool sequence is empty")
    );
    assert_eq!(
        sr(conv(&t, tool_sequence(["a", ""]))),
        error("compared nothing: a tool name in the sequence is empty")
    );
}

// ---------------------------------------------------------------------------------------------
// Trajectories

#[test]
fn trajectories_on_no_call_or_an_empty_reference() {
    let t = one_turn(Reply::text("Done."));
    assert_eq!(
        sr(conv(&t, trajectory([tool_call("search")]))),
        fail("the trajectory does not match (1 expected, 0 made: no calls)")
    );
    let empty = "compared nothing: the reference trajectory is empty (an empty reference \
                 requires no call only with .strict(), .unordered() or .subset())";
    assert_eq!(sr(conv(&t, trajectory(Vec::new()))), error(empty));
    assert_eq!(
        sr(conv(&t, trajectory(Vec::new()).superset())),
        error(empty)
    );
    // "Exactly no call" is a comparison.
    assert_eq!(
        sr(conv(&t, trajectory(Vec::new()).strict())).0,
        Status::Pass
    );
    assert_eq!(
        sr(conv(&t, trajectory(Vec::new()).subset())).0,
        Status::Pass
    );
}

#[test]
fn compare_fields_reaches_into_nested_arguments() {
    let t = one_turn(Reply::text("").call(call(
        "book",
        json!({"hotel": "H-1", "address": {"city": "Lisbon", "zip": "1000"}, "note": "x"}),
    )));
    let expected = |city: &str| {
        tool_call("book").args(json!({"hotel": "H-9", "address": {"city": city, "zip": "9999"}}))
    };
    // A nested object given whole, compared at a path inside it.
    assert_eq!(
        sr(conv(
            &t,
            trajectory([expected("Lisbon")]).compare_fields("book", ["address.city"])
        ))
        .0,
        Status::Pass
    );
    assert_eq!(
        sr(conv(
            &t,
            trajectory([expected("Porto")]).compare_fields("book", ["address.city"])
        ))
        .0,
        Status::Fail
    );
    // A dot-path argument, compared at that path or at a path containing it.
    let by_path = || tool_call("book").arg("address.city", "Porto");
    assert_eq!(
        sr(conv(
            &t,
            trajectory([by_path()]).compare_fields("book", ["address.city"])
        ))
        .0,
        Status::Fail
    );
    assert_eq!(
        sr(conv(
            &t,
            trajectory([by_path()]).compare_fields("book", ["address"])
        ))
        .0,
        Status::Fail
    );
}

#[test]
fn compare_fields_that_compare_nothing_are_errors() {
    let t = one_turn(Reply::text("").call(call(
        "book",
        json!({"hotel": "H-1", "address": {"city": "Lisbon"}}),
    )));
    let reference = || {
        trajectory([
            tool_call("search"),
            tool_call("book").args(json!({"hotel": "H-1", "address": {"city": "Porto"}})),
        ])
    };
    assert_eq!(
        sr(conv(
            &t,
            reference().compare_fields("book", ["address.zip"])
        )),
        error(
            r#"compared nothing: compare_fields("book", ..): reference call 2 gives no `address.zip`"#
        )
    );
    assert_eq!(
        sr(conv(
            &t,
            reference().compare_fields("book", Vec::<String>::new())
        )),
        error(r#"compared nothing: compare_fields("book", ..) names no field"#)
    );
    assert_eq!(
        sr(conv(&t, reference().compare_fields("bok", ["hotel"]))),
        error(r#"compared nothing: compare_fields("bok", ..): the reference has no call of `bok`"#)
    );
    assert_eq!(
        sr(conv(
            &t,
            reference().args_mode_for("serch", agent_test_runtime::check::ArgsMode::Ignore)
        )),
        error(
            r#"compared nothing: args_mode_for("serch", ..): the reference has no call of `serch`"#
        )
    );
    assert_eq!(
        sr(conv(&t, reference().compare_with("bok", |_, _| true))),
        error(r#"compared nothing: compare_with("bok", ..): the reference has no call of `bok`"#)
    );
}

// ---------------------------------------------------------------------------------------------
// JSON

#[test]
fn json_checks_on_no_body() {
    let t = one_turn(Reply::text("Sure, done."));
    let not_json = "the reply is not valid JSON: expected value at line 1 column 1";
    assert_eq!(
        sr(conv(&t, field("status").is("ok"))),
        fail(&format!("status: {not_json}"))
    );
    assert_eq!(
        sr(conv(&t, field("status").missing())),
        fail(&format!("status: {not_json}"))
    );
    assert_eq!(
        sr(conv(&t, json_path("$.error").not_exists())),
        fail(&format!("$.error: invalid JSON: {not_json}"))
    );
    assert_eq!(
        sr(conv(&t, schema(json!({"type": "object"})))),
        fail(&format!("the response: invalid JSON: {not_json}"))
    );
    assert_eq!(
        sr(conv(&t, field("status").is("ok").in_body())),
        fail("status: the response has no body")
    );
}

#[test]
fn json_checks_compared_with_nothing_are_errors() {
    let t = one_turn(Reply::text("").body(json!({"status": "ok", "items": [{"sku": "A-1"}]})));
    assert_eq!(
        sr(conv(&t, schema(json!({})))),
        error("compared nothing: the schema {} accepts every value")
    );
    assert_eq!(
        sr(conv(&t, schema(json!(true)).at("items"))),
        error("compared nothing: the schema true accepts every value")
    );
    assert_eq!(
        sr(conv(&t, field("status").is(optional(any())))),
        error("compared nothing: optional(any value) accepts every value, a missing one included")
    );
}

#[test]
fn a_jsonpath_filter_with_an_invalid_regex_is_an_error() {
    let t = one_turn(Reply::text("").body(json!({"items": [{"sku": "A-1"}, {"sku": "B-2"}]})));
    for (query, func, re) in [
        ("$.items[?match(@.sku, 'A-[0-9')]", "match", "A-[0-9"),
        ("$.items[?search(@.sku, \"(B\")]", "search", "(B"),
        (
            "$.items[?@.sku == 'x' || !search(@.sku, '[\\'')]",
            "search",
            "['",
        ),
    ] {
        let v = conv(&t, json_path(query).not_exists());
        assert_eq!(v.status, Status::Error, "{query}");
        let head = format!(
            "compared nothing: the regex `{re}` of {func}() in `{query}` is invalid, and RFC 9535 \
             makes {func}() false for it: "
        );
        assert!(v.reason.starts_with(&head), "{query}: {}", v.reason);
        assert_eq!(
            conv(&t, json_path(query).exists()).status,
            Status::Error,
            "{query}"
        );
    }
    // Valid regexes are evaluated; quotes and a `match` key are not function calls.
    assert_eq!(
        conv(&t, json_path("$.items[?match(@.sku, 'A-[0-9]')]").exists()).status,
        Status::Pass
    );
    assert_eq!(
        conv(
            &t,
            json_path("$.items[?@.sku == 'match(x, \"[\")']").not_exists()
        )
        .status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, json_path("$.match").not_exists()).status,
        Status::Pass
    );
}

// ---------------------------------------------------------------------------------------------
// Protocol: status, latency, tokens

#[test]
fn http_status_says_why_there_is_none() {
    let in_process = one_turn(Reply::text("hi"));
    assert_eq!(
        sr(conv(&in_process, http_status(200))),
        error("not measured: turn 1 has no HTTP status (the agent is not reached over HTTP)")
    );
    let chat = one_turn(Reply::text("hi").chat_model("gpt-4o-mini"));
    assert_eq!(
        sr(conv(&chat, http_status(200))),
        error(
            "not measured: turn 1 has no HTTP status (the agent is the chat model `gpt-4o-mini`, \
             whose answers carry no HTTP status of their own: its HTTP requests go to the model \
             endpoint, and one that fails fails the turn)"
        )
    );
    let timed_out = Transcript::new(vec![
        Turn::new(0, "a", Reply::text("ok").http_status(200), 5),
        Turn::failed(1, "b", "timed out after 30s", 30_000),
    ]);
    assert_eq!(
        sr(conv(&timed_out, http_success())),
        error(
            "not measured: turn 2: the agent failed (timed out after 30s), so there is no HTTP status"
        )
    );
}

#[test]
fn latency_not_measured_is_an_error() {
    // A trace or recording without a duration: the turn's latency is unknown, not 0 ms.
    let t = Transcript::new(vec![Turn::recorded(0, "q", Reply::text("answer"))]);
    assert_eq!(t.turns[0].latency_ms, None);
    let why = "not measured: turn 1 has no latency (a recording or trace without a duration)";
    assert_eq!(
        sr(conv(&t, latency().at_most(Duration::from_secs(5)))),
        error(why)
    );
    assert_eq!(
        sr(conv(&t, latency().at_most(Duration::from_secs(5)).total())),
        error(why)
    );
    // Its own figure is a measurement.
    let t = Transcript::new(vec![Turn::recorded(0, "q", Reply::text("").latency_ms(40))]);
    assert_eq!(t.turns[0].latency_ms, Some(40));
    assert_eq!(
        conv(&t, latency().at_most(Duration::from_secs(5))).status,
        Status::Pass
    );
}

#[test]
fn recordings_without_latency_load_as_not_measured() {
    let with: Turn =
        serde_json::from_value(json!({"index": 0, "input": "q", "latency_ms": 20})).unwrap();
    assert_eq!(with.latency_ms, Some(20));
    let without: Turn = serde_json::from_value(json!({"index": 0, "input": "q"})).unwrap();
    assert_eq!(without.latency_ms, None);
    assert!(
        serde_json::to_value(&without)
            .unwrap()
            .get("latency_ms")
            .is_none(),
        "an unmeasured latency is not written as 0"
    );
}

#[test]
fn a_cost_without_prices_usage_or_a_known_model_is_not_measured() {
    let budget = || cost().at_most_usd(0.01);
    let mut t = one_turn(Reply::text("no usage"));
    assert_eq!(
        sr(conv(&t, budget())),
        error(
            "not measured: no price table: set `prices = Prices::from_file(\"prices.json\");` \
             (or `Prices::builtin()`) to give each turn a cost"
        )
    );
    let prices = Prices::new().model("m", 1.0, 2.0).unnamed_as("m");
    prices.apply(&mut t);
    assert_eq!(
        sr(conv(&t, budget())),
        error("not measured: turn 1: the turn reported no token usage")
    );
    // One turn of unknown cost leaves the conversation's cost unknown, not lower.
    let mut t = Transcript::new(vec![
        Turn::new(0, "a", Reply::text("").usage(Usage::new(1000, 100)), 1),
        Turn::new(1, "b", Reply::text("").usage(Usage::new(1000, 100)), 1),
    ]);
    t.turns[1].reply.chat_model = Some("gpt-9".into());
    prices.apply(&mut t);
    assert_eq!(
        sr(conv(&t, budget())),
        error("not measured: turn 2: model `gpt-9` is not in the price table (prices for: `m`)")
    );
    assert_eq!(turn(&t, 0, budget()).status, Status::Pass);
    // A total without input and output apart cannot be priced.
    let mut t = one_turn(Reply::text("").usage(Usage::default().with_total(300)));
    prices.apply(&mut t);
    assert!(
        sr(conv(&t, budget())).1.starts_with(
            "not measured: turn 1: the usage has no input and output token counts apart"
        ),
        "{:?}",
        sr(conv(&t, budget()))
    );
    assert_eq!(
        sr(conv(&t, cost())),
        error("compared nothing: a cost check needs a limit: at_most_usd")
    );
}

#[test]
fn a_cost_over_budget_fails_with_both_amounts_and_one_within_passes() {
    let mut t = Transcript::new(vec![
        Turn::new(0, "a", Reply::text("").usage(Usage::new(10_000, 1_000)), 1),
        Turn::new(1, "b", Reply::text("").usage(Usage::new(20_000, 2_000)), 1),
    ]);
    Prices::builtin().unnamed_as("gpt-4o").apply(&mut t);
    // 30 000 × $2.50/M + 3 000 × $10/M = $0.105 over both turns.
    let v = conv(&t, cost().at_most_usd(0.1));
    assert_eq!(v.reason, "cost budget exceeded: $0.105 > $0.10");
    assert_eq!(v.details.actual, Some(json!({"usd": 0.105})));
    assert_eq!(conv(&t, cost().at_most_usd(0.105)).status, Status::Pass);
    // Per turn: the first turn's own cost, $0.035.
    assert_eq!(turn(&t, 0, cost().at_most_usd(0.035)).status, Status::Pass);
    assert_eq!(
        turn(&t, 1, cost().at_most_usd(0.035)).reason,
        "cost budget exceeded: $0.07 > $0.035"
    );
}

#[test]
fn tokens_without_usage_are_not_measured() {
    let t = one_turn(Reply::text("no usage"));
    assert_eq!(
        sr(conv(&t, tokens().total_at_most(10))),
        error(
            "not measured: no token usage was recorded (none reported by the agent, its body or \
             its AI nodes)"
        )
    );
    // A turn without usage leaves the conversation's count unknown.
    let t = Transcript::new(vec![
        Turn::new(0, "a", Reply::text("").usage(Usage::new(10, 5)), 1),
        Turn::new(1, "b", Reply::text(""), 1),
    ]);
    assert_eq!(
        sr(conv(&t, tokens().total_at_most(1000))),
        error("not measured: turn 2 has no token usage, so the total over the turns is unknown")
    );
    assert_eq!(
        turn(&t, 0, tokens().total_at_most(1000)).status,
        Status::Pass
    );
    assert_eq!(
        sr(conv(&t, tokens())),
        error(
            "compared nothing: a token check needs a limit: total_at_most, input_at_most or \
             output_at_most"
        )
    );
}

// ---------------------------------------------------------------------------------------------
// Sub-agents

#[test]
fn agent_checks_on_no_call_or_no_name() {
    let t = one_turn(Reply::text("From memory."));
    assert_eq!(
        sr(conv(&t, agent_invoked(["research_agent"]))),
        fail("missing required agent invocations: research_agent")
    );
    assert_eq!(
        sr(conv(
            &t,
            agent_response("research_agent").contains("Quantum")
        )),
        fail("no matching agent response found containing expected text")
    );
    assert_eq!(
        sr(conv(&t, agent_not_invoked(["admin_agent"]))).0,
        Status::Pass
    );

    let empty = "compared nothing: the list of agents is empty";
    assert_eq!(
        sr(conv(&t, agent_invoked(Vec::<String>::new()))),
        error(empty)
    );
    assert_eq!(
        sr(conv(&t, agent_not_invoked(Vec::<String>::new()))),
        error(empty)
    );
    assert_eq!(
        sr(conv(&t, agent_not_invoked(["admin_agent", ""]))),
        error("compared nothing: an agent name in the list is empty")
    );
    assert_eq!(
        sr(conv(&t, agent_response("").contains("x"))),
        error("compared nothing: the agent name is empty")
    );
    assert_eq!(
        sr(conv(&t, agent_response("research_agent").contains(""))),
        error("compared nothing: the text to look for is empty")
    );
}

// ---------------------------------------------------------------------------------------------
// Workflow, guardrails

#[test]
fn workflow_checks_without_state_fail() {
    let t = one_turn(Reply::text("ok"));
    for c in [
        state_is("done"),
        transitioned_to("done"),
        workflow_complete(),
    ] {
        assert_eq!(sr(conv(&t, c)), fail("no workflow state was reported"));
    }
}

#[test]
fn workflow_states_without_a_name_are_errors() {
    let t = one_turn(Reply::text("ok").workflow(Workflow::in_state("")));
    for c in [state_is(""), transitioned_to("")] {
        assert_eq!(
            sr(conv(&t, c)),
            error("compared nothing: the state name is empty")
        );
    }
}

#[test]
fn guardrail_checks_without_guardrail_results() {
    let t = one_turn(Reply::text("ok"));
    assert_eq!(
        sr(conv(&t, guardrail_triggered("pii"))),
        fail("guardrail `pii` did not trigger")
    );
    assert_eq!(
        sr(conv(&t, any_guardrail_triggered())),
        fail("no guardrail triggered")
    );
    assert_eq!(
        sr(conv(&t, guardrail_not_triggered("pii"))),
        error("not measured: guardrail `pii` did not run (no result for it was recorded)")
    );
    assert_eq!(
        sr(conv(&t, no_guardrail_triggered())),
        error("not measured: no guardrail ran (no guardrail result was recorded)")
    );
    // A result for another guardrail does not say anything about `pii`.
    let t = one_turn(Reply::text("ok").guardrail(Guardrail::passed("max_length")));
    assert_eq!(
        sr(conv(&t, guardrail_not_triggered("pii"))),
        error("not measured: guardrail `pii` did not run (no result for it was recorded)")
    );
    assert_eq!(sr(conv(&t, no_guardrail_triggered())).0, Status::Pass);
    let t = one_turn(Reply::text("ok").guardrail(Guardrail::passed("pii")));
    assert_eq!(sr(conv(&t, guardrail_not_triggered("pii"))).0, Status::Pass);
    assert_eq!(
        sr(conv(&t, guardrail_triggered(""))),
        error("compared nothing: the guardrail name is empty")
    );
}

// ---------------------------------------------------------------------------------------------
// Judge and custom checks

#[test]
fn judge_checks_without_a_judge_or_criteria_are_errors() {
    let t = one_turn(Reply::text("Hello"));
    let v = conv(&t, judge("is polite"));
    assert_eq!(v.status, Status::Error);
    assert!(v.reason.starts_with("not graded: "), "{}", v.reason);
    assert_eq!(
        sr(conv(&t, judge(""))),
        error("compared nothing: the judge has no criteria")
    );
    assert_eq!(
        sr(conv(&t, judge("is polite").threshold(0.0))),
        error("compared nothing: a threshold of 0 passes every score")
    );
    assert_eq!(
        sr(conv(&t, expected_response(" "))),
        error("compared nothing: the expected response is empty")
    );
}

#[test]
fn custom_checks_see_absence_as_their_code_says() {
    let t = one_turn(Reply::text(""));
    let v = conv(
        &t,
        check("a tool was called", |cx| !cx.tool_calls().is_empty()),
    );
    assert_eq!(sr(v), fail("a tool was called"));
}

// ---------------------------------------------------------------------------------------------
// Matchers: on an absent value each fails (only the absence matchers pass), and none compares
// nothing.

#[test]
fn every_matcher_on_an_absent_argument() {
    let t = pinned(
        vec![("hi", Reply::text("").call(call("t", json!({}))))],
        "2026-11-22T09:30:00Z",
        "UTC",
    );
    let at = |m: agent_test_runtime::matcher::Matcher| {
        let v = conv(&t, tool("t").arg("a", m));
        match v.status {
            Status::Fail => format!("fail: {}", v.details.violations[0].message),
            s => format!("{s}: {}", v.reason),
        }
    };
    let cases: Vec<(agent_test_runtime::matcher::Matcher, &str)> = vec![
        ("x".into_matcher(), r#"a: missing (expected "x")"#),
        (
            exact(json!([1])).unordered().into_matcher(),
            "a: missing (expected [1] (any order))",
        ),
        (expr("CONCAT('a', 'b')"), r#"a: missing (expected "ab")"#),
        (
            contains("x").into_matcher(),
            r#"a: missing (expected text containing "x")"#,
        ),
        (regex("x"), "a: missing (expected a match of /x/)"),
        (
            date("TODAY()").into_matcher(),
            "a: missing (expected \"2026-11-22\")",
        ),
        (
            matches_schema(json!({"type": "string"})),
            r#"a: missing (expected a value valid against {"type":"string"})"#,
        ),
        (any(), "a: missing (expected any value)"),
        (email("a@b.c"), r#"a: missing (expected the email "a@b.c")"#),
        (
            all_of([contains("x").into_matcher()]),
            r#"a: missing (expected text containing "x")"#,
        ),
        (
            any_of(["x".into_matcher()]),
            r#"a: missing (expected one of "x")"#,
        ),
        (not("x".into_matcher()), r#"a: missing (expected not "x")"#),
        (
            free_text("a greeting"),
            r#"a: missing (expected (judged) means "a greeting")"#,
        ),
        (
            date_time("tomorrow"),
            r#"a: missing (expected (judged) a date/time meaning "tomorrow")"#,
        ),
    ];
    for (m, why) in cases {
        let shown = m.describe();
        let got = at(m);
        let got = got
            .split_once(" at conversation position 0: ")
            .map_or(got.clone(), |(_, r)| r.to_owned());
        assert_eq!(got, why, "{shown}");
    }
    // Absence is what these two assert.
    assert_eq!(at(missing()), "pass: ");
    assert_eq!(at(optional("x".into_matcher())), "pass: ");
}

#[test]
fn matchers_that_compare_nothing_are_errors() {
    let t = one_turn(Reply::text("").call(call("t", json!({"a": "anything"}))));
    let at = |m: agent_test_runtime::matcher::Matcher| sr(conv(&t, tool("t").arg("a", m)));
    assert_eq!(
        at(contains("").ignore_case().into_matcher()),
        error(
            r#"compared nothing: contains("") is found in every value (to require only presence, use any())"#
        )
    );
    assert_eq!(
        at(regex("(x)?")),
        error(
            "compared nothing: the regex /(x)?/ matches every value (it matches the empty string)"
        )
    );
    assert_eq!(
        at(matches_schema(json!({}))),
        error("compared nothing: the schema {} accepts every value")
    );
    assert_eq!(
        at(all_of(Vec::<agent_test_runtime::matcher::Matcher>::new())),
        error("compared nothing: all_of([]) has no matcher")
    );
    assert_eq!(
        at(one_of(Vec::<agent_test_runtime::matcher::Matcher>::new())),
        error("compared nothing: one_of([]) has no variant")
    );
    assert_eq!(
        at(optional(any())),
        error("compared nothing: optional(any value) accepts every value, a missing one included")
    );
    assert_eq!(
        at(not(contains("").into_matcher())),
        error(
            r#"compared nothing: contains("") is found in every value (to require only presence, use any())"#
        )
    );
    assert_eq!(
        at(free_text(" ")),
        error("compared nothing: free_text has no description")
    );
    assert_eq!(
        at(date_time("")),
        error("compared nothing: date_time has no description")
    );
}

/// An absence cannot be confirmed over a turn on which the agent failed: it might have called
/// the forbidden tool (or said the forbidden word) there. After the turns, checks that pass on
/// an absence are errors when a turn failed; presences found elsewhere still pass, and
/// absences already broken elsewhere still fail.
#[test]
fn an_absence_is_not_confirmed_over_a_failed_turn() {
    let t = Transcript::new(vec![
        Turn::new(
            0,
            "look it up",
            Reply::text("Found it.").call(call("lookup_order", serde_json::json!({}))),
            5,
        ),
        Turn::failed(1, "refund it", "timed out after 30s", 30_000),
    ]);
    let unconfirmed =
        error("cannot confirm an absence: the agent failed on turn 2: timed out after 30s");
    for check in [
        Check::from(no_tool("process_refund")),
        tool("lookup_order").at_most(1).into(),
        tool("lookup_order").every_call().into(),
        forbidden_tools(["cancel_order"]).into(),
        agent_not_invoked(["billing_agent"]).into(),
        replies().not_contains("sorry").into(),
        conversation().not_matches("(?i)password").into(),
        no_guardrail_triggered().or_not_run().into(),
        trajectory([tool_call("lookup_order")]).strict().into(),
    ] {
        let label = check.describe();
        assert_eq!(sr(conv(&t, check)), unconfirmed, "{label}");
    }
    // What was seen on the turns that ran still decides the rest.
    assert_eq!(
        sr(conv(&t, tool("lookup_order"))),
        (Status::Pass, String::new())
    );
    assert_eq!(
        sr(conv(&t, no_tool("lookup_order"))),
        fail("tool `lookup_order` was called 1 time (expected no call)")
    );
    assert_eq!(
        sr(conv(&t, tool_sequence(["lookup_order"]))),
        (Status::Pass, String::new())
    );
}

// ---------------------------------------------------------------------------------------------
// The checks the seed files exposed: length, JSON in prose, tool errors, whole arguments,
// JSONPath on calls, any tool, chains, JMESPath.

#[test]
fn lengths_need_a_bound_and_a_reply() {
    let t = one_turn(Reply::text("Hello"));
    assert_eq!(
        sr(conv(&t, reply().length().at_least(0))),
        error("compared nothing: at least 0 characters is always true")
    );
    assert_eq!(
        sr(conv(&t, reply().length().between(9, 2))),
        error(
            "impossible constraint: a length between 9 and 2 can never be: the minimum is \
             greater than the maximum"
        )
    );
    // An empty reply is a length to compare; a failed final turn has none.
    assert_eq!(
        sr(conv(
            &one_turn(Reply::text("")),
            reply().length().at_least(1)
        )),
        fail("reply has 0 characters (expected at least 1 character)")
    );
    let failed = Transcript::new(vec![Turn::failed(0, "a", "timed out after 30s", 30_000)]);
    assert_eq!(
        sr(conv(&failed, reply().length().at_most(10))),
        error("not evaluated: the agent failed on turn 1: timed out after 30s")
    );
}

#[test]
fn json_in_prose_without_json_fails() {
    let t = one_turn(Reply::text("Your order {number} shipped."));
    assert_eq!(
        sr(conv(&t, field("status").missing().in_text())),
        fail("status: the reply has no JSON object or array")
    );
    assert_eq!(
        sr(conv(&t, jmespath("status").exists().in_text())),
        fail("`status`: invalid JSON: the reply has no JSON object or array")
    );
    assert_eq!(
        sr(conv(&t, jmespath("status").exists())),
        fail(
            "`status`: invalid JSON: the reply is not valid JSON: expected value at line 1 column 1"
        )
    );
}

#[test]
fn tool_errors_and_chains_on_no_call_or_no_name() {
    let t = one_turn(Reply::text("Done."));
    // An absence, and something ran: it passes; over a failed turn it cannot be confirmed.
    assert_eq!(sr(conv(&t, no_tool_errors())).0, Status::Pass);
    let failed = Transcript::new(vec![
        Turn::new(0, "a", Reply::text("ok"), 5),
        Turn::failed(1, "b", "timed out after 30s", 30_000),
    ]);
    assert_eq!(
        sr(conv(&failed, no_tool_errors())),
        error("cannot confirm an absence: the agent failed on turn 2: timed out after 30s")
    );
    assert_eq!(
        sr(conv(&t, no_tool_errors().of_tools(["pay", ""]))),
        error("compared nothing: a tool name in the list is empty")
    );
    assert_eq!(
        sr(conv(&t, tool_chain([tool("search"), tool("book")]))),
        fail("tool chain incomplete: 0 of 2 steps satisfied, no call of `search`")
    );
    assert_eq!(
        sr(conv(&t, tool_chain(Vec::new()))),
        error("compared nothing: the tool chain is empty")
    );
    assert_eq!(
        sr(conv(&t, tool_chain([tool("")]))),
        error("tool chain step 1: compared nothing: the tool name is empty")
    );
    assert_eq!(sr(conv(&t, any_tool())), fail("no tool was called"));
    assert_eq!(
        sr(conv(&t, tool("search").arguments(any()))),
        fail("tool `search` was not called")
    );
}

#[test]
fn constraints_on_calls_that_compare_nothing_are_errors() {
    let t = one_turn(Reply::text("").call(call("t", json!({"a": 1}))));
    assert_eq!(
        sr(conv(&t, tool("t").arguments(contains("")))),
        error(
            r#"compared nothing: contains("") is found in every value (to require only presence, use any())"#
        )
    );
    let v = conv(&t, tool("t").arg_json_path("$[?match(@, '[')]", missing()));
    assert_eq!(v.status, Status::Error);
    assert!(
        v.reason.starts_with("compared nothing: the regex `[`"),
        "{}",
        v.reason
    );
    assert_eq!(
        sr(conv(&t, jmespath("a").is(optional(any())))),
        error("compared nothing: optional(any value) accepts every value, a missing one included")
    );
}
