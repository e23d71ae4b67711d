//! Writing results as they come: text (the same report as the tests), JSON, or JUnit XML.
//!
//! Each run's report is serialised once, when its run ends, into what the output needs of it
//! (a line, a failure's text, a compact JSON object) and written as soon as the runs before it
//! are: memory holds the runs in flight, not the whole suite.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::Duration;

use agent_test_runtime::report::prices::{Cost, total_cost};
use agent_test_runtime::report::{Report, Summary};
use serde::Serialize;
use serde_json::value::RawValue;

use crate::args::OutputFormat;
use crate::cost::CostTotal;
use crate::style::Style;

/// The outcome of one scenario run (evaluated or live).
pub(crate) struct RunResult {
    /// What was run: the recording's file, or the scenario's name.
    pub(crate) source: String,
    pub(crate) scenario: String,
    pub(crate) outcome: Result<Kept, String>,
}

/// What is kept of a report: the summary and headline; for a failure the text report; for
/// JSON output the report as compact JSON — with the transcript only when asked (a recording
/// given on the command line is not repeated).
pub(crate) struct Kept {
    pub(crate) passed: bool,
    pub(crate) summary: Summary,
    pub(crate) headline: String,
    pub(crate) text: Option<String>,
    pub(crate) json: Option<Box<RawValue>>,
    pub(crate) duration_ms: u64,
    /// What the agent's turns cost, when a price table priced them.
    pub(crate) cost: Option<Cost>,
    /// A repeated scenario's reliability, as JUnit properties (`agent-test.pass_rate`, ...).
    pub(crate) reliability: Vec<(String, String)>,
}

impl Kept {
    pub(crate) fn of(report: &Report, format: OutputFormat, with_transcript: bool) -> Self {
        let passed = report.passed();
        let json = (format == OutputFormat::Json).then(|| {
            let direct = if with_transcript {
                serde_json::value::to_raw_value(report)
            } else {
                serde_json::value::to_raw_value(&WithoutTranscript::of(report))
            };
            // A large value the report holds more than once is written once: only a text long
            // enough to hold two can, and only it goes through the shared-strings pass.
            let result = direct.and_then(|raw| {
                if raw.get().len() < 2 * agent_test_runtime::report::MIN_SHARED {
                    return Ok(raw);
                }
                let mut v: serde_json::Value = serde_json::from_str(raw.get())?;
                agent_test_runtime::report::share_repeats(&mut v);
                serde_json::value::to_raw_value(&v)
            });
            // A report is plain data: it always serialises; should it not, say so in its place.
            result.unwrap_or_else(|e| {
                let error =
                    serde_json::json!({"error": format!("cannot serialise the report: {e}")});
                RawValue::from_string(error.to_string()).unwrap_or_default()
            })
        });
        Kept {
            passed,
            summary: report.summary,
            headline: report.headline(),
            text: (!passed && format != OutputFormat::Json).then(|| report.to_string()),
            json,
            duration_ms: report.duration_ms,
            cost: total_cost(&report.transcript.turns),
            reliability: report
                .repeats
                .as_ref()
                .map(reliability_properties)
                .unwrap_or_default(),
        }
    }
}

