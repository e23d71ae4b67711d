//! Running the `agent-test` binary and the local servers the tests point it at.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `agent-test` binary of this build.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_agent-test"))
}

/// A fresh temporary directory for one test (named after the test binary, the process and
/// `name`, so parallel tests never share one).
pub fn temp(name: &str) -> PathBuf {
    // The tests share one process: two of them in one directory would race.
    static USED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut used = USED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    assert!(
        !used.iter().any(|u| u == name),
        "temp({name:?}) is used by two tests: give each its own name"
    );
    used.push(name.to_owned());
    drop(used);
    let dir = std::env::temp_dir().join(format!(
        "agent-test-{}-{}-{name}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes `v` as pretty JSON, creating the parent directories.
pub fn write(path: &Path, v: &serde_json::Value) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("dir");
    }
    std::fs::write(path, serde_json::to_vec_pretty(v).expect("json")).expect("write");
}

/// Bytes the command printed, as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// What the command printed to standard output.
pub fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

/// What the command printed to standard error.
pub fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

/// The command exited with `code`; otherwise fails showing what it printed.
#[track_caller]
pub fn assert_exit(o: &Output, code: i32) {
    assert_eq!(o.status.code(), Some(code), "{}{}", stdout(o), stderr(o));
}

/// Serves `router` on a free port of 127.0.0.1 for the rest of the test.
pub async fn serve(router: axum::Router) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    addr
}

/// A judge endpoint whose grades are known: a graded text ending in a number scores that
/// number; otherwise one mentioning "refund" scores 1.0 and any other 0.1. A text containing
/// "garbled" gets an answer that is not JSON. Counts its requests.
pub async fn scripted_judge() -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use axum::routing::post;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    let router = axum::Router::new().route(
        "/v1/chat/completions",
        post(move |axum::Json(body): axum::Json<serde_json::Value>| {
            seen.fetch_add(1, Ordering::SeqCst);
            async move {
                let content = body["messages"][1]["content"].as_str().unwrap_or("{}");
                let user: serde_json::Value = serde_json::from_str(content).unwrap_or_default();
                let checks = user["checks"].as_array().cloned().unwrap_or_default();
                let mut garbled = false;
                let results: Vec<serde_json::Value> = checks
                    .iter()
                    .map(|c| {
                        let text = c["material"]["text"].as_str().unwrap_or_default();
                        garbled |= text.contains("garbled");
                        let score = text
                            .rsplit(' ')
                            .next()
                            .and_then(|w| w.parse::<f64>().ok())
                            .unwrap_or(if text.to_lowercase().contains("refund") { 1.0 } else { 0.1 });
                        serde_json::json!({"id": c["id"], "score": score, "pass": score >= 0.5, "reasoning": format!("graded {score}")})
                    })
                    .collect();
                let content = if garbled {
                    "no JSON here".to_owned()
                } else {
                    serde_json::json!({ "results": results }).to_string()
                };
                axum::Json(serde_json::json!({"choices": [{"message": {"role": "assistant", "content": content}}],
                                  "usage": {"prompt_tokens": 100, "completion_tokens": 20}}))
            }
        }),
    );
    (format!("http://{}/v1", serve(router).await), count)
}
