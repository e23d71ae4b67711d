//! The judge's cache is read as strictly as the judge: an entry that a live answer could not
//! be (a score of 5, a missing field, a wrong type, broken JSON, another model's) is asked
//! again when live and an error naming the file in replay; a cache that cannot be written is
//! a note in the report, not a silent cost on every later run.

use std::path::{Path, PathBuf};

use agent_test_runtime::agent::agent_fn;
use agent_test_runtime::check::Status;
use agent_test_runtime::judge::{Judge, JudgeMode};
use agent_test_runtime::prelude::*;
use agent_test_runtime::report::Report;
use agent_test_runtime::{ScenarioRun, Suite};
use serde_json::{Value, json};

use super::judge::{cache, local};
use super::judge_server::{Behaviour, judge_server};

/// The only cache entry under `dir`.
fn only_entry(dir: &Path) -> PathBuf {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("cache dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "json") {
                out.push(p);
            }
        }
    }
    let mut found = Vec::new();
    walk(dir, &mut found);
    assert_eq!(found.len(), 1, "{found:?}");
    found.remove(0)
}

fn read(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).expect("read")).expect("json")
}

fn write(path: &Path, v: &Value) {
    std::fs::write(path, serde_json::to_vec(v).expect("json")).expect("write");
}

/// One turn answered `reply`, graded by `judge("mentions refund")`.
async fn judged(grader: Judge, reply: &'static str) -> Report {
    let agent = agent_fn(move |_r| async move { reply });
    let mut run = ScenarioRun::new(Suite::new().agent(agent).judge(grader), "cached");
    run.user("Refund ORD-1").await;
    run.expect_turn(judge("mentions refund"));
    run.report().await
}

const REPLAY: &str = ", and AGENT_TEST_JUDGE_MODE=replay forbids asking the judge: run once with a \
                      live judge to record it";

#[tokio::test]
async fn a_cached_score_of_5_is_asked_again_live_and_overwritten() {
    let dir = cache("cache-tampered");
    let (url, server) = judge_server(vec![]).await;
    // Graded 0.2 live: the reply does not mention a refund.
    let report = judged(local(&url, dir.clone()), "Sorry, no.").await;
    assert_eq!(report.verdicts[0].status, Status::Fail, "{report}");
    let file = only_entry(&dir);
    let mut entry = read(&file);
    assert_eq!(entry["judgement"]["score"], 0.2);
    entry["judgement"] = json!({"score": 5.0, "pass": true, "reasoning": "tampered"});
    write(&file, &entry);

    let report = judged(local(&url, dir.clone()), "Sorry, no.").await;
    assert_eq!(server.requests().len(), 2, "the bad entry was a miss");
    assert_eq!(report.verdicts[0].status, Status::Fail, "{report}");
    let usage = report.judge.as_ref().expect("usage");
    assert_eq!((usage.requests, usage.cached), (1, 0));
    assert_eq!(
        report.notes,
        [format!(
            "the judge cache entry {} is invalid (the judge's score 5 is outside 0..1: \
             {{\"pass\":true,\"reasoning\":\"tampered\",\"score\":5.0}}): asked again and \
             overwritten",
            file.display()
        )]
    );
    assert_eq!(read(&file)["judgement"]["score"], 0.2, "overwritten");
    let json = std::fs::read_to_string(report.json_path.as_ref().expect("written")).expect("json");
    assert!(json.contains("is invalid (the judge's score 5"), "{json}");
}

