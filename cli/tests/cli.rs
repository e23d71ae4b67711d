//! The `agent-test` command, run as a process on real files and against local servers.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_agent-test"))
}

/// A fresh temporary directory for one test.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agent-test-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn write(path: &Path, v: &Value) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("dir");
    }
    std::fs::write(path, serde_json::to_vec_pretty(v).expect("json")).expect("write");
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Serves `router` on a free port of 127.0.0.1 for the rest of the test.
async fn serve(router: axum::Router) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    addr
}

/// The command exited with `code`; otherwise fails showing what it printed.
#[track_caller]
fn assert_exit(o: &Output, code: i32) {
    assert_eq!(o.status.code(), Some(code), "{}{}", stdout(o), stderr(o));
}

fn refund_scenario() -> Value {
    json!({
        "name": "refund",
        "steps": [
            {"step": "user", "text": "I was charged twice", "expect": [
                {"check": {"type": "no_tools"}}
            ]},
            {"step": "user", "text": "ORD-9921", "expect": [
                {"check": {"type": "tool", "name": "process_refund", "args": [{"name": "order_id", "matcher": "exact", "value": "ORD-9921"}]}}
            ]}
        ],
        "expect": [
            {"check": {"type": "text", "source": "reply", "op": "contains", "value": "refund"}},
            {"check": {"type": "tool", "name": "cancel_order", "count": {"exactly": 0}}, "severity": "warning"}
        ]
    })
}

fn recording(refund_order: &str) -> Value {
    json!({
        "scenario": {"name": "refund"},
        "transcript": {"turns": [
            {"index": 0, "input": "I was charged twice", "latency_ms": 20, "reply": {"text": "Which order?"}},
            {"index": 1, "input": "ORD-9921", "latency_ms": 35, "reply": {
                "text": "Your refund is on its way.",
                "calls": [{"name": "process_refund", "arguments": {"order_id": refund_order}}]
            }}
        ]}
    })
}

