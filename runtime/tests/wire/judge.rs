//! The judge against a local OpenAI-compatible (and Anthropic-compatible) server: one request
//! per scenario run, strict verdicts, retries, errors that never pass, caching and replay.

use std::path::PathBuf;
use std::time::Duration;

use agent_test_runtime::agent::AgentRequest;
use agent_test_runtime::agent::agent_fn;
use agent_test_runtime::check::Status;
use agent_test_runtime::judge::{AnthropicJudge, Judge, JudgeMode, OpenAiJudge};
use agent_test_runtime::model::{Call, Reply};
use agent_test_runtime::prelude::*;
use agent_test_runtime::report::Report;
use agent_test_runtime::{Clock, ScenarioRun, Suite, evaluate};
use serde_json::json;

use super::judge_server::{Behaviour, judge_server};

pub fn cache(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "agent-test-judge-cache-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A judge on the local server, retrying fast.
pub fn local(url: &str, cache_dir: PathBuf) -> Judge {
    Judge::new(
        OpenAiJudge::new("judge-model")
            .base_url(url)
            .api_key("sk-judge-secret"),
    )
    .cache_dir(cache_dir)
    .backoff(Duration::from_millis(5))
    .timeout(Duration::from_secs(5))
    .price_per_million_tokens(1.0, 2.0)
}

/// A refund conversation graded by three judge checks (two turns) and one deterministic check.
async fn refund_run(grader: Judge, refund_reply: &'static str) -> Report {
    let agent = agent_fn(move |req: AgentRequest| async move {
        if req.turn == 0 {
            "Sorry about the double charge! What is your order number?"
        } else {
            refund_reply
        }
    });
    let mut run = ScenarioRun::new(Suite::new().agent(agent).judge(grader), "refund");
    run.user("I was charged twice").await;
    run.expect_turn(judge("mentions order number"));
    run.user("ORD-9921").await;
    run.expect_turn(judge("mentions refund").threshold(0.9));
    run.expect_turn(reply().contains("ORD-9921"));
    run.expect(judge("mentions sorry").on_transcript().with_tool_sequence());
    run.report().await
}

fn statuses(report: &Report) -> Vec<(String, Status)> {
    report
        .verdicts
        .iter()
        .map(|v| (v.label.clone(), v.status))
        .collect()
}

#[tokio::test]
async fn every_judge_check_of_a_run_goes_in_one_request() {
    let (url, server) = judge_server(vec![]).await;
    let report = refund_run(local(&url, cache("one")), "Refund for ORD-9921 issued.").await;
    assert!(report.passed(), "{report}");
    let requests = server.requests();
    assert_eq!(requests.len(), 1, "one request for the whole run");
    let body = &requests[0];
    assert_eq!(body["model"], "judge-model");
    assert_eq!(body["temperature"], 0.0);
    assert_eq!(body["response_format"]["type"], "json_schema");
    assert_eq!(body["response_format"]["json_schema"]["strict"], true);
    let checks = server.checks(0);
    assert_eq!(checks.len(), 3);
    assert_eq!(checks[0]["id"], "c1");
    assert_eq!(checks[0]["criteria"], "mentions order number");
    assert_eq!(checks[0]["material"]["user_message"], "I was charged twice");
    assert_eq!(checks[1]["material"]["text"], "Refund for ORD-9921 issued.");
    // The transcript check sees the whole conversation and the (empty) tool sequence.
    assert!(
        checks[2]["material"]["text"]
            .as_str()
            .unwrap()
            .contains("I was charged twice")
    );
    assert_eq!(checks[2]["material"]["tool_sequence"], json!([]));
    let usage = report.judge.as_ref().expect("judge usage");
    assert_eq!((usage.requests, usage.checks, usage.cached), (1, 3, 0));
    assert_eq!((usage.input_tokens, usage.output_tokens), (400, 60));
    assert_eq!(usage.cost_usd, Some(0.00052));
    assert!(report.to_string().contains(
        "judge openai:judge-model: 3 checks, 0 from the cache, 1 request, 400 input + 60 output tokens, $0.0005"
    ));
}

/// A judged run evaluates each check once: the deterministic checks before the judge is
/// asked, the judge checks (and what depends on them) after; a judge check whose dependency
/// failed is skipped and never sent.
#[tokio::test]
async fn a_judged_run_evaluates_each_check_once_and_sends_only_what_is_open() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let (url, server) = judge_server(vec![]).await;
    let agent = agent_fn(|_r| async { "Refund issued." });
    let mut run = ScenarioRun::new(
        Suite::new().agent(agent).judge(local(&url, cache("once"))),
        "once",
    );
    run.user("refund please").await;
    let seen = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&seen);
    run.expect_turn(
        check("counted", move |cx| {
            counted.fetch_add(1, Ordering::SeqCst);
            cx.reply().contains("Refund")
        })
        .id("counted"),
    );
    run.expect_turn(reply().contains("voucher").id("voucher"));
    run.expect_turn(judge("mentions refund").id("graded").depends_on("counted"));
    run.expect_turn(judge("offers a voucher").depends_on("voucher"));
    let after = Arc::clone(&seen);
    run.expect_turn(
        check("after the judge", move |_| {
            after.fetch_add(100, Ordering::SeqCst);
            true
        })
        .depends_on("graded"),
    );
    let report = run.report().await;
    assert_eq!(
        statuses(&report),
        [
            ("counted".to_owned(), Status::Pass),
            ("reply contains \"voucher\"".to_owned(), Status::Fail),
            (
                "judge \"mentions refund\" (score ≥ 0.8)".to_owned(),
                Status::Pass
            ),
            (
                "judge \"offers a voucher\" (score ≥ 0.8)".to_owned(),
                Status::Skipped
            ),
            ("after the judge".to_owned(), Status::Pass),
        ],
        "{report}"
    );
    assert_eq!(
        seen.load(Ordering::SeqCst),
        101,
        "each custom check ran once"
    );
    let checks = server.checks(0);
    assert_eq!(checks.len(), 1, "{checks:?}");
    assert_eq!(checks[0]["criteria"], "mentions refund");
}

