//! `agent-test diff BASE NEW`: two runs of the same suite compared — two models, two prompts,
//! main against a branch. Per scenario and per check: newly failing, newly passing, changed
//! pass rates; and the deltas of latency, tokens and the judge's cost. A regression (something
//! that passed and no longer does, a pass rate that fell, a new scenario that fails) makes the
//! command exit with 1.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use agent_test_runtime::report::reliability::{Reliability, percent};

use super::html::{esc, head, plural};
use super::stats::{Stats, pass_rates};
use super::{Collection, Entry};

/// How a scenario, or a check, fared from one run to the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Change {
    /// Passed before, fails now.
    NewlyFailing,
    /// Passes less often (repeated scenarios).
    Worse,
    /// Only in the new run, failing.
    AddedFailing,
    /// Failed before, passes now.
    NewlyPassing,
    /// Passes more often.
    Better,
    /// Only in the new run, passing.
    Added,
    /// Only in the base run.
    Removed,
    /// Fails in both.
    StillFailing,
    /// As before.
    Same,
}

impl Change {
    /// Whether a check's change fails `diff`.
    pub(super) fn is_regression(self) -> bool {
        matches!(
            self,
            Change::NewlyFailing | Change::Worse | Change::AddedFailing
        )
    }

    /// Whether a scenario's change fails `diff`: a check's regressions, and a scenario missing
    /// from the new run — what it checked was not measured there (a run cut short, a filter),
    /// so "no regression" would claim what nobody saw. (A check gone from a scenario that
    /// still ran is not one: the scenario was edited.)
    pub(super) fn is_scenario_regression(self) -> bool {
        self.is_regression() || self == Change::Removed
    }

    pub(super) fn words(self) -> &'static str {
        match self {
            Change::NewlyFailing => "newly failing",
            Change::Worse => "passes less often",
            Change::AddedFailing => "new, failing",
            Change::NewlyPassing => "newly passing",
            Change::Better => "passes more often",
            Change::Added => "new",
            Change::Removed => "missing from the new run",
            Change::StillFailing => "still failing",
            Change::Same => "unchanged",
        }
    }

    pub(super) fn mark(self) -> &'static str {
        match self {
            Change::NewlyFailing | Change::AddedFailing | Change::StillFailing => "✗",
            Change::Worse => "↓",
            Change::NewlyPassing => "✓",
            Change::Better => "↑",
            Change::Added => "+",
            Change::Removed => "−",
            Change::Same => "=",
        }
    }
}

/// A check's pass rates in both runs (`None`: absent, or skipped).
pub(crate) struct CheckChange {
    pub(crate) label: String,
    pub(crate) base: Option<f64>,
    pub(crate) new: Option<f64>,
    pub(crate) change: Change,
}

/// A scenario in both runs (or one).
pub(crate) struct ScenarioChange {
    pub(crate) key: String,
    pub(crate) change: Change,
    pub(crate) checks: Vec<CheckChange>,
    /// Summed turn latencies, in ms.
    latency: (Option<u64>, Option<u64>),
    tokens: (u64, u64),
    /// A repeated scenario's reliability in each run (one report of it; `None` otherwise).
    reliability: (Option<Reliability>, Option<Reliability>),
}

impl ScenarioChange {
    /// `pass rate 0.90 (95% CI 0.74–0.97) → 0.60 (0.31–0.83); pass^3 0.72 → 0.21`, when the
    /// scenario was repeated in either run.
    pub(super) fn reliability_line(&self) -> Option<String> {
        let (b, n) = &self.reliability;
        if b.is_none() && n.is_none() {
            return None;
        }
        let rate = |r: &Option<Reliability>, with_level: bool| {
            r.as_ref().map_or("—".to_owned(), |r| {
                let level = if with_level {
                    format!("{} CI ", percent(r.confidence))
                } else {
                    String::new()
                };
                format!(
                    "{:.2} ({level}{:.2}–{:.2})",
                    r.pass_rate, r.interval[0], r.interval[1]
                )
            })
        };
        let mut line = format!("pass rate {} → {}", rate(b, true), rate(n, false));
        let k = [b, n]
            .iter()
            .filter_map(|r| r.as_ref().map(|r| r.runs.min(3)))
            .min()
            .unwrap_or(1);
        let hat = |r: &Option<Reliability>| {
            r.as_ref()
                .and_then(|r| r.pass_hat_k.get(&k))
                .map_or("—".to_owned(), |p| format!("{p:.2}"))
        };
        if k >= 2 {
            let _ = write!(line, "; pass^{k} {} → {}", hat(b), hat(n));
        }
        Some(line)
    }
}

