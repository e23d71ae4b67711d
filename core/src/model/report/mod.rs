//! The result of a run: every verdict, the transcript, and for repeated scenarios how each
//! check fared. Rendered as text by its `Display`; the runtime writes it as JSON.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::model::judge_usage::JudgeUsage;
use crate::model::outcome::Status;
use crate::model::reliability::{DEFAULT_CONFIDENCE, MinPassRate, Reliability};
use crate::model::scope::{Scope, Severity};
use crate::model::sequential::Sequential;
use crate::model::{ScenarioInfo, Transcript, Verdict};

mod text;

/// Counts of verdicts by status.
///
/// ```
/// use agent_test::report::Summary;
/// let s = Summary::default();
/// assert_eq!(s.total(), 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
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
    /// # use agent_test::report::Summary;
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
        // Saturating: a report read from a file may hold any counts.
        [self.failed, self.skipped, self.errors, self.warnings]
            .into_iter()
            .fold(self.passed, usize::saturating_add)
    }
}

/// The result of one run of a scenario: every verdict and the transcript.
///
/// It renders (with `Display`) as the text report shown when a test fails, and serialises as
/// the JSON written to `target/agent-test/<module path>/<scenario>.json` (the directory can be
/// moved with `Suite::report_dir` or the `AGENT_TEST_REPORT_DIR`
/// environment variable).
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::{ScenarioRun, Suite};
/// use agent_test::agent::agent_fn;
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
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct Report {
    /// Which scenario ran.
    pub scenario: ScenarioInfo,
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
    /// What the run says beside the verdicts: what an agent adapter or trace reader said of a
    /// turn (spans that came late, a trace that is no turn), the parts of a turn that could
    /// not be read ([`Gap`](super::Gap)s), and problems of the harness itself (the JSON report
    /// could not be written, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// What the judge did and cost, apart from the agent's usage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<JudgeUsage>,
    /// For a repeated scenario: runs passed against runs required, and each check's tally.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeats: Option<RepeatSummary>,
    /// The cassette entries (their files' names without `.json`) that answered the run's model
    /// calls, in first-use order: those of agent-test's own clients (`ChatAgent`, the judge)
    /// reaching a model through a cassette proxy. `agent-test cassette unused` lists the
    /// entries of a cassette that no report used.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cassette: Vec<String>,
    /// The scenario's checks as data, in their JSON form (as scenario files write them), so
    /// that the transcript can be evaluated again without the test that ran it:
    /// `agent-test mutate` reads them. A Rust closure check (`check(..)`) is written with its
    /// label only, and cannot be evaluated again.
    #[serde(default)]
    pub checks: Vec<serde_json::Value>,
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
        // What the agent's adapter or trace reader said of each turn, the spans it was read
        // from (every one accounted for), and what it could not read, in the report's notes
        // (once each).
        let mut notes: Vec<String> = Vec::new();
        for t in &transcript.turns {
            let turn = super::turn_number(t.index);
            let said = t.reply.notes.iter().map(|n| format!("turn {turn}: {n}"));
            let spans = t
                .reply
                .spans
                .iter()
                .map(|s| format!("turn {turn}: trace of {s}"));
            let gaps = t.reply.gaps.iter().map(|g| format!("turn {turn}: {g}"));
            for note in said.chain(spans).chain(gaps) {
                if !notes.contains(&note) {
                    notes.push(note);
                }
            }
        }
        Report {
            scenario,
            summary,
            verdicts,
            transcript,
            duration_ms,
            json_path: None,
            notes,
            judge: None,
            repeats: None,
            cassette: Vec::new(),
            checks: Vec::new(),
        }
    }

    /// Adds notes about the harness (a cache or report that could not be written), each once.
    #[doc(hidden)]
    pub fn add_notes<'a>(&mut self, notes: impl IntoIterator<Item = &'a String>) {
        for note in notes {
            if !self.notes.contains(note) {
                self.notes.push(note.clone());
            }
        }
    }

    /// Whether the run passed: no verdict fails the test (every error-severity check passed
    /// or was skipped), or, for a repeated scenario, enough runs passed
    /// ([`RepeatSummary::passed`]). Worked out from what the report holds, so it never
    /// disagrees with its verdicts.
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::check::Status;
    /// use agent_test::model::Reply;
    /// use agent_test::{scenario::Scenario, model::{Transcript, Turn}};
    /// let t = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello"), 1)]);
    /// let mut r = Scenario::new("x").expect(reply().contains("bye")).evaluate(&t);
    /// assert!(!r.passed());
    /// assert_eq!(agent_test::serde_json::to_value(&r).unwrap()["passed"], false);
    /// r.verdicts.retain(|v| v.status != Status::Fail);
    /// assert!(r.passed());
    /// assert_eq!(agent_test::serde_json::to_value(&r).unwrap()["passed"], true);
    /// ```
    pub fn passed(&self) -> bool {
        match &self.repeats {
            Some(repeats) => repeats.passed(),
            None => !self.verdicts.iter().any(Verdict::fails_test),
        }
    }

    /// The verdicts that fail the test.
    ///
    /// ```
    /// # use agent_test::{report::Report, ScenarioInfo};
    /// let r = Report::new(ScenarioInfo::new("x"), vec![], Default::default(), 0);
    /// assert_eq!(r.failures().count(), 0);
    /// ```
    pub fn failures(&self) -> impl Iterator<Item = &Verdict> {
        self.verdicts.iter().filter(|v| v.fails_test())
    }
}