/// A judge check that can never pass (its threshold is outside 0..=1) is an error verdict and
/// is not sent to the judge: no money is spent on it.
#[tokio::test]
async fn an_impossible_judge_check_is_never_sent() {
    let (url, server) = judge_server(vec![]).await;
    let agent = agent_fn(|_r| async { "Refund issued." });
    let mut run = ScenarioRun::new(
        Suite::new()
            .agent(agent)
            .judge(local(&url, cache("impossible"))),
        "impossible",
    );
    run.user("refund please").await;
    run.expect_turn(judge("mentions refund"));
    run.expect_turn(judge("is polite").threshold(1.5));
    let report = run.report().await;
    let got: Vec<Status> = report.verdicts.iter().map(|v| v.status).collect();
    assert_eq!(got, [Status::Pass, Status::Error], "{report}");
    assert!(
        report.verdicts[1]
            .reason
            .starts_with("impossible constraint: threshold 1.5 is outside 0..=1"),
        "{report}"
    );
    let checks = server.checks(0);
    assert_eq!(checks.len(), 1, "{checks:?}");
    assert_eq!(checks[0]["criteria"], "mentions refund");
}

#[tokio::test]
async fn a_score_below_the_threshold_fails_with_the_reasoning() {
    let (url, _server) = judge_server(vec![]).await;
    let report = refund_run(local(&url, cache("below")), "Order ORD-9921 noted.").await;
    assert!(!report.passed());
    let v = &report.verdicts[1];
    assert_eq!(v.status, Status::Fail);
    assert_eq!(v.reason, "score 0.2 < 0.9: graded \"mentions refund\"");
    assert_eq!(
        v.details.expected,
        Some(json!({"criteria": "mentions refund", "threshold": 0.9}))
    );
    assert_eq!(
        v.details.actual,
        Some(json!({"score": 0.2, "judge_pass": false, "reasoning": "graded \"mentions refund\""}))
    );
    assert_eq!(
        report.verdicts[2].status,
        Status::Pass,
        "other checks still evaluated"
    );
}