/// Two runs compared.
pub(crate) struct Comparison {
    pub(crate) base: Stats,
    pub(crate) new: Stats,
    pub(crate) scenarios: Vec<ScenarioChange>,
}

impl Comparison {
    /// Compares the reports of the new run with the base run's, scenario by scenario (by
    /// module and name) and check by check (by label and scope).
    pub(crate) fn of(base: &Collection, new: &Collection) -> Self {
        // Several reports of one scenario (runs of `eval` sharing a scenario, repeats written
        // apart) are compared together, never one of them for all.
        fn by_key(c: &Collection) -> BTreeMap<String, Vec<&Entry>> {
            let mut m: BTreeMap<String, Vec<&Entry>> = BTreeMap::new();
            for e in &c.entries {
                m.entry(e.key()).or_default().push(e);
            }
            m
        }
        let (b, n) = (by_key(base), by_key(new));
        let keys: BTreeSet<&String> = b.keys().chain(n.keys()).collect();
        let none = Vec::new();
        let mut scenarios: Vec<ScenarioChange> = keys
            .into_iter()
            .map(|k| scenario(k, b.get(k).unwrap_or(&none), n.get(k).unwrap_or(&none)))
            .collect();
        scenarios.sort_by(|x, y| (x.change, &x.key).cmp(&(y.change, &y.key)));
        Comparison {
            base: Stats::of(&base.entries),
            new: Stats::of(&new.entries),
            scenarios,
        }
    }

    /// Whether the new run regressed.
    pub(crate) fn regressed(&self) -> bool {
        self.scenarios.iter().any(|s| {
            s.change.is_scenario_regression() || s.checks.iter().any(|c| c.change.is_regression())
        })
    }

    fn count(&self, change: Change) -> usize {
        self.scenarios.iter().filter(|s| s.change == change).count()
    }

    /// The comparison as text.
    pub(crate) fn text(&self, base: &str, new: &str) -> String {
        let mut t = String::new();
        let _ = writeln!(
            t,
            "agent-test diff: {base} ({} scenario{}) → {new} ({} scenario{})",
            self.base.scenarios,
            plural(self.base.scenarios),
            self.new.scenarios,
            plural(self.new.scenarios)
        );
        let _ = writeln!(t, "scenarios: {}", self.tally());
        let _ = writeln!(
            t,
            "checks passed: {} → {}",
            rate(self.base.pass_rate()),
            rate(self.new.pass_rate())
        );
        for line in self.figures() {
            let _ = writeln!(t, "{line}");
        }
        for s in self.scenarios.iter().filter(|s| s.change != Change::Same) {
            let _ = writeln!(t, "\n{} {}: {}", s.change.mark(), s.key, s.change.words());
            if let Some(line) = s.reliability_line() {
                let _ = writeln!(t, "    {line}");
            }
            for c in s.checks.iter().filter(|c| c.change != Change::Same) {
                let _ = writeln!(
                    t,
                    "    {} {}: {} → {}",
                    c.change.mark(),
                    c.label,
                    shown(c.base),
                    shown(c.new)
                );
            }
        }
        let _ = writeln!(
            t,
            "\n{}",
            if self.regressed() {
                "regression: something that passed no longer does, or did not run"
            } else {
                "no regression"
            }
        );
        t
    }

    pub(super) fn tally(&self) -> String {
        let parts: Vec<String> = [
            Change::NewlyFailing,
            Change::Worse,
            Change::AddedFailing,
            Change::NewlyPassing,
            Change::Better,
            Change::Added,
            Change::Removed,
            Change::StillFailing,
            Change::Same,
        ]
        .into_iter()
        .filter_map(|c| {
            let n = self.count(c);
            (n > 0).then(|| format!("{n} {}", c.words()))
        })
        .collect();
        if parts.is_empty() {
            "none".to_owned()
        } else {
            parts.join(", ")
        }
    }