#[test]
fn eval_reports_passes_failures_and_exit_code() {
    let dir = temp("eval");
    write(&dir.join("scenarios.json"), &json!([refund_scenario()]));
    write(&dir.join("runs/good.json"), &recording("ORD-9921"));
    write(&dir.join("runs/bad.json"), &recording("ORD-1"));
    let out = bin()
        .args(["eval", "--scenarios"])
        .arg(dir.join("scenarios.json"))
        .arg("--runs")
        .arg(dir.join("runs"))
        .output()
        .expect("runs");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(
        text.contains("✓ ") && text.contains("good.json: agent-test: scenario `refund` passed"),
        "{text}"
    );
    assert!(text.contains("✗ ") && text.contains("bad.json"), "{text}");
    assert!(
        text.contains(
            r#"- call at position 0: order_id: expected "ORD-9921", got "ORD-1" (turn 2)"#
        ),
        "{text}"
    );
    assert!(
        text.contains("agent-test: 2 runs: 1 passed, 1 failed; checks: 7 passed, 1 failed"),
        "{text}"
    );

    let out = bin()
        .args(["eval", "--format", "json", "--scenarios"])
        .arg(dir.join("scenarios.json"))
        .args(["--runs"])
        .arg(dir.join("runs/good.json"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    assert_eq!(doc["passed"], true);
    assert_eq!(doc["runs"][0]["report"]["summary"]["passed"], 4);
    assert_eq!(
        doc["runs"][0]["report"]["verdicts"][1]["scope"],
        json!({"turn": 1})
    );

    let junit = dir.join("junit.xml");
    let out = bin()
        .args(["eval", "--format", "junit", "--output"])
        .arg(&junit)
        .arg("--scenarios")
        .arg(dir.join("scenarios.json"))
        .arg("--runs")
        .arg(dir.join("runs"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let xml = std::fs::read_to_string(&junit).expect("junit written");
    assert!(
        xml.contains(r#"<testsuite name="agent-test" tests="2""#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<failure message="agent-test: scenario `refund` FAILED"#),
        "{xml}"
    );
}

#[test]
fn eval_reads_traces_and_json_reports() {
    let dir = temp("traces");
    write(
        &dir.join("s.json"),
        &json!({
            "name": "schedule",
            "steps": [{"step": "user", "text": "Schedule a call tomorrow at 3pm", "expect": [
                {"check": {"type": "tool", "name": "create_event", "args": [
                    {"name": "when", "matcher": "date", "expression": "AT_TIME(DATE_ADD(TODAY(), 1, 'day'), '3:00 PM')"}
                ]}}
            ]}]
        }),
    );
    write(
        &dir.join("morgana.json"),
        &json!({
            "response": "Scheduled.",
            "environment": {"user_time": "2026-11-23T09:30:00Z"},
            "trace": [{"event": "tool_call", "id": "1", "tool": "create_event", "params": {"when": "2026-11-24T15:00:00"}}]
        }),
    );
    let out = bin()
        .args(["eval", "--scenarios"])
        .arg(dir.join("s.json"))
        .arg("--runs")
        .arg(dir.join("morgana.json"))
        .output()
        .expect("runs");
    assert_exit(&out, 0);
}

#[test]
fn unreadable_inputs_name_the_file_and_field() {
    let dir = temp("bad");
    let mut bad = refund_scenario();
    bad["steps"][1]["expect"][0]["check"]["type"] = json!("tooll");
    write(&dir.join("bad.json"), &bad);
    let out = bin()
        .args(["eval", "--scenarios"])
        .arg(dir.join("bad.json"))
        .args(["--runs", "x"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains(
            "bad.json: at steps[1]: unknown variant `tooll`, expected one of `text`, `tool`"
        ),
        "{err}"
    );

    write(&dir.join("ok.json"), &refund_scenario());
    write(
        &dir.join("run.json"),
        &json!({"scenario": {"name": "refund"}, "transcript": {"turns": [{"index": "x"}]}}),
    );
    std::fs::write(dir.join("notjson.json"), "{ nope").unwrap();
    let out = bin()
        .args(["eval", "--scenarios"])
        .arg(dir.join("ok.json"))
        .arg("--runs")
        .arg(dir.join("run.json"))
        .arg("--runs")
        .arg(dir.join("notjson.json"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out);
    assert!(
        text.contains(
            "run.json: at transcript.turns[0].index: invalid type: string \"x\", expected usize"
        ),
        "{text}"
    );
    assert!(
        text.contains("notjson.json: not valid JSON: key must be a string"),
        "{text}"
    );
    assert!(text.contains("2 unreadable"), "{text}");

    let out = bin().args(["eval", "--runs", "x"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--scenarios is required"));
    let out = bin().args(["frobnicate"]).output().expect("runs");
    assert!(stderr(&out).contains("unknown command `frobnicate`"));
}

/// An HTTP agent server: refunds when given an order number.
async fn http_agent() -> String {
    use axum::routing::post;
    let router = axum::Router::new().route(
        "/agent",
        post(|axum::Json(body): axum::Json<Value>| async move {
            let input = body["input"].as_str().unwrap_or("").to_owned();
            if input.starts_with("ORD-") {
                axum::Json(json!({"reply": "Your refund is on its way.", "tool_calls": [{"name": "process_refund", "arguments": {"order_id": input}}]}))
            } else {
                axum::Json(json!({"reply": "Which order?", "tool_calls": []}))
            }
        }),
    );
    let addr = serve(router).await;
    format!("http://{addr}/agent")
}

#[tokio::test]
async fn run_drives_an_http_agent_and_records_runs_eval_can_replay() {
    let dir = temp("run");
    write(&dir.join("s.json"), &refund_scenario());
    let url = http_agent().await;
    let record = dir.join("recordings");
    let out = tokio::task::spawn_blocking({
        let (dir, record) = (dir.clone(), record.clone());
        move || {
            bin()
                .args(["run", "--scenarios"])
                .arg(dir.join("s.json"))
                .args([
                    "--http",
                    &url,
                    "--calls-at",
                    "tool_calls",
                    "--secret-header",
                    "X-Key: hunter2",
                    "--record-dir",
                ])
                .arg(&record)
                .output()
                .expect("runs")
        }
    })
    .await
    .expect("joined");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        text.contains("agent-test: scenario `refund` passed"),
        "{text}"
    );
    assert!(!text.contains("hunter2"));
    // The run left a recording; `eval` on it gives the same verdicts without a server.
    let out = bin()
        .args(["eval", "--scenarios"])
        .arg(dir.join("s.json"))
        .arg("--runs")
        .arg(&record)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("1 passed, 0 failed"));
}

#[tokio::test]
async fn run_drives_an_openai_compatible_model_with_mocks() {
    use axum::routing::post;
    let router = axum::Router::new().route(
        "/v1/chat/completions",
        post(|axum::Json(body): axum::Json<Value>| async move {
            let has_result = body["messages"].as_array().is_some_and(|m| m.iter().any(|x| x["role"] == "tool"));
            if has_result {
                axum::Json(json!({"choices": [{"message": {"role": "assistant", "content": "Refund RF-7 is on its way."}}]}))
            } else {
                axum::Json(json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "process_refund", "arguments": "{\"order_id\":\"ORD-9921\"}"}}
                ]}}]}))
            }
        }),
    );
    let addr = serve(router).await;
    let dir = temp("openai");
    write(
        &dir.join("s.json"),
        &json!({
            "name": "model_refund",
            "steps": [{"step": "user", "text": "Refund ORD-9921", "expect": [
                {"check": {"type": "tool", "name": "process_refund", "result": [{"name": "", "matcher": "contains", "value": "RF-7"}]}},
                {"check": {"type": "text", "source": "reply", "op": "contains", "value": "RF-7"}}
            ]}]
        }),
    );
    let out = tokio::task::spawn_blocking(move || {
        bin()
            .args(["run", "--scenarios"])
            .arg(dir.join("s.json"))
            .args([
                "--openai",
                "test-model",
                "--base-url",
                &format!("http://{addr}/v1"),
                "--mocks",
                r#"{"process_refund": {"refund_id": "RF-7"}}"#,
                "--record-dir",
            ])
            .arg(dir.join("rec"))
            .output()
            .expect("runs")
    })
    .await
    .expect("joined");
    assert_exit(&out, 0);
}