#[tokio::test]
async fn a_rerun_over_the_same_transcript_asks_nothing_and_replay_never_calls() {
    let dir = cache("rerun");
    let (url, server) = judge_server(vec![]).await;
    let first = refund_run(local(&url, dir.clone()), "Refund for ORD-9921 issued.").await;
    let second = refund_run(local(&url, dir.clone()), "Refund for ORD-9921 issued.").await;
    assert_eq!(
        server.requests().len(),
        1,
        "the re-run is answered from the cache"
    );
    assert_eq!(statuses(&first), statuses(&second));
    let usage = second.judge.as_ref().unwrap();
    assert_eq!((usage.requests, usage.cached), (0, 3));

    // Replay: a changed reply is a cache miss, an error for that check only, and no request.
    let replay = local(&url, dir).mode(JudgeMode::Replay);
    let report = refund_run(replay, "Refund for ORD-9921 issued today.").await;
    assert_eq!(server.requests().len(), 1);
    assert_eq!(report.verdicts[0].status, Status::Pass, "cached");
    assert_eq!(report.verdicts[1].status, Status::Error);
    assert!(
        report.verdicts[1]
            .reason
            .starts_with("not graded: no cached verdict for this check, and AGENT_TEST_JUDGE_MODE=replay forbids asking the judge"),
        "{}",
        report.verdicts[1].reason
    );
    assert!(!report.passed());
}

#[tokio::test]
async fn malformed_answers_are_retried_then_an_error_never_a_pass() {
    let (url, server) = judge_server(vec![Behaviour::Say("The reply looks fine to me.")]).await;
    let report = refund_run(local(&url, cache("retry")), "Refund for ORD-9921 issued.").await;
    assert!(report.passed(), "{report}");
    assert_eq!(
        server.requests().len(),
        2,
        "asked again after the malformed answer"
    );

    let (url, server) = judge_server(vec![
        Behaviour::Say("not json"),
        Behaviour::Say("{\"verdict\": \"pass\"}"),
        Behaviour::Say("```json\nnope\n```"),
    ])
    .await;
    let report = refund_run(
        local(&url, cache("malformed")),
        "Refund for ORD-9921 issued.",
    )
    .await;
    assert_eq!(server.requests().len(), 3, "1 request + 2 retries");
    let judged: Vec<Status> = [0, 1, 3]
        .iter()
        .map(|&i| report.verdicts[i].status)
        .collect();
    assert_eq!(judged, [Status::Error; 3]);
    assert!(
        report.verdicts[0]
            .reason
            .starts_with("not graded: the judge's answer is not JSON"),
        "{}",
        report.verdicts[0].reason
    );
    assert!(report.verdicts[0].reason.ends_with("(after 3 requests)"));
    assert_eq!(
        report.verdicts[2].status,
        Status::Pass,
        "deterministic checks still run"
    );
    assert!(!report.passed());
}

#[tokio::test]
async fn a_missing_result_is_asked_again_alone_then_an_error_for_that_check_only() {
    let (url, server) = judge_server(vec![
        Behaviour::GradeAllBut("c2"),
        Behaviour::GradeAllBut("c1"),
        Behaviour::GradeAllBut("c1"),
    ])
    .await;
    let report = refund_run(local(&url, cache("partial")), "Refund for ORD-9921 issued.").await;
    assert_eq!(server.requests().len(), 3);
    assert_eq!(
        server.checks(1).len(),
        1,
        "only the missing check is asked again"
    );
    assert_eq!(server.checks(1)[0]["criteria"], "mentions refund");
    assert_eq!(report.verdicts[0].status, Status::Pass);
    assert_eq!(report.verdicts[1].status, Status::Error);
    assert_eq!(
        report.verdicts[1].reason,
        "not graded: the judge gave no result for this check (id c2) (after 3 requests)"
    );
    assert_eq!(report.verdicts[3].status, Status::Pass);
}