/// A repeated scenario's figures as name–value pairs: the runs, the gate, the pass rate with
/// its interval, pass^k and pass@k — what the text report's "repeats" line says.
fn reliability_properties(r: &agent_test_runtime::report::RepeatSummary) -> Vec<(String, String)> {
    let mut out = vec![
        ("agent-test.runs".to_owned(), r.runs.to_string()),
        (
            "agent-test.passed_runs".to_owned(),
            r.passed_runs.to_string(),
        ),
    ];
    if r.required > 0 {
        out.push(("agent-test.min_passes".to_owned(), r.required.to_string()));
    }
    if let Some(g) = r.min_pass_rate {
        out.push((
            "agent-test.min_pass_rate".to_owned(),
            format!("{}@{}", g.rate, g.confidence),
        ));
    }
    if let Some(rel) = &r.reliability {
        out.push((
            "agent-test.pass_rate".to_owned(),
            format!("{:.4}", rel.pass_rate),
        ));
        out.push((
            "agent-test.interval".to_owned(),
            format!(
                "{:.4}..{:.4} at {}",
                rel.interval[0], rel.interval[1], rel.confidence
            ),
        ));
        let by_k = |m: &std::collections::BTreeMap<u32, f64>| {
            m.iter()
                .map(|(k, v)| format!("{k}:{v:.4}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        out.push(("agent-test.pass_hat_k".to_owned(), by_k(&rel.pass_hat_k)));
        out.push(("agent-test.pass_at_k".to_owned(), by_k(&rel.pass_at_k)));
    }
    out
}

/// A report's JSON without its transcript.
#[derive(Serialize)]
struct WithoutTranscript<'a> {
    scenario: &'a agent_test_runtime::ScenarioInfo,
    passed: bool,
    summary: &'a Summary,
    verdicts: &'a [agent_test_runtime::Verdict],
    duration_ms: u64,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notes: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    judge: Option<&'a agent_test_runtime::judge::JudgeUsage>,
    #[serde(skip_serializing_if = "Option::is_none")]
    repeats: Option<&'a agent_test_runtime::report::RepeatSummary>,
}

impl<'a> WithoutTranscript<'a> {
    fn of(r: &'a Report) -> Self {
        WithoutTranscript {
            scenario: &r.scenario,
            passed: r.passed(),
            summary: &r.summary,
            verdicts: &r.verdicts,
            duration_ms: r.duration_ms,
            notes: &r.notes,
            judge: r.judge.as_ref(),
            repeats: r.repeats.as_ref(),
        }
    }
}

/// Totals over the results.
#[derive(Default)]
pub(crate) struct Totals {
    pub(crate) runs: usize,
    pub(crate) passed: usize,
    pub(crate) failed: usize,
    pub(crate) unreadable: usize,
    pub(crate) checks: Summary,
    /// The agent's cost over the priced runs.
    pub(crate) cost: CostTotal,
}

impl Totals {
    fn add(&mut self, r: &RunResult) {
        self.runs += 1;
        match &r.outcome {
            Ok(k) => {
                if k.passed {
                    self.passed += 1;
                } else {
                    self.failed += 1;
                }
                // Sums saturate: `agent-test report` writes reports read from files.
                let c = &mut self.checks;
                c.passed = c.passed.saturating_add(k.summary.passed);
                c.failed = c.failed.saturating_add(k.summary.failed);
                c.skipped = c.skipped.saturating_add(k.summary.skipped);
                c.errors = c.errors.saturating_add(k.summary.errors);
                c.warnings = c.warnings.saturating_add(k.summary.warnings);
                self.cost.add(k.cost.as_ref());
            }
            Err(_) => self.unreadable += 1,
        }
    }

    fn line(&self, elapsed: Duration) -> String {
        let c = &self.checks;
        let mut s = format!(
            "agent-test: {} run{}: {} passed, {} failed",
            self.runs,
            if self.runs == 1 { "" } else { "s" },
            self.passed,
            self.failed
        );
        if self.unreadable > 0 {
            s.push_str(&format!(", {} unreadable", self.unreadable));
        }
        s.push_str(&format!(
            "; checks: {} passed, {} failed, {} could not be evaluated, {} skipped, {} warnings ({:.2} s)",
            c.passed,
            c.failed,
            c.errors,
            c.skipped,
            c.warnings,
            elapsed.as_secs_f64()
        ));
        s.push_str(&self.cost.run_line());
        s
    }
}

/// Where results go, in the order of the runs whatever the order they end in.
pub(crate) struct Sink<W: Write> {
    format: OutputFormat,
    quiet: bool,
    out: W,
    totals: Totals,
    /// Results that ended before one of the runs ahead of them.
    waiting: BTreeMap<usize, RunResult>,
    next: usize,
    /// JUnit's counts come first in the document: its test cases wait for the end.
    junit: Vec<quick_junit::TestCase>,
    style: Style,
    progress: Option<indicatif::ProgressBar>,
}

impl<W: Write> Sink<W> {
    /// Starts the output.
    pub(crate) fn new(format: OutputFormat, quiet: bool, mut out: W) -> io::Result<Self> {
        if format == OutputFormat::Json {
            out.write_all(b"{\n  \"runs\": [")?;
        }
        Ok(Sink {
            format,
            quiet,
            out,
            totals: Totals::default(),
            waiting: BTreeMap::new(),
            next: 0,
            junit: Vec::new(),
            style: Style::new(false),
            progress: None,
        })
    }

    /// Colours the text output.
    pub(crate) fn styled(mut self, style: Style) -> Self {
        self.style = style;
        self
    }

    /// Shows progress on standard error, for `total` runs: a bar when standard error is a
    /// terminal, nothing otherwise (indicatif draws nowhere else).
    pub(crate) fn with_progress(mut self, total: usize) -> Self {
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(total as u64),
            indicatif::ProgressDrawTarget::stderr(),
        );
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{spinner} {pos}/{len} runs [{bar:30}] {elapsed} (eta {eta}) {msg}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        self.progress = Some(bar);
        self
    }

    /// The result of the run at `index` (0-based, each index once): written now if every run
    /// before it was, else when they are.
    pub(crate) fn push(&mut self, index: usize, result: RunResult) -> io::Result<()> {
        self.waiting.insert(index, result);
        while let Some(r) = self.waiting.remove(&self.next) {
            self.write(r)?;
            self.next += 1;
        }
        Ok(())
    }

    fn write(&mut self, r: RunResult) -> io::Result<()> {
        self.totals.add(&r);
        if let Some(bar) = &self.progress {
            bar.inc(1);
            let t = &self.totals;
            if t.failed + t.unreadable > 0 {
                bar.set_message(format!("{} failed, {} unreadable", t.failed, t.unreadable));
            }
        }
        let st = self.style;
        match self.format {
            OutputFormat::Text => match &r.outcome {
                Err(e) => writeln!(self.out, "{} {}: {e}", st.problem("!"), r.source),
                Ok(k) if k.passed => {
                    if self.quiet {
                        Ok(())
                    } else {
                        writeln!(self.out, "{} {}: {}", st.pass("✓"), r.source, k.headline)
                    }
                }
                Ok(k) => {
                    writeln!(self.out, "{} {}", st.fail("✗"), st.bold(&r.source))?;
                    writeln!(self.out, "{}", k.text.as_deref().unwrap_or(&k.headline))
                }
            },
            OutputFormat::Json => {
                let line = JsonRun {
                    source: &r.source,
                    scenario: &r.scenario,
                    passed: r.outcome.as_ref().is_ok_and(|k| k.passed),
                    report: r.outcome.as_ref().ok().and_then(|k| k.json.as_deref()),
                    error: r.outcome.as_ref().err().map(String::as_str),
                };
                let sep = if self.totals.runs == 1 { "" } else { "," };
                let json = serde_json::to_string(&line).map_err(io::Error::other)?;
                write!(self.out, "{sep}\n    {json}")
            }
            OutputFormat::Junit => {
                self.junit.push(junit_case(r));
                Ok(())
            }
        }
    }

    /// Ends the output with the totals; returns them.
    pub(crate) fn finish(mut self, elapsed: Duration) -> io::Result<Totals> {
        // Every index was pushed once; anything still waiting follows a gap and is written in
        // its order rather than lost.
        for (_, r) in std::mem::take(&mut self.waiting) {
            self.write(r)?;
        }
        if let Some(bar) = self.progress.take() {
            bar.finish_and_clear();
        }
        let t = &self.totals;
        match self.format {
            OutputFormat::Text => {
                let line = t.line(elapsed);
                let line = if t.failed + t.unreadable > 0 {
                    self.style.fail(&line)
                } else {
                    self.style.pass(&line)
                };
                writeln!(self.out, "{line}")?
            }
            OutputFormat::Json => {
                let summary = serde_json::json!({"runs": t.runs, "passed": t.passed,
                    "failed": t.failed, "unreadable": t.unreadable, "checks": t.checks});
                // With no run, nothing passed nor failed: `null`, never `true`.
                let passed = if t.runs == 0 {
                    serde_json::Value::Null
                } else {
                    (t.failed == 0 && t.unreadable == 0).into()
                };
                let end = if t.runs == 0 { "]" } else { "\n  ]" };
                write!(
                    self.out,
                    "{end},\n  \"summary\": {summary},\n  \"passed\": {passed}\n}}\n"
                )?;
            }
            OutputFormat::Junit => {
                let mut suite = quick_junit::TestSuite::new("agent-test");
                suite.add_test_cases(std::mem::take(&mut self.junit));
                suite.set_time(elapsed);
                let mut report = quick_junit::Report::new("agent-test");
                report.add_test_suite(suite);
                report.serialize(&mut self.out).map_err(io::Error::other)?;
            }
        }
        self.out.flush()?;
        Ok(self.totals)
    }
}

/// One run in the JSON output; its report is written as kept (one compact line).
#[derive(Serialize)]
struct JsonRun<'a> {
    source: &'a str,
    scenario: &'a str,
    passed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    report: Option<&'a RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
}

fn junit_case(r: RunResult) -> quick_junit::TestCase {
    use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus};
    let status = match &r.outcome {
        Ok(k) if k.passed => TestCaseStatus::success(),
        Ok(k) => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            s.set_message(k.headline.clone());
            s.set_description(k.text.clone().unwrap_or_default());
            s
        }
        Err(e) => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
            s.set_message(e.clone());
            s
        }
    };
    let mut case = TestCase::new(r.source, status);
    case.set_classname(r.scenario);
    if let Ok(k) = &r.outcome {
        case.set_time(Duration::from_millis(k.duration_ms));
        case.add_properties(k.reliability.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    }
    case
}