/// A judge endpoint: scores 1.0 when the graded text contains "refund", else 0.1; counts its
/// requests.
async fn judge_endpoint() -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use axum::routing::post;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let count = std::sync::Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    let router = axum::Router::new().route(
        "/v1/chat/completions",
        post(move |axum::Json(body): axum::Json<Value>| {
            seen.fetch_add(1, Ordering::SeqCst);
            async move {
                let user: Value = serde_json::from_str(body["messages"][1]["content"].as_str().unwrap_or("{}")).unwrap_or_default();
                let results: Vec<Value> = user["checks"].as_array().into_iter().flatten().map(|c| {
                    let text = c["material"]["text"].as_str().unwrap_or_default().to_lowercase();
                    let score = if text.contains("refund") { 1.0 } else { 0.1 };
                    json!({"id": c["id"], "score": score, "pass": score > 0.5, "reasoning": "looked for a refund"})
                }).collect();
                axum::Json(json!({"choices": [{"message": {"role": "assistant", "content": json!({"results": results}).to_string()}}],
                                  "usage": {"prompt_tokens": 100, "completion_tokens": 20}}))
            }
        }),
    );
    let addr = serve(router).await;
    (format!("http://{addr}/v1"), count)
}

#[tokio::test]
async fn eval_grades_judge_checks_with_the_judge_the_environment_names_then_replays() {
    use std::sync::atomic::Ordering;
    let dir = temp("judge");
    let mut scenario = refund_scenario();
    scenario["expect"] = json!([{"check": {"type": "judge", "criteria": "confirms the refund"}}]);
    write(&dir.join("s.json"), &scenario);
    write(&dir.join("runs/good.json"), &recording("ORD-9921"));
    let (url, count) = judge_endpoint().await;
    let eval = |mode: &'static str| {
        let (dir, url) = (dir.clone(), url.clone());
        tokio::task::spawn_blocking(move || {
            bin()
                .args(["eval", "--scenarios"])
                .arg(dir.join("s.json"))
                .arg("--runs")
                .arg(dir.join("runs"))
                .env("AGENT_TEST_JUDGE_MODEL", "judge-model")
                .env("AGENT_TEST_JUDGE_BASE_URL", &url)
                .env("AGENT_TEST_JUDGE_CACHE", dir.join("judge-cache"))
                .env("AGENT_TEST_JUDGE_MODE", mode)
                .output()
                .expect("runs")
        })
    };
    let out = eval("live").await.expect("joined");
    assert_exit(&out, 0);
    assert_eq!(count.load(Ordering::SeqCst), 1);
    let out = eval("replay").await.expect("joined");
    assert_exit(&out, 0);
    assert_eq!(count.load(Ordering::SeqCst), 1, "replayed from the cache");
    // A mistyped mode is an error, never a silent fallback to live grading.
    let out = eval("replay-only").await.expect("joined");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains(
            "AGENT_TEST_JUDGE_MODE=`replay-only` is not one of live, replay, refresh, off"
        ),
        "{}",
        stdout(&out)
    );
    assert_eq!(count.load(Ordering::SeqCst), 1);
    // Without a judge, the judge check is an error and the run fails.
    let out = tokio::task::spawn_blocking({
        let dir = dir.clone();
        move || {
            bin()
                .args(["eval", "--scenarios"])
                .arg(dir.join("s.json"))
                .arg("--runs")
                .arg(dir.join("runs"))
                .env_remove("AGENT_TEST_JUDGE_MODEL")
                .env_remove("AGENT_TEST_JUDGE_PROVIDER")
                .env_remove("AGENT_TEST_JUDGE_BASE_URL")
                .output()
                .expect("runs")
        }
    })
    .await
    .expect("joined");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("not graded: no judge configured"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn eval_runs_a_morganabench_suite_on_its_own_outputs() {
    let dir = temp("morgana");
    let example = |to: &str| {
        json!({
            "inputs": {"messages": [{"role": "user", "content": "Email Ana the agenda"}]},
            "expectations": {"assertions": [{"assert_that": "tool_called", "tool": "send_email",
                "parameters": [{"param": "to", "matcher": {"match_as": "email", "value": "ana@example.com"}}]}]},
            "outputs": {"response": "Sent.", "trace": [
                {"event": "tool_call", "id": "1", "tool": "send_email", "params": {"to": to}}]}
        })
        .to_string()
    };
    let jsonl = format!(
        "{}\n{}\n",
        example("ana@EXAMPLE.com"),
        example("bob@example.com")
    );
    std::fs::write(dir.join("suite.jsonl"), jsonl).expect("write");
    let out = bin()
        .args(["eval", "--scenarios"])
        .arg(dir.join("suite.jsonl"))
        .output()
        .expect("runs");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(
        text.contains("suite.jsonl (suite-1): agent-test: scenario `suite-1` passed"),
        "{text}"
    );
    assert!(
        text.contains("to: expected the email \"ana@example.com\", got \"bob@example.com\""),
        "{text}"
    );
    assert!(text.contains("2 runs: 1 passed, 1 failed"), "{text}");

    std::fs::write(
        dir.join("broken.jsonl"),
        example("x").replace(",\"tool\":\"send_email\"", ""),
    )
    .expect("write");
    let out = bin()
        .args(["eval", "--scenarios"])
        .arg(dir.join("broken.jsonl"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .contains("broken.jsonl: at line 1: expectations.assertions[0]: missing field `tool`"),
        "{}",
        stderr(&out)
    );
}

/// One suite in four seed formats, run against a live HTTP agent in one command.
#[tokio::test]
async fn run_accepts_every_seed_format_detected_or_named() {
    let dir = temp("seeds");
    let suite = dir.join("suite");
    std::fs::create_dir_all(&suite).expect("dir");
    std::fs::write(
        suite.join("mibo.json"),
        r#"{"scenario": "mibo refund", "input_utterance": "ORD-9921", "assertions": {"procedural": [
            {"target": "node_call", "condition": "MUST_CALL", "expected_name": "process_refund",
             "expected_arguments": {"order_id": {"matcher": "regex", "value": "^ORD-\\d{4}$"}}},
            {"target": "response_regex", "pattern": "refund", "should_match": true}], "semantic": []}}"#,
    )
    .expect("write");
    std::fs::write(
        suite.join("mcplab.yaml"),
        "name: mcplab refund\nprompt: ORD-9921\neval:\n  tool_constraints:\n    required_tools: [process_refund]\n  response_assertions:\n    - type: contains\n      value: REFUND\n",
    )
    .expect("write");
    std::fs::write(
        suite.join("promptkit.yml"),
        "apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: Scenario\nmetadata:\n  name: promptkit refund\nspec:\n  turns:\n    - role: user\n      content: ORD-9921\n      assertions:\n        - type: tools_called\n          params:\n            tools: [process_refund]\n",
    )
    .expect("write");
    std::fs::write(
        suite.join("lamdis.json"),
        r#"{"id": "lamdis-refund", "name": "lamdis refund", "steps": [
            {"type": "message", "role": "user", "content": "Hi"},
            {"type": "assistant_check", "mode": "includes", "scope": "last", "includes": ["which order"]},
            {"type": "message", "role": "user", "content": "ORD-${bag.var.missing}9921"},
            {"type": "assistant_check", "mode": "includes", "includes": ["on its way"], "severity": "warning"}]}"#,
    )
    .expect("write");
    let url = http_agent().await;
    let run = |args: Vec<String>| {
        let url = url.clone();
        tokio::task::spawn_blocking(move || {
            bin()
                .arg("run")
                .args(args)
                .args(["--http", &url, "--calls-at", "tool_calls"])
                .output()
                .expect("runs")
        })
    };
    let out = run(vec!["--scenarios".into(), suite.display().to_string()])
        .await
        .expect("joined");
    assert_exit(&out, 0);
    let text = stdout(&out);
    for name in [
        "mibo refund",
        "mcplab refund",
        "promptkit refund",
        "lamdis refund",
    ] {
        assert!(
            text.contains(&format!("scenario `{name}` passed")),
            "{name}: {text}"
        );
    }
    assert!(text.contains("4 passed, 0 failed"), "{text}");

    // Naming the format reads the file as that format, and its errors name the field.
    let out = run(vec![
        "--scenarios".into(),
        suite.join("mibo.json").display().to_string(),
        "--input-format".into(),
        "lamdis".into(),
    ])
    .await
    .expect("joined");
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("mibo.json: at assertions: unknown field `assertions`, expected one of `id`, `name`, `description`, `steps`"),
        "{}",
        stderr(&out)
    );
    let out = run(vec![
        "--scenarios".into(),
        suite.display().to_string(),
        "--input-format".into(),
        "mibbo".into(),
    ])
    .await
    .expect("joined");
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("--input-format: unknown format `mibbo`, expected one of mibo, mcplab, promptkit, lamdis, morganabench"),
        "{}",
        stderr(&out)
    );
}

