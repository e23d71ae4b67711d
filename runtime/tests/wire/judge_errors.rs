//! The judge's failure paths, each with its message: cache misses in replay, timeouts,
//! malformed answers at every layer (endpoint, provider shape, verdicts, model JSON), refresh,
//! semantic matchers left ungraded, and judge checks with nothing to grade.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use agent_test_runtime::agent::agent_fn;
use agent_test_runtime::check::{Scope, Status};
use agent_test_runtime::judge::{AnthropicJudge, Judge, JudgeMode};
use agent_test_runtime::model::Transcript;
use agent_test_runtime::model::{Call, Reply};
use agent_test_runtime::prelude::*;
use agent_test_runtime::report::Report;
use agent_test_runtime::scenario::Scenario;
use agent_test_runtime::{ScenarioRun, Suite};
use axum::Router;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::Value;

use super::judge::{cache, local};
use super::judge_server::{Behaviour, judge_server};
use super::servers::serve;

/// The text of serde_json's error for `text`, as the runtime quotes it.
fn json_error(text: &str) -> String {
    serde_json::from_str::<Value>(text)
        .expect_err("not JSON")
        .to_string()
}

/// One turn answered `reply`, then `extract "the booking reference"` with `judge`: the value
/// extracted and the report.
async fn extract_once(grader: Judge, reply: &'static str) -> (String, Report) {
    let agent = agent_fn(move |_r| async move { reply });
    let mut run = ScenarioRun::new(Suite::new().agent(agent).judge(grader), "extraction");
    run.user("Book the Sol Hostel").await;
    let value: String = run.extract("the booking reference").await;
    (value, run.report().await)
}

/// The one extract verdict of a report: an error, labelled for the step.
fn extract_error(report: &Report) -> &str {
    let v = &report.verdicts[0];
    assert_eq!(v.label, "extract \"the booking reference\"");
    assert_eq!(v.check, "extract");
    assert_eq!(v.status, Status::Error, "{report}");
    assert!(!report.passed());
    &v.reason
}

/// One turn answered `reply`, graded by `judge("mentions refund")`.
async fn judged_once(grader: Judge, reply: &'static str) -> Report {
    let agent = agent_fn(move |_r| async move { reply });
    let mut run = ScenarioRun::new(Suite::new().agent(agent).judge(grader), "judged");
    run.user("Refund ORD-1").await;
    run.expect_turn(judge("mentions refund"));
    run.report().await
}

/// The single judge verdict of a report, which must be an error; its reason.
fn judge_error(report: &Report) -> &str {
    assert_eq!(report.verdicts.len(), 1, "{report}");
    let v = &report.verdicts[0];
    assert_eq!(v.check, "judge");
    assert_eq!(v.status, Status::Error, "{report}");
    assert!(!report.passed());
    &v.reason
}

/// A raw endpoint: every POST to `path` answers `status` with `body` as JSON text (or as
/// is); counts the requests.
async fn raw_server(path: &str, status: u16, body: &'static str) -> (String, Arc<AtomicUsize>) {
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    let router = Router::new().route(
        path,
        post(move || {
            let counter = counter.clone();
            async move {
                counter.fetch_add(1, Ordering::SeqCst);
                let status = axum::http::StatusCode::from_u16(status).expect("status");
                let response: Response =
                    (status, [("content-type", "application/json")], body).into_response();
                response
            }
        }),
    );
    (format!("{}/v1", serve(router).await), hits)
}

#[tokio::test]
async fn an_extraction_in_replay_with_an_empty_cache_is_an_error_and_asks_nothing() {
    let (url, server) = judge_server(vec![]).await;
    let judge = local(&url, cache("err-replay-extract")).mode(JudgeMode::Replay);
    let (value, report) = extract_once(judge, "Booked! Your reference is BK-4100.").await;
    assert_eq!(value, "", "the default value");
    assert_eq!(
        extract_error(&report),
        "no cached answer, and AGENT_TEST_JUDGE_MODE=replay forbids asking the model: run once \
         with a live judge to record it"
    );
    assert!(server.requests().is_empty(), "replay never asks");
    let usage = report.judge.as_ref().expect("the step's usage");
    assert_eq!((usage.requests, usage.cached), (0, 0));
}

