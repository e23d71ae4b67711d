//! The text report: what a failing test prints.

use std::fmt::{self, Write as _};

use serde_json::Value;

use super::Report;
use crate::model::Verdict;
use crate::model::outcome::Status;
use crate::model::prices::Cost;
use crate::model::report::RepeatSummary;
use crate::model::scope::Severity;
use crate::model::turn_number;
use crate::model::{Call, CallKind, Turn};
use crate::util::text::{clip, compact, plural};

/// Longest reply or value shown in a text report; the JSON report keeps everything.
const MAX_TEXT: usize = 2000;
const MAX_JSON: usize = 400;
const MAX_VIOLATIONS: usize = 20;

impl Report {
    /// The first line of the report: scenario, outcome, counts, location, time.
    ///
    /// ```
    /// # use agent_test::{report::Report, ScenarioInfo};
    /// let r = Report::new(ScenarioInfo::new("refund"), vec![], Default::default(), 3);
    /// assert_eq!(r.headline(), "agent-test: scenario `refund` passed: no checks (3 ms)");
    ///
    /// // A case of a data file is located by its file alone.
    /// let mut info = ScenarioInfo::new("refund");
    /// info.file = Some("tests/cases/refund.json".into());
    /// let r = Report::new(info, vec![], Default::default(), 3);
    /// assert_eq!(r.headline(), "agent-test: scenario `refund` passed: no checks (tests/cases/refund.json, 3 ms)");
    /// ```
    pub fn headline(&self) -> String {
        let s = &self.summary;
        let mut parts = Vec::new();
        if s.failed > 0 {
            parts.push(format!("{} failed", s.failed));
        }
        if s.errors > 0 {
            parts.push(format!("{} could not be evaluated", s.errors));
        }
        if s.passed > 0 {
            parts.push(format!("{} passed", s.passed));
        }
        if s.skipped > 0 {
            parts.push(format!("{} skipped", s.skipped));
        }
        if s.warnings > 0 {
            parts.push(format!("{} warning{}", s.warnings, plural(s.warnings)));
        }
        let counts = if parts.is_empty() {
            "no checks".to_owned()
        } else {
            format!(
                "{} ({} check{})",
                parts.join(", "),
                s.total(),
                plural(s.total())
            )
        };
        let counts = match &self.repeats {
            Some(r) => format!("{}; the run shown: {counts}", r.headline()),
            None => counts,
        };
        let mut line = format!(
            "agent-test: scenario `{}` {}: {counts}",
            self.scenario.name,
            if self.passed() { "passed" } else { "FAILED" }
        );
        let mut paren = Vec::new();
        match (&self.scenario.file, self.scenario.line) {
            (Some(file), Some(l)) => paren.push(format!("{file}:{l}")),
            (Some(file), None) => paren.push(file.clone()),
            _ => {}
        }
        paren.push(format!("{} ms", self.duration_ms));
        let _ = write!(line, " ({})", paren.join(", "));
        line
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.headline())?;
        if let Some(d) = &self.scenario.description {
            for line in d.lines() {
                writeln!(f, "  {}", line.trim_end())?;
            }
        }
        if !self.transcript.context.is_empty() {
            let vars: Vec<String> = self
                .transcript
                .context
                .iter()
                .map(|(k, v)| format!("{k} = {}", clip(&compact(v), 80)))
                .collect();
            writeln!(f, "  context: {}", vars.join(", "))?;
        }
        if let Some(t) = &self.transcript.user_time {
            writeln!(f, "  user time: {t}")?;
        }
        if let Some(j) = &self.judge {
            writeln!(f, "  {j}")?;
        }
        if let Some(c) = crate::model::prices::total_cost(&self.transcript.turns) {
            match c {
                Cost::Usd(_) => writeln!(f, "  agent cost: {c}")?,
                Cost::Unknown(why) => writeln!(f, "  agent cost: unknown: {why}")?,
            }
        }
        if let Some(r) = &self.repeats {
            write_repeats(f, r)?;
        }
        writeln!(f)?;
        if self.repeats.is_some() {
            writeln!(f, "checks (of the last failing run, else the last run)")?;
        } else {
            writeln!(f, "checks")?;
        }
        if self.verdicts.is_empty() {
            writeln!(f, "  (none)")?;
        }
        let width = self
            .verdicts
            .iter()
            .map(|v| v.scope.to_string().len())
            .max()
            .unwrap_or(0);
        for v in &self.verdicts {
            write_verdict(f, v, width)?;
        }
        writeln!(f)?;
        writeln!(f, "transcript")?;
        for m in &self.transcript.history {
            writeln!(
                f,
                "  history  {:<9} {}",
                m.role.as_str(),
                indent(&clip(&m.content, MAX_TEXT), 21)
            )?;
        }
        if self.transcript.turns.is_empty() {
            writeln!(f, "  (no turns ran)")?;
        }
        for t in &self.transcript.turns {
            write_turn(f, t)?;
        }
        for note in &self.notes {
            writeln!(f, "\nnote: {note}")?;
        }
        if let Some(p) = &self.json_path {
            writeln!(f, "\nJSON report: {}", p.display())?;
        }
        Ok(())
    }
}

