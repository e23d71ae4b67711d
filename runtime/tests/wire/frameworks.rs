//! Live: the corpus's frameworks served over HTTP (`serve.py` of each entry: the framework's
//! own agent, its own instrumentation and its own OpenTelemetry propagation continuing each
//! request's `traceparent`), their spans exported to the run's OTLP receiver, and the scenario
//! of what really ran checked on the turn `HttpAgent::traces_from` reads — as a user of
//! `agent-test run --otlp` would.
//!
//! A framework runs when its virtualenv exists (`tests/fixtures/frameworks/make_all.sh
//! --venv-only NAME` makes it, under `$AGENT_TEST_CORPUS_VENVS`, default
//! `~/.cache/agent-test/corpus`). `AGENT_TEST_REQUIRE_FRAMEWORKS=a,b` (CI sets it) makes a
//! missing one a failure instead of a skip.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use agent_test_runtime::agent::HttpAgent;
use agent_test_runtime::prelude::*;
use agent_test_runtime::trace::OtlpReceiver;
use agent_test_runtime::{ScenarioRun, Suite};

#[path = "../otel/corpus.rs"]
mod corpus;

/// The entries with a `serve.py`.
const SERVED: [&str; 8] = [
    "pydantic-ai",
    "langgraph-openinference",
    "openai-agents-responses",
    "google-adk",
    "strands",
    "semantic-kernel",
    "autogen",
    "vercel-ai",
];

fn venvs() -> PathBuf {
    std::env::var_os("AGENT_TEST_CORPUS_VENVS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
                .join(".cache/agent-test/corpus")
        })
}

fn required(name: &str) -> bool {
    std::env::var("AGENT_TEST_REQUIRE_FRAMEWORKS")
        .is_ok_and(|v| v.split(',').any(|r| r.trim() == name || r.trim() == "all"))
}

/// A served framework, stopped (and waited for) when dropped, on every path out of a test.
struct Served {
    child: Child,
    url: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `serve.py` of `name` exporting to `receiver`; `None` when its virtualenv is missing
/// (and it is not required).
fn serve(name: &str, receiver: &OtlpReceiver) -> Option<Served> {
    let python = venvs().join(name).join("bin/python");
    if !python.exists() {
        assert!(
            !required(name),
            "{name}: no virtualenv at {python:?} (make_all.sh --venv-only {name})"
        );
        eprintln!("skipping {name}: no virtualenv at {python:?}");
        return None;
    }
    let dir = corpus::root().join(name);
    let mut child = Command::new(&python)
        .arg("serve.py")
        .current_dir(&dir)
        // The entry's own settings only: this workspace's `.cargo/config.toml` sets content
        // capture for the Rust genai example, which means "events only" to Google ADK.
        .env_remove("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT")
        .env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", receiver.traces_url())
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(url) = line.strip_prefix("listening on ") {
                let _ = tx.send(url.trim().to_owned());
            }
        }
    });
    let mut served = Served {
        child,
        url: String::new(),
    };
    // Importing a framework takes seconds, more on a busy machine: a bound, not a timing.
    served.url = rx
        .recv_timeout(Duration::from_secs(180))
        .unwrap_or_else(|_| panic!("{name}: serve.py did not say where it listens"));
    Some(served)
}

#[tokio::test]
async fn frameworks_served_over_http_are_read_from_their_spans() {
    let entries = corpus::entries();
    let mut ran = 0;
    // `AGENT_TEST_FRAMEWORKS=a,b` runs only those (when working on one).
    let only = std::env::var("AGENT_TEST_FRAMEWORKS").ok();
    for name in SERVED {
        if only
            .as_deref()
            .is_some_and(|o| !o.split(',').any(|x| x.trim() == name))
        {
            continue;
        }
        let entry = entries
            .iter()
            .find(|e| e.name == name)
            .expect("a corpus entry");
        let receiver = OtlpReceiver::start().expect("a port");
        let Some(served) = serve(name, &receiver) else {
            continue;
        };
        let agent = HttpAgent::post(format!("{}/chat", served.url))
            .traces_from(&receiver)
            .trace_wait(Duration::from_secs(10))
            .timeout(Duration::from_secs(120));
        let mut run = ScenarioRun::new(Suite::new().agent(agent), name);
        run.user(entry.truth["user"].as_str().unwrap_or_default())
            .await;
        let report = run.report().await;
        assert!(
            report.verdicts.is_empty() || report.passed(),
            "{name}: {report}"
        );
        let live = entry.passing().evaluate(&report.transcript);
        assert!(live.passed(), "{name} (live): {live}");
        assert!(
            report.notes.iter().all(|n| !n.contains("refused")),
            "{name}: {:?}",
            report.notes
        );
        ran += 1;
    }
    assert!(ran > 0 || std::env::var_os("AGENT_TEST_REQUIRE_FRAMEWORKS").is_none());
}
