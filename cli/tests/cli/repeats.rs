//! Repeats for every agent: a black-box agent (an HTTP service in Python, `support/
//! flaky_agent.py`, that forgets the refund on every fourth request) has a repeated scenario
//! file run by `agent-test run`, gated, with the reliability figures in the JSON, JUnit and
//! Markdown reports — what `repeat = n;` gives a Rust suite.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

use crate::support::command::{assert_exit, bin, stderr, stdout, temp, write};

/// The Python agent, stopped when dropped (its standard input closes).
struct Agent {
    child: Child,
    url: String,
}

impl Agent {
    fn start() -> Agent {
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/cli/support/flaky_agent.py"
        );
        let mut child = Command::new("python3")
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs the agent");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("its output"))
            .read_line(&mut line)
            .expect("it says where it listens");
        let base = line
            .trim()
            .strip_prefix("listening on ")
            .expect("`listening on URL`")
            .to_owned();
        Agent {
            child,
            url: format!("{base}/chat"),
        }
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A refund scenario, with the fields of its own repeat plan.
fn scenario(name: &str, plan: Value) -> Value {
    let mut s = json!({
        "name": name,
        "steps": [{"step": "user", "text": "ORD-1", "expect": [
            {"check": {"type": "text", "source": "reply", "op": "contains", "value": "refund"}}
        ]}]
    });
    if let (Some(s), Some(plan)) = (s.as_object_mut(), plan.as_object()) {
        s.extend(plan.clone());
    }
    s
}

fn run(agent: &Agent, file: &std::path::Path, extra: &[&str]) -> std::process::Output {
    bin()
        .args(["run", "--jobs", "1", "--scenarios"])
        .arg(file)
        .args(["--http", &agent.url])
        .args(extra)
        .output()
        .expect("runs")
}

#[test]
fn a_black_box_agent_s_repeated_scenarios_are_gated_by_their_pass_rate() {
    let dir = temp("repeats");
    let agent = Agent::start();
    // One request per run: 20 runs, 15 of them pass (every fourth forgets the refund).
    let file = dir.join("refund.json");
    write(&file, &json!([scenario("refund", json!({}))]));
    let out = run(
        &agent,
        &file,
        &[
            "--repeat",
            "20",
            "--min-pass-rate",
            "0.5@0.9",
            "--format",
            "json",
        ],
    );
    assert_exit(&out, 0);
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    let repeats = &doc["runs"][0]["report"]["repeats"];
    assert_eq!(repeats["runs"], 20, "{doc}");
    assert_eq!(
        repeats["min_pass_rate"],
        json!({"rate": 0.5, "confidence": 0.9})
    );
    let rel = &repeats["reliability"];
    let passes = rel["passes"].as_u64().expect("passes");
    assert_eq!(passes, 15, "{rel}");
    assert_eq!(rel["pass_rate"], 0.75);
    // The Wilson interval of 15/20 at 90 % (z = 1.6449), by hand: centre (0.75 + z²/40) /
    // (1 + z²/20) = 0.7202, half-width z·√(0.75·0.25/20 + z²/1600) / (1 + z²/20) = 0.1524.
    let low = rel["interval"][0].as_f64().expect("low");
    let high = rel["interval"][1].as_f64().expect("high");
    assert!((low - 0.567_8).abs() < 5e-4, "{rel}");
    assert!((high - 0.872_6).abs() < 5e-4, "{rel}");
    assert!(rel["pass_hat_k"]["2"].as_f64().is_some());

    // The same runs cannot show 0.8 at 90 %: a failure, exit 1, saying the bound.
    let out = run(
        &agent,
        &file,
        &["--repeat", "20", "--min-pass-rate", "0.8@0.9"],
    );
    assert_exit(&out, 1);
    let text = stdout(&out);
    assert!(text.contains("15 of 20 runs passed"), "{text}");
    assert!(
        text.contains("✗ pass rate 15/20 = 0.75, 90% lower bound 0.57 < 0.80 required"),
        "{text}"
    );

    // A gate 20 runs can never meet is refused before anything runs.
    let out = run(
        &agent,
        &file,
        &["--repeat", "20", "--min-pass-rate", "0.95"],
    );
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains(
            "agent-test: the repeat options: min_pass_rate = (0.95, 0.95) can never be reached \
             with repeat = 20: even 20 passes of 20 give a 95% lower bound of 0.84; it needs \
             repeat = 73 or more"
        ),
        "{}",
        stderr(&out)
    );
    let out = run(&agent, &file, &["--min-pass-rate", "1.5"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("a pass rate is from 0 to 1"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_scenario_file_s_own_repeat_plan_wins_and_reaches_junit_and_markdown() {
    let dir = temp("repeats-file");
    let agent = Agent::start();
    let file = dir.join("plans.json");
    write(
        &file,
        &json!([scenario("own_plan", json!({"repeat": 8, "min_passes": 6}))]),
    );
    let out = bin()
        .args(["run", "--jobs", "1", "--scenarios"])
        .arg(&file)
        .args(["--http", &agent.url, "--repeat", "3", "--format", "junit"])
        .output()
        .expect("runs");
    assert_exit(&out, 0);
    let xml = stdout(&out);
    assert!(
        xml.contains(r#"<property name="agent-test.runs" value="8"/>"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<property name="agent-test.passed_runs" value="6"/>"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<property name="agent-test.min_passes" value="6"/>"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"name="agent-test.pass_rate" value="0.7500""#),
        "{xml}"
    );
    // The Markdown summary of the reports the run left.
    let reports = dir.join("reports");
    let out = bin()
        .args(["run", "--jobs", "1", "--scenarios"])
        .arg(&file)
        .args(["--http", &agent.url, "--record-dir"])
        .arg(&reports)
        .output()
        .expect("runs");
    assert_exit(&out, 0);
    let md = dir.join("summary.md");
    let out = bin()
        .arg("report")
        .arg(&reports)
        .arg("--markdown")
        .arg(&md)
        .output()
        .expect("runs");
    assert_exit(&out, 0);
    let summary = std::fs::read_to_string(&md).expect("the summary");
    assert!(summary.contains("### Reliability"), "{summary}");
    assert!(
        summary.contains("| ✅ own_plan | 6 of 8 runs passed"),
        "{summary}"
    );
}