#[tokio::test]
async fn rate_limits_server_errors_and_slow_answers_are_retried() {
    let (url, server) = judge_server(vec![
        Behaviour::Status(429),
        Behaviour::Status(500),
        Behaviour::Grade,
    ])
    .await;
    let report = refund_run(local(&url, cache("429")), "Refund for ORD-9921 issued.").await;
    assert!(report.passed(), "{report}");
    assert_eq!(server.requests().len(), 3);

    let (url, server) = judge_server(vec![Behaviour::Slow(Duration::from_secs(3))]).await;
    let judge = local(&url, cache("slow")).timeout(Duration::from_millis(300));
    let report = refund_run(judge, "Refund for ORD-9921 issued.").await;
    assert!(report.passed(), "{report}");
    assert_eq!(
        server.requests().len(),
        2,
        "the slow answer timed out and was asked again"
    );

    // A client error is not retried, and says what the endpoint answered.
    let (url, server) = judge_server(vec![Behaviour::Status(401)]).await;
    let report = refund_run(local(&url, cache("401")), "Refund for ORD-9921 issued.").await;
    assert_eq!(server.requests().len(), 1);
    assert!(
        report.verdicts[0].reason.starts_with(&format!(
            "not graded: the judge endpoint {url}/chat/completions answered HTTP 401"
        )),
        "{}",
        report.verdicts[0].reason
    );
    assert!(!report.to_string().contains("sk-judge-secret"));
}

#[tokio::test]
async fn without_a_judge_judge_checks_are_errors() {
    let agent = agent_fn(|_r| async { "Hello" });
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "no judge");
    run.user("hi").await;
    run.expect(judge("is friendly"));
    run.expect(reply().contains("hello"));
    let report = run.report().await;
    if std::env::var_os("AGENT_TEST_JUDGE_MODEL").is_some() {
        return; // the environment configures a judge
    }
    assert_eq!(report.verdicts[0].status, Status::Error);
    assert!(
        report.verdicts[0]
            .reason
            .starts_with("not graded: no judge configured"),
    );
    assert_eq!(report.verdicts[1].status, Status::Pass);
    assert!(!report.passed());
}

#[tokio::test]
async fn the_anthropic_client_forces_a_tool_call_for_the_verdicts() {
    let (url, server) = judge_server(vec![]).await;
    let judge = Judge::new(
        AnthropicJudge::new("claude-test")
            .base_url(&url)
            .api_key("sk-ant-x"),
    )
    .cache_dir(cache("anthropic"));
    let report = refund_run(judge, "Refund for ORD-9921 issued.").await;
    assert!(report.passed(), "{report}");
    let body = &server.requests()[0];
    assert_eq!(
        body["tool_choice"],
        json!({"type": "tool", "name": "record_verdicts"})
    );
    assert_eq!(
        body["tools"][0]["input_schema"]["required"],
        json!(["results"])
    );
    assert_eq!(body["temperature"], 0);
    let usage = report.judge.as_ref().unwrap();
    assert_eq!(
        (usage.model.as_str(), usage.input_tokens),
        ("anthropic:claude-test", 380)
    );
}