    /// Latency, tokens and the judge's cost, before and after.
    pub(super) fn figures(&self) -> Vec<String> {
        let (b, n) = (&self.base, &self.new);
        let mut out = Vec::new();
        if let (Some(x), Some(y)) = (b.latency(0.5), n.latency(0.5)) {
            out.push(format!(
                "turn latency p50: {x} ms → {y} ms ({}), p95: {} ms → {} ms",
                delta(x as f64, y as f64),
                b.latency(0.95).unwrap_or(0),
                n.latency(0.95).unwrap_or(0)
            ));
        }
        let (bt, nt) = (
            b.agent_input_tokens.saturating_add(b.agent_output_tokens),
            n.agent_input_tokens.saturating_add(n.agent_output_tokens),
        );
        if bt > 0 || nt > 0 {
            out.push(format!(
                "agent tokens: {bt} → {nt} ({})",
                delta(bt as f64, nt as f64)
            ));
        }
        match (b.agent_cost.shown(), n.agent_cost.shown()) {
            (None, None) => {}
            (x, y) => {
                let unpriced = || "not priced".to_owned();
                let change = match (b.agent_cost.whole(), n.agent_cost.whole()) {
                    (Some(x), Some(y)) => format!(" ({})", delta(x, y)),
                    _ => String::new(),
                };
                out.push(format!(
                    "agent cost: {} → {}{change}",
                    x.unwrap_or_else(unpriced),
                    y.unwrap_or_else(unpriced)
                ));
            }
        }
        if b.judge_requests > 0 || n.judge_requests > 0 {
            out.push(format!(
                "judge requests: {} → {}",
                b.judge_requests, n.judge_requests
            ));
        }
        if let (Some(x), Some(y)) = (b.judge_cost_usd, n.judge_cost_usd) {
            out.push(format!("judge cost: ${x:.4} → ${y:.4} ({})", delta(x, y)));
        }
        out
    }

    /// The comparison as a self-contained HTML page.
    pub(crate) fn html(&self, base: &str, new: &str) -> String {
        let mut h = String::new();
        let title = format!("agent-test diff: {base} → {new}");
        head(&mut h, &title);
        let _ = write!(
            h,
            "<header><h1>{}</h1><p class=\"sub\">{}</p></header><section class=\"summary\">",
            esc(&title),
            esc(&format!("scenarios: {}", self.tally()))
        );
        let verdict = if self.regressed() {
            "<span class=\"delta worse\">regression</span>"
        } else {
            "<span class=\"delta better\">no regression</span>"
        };
        let _ = write!(
            h,
            "<div class=\"card\"><h2>Result</h2><div class=\"big\">{verdict}</div></div>\
             <div class=\"card\"><h2>Checks passed</h2><div class=\"big\">{} → {}</div></div>",
            rate(self.base.pass_rate()),
            rate(self.new.pass_rate())
        );
        for f in self.figures() {
            let (name, value) = f.split_once(": ").unwrap_or(("", &f));
            let _ = write!(
                h,
                "<div class=\"card\"><h2>{}</h2><div class=\"small\">{}</div></div>",
                esc(name),
                esc(value)
            );
        }
        h.push_str("</section><main><table><tr><th></th><th>scenario</th><th>change</th><th>checks</th><th>latency (ms)</th><th>tokens</th></tr>");
        for s in &self.scenarios {
            let class = if s.change.is_scenario_regression() {
                "fail"
            } else if matches!(s.change, Change::NewlyPassing | Change::Better) {
                "pass"
            } else {
                ""
            };
            let _ = write!(
                h,
                "<tr class=\"{class}\"><td><span class=\"badge\">{}</span></td><td class=\"label\">{}</td><td>{}</td><td>",
                s.change.mark(),
                esc(&s.key),
                s.change.words()
            );
            if let Some(line) = s.reliability_line() {
                let _ = write!(h, "<div>{}</div>", esc(&line));
            }
            for c in s.checks.iter().filter(|c| c.change != Change::Same) {
                let class = if c.change.is_regression() {
                    "worse"
                } else {
                    "better"
                };
                let _ = write!(
                    h,
                    "<div><span class=\"delta {class}\">{} {} → {}</span> <code>{}</code></div>",
                    c.change.mark(),
                    shown(c.base),
                    shown(c.new),
                    esc(&c.label)
                );
            }
            let _ = write!(
                h,
                "</td><td>{} → {}</td><td>{} → {}</td></tr>",
                s.latency.0.map_or("—".into(), |v| v.to_string()),
                s.latency.1.map_or("—".into(), |v| v.to_string()),
                s.tokens.0,
                s.tokens.1
            );
        }
        h.push_str("</table></main></body></html>\n");
        h
    }
}