#[tokio::test]
async fn an_extraction_asked_again_is_answered_from_the_cache() {
    let dir = cache("err-extract-cached");
    let (url, server) = judge_server(vec![
        Behaviour::Say(r#"{"found": true, "value": "BK-4100"}"#),
        // Never reached: the second run is answered from the cache.
        Behaviour::Say(r#"{"found": true, "value": "BK-0000"}"#),
    ])
    .await;
    let reply = "Booked! Your reference is BK-4100.";
    let (first, report) = extract_once(local(&url, dir.clone()), reply).await;
    assert_eq!(first, "BK-4100");
    assert!(report.passed(), "{report}");
    let usage = report.judge.as_ref().expect("usage");
    assert_eq!((usage.requests, usage.cached), (1, 0));

    let (second, report) = extract_once(local(&url, dir), reply).await;
    assert_eq!(second, "BK-4100");
    assert!(report.passed(), "{report}");
    let usage = report.judge.as_ref().expect("usage");
    assert_eq!((usage.requests, usage.cached), (0, 1));
    assert_eq!((usage.input_tokens, usage.output_tokens), (0, 0));
    assert_eq!(
        server.requests().len(),
        1,
        "the cache answered the second run"
    );
}

#[tokio::test]
async fn a_model_slower_than_the_timeout_is_an_extraction_error() {
    let (url, server) = judge_server(vec![Behaviour::Slow(Duration::from_secs(3))]).await;
    let judge = local(&url, cache("err-extract-slow"))
        .timeout(Duration::from_millis(200))
        .retries(0);
    let (value, report) = extract_once(judge, "Your reference is BK-4100.").await;
    assert_eq!(value, "");
    assert_eq!(
        extract_error(&report),
        "no answer from the model within 0.2 s (after 1 request)"
    );
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn a_judge_slower_than_the_timeout_leaves_the_check_ungraded() {
    let (url, server) = judge_server(vec![Behaviour::Slow(Duration::from_secs(3))]).await;
    let judge = local(&url, cache("err-grade-slow"))
        .timeout(Duration::from_millis(200))
        .retries(0);
    let report = judged_once(judge, "Refund RF-1 issued.").await;
    assert_eq!(
        judge_error(&report),
        "not graded: no answer from the judge within 0.2 s (after 1 request)"
    );
    assert_eq!(server.requests().len(), 1);
    assert_eq!(report.judge.as_ref().expect("usage").requests, 1);
}

#[tokio::test]
async fn an_extraction_answer_that_is_not_a_json_object_is_an_error() {
    let (url, _server) = judge_server(vec![Behaviour::Say("[1,2]")]).await;
    let judge = local(&url, cache("err-extract-array")).retries(0);
    let (_, report) = extract_once(judge, "Your reference is BK-4100.").await;
    assert_eq!(
        extract_error(&report),
        "the model's answer is not a JSON object: [1,2] (after 1 request)"
    );

    let (url, _server) = judge_server(vec![Behaviour::Say("nope")]).await;
    let judge = local(&url, cache("err-extract-nope")).retries(0);
    let (_, report) = extract_once(judge, "Your reference is BK-4100.").await;
    assert_eq!(
        extract_error(&report),
        format!(
            "the model's answer is not JSON ({}): nope (after 1 request)",
            json_error("nope")
        )
    );
}

#[tokio::test]
async fn a_verdict_answer_without_results_is_an_error() {
    let (url, server) = judge_server(vec![Behaviour::Say(r#"{"verdicts": []}"#)]).await;
    let judge = local(&url, cache("err-no-results")).retries(0);
    let report = judged_once(judge, "Refund RF-1 issued.").await;
    assert_eq!(
        judge_error(&report),
        "not graded: the judge's answer has no `results` array: {\"verdicts\": []} (after 1 \
         request)"
    );
    assert_eq!(server.requests().len(), 1, "no retry with retries(0)");
}

#[tokio::test]
async fn an_endpoint_answering_invalid_json_leaves_the_check_ungraded() {
    let (url, hits) = raw_server("/v1/chat/completions", 200, "<html>oops</html>").await;
    let judge = local(&url, cache("err-endpoint-html")).retries(0);
    let report = judged_once(judge, "Refund RF-1 issued.").await;
    assert_eq!(
        judge_error(&report),
        format!(
            "not graded: the judge endpoint answered with invalid JSON ({}): <html>oops</html> \
             (after 1 request)",
            json_error("<html>oops</html>")
        )
    );
    assert_eq!(hits.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn an_openai_answer_without_choices_leaves_the_check_ungraded() {
    let (url, hits) = raw_server("/v1/chat/completions", 200, r#"{"choices": []}"#).await;
    let judge = local(&url, cache("err-openai-choices")).retries(0);
    let report = judged_once(judge, "Refund RF-1 issued.").await;
    assert_eq!(
        judge_error(&report),
        "not graded: the judge's answer has no `choices[0].message.content`: {\"choices\":[]} \
         (after 1 request)"
    );
    assert_eq!(hits.load(Ordering::SeqCst), 1);
}

fn anthropic(url: &str, name: &str) -> Judge {
    Judge::new(
        AnthropicJudge::new("claude-test")
            .base_url(url)
            .api_key("sk-ant-x"),
    )
    .cache_dir(cache(name))
    .backoff(Duration::from_millis(5))
    .timeout(Duration::from_secs(5))
    .retries(0)
}

#[tokio::test]
async fn an_anthropic_answer_without_content_leaves_the_check_ungraded() {
    let (url, hits) = raw_server("/v1/messages", 200, "{}").await;
    let report = judged_once(
        anthropic(&url, "err-anthropic-empty"),
        "Refund RF-1 issued.",
    )
    .await;
    assert_eq!(
        judge_error(&report),
        "not graded: the judge's answer has no `content` blocks: {} (after 1 request)"
    );
    assert_eq!(hits.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn an_anthropic_answer_without_a_tool_call_is_read_from_its_text_blocks() {
    // No tool_use block: the text blocks, joined, hold the verdicts.
    let body = r#"{"type": "message", "role": "assistant", "content": [
        {"type": "text", "text": "{\"results\": [{\"id\": \"c1\", "},
        {"type": "text", "text": "\"score\": 0.9, \"pass\": true, \"reasoning\": \"from the text block\"}]}"}
    ], "usage": {"input_tokens": 10, "output_tokens": 5}}"#;
    let (url, hits) = raw_server("/v1/messages", 200, body).await;
    let report = judged_once(anthropic(&url, "err-anthropic-text"), "Refund RF-1 issued.").await;
    assert!(report.passed(), "{report}");
    assert_eq!(report.verdicts[0].status, Status::Pass);
    assert_eq!(
        report.verdicts[0].reason,
        "score 0.9 ≥ 0.8: from the text block"
    );
    assert_eq!(hits.load(Ordering::SeqCst), 1);
    let usage = report.judge.as_ref().expect("usage");
    assert_eq!((usage.input_tokens, usage.output_tokens), (10, 5));
}

#[tokio::test]
async fn refresh_asks_again_despite_the_cache_and_overwrites_it() {
    let dir = cache("err-refresh");
    let (url, server) = judge_server(vec![
        Behaviour::Grade,
        Behaviour::Say(
            r#"{"results": [{"id": "c1", "score": 0.3, "pass": false, "reasoning": "refreshed"}]}"#,
        ),
    ])
    .await;
    let reply = "Your refund RF-1 is issued.";
    let first = judged_once(local(&url, dir.clone()), reply).await;
    assert!(first.passed(), "{first}");
    assert_eq!(server.requests().len(), 1);

    let refreshed = judged_once(local(&url, dir.clone()).mode(JudgeMode::Refresh), reply).await;
    assert_eq!(server.requests().len(), 2, "refresh asked although cached");
    let usage = refreshed.judge.as_ref().expect("usage");
    assert_eq!((usage.requests, usage.checks, usage.cached), (1, 1, 0));
    assert_eq!(refreshed.verdicts[0].status, Status::Fail);
    assert_eq!(refreshed.verdicts[0].reason, "score 0.3 < 0.8: refreshed");

    // The refreshed verdict replaced the cached one.
    let live = judged_once(local(&url, dir), reply).await;
    assert_eq!(server.requests().len(), 2, "answered from the cache");
    assert_eq!(live.verdicts[0].reason, "score 0.3 < 0.8: refreshed");
    assert_eq!(live.judge.as_ref().expect("usage").cached, 1);
}

#[tokio::test]
async fn a_semantic_matcher_whose_grade_is_malformed_is_an_error_not_a_pass() {
    let (url, server) = judge_server(vec![Behaviour::Say("not json")]).await;
    let agent = agent_fn(|_r| async {
        Reply::text("Booked.").call(Call::tool("create_event", json!({"city": "Lisboa"})))
    });
    let suite = Suite::new()
        .agent(agent)
        .judge(local(&url, cache("err-semantic")).retries(0));
    let mut run = ScenarioRun::new(suite, "semantic");
    run.user("Lunch in Lisbon").await;
    run.expect_turn(tool("create_event").arg("city", free_text("Lisbon")));
    let report = run.report().await;
    assert_eq!(server.requests().len(), 1);
    let v = &report.verdicts[0];
    assert_eq!(v.status, Status::Error, "{report}");
    // The argument's path, then why it is not graded.
    assert_eq!(
        v.reason,
        format!(
            "city: not graded: the judge's answer is not JSON ({}): not json (after 1 request)",
            json_error("not json")
        )
    );
    assert!(!report.passed());
}

#[tokio::test]
async fn a_conversation_judge_check_with_no_turn_is_an_error_and_asks_nothing() {
    let (url, server) = judge_server(vec![]).await;
    let grader = local(&url, cache("err-no-turn"));
    let scenario = Scenario::new("empty").expect(judge("is polite"));
    let report = scenario
        .evaluator()
        .evaluate_judged(Transcript::default(), Some(&grader))
        .await;
    let v = &report.verdicts[0];
    assert_eq!((v.check.as_ref(), v.scope), ("judge", Scope::Conversation));
    assert_eq!(
        (v.status, v.reason.as_str()),
        (Status::Error, "no turn ran")
    );
    assert!(report.judge.is_none(), "nothing was graded");

    // The same in a live run that never sent a message.
    let mut run = ScenarioRun::new(Suite::new().judge(grader), "no turn");
    run.expect(judge("is polite"));
    let report = run.report().await;
    assert_eq!(report.verdicts.len(), 1, "{report}");
    assert_eq!(
        (
            report.verdicts[0].status,
            report.verdicts[0].reason.as_str()
        ),
        (Status::Error, "no turn ran")
    );
    assert!(server.requests().is_empty());
}