/// A Mibo case evaluated on a Mibo trace, passively.
#[test]
fn eval_reads_mibo_cases_with_mibo_traces() {
    let dir = temp("mibo-eval");
    std::fs::write(
        dir.join("case.json"),
        r#"{"scenario": "hotel", "input_utterance": "Find me a hotel in Madrid", "assertions": {"procedural": [
            {"target": "node_call", "condition": "MUST_CALL", "expected_name": "Agent", "id": "search_called",
             "expected_tool_calls": [{"condition": "MUST_CALL", "expected_name": "search_hotels", "expected_arguments": {"city": "Madrid"}}]},
            {"target": "http_status", "expected_status": 200},
            {"target": "response_time", "max_ms": 3000}], "semantic": []}}"#,
    )
    .expect("write");
    let trace = |city: &str, ms: u64| {
        json!({"data": {"output": "Hotel Sol, 90 EUR", "nodes": [{"name": "Agent", "output": "ok",
                "tool_calls": [{"name": "search_hotels", "arguments": {"city": city}}]}]},
               "metadata": {"http_status": 200, "duration_ms": ms}})
    };
    write(&dir.join("runs/good.json"), &trace("Madrid", 1500));
    write(&dir.join("runs/bad.json"), &trace("Barcelona", 4000));
    let out = bin()
        .args(["eval", "--scenarios"])
        .arg(dir.join("case.json"))
        .arg("--runs")
        .arg(dir.join("runs"))
        .output()
        .expect("runs");
    assert_exit(&out, 1);
    let text = stdout(&out);
    assert!(text.contains("1 passed, 1 failed"), "{text}");
    assert!(
        text.contains("inside: tool `search_hotels` was called 1 time, but no call matched"),
        "{text}"
    );
    assert!(text.contains("4000"), "{text}");
}

