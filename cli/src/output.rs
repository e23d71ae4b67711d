//! Writing results: text (the same report as the tests), JSON, or JUnit XML.

use std::time::Duration;

use agent_test_runtime::report::{Report, Summary};
use serde_json::value::RawValue;
use serde_json::{Value, json};

use crate::args::OutputFormat;

/// The outcome of one scenario run (evaluated or live).
pub(crate) struct RunResult {
    /// What was run: the recording's file, or the scenario's name.
    pub(crate) source: String,
    pub(crate) scenario: String,
    pub(crate) outcome: Result<Kept, String>,
}

/// What is kept of a report: the summary; for a failure (or JUnit) the text report; for JSON
/// output the report as JSON — with the transcript only when asked, since 10,000 transcripts
/// kept as JSON values would cost far more memory than the files they came from.
pub(crate) struct Kept {
    pub(crate) passed: bool,
    pub(crate) summary: Summary,
    pub(crate) headline: String,
    pub(crate) text: Option<String>,
    pub(crate) json: Option<Box<RawValue>>,
    pub(crate) duration_ms: u64,
}

impl Kept {
    pub(crate) fn of(mut report: Report, format: OutputFormat, with_transcript: bool) -> Self {
        let json = (format == OutputFormat::Json)
            .then(|| {
                if !with_transcript {
                    report.transcript = Default::default();
                }
                let mut json = serde_json::to_value(&report).unwrap_or(Value::Null);
                if !with_transcript && let Some(o) = json.as_object_mut() {
                    o.remove("transcript");
                }
                serde_json::value::to_raw_value(&json).ok()
            })
            .flatten();
        Kept {
            passed: report.passed(),
            summary: report.summary,
            headline: report.headline(),
            text: (!report.passed() || format == OutputFormat::Junit).then(|| report.to_string()),
            json,
            duration_ms: report.duration_ms,
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
}

impl Totals {
    pub(crate) fn of(results: &[RunResult]) -> Self {
        let mut t = Totals {
            runs: results.len(),
            ..Totals::default()
        };
        for r in results {
            match &r.outcome {
                Ok(k) if k.passed => t.passed += 1,
                Ok(_) => t.failed += 1,
                Err(_) => t.unreadable += 1,
            }
            if let Ok(k) = &r.outcome {
                t.checks.passed += k.summary.passed;
                t.checks.failed += k.summary.failed;
                t.checks.skipped += k.summary.skipped;
                t.checks.errors += k.summary.errors;
                t.checks.warnings += k.summary.warnings;
            }
        }
        t
    }

    pub(crate) fn line(&self, elapsed: Duration) -> String {
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
        s
    }
}

/// Renders the results.
pub(crate) fn render(
    results: &[RunResult],
    format: OutputFormat,
    quiet: bool,
    elapsed: Duration,
) -> String {
    let totals = Totals::of(results);
    match format {
        OutputFormat::Text => {
            let mut out = String::new();
            for r in results {
                match &r.outcome {
                    Err(e) => out.push_str(&format!("! {}: {e}\n", r.source)),
                    Ok(k) if k.passed => {
                        if !quiet {
                            out.push_str(&format!("✓ {}: {}\n", r.source, k.headline));
                        }
                    }
                    Ok(k) => {
                        out.push_str(&format!("✗ {}\n", r.source));
                        out.push_str(k.text.as_deref().unwrap_or(&k.headline));
                        out.push('\n');
                    }
                }
            }
            out.push_str(&totals.line(elapsed));
            out.push('\n');
            out
        }
        OutputFormat::Json => {
            let runs: Vec<JsonRun<'_>> = results
                .iter()
                .map(|r| JsonRun {
                    source: &r.source,
                    scenario: &r.scenario,
                    passed: r.outcome.as_ref().is_ok_and(|k| k.passed),
                    report: r.outcome.as_ref().ok().and_then(|k| k.json.as_deref()),
                    error: r.outcome.as_ref().err().map(String::as_str),
                })
                .collect();
            // A struct, not `json!`: that would turn every kept report back into a tree.
            let doc = JsonDoc {
                passed: totals.failed == 0 && totals.unreadable == 0,
                summary: json!({"runs": totals.runs, "passed": totals.passed, "failed": totals.failed,
                            "unreadable": totals.unreadable, "checks": totals.checks}),
                runs,
            };
            let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
            s.push('\n');
            s
        }
        OutputFormat::Junit => junit(results, elapsed),
    }
}

/// The JSON output.
#[derive(serde::Serialize)]
struct JsonDoc<'a> {
    passed: bool,
    summary: Value,
    runs: Vec<JsonRun<'a>>,
}

/// One run in the JSON output; its report is written as kept (one compact line).
#[derive(serde::Serialize)]
struct JsonRun<'a> {
    source: &'a str,
    scenario: &'a str,
    passed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    report: Option<&'a RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
}

fn junit(results: &[RunResult], elapsed: Duration) -> String {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut suite = TestSuite::new("agent-test");
    for r in results {
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
        let mut case = TestCase::new(r.source.clone(), status);
        case.set_classname(r.scenario.clone());
        if let Ok(k) = &r.outcome {
            case.set_time(Duration::from_millis(k.duration_ms));
            if k.passed
                && let Some(t) = &k.text
            {
                case.set_system_out(t.clone());
            }
        }
        suite.add_test_case(case);
    }
    suite.set_time(elapsed);
    let mut report = Report::new("agent-test");
    report.add_test_suite(suite);
    report
        .to_string()
        .unwrap_or_else(|e| format!("<!-- cannot write JUnit XML: {e} -->\n"))
}