#[tokio::test]
async fn repeats_are_graded_independently_and_cached_per_repeat() {
    let dir = cache("repeats");
    let (url, server) = judge_server(vec![]).await;
    for _ in 0..2 {
        let mut repeats = agent_test_runtime::Repeats::new();
        let report = loop {
            let suite = Suite::new()
                .agent(agent_fn(|_r| async { "Your refund is on its way." }))
                .judge(local(&url, dir.clone()))
                .repeat(3);
            let info = agent_test_runtime::ScenarioInfo::new("repeated").repeated(repeats.index());
            let mut run = ScenarioRun::with_info(suite, info);
            run.user("refund please").await;
            run.expect(judge("mentions refund"));
            if let Some(r) = repeats.record(run).await {
                break r;
            }
        };
        assert!(report.passed(), "{report}");
        let summary = report.repeats.as_ref().unwrap();
        assert_eq!((summary.runs, summary.passed_runs), (3, 3));
    }
    assert_eq!(
        server.requests().len(),
        3,
        "one request per repeat the first time, none the second"
    );
}

#[tokio::test]
async fn semantic_argument_matchers_are_graded_in_the_same_request() {
    let (url, server) = judge_server(vec![]).await;
    let agent = agent_fn(|_r| async {
        Reply::text("Booked.").call(Call::tool(
            "create_event",
            json!({"title": "Lunch with the client", "city": "Lisboa", "start": "2026-11-25T12:00:00"}),
        ))
    });
    let suite = Suite::new()
        .agent(agent)
        .judge(local(&url, cache("semantic")))
        .clock(Clock::fixed("2026-11-23T09:30:00Z"));
    let mut run = ScenarioRun::new(suite, "semantic");
    run.user("Lunch with the client the day after tomorrow at noon in Lisbon")
        .await;
    run.expect_turn(
        tool("create_event")
            .arg("title", free_text("lunch with the client"))
            .arg("start", date_time("2026-11-25 at noon")),
    );
    run.expect_turn(tool("create_event").arg("city", free_text("Lisbon, Portugal")));
    run.expect_turn(judge("mentions booked"));
    // MorganaBench's parameter groups: several arguments judged together.
    run.expect_turn(
        tool("create_event").arg_group(["title", "city"], free_text("lunch in Lisbon")),
    );
    let report = run.report().await;
    assert_eq!(
        server.requests().len(),
        1,
        "matchers and judge checks share the request"
    );
    let checks = server.checks(0);
    assert_eq!(checks.len(), 5);
    let group = checks
        .iter()
        .find(|c| c["criteria"] == "the value means the same as: lunch in Lisbon")
        .expect("the group item");
    assert_eq!(
        group["material"]["text"],
        r#"{"city":"Lisboa","title":"Lunch with the client"}"#
    );
    assert_eq!(report.verdicts[3].status, Status::Pass, "{report}");
    let start = checks
        .iter()
        .find(|c| {
            c["criteria"]
                .as_str()
                .unwrap()
                .starts_with("the date/time value denotes")
        })
        .expect("the date/time item");
    assert_eq!(
        start["material"]["user_time"],
        "2026-11-23T09:30 UTC (Monday)"
    );
    assert_eq!(report.verdicts[0].status, Status::Pass, "{report}");
    assert_eq!(report.verdicts[1].status, Status::Fail);
    assert!(
        report.verdicts[1].details.violations[0].message.contains(
            "city: expected (judged) means \"Lisbon, Portugal\", got \"Lisboa\" (judge score 0.1 < 0.8"
        ),
        "{:?}",
        report.verdicts[1].details
    );
    assert_eq!(report.verdicts[2].status, Status::Pass);

    // Without a judge run, a semantic matcher is an error, not a pass.
    let v = evaluate(
        &report.transcript,
        &[tool("create_event")
            .arg("city", free_text("Lisbon"))
            .into_expectation()],
    );
    assert_eq!(v[0].status, Status::Error);
    assert!(
        v[0].reason
            .contains("not graded: semantic matchers are graded by the judge"),
        "{}",
        v[0].reason
    );
}