/// `k=1 0.80  k=2 0.60  …`.
fn by_k(values: &std::collections::BTreeMap<u32, f64>) -> String {
    values
        .iter()
        .map(|(k, p)| format!("k={k} {p:.2}"))
        .collect::<Vec<_>>()
        .join("  ")
}

/// The runs' reliability, why they failed if they did, and each check's pass count over the
/// repeated runs with its pass rate and interval, flaky ones marked.
fn write_repeats(f: &mut fmt::Formatter<'_>, r: &RepeatSummary) -> fmt::Result {
    writeln!(f)?;
    match &r.reliability {
        Some(rel) => writeln!(f, "repeats: {}: {rel}", r.headline())?,
        None => writeln!(f, "repeats: {}", r.headline())?,
    }
    if let Some(rel) = r.reliability.as_ref().filter(|rel| rel.runs > 1) {
        writeln!(
            f,
            "  pass^k  {}   (all of k runs pass)",
            by_k(&rel.pass_hat_k)
        )?;
        writeln!(
            f,
            "  pass@k  {}   (at least one of k runs passes)",
            by_k(&rel.pass_at_k)
        )?;
    }
    for failure in r.failures() {
        writeln!(f, "  ✗ {failure}")?;
    }
    let width = r
        .checks
        .iter()
        .map(|c| c.scope.to_string().len())
        .max()
        .unwrap_or(0);
    for c in &r.checks {
        let total = c.passed.saturating_add(c.not_passed);
        let rate = c.reliability.as_ref().map_or(String::new(), |rel| {
            format!(
                "  {:.2} ({:.2}–{:.2})",
                rel.pass_rate, rel.interval[0], rel.interval[1]
            )
        });
        writeln!(
            f,
            "  {}/{}{rate}  {:<width$}  {}{}",
            c.passed,
            total,
            c.scope.to_string(),
            c.label,
            if c.flaky() { "   ← flaky" } else { "" }
        )?;
    }
    Ok(())
}

fn symbol(v: &Verdict) -> &'static str {
    match (v.status, v.severity) {
        (Status::Pass, _) => "✓",
        (Status::Skipped, _) => "-",
        (_, Severity::Warning) => "⚠",
        (Status::Fail, _) => "✗",
        (Status::Error, _) => "!",
    }
}

fn write_verdict(f: &mut fmt::Formatter<'_>, v: &Verdict, width: usize) -> fmt::Result {
    let scope = v.scope.to_string();
    let id =
        v.id.as_ref()
            .map_or(String::new(), |id| format!("  [id: {id}]"));
    let warn = if v.severity == Severity::Warning {
        "  [warning]"
    } else {
        ""
    };
    writeln!(
        f,
        "  {} {scope:<width$}  {}{id}{warn}",
        symbol(v),
        one_line(&v.label)
    )?;
    if v.status == Status::Pass {
        return Ok(());
    }
    let pad = " ".repeat(width + 6);
    let status = match v.status {
        Status::Error => "error: ",
        _ => "",
    };
    writeln!(f, "{pad}{status}{}", indent(&v.reason, pad.len()))?;
    let d = &v.details;
    for viol in d.violations.iter().take(MAX_VIOLATIONS) {
        let turn = viol
            .turn_index
            .map_or(String::new(), |t| format!(" (turn {})", turn_number(t)));
        let evidence = viol
            .evidence
            .as_ref()
            .filter(|e| !e.is_object() || e.get("step").is_none())
            .map_or(String::new(), |e| format!(" {}", clip(&compact(e), 160)));
        writeln!(f, "{pad}- {}{turn}{evidence}", viol.message)?;
    }
    if d.violations.len() > MAX_VIOLATIONS {
        writeln!(f, "{pad}… and {} more", d.violations.len() - MAX_VIOLATIONS)?;
    }
    if let Some(diff) = &d.diff {
        writeln!(f, "{pad}diff (- expected, + actual):")?;
        for line in clip(diff, MAX_TEXT * 2).lines() {
            writeln!(f, "{pad}  {line}")?;
        }
    } else {
        if let Some(e) = &d.expected {
            writeln!(f, "{pad}expected: {}", clip(&shown(e), MAX_JSON))?;
        }
        if let Some(a) = &d.actual {
            writeln!(
                f,
                "{pad}actual:   {}",
                indent(&clip(&shown(a), MAX_JSON), pad.len() + 10)
            )?;
        }
    }
    Ok(())
}