#[tokio::test]
async fn a_bad_cached_verdict_is_an_error_naming_the_file_in_replay() {
    let dir = cache("cache-replay-bad");
    let (url, server) = judge_server(vec![]).await;
    let report = judged(local(&url, dir.clone()), "Your refund is on its way.").await;
    assert!(report.passed(), "{report}");
    let file = only_entry(&dir);
    let good = read(&file);
    let with = |judgement: Value| {
        let mut e = good.clone();
        e["judgement"] = judgement;
        e
    };
    let cases: Vec<(Value, String)> = vec![
        (
            with(json!({"score": 5, "pass": true, "reasoning": "x"})),
            "the judge's score 5 is outside 0..1: {\"pass\":true,\"reasoning\":\"x\",\"score\":5}"
                .into(),
        ),
        (
            with(json!({"score": "0.9", "pass": true, "reasoning": "x"})),
            "the judge's result has no numeric `score`: {\"pass\":true,\"reasoning\":\"x\",\"score\":\"0.9\"}"
                .into(),
        ),
        (
            with(json!({"score": 0.9, "pass": "yes", "reasoning": "x"})),
            "the judge's `pass` is not true or false: {\"pass\":\"yes\",\"reasoning\":\"x\",\"score\":0.9}"
                .into(),
        ),
        (
            json!({"model": good["model"], "criteria": "mentions refund"}),
            "it has no `judgement` object".into(),
        ),
        (
            {
                let mut e = good.clone();
                e["model"] = json!("openai:another-model");
                e
            },
            "it was recorded for openai:another-model, not openai:judge-model".into(),
        ),
    ];
    for (entry, why) in cases {
        write(&file, &entry);
        let report = judged(
            local(&url, dir.clone()).mode(JudgeMode::Replay),
            "Your refund is on its way.",
        )
        .await;
        let v = &report.verdicts[0];
        assert_eq!(v.status, Status::Error, "{report}");
        assert_eq!(
            v.reason,
            format!(
                "not graded: the cached verdict {} is invalid: {why}{REPLAY}",
                file.display()
            )
        );
    }
    std::fs::write(&file, b"{\"judgement\": {\"score\": 0.").expect("write");
    let report = judged(
        local(&url, dir.clone()).mode(JudgeMode::Replay),
        "Your refund is on its way.",
    )
    .await;
    assert!(
        report.verdicts[0].reason.starts_with(&format!(
            "not graded: the cached verdict {} is invalid: it is not JSON (EOF while parsing",
            file.display()
        )),
        "{}",
        report.verdicts[0].reason
    );
    assert_eq!(server.requests().len(), 1, "replay never asks");
}

#[tokio::test]
async fn a_cache_that_cannot_be_written_is_a_note_not_a_failure() {
    let dir = cache("cache-unwritable");
    std::fs::create_dir_all(&dir).expect("dir");
    // A file where the cache directory should be.
    let blocker = dir.join("blocker");
    std::fs::write(&blocker, b"not a directory").expect("write");
    let (url, server) = judge_server(vec![]).await;
    let report = judged(
        local(&url, blocker.join("cache")),
        "Your refund is on its way.",
    )
    .await;
    assert!(report.passed(), "{report}");
    assert_eq!(server.requests().len(), 1);
    assert_eq!(report.notes.len(), 1, "{:?}", report.notes);
    let note = &report.notes[0];
    assert!(
        note.starts_with(&format!(
            "could not write to the judge cache: cannot create {}",
            blocker.join("cache").display()
        )),
        "{note}"
    );
    assert!(
        note.ends_with("; the next run will ask the judge again for 1 check"),
        "{note}"
    );
    assert!(report.to_string().contains(&format!("note: {note}")));
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(report.json_path.as_ref().expect("written")).expect("read"),
    )
    .expect("json");
    assert_eq!(json["notes"][0], note.as_str());
}

/// `extract "the booking reference"` from one turn answered `reply`.
async fn extracted(grader: Judge) -> (String, Report) {
    let agent = agent_fn(|_r| async { "Booked! Your reference is BK-4100." });
    let mut run = ScenarioRun::new(Suite::new().agent(agent).judge(grader), "extraction");
    run.user("Book the Sol Hostel").await;
    let value: String = run.extract("the booking reference").await;
    (value, run.report().await)
}

