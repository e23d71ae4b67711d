//! Trajectory comparison in every mode, with argument modes and overrides.

use agent_test_runtime::check::{ArgsMode, Status};
use agent_test_runtime::model::Call;
use agent_test_runtime::model::Reply;
use agent_test_runtime::prelude::*;

use super::{conv, one_turn, tool_call as call};

fn run(calls: &[(&str, serde_json::Value)]) -> agent_test_runtime::model::Transcript {
    one_turn(
        calls
            .iter()
            .fold(Reply::text(""), |r, (n, a)| r.call(call(n, a.clone()))),
    )
}

#[test]
fn greedy_first_fit_would_fail_here() {
    // The permissive reference call must not take the only call the strict one accepts.
    let t = run(&[
        ("search", json!({"q": "laptop"})),
        ("search", json!({"q": "mouse"})),
    ]);
    let reference = || {
        [
            tool_call("search").arg("q", any()),
            tool_call("search").arg("q", "laptop"),
        ]
    };
    for c in [
        trajectory(reference()).unordered(),
        trajectory(reference()).superset(),
        trajectory(reference()).subset(),
    ] {
        assert_eq!(conv(&t, c).status, Status::Pass);
    }
}

#[test]
fn modes() {
    let t = run(&[
        ("lookup", json!({"id": 1})),
        ("log", json!({})),
        ("refund", json!({"id": 1})),
    ]);
    let lookup = || tool_call("lookup").arg("id", 1);
    let refund = || tool_call("refund").arg("id", 1);
    // Subsequence (default): in order, gaps allowed.
    assert_eq!(
        conv(&t, trajectory([lookup(), refund()])).status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, trajectory([refund(), lookup()])).status,
        Status::Fail
    );
    // Strict: exactly, in order.
    assert_eq!(
        conv(
            &t,
            trajectory([lookup(), tool_call("log"), refund()]).strict()
        )
        .status,
        Status::Pass
    );
    let v = conv(&t, trajectory([lookup(), refund()]).strict());
    assert_eq!(v.status, Status::Fail);
    assert_eq!(
        v.reason,
        "the trajectory does not match (2 expected, 3 made: lookup → log → refund)"
    );
    // Unordered: same multiset.
    assert_eq!(
        conv(
            &t,
            trajectory([refund(), tool_call("log"), lookup()]).unordered()
        )
        .status,
        Status::Pass
    );
    let v = conv(&t, trajectory([refund(), lookup()]).unordered());
    assert_eq!(v.details.violations[0].kind, "unexpected_call");
    assert_eq!(
        v.details.violations[0].message,
        "`log` at conversation position 1 is not in the reference"
    );
    // Superset: reference ⊆ actual.
    assert_eq!(
        conv(&t, trajectory([refund(), lookup()]).superset()).status,
        Status::Pass
    );
    let v = conv(&t, trajectory([refund(), tool_call("cancel")]).superset());
    assert_eq!(v.details.violations[0].kind, "missing_call");
    assert_eq!(
        v.details.violations[0].message,
        "expected call 2 cancel(): no such call"
    );
    // Subset: actual ⊆ reference.
    assert_eq!(
        conv(
            &t,
            trajectory([lookup(), tool_call("log"), refund(), tool_call("notify")]).subset()
        )
        .status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, trajectory([lookup(), refund()]).subset()).status,
        Status::Fail
    );
}

#[test]
fn argument_modes_and_overrides() {
    let t = run(&[(
        "book",
        json!({"hotel": "H-1", "note": "late arrival", "guests": 2}),
    )]);
    let expected = || tool_call("book").args(json!({"hotel": "H-1", "guests": 2}));
    assert_eq!(
        conv(&t, trajectory([expected()])).status,
        Status::Pass,
        "superset by default: extra args allowed"
    );
    assert_eq!(
        conv(&t, trajectory([expected()]).args_mode(ArgsMode::Exact)).status,
        Status::Fail
    );
    assert_eq!(
        conv(
            &t,
            trajectory([expected().arg("note", any())]).args_mode(ArgsMode::Exact)
        )
        .status,
        Status::Pass
    );
    assert_eq!(
        conv(
            &t,
            trajectory([tool_call("book")
                .args(json!({"hotel": "H-1", "note": "x", "guests": 2, "vip": true}))])
            .args_mode(ArgsMode::Subset)
        )
        .status,
        Status::Fail,
        "note differs"
    );
    assert_eq!(
        conv(
            &t,
            trajectory([tool_call("book")
                .args(json!({"hotel": "H-1", "note": "late arrival", "guests": 2, "vip": true}))])
            .args_mode(ArgsMode::Subset)
        )
        .status,
        Status::Pass
    );
    assert_eq!(
        conv(
            &t,
            trajectory([tool_call("book").arg("hotel", "H-9")]).args_mode(ArgsMode::Ignore)
        )
        .status,
        Status::Pass
    );
    // Per-tool overrides.
    let wrong_guests = || tool_call("book").args(json!({"hotel": "H-1", "guests": 3}));
    assert_eq!(conv(&t, trajectory([wrong_guests()])).status, Status::Fail);
    assert_eq!(
        conv(
            &t,
            trajectory([wrong_guests()]).compare_fields("book", ["hotel"])
        )
        .status,
        Status::Pass
    );
    assert_eq!(
        conv(
            &t,
            trajectory([wrong_guests()]).args_mode_for("book", ArgsMode::Ignore)
        )
        .status,
        Status::Pass
    );
    let close_enough =
        trajectory([wrong_guests()]).compare_with("book", |e, a| e["hotel"] == a["hotel"]);
    assert_eq!(conv(&t, close_enough).status, Status::Pass);
}

