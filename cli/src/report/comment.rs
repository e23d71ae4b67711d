//! The pull-request comment of `agent-test diff --comment`: one Markdown comment saying what
//! regressed first, then what improved, then the rest — with the pass rates (and a repeated
//! scenario's interval), the latency, token and cost changes, and a link to the full report.
//! It starts with a hidden marker, so that a CI step can find its earlier comment and update
//! it rather than add another, and it stays within GitHub's limit for a comment's body
//! (65,536 characters) however many scenarios changed: what does not fit is counted, not cut
//! mid-line.

use std::fmt::Write as _;

use super::compare::{Change, Comparison, ScenarioChange, rate, shown};

/// The first line of every comment: what a CI step looks for to update it.
pub(crate) const MARKER: &str = "<!-- agent-test:diff -->";

/// GitHub's limit for a comment's body, in characters.
const LIMIT: usize = 65_536;

/// Room kept for what follows the scenarios (the "more" line, the link, the verdict).
const TAIL: usize = 2_048;

/// The comment comparing `base` with `new`; `report_url` links the full report.
pub(crate) fn comment(c: &Comparison, base: &str, new: &str, report_url: Option<&str>) -> String {
    let mut out = String::new();
    let verdict = if c.regressed() {
        "❌ regression"
    } else {
        "✅ no regression"
    };
    let _ = writeln!(out, "{MARKER}\n## agent-test: {verdict}\n");
    let _ = writeln!(
        out,
        "`{}` → `{}` · scenarios: {}\n",
        code(base),
        code(new),
        c.tally()
    );
    let _ = writeln!(
        out,
        "| | base | new |\n|---|---|---|\n| checks passed | {} | {} |",
        rate(c.base.pass_rate()),
        rate(c.new.pass_rate())
    );
    out.push('\n');
    // Latency, tokens, the agent's and the judge's cost: before → after (change).
    for f in c.figures() {
        let _ = writeln!(out, "- {f}");
    }
    out.push('\n');
    let mut left_out = 0usize;
    for (section, title) in [
        (Section::Regressed, "Regressed"),
        (Section::Improved, "Improved"),
        (Section::Other, "Other changes"),
    ] {
        let members: Vec<&ScenarioChange> = c
            .scenarios
            .iter()
            .filter(|s| Section::of(s) == Some(section))
            .collect();
        if members.is_empty() {
            continue;
        }
        let _ = writeln!(out, "### {title} ({})\n", members.len());
        for s in members {
            let item = scenario(s);
            if out.chars().count() + item.chars().count() > LIMIT - TAIL {
                left_out += 1;
                continue;
            }
            out.push_str(&item);
        }
        out.push('\n');
    }
    if left_out > 0 {
        let _ = writeln!(
            out,
            "…and {left_out} more scenario{} not shown: the comment is kept within GitHub's limit.\n",
            if left_out == 1 { "" } else { "s" }
        );
    }
    if let Some(url) = report_url {
        let _ = writeln!(out, "[The full report]({url})");
    }
    out
}

/// Where a changed scenario is listed: each in one section, regressions first.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Regressed,
    Improved,
    Other,
}

impl Section {
    /// The section of `s`; `None` when nothing about it changed (a scenario still failing as
    /// before is counted in the summary line, not listed).
    fn of(s: &ScenarioChange) -> Option<Section> {
        if s.change.is_scenario_regression() || s.checks.iter().any(|c| c.change.is_regression()) {
            Some(Section::Regressed)
        } else if matches!(s.change, Change::NewlyPassing | Change::Better) {
            Some(Section::Improved)
        } else if s.change == Change::Added || s.checks.iter().any(|c| c.change != Change::Same) {
            Some(Section::Other)
        } else {
            None
        }
    }
}

/// A scenario's item: its change, then each check that changed.
fn scenario(s: &ScenarioChange) -> String {
    let mut item = format!(
        "- {} `{}`: {}\n",
        s.change.mark(),
        code(&s.key),
        s.change.words()
    );
    if let Some(line) = s.reliability_line() {
        let _ = writeln!(item, "  - {line}");
    }
    for c in s.checks.iter().filter(|c| c.change != Change::Same) {
        let _ = writeln!(
            item,
            "  - {} `{}`: {} → {}",
            c.change.mark(),
            code(&c.label),
            shown(c.base),
            shown(c.new)
        );
    }
    item
}

/// Text inside inline code: a backtick would end it, a line end break the list.
fn code(s: &str) -> String {
    s.replace('`', "'").replace(['\n', '\r'], " ")
}
