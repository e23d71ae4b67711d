//! Repeated runs: a scenario run N times must pass at least M of them, or pass with a rate
//! whose lower confidence bound reaches a gate; the report counts each check's passes, gives
//! the pass rates with their intervals, pass^k and pass@k, and flags the flaky checks.

use std::collections::HashMap;

use super::ScenarioRun;
use crate::report::Report;
use agent_test_core::check::{Scope, Status};
use agent_test_core::model::repeat_plan::Repeat;
use agent_test_core::model::report::{CheckTally, RepeatSummary};

/// The runs of one scenario so far: how a scenario written with the builder API repeats, as
/// `repeat = N; min_passes = M;` does in `agent_test!`. Record each finished run; the report
/// of them all comes back once enough runs were made.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::{ScenarioRun, Suite};
/// use agent_test::{Repeats, ScenarioInfo};
/// use agent_test::agent::agent_fn;
/// use std::sync::atomic::{AtomicUsize, Ordering};
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// static CALLS: AtomicUsize = AtomicUsize::new(0);
/// // Says "refund" in 3 runs of 4.
/// let flaky = || agent_fn(|_r| async {
///     if CALLS.fetch_add(1, Ordering::SeqCst) % 4 == 3 { "Sorry." } else { "Your refund is on its way." }
/// });
/// let mut repeats = Repeats::new();
/// let report = loop {
///     let suite = Suite::new().agent(flaky()).repeat(4).min_passes(3);
///     let mut run = ScenarioRun::with_info(suite, ScenarioInfo::new("refund").repeated(repeats.index()));
///     run.user("refund please").await;
///     run.expect(reply().contains("refund"));
///     if let Some(report) = repeats.record(run).await {
///         break report;
///     }
/// };
/// let summary = report.repeats.as_ref().unwrap();
/// assert_eq!((summary.runs, summary.passed_runs, summary.required), (4, 3, 3));
/// assert!(report.passed());
/// assert!(summary.checks[0].flaky());
/// # });
/// ```
#[derive(Debug, Default)]
pub struct Repeats {
    reports: Vec<Report>,
}

impl Repeats {
    /// No run yet.
    ///
    /// See the type's example.
    pub fn new() -> Self {
        Self::default()
    }

    /// The index of the next run (0 for the first).
    ///
    /// See the type's example.
    pub fn index(&self) -> usize {
        self.reports.len()
    }

    /// Finishes a run; when it was the last of its scenario's repeats, returns the report of
    /// them all (a single run's report is returned unchanged).
    ///
    /// See the type's example.
    pub async fn record(&mut self, run: ScenarioRun) -> Option<Report> {
        let plan = run.suite.repeat;
        let (report, report_dir) = run.finish().await;
        // A plan that can never be met is decided before the first run: that run sent nothing,
        // and no other follows.
        let mut report = if (plan.times <= 1 || plan.problem().is_some()) && self.reports.is_empty()
        {
            report
        } else {
            self.reports.push(report);
            let runs = u32::try_from(self.reports.len()).unwrap_or(u32::MAX);
            let passes = self.reports.iter().filter(|r| r.passed()).count();
            // A sequential plan stops as soon as its runs decide it; a fixed one at its last.
            if !plan.decided(u32::try_from(passes).unwrap_or(u32::MAX), runs) {
                return None;
            }
            combine(std::mem::take(&mut self.reports), plan)
        };
        // Written once: a repeated scenario's combined report, not each run's.
        crate::report::write_json(&mut report, report_dir.as_ref());
        Some(report)
    }
}

/// One report for all the runs: the last failing run's verdicts and transcript (the most
/// useful to read), the tallies, and the judge's usage summed.
fn combine(reports: Vec<Report>, plan: Repeat) -> Report {
    let runs = u32::try_from(reports.len()).unwrap_or(u32::MAX);
    let passed_runs = u32::try_from(reports.iter().filter(|r| r.passed()).count()).unwrap_or(0);
    let mut order: Vec<(String, Scope)> = Vec::new();
    let mut tallies: HashMap<(String, Scope), (u32, u32)> = HashMap::new();
    for r in &reports {
        for v in &r.verdicts {
            let key = (v.label.clone(), v.scope);
            let t = tallies.entry(key.clone()).or_insert_with(|| {
                order.push(key);
                (0, 0)
            });
            if v.status == Status::Pass {
                t.0 += 1;
            } else {
                t.1 += 1;
            }
        }
    }
    let mut summary = RepeatSummary::new(runs, passed_runs, plan.required(), plan.min_pass_rate);
    if plan.sequential {
        summary = summary.sequential(plan.times);
    }
    let confidence = summary.confidence();
    summary.checks = order
        .into_iter()
        .map(|key| {
            let (passed, not_passed) = tallies.get(&key).copied().unwrap_or_default();
            CheckTally::new(key.0, key.1, passed, not_passed, confidence)
        })
        .collect();
    let judge = reports
        .iter()
        .filter_map(|r| r.judge.clone())
        .reduce(|mut a, b| {
            a.merge(&b);
            a
        });
    let duration_ms = reports
        .iter()
        .fold(0u64, |sum, r| sum.saturating_add(r.duration_ms));
    let mut notes: Vec<String> = Vec::new();
    for n in reports.iter().flat_map(|r| &r.notes) {
        if !notes.contains(n) {
            notes.push(n.clone());
        }
    }
    // Every run's entries: pruning by this report must keep what any repeat used.
    let mut cassette: Vec<String> = Vec::new();
    for id in reports.iter().flat_map(|r| &r.cassette) {
        if !cassette.contains(id) {
            cassette.push(id.clone());
        }
    }
    let pick = reports
        .iter()
        .rposition(|r| !r.passed())
        .unwrap_or(reports.len().saturating_sub(1));
    let mut report = reports
        .into_iter()
        .nth(pick)
        .unwrap_or_else(|| Report::new(Default::default(), Vec::new(), Default::default(), 0));
    report.repeats = Some(summary);
    report.judge = judge;
    report.duration_ms = duration_ms;
    report.notes = notes;
    report.cassette = cassette;
    report
}
