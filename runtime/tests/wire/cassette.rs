//! Cassettes against scripted OpenAI-compatible and Anthropic providers on 127.0.0.1: a run
//! recorded, the provider stopped, the run replayed with the same verdicts; streams in order
//! and in time; a changed request named with its closest recording; no key on disk; runs
//! recording at once into one directory; `auto`; unused entries pruned.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use agent_test_runtime::agent::{ChatAgent, agent_fn};
use agent_test_runtime::cassette::{
    ANTHROPIC_UPSTREAM, Cassette, Mode, RunningCassette, entries, prune, unused,
};
use agent_test_runtime::check::Status;
use agent_test_runtime::judge::{AnthropicJudge, Judge, JudgeMode};
use agent_test_runtime::prelude::*;
use agent_test_runtime::report::Report;
use agent_test_runtime::{ScenarioRun, Suite};
use serde_json::Value;

use super::providers::{self, STREAM_GAP};

/// The key the tests send: it must appear in no cassette file.
const SENTINEL: &str = "sk-SENTINEL-7f3a9c1e5b";

/// A fresh cassette directory for one test.
fn cassette_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("agent-test-cassette-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Every file under `dir` with its text.
fn files(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read the cassette") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read an entry");
        out.push((path, text));
    }
    out.sort();
    out
}

/// A plain HTTP client, as an agent in another language would use (ring as rustls' provider,
/// as the runtime's own clients install it).
fn http() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::new()
}

/// The parsed entry `id` of `dir`.
fn entry(dir: &Path, id: &str) -> Value {
    let text = std::fs::read_to_string(dir.join(format!("{id}.json"))).expect("the entry");
    serde_json::from_str(&text).expect("an entry is JSON")
}

fn start(dir: &Path, mode: Mode, upstream: &str) -> RunningCassette {
    Cassette::new(dir)
        .mode_over_env(mode)
        .upstream(upstream)
        .start()
        .expect("the cassette starts")
}

