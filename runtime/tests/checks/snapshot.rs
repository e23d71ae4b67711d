//! Snapshot checks in a run: looked up beside the scenario's file, pending written when the
//! reply differs or none was accepted, accepted and rejected as `agent-test review` does,
//! never a pass against nothing.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use agent_test_runtime::Suite;
use agent_test_runtime::agent::{AgentError, agent_fn};
use agent_test_runtime::check::{Severity, Status};
use agent_test_runtime::model::{Call, Reply};
use agent_test_runtime::prelude::*;
use agent_test_runtime::report::Report;
use agent_test_runtime::snapshot::{Pending, SnapshotFile};
use agent_test_runtime::{ScenarioInfo, ScenarioRun};

/// A directory of its own holding a test file `suite.rs` (which need not exist: its path is
/// absolute).
fn place(name: &str) -> (PathBuf, String) {
    let dir = std::env::temp_dir().join(format!(
        "agent-test-snapshots-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("suite.rs").display().to_string();
    (dir, file)
}

/// A run of `scenario` in module `suite` of `file`, its agent answering what `reply` holds.
async fn run(
    file: &str,
    scenario: &str,
    reply: &Arc<Mutex<Reply>>,
    checks: impl FnOnce(&mut ScenarioRun),
) -> Report {
    let reply = Arc::clone(reply);
    let agent = agent_fn(move |_r| {
        let reply = reply.lock().unwrap().clone();
        async move { reply }
    });
    let info = ScenarioInfo::new(scenario).located("suite", file, 1);
    let mut run = ScenarioRun::with_info(Suite::new().agent(agent), info);
    run.user("Where is my refund?").await;
    checks(&mut run);
    run.report().await
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn read(path: &Path) -> SnapshotFile {
    SnapshotFile::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_reply_snapshot_is_missing_then_accepted_then_differs_then_rejected() {
    let (dir, file) = place("reply");
    let snap = dir.join("snapshots/suite__refund__1.snap");
    let pending = dir.join("snapshots/suite__refund__1.snap.new");
    let answer = Arc::new(Mutex::new(Reply::text(
        "Your refund of $42.10 is on its way.",
    )));
    let check = |run: &mut ScenarioRun| {
        run.expect_turn(reply().snapshot());
    };
    let rt = rt();

    // Nothing accepted yet: an error (compared with nothing), and the reply is pending.
    let report = rt.block_on(run(&file, "refund", &answer, check));
    let v = &report.verdicts[0];
    assert_eq!(v.status, Status::Error);
    assert_eq!(
        v.reason,
        format!(
            "not compared: no snapshot accepted yet at {} (accept the pending one with \
             `agent-test review`)",
            snap.display()
        )
    );
    assert!(!snap.exists());
    assert_eq!(
        read(&pending),
        SnapshotFile::new(
            "refund",
            "reply matches its snapshot",
            "reply",
            "Your refund of $42.10 is on its way."
        )
    );
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("pending: accept or reject it with `agent-test review`")),
        "{:?}",
        report.notes
    );

    // Accepted: the same reply passes, and the report keeps what it compared with.
    let found = Pending::find(&[&dir]).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].diff(), "+ Your refund of $42.10 is on its way.\n");
    found[0].accept().unwrap();
    let report = rt.block_on(run(&file, "refund", &answer, check));
    assert_eq!(report.verdicts[0].status, Status::Pass, "{report}");
    assert!(!pending.exists());
    assert_eq!(
        report.checks[0]["check"]["stored"]["accepted"]["content"],
        "Your refund of $42.10 is on its way."
    );

    // The agent changes its answer: a failure with the diff, and the new reply pending.
    *answer.lock().unwrap() = Reply::text("Your refund of $42.10 was sent today.");
    let report = rt.block_on(run(&file, "refund", &answer, check));
    let v = &report.verdicts[0];
    assert_eq!(v.status, Status::Fail);
    assert_eq!(
        v.reason,
        format!("reply differs from its snapshot {}", snap.display())
    );
    assert_eq!(
        v.details.diff.as_deref(),
        Some("Your refund of $42.10 [-is-]{+was+} [-on-]{+sent+} [-its way.-]{+today.+}")
    );
    let found = Pending::find(&[&dir]).unwrap();
    assert_eq!(
        found[0].diff(),
        "Your refund of $42.10 [-is-]{+was+} [-on-]{+sent+} [-its way.-]{+today.+}"
    );

    // Rejected: the accepted snapshot stays and still fails the changed reply.
    found[0].reject().unwrap();
    assert!(!pending.exists());
    assert_eq!(read(&snap).content, "Your refund of $42.10 is on its way.");

    // A pending change the agent goes back on is removed by the run that matches again.
    let report = rt.block_on(run(&file, "refund", &answer, check));
    assert!(pending.exists());
    assert_eq!(report.verdicts[0].status, Status::Fail);
    *answer.lock().unwrap() = Reply::text("Your refund of $42.10 is on its way.");
    let report = rt.block_on(run(&file, "refund", &answer, check));
    assert_eq!(report.verdicts[0].status, Status::Pass);
    assert!(
        !pending.exists(),
        "a pending snapshot that no longer differs"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tool_calls_are_compared_as_json_and_named_by_id() {
    let (dir, file) = place("calls");
    let called = |order: &str| {
        Reply::text("Done.")
            .call(Call::tool(
                "lookup_order",
                json!({"order_id": order, "fields": ["status", "total"]}),
            ))
            .call(Call::tool("refund", json!({"order_id": order})))
    };
    let answer = Arc::new(Mutex::new(called("ORD-1")));
    let checks = |run: &mut ScenarioRun| {
        run.expect(any_tool().snapshot().id("trajectory"));
        run.expect(tool("refund").snapshot());
    };
    let rt = rt();
    rt.block_on(run(&file, "refund", &answer, checks));
    for p in Pending::find(&[&dir]).unwrap() {
        p.accept().unwrap();
    }
    let trajectory = dir.join("snapshots/suite__refund__trajectory.snap");
    assert_eq!(read(&trajectory).of, "tool calls");
    // The second snapshot check is the second: numbered by place, not by id.
    let refund = read(&dir.join("snapshots/suite__refund__2.snap"));
    assert_eq!(
        refund.content,
        "[\n  {\n    \"arguments\": {\n      \"order_id\": \"ORD-1\"\n    },\n    \"tool\": \"refund\"\n  }\n]"
    );

    // Key order is no difference: the accepted file is rewritten with its keys the other way.
    let mut rewritten = read(&trajectory);
    rewritten.content = rewritten
        .content
        .replace("\"fields\": [\n", "\"zz\": 0,\n        \"fields\": [\n");
    let swapped: serde_json::Value = serde_json::from_str(&rewritten.content).unwrap();
    let mut swapped = swapped;
    swapped[0]["arguments"]
        .as_object_mut()
        .unwrap()
        .remove("zz");
    rewritten.content = serde_json::to_string(&swapped).unwrap();
    std::fs::write(&trajectory, rewritten.render()).unwrap();
    let report = rt.block_on(run(&file, "refund", &answer, checks));
    assert!(report.passed(), "{report}");

    // Another order: both fail, each with a JSON diff of the arguments.
    *answer.lock().unwrap() = called("ORD-2");
    let report = rt.block_on(run(&file, "refund", &answer, checks));
    let v = &report.verdicts[1];
    assert_eq!(v.status, Status::Fail);
    assert!(
        v.reason
            .starts_with("calls of `refund` differs from its snapshot"),
        "{}",
        v.reason
    );
    assert!(
        v.details
            .diff
            .as_deref()
            .unwrap()
            .contains("-       \"order_id\": \"ORD-1\"\n+       \"order_id\": \"ORD-2\""),
        "{:?}",
        v.details.diff
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_garbled_snapshot_is_an_error_naming_its_line() {
    let (dir, file) = place("garbled");
    std::fs::create_dir_all(dir.join("snapshots")).unwrap();
    let snap = dir.join("snapshots/suite__greets__1.snap");
    std::fs::write(&snap, "---\nscenario: greets\nmood: good\n---\nHello\n").unwrap();
    let answer = Arc::new(Mutex::new(Reply::text("Hello")));
    let report = rt().block_on(run(&file, "greets", &answer, |run| {
        run.expect_turn(reply().snapshot());
    }));
    let v = &report.verdicts[0];
    assert_eq!(v.status, Status::Error);
    assert_eq!(
        v.reason,
        format!(
            "not compared: snapshot {}: line 3: unknown key `mood` (the keys are scenario, \
             check, of)",
            snap.display()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_snapshot_of_a_failed_turn_or_of_a_tool_check_with_constraints_is_an_error() {
    let (dir, file) = place("failed");
    let agent = agent_fn(|_r| async { Err::<Reply, _>(AgentError::new("upstream 503")) });
    let info = ScenarioInfo::new("down").located("suite", &file, 1);
    let mut run = ScenarioRun::with_info(Suite::new().agent(agent), info);
    let report = rt().block_on(async {
        run.user("hi").await;
        run.expect_turn(reply().snapshot());
        run.expect(tool("refund").arg("order_id", "ORD-1").snapshot());
        run.report().await
    });
    let reasons: Vec<(Status, &str)> = report
        .verdicts
        .iter()
        .map(|v| (v.status, v.reason.as_str()))
        .collect();
    assert!(
        reasons.contains(&(
            Status::Error,
            "not evaluated: the agent failed on turn 1: upstream 503"
        )),
        "{reasons:?}"
    );
    assert!(
        reasons.iter().any(|(s, r)| *s == Status::Error
            && r.starts_with(
                "impossible constraint: snapshot() keeps the calls as they were: take it from \
                 `tool(\"refund\")` alone"
            )),
        "{reasons:?}"
    );
    // Nothing seen, nothing pending.
    assert!(Pending::find(&[&dir]).unwrap().is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_snapshot_on_a_live_model_without_a_cassette_warns() {
    let (dir, file) = place("live");
    let answer = Arc::new(Mutex::new(Reply::text("Hello").chat_model("gpt-4o")));
    let report = rt().block_on(run(&file, "greets", &answer, |run| {
        run.expect_turn(reply().snapshot());
    }));
    let warning = report
        .verdicts
        .iter()
        .find(|v| v.label == "snapshots")
        .expect("a warning");
    assert_eq!(warning.severity, Severity::Warning);
    assert!(
        warning.reason.starts_with(
            "snapshots compared with a live model (gpt-4o) without a cassette: its next answer \
             may differ"
        ),
        "{}",
        warning.reason
    );
    // Without a model named (a scripted agent), nothing to warn about.
    let scripted = Arc::new(Mutex::new(Reply::text("Hello")));
    let report = rt().block_on(run(&file, "greets", &scripted, |run| {
        run.expect_turn(reply().snapshot());
    }));
    assert!(report.verdicts.iter().all(|v| v.label != "snapshots"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_check_evaluated_on_its_own_compares_with_nothing_and_errs() {
    let t = super::one_turn(Reply::text("Hello"));
    let v = super::conv(&t, reply().snapshot());
    assert_eq!(v.status, Status::Error);
    assert!(
        v.reason
            .starts_with("not compared: no snapshot was looked up"),
        "{}",
        v.reason
    );
}

#[test]
fn a_calls_snapshot_that_is_not_json_errs_and_one_reloaded_from_a_report_still_compares() {
    use agent_test_runtime::check::{Check, Stored};
    let t = super::one_turn(
        Reply::text("Done.").call(Call::tool("refund", json!({"order_id": "ORD-1"}))),
    );
    let accepted = |content: &str| {
        any_tool().snapshot().stored(Stored::Accepted {
            file: "snapshots/suite__refund__1.snap".into(),
            content: content.into(),
        })
    };
    let v = super::conv(&t, accepted("Refunded."));
    assert_eq!(v.status, Status::Error);
    assert_eq!(
        v.reason,
        "not compared: snapshot snapshots/suite__refund__1.snap is not the JSON of tool calls: \
         expected value at line 1 column 1"
    );
    // A report keeps the check as data; read back (as `mutate` reads it) it compares the same.
    let good = accepted(r#"[{"tool": "refund", "arguments": {"order_id": "ORD-1"}}]"#);
    let reloaded: Check =
        serde_json::from_value(serde_json::to_value(Check::from(good.clone())).unwrap()).unwrap();
    assert_eq!(reloaded, Check::from(good));
    assert_eq!(super::conv(&t, reloaded.clone()).status, Status::Pass);
    let other = super::one_turn(
        Reply::text("Done.").call(Call::tool("refund", json!({"order_id": "ORD-2"}))),
    );
    assert_eq!(super::conv(&other, reloaded).status, Status::Fail);
}

/// The calls' snapshot holds every call: a pass (or a failure) over a turn whose spans may
/// hide calls is not measured, and over a failed turn the absence of other calls cannot be
/// confirmed. A reply's snapshot does not read the calls and stands.
#[test]
fn a_calls_snapshot_over_an_incomplete_observation_is_never_a_pass() {
    use agent_test_runtime::check::Stored;
    use agent_test_runtime::model::{SpanReading, Transcript, Turn, UnreadSpans};
    let accepted = |content: &str| Stored::Accepted {
        file: "snapshots/suite__refund__1.snap".into(),
        content: content.into(),
    };
    let calls = r#"[{"tool": "refund", "arguments": {"order_id": "ORD-1"}}]"#;
    let mut answer = Reply::text("Done.").call(Call::tool("refund", json!({"order_id": "ORD-1"})));
    let mut reading = SpanReading::new(4);
    reading.unread.push(UnreadSpans::new(
        "Function: cancel_order",
        1,
        Some("its name says `function`".into()),
    ));
    answer.spans = Some(reading);
    let t = super::one_turn(answer);
    let v = super::conv(&t, any_tool().snapshot().stored(accepted(calls)));
    assert_eq!(v.status, Status::Error);
    assert!(
        v.reason.starts_with(
            "not measured: on turn 1, 1 span was not read and may be a call: \
             `Function: cancel_order`"
        ),
        "{}",
        v.reason
    );
    let text = super::conv(&t, reply().snapshot().stored(accepted("Done.")));
    assert_eq!(text.status, Status::Pass, "{}", text.reason);

    // The agent failed on its last turn: no call seen there, none confirmed absent.
    let failed = Transcript::new(vec![
        Turn::new(
            0,
            "refund",
            Reply::text("Done.").call(Call::tool("refund", json!({"order_id": "ORD-1"}))),
            1,
        ),
        Turn::failed(1, "and cancel", "upstream 503", 1),
    ]);
    let v = super::conv(&failed, any_tool().snapshot().stored(accepted(calls)));
    assert_eq!(v.status, Status::Error);
    assert!(
        v.reason.starts_with("cannot confirm an absence"),
        "{}",
        v.reason
    );
}
