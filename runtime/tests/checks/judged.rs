//! Judge checks and semantic matchers evaluated without a judge run (plain `evaluate`): never
//! a pass. Graded runs are tested against a local judge server in `tests/wire/judge.rs`.

use agent_test_runtime::check::Status;
use agent_test_runtime::model::{Call, Reply};
use agent_test_runtime::prelude::*;

use super::{conv, one_turn};

#[test]
fn judge_checks_without_a_judge_run_are_errors() {
    let t = one_turn(Reply::text("Hello!"));
    let v = conv(&t, judge("is friendly"));
    assert_eq!(v.status, Status::Error);
    assert!(
        v.reason
            .starts_with("not graded: judge checks are graded when a scenario runs"),
        "{}",
        v.reason
    );
    let v = conv(&t, judge("is friendly").threshold(1.5));
    assert_eq!(
        (v.status, v.reason.as_str()),
        (
            Status::Error,
            "impossible constraint: threshold 1.5 is outside 0..=1: a judge score goes from 0 \
             (not at all) to 1 (fully)"
        )
    );
}

#[test]
fn semantic_matchers_without_a_judge_run_are_errors_and_missing_values_fail() {
    let t = one_turn(Reply::text("ok").call(Call::tool("book", json!({"city": "Lisboa"}))));
    let v = conv(&t, tool("book").arg("city", free_text("Lisbon")));
    assert_eq!(v.status, Status::Error);
    let v = conv(&t, tool("book").arg("date", date_time("tomorrow")));
    assert_eq!(v.status, Status::Fail);
    assert!(
        v.details.violations[0]
            .message
            .contains("date: missing (expected (judged) a date/time meaning \"tomorrow\")"),
        "{:?}",
        v.details
    );
}

#[test]
fn descriptions_name_what_is_judged() {
    assert_eq!(
        judge("is concise").on_transcript().describe(),
        "judge \"is concise\" on conversation (score ≥ 0.8)"
    );
    assert_eq!(
        judge("grounded").hallucination().describe(),
        "judge (hallucination) \"grounded\" (score ≥ 0.8)"
    );
}
