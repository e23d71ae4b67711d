//! The `agent-test` command, run as a process on real files and against local servers.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};

use crate::support::command::{assert_exit, bin, serve, stderr, stdout, temp, write};

use crate::corpus;

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
fn eval_prices_the_recorded_turns_with_a_price_table() {
    let dir = temp("eval-prices");
    let scenario = json!({"name": "priced", "steps": [{"step": "user", "text": "book it"}],
        "expect": [{"check": {"type": "cost", "max_usd": 0.002}}]});
    write(&dir.join("scenarios.json"), &json!([scenario]));
    let run = |input: u64, output: u64| {
        json!({"scenario": {"name": "priced"}, "transcript": {"turns": [
            {"index": 0, "input": "book it", "reply": {"text": "Booked.",
             "usage": {"input_tokens": input, "output_tokens": output}}}]}})
    };
    write(&dir.join("runs/cheap.json"), &run(4_000, 300));
    write(&dir.join("runs/dear.json"), &run(12_000, 800));
    write(
        &dir.join("prices.json"),
        &json!({"as_of": "2026-11-01", "models": {"gpt-4o-mini": {"input": 0.15, "output": 0.6}},
                "unnamed_as": "gpt-4o-mini"}),
    );
    let eval = |extra: &[&str]| {
        bin()
            .args(["eval", "--scenarios"])
            .arg(dir.join("scenarios.json"))
            .arg("--runs")
            .arg(dir.join("runs"))
            .args(extra)
            .output()
            .expect("runs")
    };
    let prices = dir.join("prices.json");
    let out = eval(&["--prices", prices.to_str().unwrap()]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(
        text.contains("cost budget exceeded: $0.00228 > $0.002"),
        "{text}"
    );
    assert!(text.contains("agent cost: $0.00228"), "{text}");
    assert!(text.contains("; agent cost $0.00306"), "{text}");

    // Without a table the budget is not measured, never passed.
    let out = eval(&[]);
    assert!(
        stdout(&out).contains("not measured: no price table"),
        "{}",
        stdout(&out)
    );
    // A table that is not one stops the command before anything runs.
    write(
        &dir.join("bad.json"),
        &json!({"models": {"m": {"input": -1, "output": 1}}}),
    );
    let bad = dir.join("bad.json");
    let out = eval(&["--prices", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--prices: ")
            && stderr(&out).contains("model `m`: input -1 and output 1 must be prices"),
        "{}",
        stderr(&out)
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
        text.contains("notjson.json: at line 1, column 3: not valid JSON: key must be a string\n"),
        "{text}"
    );
    assert!(text.contains("2 unreadable"), "{text}");

    let out = bin().args(["eval", "--runs", "x"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "the following required arguments were not provided:\n  --scenarios <PATH>..."
        ),
        "{}",
        stderr(&out)
    );
    let out = bin().args(["frobnicate"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unrecognized subcommand 'frobnicate'"));
}

/// Every input of the command line is read strictly: a key given twice is an error naming the
/// file, the path and both places (never "the last one wins"); a byte order mark is skipped.
#[test]
fn repeated_keys_are_errors_and_byte_order_marks_are_skipped() {
    let dir = temp("strict");
    let scenario = dir.join("s.json");
    std::fs::write(
        &scenario,
        "\u{feff}{\"name\": \"refund\", \"steps\": [{\"step\": \"user\", \"text\": \"I was charged twice\"}, \
         {\"step\": \"user\", \"text\": \"ORD-9921\"}],\n  \
         \"expect\": [{\"check\": {\"type\": \"tool\", \"name\": \"process_refund\"}}]}",
    )
    .unwrap();
    // A trace whose tool call repeats an argument: which amount was meant?
    let trace = dir.join("trace.json");
    std::fs::write(
        &trace,
        "{\"response\": \"Done.\", \"trace\": [\n  {\"event\": \"tool_call\", \"id\": \"1\", \
         \"tool\": \"process_refund\", \"params\": {\"amount\": 10, \"amount\": 1000}}]}",
    )
    .unwrap();
    let recording = dir.join("run.json");
    let mut text = String::from("\u{feff}");
    text.push_str(&recording_text());
    std::fs::write(&recording, text).unwrap();
    let out = bin()
        .args(["eval", "--scenarios"])
        .arg(&scenario)
        .arg("--runs")
        .arg(&trace)
        .arg("--runs")
        .arg(&recording)
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    let text = stdout(&out);
    assert!(
        text.contains(
            "trace.json: at trace[0].params.amount: duplicate key `amount`: first at line 2, \
             column 74, again at line 2, column 88; a key may appear only once in an object"
        ),
        "{text}"
    );
    assert!(text.contains("1 unreadable"), "{text}");
    assert!(text.contains("scenario `refund` passed"), "{text}");

    std::fs::write(
        &scenario,
        "{\"name\": \"refund\", \"name\": \"cancel\", \"steps\": []}",
    )
    .unwrap();
    let out = bin()
        .args(["eval", "--scenarios"])
        .arg(&scenario)
        .arg("--runs")
        .arg(&recording)
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(
        err.contains("s.json: at name: duplicate key `name`: first at line 1, column 2, again at line 1, column 20"),
        "{err}"
    );

    write(&dir.join("ok.json"), &refund_scenario());
    let out = bin()
        .args(["run", "--scenarios"])
        .arg(dir.join("ok.json"))
        .args(["--http", "http://127.0.0.1:9/agent", "--template"])
        .arg("{\"input\": \"{input}\", \"input\": \"x\"}")
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(
        err.contains("--template: at input: duplicate key `input`: first at line 1, column 2, again at line 1, column 22"),
        "{err}"
    );
}

/// The refund recording as text.
fn recording_text() -> String {
    serde_json::to_string(&recording("ORD-9921")).expect("json")
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

#[tokio::test]
async fn eval_grades_judge_checks_with_the_judge_the_environment_names_then_replays() {
    use std::sync::atomic::Ordering;
    let dir = temp("judge");
    let mut scenario = refund_scenario();
    scenario["expect"] = json!([{"check": {"type": "judge", "criteria": "confirms the refund"}}]);
    write(&dir.join("s.json"), &scenario);
    write(&dir.join("runs/good.json"), &recording("ORD-9921"));
    let (url, count) = crate::support::command::scripted_judge().await;
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

    // A broken line is that case's error: the other lines are still evaluated and reported.
    std::fs::write(
        dir.join("broken.jsonl"),
        format!(
            "{}\n{}\n",
            example("x").replace(",\"tool\":\"send_email\"", ""),
            example("ana@example.com")
        ),
    )
    .expect("write");
    let out = bin()
        .args(["eval", "--scenarios"])
        .arg(dir.join("broken.jsonl"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out);
    assert!(
        text.contains(
            "broken.jsonl: at line 1: expectations.assertions[0]: missing field `tool`\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("broken.jsonl (broken-2): agent-test: scenario `broken-2` passed"),
        "{text}"
    );
    assert!(
        text.contains("2 runs: 1 passed, 0 failed, 1 unreadable"),
        "{text}"
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
        stderr(&out).contains("invalid value 'mibbo' for '--input-format <FORMAT>'\n  [possible values: mibo, mcplab, promptkit, lamdis, morganabench]\n\n  tip: a similar value exists: 'mibo'"),
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

/// A server that echoes every request's headers back, on every path agent-test talks to: an
/// HTTP agent (`/agent`: a 401 page quoting them, or a JSON reply with them in its text and a
/// tool call), a judge (`/judge/v1/...`: a 500 page quoting them, then verdicts whose
/// reasoning quotes them) and a chat model (`/model/v1/...`: a 401 page quoting them).
async fn echo_server() -> std::net::SocketAddr {
    use axum::http::{HeaderMap, StatusCode};
    use axum::response::IntoResponse;
    use axum::routing::post;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    fn quoted(headers: &HeaderMap) -> String {
        headers
            .iter()
            .map(|(k, v)| format!("{k}: {}", v.to_str().unwrap_or("?")))
            .collect::<Vec<_>>()
            .join("\n")
    }
    let judged = Arc::new(AtomicUsize::new(0));
    let router = axum::Router::new()
        .route(
            "/agent",
            post(|headers: HeaderMap, axum::Json(body): axum::Json<Value>| async move {
                let lines = quoted(&headers);
                if body["input"].as_str().unwrap_or_default().starts_with("ORD-") {
                    axum::Json(json!({"reply": format!("Your refund is on its way. Sent:\n{lines}"),
                        "tool_calls": [{"name": "process_refund", "arguments": {"order_id": "ORD-9921", "auth": lines}}]}))
                        .into_response()
                } else {
                    (StatusCode::UNAUTHORIZED, format!("401 Unauthorized\n{lines}")).into_response()
                }
            }),
        )
        .route(
            "/judge/v1/chat/completions",
            post(move |headers: HeaderMap, axum::Json(body): axum::Json<Value>| {
                let n = judged.fetch_add(1, Ordering::SeqCst);
                async move {
                    let lines = quoted(&headers);
                    if n.is_multiple_of(2) {
                        return (StatusCode::INTERNAL_SERVER_ERROR, [("retry-after", "0")], format!("500 upstream\n{lines}")).into_response();
                    }
                    let user: Value = serde_json::from_str(body["messages"][1]["content"].as_str().unwrap_or("{}")).unwrap_or_default();
                    let results: Vec<Value> = user["checks"].as_array().into_iter().flatten()
                        .map(|c| json!({"id": c["id"], "score": 0.3, "pass": false, "reasoning": format!("the request had {lines}")}))
                        .collect();
                    axum::Json(json!({"choices": [{"message": {"role": "assistant", "content": json!({"results": results}).to_string()}}]}))
                        .into_response()
                }
            }),
        )
        .route(
            "/model/v1/chat/completions",
            post(|headers: HeaderMap| async move {
                (StatusCode::UNAUTHORIZED, format!("bad key: {}", quoted(&headers))).into_response()
            }),
        );
    serve(router).await
}

/// Every file under `dir`, read.
fn read_all(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(read_all(&path));
        } else {
            out.push((path.clone(), std::fs::read_to_string(&path).expect("read")));
        }
    }
    out
}

#[tokio::test]
async fn credentials_echoed_by_servers_appear_in_no_output_and_no_recording() {
    const BEARER: &str = "sk-SENTINEL-cli-bearer-1";
    const HEADER: &str = "sk-SENTINEL-cli-header-2";
    const JUDGE: &str = "sk-SENTINEL-cli-judge-3";
    const MODEL: &str = "sk-SENTINEL-cli-model-4";
    let addr = echo_server().await;
    let dir = temp("secrets");
    let mut scenario = refund_scenario();
    scenario["expect"] = json!([{"check": {"type": "judge", "criteria": "confirms the refund"}}]);
    write(&dir.join("s.json"), &scenario);
    for format in ["text", "json", "junit"] {
        let record = dir.join(format!("rec-{format}"));
        let out = tokio::task::spawn_blocking({
            let (dir, record) = (dir.clone(), record.clone());
            move || {
                bin()
                    .args(["run", "--scenarios"])
                    .arg(dir.join("s.json"))
                    .args([
                        "--http",
                        &format!("http://{addr}/agent"),
                        "--calls-at",
                        "tool_calls",
                    ])
                    .args(["--bearer-env", "SENTINEL_TOKEN", "--secret-header"])
                    .arg(format!("X-Api-Key: {HEADER}"))
                    .args(["--format", format, "--record-dir"])
                    .arg(&record)
                    .env("SENTINEL_TOKEN", BEARER)
                    .env("AGENT_TEST_JUDGE_MODEL", "judge-model")
                    .env("AGENT_TEST_JUDGE_PROVIDER", "openai")
                    .env(
                        "AGENT_TEST_JUDGE_BASE_URL",
                        format!("http://{addr}/judge/v1"),
                    )
                    .env("AGENT_TEST_JUDGE_API_KEY", JUDGE)
                    .env("AGENT_TEST_JUDGE_MODE", "off")
                    .output()
                    .expect("runs")
            }
        })
        .await
        .expect("joined");
        assert_exit(&out, 1);
        let (text, err) = (stdout(&out), stderr(&out));
        for secret in [BEARER, HEADER, JUDGE] {
            assert!(
                !text.contains(secret),
                "{format} output leaks {secret}:\n{text}"
            );
            assert!(!err.contains(secret), "stderr leaks {secret}:\n{err}");
        }
        assert!(text.contains("Bearer ***"), "{format}:\n{text}");
        assert!(text.contains("x-api-key: ***"), "{format}:\n{text}");
        let recordings = read_all(&record);
        assert_eq!(recordings.len(), 1, "{recordings:?}");
        for (path, content) in &recordings {
            for secret in [BEARER, HEADER, JUDGE] {
                assert!(
                    !content.contains(secret),
                    "{} leaks {secret}",
                    path.display()
                );
            }
            assert!(content.contains("authorization: Bearer ***"), "{content}");
            assert!(
                content.contains("the request had"),
                "the judge's reasoning is kept: {content}"
            );
        }
    }
    // A chat model's key, echoed in its error.
    let out = tokio::task::spawn_blocking({
        let dir = dir.clone();
        move || {
            bin()
                .args(["run", "--scenarios"])
                .arg(dir.join("s.json"))
                .args([
                    "--openai",
                    "m",
                    "--base-url",
                    &format!("http://{addr}/model/v1"),
                ])
                .args(["--format", "json", "--record-dir"])
                .arg(dir.join("rec-model"))
                .env("AGENT_TEST_API_KEY", MODEL)
                .env_remove("AGENT_TEST_JUDGE_MODEL")
                .env_remove("AGENT_TEST_JUDGE_PROVIDER")
                .env_remove("AGENT_TEST_JUDGE_BASE_URL")
                .output()
                .expect("runs")
        }
    })
    .await
    .expect("joined");
    assert_exit(&out, 1);
    assert!(
        stdout(&out).contains("bad key: ***") || stdout(&out).contains("Bearer ***"),
        "{}",
        stdout(&out)
    );
    assert!(!stdout(&out).contains(MODEL), "{}", stdout(&out));
    for (path, content) in read_all(&dir.join("rec-model")) {
        assert!(!content.contains(MODEL), "{} leaks the key", path.display());
    }
    // A malformed secret header is refused without being printed.
    let out = bin()
        .args([
            "run",
            "--scenarios",
            "s.json",
            "--http",
            "http://127.0.0.1:9/",
            "--secret-header",
        ])
        .arg(HEADER)
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    assert!(!stderr(&out).contains(HEADER), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--secret-header: a header is `Name: value`"),
        "{}",
        stderr(&out)
    );
}

/// A judge that accepts connections and never answers; counts the connections.
async fn silent_judge() -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let accepted = std::sync::Arc::new(AtomicUsize::new(0));
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

/// A judge that always fails with a 500 (reachable, so retried); counts the requests.
async fn failing_judge() -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use axum::routing::post;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let count = std::sync::Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    let router = axum::Router::new().route(
        "/v1/chat/completions",
        post(move || {
            seen.fetch_add(1, Ordering::SeqCst);
            async {
                (
                    axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                    [("retry-after", "0")],
                    "down for maintenance",
                )
            }
        }),
    );
    (format!("http://{}/v1", serve(router).await), count)
}

/// `agent-test eval` of four recordings graded by the judge at `url`, one worker, with `args`
/// and `env`.
async fn eval_judged(dir: &Path, url: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = bin();
    cmd.args(["eval", "--scenarios"])
        .arg(dir.join("s.json"))
        .arg("--runs")
        .arg(dir.join("runs"))
        .args(["--jobs", "1", "--format", "json"])
        .args(args)
        .env("AGENT_TEST_JUDGE_MODEL", "judge-model")
        .env("AGENT_TEST_JUDGE_PROVIDER", "openai")
        .env("AGENT_TEST_JUDGE_BASE_URL", url)
        .env("AGENT_TEST_JUDGE_MODE", "off")
        .env_remove("AGENT_TEST_JUDGE_TIMEOUT")
        .env_remove("AGENT_TEST_JUDGE_RETRIES");
    for (k, v) in env {
        cmd.env(k, v);
    }
    tokio::task::spawn_blocking(move || cmd.output().expect("runs"))
        .await
        .expect("joined")
}

/// The judge verdicts' reasons and the judge requests of every run in JSON output.
fn judged(out: &Output) -> (Vec<String>, Vec<u64>) {
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    let runs = doc["runs"].as_array().expect("runs");
    let reasons = runs
        .iter()
        .map(|r| {
            r["report"]["verdicts"]
                .as_array()
                .expect("verdicts")
                .iter()
                .find(|v| v["check"] == "judge")
                .and_then(|v| v["reason"].as_str())
                .unwrap_or_default()
                .to_owned()
        })
        .collect();
    let requests = runs
        .iter()
        .map(|r| r["report"]["judge"]["requests"].as_u64().unwrap_or(0))
        .collect();
    (reasons, requests)
}

fn judged_dir(name: &str) -> PathBuf {
    let dir = temp(name);
    let mut scenario = refund_scenario();
    scenario["expect"] = json!([{"check": {"type": "judge", "criteria": "confirms the refund"}}]);
    write(&dir.join("s.json"), &scenario);
    for i in 0..4 {
        write(&dir.join(format!("runs/r{i}.json")), &recording("ORD-9921"));
    }
    dir
}

#[tokio::test]
async fn a_dead_judge_is_waited_for_twice_per_command_not_per_run() {
    use std::sync::atomic::Ordering;
    let dir = judged_dir("dead-judge");
    let (url, accepted) = silent_judge().await;
    let out = eval_judged(&dir, &url, &["--judge-timeout", "0.2"], &[]).await;
    assert_exit(&out, 1);
    let (reasons, requests) = judged(&out);
    // Without giving up: 3 attempts (2 retries) for each of the 4 runs.
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
    assert_eq!(requests, [2, 0, 0, 0]);
    for r in &reasons {
        assert!(
            r.starts_with(
                "not graded: judge unreachable: no answer from the judge within 0.2 s; after 2 \
                 attempts in a row without an answer, no more requests are sent to it in this run"
            ),
            "{r}"
        );
    }
    // The environment sets the timeout too; a refused connection gives up at once.
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        format!("http://{}/v1", l.local_addr().expect("addr"))
    };
    let out = eval_judged(&dir, &closed, &[], &[("AGENT_TEST_JUDGE_TIMEOUT", "0.2")]).await;
    assert_exit(&out, 1);
    let (reasons, requests) = judged(&out);
    assert_eq!(requests, [1, 0, 0, 0]);
    assert!(
        reasons[3].starts_with(&format!(
            "not graded: judge unreachable: cannot connect to {closed}/chat/completions"
        )),
        "{reasons:?}"
    );
}

#[tokio::test]
async fn judge_retries_and_timeout_come_from_the_command_line_or_the_environment() {
    use std::sync::atomic::Ordering;
    let dir = judged_dir("judge-limits");
    let (url, count) = failing_judge().await;
    // The environment: 1 retry per run.
    let out = eval_judged(&dir, &url, &[], &[("AGENT_TEST_JUDGE_RETRIES", "1")]).await;
    assert_exit(&out, 1);
    assert_eq!(judged(&out).1, [2, 2, 2, 2]);
    assert_eq!(count.swap(0, Ordering::SeqCst), 8);
    // The command line wins over the environment.
    let out = eval_judged(
        &dir,
        &url,
        &["--judge-retries", "0"],
        &[("AGENT_TEST_JUDGE_RETRIES", "1")],
    )
    .await;
    assert_exit(&out, 1);
    let (reasons, requests) = judged(&out);
    assert_eq!(requests, [1, 1, 1, 1]);
    assert!(
        reasons[0].ends_with("answered HTTP 500: down for maintenance (after 1 request)"),
        "{reasons:?}"
    );
    assert_eq!(count.swap(0, Ordering::SeqCst), 4);
    // Values that cannot be read are errors, never ignored; the judge is not asked.
    for (var, value, why) in [
        (
            "AGENT_TEST_JUDGE_TIMEOUT",
            "soon",
            "AGENT_TEST_JUDGE_TIMEOUT=`soon` is not a number of seconds greater than 0",
        ),
        (
            "AGENT_TEST_JUDGE_TIMEOUT",
            "0",
            "AGENT_TEST_JUDGE_TIMEOUT=`0` is not a number of seconds greater than 0",
        ),
        (
            "AGENT_TEST_JUDGE_RETRIES",
            "-1",
            "AGENT_TEST_JUDGE_RETRIES=`-1` is not a whole number of retries (0 or more)",
        ),
    ] {
        let out = eval_judged(&dir, &url, &[], &[(var, value)]).await;
        assert_exit(&out, 1);
        let (reasons, requests) = judged(&out);
        assert_eq!(reasons[0], format!("not graded: {why}"));
        assert_eq!(requests, [0, 0, 0, 0]);
    }
    assert_eq!(count.load(Ordering::SeqCst), 0);
    // Wrong options are a wrong command line.
    for (flag, value, why) in [
        (
            "--judge-timeout",
            "0",
            "invalid value '0' for '--judge-timeout <SECONDS>': 0 seconds is out of range: more than 0 and at most 86400 (a day)",
        ),
        (
            "--judge-retries",
            "two",
            "invalid value 'two' for '--judge-retries <N>': invalid digit found in string",
        ),
    ] {
        let out = eval_judged(&dir, &url, &[flag, value], &[]).await;
        assert_exit(&out, 2);
        assert!(stderr(&out).contains(why), "{}", stderr(&out));
    }
}

/// An expression 5,000 calls deep aborted the whole process with a stack overflow (every run
/// lost), and `DATE_SUB` of i64::MIN days panicked: now the first is refused where the file is
/// read, and the second is an error verdict of its check while every other check and run is
/// still evaluated and reported.
#[test]
fn deep_expressions_and_date_overflows_are_errors_not_crashes() {
    let dir = temp("limits");
    // An expression nested past the limit never parses: the file is refused where it is read
    // (exit 2), naming it, before anything runs.
    let deep = format!("{}'x'{}", "UPPER(".repeat(5000), ")".repeat(5000));
    let mut scenario = refund_scenario();
    scenario["expect"] = json!([
        {"check": {"type": "tool", "name": "process_refund", "args": [{"name": "order_id", "matcher": "expr", "expression": deep}]}}
    ]);
    write(&dir.join("deep.json"), &json!([scenario]));
    write(&dir.join("runs/good.json"), &recording("ORD-9921"));
    write(&dir.join("runs/bad.json"), &recording("ORD-1"));
    let out = bin()
        .args(["eval", "--scenarios"])
        .arg(dir.join("deep.json"))
        .arg("--runs")
        .arg(dir.join("runs"))
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(
        err.contains("deep.json: at scenario `refund`, expect[0]: order_id: invalid expression")
            && err.contains("expression nested deeper than 64 levels at column 385"),
        "{err}"
    );
    // A date out of range for the context's value is known only when it is evaluated: an
    // error verdict, never a crash.
    let mut scenario = refund_scenario();
    scenario["context"] = json!({"N": i64::MIN});
    scenario["expect"] = json!([
        {"check": {"type": "text", "source": "reply", "op": "contains", "value": "refund"}},
        {"check": {"type": "tool", "name": "process_refund", "args": [{"name": "order_id", "matcher": "date", "expression": "DATE_SUB(TODAY(), N, 'day')"}]}}
    ]);
    write(&dir.join("scenarios.json"), &json!([scenario]));
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

/// `agent-test eval` on the frameworks' own traces (the runtime's corpus): the scenario of
/// what ran passes, and each wrong claim fails (exit 1, every verdict a failure), as through
/// the Rust API.
#[test]
fn eval_reads_every_framework_s_trace() {
    let dir = temp("frameworks");
    for e in corpus::entries() {
        let trace = e.dir.join("trace.json");
        let passing = dir.join(format!("{}.json", e.name));
        write(
            &passing,
            &serde_json::to_value(e.passing()).expect("a scenario"),
        );
        let out = bin()
            .args(["eval", "--scenarios"])
            .arg(&passing)
            .arg("--runs")
            .arg(&trace)
            .output()
            .expect("runs");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}{}",
            e.name,
            stdout(&out),
            stderr(&out)
        );
        let wrong = e.failing().into_iter().flat_map(|s| s.expectations()).fold(
            agent_test_runtime::scenario::Scenario::new("wrong"),
            agent_test_runtime::scenario::Scenario::expect,
        );
        let failing = dir.join(format!("{}-wrong.json", e.name));
        write(&failing, &serde_json::to_value(wrong).expect("a scenario"));
        let out = bin()
            .args(["eval", "--format", "json", "--scenarios"])
            .arg(&failing)
            .arg("--runs")
            .arg(&trace)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(1), "{}: {}", e.name, stderr(&out));
        let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
        let verdicts = doc["runs"][0]["report"]["verdicts"]
            .as_array()
            .expect("verdicts");
        assert!(!verdicts.is_empty(), "{}", e.name);
        for v in verdicts {
            assert_eq!(v["status"], "fail", "{}: {v}", e.name);
        }
    }
}