/// `eval` without `--runs`, on scenario files that carry no recordings: an error, exit 2.
#[test]
fn eval_without_runs_needs_recordings() {
    let dir = temp("no-runs");
    write(&dir.join("scenarios.json"), &json!([refund_scenario()]));
    let out = bin()
        .args(["eval", "--scenarios"])
        .arg(dir.join("scenarios.json"))
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    assert_eq!(
        stderr(&out),
        "agent-test: --runs is required: the recorded runs or traces to evaluate (the scenario \
         files carry none)\n"
    );
    assert_eq!(stdout(&out), "");
}

/// `--runs` naming a directory with no `.json` file: an error, exit 2.
#[test]
fn eval_runs_in_an_empty_directory() {
    let dir = temp("empty-runs");
    write(&dir.join("scenarios.json"), &refund_scenario());
    std::fs::create_dir_all(dir.join("runs")).expect("dir");
    std::fs::write(dir.join("runs/notes.txt"), "not a run").expect("write");
    let out = bin()
        .args(["eval", "--scenarios"])
        .arg(dir.join("scenarios.json"))
        .arg("--runs")
        .arg(dir.join("runs"))
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    assert_eq!(stderr(&out), "agent-test: --runs: no .json files found\n");
    assert_eq!(stdout(&out), "");
}