#[test]
fn succeeded_leaves_failed_calls_out() {
    let t = one_turn(
        Reply::text("")
            .call(Call::tool("pay", json!({})).failed(json!("declined")))
            .call(Call::tool("pay", json!({})).result(json!("ok"))),
    );
    assert_eq!(
        conv(&t, trajectory([tool_call("pay")]).strict()).status,
        Status::Fail
    );
    assert_eq!(
        conv(&t, trajectory([tool_call("pay")]).strict().succeeded()).status,
        Status::Pass
    );
}

/// agentevals' own cases (`python/tests/test_trajectory.py`), with the actual run as OpenAI
/// messages: one assistant message is one model step.
fn one_message(calls: serde_json::Value) -> agent_test_runtime::model::Transcript {
    let tool_calls: Vec<serde_json::Value> = calls
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, c)| {
            json!({"id": format!("call_{i}"), "type": "function",
                   "function": {"name": c["name"], "arguments": c["args"].to_string()}})
        })
        .collect();
    agent_test_runtime::trace::parse(
        &json!([
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": "", "tool_calls": tool_calls},
        ]),
        None,
    )
    .unwrap()
}

#[test]
fn strict_parallel_calls_of_one_tool_match_in_any_order_within_their_step() {
    // `test_trajectory_with_different_tool_message_order`: strict gives True.
    let t = one_message(json!([
        {"name": "get_weather", "args": {"city": "SF"}},
        {"name": "get_weather", "args": {"city": "London"}}
    ]));
    let reference = trajectory([
        tool_call("get_weather").arg("city", "London"),
        tool_call("get_weather").arg("city", "SF").parallel(),
    ]);
    assert_eq!(conv(&t, reference.strict()).status, Status::Pass);
    // Without `.parallel()` the reference has two steps, the run one: not the same trajectory.
    let two_steps = trajectory([
        tool_call("get_weather").arg("city", "London"),
        tool_call("get_weather").arg("city", "SF"),
    ]);
    assert_eq!(conv(&t, two_steps.strict()).status, Status::Fail);
}

#[test]
fn nested_field_overrides_pair_same_name_calls_of_one_step() {
    // `test_trajectory_match_with_nested_field_overrides`: two `lookup_policy` calls in one
    // message, compared on `time.start` only.
    let t = one_message(json!([
        {"name": "lookup_policy", "args": {"query": "flight upgrades", "time": {"start": "2025-03-22T18:34:40Z"}}},
        {"name": "lookup_policy", "args": {"query": "first class", "time": {"start": "2025-03-22T18:34:40Z"}}}
    ]));
    let reference = || {
        trajectory([
            tool_call("lookup_policy")
                .args(json!({"query": "foo", "time": {"start": "2025-03-22T18:34:40Z", "end": "baz"}})),
            tool_call("lookup_policy")
                .args(json!({"query": "bar", "time": {"start": "2025-03-22T18:34:40Z", "end": "baz"}}))
                .parallel(),
        ])
    };
    for c in [
        reference().strict(),
        reference().unordered(),
        reference().superset(),
        reference().subset(),
    ] {
        assert_eq!(
            conv(&t, c.clone()).status,
            Status::Fail,
            "without overrides"
        );
        let c = c.compare_fields("lookup_policy", ["time.start"]);
        assert_eq!(conv(&t, c).status, Status::Pass, "with the override");
    }
}

#[test]
fn parallel_calls_keep_their_step_in_every_message_format() {
    // The same swapped pair, from LangChain, Anthropic and Responses API runs: each format
    // says which calls one model response made.
    let reference = trajectory([
        tool_call("get_weather").arg("city", "London"),
        tool_call("get_weather").arg("city", "SF").parallel(),
    ])
    .strict();
    let runs = [
        json!([
            {"type": "human", "content": "q"},
            {"type": "ai", "content": "", "tool_calls": [
                {"name": "get_weather", "args": {"city": "SF"}, "id": "1"},
                {"name": "get_weather", "args": {"city": "London"}, "id": "2"}]}
        ]),
        json!([
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "1", "name": "get_weather", "input": {"city": "SF"}},
                {"type": "tool_use", "id": "2", "name": "get_weather", "input": {"city": "London"}}]}
        ]),
        json!({"object": "response", "output": [
            {"type": "function_call", "call_id": "1", "name": "get_weather", "arguments": "{\"city\":\"SF\"}"},
            {"type": "function_call", "call_id": "2", "name": "get_weather", "arguments": "{\"city\":\"London\"}"}]}),
    ];
    for run in runs {
        let t = agent_test_runtime::trace::parse(&run, None).unwrap();
        assert_eq!(conv(&t, reference.clone()).status, Status::Pass, "{run}");
    }
}
