//! `no_repeated_calls()`: no tool called again with the same arguments. Passing, failing with
//! each repeat named, limited to some tools or to a number of tries, and never a pass on an
//! observation that could hide a repeat.

use agent_test_runtime::check::Status;
use agent_test_runtime::model::{
    Call, Gap, Part, Reply, SpanReading, Transcript, Turn, UnreadSpans,
};
use agent_test_runtime::prelude::*;

use super::{conv, one_turn, turn};

fn looping() -> Transcript {
    one_turn(
        Reply::text("Still looking.")
            .call(Call::tool(
                "search",
                json!({"q": "Madrid", "filters": {"stars": 4, "pool": true}}),
            ))
            .call(Call::tool("book", json!({"hotel": "H1"})))
            .call(Call::tool(
                "search",
                json!({"filters": {"pool": true, "stars": 4.0}, "q": "Madrid"}),
            ))
            .call(Call::tool(
                "search",
                json!({"q": "Madrid", "filters": {"stars": 4, "pool": true}}),
            )),
    )
}

#[test]
fn distinct_calls_pass_and_a_repeat_fails_naming_every_position() {
    let distinct = one_turn(
        Reply::text("")
            .call(Call::tool("search", json!({"q": "Madrid"})))
            .call(Call::tool("search", json!({"q": "Paris"})))
            .call(Call::tool("book", json!({"q": "Madrid"}))),
    );
    assert_eq!(conv(&distinct, no_repeated_calls()).status, Status::Pass);
    // Turns without any call: nothing repeated.
    assert_eq!(
        conv(&one_turn(Reply::text("hi")), no_repeated_calls()).status,
        Status::Pass
    );

    let v = conv(&looping(), no_repeated_calls());
    assert_eq!(v.status, Status::Fail);
    assert_eq!(v.reason, "1 call repeated: search");
    assert_eq!(
        v.details.violations[0].message,
        r#"`search` called 3 times with the same arguments {"filters":{"pool":true,"stars":4},"q":"Madrid"} (at most 1), at conversation positions 0, 2 and 3"#
    );
    assert_eq!(
        v.details.violations[0].evidence.as_ref().unwrap()["positions"],
        json!([0, 2, 3])
    );
    assert_eq!(
        v.details.actual,
        Some(
            json!([{"tool": "search", "arguments": {"q": "Madrid", "filters": {"stars": 4, "pool": true}}, "times": 3}])
        )
    );
    // In a turn, positions are the turn's.
    let v = turn(&looping(), 0, no_repeated_calls());
    assert!(
        v.details.violations[0]
            .message
            .ends_with("at positions 0, 2 and 3"),
        "{}",
        v.details.violations[0].message
    );
}

#[test]
fn at_most_and_of_tools_narrow_it() {
    assert_eq!(
        conv(&looping(), no_repeated_calls().at_most(3)).status,
        Status::Pass
    );
    let v = conv(&looping(), no_repeated_calls().at_most(2));
    assert_eq!(v.status, Status::Fail);
    assert!(
        v.details.violations[0]
            .message
            .contains("called 3 times with the same arguments")
    );
    assert!(v.details.violations[0].message.contains("(at most 2)"));
    assert_eq!(
        conv(&looping(), no_repeated_calls().of_tools(["book"])).status,
        Status::Pass
    );
    assert_eq!(
        conv(&looping(), no_repeated_calls().of_tools(["search"])).status,
        Status::Fail
    );
    // A retry of a failed call with the same arguments is the same input again.
    let retried = one_turn(
        Reply::text("")
            .call(Call::tool("pay", json!({"amount": 10})).failed(json!("timeout")))
            .call(Call::tool("pay", json!({"amount": 10}))),
    );
    assert_eq!(conv(&retried, no_repeated_calls()).status, Status::Fail);
    assert_eq!(
        conv(&retried, no_repeated_calls().at_most(2)).status,
        Status::Pass
    );
}

#[test]
fn impossible_or_empty_constraints_are_errors() {
    let v = conv(&looping(), no_repeated_calls().at_most(0));
    assert_eq!(v.status, Status::Error);
    assert_eq!(
        v.reason,
        "impossible constraint: at_most(0) can never pass once a tool is called: write no_tools() or no_tool(..)"
    );
    let v = conv(&looping(), no_repeated_calls().of_tools([""]));
    assert_eq!(
        (v.status, v.reason.as_str()),
        (
            Status::Error,
            "compared nothing: a tool name in the list is empty"
        )
    );
}

/// The pass rests on no repeat having happened: over a failed turn, arguments read in part,
/// or spans that may be calls nobody saw, it is not confirmed; a repeat seen still fails.
#[test]
fn an_incomplete_observation_is_never_a_pass() {
    let failed = Transcript::new(vec![
        Turn::new(
            0,
            "find",
            Reply::text("").call(Call::tool("search", json!({"q": "x"}))),
            1,
        ),
        Turn::failed(1, "again", "upstream 503", 1),
    ]);
    let v = conv(&failed, no_repeated_calls());
    assert_eq!(v.status, Status::Error);
    assert!(
        v.reason.starts_with("cannot confirm an absence"),
        "{}",
        v.reason
    );

    let cut = one_turn(
        Reply::text("")
            .call(Call::tool("search", json!({"q": "x"})))
            .gap(Gap::new(Part::Arguments, "arguments cut at 1 MiB")),
    );
    let v = conv(&cut, no_repeated_calls());
    assert_eq!(v.status, Status::Error, "{}", v.reason);
    assert!(v.reason.contains("arguments cut at 1 MiB"), "{}", v.reason);

    let unread = |reply: Reply| {
        let mut reply = reply;
        let mut reading = SpanReading::new(3);
        reading.unread.push(UnreadSpans::new(
            "Function: search",
            1,
            Some("its name says `function`".into()),
        ));
        reply.spans = Some(reading);
        one_turn(reply)
    };
    let v = conv(
        &unread(Reply::text("").call(Call::tool("search", json!({"q": "x"})))),
        no_repeated_calls(),
    );
    assert_eq!(v.status, Status::Error);
    assert!(
        v.reason
            .starts_with("not measured: on turn 1, 1 span was not read and may be a call"),
        "{}",
        v.reason
    );
    // A repeat seen is a repeat whatever the unread spans held.
    let seen = unread(
        Reply::text("")
            .call(Call::tool("search", json!({"q": "x"})))
            .call(Call::tool("search", json!({"q": "x"}))),
    );
    assert_eq!(conv(&seen, no_repeated_calls()).status, Status::Fail);
}

#[test]
fn its_data_form_loads_and_refuses_unknown_fields() {
    use agent_test_runtime::check::Check;
    let c: Check = serde_json::from_value(
        json!({"type": "no_repeated_calls", "tools": ["pay"], "at_most": 2}),
    )
    .unwrap();
    assert_eq!(
        c.describe(),
        "no call of pay more than 2 times with the same arguments"
    );
    assert_eq!(
        serde_json::to_value(Check::from(no_repeated_calls())).unwrap(),
        json!({"type": "no_repeated_calls"})
    );
    let err = serde_json::from_value::<Check>(json!({"type": "no_repeated_calls", "max": 2}))
        .unwrap_err();
    assert!(err.to_string().contains("unknown field `max`"), "{err}");
    // A count from data is a whole number of calls: negative, fractional or huge is refused.
    for bad in [json!(-1), json!(1.5), json!(1e300), json!("2")] {
        let read =
            serde_json::from_value::<Check>(json!({"type": "no_repeated_calls", "at_most": bad}));
        assert!(read.is_err(), "{bad} was read");
    }
}
