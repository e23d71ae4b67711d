//! HTTP status, latency and token budgets.

use agent_test_runtime::agent::ReplayAgent;
use agent_test_runtime::check::Status;
use agent_test_runtime::model::Call;
use agent_test_runtime::model::{Reply, Transcript, Turn, Usage};
use agent_test_runtime::prelude::*;
use agent_test_runtime::{ScenarioRun, Suite};
use std::time::Duration;

use super::{conv, one_turn, turn};

#[test]
fn http_status_per_turn_and_conversation() {
    let t = Transcript::new(vec![
        Turn::new(0, "a", Reply::text("").http_status(200), 1),
        Turn::new(1, "b", Reply::text("").http_status(500), 1),
    ]);
    assert_eq!(turn(&t, 0, http_status(200)).status, Status::Pass);
    assert_eq!(
        turn(&t, 1, http_success()).reason,
        "HTTP status 500 on turn 2 (expected 2xx)"
    );
    let v = conv(&t, http_status(200));
    assert_eq!(v.reason, "HTTP status 500 on turn 2 (expected 200)");
    assert_eq!(v.details.violations[0].turn_index, Some(1));
    // Below the expected status is outside it too.
    assert_eq!(
        turn(&t, 0, http_status(404)).reason,
        "HTTP status 200 on turn 1 (expected 404)"
    );
    // A range loaded from data.
    let range: agent_test_runtime::check::Check =
        serde_json::from_value(json!({"type": "http_status", "min": 200, "max": 250})).unwrap();
    assert_eq!(range.describe(), "HTTP status 200–250");
    let in_process = one_turn(Reply::text("hi"));
    let v = conv(&in_process, http_status(200));
    assert_eq!(v.status, Status::Error);
    assert_eq!(
        v.reason,
        "not measured: turn 1 has no HTTP status (the agent is not reached over HTTP)"
    );
}

#[test]
fn latency_per_turn_or_total() {
    let t = Transcript::new(vec![
        Turn::new(0, "a", Reply::text(""), 1200),
        Turn::new(1, "b", Reply::text(""), 2500),
    ]);
    assert_eq!(
        conv(&t, latency().at_most(Duration::from_millis(2500))).status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, latency().at_most(Duration::from_secs(2))).reason,
        "turn 2 took 2500 ms (at most 2000 ms)"
    );
    assert_eq!(
        conv(&t, latency().at_most(Duration::from_secs(3)).total()).reason,
        "the turns took 3700 ms in total (at most 3000 ms)"
    );
    // A latency the agent reported itself (a trace's duration) wins over the measurement.
    let t = Transcript::new(vec![Turn::new(0, "a", Reply::text("").latency_ms(1500), 3)]);
    assert_eq!(
        conv(&t, latency().at_most(Duration::from_secs(1))).reason,
        "turn 1 took 1500 ms (at most 1000 ms)"
    );
}

#[test]
fn token_budgets_from_every_provider_shape() {
    for body in [
        json!({"usage": {"prompt_tokens": 300, "completion_tokens": 80, "total_tokens": 380}}),
        json!({"usage": {"input_tokens": 300, "output_tokens": 80}}),
        json!({"usageMetadata": {"promptTokenCount": 300, "candidatesTokenCount": 80, "totalTokenCount": 380}}),
        json!({"response": {"usageMetadata": {"input_tokens": 300, "output_tokens": 80, "total_tokens": 380}}}),
        json!({"meta": {"tokens": {"total": 380, "input": 300, "output": 80}}}),
    ] {
        let t = one_turn(Reply::text("").body(body.clone()));
        assert_eq!(
            conv(
                &t,
                tokens()
                    .total_at_most(400)
                    .output_at_most(80)
                    .input_at_most(300)
            )
            .status,
            Status::Pass,
            "{body}"
        );
        assert_eq!(
            conv(&t, tokens().total_at_most(379)).reason,
            "token budget exceeded: total 380 > 379",
            "{body}"
        );
    }
}

#[test]
fn tokens_are_summed_across_ai_nodes_and_turns() {
    let turn_with_nodes = Reply::text("")
        .call(Call::node("AI Agent").result(json!({"usage": {"input_tokens": 1000, "output_tokens": 200}})))
        .call(Call::node("Summarizer").result(json!({"tokenUsage": 1, "usageMetadata": {"promptTokenCount": 500, "candidatesTokenCount": 100}})));
    let t = Transcript::new(vec![
        Turn::new(0, "a", turn_with_nodes, 1),
        Turn::new(1, "b", Reply::text("").usage(Usage::new(10, 5)), 1),
    ]);
    assert_eq!(
        turn(&t, 0, tokens().total_at_most(1800)).status,
        Status::Pass
    );
    let v = conv(&t, tokens().total_at_most(1800).output_at_most(300));
    assert_eq!(
        v.reason,
        "token budget exceeded: total 1815 > 1800, output 305 > 300"
    );
    assert_eq!(
        v.details.actual,
        Some(json!({"input_tokens": 1510, "output_tokens": 305, "total_tokens": 1815}))
    );
}

