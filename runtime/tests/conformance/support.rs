//! Helpers shared by the format modules: loading one case, building recorded runs by hand,
//! and asserting verdicts by label and status.

use agent_test_runtime::Verdict;
use agent_test_runtime::check::Status;
use agent_test_runtime::formats::{self, ImportedCase, SeedFormat};
use agent_test_runtime::model::{Reply, Transcript, Turn};
use agent_test_runtime::report::Report;

pub use agent_test_runtime::check::Status::{Error, Fail, Pass, Skipped};

/// Loads `text` as `format` (named, and detected: both must agree) and returns its only case.
#[track_caller]
pub fn case(format: SeedFormat, text: &str, file: &str) -> ImportedCase {
    assert_eq!(
        formats::detect(text, file),
        Some(format),
        "`{file}` should be detected as {format}"
    );
    let mut cases = formats::from_text(text, file, Some(format))
        .unwrap_or_else(|e| panic!("`{file}` should load as {format}: {e}"));
    assert_eq!(cases.len(), 1, "`{file}` holds one case");
    cases.remove(0)
}

/// The full error message (`file: at path: message`) of loading `text` as `format`.
#[track_caller]
pub fn load_error(format: SeedFormat, text: &str, file: &str) -> String {
    match formats::from_text(text, file, Some(format)) {
        Ok(cases) => panic!("`{file}` should not load, but gave {} case(s)", cases.len()),
        Err(e) => e.to_string(),
    }
}

/// A transcript of one turn: the user's input and the agent's reply (10 ms).
pub fn one(input: &str, reply: Reply) -> Transcript {
    turns(vec![(input, reply)])
}

/// A transcript of several turns (10 ms each).
pub fn turns(turns: Vec<(&str, Reply)>) -> Transcript {
    Transcript::new(
        turns
            .into_iter()
            .enumerate()
            .map(|(i, (input, reply))| Turn::new(i, input, reply, 10))
            .collect(),
    )
}

/// One line per verdict, for failure messages.
pub fn table(report: &Report) -> String {
    report
        .verdicts
        .iter()
        .enumerate()
        .map(|(i, v)| format!("  [{i}] {:?} {} — {}", v.status, v.label, explain(v)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A verdict's reason with its violations, as one text to search.
pub fn explain(v: &Verdict) -> String {
    let mut out = v.reason.clone();
    for x in &v.details.violations {
        out.push_str(" | ");
        out.push_str(&x.message);
    }
    out
}

/// The verdicts, in order, must be exactly these: each names a text its label (or its check
/// family) contains, and the status it must have.
#[track_caller]
pub fn assert_verdicts(report: &Report, expected: &[(&str, Status)]) {
    let ok = report.verdicts.len() == expected.len()
        && report
            .verdicts
            .iter()
            .zip(expected)
            .all(|(v, (needle, status))| {
                (v.label.contains(needle) || v.check == *needle) && v.status == *status
            });
    assert!(
        ok,
        "expected verdicts {expected:?}\ngot:\n{}\n\nreport:\n{report}",
        table(report)
    );
}

/// The verdict whose label contains `needle` (exactly one must).
#[track_caller]
pub fn verdict<'r>(report: &'r Report, needle: &str) -> &'r Verdict {
    let found: Vec<&Verdict> = report
        .verdicts
        .iter()
        .filter(|v| v.label.contains(needle))
        .collect();
    assert_eq!(
        found.len(),
        1,
        "expected one verdict labelled like {needle:?}, got:\n{}",
        table(report)
    );
    found[0]
}

/// The verdict labelled like `needle` has `status`, and its reason (with violations) contains
/// every one of `parts`.
#[track_caller]
pub fn assert_reason(report: &Report, needle: &str, status: Status, parts: &[&str]) {
    let v = verdict(report, needle);
    let why = explain(v);
    assert!(
        v.status == status && parts.iter().all(|p| why.contains(p)),
        "verdict {needle:?}: expected {status:?} with {parts:?}, got {:?}: {why}\n\nreport:\n{report}",
        v.status
    );
}

/// Passed, or panics with the report.
#[track_caller]
pub fn assert_passes(report: &Report) {
    assert!(report.passed(), "expected a pass:\n{report}");
}

/// Failed, or panics with the report.
#[track_caller]
pub fn assert_fails(report: &Report) {
    assert!(!report.passed(), "expected a failure:\n{report}");
}

/// Judge checks cannot be graded by plain evaluation: every verdict labelled like one of
/// `judged` is an error saying so (never a pass).
#[track_caller]
pub fn assert_not_graded(report: &Report, judged: &[&str]) {
    for needle in judged {
        assert_reason(report, needle, Error, &["not graded"]);
    }
}

/// A row of a table-driven conformance test.
pub struct Row {
    /// What the row shows.
    pub what: &'static str,
    /// The case, in the format's own text.
    pub case: String,
    /// The recorded run.
    pub run: Transcript,
    /// The verdicts, in order: (label or check family, status).
    pub expect: Vec<(&'static str, Status)>,
}

/// Runs the rows of a table: loads each case as `format`, evaluates it on its run and checks
/// every verdict; reports every failing row at once.
#[track_caller]
pub fn run_table(format: SeedFormat, file: &str, rows: Vec<Row>) {
    let mut failures = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let cases = match formats::from_text(&row.case, file, Some(format)) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("row {i} ({}): does not load: {e}", row.what));
                continue;
            }
        };
        let report = cases[0].scenario.evaluate(&row.run);
        let ok = report.verdicts.len() == row.expect.len()
            && report
                .verdicts
                .iter()
                .zip(&row.expect)
                .all(|(v, (needle, status))| {
                    (v.label.contains(needle) || v.check == *needle) && v.status == *status
                });
        if !ok {
            failures.push(format!(
                "row {i} ({}): expected {:?}\n{}",
                row.what,
                row.expect,
                table(&report)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows failed:\n\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n\n")
    );
}