/// A run is paired with the scenario of its name (with one scenario, that one whatever the
/// name): with two, a run named after neither is unreadable, naming the scenarios there are.
#[test]
fn eval_run_named_after_no_scenario() {
    let dir = temp("no-scenario");
    let mut other = refund_scenario();
    other["name"] = json!("exchange");
    write(
        &dir.join("scenarios.json"),
        &json!([refund_scenario(), other]),
    );
    let mut run = recording("ORD-9921");
    run["scenario"]["name"] = json!("cancel");
    let run_file = dir.join("cancel.json");
    write(&run_file, &run);
    let out = bin()
        .args(["eval", "--scenarios"])
        .arg(dir.join("scenarios.json"))
        .arg("--runs")
        .arg(&run_file)
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    let text = stdout(&out);
    let expected = format!(
        "! {}: no scenario named `cancel` (the scenarios are: refund, exchange)\n",
        run_file.display()
    );
    assert!(text.starts_with(&expected), "{text}");
    assert!(text.contains("1 unreadable"), "{text}");
    assert_eq!(stderr(&out), "");
}

/// An expression 5,000 calls deep aborted the whole process with a stack overflow (every run
/// lost), and `DATE_SUB` of i64::MIN days panicked: now both are error verdicts of their
/// checks, and every other check and run is still evaluated and reported.
#[test]
fn deep_expressions_and_date_overflows_are_error_verdicts_not_crashes() {
    let dir = temp("limits");
    let deep = format!("{}'x'{}", "UPPER(".repeat(5000), ")".repeat(5000));
    let mut scenario = refund_scenario();
    scenario["context"] = json!({"N": i64::MIN});
    scenario["expect"] = json!([
        {"check": {"type": "text", "source": "reply", "op": "contains", "value": "refund"}},
        {"check": {"type": "tool", "name": "process_refund", "args": [{"name": "order_id", "matcher": "expr", "expression": deep}]}},
        {"check": {"type": "tool", "name": "process_refund", "args": [{"name": "order_id", "matcher": "date", "expression": "DATE_SUB(TODAY(), N, 'day')"}]}}
    ]);
    write(&dir.join("scenarios.json"), &json!([scenario]));
    write(&dir.join("runs/good.json"), &recording("ORD-9921"));
    write(&dir.join("runs/bad.json"), &recording("ORD-1"));
    let out = bin()
        .args(["eval", "--scenarios"])
        .arg(dir.join("scenarios.json"))
        .arg("--runs")
        .arg(dir.join("runs"))
        .output()
        .expect("runs");
    assert_exit(&out, 1);
    let text = stdout(&out);
    assert!(
        text.contains("expression nested deeper than 64 levels at column 385"),
        "{text}"
    );
    assert!(
        text.contains(
            "DATE_SUB: -9223372036854775808 days is out of range (dates go from the year -9999 to 9999)"
        ),
        "{text}"
    );
    assert!(
        text.contains("agent-test: 2 runs: 0 passed, 2 failed"),
        "{text}"
    );
}