/// The JSON report: `passed` is [`Report::passed`], worked out from the verdicts, never a
/// stale copy.
impl Serialize for Report {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        // Every field named, so a field added later does not compile until it is written here.
        let Report {
            scenario,
            summary,
            verdicts,
            transcript,
            duration_ms,
            json_path: _,
            notes,
            judge,
            repeats,
            cassette,
            checks,
        } = self;
        let mut st = s.serialize_struct("Report", 11)?;
        st.serialize_field("scenario", scenario)?;
        st.serialize_field("passed", &self.passed())?;
        st.serialize_field("summary", summary)?;
        st.serialize_field("verdicts", verdicts)?;
        st.serialize_field("transcript", transcript)?;
        st.serialize_field("duration_ms", duration_ms)?;
        if !notes.is_empty() {
            st.serialize_field("notes", notes)?;
        }
        if let Some(judge) = judge {
            st.serialize_field("judge", judge)?;
        }
        if let Some(repeats) = repeats {
            st.serialize_field("repeats", repeats)?;
        }
        if !cassette.is_empty() {
            st.serialize_field("cassette", cassette)?;
        }
        if !checks.is_empty() {
            st.serialize_field("checks", checks)?;
        }
        st.end()
    }
}

/// The outcome of a repeated scenario: runs passed against runs required, how reliable the
/// scenario is (its pass rate with a confidence interval, pass^k and pass@k), the gate on the
/// pass rate when one is set, and per check how often it passed; a check that both passed and
/// failed is flaky.
///
/// ```
/// use agent_test::report::RepeatSummary;
/// use agent_test::report::reliability::MinPassRate;
/// let s = RepeatSummary::new(5, 4, 4, None);
/// assert!(s.passed());
/// assert_eq!(s.reliability.as_ref().unwrap().to_string(), "pass rate 0.80, 95% CI 0.38–0.96; pass^3 0.40");
///
/// let gated = RepeatSummary::new(10, 7, 0, Some(MinPassRate::from(0.9)));
/// assert!(!gated.passed());
/// assert_eq!(gated.failures(), ["pass rate 7/10 = 0.70, 95% lower bound 0.40 < 0.90 required"]);
///
/// // `min_passes = 0` with no rate gates nothing: never a pass.
/// assert_eq!(RepeatSummary::new(2, 0, 0, None).failures(), ["no run was required to pass (min_passes = 0)"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RepeatSummary {
    /// Runs made.
    pub runs: u32,
    /// Runs that passed.
    pub passed_runs: u32,
    /// Runs that had to pass (`min_passes`, by default all of them); 0 when only a
    /// [`min_pass_rate`](Self::min_pass_rate) gates the runs.
    pub required: u32,
    /// The gate on the pass rate's lower confidence bound (`min_pass_rate = (0.9, 0.95);`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_pass_rate: Option<MinPassRate>,
    /// The scenario's pass rate with its Wilson interval (at the gate's confidence, else 95 %),
    /// pass^k and pass@k; absent when no run was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reliability: Option<Reliability>,
    /// A sequential plan (`repeat = up_to(n);`): at most how many runs, and the wider bounds
    /// that decided the gate as the runs came.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequential: Option<Sequential>,
    /// Each check's tally, in the order written.
    pub checks: Vec<CheckTally>,
}