#[tokio::test]
async fn judge_options_shape_what_the_judge_sees_and_a_missing_node_fails_unasked() {
    let (url, server) = judge_server(vec![]).await;
    let agent = agent_fn(|_r| async {
        Reply::text("Refund RF-1 of €42.50 issued.").call(
            Call::tool("process_refund", json!({"order_id": "ORD-1"}))
                .result(json!({"refund_id": "RF-1", "amount": 42.5})),
        )
    });
    let mut run = ScenarioRun::new(
        Suite::new()
            .agent(agent)
            .judge(local(&url, cache("options"))),
        "options",
    );
    run.user("Refund ORD-1").await;
    run.expect_turn(
        judge("mentions RF-1")
            .hallucination()
            .must_not(["promise a date"]),
    );
    run.expect_turn(expected_response("Your refund RF-1 of €42.50 was issued."));
    run.expect_turn(judge("a faithful summary").on_node("Summarizer", "summary"));
    run.expect_turn(
        judge("mentions refund")
            .without_prompt()
            .with_tool_sequence(),
    );
    let report = run.report().await;
    let checks = server.checks(0);
    assert_eq!(checks.len(), 3, "the missing node's check is not sent");
    assert_eq!(checks[0]["type"], "hallucination_check");
    assert_eq!(checks[0]["negative_constraints"], json!(["promise a date"]));
    assert_eq!(
        checks[0]["material"]["tool_calls"][0]["result"]["refund_id"],
        "RF-1"
    );
    assert_eq!(
        checks[1]["expected_response"],
        "Your refund RF-1 of €42.50 was issued."
    );
    assert!(checks[2]["material"].get("user_message").is_none());
    assert_eq!(
        checks[2]["material"]["tool_sequence"],
        json!(["process_refund"])
    );
    let v = &report.verdicts;
    assert_eq!(v[0].status, Status::Pass, "{report}");
    // The scripted judge gives 0.5 to criteria it has no rule for.
    assert_eq!(
        (v[1].status, v[1].reason.as_str()),
        (
            Status::Fail,
            "score 0.5 < 0.8: graded \"conveys the same facts and outcome as the expected response\""
        )
    );
    assert_eq!(
        (v[2].status, v[2].reason.as_str()),
        (Status::Fail, "no node named like `Summarizer` ran")
    );
    assert_eq!(v[3].status, Status::Pass);
}

#[tokio::test]
async fn semantic_matchers_in_json_fields_and_trajectories_are_graded_too() {
    let (url, server) = judge_server(vec![]).await;
    let agent = agent_fn(|_r| async {
        Reply::text("Booked.")
            .body(json!({"booking": {"city": "Lisboa", "when": "2026-11-25T12:00"}}))
            .call(Call::tool(
                "search_hotels",
                json!({"city": "Lisbon, Portugal"}),
            ))
    });
    let suite = Suite::new()
        .agent(agent)
        .judge(local(&url, cache("fields")))
        .clock(Clock::fixed("2026-11-23T09:30:00Z"));
    let mut run = ScenarioRun::new(suite, "fields");
    run.user("A hotel in Lisbon for the day after tomorrow")
        .await;
    run.expect_turn(field("booking.when").is(date_time("2026-11-25 at noon")));
    run.expect_turn(field("booking.city").is(free_text("Porto")));
    run.expect(trajectory([
        tool_call("search_hotels").arg("city", free_text("Lisbon"))
    ]));
    // A JMESPath's value is graded as a field's is (it was never sent to the judge).
    run.expect_turn(jmespath("booking.city").is(free_text("Lisboa")));
    run.expect_turn(jmespath("booking.city").is(free_text("Porto")));
    let report = run.report().await;
    assert_eq!(server.requests().len(), 1);
    let statuses: Vec<Status> = report.verdicts.iter().map(|v| v.status).collect();
    assert_eq!(
        statuses,
        [
            Status::Pass,
            Status::Fail,
            Status::Pass,
            Status::Pass,
            Status::Fail
        ],
        "{report}"
    );
    assert!(
        report.verdicts[1]
            .reason
            .contains("expected (judged) means \"Porto\", got \"Lisboa\""),
        "{}",
        report.verdicts[1].reason
    );
}
