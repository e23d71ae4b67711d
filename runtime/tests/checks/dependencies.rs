use agent_test_runtime::check::Scope;
use agent_test_runtime::check::{Severity, Status};
use agent_test_runtime::evaluate;
use agent_test_runtime::model::{Reply, Transcript, Turn};
use agent_test_runtime::prelude::*;
use agent_test_runtime::scenario::Scenario;
use serde_json::json;

use super::{one_turn, tool_call};

#[test]
fn a_dependent_of_a_failed_check_is_skipped_not_failed() {
    let t = one_turn(
        Reply::text("Here are some hotels")
            .call(tool_call("search_hotels", json!({"city": "Madrid"}))),
    );
    let v = evaluate(
        &t,
        &[
            tool("search_hotels")
                .arg("city", "Madrid")
                .id("search_called"),
            reply()
                .matches("hotel|accommodation")
                .depends_on("search_called"),
            tool("http_status_ok").id("status_ok"),
            reply().contains("data").depends_on("status_ok"),
            reply().contains("x").depends_on("dependent_of_failed"),
        ],
    );
    assert_eq!(v[0].status, Status::Pass);
    assert_eq!(
        v[1].status,
        Status::Pass,
        "dependency passed, so the check runs"
    );
    assert_eq!(v[2].status, Status::Fail);
    assert_eq!(v[3].status, Status::Skipped);
    assert_eq!(v[3].reason, "skipped: depends on `status_ok`, which failed");
    assert_eq!(v[4].status, Status::Error);
    assert_eq!(v[4].reason, "depends on unknown id `dependent_of_failed`");
}

#[test]
fn skips_propagate_and_forward_references_work() {
    let t = one_turn(Reply::text("x"));
    let v = evaluate(
        &t,
        &[
            reply().contains("z").depends_on("b").id("c"),
            reply().contains("y").depends_on("a").id("b"),
            tool("nope").id("a"),
        ],
    );
    assert_eq!(v[2].status, Status::Fail);
    assert_eq!(v[1].reason, "skipped: depends on `a`, which failed");
    assert_eq!(v[0].reason, "skipped: depends on `b`, which was skipped");
}

#[test]
fn cycles_and_duplicates_are_errors() {
    let t = one_turn(Reply::text("x"));
    let v = evaluate(
        &t,
        &[
            reply().contains("x").id("a").depends_on("b"),
            reply().contains("x").id("b").depends_on("a"),
            reply().contains("x").id("a"),
        ],
    );
    assert_eq!(v[0].status, Status::Skipped, "{:?}", v[0]);
    assert_eq!(v[1].reason, "dependency cycle through `a`");
    assert_eq!(
        v[2].reason,
        "duplicate id `a`: another check already uses it"
    );
}

#[test]
fn depends_on_several_checks() {
    let t = one_turn(Reply::text("x"));
    let v = evaluate(
        &t,
        &[
            reply().contains("x").id("a"),
            reply().contains("q").id("b"),
            reply().contains("x").depends_on("a").depends_on("b"),
        ],
    );
    assert_eq!(v[2].reason, "skipped: depends on `b`, which failed");
}

#[test]
fn warnings_do_not_fail_the_test() {
    let t = one_turn(Reply::text("x"));
    let v = evaluate(
        &t,
        &[
            reply().contains("y").warning(),
            reply().contains("x").severity(Severity::Warning),
        ],
    );
    assert_eq!(v[0].status, Status::Fail);
    assert_eq!(v[0].severity, Severity::Warning);
    assert!(!v[0].fails_test());
    assert!(!v[1].fails_test());
    let v = evaluate(&t, &[reply().contains("y").into_expectation()]);
    assert!(v[0].fails_test());
}

#[test]
fn checks_on_a_failed_turn_are_errors_and_the_failure_is_reported() {
    let t = Transcript::new(vec![
        Turn::new(0, "a", Reply::text("fine"), 1),
        Turn::failed(1, "b", "connection refused", 2),
    ]);
    let mut on_failed = reply().contains("x").into_expectation();
    on_failed.scope = Scope::Turn(1);
    let v = evaluate(
        &t,
        &[on_failed, reply().contains("fine").into_expectation()],
    );
    assert_eq!(v[0].status, Status::Error);
    assert_eq!(
        v[0].reason,
        "not evaluated: the agent failed on turn 2: connection refused"
    );
    // After the turns the final reply is the failed turn's: there is none to check.
    assert_eq!(
        (v[1].status, v[1].reason.as_str()),
        (
            Status::Error,
            "not evaluated: the agent failed on turn 2: connection refused"
        )
    );
    // A scenario's report says the agent failed even when no check looks at that turn.
    let report = Scenario::new("s")
        .user("a")
        .user("b")
        .expect_turn(reply().contains("x"))
        .evaluate(&t);
    let f: Vec<_> = report
        .verdicts
        .iter()
        .filter(|v| v.check == "agent")
        .collect();
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].reason, "the agent failed: connection refused");
    assert_eq!(f[0].scope, Scope::Turn(1));
}

#[test]
fn labels_default_to_the_description() {
    let t = one_turn(Reply::text("x"));
    let v = evaluate(
        &t,
        &[
            tool("a").arg("b", 1).into_expectation(),
            tool("a").label("custom label"),
        ],
    );
    assert_eq!(v[0].label, "tool `a` called with b = 1");
    assert_eq!(v[1].label, "custom label");
    assert_eq!(v[0].check, "tool");
}

/// A chain of 20,000 `depends_on` (a scenario file can hold one) is evaluated without
/// recursion: on a small stack, no overflow, and every verdict is what the chain implies.
#[test]
fn long_dependency_chains_do_not_exhaust_the_stack() {
    let verdicts = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let n = 20_000;
            let t = one_turn(Reply::text("done"));
            // c0 depends on c1, …, the last one fails: every other check is skipped.
            let mut checks: Vec<_> = (0..n)
                .map(|i| {
                    reply()
                        .contains("done")
                        .id(format!("c{i}"))
                        .depends_on(format!("c{}", i + 1))
                        .into_expectation()
                })
                .collect();
            checks.push(
                reply()
                    .contains("nope")
                    .id(format!("c{n}"))
                    .into_expectation(),
            );
            // A cycle at the end of a long chain: d0 → d1 → … → d999 → d0.
            for i in 0..1000 {
                checks.push(
                    reply()
                        .contains("done")
                        .id(format!("d{i}"))
                        .depends_on(format!("d{}", (i + 1) % 1000))
                        .into_expectation(),
                );
            }
            evaluate(&t, &checks)
                .into_iter()
                .map(|v| (v.status, v.reason))
                .collect::<Vec<_>>()
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(
        verdicts[0],
        (
            Status::Skipped,
            "skipped: depends on `c1`, which was skipped".to_owned()
        )
    );
    assert_eq!(
        verdicts[19_999],
        (
            Status::Skipped,
            "skipped: depends on `c20000`, which failed".to_owned()
        )
    );
    assert_eq!(verdicts[20_000].0, Status::Fail);
    // As before: the check that closes the cycle reports it, the others are skipped.
    assert_eq!(
        verdicts[20_001 + 999],
        (Status::Error, "dependency cycle through `d0`".to_owned())
    );
    assert_eq!(
        verdicts[20_001],
        (
            Status::Skipped,
            "skipped: depends on `d1`, which was skipped".to_owned()
        )
    );
}