/// The support agent of docs/testing.md, its model reached through `cassette`.
fn support_agent(cassette: &RunningCassette) -> ChatAgent {
    ChatAgent::new("gpt-4o-mini")
        .system("You are Acme's support agent.")
        .tool(
            "lookup_order",
            "Look an order up by id",
            json!({"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}),
        )
        .mock("lookup_order", json!("delivered"))
        .cassette(cassette)
}

/// A judge through the same cassette; without its verdict cache, so every grading is a
/// model call the cassette answers.
fn cassette_judge(cassette: &RunningCassette) -> Judge {
    Judge::openai("gpt-4o-mini-2024-07-18")
        .cassette(cassette)
        .mode(JudgeMode::Off)
        .retries(0)
}

/// One support conversation, with deterministic and judged checks (one of which fails).
async fn support_run(cassette: &RunningCassette, question: &str) -> Report {
    let suite = Suite::new()
        .agent(support_agent(cassette))
        .judge(cassette_judge(cassette));
    let mut run = ScenarioRun::new(suite, "support");
    run.user(question.to_owned()).await;
    run.expect_turn(tool("lookup_order").arg("order_id", "ORD-9921"));
    run.expect_turn(reply().contains("delivered"));
    run.expect_turn(judge("apologises for the wait"));
    run.expect_turn(judge("is rude to the customer"));
    run.report().await
}

fn verdicts(report: &Report) -> Vec<(String, Status, String)> {
    report
        .verdicts
        .iter()
        .map(|v| (v.label.clone(), v.status, v.reason.clone()))
        .collect()
}

#[tokio::test]
async fn a_run_recorded_then_replayed_without_the_provider_gives_the_same_verdicts() {
    let dir = cassette_dir("same-verdicts");
    let provider = providers::openai().await;
    let recording = start(&dir, Mode::Record, &provider.url);
    let recorded = support_run(&recording, "Where is my order ORD-9921?").await;
    // Two model steps of the agent and one grading of the judge.
    assert_eq!(provider.answered(), 3);
    assert_eq!(
        recorded.transcript.turns[0].reply.text,
        "Sorry for the wait! Your order is delivered."
    );
    let failing: Vec<&str> = recorded.failures().map(|v| v.label.as_str()).collect();
    assert_eq!(failing.len(), 1, "{recorded}");
    assert!(failing[0].contains("rude"), "{recorded}");
    assert_eq!(recorded.cassette.len(), 3, "{:?}", recorded.cassette);
    assert_eq!(recorded.cassette, recording.used());
    assert!(
        recording.problems().is_empty(),
        "{:?}",
        recording.problems()
    );
    drop(recording);
    drop(provider);

    let replaying = start(&dir, Mode::Replay, "http://127.0.0.1:9/v1");
    let started = Instant::now();
    let replayed = support_run(&replaying, "Where is my order ORD-9921?").await;
    assert_eq!(verdicts(&replayed), verdicts(&recorded), "{replayed}");
    assert_eq!(
        replayed.transcript.turns[0].reply,
        recorded.transcript.turns[0].reply
    );
    assert_eq!(replayed.cassette, recorded.cassette);
    assert!(replaying.last_miss().is_none());
    // Answered from files, so quickly (a generous bound: the provider is gone, not slow).
    assert!(started.elapsed() < Duration::from_secs(30));

    // Each file is the request and its answer, readable: the agent's first step asked for
    // the tool with the tools offered, and the judge's grading is there too.
    let ids = entries(&dir).expect("entries");
    assert_eq!(ids.len(), 3);
    assert!(
        ids.iter()
            .all(|id| id.starts_with("chat-completions-gpt-4o-mini-")),
        "{ids:?}"
    );
    let first = recorded.cassette.first().expect("an entry");
    let e = entry(&dir, first);
    assert_eq!(e["version"], 1);
    assert_eq!(e["request"]["method"], "POST");
    assert_eq!(e["request"]["path"], "/v1/chat/completions");
    assert_eq!(
        e["request"]["body"]["messages"][1]["content"],
        "Where is my order ORD-9921?"
    );
    assert_eq!(e["request"]["headers"]["content-type"], "application/json");
    assert_eq!(e["response"]["status"], 200);
    assert_eq!(
        e["response"]["body"]["choices"][0]["message"]["tool_calls"][0]["function"]["name"],
        "lookup_order"
    );
    let text = std::fs::read_to_string(dir.join(format!("{first}.json"))).expect("text");
    assert!(
        text.starts_with("{\n  \"request\": {"),
        "pretty, keys sorted:\n{text}"
    );
}

#[tokio::test]
async fn streams_are_recorded_and_replayed_event_by_event_in_their_time() {
    let dir = cassette_dir("streams");
    let provider = providers::openai().await;
    let recording = start(&dir, Mode::Record, &provider.url);
    let http = http();
    let ask = |base: String| {
        let http = http.clone();
        async move {
            let response = http
                .post(format!("{base}/chat/completions"))
                .json(&json!({"model": "gpt-4o-mini", "stream": true, "messages": [{"role": "user", "content": "Say hello"}]}))
                .send()
                .await
                .expect("an answer");
            assert_eq!(response.status(), 200);
            assert_eq!(
                response.headers()["content-type"].to_str().unwrap(),
                "text/event-stream"
            );
            response.text().await.expect("the stream")
        }
    };
    let live = ask(recording.base_url()).await;
    let data: Vec<&str> = live.lines().filter(|l| l.starts_with("data: ")).collect();
    assert_eq!(data.len(), 4, "{live}");
    assert_eq!(data[3], "data: [DONE]");
    let id = recording.used().pop().expect("recorded");
    assert!(id.starts_with("chat-completions-gpt-4o-mini-"), "{id}");
    drop(recording);
    drop(provider);

    // The file holds each event with its offset, in order.
    let e = entry(&dir, &id);
    let events = e["response"]["events"].as_array().expect("events").clone();
    assert_eq!(events.len(), 4);
    assert_eq!(events[0]["data"]["choices"][0]["delta"]["content"], "Hel");
    assert_eq!(events[3]["text"], "[DONE]");
    let offsets: Vec<u64> = events
        .iter()
        .map(|e| e["offset_ms"].as_u64().unwrap())
        .collect();
    assert!(offsets.windows(2).all(|w| w[0] <= w[1]), "{offsets:?}");
    let gap = STREAM_GAP.as_millis() as u64;
    assert!(offsets[3] >= offsets[0] + 3 * gap - 10, "{offsets:?}");

    // Replayed at once: the same events.
    let fast = start(&dir, Mode::Replay, ANTHROPIC_UPSTREAM);
    assert_eq!(ask(fast.base_url()).await, live);
    drop(fast);

    // Replayed in the recorded time: at least the recorded offsets (a lower bound only: a busy
    // machine may be slower, never faster).
    let timed = Cassette::new(&dir)
        .mode_over_env(Mode::Replay)
        .recorded_timing(true)
        .start()
        .expect("starts");
    let started = Instant::now();
    assert_eq!(ask(timed.base_url()).await, live);
    let took = started.elapsed().as_millis() as u64;
    assert!(
        took >= offsets[3],
        "replayed in {took} ms, recorded over {} ms",
        offsets[3]
    );
}

#[tokio::test]
async fn anthropic_messages_and_streams_are_recorded_and_replayed() {
    let dir = cassette_dir("anthropic");
    let provider = providers::anthropic().await;
    let recording = Cassette::new(&dir)
        .mode_over_env(Mode::Record)
        .upstream(provider.url.clone())
        .start()
        .expect("starts");
    let claude = |c: &RunningCassette| {
        Judge::new(
            AnthropicJudge::new("claude-3-5-haiku-20241022")
                .base_url(c.base_url())
                .api_key(SENTINEL),
        )
        .mode(JudgeMode::Off)
        .retries(0)
    };
    let graded = |c: &RunningCassette| {
        let suite = Suite::new()
            .agent(agent_fn(|_r| async { "Sorry for the wait!" }))
            .judge(claude(c));
        async move {
            let mut run = ScenarioRun::new(suite, "graded");
            run.user("Where is my order?").await;
            run.expect_turn(judge("apologises"));
            run.expect_turn(judge("is rude"));
            run.report().await
        }
    };
    let recorded = graded(&recording).await;
    assert_eq!(
        (recorded.summary.passed, recorded.summary.failed),
        (1, 1),
        "{recorded}"
    );
    assert_eq!(recorded.cassette.len(), 1);
    assert!(recorded.cassette[0].starts_with("messages-claude-3-5-haiku-20241022-"));

    // A streamed answer through the SDK convention: the origin, `/v1/messages`, `x-api-key`.
    let http = http();
    let ask = |origin: String| {
        let http = http.clone();
        async move {
            http.post(format!("{origin}/v1/messages"))
                .header("x-api-key", SENTINEL)
                .header("anthropic-version", "2023-06-01")
                .json(
                    &json!({"model": "claude-3-5-haiku-20241022", "max_tokens": 64, "stream": true,
                              "messages": [{"role": "user", "content": "Say hello"}]}),
                )
                .send()
                .await
                .expect("an answer")
                .text()
                .await
                .expect("the stream")
        }
    };
    let live = ask(recording.origin()).await;
    let names: Vec<&str> = live
        .lines()
        .filter_map(|l| l.strip_prefix("event: "))
        .collect();
    assert_eq!(
        names,
        [
            "message_start",
            "content_block_delta",
            "content_block_delta",
            "message_stop"
        ]
    );
    let stream_id = recording.used().pop().expect("recorded");
    drop(recording);
    drop(provider);

    let e = entry(&dir, &stream_id);
    assert_eq!(e["request"]["headers"]["anthropic-version"], "2023-06-01");
    assert!(e["request"]["headers"].get("x-api-key").is_none());
    let events = e["response"]["events"].as_array().expect("events");
    assert_eq!(events[1]["event"], "content_block_delta");
    assert_eq!(events[1]["data"]["delta"]["text"], "Hello");

    let replaying = Cassette::new(&dir)
        .mode_over_env(Mode::Replay)
        .upstream(ANTHROPIC_UPSTREAM)
        .start()
        .expect("starts");
    let replayed = graded(&replaying).await;
    assert_eq!(verdicts(&replayed), verdicts(&recorded), "{replayed}");
    assert_eq!(ask(replaying.origin()).await, live);
    // A grading that was not recorded is an error verdict saying so, never a pass.
    let suite = Suite::new()
        .agent(agent_fn(|_r| async { "It is on its way." }))
        .judge(claude(&replaying));
    let mut run = ScenarioRun::new(suite, "graded");
    run.user("Where is my order?").await;
    run.expect_turn(judge("apologises"));
    let missed = run.report().await;
    let verdict = &missed.verdicts[0];
    assert_eq!(verdict.status, Status::Error, "{missed}");
    assert!(
        verdict
            .reason
            .contains("no recording for this request (POST /v1/messages)"),
        "{missed}"
    );
    assert!(
        verdict.reason.contains(
            r#"differs at messages[0].content → checks[0].material.text: recorded "Sorry for the wait!", now "It is on its way.""#
        ),
        "{missed}"
    );
    for (path, text) in files(&dir) {
        assert!(
            !text.contains("SENTINEL"),
            "{} holds the key:\n{text}",
            path.display()
        );
    }
}

#[tokio::test]
async fn a_changed_request_fails_naming_the_closest_recording_and_the_difference() {
    let dir = cassette_dir("changed");
    let provider = providers::openai().await;
    let recording = start(&dir, Mode::Record, &provider.url);
    support_run(&recording, "Where is my order ORD-9921?").await;
    drop(recording);
    let answered = provider.answered();

    // The provider is still up: a replay must not reach it, even on a miss.
    let replaying = start(&dir, Mode::Replay, &provider.url);
    let report = support_run(&replaying, "Where is my parcel ORD-9921?").await;
    assert_eq!(
        provider.answered(),
        answered,
        "a replay forwarded a request"
    );
    let error = report.transcript.turns[0]
        .error
        .clone()
        .expect("the turn failed");
    assert!(
        error.starts_with(&format!(
            "no recording for this request (POST /v1/chat/completions) in {}; closest: {}",
            dir.display(),
            dir.join("chat-completions-gpt-4o-mini-").display()
        )),
        "{error}"
    );
    assert!(
        error.contains(
            r#"differs at messages[1].content: recorded "Where is my order ORD-9921?", now "Where is my parcel ORD-9921?""#
        ),
        "{error}"
    );
    let miss = replaying.last_miss().expect("the miss is kept");
    assert_eq!(miss.request, "POST /v1/chat/completions");
    assert_eq!(miss.message, error);
    let closest = miss.closest.expect("a closest entry");
    assert!(report.cassette.is_empty(), "{:?}", report.cassette);

    // Any client sees the miss as an error its SDK shows and does not retry.
    let raw = http()
        .post(format!("{}/chat/completions", replaying.base_url()))
        .json(&json!({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Hi"}], "temperature": 0.0}))
        .send()
        .await
        .expect("an answer");
    assert_eq!(raw.status().as_u16(), 599);
    assert_eq!(raw.headers()["x-should-retry"], "false");
    let body: Value = raw.json().await.expect("JSON");
    let message = body["error"]["message"].as_str().expect("a message");
    assert!(message.contains("closest: "), "{message}");

    // An entry edited by hand no longer answers for its name.
    let path = dir.join(format!("{closest}.json"));
    let text = std::fs::read_to_string(&path).expect("entry");
    std::fs::write(
        &path,
        text.replace("Where is my order", "Where was my order"),
    )
    .expect("edit");
    let report = support_run(&replaying, "Where is my order ORD-9921?").await;
    let error = report.transcript.turns[0]
        .error
        .clone()
        .expect("the turn failed");
    assert!(
        error.contains("holds another request than its name says"),
        "{error}"
    );
    assert!(error.contains(&closest), "{error}");
}

#[tokio::test]
async fn no_key_or_configured_secret_reaches_a_cassette() {
    let dir = cassette_dir("secrets");
    let openai = providers::openai().await;
    let customer = "customer-SENTINEL-4711";
    let cassette = |mode: Mode, upstream: &str| {
        Cassette::new(&dir)
            .mode_over_env(mode)
            .upstream(upstream)
            .redact(customer)
            .start()
            .expect("starts")
    };
    let run = |c: &RunningCassette, key: &str| {
        let agent = ChatAgent::new("gpt-4o-mini")
            .api_key(key)
            .mock("lookup_order", json!("delivered"))
            .cassette(c);
        async move {
            let mut run = ScenarioRun::new(Suite::new().agent(agent), "secrets");
            run.user(format!("I am {customer}; where is my order?"))
                .await;
            run.expect_turn(reply().contains("delivered"));
            run.report().await
        }
    };
    let recording = cassette(Mode::Record, &openai.url);
    let recorded = run(&recording, SENTINEL).await;
    assert!(recorded.passed(), "{recorded}");
    // The provider echoed the key in its answer, and the query carried one.
    let responses = http()
        .post(format!("{}/responses?key={SENTINEL}", recording.base_url()))
        .bearer_auth(SENTINEL)
        .json(&json!({"model": "gpt-4o", "input": format!("{customer} says hi")}))
        .send()
        .await
        .expect("an answer");
    let answer: Value = responses.json().await.expect("JSON");
    assert_eq!(
        answer["echo"]["authorization"],
        format!("Bearer {SENTINEL}"),
        "the client gets the answer as it was"
    );
    assert!(
        recording
            .used()
            .iter()
            .any(|id| id.starts_with("responses-gpt-4o-"))
    );
    drop(recording);

    let all = files(&dir);
    assert_eq!(all.len(), 3);
    for (path, text) in &all {
        assert!(
            !text.contains("SENTINEL"),
            "{} holds a secret:\n{text}",
            path.display()
        );
    }
    assert!(
        all.iter()
            .any(|(_, t)| t.contains("\"authorization\": \"Bearer ***\"")),
        "the echo is kept, redacted"
    );

    // The same run replays without any key: the redacted request is still matched.
    let replaying = cassette(Mode::Replay, &openai.url);
    let replayed = run(&replaying, "").await;
    assert!(replayed.passed(), "{replayed}");
    assert_eq!(replayed.cassette, recorded.cassette);
    // A key in the query is no part of the request either.
    let again: Value = http()
        .post(format!(
            "{}/responses?key=another-key-1234",
            replaying.base_url()
        ))
        .json(&json!({"model": "gpt-4o", "input": format!("{customer} says hi")}))
        .send()
        .await
        .expect("an answer")
        .json()
        .await
        .expect("JSON");
    assert_eq!(
        again["output"][0]["content"][0]["text"],
        "You said: *** says hi"
    );
    assert_eq!(again["echo"]["authorization"], "Bearer ***");
}

#[tokio::test]
async fn scenarios_recording_at_once_into_one_directory_leave_whole_files() {
    let dir = cassette_dir("concurrent");
    let provider = providers::openai().await;
    // Two proxies (as two test binaries would run them) and one shared by two scenarios.
    let first = start(&dir, Mode::Record, &provider.url);
    let second = start(&dir, Mode::Record, &provider.url);
    let questions = [
        "Where is my order ORD-9921?",
        "Where is my order ORD-9921, please?",
    ];
    let (a, b, c, d) = tokio::join!(
        support_run(&first, questions[0]),
        support_run(&first, questions[1]),
        support_run(&second, questions[0]),
        support_run(&second, questions[1]),
    );
    for r in [&a, &b, &c, &d] {
        assert_eq!(r.summary.failed, 1, "{r}");
        assert_eq!(r.cassette.len(), 3, "{:?}", r.cassette);
    }
    // Each run lists its own entries, though runs shared a proxy.
    assert_eq!(a.cassette, c.cassette);
    assert_eq!(b.cassette, d.cassette);
    assert!(a.cassette.iter().all(|id| !b.cassette.contains(id)));
    drop((first, second));

    let all = files(&dir);
    assert_eq!(
        all.len(),
        6,
        "no temporary file left: {:?}",
        all.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    for (path, text) in &all {
        let v: Value = serde_json::from_str(text)
            .unwrap_or_else(|e| panic!("{} is torn: {e}", path.display()));
        assert_eq!(v["response"]["status"], 200);
    }
    let replaying = start(&dir, Mode::Replay, &provider.url);
    let answered = provider.answered();
    let (e, f) = tokio::join!(
        support_run(&replaying, questions[0]),
        support_run(&replaying, questions[1]),
    );
    assert_eq!(verdicts(&e), verdicts(&a));
    assert_eq!(verdicts(&f), verdicts(&b));
    assert_eq!(provider.answered(), answered);
}

#[tokio::test]
async fn auto_records_what_is_missing_and_is_refused_in_ci() {
    let dir = cassette_dir("auto");
    let provider = providers::openai().await;
    let started = Cassette::new(&dir)
        .mode_over_env(Mode::Auto)
        .upstream(provider.url.clone())
        .start();
    if std::env::var("CI").is_ok_and(|v| !v.trim().is_empty() && v != "false" && v != "0") {
        let e = started.expect_err("auto is refused in CI");
        assert!(
            e.message()
                .contains("the cassette mode `auto` records what is missing, and CI is set"),
            "{e}"
        );
        return;
    }
    let auto = started.expect("auto starts outside CI");
    support_run(&auto, "Where is my order ORD-9921?").await;
    assert_eq!(provider.answered(), 3);
    support_run(&auto, "Where is my order ORD-9921?").await;
    assert_eq!(provider.answered(), 3, "recorded answers are replayed");
    support_run(&auto, "Where is my order ORD-9921, please?").await;
    assert_eq!(provider.answered(), 6, "a new question is recorded");
    assert_eq!(entries(&dir).expect("entries").len(), 6);
}

#[tokio::test]
async fn entries_no_run_used_are_listed_and_pruned() {
    let dir = cassette_dir("prune");
    let provider = providers::openai().await;
    let recording = start(&dir, Mode::Record, &provider.url);
    support_run(&recording, "Where is my order ORD-9921?").await;
    let stale = support_run(&recording, "Where is my order ORD-9921, please?").await;
    drop(recording);
    assert_eq!(entries(&dir).expect("entries").len(), 6);

    let replaying = start(&dir, Mode::Replay, &provider.url);
    let kept = support_run(&replaying, "Where is my order ORD-9921?").await;
    let mut stale_ids = stale.cassette.clone();
    stale_ids.sort();
    assert_eq!(unused(&dir, &kept.cassette).expect("listed"), stale_ids);
    let refused = prune(&dir, ["not-an-entry"]).expect_err("nothing used: refused");
    assert!(
        refused.message().contains("pruning would delete all 6"),
        "{refused}"
    );
    assert_eq!(prune(&dir, &kept.cassette).expect("pruned"), stale_ids);
    let mut left = entries(&dir).expect("entries");
    left.sort();
    let mut used = kept.cassette.clone();
    used.sort();
    assert_eq!(left, used);
    // What is left still replays the run.
    assert!(
        support_run(&replaying, "Where is my order ORD-9921?")
            .await
            .failures()
            .count()
            == 1
    );
}

#[test]
fn a_cassette_that_cannot_work_is_refused_at_start() {
    let missing = cassette_dir("never-recorded");
    let e = Cassette::new(&missing)
        .mode_over_env(Mode::Replay)
        .start()
        .expect_err("nothing to replay");
    assert!(
        e.message().contains("does not exist: record it first"),
        "{e}"
    );
    let e = Cassette::new(&missing)
        .mode_over_env(Mode::Record)
        .ignore_fields(["stream"])
        .start()
        .expect_err("stream is kept");
    assert!(e.message().contains("`stream` cannot be ignored"), "{e}");
    let e = Cassette::new(&missing)
        .mode_over_env(Mode::Record)
        .upstream("api.openai.com/v1")
        .start()
        .expect_err("not a URL");
    assert!(e.message().contains("is not a URL"), "{e}");
}

/// A model that answers the same question differently from one call to the next: right
/// (mentions the refund) about 7 times in 10, by a seeded sequence, with a second step when it
/// asks for the order first — so the runs take different paths through the conversation.
async fn fickle_model() -> (String, std::sync::Arc<std::sync::atomic::AtomicU64>) {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    let calls = Arc::new(AtomicU64::new(0));
    let counter = calls.clone();
    let router = axum::Router::new().route(
        "/v1/chat/completions",
        axum::routing::post(move |axum::Json(body): axum::Json<Value>| {
            let n = counter.fetch_add(1, Ordering::SeqCst);
            async move {
                // xorshift of the call number: the same answers in every run of the test.
                let mut x = n.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
                x ^= x >> 33;
                x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
                x ^= x >> 33;
                let turns = body["messages"].as_array().map_or(0, Vec::len);
                let text = if x % 10 < 7 {
                    format!("Your refund is on its way (answer {n}, {turns} messages).")
                } else {
                    format!("Sorry, I cannot help with that (answer {n}).")
                };
                axum::Json(json!({"id": format!("c{n}"), "object": "chat.completion",
                    "model": "gpt-4o-mini", "choices": [{"index": 0, "finish_reason": "stop",
                    "message": {"role": "assistant", "content": text}}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}))
            }
        }),
    );
    (super::servers::serve(router).await, calls)
}

/// Twenty runs of a two-turn refund conversation through `cassette`.
async fn twenty_runs(cassette: &RunningCassette, runs: u32) -> Report {
    use agent_test_runtime::scenario::Scenario;
    Scenario::new("fickle refund")
        .user("I want a refund")
        .user("Order ORD-7, please")
        .expect_turn(reply().contains("refund"))
        .repeat(runs)
        .min_passes(1)
        .run_fresh(|| Suite::new().agent(ChatAgent::new("gpt-4o-mini").cassette(cassette)))
        .await
}

/// A repeated scenario recorded against a model that answers differently each time replays
/// its runs' own answers, run by run: the same 20 outcomes and the same pass^k offline. A
/// replay that asks more than the recording holds leaves the recorded paths and says so.
#[tokio::test]
async fn a_repeated_scenario_replays_each_run_s_own_answers() {
    let dir = cassette_dir("samples");
    let (upstream, calls) = fickle_model().await;
    let recording = start(&dir, Mode::Record, &format!("{upstream}/v1"));
    let recorded = twenty_runs(&recording, 20).await;
    assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 40);
    let summary = recorded.repeats.as_ref().expect("repeats");
    assert!(
        summary.passed_runs > 5 && summary.passed_runs < 20,
        "the model is fickle: {recorded}"
    );
    // Every answer kept: the first turn's request is the same in every run (20 samples), the
    // second's differs with the first answer.
    let ids = entries(&dir).expect("entries");
    assert_eq!(ids.len(), 40, "{ids:?}");
    assert!(ids.iter().any(|id| id.ends_with("~20")), "{ids:?}");
    drop(recording);

    let replaying = start(&dir, Mode::Replay, "http://127.0.0.1:9/v1");
    let replayed = twenty_runs(&replaying, 20).await;
    assert!(
        replaying.last_miss().is_none(),
        "{:?}",
        replaying.last_miss()
    );
    assert_eq!(
        serde_json::to_value(replayed.repeats.as_ref().expect("repeats")).expect("json"),
        serde_json::to_value(summary).expect("json"),
        "the same runs, the same tallies, the same pass^k"
    );
    assert_eq!(replayed.passed(), recorded.passed());
    assert!(unused(&dir, replaying.used()).expect("listed").is_empty());
    drop(replaying);

    // `unused` holds per sample: ten runs use the first ten samples and their paths.
    let replaying = start(&dir, Mode::Replay, "http://127.0.0.1:9/v1");
    let _ = twenty_runs(&replaying, 10).await;
    let left = unused(&dir, replaying.used()).expect("listed");
    assert_eq!(left.len(), 20, "{left:?}");
    assert!(
        left.iter().any(|id| id.ends_with("~11")) && !left.iter().any(|id| id.ends_with("~10"))
    );
    drop(replaying);

    // A 21st run asks the first question a 21st time: no recorded path holds it.
    let replaying = start(&dir, Mode::Replay, "http://127.0.0.1:9/v1");
    let more = twenty_runs(&replaying, 21).await;
    // The run's first turn is refused with the reason; the report shown is that run's.
    let shown = more.to_string();
    assert!(
        shown.contains("the cassette holds 20 samples of it (the answers of 20 asks"),
        "{shown}"
    );
    assert!(replaying.last_miss().is_some());
    assert_eq!(more.repeats.as_ref().map(|r| r.runs), Some(21));
}

/// A key the provider streams back four characters per event — in the text and in a tool
/// call's arguments — is in no file: the stream is redacted as the client reassembles it, and
/// the replay gives `***` where the key was.
#[tokio::test]
async fn a_secret_spread_over_stream_events_is_redacted_as_a_whole() {
    let dir = cassette_dir("stream-secret");
    let (provider, _) = providers::careless().await;
    let ask = |base: String, key: &'static str| async move {
        let response = http()
            .post(format!("{base}/chat/completions"))
            .bearer_auth(key)
            .json(&json!({"model": "gpt-4o-mini", "stream": true,
                          "messages": [{"role": "user", "content": "What is my key?"}]}))
            .send()
            .await
            .expect("an answer");
        assert_eq!(response.status(), 200);
        response.text().await.expect("the stream")
    };
    // What a client reassembles from a stream: the content, and the tool call's arguments.
    let reassembled = |stream: &str| {
        let (mut content, mut arguments) = (String::new(), String::new());
        for line in stream.lines() {
            let Some(data) = line.strip_prefix("data: ") else {
                continue;
            };
            let Ok(chunk) = serde_json::from_str::<Value>(data) else {
                continue;
            };
            let delta = &chunk["choices"][0]["delta"];
            content.push_str(delta["content"].as_str().unwrap_or_default());
            arguments.push_str(
                delta["tool_calls"][0]["function"]["arguments"]
                    .as_str()
                    .unwrap_or_default(),
            );
        }
        (content, arguments)
    };
    let recording = start(&dir, Mode::Record, &provider.url);
    let live = ask(recording.base_url(), SENTINEL).await;
    // The client gets the answer as it was.
    assert_eq!(
        reassembled(&live),
        (
            format!("Your key is {SENTINEL}. Keep it safe."),
            format!("{{\"key\":\"{SENTINEL}\"}}")
        )
    );
    drop(recording);
    let upstream = provider.url.clone();
    drop(provider);
    let all = files(&dir);
    assert_eq!(all.len(), 1);
    for (path, text) in &all {
        // Not the key, nor any of its pieces after the first.
        for piece in SENTINEL.as_bytes().chunks(4).skip(1) {
            let piece = std::str::from_utf8(piece).unwrap();
            assert!(
                !text.contains(piece),
                "{} holds `{piece}` of the key:\n{text}",
                path.display()
            );
        }
    }
    let replaying = start(&dir, Mode::Replay, &upstream);
    let replayed = ask(replaying.base_url(), "sk-another-key-0000").await;
    assert_eq!(
        reassembled(&replayed),
        (
            "Your key is ***. Keep it safe.".to_owned(),
            "{\"key\":\"***\"}".to_owned()
        )
    );
}

/// An answer compressed without being asked for is decoded before it is passed on and
/// recorded; one in a coding the proxy cannot decode is passed on as it came, not recorded,
/// and no entry is named for it.
#[tokio::test]
async fn an_answer_compressed_unasked_is_decoded_or_passed_on_unrecorded() {
    let dir = cassette_dir("compressed");
    let (provider, accepted) = providers::careless().await;
    let recording = start(&dir, Mode::Record, &format!("{}/gzip", provider.url));
    let response = http()
        .post(format!("{}/chat/completions", recording.base_url()))
        .bearer_auth(SENTINEL)
        .header("accept-encoding", "gzip, br")
        .json(&json!({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}]}))
        .send()
        .await
        .expect("an answer");
    assert!(response.headers().get("content-encoding").is_none());
    let id = response.headers()["agent-test-cassette-entry"]
        .to_str()
        .unwrap()
        .to_owned();
    let answer: Value = response.json().await.expect("plain JSON");
    assert_eq!(
        answer["choices"][0]["message"]["content"],
        "Compressed, unasked."
    );
    // The proxy asked for no coding; the entry it named holds the decoded answer.
    assert_eq!(*accepted.lock().unwrap(), ["identity"]);
    let e = entry(&dir, &id);
    assert_eq!(
        e["response"]["body"]["choices"][0]["message"]["content"],
        "Compressed, unasked."
    );
    assert!(
        recording.problems().is_empty(),
        "{:?}",
        recording.problems()
    );
    drop(recording);

    let dir = cassette_dir("compressed-br");
    let recording = start(&dir, Mode::Record, &format!("{}/br", provider.url));
    let response = http()
        .post(format!("{}/chat/completions", recording.base_url()))
        .json(&json!({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}]}))
        .send()
        .await
        .expect("an answer");
    assert_eq!(response.headers()["content-encoding"], "br");
    assert!(
        response
            .headers()
            .get("agent-test-cassette-entry")
            .is_none()
    );
    assert_eq!(
        response.bytes().await.expect("the body").as_ref(),
        [0x8b, 0x02, 0x80, 0x7b, 0x7d, 0x03]
    );
    let problems = recording.problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("the answer is encoded with `br`, which agent-test cannot decode"),
        "{problems:?}"
    );
    assert!(std::fs::read_dir(&dir).map_or(true, |d| d.count() == 0));
}

