//! Deep input, for every loader: far too deep is an error naming the problem, as deep as
//! allowed is read, evaluated and reported without exhausting the stack of a worker thread.
//!
//! The limits: expressions nest 64 calls deep (the expression crate's own limit); JSON is read
//! by serde_json, which refuses 128 levels of arrays and objects, except recordings, which
//! hold such values a few levels down and are read up to 512 levels; YAML by serde-saphyr,
//! which refuses more than 64 levels. Every recursion of the runtime over a loaded document is
//! therefore bounded by these limits, and a tree of calls by the document that holds it.

use agent_test_runtime::scenario::RunScenario;
use std::path::Path;

use agent_test_runtime::RecordedRun;
use agent_test_runtime::check::Status;
use agent_test_runtime::formats::SeedFormat;
use agent_test_runtime::load::load_json;
use agent_test_runtime::model::Transcript;
use agent_test_runtime::scenario::Scenario;
use agent_test_runtime::trace::{TraceFormat, parse};
use serde_json::Value;

/// Runs `f` on a thread with the stack of a test (and CLI worker) thread: 2 MiB.
fn on_worker_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap_or_else(|_| panic!("the thread panicked"))
}

/// `[[[ … ]]]`, `levels` deep, as text (never as a `Value`: dropping one that deep recurses).
fn deep_array(levels: usize) -> String {
    format!("{}1{}", "[".repeat(levels), "]".repeat(levels))
}

/// `{"key": {"key": … }}`, `levels` deep, as text.
fn deep_object(key: &str, levels: usize) -> String {
    format!(
        "{}1{}",
        format!("{{\"{key}\": ").repeat(levels),
        "}".repeat(levels)
    )
}

const JSON_TOO_DEEP: &str = "recursion limit exceeded";

#[test]
fn json_128_levels_deep_is_refused_by_every_json_loader() {
    let messages = on_worker_stack(|| {
        let mut messages = Vec::new();
        for doc in [deep_array(5000), deep_object("steps", 5000)] {
            messages.push(
                load_json::<Scenario>("s.json", &doc)
                    .unwrap_err()
                    .to_string(),
            );
            for format in [
                SeedFormat::Mibo,
                SeedFormat::Lamdis,
                SeedFormat::MorganaBench,
            ] {
                messages.push(
                    agent_test_runtime::load::cases_from_text(
                        &doc,
                        Path::new("case.json"),
                        Some(format),
                    )
                    .unwrap_err()
                    .to_string(),
                );
            }
            messages.push(
                agent_test_runtime::load::cases_from_text(&doc, Path::new("case.json"), None)
                    .unwrap_err()
                    .to_string(),
            );
            messages.push(
                agent_test_runtime::load::cases_from_text(&doc, Path::new("cases.jsonl"), None)
                    .unwrap_err()
                    .to_string(),
            );
            // Traces are given as values, parsed by the caller (the CLI, an agent): the same
            // parser refuses them first.
            messages.push(serde_json::from_str::<Value>(&doc).unwrap_err().to_string());
        }
        messages
    });
    for m in &messages {
        assert!(m.contains(JSON_TOO_DEEP), "{m}");
    }
    // Where: the file and the place.
    assert_eq!(
        messages[0],
        "s.json: at line 1, column 128: not valid JSON: recursion limit exceeded"
    );
    // Recordings are read deeper (see below), up to their own limit.
    let recording = on_worker_stack(|| {
        agent_test_runtime::load::run_from_text(&deep_array(5000), "run.json", None)
            .unwrap_err()
            .to_string()
    });
    assert_eq!(
        recording,
        "run.json: at line 1, column 513: not valid JSON: nested deeper than 512 levels"
    );
}

