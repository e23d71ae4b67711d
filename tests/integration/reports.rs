//! JSON reports: where they go and what they hold.

use agent_test::model::{Call, Reply};
use agent_test::prelude::*;
use agent_test::report::Report;
use agent_test::{ScenarioRun, Suite};

use crate::agents::scripted;

fn report_dir(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("agent-test-reports-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[tokio::test]
async fn the_json_report_holds_verdicts_and_transcript() {
    let dir = report_dir("json");
    let agent =
        scripted(vec![Reply::text("Done").call(
            Call::tool("refund", json!({"id": 1})).result(json!({"ok": true})),
        )]);
    let mut run = ScenarioRun::with_info(
        Suite::new().agent(agent).report_dir(&dir),
        agent_test::ScenarioInfo::new("refund flow").located("suite::billing", "tests/x.rs", 7),
    );
    run.context("USER", "u1");
    run.user("refund please").await;
    run.expect_turn(tool("refund").arg("id", 2));
    let report = run.report().await;
    if std::env::var_os(agent_test::report::REPORT_DIR_ENV).is_some() {
        return; // the environment moved reports elsewhere
    }
    let path = dir.join("suite").join("billing").join("refund_flow.json");
    assert_eq!(report.json_path.as_deref(), Some(path.as_path()));
    let written: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).expect("report written")).expect("JSON");
    assert_eq!(written["scenario"]["name"], "refund flow");
    assert_eq!(written["passed"], false);
    assert_eq!(written["transcript"]["context"], json!({"USER": "u1"}));
    assert!(
        written["transcript"]["user_time"].is_string(),
        "the run records its time"
    );
    assert_eq!(written["summary"]["failed"], 1);
    assert_eq!(written["verdicts"][0]["status"], "fail");
    assert_eq!(written["verdicts"][0]["scope"], json!({"turn": 0}));
    assert_eq!(
        written["verdicts"][0]["details"]["violations"][0]["kind"],
        "value_mismatch"
    );
    assert_eq!(
        written["transcript"]["turns"][0]["reply"]["calls"][0]["result"],
        json!({"ok": true})
    );
    // The JSON reads back into the same report.
    let back: Report = serde_json::from_value(written).expect("report deserialises");
    assert_eq!(back.verdicts, report.verdicts);
    assert_eq!(back.transcript, report.transcript);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn an_unwritable_report_dir_is_a_note_not_a_failure() {
    let file = std::env::temp_dir().join(format!("agent-test-not-a-dir-{}", std::process::id()));
    std::fs::write(&file, b"x").expect("temp file");
    let mut run = ScenarioRun::new(
        Suite::new()
            .agent(scripted(vec![Reply::text("hi")]))
            .report_dir(&file),
        "x",
    );
    run.user("hi").await;
    let report = run.report().await;
    if std::env::var_os(agent_test::report::REPORT_DIR_ENV).is_none() {
        assert!(report.passed());
        assert!(
            report.notes[0].starts_with("could not write the JSON report to"),
            "{:?}",
            report.notes
        );
        assert!(
            report
                .to_string()
                .contains("note: could not write the JSON report")
        );
    }
    let _ = std::fs::remove_file(&file);
}
