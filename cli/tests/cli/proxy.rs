//! `agent-test proxy` and `agent-test cassette unused` end to end: the binary serving a
//! cassette in front of a scripted OpenAI-compatible provider on 127.0.0.1, used by a plain
//! HTTP client (as an agent in any language would) and by `agent-test run`.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

use crate::support::command::{assert_exit, bin, stderr, stdout, temp, write};

/// The key the tests send: it must appear in no cassette file.
const SENTINEL: &str = "sk-SENTINEL-proxy-5d2e81";

/// A scripted OpenAI-compatible provider on a thread of its own (the tests block on the
/// binary): a refund tool call, then the answer; every answer echoes the key it was sent.
/// Returns its base URL and how many requests it answered.
fn provider() -> (String, Arc<AtomicUsize>) {
    use axum::routing::post;
    let answered = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&answered);
    let router = axum::Router::new().route(
        "/v1/chat/completions",
        post(
            move |headers: axum::http::HeaderMap, axum::Json(body): axum::Json<Value>| {
                let count = Arc::clone(&count);
                async move {
                    count.fetch_add(1, Ordering::SeqCst);
                    let key = headers
                        .get("authorization")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("")
                        .to_owned();
                    let has_result = body["messages"]
                        .as_array()
                        .is_some_and(|m| m.iter().any(|x| x["role"] == "tool"));
                    let message = if has_result {
                        json!({"role": "assistant", "content": "Refund RF-7 is on its way."})
                    } else if body.get("tools").is_some() {
                        json!({"role": "assistant", "content": null, "tool_calls": [
                            {"id": "c1", "type": "function", "function": {"name": "process_refund", "arguments": "{\"order_id\":\"ORD-9921\"}"}}
                        ]})
                    } else {
                        json!({"role": "assistant", "content": "Hello!"})
                    };
                    axum::Json(json!({"choices": [{"index": 0, "message": message}], "echo": key}))
                }
            },
        ),
    );
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/v1", listener.local_addr().expect("addr"));
    listener.set_nonblocking(true).expect("non-blocking");
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
            let _ = axum::serve(listener, router).await;
        });
    });
    (url, answered)
}

/// `agent-test proxy` running.
struct Proxy {
    child: Child,
    base_url: String,
}

impl Proxy {
    /// Starts the proxy with `args` and reads its base URL from its first line.
    fn start(args: &[&str]) -> Proxy {
        let mut child = Command::new(env!("CARGO_BIN_EXE_agent-test"))
            .arg("proxy")
            .args(args)
            .env_remove("AGENT_TEST_CASSETTE_MODE")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the proxy starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("read the base URL");
        if line.trim().is_empty() {
            let out = child.wait_with_output().expect("ended");
            panic!("the proxy did not start: {}", stderr(&out));
        }
        Proxy {
            child,
            base_url: line.trim().to_owned(),
        }
    }

    /// Stops it with Ctrl-C (SIGINT); what it said on standard error.
    fn stop(self) -> String {
        let status = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
        let out = self.child.wait_with_output().expect("the proxy ends");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stderr(&out)
    }
}

/// POSTs `body` to `url` with `key` as a bearer token: the status and JSON answer.
fn post(url: &str, key: &str, body: &Value) -> (u16, Value) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let response = reqwest::Client::new()
            .post(url)
            .bearer_auth(key)
            .json(body)
            .send()
            .await
            .expect("an answer");
        let status = response.status().as_u16();
        (status, response.json().await.expect("JSON"))
    })
}

/// Every file of `dir` with its text.
fn read_all(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out: Vec<(PathBuf, String)> = std::fs::read_dir(dir)
        .expect("a cassette")
        .map(|e| {
            let path = e.expect("entry").path();
            let text = std::fs::read_to_string(&path).expect("text");
            (path, text)
        })
        .collect();
    out.sort();
    out
}

