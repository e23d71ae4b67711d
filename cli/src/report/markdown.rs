//! The Markdown summary: short enough for a CI job summary (`$GITHUB_STEP_SUMMARY`), with the
//! figures and, for each failed scenario, the checks that failed and why.

use std::fmt::Write;

use super::stats::Stats;
use super::{Collection, Entry};

/// At most this many failed scenarios are listed (the HTML report has them all).
const MAX_LISTED: usize = 50;

/// The summary of a collection.
pub(crate) fn summary(c: &Collection, title: &str) -> String {
    let s = Stats::of(&c.entries);
    let mut m = String::new();
    let mark = if s.passed == s.scenarios {
        "✅"
    } else {
        "❌"
    };
    let _ = writeln!(m, "## {mark} {title}\n");
    let _ = writeln!(m, "| | |\n|---|---|");
    let _ = writeln!(m, "| scenarios | {} passed of {} |", s.passed, s.scenarios);
    let c2 = &s.checks;
    let _ = writeln!(
        m,
        "| checks | {} passed, {} failed, {} could not be evaluated, {} skipped, {} warnings{} |",
        c2.passed,
        c2.failed,
        c2.errors,
        c2.skipped,
        c2.warnings,
        s.pass_rate()
            .map_or(String::new(), |r| format!(" ({r:.1}% passed)"))
    );
    if s.flaky > 0 {
        let _ = writeln!(m, "| flaky checks | {} |", s.flaky);
    }
    if s.judge_requests > 0 || s.judge_cached > 0 {
        let _ = writeln!(
            m,
            "| judge | {} request{}, {} from the cache, {} tokens{} |",
            s.judge_requests,
            super::html::plural(s.judge_requests as usize),
            s.judge_cached,
            s.judge_tokens,
            s.judge_cost_usd
                .map_or(String::new(), |c| format!(", ${c:.4}"))
        );
    }
    if s.agent_input_tokens > 0 || s.agent_output_tokens > 0 {
        let _ = writeln!(
            m,
            "| agent tokens | {} in, {} out |",
            s.agent_input_tokens, s.agent_output_tokens
        );
    }
    if let Some(cost) = s.agent_cost.shown() {
        let _ = writeln!(m, "| agent cost | {cost} |");
    }
    if let (Some(p50), Some(p95)) = (s.latency(0.5), s.latency(0.95)) {
        let _ = writeln!(m, "| turn latency | p50 {p50} ms, p95 {p95} ms |");
    }
    let repeated: Vec<&Entry> = c
        .entries
        .iter()
        .filter(|e| e.report.repeats.is_some())
        .collect();
    if !repeated.is_empty() {
        let _ = writeln!(m, "\n### Reliability\n");
        let _ = writeln!(
            m,
            "| scenario | runs | pass rate | pass^k |\n|---|---|---|---|"
        );
        for e in repeated.iter().take(MAX_LISTED) {
            let Some(r) = &e.report.repeats else { continue };
            let (rate, hat) = r.reliability.as_ref().map_or_else(
                || ("—".to_owned(), "—".to_owned()),
                |rel| {
                    (
                        format!(
                            "{:.2} ({:.0}% CI {:.2}–{:.2})",
                            rel.pass_rate,
                            rel.confidence * 100.0,
                            rel.interval[0],
                            rel.interval[1]
                        ),
                        rel.pass_hat_k
                            .iter()
                            .map(|(k, v)| format!("k={k} {v:.2}"))
                            .collect::<Vec<_>>()
                            .join(", "),
                    )
                },
            );
            let mark = if e.report.passed() { "✅" } else { "❌" };
            let _ = writeln!(
                m,
                "| {mark} {} | {} | {rate} | {hat} |",
                cell(&e.report.scenario.name),
                cell(&r.headline()),
            );
        }
    }
    let failed: Vec<&Entry> = c.entries.iter().filter(|e| !e.report.passed()).collect();
    if !failed.is_empty() {
        let _ = writeln!(m, "\n### Failed scenarios\n");
        for e in failed.iter().take(MAX_LISTED) {
            let _ = writeln!(
                m,
                "- **{}** ({})",
                cell(&e.report.scenario.name),
                cell(&e.group())
            );
            for v in e.report.failures() {
                let _ = writeln!(
                    m,
                    "  - `{}`: {}",
                    v.label.replace('`', "'"),
                    cell(&v.reason)
                );
            }
        }
        if failed.len() > MAX_LISTED {
            let _ = writeln!(m, "- … and {} more", failed.len() - MAX_LISTED);
        }
    }
    if !c.problems.is_empty() {
        let _ = writeln!(m, "\n### Not read\n");
        for p in &c.problems {
            let _ = writeln!(m, "- {}", cell(p));
        }
    }
    m
}

/// Text on one line, with Markdown's table and emphasis characters neutralised.
fn cell(s: &str) -> String {
    s.replace('\n', " ").replace('|', "\\|").replace('*', "\\*")
}