#[tokio::test]
async fn cached_model_answers_are_validated_like_live_ones() {
    let dir = cache("cache-steps");
    let (url, server) = judge_server(vec![
        Behaviour::Say(r#"{"found": true, "value": "BK-4100"}"#),
        Behaviour::Say(r#"{"found": true, "value": "BK-4100"}"#),
        Behaviour::Say(r#"{"found": true, "value": "BK-4100"}"#),
    ])
    .await;
    let (value, _) = extracted(local(&url, dir.clone())).await;
    assert_eq!(value, "BK-4100");
    let file = only_entry(&dir);
    let mut entry = read(&file);
    assert_eq!(entry["kind"], "extract");
    // Without `found`, as no live answer may be.
    entry["value"] = json!({"value": "BK-9999"});
    write(&file, &entry);
    let (value, report) = extracted(local(&url, dir.clone()).mode(JudgeMode::Replay)).await;
    assert_eq!(value, "");
    assert_eq!(
        report.verdicts[0].reason,
        format!(
            "the cached answer {} is invalid: the model's answer has no `found`: \
             {{\"value\":\"BK-9999\"}}, and AGENT_TEST_JUDGE_MODE=replay forbids asking the model: \
             run once with a live judge to record it",
            file.display()
        )
    );
    assert_eq!(server.requests().len(), 1);
    // Live: asked again, overwritten, noted.
    let (value, report) = extracted(local(&url, dir.clone())).await;
    assert_eq!(value, "BK-4100");
    assert_eq!(server.requests().len(), 2);
    assert_eq!(read(&file)["value"]["value"], "BK-4100");
    assert_eq!(report.notes.len(), 1, "{:?}", report.notes);
    assert!(
        report.notes[0].starts_with(&format!(
            "the judge cache entry {} is invalid (the model's answer has no `found`",
            file.display()
        )),
        "{}",
        report.notes[0]
    );

    // A cache that cannot be written: a note.
    let blocker = dir.join("blocker");
    std::fs::write(&blocker, b"x").expect("write");
    let (value, report) = extracted(local(&url, blocker.join("cache"))).await;
    assert_eq!(value, "BK-4100");
    assert_eq!(report.notes.len(), 1, "{:?}", report.notes);
    assert!(
        report.notes[0].ends_with("; the next run will ask the model again"),
        "{}",
        report.notes[0]
    );
}

/// Every file under `dir` (none when it is not there yet).
fn walk_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            walk_files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Set in the processes the test below starts: where they write.
const WRITER: &str = "AGENT_TEST_CONCURRENT_WRITER";

/// One of the processes: grades and reports the same scenario ten times, rewriting the same
/// judge cache entry and the same report file.
async fn write_as_one_of_many(dir: &Path) {
    let (url, _judge) = judge_server(vec![]).await;
    for _ in 0..10 {
        let grader = local(&url, dir.join("cache")).mode(JudgeMode::Refresh);
        let agent = agent_fn(|_r| async { "Refund sent." });
        let suite = Suite::new()
            .agent(agent)
            .judge(grader)
            .report_dir_over_env(dir.join("reports"));
        let mut run = ScenarioRun::new(suite, "shared");
        run.user("Refund ORD-1").await;
        run.expect_turn(judge("mentions refund"));
        let report = run.report().await;
        assert!(report.passed(), "{report:?}");
    }
}

/// With a process per test (cargo nextest), or CI jobs sharing a directory, eight processes
/// write the same judge cache entry and the same report at once: every file stays whole JSON
/// (written aside and renamed), and no temporary file is left.
#[tokio::test]
async fn eight_processes_writing_one_cache_entry_and_one_report_leave_them_whole() {
    if let Some(dir) = std::env::var_os(WRITER) {
        write_as_one_of_many(Path::new(&dir)).await;
        return;
    }
    let dir = cache("eight-writers");
    std::fs::create_dir_all(&dir).expect("dir");
    let exe = std::env::current_exe().expect("the test binary");
    let test =
        "judge_cache::eight_processes_writing_one_cache_entry_and_one_report_leave_them_whole";
    let children: Vec<std::process::Child> = (0..8)
        .map(|_| {
            std::process::Command::new(&exe)
                .args(["--exact", test, "--test-threads", "1"])
                .env(WRITER, &dir)
                .stdout(std::process::Stdio::null())
                .spawn()
                .expect("a writer starts")
        })
        .collect();
    // Meanwhile, read what they write, as a CI step or another test process would: whatever
    // is there is whole JSON, never a part.
    let mut reads = 0usize;
    let mut children = children;
    while children
        .iter_mut()
        .any(|c| c.try_wait().ok().flatten().is_none())
    {
        let mut found = Vec::new();
        walk_files(&dir, &mut found);
        for f in found
            .iter()
            .filter(|f| f.extension().is_some_and(|e| e == "json"))
        {
            if let Ok(bytes) = std::fs::read(f) {
                assert!(
                    serde_json::from_slice::<Value>(&bytes).is_ok(),
                    "{} read half-written: {}",
                    f.display(),
                    String::from_utf8_lossy(&bytes)
                );
                reads += 1;
            }
        }
    }
    for mut child in children {
        assert!(child.wait().expect("a writer ends").success());
    }
    eprintln!("{reads} reads while the writers wrote");
    let mut files = Vec::new();
    walk_files(&dir, &mut files);
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    assert!(
        !names.iter().any(|n| n.ends_with(".tmp")),
        "temporary files left: {names:?}"
    );
    let (entries, reports): (Vec<&PathBuf>, Vec<&PathBuf>) =
        files.iter().partition(|f| f.starts_with(dir.join("cache")));
    assert_eq!(entries.len(), 1, "{names:?}");
    assert_eq!(reports.len(), 1, "{names:?}");
    assert_eq!(read(entries[0])["judgement"]["score"], 1.0);
    let report: Report = serde_json::from_value(read(reports[0])).expect("a whole report");
    assert!(report.passed());
    let _ = std::fs::remove_dir_all(&dir);
}
