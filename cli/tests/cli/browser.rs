//! The HTML report in a real browser: headless Chromium, driven through ChromeDriver (the W3C
//! WebDriver protocol over HTTP), loads a report `agent-test report` wrote, and the test checks
//! that the page renders with no console error and that its filters work.
//!
//! Needs `chromium` and `chromedriver` (Debian's `chromium` and `chromium-driver` packages;
//! `.ci/run` installs them when missing). Where they are missing the test says so and passes,
//! unless `AGENT_TEST_REQUIRE_BROWSER=1` (set by CI), where it fails.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::write_reports;

fn browser() -> Option<(PathBuf, PathBuf)> {
    let find = |env: &str, names: &[&str]| -> Option<PathBuf> {
        if let Some(p) = std::env::var_os(env) {
            return Some(PathBuf::from(p));
        }
        names
            .iter()
            .map(|n| Path::new("/usr/bin").join(n))
            .find(|p| p.exists())
    };
    let chrome = find("CHROME", &["chromium", "chromium-browser", "google-chrome"]);
    let driver = find("CHROMEDRIVER", &["chromedriver"]);
    match (chrome, driver) {
        (Some(c), Some(d)) => Some((c, d)),
        _ if std::env::var("AGENT_TEST_REQUIRE_BROWSER").is_ok_and(|v| v == "1") => {
            panic!("chromium and chromedriver are required (AGENT_TEST_REQUIRE_BROWSER=1)")
        }
        _ => None,
    }
}

/// A WebDriver session on a local ChromeDriver.
struct Session {
    http: reqwest::Client,
    base: String,
    driver: Child,
}

impl Session {
    async fn start(chrome: &Path, driver: &Path) -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        // reqwest is built with rustls and no provider of its own: the runtime's, ring.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::new();
        let root = format!("http://127.0.0.1:{port}");
        for _ in 0..100 {
            if http.get(format!("{root}/status")).send().await.is_ok() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let mut s = Session {
            http,
            base: root,
            driver: child,
        };
        let created = s
            .post(
                "/session",
                json!({"capabilities": {"alwaysMatch": {
                    "browserName": "chrome",
                    "goog:chromeOptions": {"binary": chrome, "args": [
                        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                        "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--window-size=1300,1400"]},
                    "goog:loggingPrefs": {"browser": "ALL"}}}}),
            )
            .await;
        let id = created["sessionId"].as_str().expect("a session").to_owned();
        s.base = format!("{}/session/{id}", s.base);
        s
    }

    async fn post(&self, path: &str, body: Value) -> Value {
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .json(&body)
            .send()
            .await
            .expect("webdriver answers");
        let v: Value = r.json().await.expect("webdriver JSON");
        assert!(v["value"].get("error").is_none(), "{path}: {v}");
        v["value"].clone()
    }

    async fn script(&self, js: &str) -> Value {
        self.post("/execute/sync", json!({"script": js, "args": []}))
            .await
    }

    async fn click(&self, css: &str) {
        let el = self
            .post("/element", json!({"using": "css selector", "value": css}))
            .await;
        let id = el
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .expect("an element")
            .to_owned();
        self.post(&format!("/element/{id}/click"), json!({})).await;
    }

    /// The statuses of the scenarios shown, and the "Showing ..." line.
    async fn shown(&self) -> (Vec<String>, String) {
        let v = self
            .script(
                "return [Array.from(document.querySelectorAll('details.scenario'))\
                 .filter(e => !e.hidden).map(e => e.querySelector('.name').textContent), \
                 document.getElementById('shown').textContent]",
            )
            .await;
        let names = v[0]
            .as_array()
            .expect("names")
            .iter()
            .map(|n| n.as_str().unwrap_or("").to_owned())
            .collect();
        (names, v[1].as_str().unwrap_or("").to_owned())
    }
}

impl Session {
    /// Fails on any error the page logged, then ends the session.
    async fn end_without_console_errors(&self) {
        let logs = self.post("/se/log", json!({"type": "browser"})).await;
        let errors: Vec<&Value> = logs
            .as_array()
            .map(|l| l.iter().filter(|e| e["level"] == "SEVERE").collect())
            .unwrap_or_default();
        assert!(errors.is_empty(), "console errors: {errors:?}");
        let _ = self.http.delete(&self.base).send().await;
    }
}