impl RepeatSummary {
    /// The summary of `passed_runs` of `runs`, `required` of which had to pass, with the gate
    /// `min_pass_rate` if any; its reliability is worked out, its checks are left empty.
    ///
    /// See the type's example.
    pub fn new(
        runs: u32,
        passed_runs: u32,
        required: u32,
        min_pass_rate: Option<MinPassRate>,
    ) -> Self {
        RepeatSummary {
            runs,
            passed_runs,
            required,
            min_pass_rate,
            reliability: Reliability::of(passed_runs, runs, Self::confidence_of(min_pass_rate)),
            sequential: None,
            checks: Vec::new(),
        }
    }

    /// The summary of a sequential plan of at most `up_to` runs: its gate (if any) is decided
    /// by the wider bounds that looking after every run takes.
    ///
    /// ```
    /// # use agent_test::report::RepeatSummary;
    /// let s = RepeatSummary::new(51, 51, 0, Some((0.9, 0.95).into())).sequential(200);
    /// assert_eq!(s.headline(), "51 of 51 runs passed (min_pass_rate = (0.9, 0.95), up to 200 runs)");
    /// assert!(s.passed());
    /// let early = RepeatSummary::new(12, 6, 0, Some((0.9, 0.95).into())).sequential(200);
    /// assert!(!early.passed());
    /// assert!(early.failures()[0].starts_with("pass rate 6/12 = 0.50, sequential 95% upper bound"));
    /// ```
    pub fn sequential(mut self, up_to: u32) -> Self {
        let z = self
            .min_pass_rate
            .and_then(|g| super::sequential::bounds(g, up_to))
            .map_or(f64::NAN, |b| b.z);
        self.sequential = Some(Sequential { up_to, z });
        self
    }

    /// The confidence of the intervals: the gate's, else 95 %.
    fn confidence_of(gate: Option<MinPassRate>) -> f64 {
        gate.map(|g| g.confidence)
            .filter(|c| *c > 0.0 && *c < 1.0)
            .unwrap_or(DEFAULT_CONFIDENCE)
    }

    /// The confidence of the intervals of this summary and its checks: the gate's, else 95 %.
    ///
    /// ```
    /// # use agent_test::report::RepeatSummary;
    /// assert_eq!(RepeatSummary::new(3, 3, 3, None).confidence(), 0.95);
    /// ```
    pub fn confidence(&self) -> f64 {
        Self::confidence_of(self.min_pass_rate)
    }

    /// Whether enough runs passed, and the pass rate's gate (if any) is met.
    ///
    /// See the type's example.
    pub fn passed(&self) -> bool {
        self.runs > 0 && self.failures().is_empty()
    }

    /// `3 of 5 runs passed (4 required)`, `7 of 10 runs passed (min_pass_rate = (0.9, 0.95))`.
    ///
    /// ```
    /// # use agent_test::report::RepeatSummary;
    /// assert_eq!(RepeatSummary::new(5, 3, 4, None).headline(), "3 of 5 runs passed (4 required)");
    /// ```
    pub fn headline(&self) -> String {
        let mut rules = Vec::new();
        if self.required > 0 || self.min_pass_rate.is_none() {
            rules.push(format!("{} required", self.required));
        }
        if let Some(gate) = &self.min_pass_rate {
            rules.push(gate.to_string());
        }
        if let Some(s) = &self.sequential {
            rules.push(format!("up to {} runs", s.up_to));
        }
        format!(
            "{} of {} run{} passed ({})",
            self.passed_runs,
            self.runs,
            crate::util::text::plural(self.runs as usize),
            rules.join(", ")
        )
    }

    /// Why the runs do not pass, with the numbers: too few passing runs, a pass rate whose
    /// lower bound is under the gate, or no run at all. Empty when they pass.
    ///
    /// See the type's example.
    pub fn failures(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.runs == 0 {
            out.push("no run was made".to_owned());
            return out;
        }
        if self.required == 0 && self.min_pass_rate.is_none() {
            // `min_passes = 0` and no rate: no run had to pass, so nothing was measured.
            out.push("no run was required to pass (min_passes = 0)".to_owned());
        }
        if self.passed_runs < self.required {
            out.push(format!(
                "{} of {} runs passed, {} required",
                self.passed_runs, self.runs, self.required
            ));
        }
        match (&self.min_pass_rate, &self.sequential) {
            (Some(gate), Some(s)) => out.extend(self.sequential_failure(*gate, *s)),
            (Some(gate), None) => {
                if let Err(e) = gate.check(self.passed_runs, self.runs) {
                    out.push(e.to_string());
                }
            }
            (None, _) => {}
        }
        out
    }