#[test]
fn missing_usage_or_limits_are_errors() {
    let t = one_turn(Reply::text("no usage"));
    let v = conv(&t, tokens().total_at_most(10));
    assert_eq!(v.status, Status::Error);
    assert!(
        v.reason
            .starts_with("not measured: no token usage was recorded")
    );
    let t = one_turn(Reply::text("").usage(Usage::default().with_total(5)));
    assert_eq!(
        conv(&t, tokens().output_at_most(10)).reason,
        "not measured: the usage has no output token count"
    );
    assert_eq!(conv(&t, tokens()).status, Status::Error);
}

#[test]
fn the_text_report_shows_a_latency_only_when_measured() {
    let t = Transcript::new(vec![
        Turn::new(0, "timed", Reply::text("first").http_status(200), 12),
        Turn::recorded(1, "from a trace", Reply::text("second")),
    ]);
    let report = agent_test_runtime::scenario::Scenario::new("s")
        .expect(reply().contains("zzz"))
        .evaluate(&t);
    let text = report.to_string();
    let line = |needle: &str| {
        text.lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no line with {needle:?} in\n{text}"))
            .to_owned()
    };
    assert!(
        line("agent  first").ends_with("[12 ms, HTTP 200]"),
        "{text}"
    );
    assert!(line("agent  second").ends_with("second"), "{text}");
}

/// A replay takes no time worth measuring: a replayed turn keeps the recorded latency, and one
/// recorded without a latency stays not measured (not the replay's ~0 ms).
#[tokio::test]
async fn a_replayed_turn_keeps_the_recorded_latency_or_none() {
    let recording = Transcript::new(vec![
        Turn::new(0, "a", Reply::text("timed"), 4200),
        Turn::recorded(1, "b", Reply::text("untimed")),
    ]);
    let mut run = ScenarioRun::new(Suite::new().agent(ReplayAgent::new(recording)), "replayed");
    run.user("a").await;
    run.expect_turn(latency().at_most(Duration::from_secs(5)));
    run.user("b").await;
    run.expect_turn(latency().at_most(Duration::from_secs(5)));
    let report = run.report().await;
    let turns = &report.transcript.turns;
    assert_eq!(
        (turns[0].latency_ms, turns[1].latency_ms),
        (Some(4200), None)
    );
    let got: Vec<_> = report
        .verdicts
        .iter()
        .map(|v| (v.status, v.reason.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (Status::Pass, ""),
            (
                Status::Error,
                "not measured: turn 2 has no latency (a recording or trace without a duration)"
            )
        ]
    );
}

/// Counts from a recording or a provider can be anything: sums saturate (and so exceed every
/// budget) instead of overflowing, which panicked in debug builds and wrapped round to a
/// small, passing number in release builds.
#[test]
fn huge_counts_saturate_instead_of_overflowing() {
    let t = Transcript::new(vec![
        Turn::new(
            0,
            "a",
            Reply::text("").usage(Usage::new(u64::MAX, 1)),
            u64::MAX,
        ),
        Turn::new(1, "b", Reply::text("").usage(Usage::new(1, 1)), 2),
    ]);
    let max = u64::MAX;
    assert_eq!(
        conv(&t, latency().at_most(Duration::MAX).total()).status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, latency().at_most(Duration::from_secs(1)).total()).reason,
        format!("the turns took {max} ms in total (at most 1000 ms)")
    );
    assert_eq!(
        conv(&t, tokens().total_at_most(u64::MAX - 1)).reason,
        format!("token budget exceeded: total {max} > {}", max - 1)
    );
    assert_eq!(
        turn(&t, 0, tokens().input_at_most(10)).reason,
        format!("token budget exceeded: input {max} > 10")
    );
}

/// Found by the property suite: a recording can number its turns anything, and "turn
/// {index + 1}" overflowed (a panic in debug builds, "turn 0" in release) in messages and in
/// the report's transcript.
#[test]
fn the_last_possible_turn_number_is_not_an_overflow() {
    let t = Transcript::new(vec![Turn::new(
        usize::MAX,
        "a",
        Reply::text("").http_status(500),
        5000,
    )]);
    assert_eq!(
        conv(&t, http_status(200)).reason,
        "HTTP status 500 on turn 18446744073709551616 (expected 200)"
    );
    assert_eq!(
        conv(&t, latency().at_most(Duration::from_secs(1))).reason,
        "turn 18446744073709551616 took 5000 ms (at most 1000 ms)"
    );
    let report = agent_test_runtime::scenario::Scenario::new("s")
        .expect(http_status(200))
        .evaluate(&t);
    assert!(
        report
            .to_string()
            .contains("turn 18446744073709551616  user   a"),
        "{report}"
    );
    assert_eq!(
        agent_test_runtime::check::Scope::Turn(usize::MAX).to_string(),
        "turn 18446744073709551616"
    );
}