fn write_turn(f: &mut fmt::Formatter<'_>, t: &Turn) -> fmt::Result {
    let label = format!("turn {}", turn_number(t.index));
    let pad = " ".repeat(label.len() + 2);
    for m in &t.before {
        writeln!(
            f,
            "  {label:<w$}  {:<6} {}",
            m.role.as_str(),
            indent(&clip(&m.content, MAX_TEXT), pad.len() + 9),
            w = label.len()
        )?;
    }
    writeln!(
        f,
        "  {label}  user   {}",
        indent(&clip(&t.input, MAX_TEXT), pad.len() + 9)
    )?;
    for c in &t.reply.calls {
        write_call(f, c, &pad, 0)?;
    }
    if let Some(e) = &t.error {
        writeln!(f, "  {pad}error  {}", indent(e, pad.len() + 9))?;
        return Ok(());
    }
    let mut meta: Vec<String> = t
        .latency_ms
        .map(|ms| format!("{ms} ms"))
        .into_iter()
        .collect();
    if let Some(s) = t.reply.http_status {
        meta.push(format!("HTTP {s}"));
    }
    if let Some(total) = t.reply.usage.as_ref().and_then(|u| u.total()) {
        meta.push(format!("{total} tokens"));
    }
    match &t.cost {
        Some(c @ Cost::Usd(_)) => meta.push(c.to_string()),
        Some(Cost::Unknown(_)) => meta.push("cost unknown".to_owned()),
        None => {}
    }
    let text = if t.reply.text.is_empty() {
        "(empty reply)".to_owned()
    } else {
        clip(&t.reply.text, MAX_TEXT)
    };
    let meta = if meta.is_empty() {
        String::new()
    } else {
        format!("   [{}]", meta.join(", "))
    };
    writeln!(f, "  {pad}agent  {}{meta}", indent(&text, pad.len() + 9))?;
    Ok(())
}

fn write_call(f: &mut fmt::Formatter<'_>, c: &Call, pad: &str, depth: usize) -> fmt::Result {
    let nest = "  ".repeat(depth);
    let label = match c.kind {
        CallKind::Node => format!("node   {}", c.name),
        _ => format!("call   #{} {}", c.position, c.name),
    };
    let args = if c.arguments.is_null() {
        String::new()
    } else {
        format!(" {}", clip(&compact(&c.arguments), MAX_JSON))
    };
    let result = match (&c.result, c.error) {
        (Some(r), true) => format!(" → error: {}", clip(&compact(r), 200)),
        (Some(r), false) => format!(" → {}", clip(&compact(r), 200)),
        (None, true) => " → error".to_owned(),
        (None, false) => String::new(),
    };
    writeln!(f, "  {pad}{nest}{label}{args}{result}")?;
    for child in &c.children {
        write_call(f, child, pad, depth + 1)?;
    }
    Ok(())
}

/// Strings are shown raw (quoted when on one line), other values as compact JSON.
fn shown(v: &Value) -> String {
    match v {
        Value::String(s) if s.contains('\n') => s.clone(),
        other => compact(other),
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Indents continuation lines of a multi-line text to `n` columns.
fn indent(s: &str, n: usize) -> String {
    if !s.contains('\n') {
        return s.to_owned();
    }
    let pad = format!("\n{}", " ".repeat(n));
    s.trim_end_matches('\n').replace('\n', &pad)
}
