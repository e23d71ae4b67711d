//! What the command-line tests share: running the binary and local servers ([`command`]), and
//! reports to read — what `cargo test` runs leave behind, built with the runtime. (Each test
//! file uses some of these.)
#![allow(dead_code)]

pub mod command;

use std::path::Path;

use agent_test_runtime::check::Scope;
use agent_test_runtime::model::{Call, Reply, Transcript, Turn, Usage};
use agent_test_runtime::prelude::*;
use agent_test_runtime::report::{CheckTally, RepeatSummary, Report};
use agent_test_runtime::scenario::Scenario;
use serde_json::json;

/// Three reports in two files: a passing scenario, a failing one (both tagged `billing`, the
/// first also `smoke`), and a repeated one whose check passed in some runs only (flaky).
pub fn write_reports(dir: &Path) {
    let support = Scenario::new("refund_is_processed")
        .user("Refund ORD-9921")
        .expect(tool("process_refund").arg("order_id", "ORD-9921"))
        .expect(reply().contains("refund"));
    let answer = Reply::text("Your refund <b>RF-1</b> is on its way.")
        .usage(Usage::new(120, 30))
        .call(
            Call::node("support").child(
                Call::tool("process_refund", json!({"order_id": "ORD-9921"}))
                    .result(json!({"refund_id": "RF-1"})),
            ),
        );
    let transcript = Transcript::new(vec![Turn::new(0, "Refund ORD-9921", answer, 40)]);
    let mut passing = support.evaluate(&transcript);
    passing.scenario = passing
        .scenario
        .located("support", "tests/support.rs", 10)
        .tagged(["billing", "smoke"]);
    let failing_scenario = Scenario::new("cancel_is_refused")
        .user("Cancel ORD-1")
        .expect(no_tool("cancel_order"));
    let cancelled =
        Reply::text("Cancelled.").call(Call::tool("cancel_order", json!({"order_id": "ORD-1"})));
    let mut failing = failing_scenario.evaluate(&Transcript::new(vec![Turn::new(
        0,
        "Cancel ORD-1",
        cancelled,
        25,
    )]));
    failing.scenario = failing
        .scenario
        .located("support", "tests/support.rs", 30)
        .tagged(["billing"]);
    let mut flaky: Report = Scenario::new("greets_politely")
        .user("hi")
        .expect(reply().contains("hello"))
        .evaluate(&Transcript::new(vec![Turn::new(
            0,
            "hi",
            Reply::text("Hello!"),
            12,
        )]));
    flaky.scenario = flaky.scenario.located("greeting", "tests/greeting.rs", 5);
    let mut repeats = RepeatSummary::new(5, 4, 4, None);
    repeats.checks = vec![CheckTally::new(
        "reply().contains(\"hello\")",
        Scope::Conversation,
        4,
        1,
        repeats.confidence(),
    )];
    flaky.repeats = Some(repeats);
    for (name, r) in [("a", &passing), ("b", &failing), ("c", &flaky)] {
        std::fs::write(
            dir.join(format!("{name}.json")),
            serde_json::to_string(r).expect("json"),
        )
        .expect("write");
    }
}

/// The report of scenario `name` (in `file`) whose checks `reply contains "c<i>"` pass where
/// `passes[i]` says, on a turn of `latency_ms` and `tokens` output tokens.
pub fn report_of(name: &str, file: &str, passes: &[bool], latency_ms: u64, tokens: u64) -> Report {
    let mut scenario = Scenario::new(name).user("go");
    let mut text = String::from("reply:");
    for (i, pass) in passes.iter().enumerate() {
        scenario = scenario.expect(reply().contains(format!("c{i}")));
        if *pass {
            text.push_str(&format!(" c{i}"));
        }
    }
    let answer = Reply::text(text).usage(Usage::new(100, tokens));
    let mut r = scenario.evaluate(&Transcript::new(vec![Turn::new(
        0, "go", answer, latency_ms,
    )]));
    r.scenario = r.scenario.located("suite", file, 1);
    r
}

/// Writes reports as a `cargo test` run would, one file each.
pub fn write_all(dir: &Path, reports: &[Report]) {
    std::fs::create_dir_all(dir).expect("dir");
    for r in reports {
        std::fs::write(
            dir.join(format!("{}.json", r.scenario.name)),
            serde_json::to_string(r).expect("json"),
        )
        .expect("write");
    }
}

/// `report` with a repeat summary: check `c0` passed `passed` of `runs` runs.
pub fn repeated(mut report: Report, runs: u32, passed: u32) -> Report {
    // `min_passes = passed`: the scenario passes, however often its runs did.
    let mut summary = RepeatSummary::new(runs, passed, passed, None);
    summary.checks = vec![CheckTally::new(
        "reply contains \"c0\"",
        Scope::Conversation,
        passed,
        runs - passed,
        summary.confidence(),
    )];
    report.repeats = Some(summary);
    report
}
