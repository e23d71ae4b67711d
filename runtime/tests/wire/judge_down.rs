//! A judge that is down costs at most one timeout per process, not every scenario's timeouts
//! and retries: once an endpoint cannot be connected to, or two attempts in a row get no
//! answer, the remaining judge checks (and model steps) of every scenario are errors at once,
//! "judge unreachable".
//! Cost is asserted by behaviour — requests counted, connections accepted — never by time.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use agent_test_runtime::agent::agent_fn;
use agent_test_runtime::check::Status;
use agent_test_runtime::judge::{Judge, JudgeMode, OpenAiJudge};
use agent_test_runtime::prelude::*;
use agent_test_runtime::report::Report;
use agent_test_runtime::{ScenarioRun, Suite};

/// A base URL where nothing listens.
fn closed_port() -> String {
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr");
    format!("http://{addr}/v1")
}

/// A server that accepts connections and never answers; counts the connections.
async fn silent_server() -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            held.push(socket);
        }
    });
    (format!("http://{addr}/v1"), accepted)
}

/// A judge at `url`, as each test of a suite would build it: a fresh value each time, with the
/// default 2 retries.
fn judge_at(url: &str) -> Judge {
    Judge::new(OpenAiJudge::new("judge-model").base_url(url))
        .mode(JudgeMode::Off)
        .backoff(Duration::from_millis(1))
        .timeout(Duration::from_millis(200))
}

/// One scenario: a judge check and a deterministic one.
async fn scenario(grader: Judge, name: &str) -> Report {
    let agent = agent_fn(|_r| async { "Refund issued." });
    let mut run = ScenarioRun::new(Suite::new().agent(agent).judge(grader), name);
    run.user("refund please").await;
    run.expect_turn(judge("mentions refund"));
    run.expect_turn(reply().contains("Refund"));
    run.report().await
}

const STOPPED: &str = "; after 2 attempts in a row without an answer, no more requests are \
                       sent to it in this run";
const REFUSED: &str = "; no more requests are sent to it in this run";

#[tokio::test]
async fn a_judge_on_a_closed_port_is_tried_once_per_process_not_per_scenario() {
    let url = closed_port();
    let mut requests = Vec::new();
    for i in 0..5 {
        let report = scenario(judge_at(&url), &format!("s{i}")).await;
        let statuses: Vec<Status> = report.verdicts.iter().map(|v| v.status).collect();
        assert_eq!(statuses, [Status::Error, Status::Pass], "{report}");
        let reason = &report.verdicts[0].reason;
        let prefix =
            format!("not graded: judge unreachable: cannot connect to {url}/chat/completions: ");
        assert!(reason.starts_with(&prefix), "{reason}");
        let end = if i == 0 { " (after 1 request)" } else { "" };
        assert!(reason.ends_with(&format!("{REFUSED}{end}")), "{reason}");
        requests.push(report.judge.as_ref().expect("usage").requests);
    }
    // Without stopping: 3 attempts (2 retries) in each of the 5 scenarios.
    assert_eq!(requests, [1, 0, 0, 0, 0]);

    // The judge's model steps stop too.
    let agent = agent_fn(|_r| async { "Your reference is BK-4100." });
    let mut run = ScenarioRun::new(Suite::new().agent(agent).judge(judge_at(&url)), "extract");
    run.user("book").await;
    let value: String = run.extract("the booking reference").await;
    let report = run.report().await;
    assert_eq!(value, "");
    assert!(
        report.verdicts[0]
            .reason
            .starts_with("judge unreachable: cannot connect to"),
        "{report}"
    );
    assert_eq!(report.judge.as_ref().expect("usage").requests, 0);
}

#[tokio::test]
async fn a_judge_that_accepts_but_never_answers_is_waited_for_twice_per_process() {
    let (url, accepted) = silent_server().await;
    for i in 0..3 {
        let report = scenario(judge_at(&url), &format!("silent{i}")).await;
        let statuses: Vec<Status> = report.verdicts.iter().map(|v| v.status).collect();
        assert_eq!(statuses, [Status::Error, Status::Pass], "{report}");
        assert_eq!(
            report.verdicts[0].reason,
            format!(
                "not graded: judge unreachable: no answer from the judge within 0.2 s{STOPPED}{}",
                if i == 0 { " (after 2 requests)" } else { "" }
            )
        );
    }
    // Without stopping: 3 connections in each of the 3 scenarios.
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn one_failure_then_an_answer_keeps_the_judge_in_use() {
    use super::judge_server::{Behaviour, judge_server};
    let (url, server) = judge_server(vec![
        Behaviour::Slow(Duration::from_secs(2)),
        Behaviour::Grade,
        Behaviour::Slow(Duration::from_secs(2)),
        Behaviour::Grade,
    ])
    .await;
    for i in 0..2 {
        let report = scenario(judge_at(&url), &format!("flaky{i}")).await;
        assert!(report.passed(), "{report}");
    }
    assert_eq!(
        server.requests().len(),
        4,
        "a timeout alone never stops the judge"
    );
}