/// A scenario's reports in the base and the new run (none, one, or several: runs of one
/// scenario, each counted like a repeat).
fn scenario(key: &str, base: &[&Entry], new: &[&Entry]) -> ScenarioChange {
    // Each check's pass rate over the reports that evaluated it (`None`: skipped in all).
    let rates = |es: &[&Entry]| -> BTreeMap<String, Option<f64>> {
        let mut sums: BTreeMap<String, (f64, usize)> = BTreeMap::new();
        for e in es {
            for (label, rate) in pass_rates(&e.report) {
                let sum = sums.entry(label).or_insert((0.0, 0));
                if let Some(r) = rate {
                    *sum = (sum.0 + r, sum.1 + 1);
                }
            }
        }
        sums.into_iter()
            .map(|(l, (sum, n))| (l, (n > 0).then(|| sum / n as f64)))
            .collect()
    };
    let (br, nr) = (rates(base), rates(new));
    let labels: BTreeSet<&String> = br.keys().chain(nr.keys()).collect();
    let checks: Vec<CheckChange> = labels
        .into_iter()
        .map(|l| {
            let (b, n) = (br.get(l).copied().flatten(), nr.get(l).copied().flatten());
            let change = match (br.contains_key(l), nr.contains_key(l)) {
                (false, _) if n.is_some_and(|y| y < 1.0) => Change::AddedFailing,
                (false, _) => Change::Added,
                (true, false) => Change::Removed,
                (true, true) => match (b, n) {
                    (Some(x), Some(y)) => rate_change(x, y),
                    // A skipped check says nothing.
                    _ => Change::Same,
                },
            };
            CheckChange {
                label: l.clone(),
                base: b,
                new: n,
                change,
            }
        })
        .collect();
    // A scenario passed when every report of it passed.
    let passed = |es: &[&Entry]| (!es.is_empty()).then(|| es.iter().all(|e| e.report.passed()));
    let change = match (passed(base), passed(new)) {
        (None, Some(false)) => Change::AddedFailing,
        (None, _) => Change::Added,
        (Some(_), None) => Change::Removed,
        (Some(true), Some(false)) => Change::NewlyFailing,
        (Some(false), Some(true)) => Change::NewlyPassing,
        (Some(false), Some(false)) => Change::StillFailing,
        (Some(true), Some(true)) => {
            if checks.iter().any(|c| c.change.is_regression()) {
                Change::Worse
            } else if checks.iter().any(|c| c.change == Change::Better) {
                Change::Better
            } else {
                Change::Same
            }
        }
    };
    // Per report, on average: the summed turn latency (of reports that measured one) and
    // the agent's tokens.
    let latency = |es: &[&Entry]| {
        let sums: Vec<u64> = es
            .iter()
            .filter_map(|e| {
                let ms: Vec<u64> = e
                    .report
                    .transcript
                    .turns
                    .iter()
                    .filter_map(|t| t.latency_ms)
                    .collect();
                // Sums saturate: a report read from a file may hold any numbers.
                (!ms.is_empty()).then(|| ms.iter().fold(0, |a: u64, b| a.saturating_add(*b)))
            })
            .collect();
        (!sums.is_empty())
            .then(|| sums.iter().fold(0, |a: u64, b| a.saturating_add(*b)) / sums.len() as u64)
    };
    let tokens = |es: &[&Entry]| {
        let total: u64 = es
            .iter()
            .flat_map(|e| e.report.transcript.turns.iter())
            .filter_map(|t| t.reply.usage.as_ref())
            .map(|u| {
                u.input_tokens
                    .unwrap_or(0)
                    .saturating_add(u.output_tokens.unwrap_or(0))
            })
            .fold(0, u64::saturating_add);
        total / es.len().max(1) as u64
    };
    ScenarioChange {
        key: key.to_owned(),
        change,
        checks,
        latency: (latency(base), latency(new)),
        tokens: (tokens(base), tokens(new)),
        reliability: (reliability(base), reliability(new)),
    }
}

/// A repeated scenario's reliability, when it has one report (several reports of one
/// scenario are runs of `eval`, not repeats with one gate).
fn reliability(es: &[&Entry]) -> Option<Reliability> {
    match es {
        [e] => e.report.repeats.as_ref()?.reliability.clone(),
        _ => None,
    }
}

/// How a check's pass rate moved from `x` to `y`.
fn rate_change(x: f64, y: f64) -> Change {
    if y < x {
        if x >= 1.0 && y <= 0.0 {
            Change::NewlyFailing
        } else {
            Change::Worse
        }
    } else if y > x {
        if x <= 0.0 && y >= 1.0 {
            Change::NewlyPassing
        } else {
            Change::Better
        }
    } else if x < 1.0 {
        Change::StillFailing
    } else {
        Change::Same
    }
}

pub(super) fn shown(rate: Option<f64>) -> String {
    match rate {
        None => "—".to_owned(),
        Some(r) if r >= 1.0 => "passed".to_owned(),
        Some(r) if r <= 0.0 => "failed".to_owned(),
        Some(r) => format!("{:.0}%", r * 100.0),
    }
}

pub(super) fn rate(r: Option<f64>) -> String {
    r.map_or("—".to_owned(), |r| format!("{r:.1}%"))
}

/// The relative change from `a` to `b`.
fn delta(a: f64, b: f64) -> String {
    if a == 0.0 {
        return if b == 0.0 {
            "±0%".into()
        } else {
            "new".into()
        };
    }
    format!("{:+.1}%", 100.0 * (b - a) / a)
}