fn hello(text: &str) -> Value {
    json!({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": text}]})
}

#[test]
fn the_proxy_records_then_replays_for_a_client_in_any_language() {
    let (upstream, answered) = provider();
    let dir = temp("proxy-any-client");
    let cassette = dir.join("cassette");
    let log = dir.join("used.txt");
    let c = cassette.to_str().expect("path");
    let recording = Proxy::start(&[
        "--cassette",
        c,
        "--mode",
        "record",
        "--upstream",
        &upstream,
        "--used-log",
        log.to_str().expect("path"),
    ]);
    assert!(recording.base_url.starts_with("http://127.0.0.1:"));
    assert!(recording.base_url.ends_with("/v1"));
    let url = format!("{}/chat/completions", recording.base_url);
    let (status, live) = post(&url, SENTINEL, &hello("Hi there"));
    assert_eq!(status, 200);
    assert_eq!(live["echo"], format!("Bearer {SENTINEL}"));
    let said = recording.stop();
    assert!(said.contains("recording into"), "{said}");
    assert!(said.contains("stopped; 1 entry used"), "{said}");
    assert_eq!(answered.load(Ordering::SeqCst), 1);
    let logged = std::fs::read_to_string(&log).expect("the used log");
    assert_eq!(logged.lines().count(), 1);
    assert!(
        logged.starts_with("chat-completions-gpt-4o-mini-"),
        "{logged}"
    );
    for (path, text) in read_all(&cassette) {
        assert!(
            !text.contains("SENTINEL"),
            "{} holds the key:\n{text}",
            path.display()
        );
    }

    // Replay (the default mode): the same answer, the provider untouched — also on a miss.
    let replaying = Proxy::start(&["--cassette", c, "--upstream", &upstream]);
    let url = format!("{}/chat/completions", replaying.base_url);
    let (status, replayed) = post(&url, "no-key-needed", &hello("Hi there"));
    assert_eq!(status, 200);
    assert_eq!(replayed["choices"], live["choices"]);
    assert_eq!(replayed["echo"], "Bearer ***");
    let (status, missed) = post(&url, "no-key-needed", &hello("Hi there!"));
    assert_eq!(status, 599);
    let message = missed["error"]["message"].as_str().expect("a message");
    assert!(message.contains("closest: "), "{message}");
    assert!(
        message.contains(r#"differs at messages[0].content: recorded "Hi there", now "Hi there!""#),
        "{message}"
    );
    assert_eq!(
        answered.load(Ordering::SeqCst),
        1,
        "a replay forwarded a request"
    );
    let said = replaying.stop();
    assert!(said.contains("replaying"), "{said}");
    assert!(
        said.contains("no recording for this request"),
        "the miss is said: {said}"
    );
}

#[test]
fn agent_test_run_through_the_proxy_reports_its_entries_and_the_rest_are_pruned() {
    let (upstream, answered) = provider();
    let dir = temp("proxy-run");
    let cassette = dir.join("cassette");
    let c = cassette.to_str().expect("path");
    write(
        &dir.join("s.json"),
        &json!({
            "name": "model_refund",
            "steps": [{"step": "user", "text": "Refund ORD-9921", "expect": [
                {"check": {"type": "tool", "name": "process_refund"}},
                {"check": {"type": "text", "source": "reply", "op": "contains", "value": "RF-7"}}
            ]}]
        }),
    );
    let run = |base: &str, output: &str, key: Option<&str>| {
        let mut cmd = bin();
        cmd.args(["run", "--scenarios"])
            .arg(dir.join("s.json"))
            .args(["--openai", "gpt-4o-mini", "--base-url", base])
            .args(["--mocks", r#"{"process_refund": {"refund_id": "RF-7"}}"#])
            .args(["--format", "json", "--output"])
            .arg(dir.join(output))
            .env_remove("AGENT_TEST_API_KEY")
            .env_remove("AGENT_TEST_JUDGE_MODEL")
            .env_remove("AGENT_TEST_JUDGE_PROVIDER")
            .env_remove("AGENT_TEST_JUDGE_BASE_URL");
        match key {
            Some(k) => cmd.env("OPENAI_API_KEY", k),
            None => cmd.env_remove("OPENAI_API_KEY"),
        };
        let out = cmd.output().expect("runs");
        assert_exit(&out, 0);
        let json: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(output)).expect("output"))
                .expect("JSON");
        json["runs"][0]["report"]["cassette"].clone()
    };
    let recording = Proxy::start(&["--cassette", c, "--mode", "record", "--upstream", &upstream]);
    let recorded = run(&recording.base_url, "recorded.json", Some(SENTINEL));
    recording.stop();
    assert_eq!(recorded.as_array().map(Vec::len), Some(2), "{recorded}");
    assert_eq!(answered.load(Ordering::SeqCst), 2);

    let replaying = Proxy::start(&["--cassette", c, "--mode", "replay", "--upstream", &upstream]);
    let replayed = run(&replaying.base_url, "replayed.json", None);
    replaying.stop();
    assert_eq!(replayed, recorded);
    assert_eq!(
        answered.load(Ordering::SeqCst),
        2,
        "the replay needed no provider"
    );
    for (path, text) in read_all(&cassette) {
        assert!(
            !text.contains("SENTINEL"),
            "{} holds the key:\n{text}",
            path.display()
        );
    }

    // An entry no run used (an old recording): listed, then pruned.
    let stale = cassette.join("chat-completions-gpt-4o-mini-0000000000000000.json");
    std::fs::copy(&read_all(&cassette)[0].0, &stale).expect("copy");
    let unused = |extra: &[&str]| {
        bin()
            .args(["cassette", "unused", c])
            .arg(dir.join("replayed.json"))
            .args(extra)
            .output()
            .expect("runs")
    };
    let out = unused(&[]);
    assert_exit(&out, 0);
    assert_eq!(stdout(&out).trim(), stale.display().to_string());
    assert!(stderr(&out).contains("1 of 3 entries"), "{}", stderr(&out));

    // A report that cannot be read may name entries in use: no pruning then.
    std::fs::write(dir.join("broken.json"), "{not json").expect("write");
    let out = bin()
        .args(["cassette", "unused", c, "--prune"])
        .arg(dir.join("replayed.json"))
        .arg(dir.join("broken.json"))
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("not pruning"), "{}", stderr(&out));
    assert!(stale.exists());
    // A used log naming nothing of the cassette would delete it all: refused.
    std::fs::write(dir.join("other.txt"), "responses-gpt-4o-0123456789abcdef\n").expect("write");
    let out = bin()
        .args(["cassette", "unused", c, "--prune", "--used"])
        .arg(dir.join("other.txt"))
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("pruning would delete all 3"),
        "{}",
        stderr(&out)
    );

    let out = unused(&["--prune"]);
    assert_exit(&out, 0);
    assert_eq!(stdout(&out).trim(), format!("deleted {}", stale.display()));
    assert!(!stale.exists());
    assert_eq!(read_all(&cassette).len(), 2);
}

#[test]
fn a_proxy_that_cannot_work_says_why_and_exits_2() {
    let dir = temp("proxy-refused");
    let c = dir.join("cassette");
    let refused = |args: &[&str], ci: Option<&str>| {
        let mut cmd = bin();
        cmd.arg("proxy")
            .arg("--cassette")
            .arg(&c)
            .args(args)
            .env_remove("AGENT_TEST_CASSETTE_MODE")
            .env_remove("NO_SUCH_SECRET_VAR");
        match ci {
            Some(v) => cmd.env("CI", v),
            None => cmd.env_remove("CI"),
        };
        let out = cmd.output().expect("runs");
        assert_exit(&out, 2);
        assert!(stdout(&out).is_empty(), "no base URL: {}", stdout(&out));
        stderr(&out)
    };
    let said = refused(&["--mode", "auto"], Some("true"));
    assert!(
        said.contains("the cassette mode `auto` records what is missing, and CI is set (CI=true)"),
        "{said}"
    );
    let said = refused(&[], None);
    assert!(said.contains("does not exist: record it first"), "{said}");
    let said = refused(
        &["--mode", "record", "--redact-env", "NO_SUCH_SECRET_VAR"],
        None,
    );
    assert!(
        said.contains("--redact-env NO_SUCH_SECRET_VAR: the variable is not set"),
        "{said}"
    );
    let said = refused(&["--mode", "record", "--ignore", "stream"], None);
    assert!(said.contains("`stream` cannot be ignored"), "{said}");
    let out = bin()
        .args(["proxy", "--cassette"])
        .arg(&c)
        .args(["--mode", "sometimes"])
        .output()
        .expect("runs");
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("`sometimes` is not one of replay, record, auto"));

    // `auto` outside CI starts.
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_agent-test"));
    cmd.arg("proxy")
        .arg("--cassette")
        .arg(&c)
        .args(["--mode", "auto"])
        .env_remove("CI")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let auto = Proxy {
        base_url: String::new(),
        child: cmd.spawn().expect("starts"),
    };
    let mut auto = auto;
    let mut line = String::new();
    BufReader::new(auto.child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("a line");
    assert!(line.starts_with("http://127.0.0.1:"), "{line}");
    assert!(auto.stop().contains("and recording what it lacks"));
}
