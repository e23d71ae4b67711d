//! The figures of a set of reports: scenarios, checks and pass rates, flaky checks, the
//! judge's requests and cost, the agent's tokens and latency.

use agent_test_runtime::check::Status;
use agent_test_runtime::report::prices::total_cost;
use agent_test_runtime::report::{Report, Summary};

use super::Entry;
use crate::cost::CostTotal;

/// Totals over reports.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Stats {
    pub(crate) scenarios: usize,
    pub(crate) passed: usize,
    /// Checks by status (warnings apart).
    pub(crate) checks: Summary,
    /// Checks that passed in some repeats and not in others.
    pub(crate) flaky: usize,
    pub(crate) judge_requests: u64,
    pub(crate) judge_cached: u64,
    pub(crate) judge_tokens: u64,
    /// The judge's cost, when its price is known.
    pub(crate) judge_cost_usd: Option<f64>,
    /// The agent's tokens, over the turns that reported usage.
    pub(crate) agent_input_tokens: u64,
    pub(crate) agent_output_tokens: u64,
    /// The agent's cost over the priced reports (a price table was set); a report with a
    /// turn whose cost is unknown is left out of the sum, and counted.
    pub(crate) agent_cost: CostTotal,
    /// Measured turn latencies, in milliseconds, sorted.
    pub(crate) latencies_ms: Vec<u64>,
}

impl Stats {
    /// The figures of `entries`.
    pub(crate) fn of<'a>(entries: impl IntoIterator<Item = &'a Entry>) -> Self {
        let mut s = Stats::default();
        for e in entries {
            s.add(&e.report);
        }
        s.latencies_ms.sort_unstable();
        s
    }

    fn add(&mut self, r: &Report) {
        self.scenarios += 1;
        if r.passed() {
            self.passed += 1;
        }
        // Sums saturate: a report read from a file may hold any numbers.
        let c = &mut self.checks;
        c.passed = c.passed.saturating_add(r.summary.passed);
        c.failed = c.failed.saturating_add(r.summary.failed);
        c.errors = c.errors.saturating_add(r.summary.errors);
        c.skipped = c.skipped.saturating_add(r.summary.skipped);
        c.warnings = c.warnings.saturating_add(r.summary.warnings);
        if let Some(repeats) = &r.repeats {
            let flaky = repeats.checks.iter().filter(|t| t.flaky()).count();
            self.flaky = self.flaky.saturating_add(flaky);
        }
        if let Some(j) = &r.judge {
            self.judge_requests = self.judge_requests.saturating_add(u64::from(j.requests));
            self.judge_cached = self.judge_cached.saturating_add(u64::from(j.cached));
            self.judge_tokens = self
                .judge_tokens
                .saturating_add(j.input_tokens.saturating_add(j.output_tokens));
            if let Some(cost) = j.cost_usd {
                *self.judge_cost_usd.get_or_insert(0.0) += cost;
            }
        }
        self.agent_cost
            .add(total_cost(&r.transcript.turns).as_ref());
        for t in &r.transcript.turns {
            if let Some(u) = &t.reply.usage {
                self.agent_input_tokens = self
                    .agent_input_tokens
                    .saturating_add(u.input_tokens.unwrap_or(0));
                self.agent_output_tokens = self
                    .agent_output_tokens
                    .saturating_add(u.output_tokens.unwrap_or(0));
            }
            if let Some(ms) = t.latency_ms {
                self.latencies_ms.push(ms);
            }
        }
    }

    /// The share of checks that passed, of those that ran (skipped ones apart), in percent.
    pub(crate) fn pass_rate(&self) -> Option<f64> {
        let c = &self.checks;
        let ran = [c.failed, c.errors, c.warnings]
            .into_iter()
            .fold(c.passed, usize::saturating_add);
        (ran > 0).then(|| 100.0 * c.passed as f64 / ran as f64)
    }

    /// The latency at quantile `q` (0..=1), nearest rank.
    pub(crate) fn latency(&self, q: f64) -> Option<u64> {
        let n = self.latencies_ms.len();
        if n == 0 {
            return None;
        }
        let rank = ((q * n as f64).ceil() as usize).clamp(1, n);
        self.latencies_ms.get(rank - 1).copied()
    }
}

/// A check's pass rate in a report: over its repeats when the scenario was repeated, else 1
/// or 0 (`None` for a skipped check, which says nothing).
pub(crate) fn pass_rates(r: &Report) -> Vec<(String, Option<f64>)> {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut key = |label: &str, scope: String| {
        let base = format!("{label} [{scope}]");
        let n = seen.entry(base.clone()).or_insert(0);
        *n += 1;
        if *n == 1 {
            base
        } else {
            format!("{base} #{n}")
        }
    };
    if let Some(repeats) = &r.repeats {
        return repeats
            .checks
            .iter()
            .map(|t| {
                let runs = t.passed.saturating_add(t.not_passed);
                let rate = (runs > 0).then(|| f64::from(t.passed) / f64::from(runs));
                (key(&t.label, t.scope.to_string()), rate)
            })
            .collect();
    }
    r.verdicts
        .iter()
        .map(|v| {
            let rate = match v.status {
                Status::Pass => Some(1.0),
                Status::Skipped => None,
                Status::Fail | Status::Error => Some(0.0),
            };
            (key(&v.label, v.scope.to_string()), rate)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latency_quantiles_by_nearest_rank() {
        let s = Stats {
            latencies_ms: (1..=100).collect(),
            ..Stats::default()
        };
        assert_eq!(s.latency(0.5), Some(50));
        assert_eq!(s.latency(0.95), Some(95));
        assert_eq!(s.latency(1.0), Some(100));
        assert_eq!(s.latency(0.0), Some(1));
        assert_eq!(Stats::default().latency(0.5), None);
    }

    #[test]
    fn pass_rate_leaves_skipped_checks_out() {
        let mut s = Stats::default();
        s.checks.passed = 3;
        s.checks.failed = 1;
        s.checks.skipped = 6;
        assert_eq!(s.pass_rate(), Some(75.0));
        assert_eq!(Stats::default().pass_rate(), None);
    }
}