#[test]
fn yaml_deeper_than_64_levels_is_refused() {
    let messages = on_worker_stack(|| {
        let flow = deep_array(5000);
        let block: String = (0..5000)
            .map(|i| format!("{}- \n", "  ".repeat(i)))
            .collect();
        let mapping: String = (0..5000)
            .map(|i| format!("{}k:\n", "  ".repeat(i)))
            .collect();
        let mut messages = Vec::new();
        for doc in [flow, block, mapping] {
            for format in [SeedFormat::McpLab, SeedFormat::PromptKit, SeedFormat::Mibo] {
                messages.push(
                    agent_test_runtime::load::cases_from_text(
                        &doc,
                        Path::new("case.yaml"),
                        Some(format),
                    )
                    .unwrap_err()
                    .to_string(),
                );
            }
        }
        messages
    });
    for m in &messages {
        assert!(m.starts_with("case.yaml: at line "), "{m}");
        assert!(m.contains("not valid YAML"), "{m}");
    }
}

/// A scenario whose matcher nests as deep as JSON allows is read, evaluated and reported on
/// a worker's stack.
#[test]
fn the_deepest_matcher_a_scenario_can_hold_is_evaluated() {
    let report = on_worker_stack(|| {
        // serde_json reads 127 levels: 6 around the matcher, one per `not`, one for "x".
        let levels = 120;
        let mut matcher = r#"{"matcher": "exact", "value": "x"}"#.to_owned();
        for _ in 0..levels {
            matcher = format!(r#"{{"matcher": "not", "inner": {matcher}}}"#);
        }
        let text = format!(
            r#"{{"name": "deep", "expect": [{{"check": {{"type": "tool", "name": "t", "args": [{{"name": "a", "matcher": "not", "inner": {matcher}}}]}}}}]}}"#
        );
        let scenario: Scenario = load_json("deep.json", &text).unwrap();
        let transcript: Transcript = serde_json::from_value(serde_json::json!({
            "turns": [{"index": 0, "input": "hi", "reply": {"text": "ok", "calls": [{"name": "t", "arguments": {"a": "x"}}]}}]
        }))
        .unwrap();
        let report = scenario.evaluate(&transcript);
        let _ = report.to_string();
        (report.verdicts[0].status, report.verdicts[0].label.len())
    });
    // 121 `not`s around "x" (an odd number): "x" fails.
    assert_eq!(report.0, Status::Fail);
    assert!(report.1 > 0);
}

/// Calls nested as deep as a recording can hold them: read, evaluated, reported.
#[test]
fn the_deepest_call_tree_a_recording_can_hold_is_evaluated() {
    let verdict = on_worker_stack(|| {
        // Each level of calls is two levels of JSON below the first call, 7 deep; the leaf's
        // arguments are the 126th level.
        let levels = 59;
        let mut call = r#"{"name": "leaf", "arguments": {}}"#.to_owned();
        for _ in 0..levels {
            call = format!(r#"{{"name": "node", "kind": "node", "children": [{call}]}}"#);
        }
        let text = format!(
            r#"{{"scenario": {{"name": "deep"}}, "transcript": {{"turns": [{{"index": 0, "input": "hi", "reply": {{"text": "ok", "calls": [{call}]}}}}]}}}}"#
        );
        let run = agent_test_runtime::load::run_from_text(&text, "run.json", None).unwrap();
        let scenario = Scenario::new("deep")
            .expect(agent_test_runtime::prelude::tool("leaf"))
            .expect(agent_test_runtime::prelude::tool("nope"));
        let report = scenario.evaluate(&run.transcript);
        let text = report.to_string();
        assert!(text.contains("leaf"));
        let json = serde_json::to_string(&report).unwrap();
        assert!(json.contains("leaf"));
        (report.verdicts[0].status, report.verdicts[1].status)
    });
    assert_eq!(verdict, (Status::Pass, Status::Fail));
}

/// A trace nested as deep as JSON allows, in every format.
#[test]
fn the_deepest_traces_are_parsed() {
    on_worker_stack(|| {
        for format in TraceFormat::ALL {
            let doc: Value = serde_json::from_str(&deep_object("messages", 127)).unwrap();
            let _ = parse(&doc, Some(format));
            let doc: Value = serde_json::from_str(&deep_array(127)).unwrap();
            let _ = parse(&doc, Some(format));
        }
    });
}

/// A Mibo case with an expression 5,000 calls deep is refused where the file is read (the
/// `files` macro reads it at compile time), naming the limit — on a worker's stack, and with the
/// check it belongs to clipped rather than written out 5,000 calls long.
#[test]
fn an_expression_5000_calls_deep_in_a_file_is_a_load_error() {
    let err = on_worker_stack(|| {
        let expression = format!("{}'x'{}", "UPPER(".repeat(5000), ")".repeat(5000));
        let text = serde_json::json!({
            "input_utterance": "Shout",
            "assertions": {"procedural": [{
                "target": "node_call", "condition": "MUST_CALL", "expected_name": "shout",
                "expected_arguments": {"text": {"matcher": "exact", "expression": expression}}
            }]}
        })
        .to_string();
        agent_test_runtime::load::cases_from_text(&text, Path::new("case.json"), None)
            .map(|_| ())
            .unwrap_err()
            .to_string()
    });
    assert!(
        err.contains("expression nested deeper than 64 levels at column 385"),
        "{err}"
    );
    assert!(err.len() < 1000, "{} bytes: {err}", err.len());
}

/// A recording keeps what the agent sent a few levels down: a body as deep as JSON allows
/// (127 levels, what an HTTP agent can receive) makes a recording deeper than serde_json's
/// default limit, and it must still reload — it did not ("recursion limit exceeded").
#[test]
fn a_recording_of_the_deepest_body_reloads() {
    on_worker_stack(|| {
        let body: Value = serde_json::from_str(&deep_object("data", 126)).unwrap();
        let reply = agent_test_runtime::model::Reply::text("ok")
            .body(body.clone())
            .call(
                agent_test_runtime::model::Call::node("agent")
                    .child(agent_test_runtime::model::Call::tool("t", body.clone()).result(body)),
            );
        let run = RecordedRun {
            scenario: agent_test_runtime::ScenarioInfo::new("deep"),
            transcript: Transcript::new(vec![agent_test_runtime::model::Turn::new(
                0, "hi", reply, 1,
            )]),
        };
        let text = serde_json::to_string(&run).unwrap();
        let back = agent_test_runtime::load::run_from_text(&text, "run.json", None).unwrap();
        assert_eq!(back, run);
        // Evaluated and reported, on a worker's stack.
        let scenario =
            Scenario::new("deep").expect(agent_test_runtime::prelude::field("data.data").exists());
        let report = scenario.evaluate(&back.transcript);
        let _ = report.to_string();
        let _ = serde_json::to_string(&report).unwrap();
    });
}

/// As deep as a recording may be (512 levels): read and evaluated on a worker's stack; one
/// level deeper is refused with the place.
#[test]
fn recordings_nest_at_most_512_levels() {
    let refused = on_worker_stack(|| {
        let envelope = |levels: usize| {
            // 5 levels around the context value.
            format!(
                r#"{{"scenario": {{"name": "x"}}, "transcript": {{"turns": [{{"index": 0, "input": "hi", "reply": {{"text": "ok"}}}}], "context": {{"V": {}}}}}}}"#,
                deep_array(levels - 3)
            )
        };
        let run =
            agent_test_runtime::load::run_from_text(&envelope(512), "run.json", None).unwrap();
        let scenario =
            Scenario::new("x").expect(agent_test_runtime::prelude::reply().contains("ok"));
        let report = scenario.evaluate(&run.transcript);
        assert!(report.passed());
        let _ = report.to_string();
        agent_test_runtime::load::run_from_text(&envelope(513), "run.json", None)
            .unwrap_err()
            .to_string()
    });
    assert!(
        refused.ends_with("not valid JSON: nested deeper than 512 levels"),
        "{refused}"
    );
    assert!(
        refused.starts_with("run.json: at line 1, column "),
        "{refused}"
    );
}
