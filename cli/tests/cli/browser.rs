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
    let out = Command::new(env!("CARGO_BIN_EXE_agent-test"))
        .arg("report")
        .arg(&dir)
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = dir.join("report.html");
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

    let logs = s.post("/se/log", json!({"type": "browser"})).await;
    let errors: Vec<&Value> = logs
        .as_array()
        .map(|l| l.iter().filter(|e| e["level"] == "SEVERE").collect())
        .unwrap_or_default();
    assert!(errors.is_empty(), "console errors: {errors:?}");
    let _ = s.http.delete(&s.base).send().await;
}
