//! Bad agents: errors, panics, timeouts, empty and huge replies. Each becomes a reported
//! failure of its turn while every other check is still evaluated.

use std::time::Duration;

use agent_test::check::Status;
use agent_test::prelude::*;
use agent_test::{ScenarioRun, Suite};

use crate::agents::flaky_agent;

async fn run_with(
    inputs: &[&str],
    checks: Vec<agent_test::check::Expectation>,
) -> agent_test::report::Report {
    let suite = Suite::new()
        .agent(flaky_agent())
        .timeout(Duration::from_millis(100));
    let mut run = ScenarioRun::new(suite, "robustness");
    for input in inputs {
        run.user(*input).await;
        run.expect_turn(reply().contains("ok"));
    }
    for c in checks {
        run.expect(c);
    }
    run.report().await
}

#[tokio::test]
async fn an_agent_error_is_recorded_and_the_run_goes_on() {
    let report = run_with(
        &["a", "fail", "b"],
        vec![replies().contains("ok: a").into_expectation()],
    )
    .await;
    assert!(!report.passed());
    let statuses: Vec<(String, Status)> = report
        .verdicts
        .iter()
        .map(|v| (v.reason.clone(), v.status))
        .collect();
    assert_eq!(
        statuses,
        [
            (
                "the agent failed: upstream returned garbage".to_owned(),
                Status::Error
            ),
            (String::new(), Status::Pass),
            (
                "not evaluated: the agent failed on turn 2: upstream returned garbage".to_owned(),
                Status::Error
            ),
            (String::new(), Status::Pass),
            (String::new(), Status::Pass),
        ]
    );
    assert_eq!(report.transcript.turns.len(), 3, "turn 3 still ran");
    assert!(
        report
            .to_string()
            .contains("error  upstream returned garbage")
    );
}

#[tokio::test]
async fn a_panicking_agent_is_an_error_not_a_crash() {
    let report = run_with(&["panic", "b"], vec![]).await;
    assert_eq!(
        report.verdicts[0].reason,
        "the agent failed: the agent panicked: agent bug: index out of bounds"
    );
    assert_eq!(report.verdicts[2].status, Status::Pass, "the next turn ran");
}

#[tokio::test]
async fn a_slow_agent_times_out() {
    let report = run_with(&["hang", "b"], vec![]).await;
    assert_eq!(
        report.verdicts[0].reason,
        "the agent failed: timed out after 100ms"
    );
    assert!(
        report.transcript.turns[0]
            .latency_ms
            .is_some_and(|ms| ms >= 100)
    );
    assert_eq!(report.summary.passed, 1);
}

#[tokio::test]
async fn empty_and_huge_replies_are_checked_like_any_other() {
    let report = run_with(
        &["empty", "huge"],
        vec![reply().contains("word word").into_expectation()],
    )
    .await;
    assert_eq!(report.verdicts[0].status, Status::Fail);
    assert_eq!(report.verdicts[0].details.actual, Some(json!("")));
    assert_eq!(report.verdicts[2].status, Status::Pass);
    let text = report.to_string();
    assert!(text.contains("(empty reply)"));
    assert!(
        text.contains("more bytes)"),
        "huge replies are truncated in the text report"
    );
    assert!(
        text.len() < 20_000,
        "text report stays readable: {} bytes",
        text.len()
    );
}

#[tokio::test]
async fn no_agent_configured_is_reported() {
    let mut run = ScenarioRun::new(Suite::new(), "no_agent");
    run.user("hi").await;
    let report = run.report().await;
    assert_eq!(
        report.verdicts[0].reason,
        "the agent failed: no agent configured: set `agent = ...;` in agent_test!, or call Suite::agent"
    );
}

#[tokio::test]
async fn unrepresentable_context_is_a_setup_error() {
    let mut bad = std::collections::HashMap::new();
    bad.insert(vec![1u8], 1);
    let mut run = ScenarioRun::new(Suite::new().agent(flaky_agent()), "bad_context");
    run.context("MAP", bad);
    run.user("a").await;
    let report = run.report().await;
    assert_eq!(report.verdicts[0].check, "setup");
    assert!(
        report.verdicts[0]
            .reason
            .starts_with("context variable `MAP` is not representable as JSON")
    );
    assert!(!report.passed());
}

agent_test! {
    agent = flaky_agent();
    timeout = Duration::from_millis(50);

    #[should_panic(expected = "! turn 1  agent answered\n            error: the agent failed: timed out after 50ms")]
    scenario timeouts_fail_the_test {
        user "hang";
    }
}