    /// Why a sequential plan's runs fail its gate, if they do: the bound that decided it.
    fn sequential_failure(&self, gate: MinPassRate, s: Sequential) -> Option<String> {
        let bounds = super::sequential::bounds(gate, s.up_to)?;
        let (passes, runs) = (self.passed_runs, self.runs);
        if bounds.decide(passes, runs) == super::sequential::Decision::Pass {
            return None;
        }
        let (low, high) = super::reliability::wilson_z(passes, runs, bounds.z)?;
        let pct = super::reliability::percent(gate.confidence);
        let rate = f64::from(passes) / f64::from(runs);
        Some(if high < gate.rate {
            format!(
                "pass rate {passes}/{runs} = {rate:.2}, sequential {pct} upper bound {high:.2} < \
                 {:.2} required: decided after {runs} of up to {} runs",
                gate.rate, s.up_to
            )
        } else {
            format!(
                "pass rate {passes}/{runs} = {rate:.2}, sequential {pct} lower bound {low:.2} < \
                 {:.2} required after {runs} of up to {} runs (the bounds of a sequential plan \
                 are wider: z = {:.2})",
                gate.rate, s.up_to, bounds.z
            )
        })
    }
}

/// How one check fared over the repeated runs.
///
/// ```
/// use agent_test::{check::Scope, report::CheckTally};
/// let t = CheckTally::new("reply contains \"refund\"", Scope::Conversation, 3, 2, 0.95);
/// assert!(t.flaky());
/// assert_eq!(t.reliability.unwrap().to_string(), "pass rate 0.60, 95% CI 0.23–0.88; pass^3 0.10");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CheckTally {
    /// The check, as reports name it.
    pub label: String,
    /// Its scope.
    pub scope: Scope,
    /// Runs in which it passed.
    pub passed: u32,
    /// Runs in which it failed, errored or was skipped.
    pub not_passed: u32,
    /// Its pass rate over the runs with a confidence interval, pass^k and pass@k.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reliability: Option<Reliability>,
}

impl CheckTally {
    /// The tally of a check that passed `passed` times and not `not_passed` times, with its
    /// reliability at `confidence`.
    ///
    /// See the type's example.
    pub fn new(
        label: impl Into<String>,
        scope: Scope,
        passed: u32,
        not_passed: u32,
        confidence: f64,
    ) -> Self {
        CheckTally {
            label: label.into(),
            scope,
            passed,
            not_passed,
            reliability: Reliability::of(passed, passed.saturating_add(not_passed), confidence),
        }
    }

    /// It passed in some runs and not in others.
    ///
    /// See the type's example.
    pub fn flaky(&self) -> bool {
        self.passed > 0 && self.not_passed > 0
    }
}

impl Report {
    /// Fails the test with the full text report when the run did not pass; otherwise prints
    /// the report to standard output (shown by `cargo test -- --nocapture`). Set
    /// `AGENT_TEST_REPORT=summary` to print one line per passing scenario, or `quiet` for none.
    ///
    /// ```should_panic
    /// # use agent_test::prelude::*;
    /// # use agent_test::{ScenarioRun, Suite};
    /// # use agent_test::agent::agent_fn;
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let mut run = ScenarioRun::new(Suite::new().agent(agent_fn(|_r| async { "Hello" })), "greeting");
    /// run.user("hi").await;
    /// run.expect(reply().contains("goodbye"));
    /// run.report().await.assert_passed(); // panics with the report
    /// # });
    /// ```
    #[track_caller]
    #[allow(
        clippy::panic,
        reason = "failing the calling test with the report is what `assert_passed` is for"
    )]
    pub fn assert_passed(&self) {
        if !self.passed() {
            panic!("{self}");
        }
        match std::env::var("AGENT_TEST_REPORT").as_deref() {
            Ok("quiet") => {}
            Ok("summary") => println!("{}", self.headline()),
            _ => print!("{self}"),
        }
    }
}
