//! One transcript, one report, whichever road it came by: a live run replaying it, the
//! builder API, a recorded run evaluated with and without a judge, a test file's recorded
//! case. Each road prices the turns with the same table (a cost check reads them) and
//! evaluates the same checks in one `ScenarioEvaluator`.

use agent_test_runtime::Suite;
use agent_test_runtime::agent::ReplayAgent;
use agent_test_runtime::check::Status;
use agent_test_runtime::formats::ImportedCase;
use agent_test_runtime::model::{Call, Reply, Transcript, Turn, Usage};
use agent_test_runtime::prelude::*;
use agent_test_runtime::report::Report;
use agent_test_runtime::report::prices::Prices;
use agent_test_runtime::scenario::Scenario;
use agent_test_runtime::{RecordedRun, ScenarioInfo, run_file_case};
use std::time::Duration;

fn recorded() -> Transcript {
    let reply = |text: &str, tokens: u64| {
        Reply::text(text)
            .chat_model("gpt-4o")
            .usage(Usage::new(tokens, tokens / 2))
    };
    Transcript::new(vec![
        Turn::new(
            0,
            "Refund ORD-1",
            reply("Refund of ORD-1 processed.", 1_000)
                .call(Call::tool("refund", json!({"order_id": "ORD-1"}))),
            420,
        ),
        Turn::new(1, "Thanks", reply("You're welcome!", 4_000), 180),
    ])
}

fn scenario() -> Scenario {
    Scenario::new("priced_refund")
        .user("Refund ORD-1")
        .expect_turn(tool("refund").arg("order_id", "ORD-1"))
        .expect_turn(reply().contains("processed"))
        .user("Thanks")
        .expect_turn(latency().at_most(Duration::from_millis(200)))
        .expect(cost().at_most_usd(0.01))
        .expect(no_tool("cancel_order"))
        .expect(judge("is polite"))
}

fn prices() -> Prices {
    Prices::builtin()
}

/// What a report says, without what differs by road by nature (timings of the run itself).
fn said(report: &Report) -> serde_json::Value {
    json!({
        "passed": report.passed(),
        "verdicts": report.verdicts.iter().map(|v| json!({
            "label": v.label, "check": v.check, "status": v.status, "reason": v.reason,
            "severity": v.severity, "scope": v.scope, "details": v.details,
        })).collect::<Vec<_>>(),
        "checks": report.checks,
        "costs": report.transcript.turns.iter().map(|t| serde_json::to_value(&t.cost).unwrap()).collect::<Vec<_>>(),
        "judge": report.judge,
    })
}

#[test]
fn every_road_gives_one_transcript_the_same_report_priced() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let suite = || {
        Suite::new()
            .agent(ReplayAgent::new(recorded()))
            .prices(prices())
    };
    let live = rt.block_on(scenario().run(suite()));
    let evaluator = scenario().evaluator().priced(prices());
    let evaluated = evaluator.evaluate(recorded());
    let judged = rt.block_on(evaluator.evaluate_judged(recorded(), None));
    let case = ImportedCase {
        scenario: scenario(),
        recording: Some(RecordedRun {
            scenario: ScenarioInfo::new("priced_refund"),
            transcript: recorded(),
        }),
    };
    let file_case = rt.block_on(run_file_case(suite(), &case));

    let expected = said(&live);
    // The road is right, not only the same: the cost check read the priced turns.
    let cost = &expected["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["check"] == "cost")
        .unwrap()["status"];
    assert_eq!(cost, "fail", "{expected:#}");
    assert!(
        expected["costs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| !c.is_null())
    );
    for (road, report) in [("evaluate_judged", &judged), ("file case", &file_case)] {
        assert_eq!(
            said(report),
            expected,
            "the {road} road differs from a live run"
        );
    }
    // The road that calls nothing says how a judge check would be graded instead of that no
    // judge is configured: the one difference, and only in that reason.
    let mut sync = said(&evaluated);
    let judge = |v: &mut serde_json::Value| v["verdicts"][5]["reason"].take();
    assert!(
        judge(&mut sync)
            .as_str()
            .unwrap()
            .starts_with("not graded: judge checks are graded when a scenario runs")
    );
    let mut expected = expected;
    judge(&mut expected);
    assert_eq!(sync, expected, "the evaluate road differs from a live run");
}

#[test]
fn an_unpriced_road_leaves_the_cost_not_measured() {
    let report = scenario().evaluator().evaluate(recorded());
    let cost = report.verdicts.iter().find(|v| v.check == "cost").unwrap();
    assert_eq!(cost.status, Status::Error, "{}", cost.reason);
}
