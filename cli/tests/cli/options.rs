//! The command line's conventions (per-subcommand options, checked values, help, version,
//! completions), `run --jobs` (bounded concurrency, output in the scenarios' order, one
//! connection pool) and `--shard K/N`, run as a process against a local server.

use std::path::PathBuf;
use std::process::Output;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::command::{assert_exit, bin, serve, temp, text};

/// `n` one-turn scenarios named `case-00` ... , each expecting the reply to name its order.
fn scenarios(dir: &std::path::Path, n: usize) -> PathBuf {
    let all: Vec<Value> = (0..n)
        .map(|i| {
            json!({"name": format!("case-{i:02}"), "steps": [{"step": "user", "text": format!("ORD-{i:02}"),
                "expect": [{"check": {"type": "text", "source": "reply", "op": "contains", "value": format!("ORD-{i:02}")}}]}]})
        })
        .collect();
    let path = dir.join("scenarios.json");
    std::fs::write(&path, serde_json::to_vec(&all).expect("json")).expect("write");
    path
}

#[test]
fn options_of_another_subcommand_are_errors() {
    for (args, why) in [
        (
            vec!["eval", "--scenarios", "s.json", "--http", "http://x"],
            "unexpected argument '--http' found",
        ),
        (
            vec!["eval", "--scenarios", "s.json", "--timeout", "5"],
            "unexpected argument '--timeout' found",
        ),
        (
            vec![
                "run",
                "--scenarios",
                "s.json",
                "--openai",
                "m",
                "--reply-at",
                "a",
            ],
            "the argument '--openai <MODEL>' cannot be used with '--reply-at <PATH>'",
        ),
        (
            vec![
                "run",
                "--scenarios",
                "s.json",
                "--http",
                "http://x",
                "--mocks",
                "{}",
            ],
            "the argument '--http <URL>' cannot be used with '--mocks <JSON|@FILE>'",
        ),
        (
            vec!["run", "--scenarios", "s.json"],
            "the following required arguments were not provided:\n  <--http <URL>|--openai <MODEL>|--mcp-server <SERVER>>",
        ),
    ] {
        let out = bin().args(&args).output().expect("runs");
        assert_exit(&out, 2);
        assert!(
            text(&out.stderr).contains(why),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn values_out_of_range_are_errors_not_panics() {
    for (args, why) in [
        (
            vec!["--timeout", "1e30"],
            "invalid value '1e30' for '--timeout <SECONDS>': 1e30 seconds is out of range: more than 0 and at most 86400 (a day)",
        ),
        (vec!["--timeout=-1"], "-1 seconds is out of range"),
        (
            vec!["--jobs", "0"],
            "invalid value '0' for '--jobs <N>': 0 is not in 1..=1024",
        ),
        (
            vec!["--shard", "5/4"],
            "invalid value '5/4' for '--shard <K/N>': `5/4` is not K/N with 1 <= K <= N (e.g. 2/4)",
        ),
    ] {
        let mut all = vec![
            "run",
            "--scenarios",
            "s.json",
            "--http",
            "http://127.0.0.1:9/",
        ];
        all.extend(&args);
        let out = bin().args(&all).output().expect("runs");
        assert_exit(&out, 2);
        assert!(
            text(&out.stderr).contains(why),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn help_version_and_completions() {
    let out = bin().arg("--version").output().expect("runs");
    assert_exit(&out, 0);
    assert_eq!(
        text(&out.stdout),
        format!("agent-test {}\n", env!("CARGO_PKG_VERSION"))
    );
    let out = bin().args(["run", "--help"]).output().expect("runs");
    assert_exit(&out, 0);
    let help = text(&out.stdout);
    for part in [
        "--jobs <N>",
        "--shard <K/N>",
        "HTTP agent:",
        "EXAMPLES:",
        "--record-dir <DIR>",
    ] {
        assert!(help.contains(part), "{part} missing from:\n{help}");
    }
    // Without arguments: the help, as a usage error.
    let out = bin().output().expect("runs");
    assert_exit(&out, 2);
    assert!(text(&out.stderr).contains("Usage: agent-test <COMMAND>"));
    let out = bin().args(["completions", "bash"]).output().expect("runs");
    assert_exit(&out, 0);
    let script = text(&out.stdout);
    assert!(script.contains("complete -F _agent__test"), "{script}");
    assert!(script.contains("--shard"), "{script}");
}

/// An agent that answers with the order it was given, holding each request until `jobs`
/// requests are in flight (or a second has passed), and the first scenario's a little longer:
/// the most requests at once is `--jobs`, and the first scenario ends after later ones, so the
/// output's order is the scenarios', not the answers'.
async fn slow_agent(jobs: usize) -> (String, Arc<AtomicUsize>, Peers) {
    use axum::extract::ConnectInfo;
    use axum::routing::post;
    let in_flight = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let peers = Peers::default();
    let router = axum::Router::new().route(
        "/agent",
        post({
            let (in_flight, most, peers) = (in_flight.clone(), most.clone(), peers.clone());
            move |ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
                  axum::Json(body): axum::Json<Value>| {
                let (in_flight, most, peers) = (in_flight.clone(), most.clone(), peers.clone());
                async move {
                    peers.lock().expect("peers").insert(peer);
                    let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    let input = body["input"].as_str().unwrap_or("").to_owned();
                    for _ in 0..100 {
                        if in_flight.load(Ordering::SeqCst) >= jobs {
                            break;
                        }
                        tokio::time::sleep(Duration::from_millis(10)).await;
                    }
                    if input == "ORD-00" {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    in_flight.fetch_sub(1, Ordering::SeqCst);
                    axum::Json(json!({"reply": format!("Refund issued for {input}.")}))
                }
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let service = router.into_make_service_with_connect_info::<std::net::SocketAddr>();
        let _ = axum::serve(listener, service).await;
    });
    (format!("http://{addr}/agent"), most, peers)
}

/// The connections a server saw (each a client address and port).
type Peers = Arc<std::sync::Mutex<std::collections::HashSet<std::net::SocketAddr>>>;

#[tokio::test]
async fn run_jobs_runs_that_many_at_once_and_reports_in_order() {
    let dir = temp("jobs");
    let suite = scenarios(&dir, 12);
    let (url, most, peers) = slow_agent(4).await;
    let out = tokio::task::spawn_blocking(move || {
        bin()
            .args(["run", "--scenarios"])
            .arg(&suite)
            .args(["--http", &url, "--jobs", "4", "--record-dir"])
            .arg(dir.join("recordings"))
            .output()
            .expect("runs")
    })
    .await
    .expect("joined");
    assert_exit(&out, 0);
    assert_eq!(
        most.load(Ordering::SeqCst),
        4,
        "at most --jobs at once, and that many"
    );
    // One connection pool for every scenario: connections are reused, not one per scenario.
    let connections = peers.lock().expect("peers").len();
    assert!(
        connections <= 4,
        "{connections} connections for 12 scenarios"
    );
    let stdout = text(&out.stdout);
    let order: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("✓ "))
        // Each run is named by the report it wrote: `.../case-03.json`.
        .filter_map(|l| l.split(".json:").next()?.rsplit('/').next())
        .collect();
    let expected: Vec<String> = (0..12).map(|i| format!("case-{i:02}")).collect();
    assert_eq!(order, expected, "{stdout}");
    assert!(stdout.contains("12 runs: 12 passed, 0 failed"), "{stdout}");
}

#[test]
fn shards_split_a_suite_so_that_each_run_is_in_exactly_one() {
    let dir = temp("shards");
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs).expect("dir");
    let n = 20;
    let suite = scenarios(&dir, n);
    for i in 0..n {
        let run = json!({"scenario": {"name": format!("case-{i:02}")}, "transcript": {"turns": [
            {"index": 0, "input": format!("ORD-{i:02}"), "reply": {"text": format!("Refund for ORD-{i:02}")}}]}});
        std::fs::write(runs.join(format!("run-{i:02}.json")), run.to_string()).expect("write");
    }
    let mut seen: Vec<String> = Vec::new();
    for k in 1..=3 {
        let out = bin()
            .args(["eval", "--format", "json", "--scenarios"])
            .arg(&suite)
            .arg("--runs")
            .arg(&runs)
            .args(["--shard", &format!("{k}/3")])
            .output()
            .expect("runs");
        assert_exit(&out, 0);
        let doc: Value = serde_json::from_slice(&out.stdout).expect("json output");
        let share: Vec<String> = doc["runs"]
            .as_array()
            .expect("runs")
            .iter()
            .map(|r| r["scenario"].as_str().unwrap_or("").to_owned())
            .collect();
        assert!(
            !share.is_empty() && share.len() < n,
            "shard {k}/3: {share:?}"
        );
        assert_eq!(doc["summary"]["runs"], share.len());
        seen.extend(share);
    }
    seen.sort();
    let all: Vec<String> = (0..n).map(|i| format!("case-{i:02}")).collect();
    assert_eq!(seen, all, "every run in exactly one shard");
}

#[test]
fn json_output_of_no_runs_is_a_document() {
    let dir = temp("empty");
    let suite = scenarios(&dir, 2);
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs).expect("dir");
    std::fs::write(runs.join("one.json"), "{}").expect("write");
    // A shard that holds no run: an empty, valid document.
    let out = (1..=8)
        .map(|k| {
            bin()
                .args(["eval", "--format", "json", "--scenarios"])
                .arg(&suite)
                .arg("--runs")
                .arg(&runs)
                .args(["--shard", &format!("{k}/8")])
                .output()
                .expect("runs")
        })
        .find(|o| o.status.code() == Some(0))
        .expect("a shard without the run");
    let doc: Value = serde_json::from_slice(&out.stdout).expect("json output");
    assert_eq!(
        doc,
        json!({"runs": [], "summary": {"runs": 0, "passed": 0, "failed": 0, "unreadable": 0,
        "checks": {"passed": 0, "failed": 0, "skipped": 0, "errors": 0, "warnings": 0}}, "passed": null})
    );
    assert!(
        text(&out.stderr).contains("holds none of the suite's runs"),
        "{}",
        text(&out.stderr)
    );
    // A suite of nothing is an error, never a pass.
    let none = dir.join("none.json");
    std::fs::write(&none, "[]").expect("write");
    let out = bin()
        .args(["run", "--scenarios"])
        .arg(&none)
        .args(["--http", "http://127.0.0.1:9/agent"])
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    assert_eq!(
        text(&out.stderr).trim(),
        "agent-test: --scenarios: the files hold no scenario"
    );
}

/// An agent that answers with its reply only and exports the turn's spans (OTLP/JSON) to the
/// receiver at `otlp`, continuing the request's `traceparent`.
async fn traced_agent(otlp: String) -> String {
    use axum::http::HeaderMap;
    use axum::routing::post;
    let _ = rustls::crypto::ring::default_provider().install_default();
    let http = reqwest::Client::new();
    let router = axum::Router::new().route(
        "/agent",
        post(move |headers: HeaderMap, axum::Json(body): axum::Json<Value>| {
            let (http, otlp) = (http.clone(), otlp.clone());
            async move {
                let tp = headers
                    .get("traceparent")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default()
                    .to_owned();
                let parts: Vec<&str> = tp.split('-').collect();
                let (trace, parent) = (parts.get(1).copied().unwrap_or(""), parts.get(2).copied().unwrap_or(""));
                let order = body["input"].as_str().unwrap_or("").to_owned();
                let attr = |k: &str, v: &str| json!({"key": k, "value": {"stringValue": v}});
                let spans = json!([
                    {"traceId": trace, "spanId": "00000000000000a1", "parentSpanId": parent,
                     "name": "invoke_agent support", "startTimeUnixNano": "1", "endTimeUnixNano": "9",
                     "attributes": [attr("gen_ai.operation.name", "invoke_agent"), attr("gen_ai.agent.name", "support")]},
                    {"traceId": trace, "spanId": "00000000000000a2", "parentSpanId": "00000000000000a1",
                     "name": "execute_tool lookup_order", "startTimeUnixNano": "2", "endTimeUnixNano": "3",
                     "attributes": [attr("gen_ai.operation.name", "execute_tool"), attr("gen_ai.tool.name", "lookup_order"),
                                    attr("gen_ai.tool.call.arguments", &json!({"order_id": order}).to_string())]}
                ]);
                let export = json!({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]});
                http.post(format!("http://{otlp}/v1/traces"))
                    .header("content-type", "application/json")
                    .body(export.to_string())
                    .send()
                    .await
                    .expect("the receiver answers");
                axum::Json(json!({"reply": format!("Looked up {order}.")}))
            }
        }),
    );
    let addr = serve(router).await;
    format!("http://{addr}/agent")
}

#[tokio::test]
async fn run_otlp_reads_a_black_box_agent_s_calls_from_its_spans() {
    let dir = temp("otlp");
    let scenario = json!({"name": "lookup", "steps": [{"step": "user", "text": "ORD-9921", "expect": [
        {"check": {"type": "tool", "name": "lookup_order", "args": [{"name": "order_id", "matcher": "exact", "value": "ORD-9921"}]}}]}]});
    std::fs::write(dir.join("s.json"), scenario.to_string()).expect("write");
    let otlp = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .to_string();
    let url = traced_agent(otlp.clone()).await;
    let shown = otlp.clone();
    let (with, without) = tokio::task::spawn_blocking(move || {
        let run = |extra: &[&str]| {
            bin()
                .args(["run", "--scenarios"])
                .arg(dir.join("s.json"))
                .args(["--http", &url, "--record-dir"])
                .arg(dir.join("rec"))
                .args(extra)
                .output()
                .expect("runs")
        };
        (run(&["--otlp", &otlp]), run(&["--trace-wait", "1"]))
    })
    .await
    .expect("joined");
    assert_exit(&with, 0);
    assert!(
        text(&with.stderr).contains(&format!("receiving spans at http://{shown}")),
        "{}",
        text(&with.stderr)
    );
    // `--trace-wait` needs `--otlp`.
    assert_exit(&without, 2);
    assert!(
        text(&without.stderr).contains("--otlp"),
        "{}",
        text(&without.stderr)
    );
}

#[tokio::test]
async fn tags_pick_the_scenarios_and_a_tag_no_scenario_has_is_an_error() {
    let dir = temp("tags");
    let tagged = |name: &str, tags: Value| {
        json!({"name": name, "tags": tags, "steps": [{"step": "user", "text": name,
            "expect": [{"check": {"type": "text", "source": "reply", "op": "contains", "value": name}}]}]})
    };
    let suite = dir.join("tagged.json");
    let all = json!([
        tagged("refund", json!(["billing"])),
        tagged("invoice", json!(["billing", "slow"])),
        tagged("greeting", json!(["smoke"])),
        tagged("untagged", json!([]))
    ]);
    std::fs::write(&suite, all.to_string()).expect("write");
    let (url, _, _) = slow_agent(1).await;
    let ran = |tags: &'static [&'static str]| {
        let (suite, url) = (suite.clone(), url.clone());
        tokio::task::spawn_blocking(move || {
            let mut cmd = bin();
            cmd.args(["run", "--format", "json", "--scenarios"])
                .arg(&suite)
                .args(["--http", &url, "--template", r#"{"input": "{input}"}"#]);
            for t in tags {
                cmd.args(["--tag", t]);
            }
            cmd.output().expect("runs")
        })
    };
    let names = |out: &Output| -> Vec<String> {
        let doc: Value = serde_json::from_slice(&out.stdout).expect("json output");
        doc["runs"]
            .as_array()
            .expect("runs")
            .iter()
            .map(|r| r["scenario"].as_str().unwrap_or("").to_owned())
            .collect()
    };
    let out = ran(&["billing"]).await.expect("joined");
    assert_exit(&out, 0);
    assert_eq!(names(&out), ["refund", "invoice"]);
    // Any of several tags, repeated or comma-separated.
    let out = ran(&["slow,smoke"]).await.expect("joined");
    assert_exit(&out, 0);
    assert_eq!(names(&out), ["invoice", "greeting"]);
    // A tag no scenario has would run nothing, and pass.
    let out = ran(&["billing", "nightly"]).await.expect("joined");
    assert_exit(&out, 2);
    assert_eq!(
        text(&out.stderr).trim(),
        "agent-test: --tag: no scenario has the tag `nightly` (the scenarios' tags: billing, slow, smoke)"
    );
    let out = ran(&["needs review"]).await.expect("joined");
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("`needs review` is not a tag"),
        "{}",
        text(&out.stderr)
    );
}

/// An option on the command line wins over the environment: `--record-dir` over
/// `AGENT_TEST_REPORT_DIR` (which moves the reports of suites that do not say where).
#[tokio::test]
async fn record_dir_wins_over_the_report_dir_variable() {
    let dir = temp("record-dir-env");
    let suite = scenarios(&dir, 1);
    let (url, _, _) = slow_agent(1).await;
    let (from_env, from_option) = (dir.join("from-env"), dir.join("from-option"));
    let (with, without) = tokio::task::spawn_blocking({
        let (from_env, from_option) = (from_env.clone(), from_option.clone());
        move || {
            let run = |record: Option<&PathBuf>| {
                let mut cmd = bin();
                cmd.args(["run", "--scenarios"])
                    .arg(&suite)
                    .args(["--http", &url])
                    .env("AGENT_TEST_REPORT_DIR", &from_env);
                if let Some(d) = record {
                    cmd.arg("--record-dir").arg(d);
                }
                cmd.output().expect("runs")
            };
            (run(Some(&from_option)), run(None))
        }
    })
    .await
    .expect("joined");
    assert_exit(&with, 0);
    assert!(
        from_option.join("case-00.json").is_file(),
        "{}",
        text(&with.stdout)
    );
    // Without the option, the variable decides.
    assert_exit(&without, 0);
    assert!(
        from_env.join("case-00.json").is_file(),
        "{}",
        text(&without.stdout)
    );
}
