//! Extreme numbers on the command line and in the reports it reads: every numeric option
//! (`--timeout`, `--trace-wait`, `--judge-timeout`, `--mcp-timeout`, `--jobs`,
//! `--judge-retries`, `--max-steps`, `--mcp-max-message`, `--shard`, `--clock`), the judge's
//! environment (`AGENT_TEST_JUDGE_TIMEOUT`, `AGENT_TEST_JUDGE_RETRIES`) and every numeric field
//! of the reports `report` and `diff` read and of the recordings `eval` reads, at the edges of
//! their types: the command exits 0, 1 or 2 — never 101, a panic — and a refused option is
//! named in the message. Nothing goes over the network: agents and judges point at a closed
//! port, MCP servers are processes that exit at once.
//!
//! The runtime's loaders and builders have their own property tests
//! (`runtime/tests/properties/extremes.rs`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use agent_test_runtime::check::Scope;
use agent_test_runtime::judge::JudgeUsage;
use agent_test_runtime::model::{Call, Reply, Transcript, Turn, Usage};
use agent_test_runtime::prelude::*;
use agent_test_runtime::report::{CheckTally, RepeatSummary};
use agent_test_runtime::scenario::Scenario;
use serde_json::{Value, json};

use crate::support::command::{bin, stderr, stdout, temp};

/// A temporary directory for one test, removed when the test ends (it holds thousands of
/// files).
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        Scratch(temp(name))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A closed port: connections are refused at once.
const CLOSED: &str = "http://127.0.0.1:9/";

/// What went wrong with one command: its arguments and what it printed.
fn verdict(what: &str, o: &Output) -> Option<String> {
    let code = o.status.code();
    let err = stderr(o);
    let out = stdout(o);
    if !matches!(code, Some(0..=2)) || err.contains("panicked") || out.contains("panicked") {
        Some(format!(
            "{what}: exit {code:?}\n    {}",
            err.lines()
                .chain(out.lines())
                .filter(|l| !l.trim().is_empty())
                .take(6)
                .collect::<Vec<_>>()
                .join("\n    ")
        ))
    } else {
        None
    }
}

/// Fails listing every finding.
#[track_caller]
fn assert_none(findings: &[String], tried: usize) {
    assert!(
        findings.is_empty(),
        "{} of {tried} commands panicked or misreported:\n{}",
        findings.len(),
        findings.join("\n")
    );
}

/// 100 kB of digits (a command-line argument may not be longer than 128 kB).
fn digits() -> String {
    "9".repeat(100_000)
}

/// Seconds as the options read them.
fn seconds() -> Vec<String> {
    let mut all: Vec<String> = [
        "0",
        "-0",
        "-1",
        "5e-324",
        "0.001",
        "86400",
        "86400.000001",
        "1e300",
        "1e308",
        "1.7976931348623157e308",
        "1e400",
        "nan",
        "NaN",
        "inf",
        "-inf",
        "infinity",
        "18446744073709551616",
        "20s",
        "1ss",
        "",
        " 1",
        "0x10",
    ]
    .map(str::to_owned)
    .to_vec();
    all.push(digits());
    all
}

/// Whole numbers as the options read them.
fn counts() -> Vec<String> {
    let mut all: Vec<String> = [
        "0",
        "1",
        "-1",
        "20",
        "21",
        "1000",
        "1024",
        "1025",
        "65535",
        "65536",
        "4294967295",
        "4294967296",
        "18446744073709551615",
        "18446744073709551616",
        "1e3",
        "1.5",
        "nan",
        "",
    ]
    .map(str::to_owned)
    .to_vec();
    all.push(digits());
    all
}

/// Sizes as `--mcp-max-message` reads them.
fn sizes() -> Vec<String> {
    let mut all: Vec<String> = [
        "0",
        "1023",
        "1KiB",
        "16MiB",
        "4GiB",
        "4097MiB",
        "4294967297",
        "18446744073709551615",
        "18446744073709551615GiB",
        "99999999999999999999TB",
        "99999999999999999999GiB",
        "-1",
        "1e9",
        "nanKiB",
        "",
    ]
    .map(str::to_owned)
    .to_vec();
    all.push(format!("{}MiB", digits()));
    all
}

/// Shares as `--shard` reads them.
fn shards() -> Vec<String> {
    let mut all: Vec<String> = [
        "0/0",
        "1/0",
        "0/1",
        "1/1",
        "2/1",
        "-1/2",
        "1/-1",
        "18446744073709551615/18446744073709551615",
        "1/18446744073709551615",
        "18446744073709551616/18446744073709551616",
        "1/18446744073709551616",
        "nan/1",
        "1e3/1e3",
        "/",
        "1/",
        "",
    ]
    .map(str::to_owned)
    .to_vec();
    all.push(format!("1/{}", digits()));
    all
}

