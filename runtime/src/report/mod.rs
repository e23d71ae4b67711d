//! Reports: the result of a run, rendered as text for the test's panic message and written as
//! JSON under `target/agent-test/`.

pub(crate) mod diff;
mod text;
mod write;

pub use diff::{json_diff, text_diff};
pub(crate) use text::{plural, truncate as clip};
pub(crate) use write::write_json;
pub use write::{REPORT_DIR_ENV, report_root};

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::ScenarioInfo;
use crate::check::{Severity, Status};
use crate::judge::JudgeUsage;
use crate::model::Transcript;
use crate::run::RepeatSummary;
use crate::verdict::Verdict;

/// Counts of verdicts by status.
///
/// ```
/// use agent_test_runtime::report::Summary;
/// let s = Summary::default();
/// assert_eq!(s.total(), 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Checks that passed.
    pub passed: usize,
    /// Error-severity checks that failed.
    pub failed: usize,
    /// Checks skipped for an unmet dependency.
    pub skipped: usize,
    /// Error-severity checks that could not be evaluated.
    pub errors: usize,
    /// Warning-severity checks that failed or could not be evaluated (they do not fail the test).
    pub warnings: usize,
}

impl Summary {
    /// Counts the verdicts.
    ///
    /// ```
    /// # use agent_test_runtime::report::Summary;
    /// assert_eq!(Summary::of(&[]).passed, 0);
    /// ```
    pub fn of(verdicts: &[Verdict]) -> Self {
        let mut s = Summary::default();
        for v in verdicts {
            match (v.status, v.severity) {
                (Status::Pass, _) => s.passed += 1,
                (Status::Skipped, _) => s.skipped += 1,
                (_, Severity::Warning) => s.warnings += 1,
                (Status::Fail, Severity::Error) => s.failed += 1,
                (Status::Error, Severity::Error) => s.errors += 1,
            }
        }
        s
    }

    /// Number of verdicts counted.
    ///
    /// See the type's example.
    pub fn total(&self) -> usize {
        self.passed + self.failed + self.skipped + self.errors + self.warnings
    }
}

/// The result of one run of a scenario: every verdict and the transcript.
///
/// It renders (with `Display`) as the text report shown when a test fails, and serialises as
/// the JSON written to `target/agent-test/<module path>/<scenario>.json` (the directory can be
/// moved with [`Suite::report_dir`](crate::Suite::report_dir) or the `AGENT_TEST_REPORT_DIR`
/// environment variable).
///
/// ```
/// use agent_test_runtime::prelude::*;
/// use agent_test_runtime::agent::agent_fn;
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let mut run = ScenarioRun::new(Suite::new().agent(agent_fn(|_r| async { "Hello" })), "greeting");
/// run.user("hi").await;
/// run.expect(reply().contains("goodbye"));
/// let report = run.report().await;
/// assert!(!report.passed());
/// let text = report.to_string();
/// assert!(text.contains(r#"reply does not contain "goodbye""#));
/// # });
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Which scenario ran.
    pub scenario: ScenarioInfo,
    /// Whether every error-severity check passed (or was skipped).
    pub passed: bool,
    /// Verdict counts.
    pub summary: Summary,
    /// One verdict per check, in the order written (setup errors and failed turns first).
    pub verdicts: Vec<Verdict>,
    /// What the agent was shown and did.
    pub transcript: Transcript,
    /// Wall time of the run, in milliseconds.
    pub duration_ms: u64,
    /// Where the JSON report was written.
    #[serde(skip)]
    pub json_path: Option<PathBuf>,
    /// Problems of the harness itself (the JSON report could not be written, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// What the judge did and cost, apart from the agent's usage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<JudgeUsage>,
    /// For a repeated scenario: runs passed against runs required, and each check's tally.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeats: Option<RepeatSummary>,
}

impl Report {
    /// Assembles a report.
    pub fn new(
        scenario: ScenarioInfo,
        verdicts: Vec<Verdict>,
        transcript: Transcript,
        duration_ms: u64,
    ) -> Self {
        let summary = Summary::of(&verdicts);
        Report {
            scenario,
            passed: !verdicts.iter().any(Verdict::fails_test),
            summary,
            verdicts,
            transcript,
            duration_ms,
            json_path: None,
            notes: Vec::new(),
            judge: None,
            repeats: None,
        }
    }

    /// Adds notes about the harness (a cache or report that could not be written), each once.
    pub(crate) fn add_notes<'a>(&mut self, notes: impl IntoIterator<Item = &'a String>) {
        for note in notes {
            if !self.notes.contains(note) {
                self.notes.push(note.clone());
            }
        }
    }

    /// Whether the run passed.
    ///
    /// See the type's example.
    pub fn passed(&self) -> bool {
        self.passed
    }

    /// The verdicts that fail the test.
    ///
    /// ```
    /// # use agent_test_runtime::{report::Report, ScenarioInfo};
    /// let r = Report::new(ScenarioInfo::new("x"), vec![], Default::default(), 0);
    /// assert_eq!(r.failures().count(), 0);
    /// ```
    pub fn failures(&self) -> impl Iterator<Item = &Verdict> {
        self.verdicts.iter().filter(|v| v.fails_test())
    }

    /// Fails the test with the full text report when the run did not pass; otherwise prints
    /// the report to standard output (shown by `cargo test -- --nocapture`). Set
    /// `AGENT_TEST_REPORT=summary` to print one line per passing scenario, or `quiet` for none.
    ///
    /// ```should_panic
    /// # use agent_test_runtime::prelude::*;
    /// # use agent_test_runtime::agent::agent_fn;
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let mut run = ScenarioRun::new(Suite::new().agent(agent_fn(|_r| async { "Hello" })), "greeting");
    /// run.user("hi").await;
    /// run.expect(reply().contains("goodbye"));
    /// run.report().await.assert_passed(); // panics with the report
    /// # });
    /// ```
    #[track_caller]
    pub fn assert_passed(&self) {
        if !self.passed {
            panic!("{self}");
        }
        match std::env::var("AGENT_TEST_REPORT").as_deref() {
            Ok("quiet") => {}
            Ok("summary") => println!("{}", self.headline()),
            _ => print!("{self}"),
        }
    }
}