/// `agent-test report` on the reports in `dir`: the page it wrote.
fn report_page(dir: &Path) -> PathBuf {
    let out = Command::new(env!("CARGO_BIN_EXE_agent-test"))
        .arg("report")
        .arg(dir)
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir.join("report.html")
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

#[tokio::test]
async fn the_report_renders_in_chromium_and_its_filters_work() {
    let Some((chrome, driver)) = browser() else {
        eprintln!(
            "skipped: no chromium and chromedriver (set AGENT_TEST_REQUIRE_BROWSER=1 to require them)"
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("agent-test-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    write_reports(&dir);
    let page = report_page(&dir);
    let html = std::fs::read_to_string(&page).expect("the page");
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no network assets"
    );

    let s = Session::start(&chrome, &driver).await;
    s.post("/url", json!({"url": format!("file://{}", page.display())}))
        .await;
    let (names, line) = s.shown().await;
    assert_eq!(names.len(), 3, "{names:?}");
    assert_eq!(names[0], "cancel_is_refused", "failures first");
    assert_eq!(line, "Showing 3 of 3 scenarios");
    // The summary's figures and the reply's markup shown as text, not as markup.
    let text = s.script("return document.body.textContent").await;
    let text = text.as_str().unwrap_or("");
    assert!(text.contains("2 / 3"), "{text}");
    assert!(
        text.contains("Your refund <b>RF-1</b> is on its way."),
        "{text}"
    );
    assert!(
        text.contains("tool `cancel_order` was called 1 time (expected no call)"),
        "{text}"
    );

    s.click("button[data-filter=\"failed\"]").await;
    assert_eq!(s.shown().await.0, ["cancel_is_refused"]);
    s.click("button[data-filter=\"flaky\"]").await;
    assert_eq!(s.shown().await.0, ["greets_politely"]);
    s.click("button[data-filter=\"passed\"]").await;
    assert_eq!(
        s.shown().await.0,
        ["greets_politely", "refund_is_processed"]
    );
    s.click("button[data-filter=\"all\"]").await;
    // By file, then by text.
    s.script(
        "const g = document.getElementById('group'); g.value = 'tests/greeting.rs'; \
              g.dispatchEvent(new Event('change')); return null",
    )
    .await;
    assert_eq!(
        s.shown().await,
        (
            vec!["greets_politely".to_owned()],
            "Showing 1 of 3 scenarios".to_owned()
        )
    );
    s.script(
        "const g = document.getElementById('group'); g.value = ''; \
              g.dispatchEvent(new Event('change')); return null",
    )
    .await;
    // By tag.
    let pick_tag = |tag: &str| {
        format!(
            "const t = document.getElementById('tag'); t.value = '{tag}'; \
             t.dispatchEvent(new Event('change')); return null"
        )
    };
    s.script(&pick_tag("smoke")).await;
    assert_eq!(s.shown().await.0, ["refund_is_processed"]);
    s.script(&pick_tag("billing")).await;
    assert_eq!(
        s.shown().await.0,
        ["cancel_is_refused", "refund_is_processed"]
    );
    s.script(&pick_tag("")).await;
    let search = s
        .post(
            "/element",
            json!({"using": "css selector", "value": "#search"}),
        )
        .await;
    let id = search
        .as_object()
        .and_then(|o| o.values().next())
        .and_then(Value::as_str)
        .expect("search")
        .to_owned();
    s.post(
        &format!("/element/{id}/value"),
        json!({"text": "process_refund"}),
    )
    .await;
    assert_eq!(s.shown().await.0, ["refund_is_processed"]);
    // A filter in the address is applied on load.
    s.post(
        "/url",
        json!({"url": format!("file://{}#failed", page.display())}),
    )
    .await;
    // (The browser may put the search text back: the page honours it with the filter.)
    let search_text = s
        .script("return document.getElementById('search').value")
        .await;
    let expected: &[&str] = if search_text == "process_refund" {
        &[]
    } else {
        &["cancel_is_refused"]
    };
    assert_eq!(s.shown().await.0, expected);
    s.script(
        "const f = document.getElementById('search'); f.value = ''; \
              f.dispatchEvent(new Event('input')); return null",
    )
    .await;
    assert_eq!(s.shown().await.0, ["cancel_is_refused"]);

    s.end_without_console_errors().await;
}

/// Two judge verdicts in a report: one passed on the conversation, one failed on turn 2.
fn judged_report(dir: &Path) -> agent_test_runtime::model::Transcript {
    use agent_test_runtime::check::Status;
    use agent_test_runtime::model::{Reply, Transcript, Turn};
    use agent_test_runtime::prelude::*;
    use agent_test_runtime::scenario::Scenario;
    let transcript = Transcript::new(vec![
        Turn::new(
            0,
            "I was charged twice",
            Reply::text("Sorry! Your order number?"),
            10,
        ),
        Turn::new(1, "ORD-1", Reply::text("Refunded </script> ORD-1."), 10),
    ]);
    let mut report = Scenario::new("judged")
        .user("I was charged twice")
        .user("ORD-1")
        .expect_turn(judge("confirms the refund"))
        .expect(judge("is polite"))
        .evaluate(&transcript);
    // As a judge would have graded them.
    for v in &mut report.verdicts {
        v.status = if v.label.contains("polite") {
            Status::Pass
        } else {
            Status::Fail
        };
        v.reason = "graded".to_owned();
    }
    std::fs::write(
        dir.join("judged.json"),
        serde_json::to_string(&report).expect("json"),
    )
    .expect("write");
    transcript
}

#[tokio::test]
async fn judge_verdicts_are_marked_in_the_report_and_exported_as_labels() {
    let Some((chrome, driver)) = browser() else {
        eprintln!("skipped: no chromium and chromedriver");
        return;
    };
    let dir = std::env::temp_dir().join(format!("agent-test-labels-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let transcript = judged_report(&dir);
    let page = report_page(&dir);
    let s = Session::start(&chrome, &driver).await;
    s.post("/url", json!({"url": format!("file://{}", page.display())}))
        .await;
    // The page has the export button; no mark yet.
    let shown = s
        .script("return [document.getElementById('export-labels').hidden, document.querySelectorAll('[data-candidate]').length]")
        .await;
    assert_eq!(shown, json!([false, 2]));
    // The passed "is polite" is marked wrong, the failed refund check right.
    s.script("document.querySelector('details.scenario').open = true; return null")
        .await;
    s.click("[data-candidate=\"1\"] button[data-mark=\"wrong\"]")
        .await;
    s.click("[data-candidate=\"0\"] button[data-mark=\"right\"]")
        .await;
    // A mark clicked twice is taken back, and given again.
    s.click("[data-candidate=\"0\"] button[data-mark=\"right\"]")
        .await;
    assert_eq!(
        s.script("return document.getElementById('marked').textContent")
            .await,
        "1"
    );
    s.click("[data-candidate=\"0\"] button[data-mark=\"right\"]")
        .await;
    s.click("#export-labels").await;
    let exported = s
        .script("return document.getElementById('labels-out').value")
        .await;
    let exported = exported.as_str().expect("text").to_owned();
    let cases = agent_test_runtime::judge::calibrate::labels_from_text(&exported, "labels.jsonl")
        .unwrap_or_else(|e| panic!("{e}: {exported}"));
    assert_eq!(cases.len(), 2, "{exported}");
    // Candidate 0 is the turn's check (failed, marked right: the human says fail); candidate 1
    // the conversation's (passed, marked wrong: the human says fail too).
    assert_eq!(
        cases[0].id,
        "judged: judge \"confirms the refund\" (score ≥ 0.8)"
    );
    assert_eq!(cases[0].scope, agent_test_runtime::check::Scope::Turn(1));
    assert!(!cases[0].label);
    assert_eq!(
        cases[1].scope,
        agent_test_runtime::check::Scope::Conversation
    );
    assert!(!cases[1].label);
    assert_eq!(
        cases[1].check.describe(),
        "judge \"is polite\" (score ≥ 0.8)"
    );
    assert_eq!(cases[0].transcript, transcript, "the transcript, whole");
    s.end_without_console_errors().await;
}