/// Dates as `--clock` reads them.
fn clocks() -> Vec<String> {
    [
        "9999-12-31T23:59:59.999999999Z",
        "-009999-01-01T00:00:00Z",
        "+010000-01-01T00:00:00Z",
        "1970-01-01T00:00:00Z",
        "0000-01-01T00:00:00Z",
        "2026-02-30T00:00:00Z",
        "2026-11-23T09:30:00+25:00",
        "18446744073709551616",
        "1e300",
        "",
    ]
    .map(str::to_owned)
    .to_vec()
}

/// A scenario with date, latency and token checks, and its recording.
fn inputs(dir: &Path) -> (PathBuf, PathBuf) {
    let scenario = Scenario::new("refund")
        .user("Refund ORD-1")
        .expect(tool("refund").arg("on", date("TODAY()").tolerance_minutes(u32::MAX)))
        .expect(latency().at_most(std::time::Duration::MAX))
        .expect(tokens().total_at_most(u64::MAX))
        .expect(judge("is polite"));
    let path = dir.join("scenario.json");
    std::fs::write(&path, serde_json::to_string(&scenario).expect("json")).expect("write");
    let run = json!({"scenario": {"name": "refund"}, "transcript": {"turns": [{"index": 0, "input": "Refund ORD-1",
        "latency_ms": 40, "reply": {"text": "Refunded.", "usage": {"input_tokens": 10, "output_tokens": 5},
        "calls": [{"name": "refund", "arguments": {"on": "2026-11-23"}}]}}]}});
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs).expect("dir");
    std::fs::write(runs.join("refund.json"), run.to_string()).expect("write");
    (path, runs)
}

/// The binary with the judge pointed at a closed port, and the environment's own settings
/// cleared.
fn agent_test() -> Command {
    let mut c = bin();
    c.env("AGENT_TEST_JUDGE_MODEL", "judge-model")
        .env("AGENT_TEST_JUDGE_PROVIDER", "openai")
        .env("AGENT_TEST_JUDGE_BASE_URL", format!("{CLOSED}v1"))
        .env("AGENT_TEST_JUDGE_API_KEY", "k")
        .env("AGENT_TEST_JUDGE_MODE", "off")
        .env_remove("AGENT_TEST_JUDGE_TIMEOUT")
        .env_remove("AGENT_TEST_JUDGE_RETRIES")
        .env_remove("AGENT_TEST_REPORT_DIR");
    c
}

/// Every numeric option of `run` and `eval` with every extreme of its kind: exit 0, 1 or 2,
/// never a panic; a refused value is an error naming the option.
#[test]
fn numeric_options_at_their_extremes_never_panic() {
    let scratch = Scratch::new("options");
    let dir = scratch.0.clone();
    let (scenario, runs) = inputs(&dir);
    let scenario = scenario.to_str().expect("utf-8").to_owned();
    let runs = runs.to_str().expect("utf-8").to_owned();
    let record = dir.join("recordings");
    let record = record.to_str().expect("utf-8");
    let run = |agent: &[&str]| -> Vec<String> {
        let mut args = vec!["run", "--scenarios", &scenario, "--record-dir", record];
        args.extend(agent);
        args.into_iter().map(str::to_owned).collect()
    };
    let http = run(&["--http", CLOSED, "--timeout", "5"]);
    let otlp = run(&["--http", CLOSED, "--otlp", "127.0.0.1:0", "--timeout", "5"]);
    let openai = run(&["--openai", "m", "--base-url", CLOSED, "--timeout", "5"]);
    let mcp = run(&["--mcp-server", "stdio:true", "--timeout", "5"]);
    let eval: Vec<String> = ["eval", "--scenarios", &scenario, "--runs", &runs]
        .map(str::to_owned)
        .to_vec();
    // (the command before the option, the option, its values)
    let cases: Vec<(&Vec<String>, &str, Vec<String>)> = vec![
        (&http, "--timeout", seconds()),
        (&otlp, "--trace-wait", seconds()),
        (&http, "--judge-timeout", seconds()),
        (&eval, "--judge-timeout", seconds()),
        (&mcp, "--mcp-timeout", seconds()),
        (&http, "--jobs", counts()),
        (&eval, "--jobs", counts()),
        (&eval, "--judge-retries", counts()),
        (&openai, "--max-steps", counts()),
        (&mcp, "--mcp-max-message", sizes()),
        (&http, "--shard", shards()),
        (&eval, "--shard", shards()),
        (&http, "--clock", clocks()),
    ];
    let mut findings = Vec::new();
    let mut tried = 0;
    for (command, option, values) in &cases {
        for value in values {
            tried += 1;
            let shown = if value.len() > 40 {
                format!("<{} characters>", value.len())
            } else {
                format!("{value:?}")
            };
            let what = format!("{} {option} {shown}", command[0]);
            // `--option=value`: values starting with `-` are values, not options.
            let o = agent_test()
                .args(command.iter())
                .arg(format!("{option}={value}"))
                .output()
                .expect("runs");
            findings.extend(verdict(&what, &o));
            if o.status.code() == Some(2) && !stderr(&o).contains(option) {
                findings.push(format!(
                    "{what}: refused without naming {option}: {}",
                    stderr(&o).lines().next().unwrap_or_default()
                ));
            }
        }
    }
    assert_none(&findings, tried);
}