/// The proxy's answers are not held back for a client that acknowledges late: every socket
/// it accepts sends small writes at once (`TCP_NODELAY`). The client is a plain socket that
/// turns quick acknowledgements off before every read, as a client without them behaves; the
/// provider streams an event every 5 ms. Without `TCP_NODELAY`, Nagle's algorithm held each
/// event written while the one before was unacknowledged until the client's delayed
/// acknowledgement, and the events came in bursts 33-45 ms apart, recording and replaying in
/// the recorded time alike. The bound is far above the provider's pace and far below that
/// stall (a busy machine is slow, never 40 ms slow between most events of most runs);
/// `benches/cassette_latency.rs` measures the real figure.
#[tokio::test]
async fn answers_are_not_held_for_a_client_that_acknowledges_late() {
    let dir = cassette_dir("nodelay");
    let (provider, _) = providers::careless().await;
    let body = json!({"model": "gpt-4o-mini", "stream": true,
                      "messages": [{"role": "user", "content": "Count"}]})
    .to_string();
    let recording = start(&dir, Mode::Record, &format!("{}/paced", provider.url));
    let (addr, path) = (recording.addr(), "/v1/paced/chat/completions");
    let b = body.clone();
    let recorded = tokio::task::spawn_blocking(move || {
        (0..7)
            .map(|_| late_acknowledging_request(addr, path, &b))
            .collect::<Vec<Vec<Duration>>>()
    })
    .await
    .expect("joined");
    drop(recording);
    let replaying = Cassette::new(&dir)
        .mode_over_env(Mode::Replay)
        .recorded_timing(true)
        .start()
        .expect("starts");
    let addr = replaying.addr();
    let replayed = tokio::task::spawn_blocking(move || {
        (0..7)
            .map(|_| late_acknowledging_request(addr, path, &body))
            .collect::<Vec<Vec<Duration>>>()
    })
    .await
    .expect("joined");
    for (what, runs) in [("recording", recorded), ("replaying", replayed)] {
        // Each run's longest wait between two events: the provider's gap (5 ms) and the
        // machine's slack when every write goes out at once; a held write waits for the
        // client's delayed acknowledgement (33-45 ms here without TCP_NODELAY).
        let mut longest: Vec<Duration> = runs
            .iter()
            .map(|arrivals| {
                arrivals
                    .windows(2)
                    .map(|w| w[1].saturating_sub(w[0]))
                    .max()
                    .unwrap_or_default()
            })
            .collect();
        longest.sort();
        let median = longest[longest.len() / 2];
        assert!(
            median < Duration::from_millis(25),
            "{what}: the longest wait between events, median {median:?} (each run: {longest:?})"
        );
    }
}

/// One request over a fresh connection whose client delays its acknowledgements: when each of
/// the answer's events arrived.
fn late_acknowledging_request(addr: std::net::SocketAddr, path: &str, body: &str) -> Vec<Duration> {
    use std::io::{Read, Write};
    let no_quick_ack = |s: &std::net::TcpStream| {
        socket2::SockRef::from(s)
            .set_tcp_quickack(false)
            .expect("TCP_QUICKACK");
    };
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    no_quick_ack(&s);
    let started = Instant::now();
    let request = format!(
        "POST {path} HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(request.as_bytes()).expect("send");
    let mut answer = Vec::new();
    let mut arrivals = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        no_quick_ack(&s);
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let events = buf[..n].windows(2).filter(|w| w == b"\n\n").count();
                arrivals.extend(std::iter::repeat_n(started.elapsed(), events));
                answer.extend_from_slice(&buf[..n]);
            }
            Err(e) => panic!("read: {e}"),
        }
    }
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(text.contains("data: [DONE]"), "{text}");
    arrivals
}
