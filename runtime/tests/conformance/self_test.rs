//! The table test must never pass vacuously: fixture folders that check nothing, or check
//! something that does not exist, are mismatches. Each case here is a small folder written to
//! a temporary directory and checked like the tree's.

use std::path::{Path, PathBuf};

use agent_test_runtime::formats::SeedFormat;

use crate::table::check_folder;

/// A Mibo case whose one check (a regex on the reply) passes on [`RUN`].
const DOC: &str = r#"{"input_utterance": "hi", "assertions": {"procedural": [
    {"target": "response_regex", "pattern": "hello"}]}}"#;

/// A run answering "hello there".
const RUN: &str = r#"{"scenario": {"name": "case"}, "transcript": {"turns": [
    {"index": 0, "input": "hi", "latency_ms": 10, "reply": {"text": "hello there"}}]}}"#;

/// A folder of one case made of `files` (path in the case folder, text), removed when dropped.
struct Folder(PathBuf);

impl Folder {
    fn new(name: &str, files: &[(&str, &str)]) -> Self {
        let root = std::env::temp_dir().join(format!(
            "agent-test-conformance-self-test-{}-{name}",
            std::process::id()
        ));
        let case = root.join("case");
        for (path, text) in files {
            let path = case.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        std::fs::create_dir_all(&case).unwrap();
        Folder(root)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The mismatches of checking a folder of one case made of `files`.
fn mismatches(name: &str, files: &[(&str, &str)]) -> Vec<String> {
    let folder = Folder::new(name, files);
    check_folder(folder.path(), Some(SeedFormat::Mibo)).mismatches
}

/// Exactly one mismatch, containing `needle`.
#[track_caller]
fn refused(name: &str, files: &[(&str, &str)], needle: &str) {
    let found = mismatches(name, files);
    assert!(
        found.len() == 1 && found[0].contains(needle),
        "{name}: expected one mismatch with {needle:?}, got {found:#?}"
    );
}

#[test]
fn a_complete_case_passes_and_a_wrong_status_is_a_mismatch() {
    let expect = r#"{"about": "x", "runs": {"hello": {"verdicts": [["hello", "pass"]]}}}"#;
    let files = [
        ("case.json", DOC),
        ("runs/hello.json", RUN),
        ("expect.json", expect),
    ];
    assert_eq!(mismatches("good", &files), Vec::<String>::new());
    let wrong = expect.replace("pass", "fail");
    refused(
        "wrong-status",
        &[files[0], files[1], ("expect.json", &wrong)],
        "verdicts: expected",
    );
}

#[test]
fn vacuous_or_misspelt_expectations_are_mismatches() {
    let case = ("case.json", DOC);
    let run = ("runs/hello.json", RUN);
    refused("no-expect", &[case, run], "no expect.json");
    refused(
        "nothing-checked",
        &[case, ("expect.json", r#"{"about": "x"}"#)],
        "checks nothing",
    );
    refused(
        "run-checks-nothing",
        &[
            case,
            run,
            ("expect.json", r#"{"about": "x", "runs": {"hello": {}}}"#),
        ],
        "checks nothing",
    );
    refused(
        "unknown-key",
        &[
            case,
            run,
            (
                "expect.json",
                r#"{"about": "x", "runs": {"hello": {"verdict": [["hello", "pass"]]}}}"#,
            ),
        ],
        "unknown field `verdict`",
    );
    refused(
        "unknown-label",
        &[
            case,
            run,
            (
                "expect.json",
                r#"{"about": "x", "runs": {"hello": {"verdicts": [["goodbye", "pass"]]}}}"#,
            ),
        ],
        "verdicts: expected",
    );
    refused(
        "unknown-reason-label",
        &[
            case,
            run,
            (
                "expect.json",
                r#"{"about": "x", "runs": {"hello": {"reasons": [{"verdict": "goodbye", "contains": []}]}}}"#,
            ),
        ],
        "0 verdicts labelled like \"goodbye\"",
    );
    refused(
        "run-without-expectation",
        &[
            case,
            run,
            ("runs/other.json", RUN),
            (
                "expect.json",
                r#"{"about": "x", "runs": {"hello": {"passed": true}}}"#,
            ),
        ],
        "a run without an expectation",
    );
    refused(
        "expectation-without-run",
        &[
            case,
            (
                "expect.json",
                r#"{"about": "x", "runs": {"hello": {"passed": true}}}"#,
            ),
        ],
        "cannot read",
    );
    refused(
        "absent-pointer",
        &[
            case,
            (
                "expect.json",
                r#"{"about": "x", "scenario": [{"at": "/nmae", "equals": "case"}]}"#,
            ),
        ],
        "at `/nmae`",
    );
    refused(
        "two-documents",
        &[
            case,
            ("other.json", DOC),
            ("expect.json", r#"{"about": "x", "cases": 1}"#),
        ],
        "expected one document",
    );
}

#[test]
fn an_empty_folder_checks_nothing() {
    let folder = Folder::new("empty", &[]);
    std::fs::remove_dir_all(folder.path().join("case")).unwrap();
    let found = check_folder(folder.path(), Some(SeedFormat::Mibo)).mismatches;
    assert!(
        found.len() == 1 && found[0].contains("no case folder"),
        "{found:#?}"
    );
}