/// The judge's settings from the environment at their extremes: a value that cannot be read is
/// an error naming the variable (here, error verdicts: exit 1), never a panic.
#[test]
fn judge_settings_from_the_environment_at_their_extremes_never_panic() {
    let scratch = Scratch::new("environment");
    let dir = scratch.0.clone();
    let (scenario, runs) = inputs(&dir);
    let mut findings = Vec::new();
    let mut tried = 0;
    for (var, values) in [
        ("AGENT_TEST_JUDGE_TIMEOUT", seconds()),
        ("AGENT_TEST_JUDGE_RETRIES", counts()),
    ] {
        for value in values {
            tried += 1;
            let o = agent_test()
                .args(["eval", "--format", "json", "--scenarios"])
                .arg(&scenario)
                .arg("--runs")
                .arg(&runs)
                .env(var, &value)
                .output()
                .expect("runs");
            let what = format!("{var}={}", value.chars().take(40).collect::<String>());
            findings.extend(verdict(&what, &o));
        }
    }
    assert_none(&findings, tried);
}

/// Every number of `doc` (and every string that reads as one), as a JSON pointer and a name.
fn numeric_slots(doc: &Value) -> Vec<(String, String)> {
    fn walk(v: &Value, pointer: String, field: String, out: &mut Vec<(String, String)>) {
        match v {
            Value::Object(o) => {
                for (k, x) in o {
                    walk(
                        x,
                        format!("{pointer}/{}", k.replace('~', "~0").replace('/', "~1")),
                        format!("{field}.{k}"),
                        out,
                    );
                }
            }
            Value::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    walk(x, format!("{pointer}/{i}"), format!("{field}[{i}]"), out);
                }
            }
            Value::Number(_) => out.push((pointer, field)),
            Value::String(s) if s.trim().parse::<f64>().is_ok() => out.push((pointer, field)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(doc, String::new(), String::new(), &mut out);
    out
}

/// Numbers as JSON writes them, and as text.
const EXTREMES: &[&str] = &[
    "0",
    "-0.0",
    "-1",
    "0.5",
    "1e300",
    "-1e300",
    "1.7976931348623157e308",
    "5e-324",
    "9007199254740993",
    "4294967295",
    "4294967296",
    "65535",
    "65536",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "9223372036854775807",
    "\"NaN\"",
    "\"1e300\"",
    "\"-1\"",
];

/// `doc` as text with the value at `pointer` written as `value`.
fn substitute(doc: &Value, pointer: &str, value: &str) -> String {
    const PLACEHOLDER: &str = "\u{1}extreme\u{1}";
    let mut doc = doc.clone();
    *doc.pointer_mut(pointer).expect("pointer") = Value::String(PLACEHOLDER.to_owned());
    let quoted = Value::String(PLACEHOLDER.to_owned()).to_string();
    doc.to_string().replacen(&quoted, value, 1)
}

/// A report with every numeric field: turns with latency and usage, calls with steps and
/// latencies, a judge's usage and cost, repeats, and a scope naming a turn.
fn rich_report() -> Value {
    let scenario = Scenario::new("refund")
        .user("Refund ORD-1")
        .expect_turn(tool("refund").times(1))
        .expect(reply().contains("Refunded"))
        .expect(tokens().total_at_most(100));
    let reply = Reply::text("Refunded.")
        .usage(Usage::new(10, 5))
        .http_status(200)
        .latency_ms(40)
        .call(
            Call::tool("refund", json!({"order": 1}))
                .result(json!({"id": 7}))
                .took_ms(12)
                .in_step(1),
        );
    let mut report = scenario.evaluate(&Transcript::new(vec![
        Turn::new(0, "Refund ORD-1", reply.clone(), 40),
        Turn::new(1, "Again", reply, 30),
    ]));
    report.duration_ms = 70;
    report.judge = Some(JudgeUsage {
        model: "m".into(),
        requests: 2,
        checks: 1,
        cached: 1,
        input_tokens: 100,
        output_tokens: 20,
        cost_usd: Some(0.25),
    });
    let mut repeats = RepeatSummary::new(3, 2, 2, None);
    repeats.checks = vec![CheckTally::new(
        "reply contains \"Refunded\"",
        Scope::Conversation,
        2,
        1,
        repeats.confidence(),
    )];
    report.repeats = Some(repeats);
    serde_json::to_value(&report).expect("json")
}

/// Runs `command` on a directory of reports (or runs), one extreme per file, and `original`
/// (sums over reports meet ordinary values too): when it panics, on each file alone with the
/// original, to name the value (and on the whole directory when no file alone does).
fn probe_files(
    what: &str,
    original: &str,
    files: &[(String, String)],
    dir: &Path,
    command: &dyn Fn(&Path) -> Output,
    findings: &mut Vec<String>,
) {
    let all = dir.join("all");
    std::fs::create_dir_all(&all).expect("dir");
    std::fs::write(all.join("original.json"), original).expect("write");
    for (i, (_, text)) in files.iter().enumerate() {
        std::fs::write(all.join(format!("r{i:02}.json")), text).expect("write");
    }
    let Some(together) = verdict(what, &command(&all)) else {
        return;
    };
    let before = findings.len();
    for (i, (value, text)) in files.iter().enumerate() {
        let one = dir.join(format!("one{i:02}"));
        std::fs::create_dir_all(&one).expect("dir");
        std::fs::write(one.join("original.json"), original).expect("write");
        std::fs::write(one.join("r.json"), text).expect("write");
        findings.extend(verdict(&format!("{what} = {value}"), &command(&one)));
    }
    if findings.len() == before {
        findings.push(format!(
            "{together}
    (every extreme of the field together)"
        ));
    }
}

/// `agent-test report` and `diff` on reports with every numeric field at every extreme, and
/// `agent-test eval` on recordings with them: exit 0, 1 or 2, never a panic.
#[test]
fn reports_and_recordings_with_extreme_numbers_never_panic() {
    let scratch = Scratch::new("reports");
    let dir = scratch.0.clone();
    let report = rich_report();
    let base = dir.join("base");
    std::fs::create_dir_all(&base).expect("dir");
    // The report as it is reads.
    std::fs::write(base.join("s.json"), report.to_string()).expect("write");
    let o = agent_test()
        .arg("report")
        .arg(&base)
        .arg("--html")
        .arg(dir.join("base.html"))
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut findings = Vec::new();
    let mut tried = 0;
    for (n, (pointer, field)) in numeric_slots(&report).into_iter().enumerate() {
        // Each file a scenario of its own name, the base holding the same scenarios unchanged:
        // `diff` compares each extreme with the original.
        let files: Vec<(String, String)> = EXTREMES
            .iter()
            .enumerate()
            .map(|(i, value)| {
                let mut named = report.clone();
                named["scenario"]["name"] = json!(format!("s{n}-{i}"));
                std::fs::write(base.join(format!("s{n}-{i}.json")), named.to_string())
                    .expect("write");
                ((*value).to_owned(), substitute(&named, &pointer, value))
            })
            .collect();
        tried += 2 * files.len();
        let here = dir.join(format!("field{n}"));
        let out = here.join("out");
        let mut original = report.clone();
        original["scenario"]["name"] = json!(format!("s{n}-original"));
        let original = original.to_string();
        probe_files(
            &format!("report {field}"),
            &original,
            &files,
            &here.join("report"),
            &|d| {
                agent_test()
                    .arg("report")
                    .arg(d)
                    .arg("--html")
                    .arg(out.join("r.html"))
                    .arg("--junit")
                    .arg(out.join("j.xml"))
                    .arg("--markdown")
                    .arg(out.join("m.md"))
                    .output()
                    .expect("runs")
            },
            &mut findings,
        );
        probe_files(
            &format!("diff {field}"),
            &original,
            &files,
            &here.join("diff"),
            &|d| {
                agent_test()
                    .arg("diff")
                    .arg(&base)
                    .arg(d)
                    .arg("--html")
                    .arg(out.join("d.html"))
                    .output()
                    .expect("runs")
            },
            &mut findings,
        );
    }
    // Recordings, evaluated and written in every output format.
    let (scenario, _) = inputs(&dir);
    let recording: Value =
        json!({"scenario": {"name": "refund"}, "transcript": rich_report()["transcript"]});
    for (n, (pointer, field)) in numeric_slots(&recording).into_iter().enumerate() {
        let files: Vec<(String, String)> = EXTREMES
            .iter()
            .map(|value| ((*value).to_owned(), substitute(&recording, &pointer, value)))
            .collect();
        for format in ["text", "json", "junit"] {
            tried += files.len();
            probe_files(
                &format!("eval --format {format} {field}"),
                &recording.to_string(),
                &files,
                &dir.join(format!("run{n}-{format}")),
                &|d| {
                    agent_test()
                        .args(["eval", "--format", format, "--scenarios"])
                        .arg(&scenario)
                        .arg("--runs")
                        .arg(d)
                        .output()
                        .expect("runs")
                },
                &mut findings,
            );
        }
    }
    assert_none(&findings, tried);
}
