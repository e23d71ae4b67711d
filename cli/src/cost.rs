//! The agent's cost over many runs, tallied once for the run's last line (`agent-test run`,
//! `eval`) and for the figures of reports (`agent-test report`, `diff`).

use agent_test_runtime::report::prices::{Cost, usd_text};

/// The agent's cost summed over the priced runs (a price table was set): the dollars of those
/// whose cost is known, and how many had a cost that is unknown. Those are left out of the
/// sum, so a total with an unknown run is never shown or compared as the whole.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct CostTotal {
    /// The sum of the known costs; `None` when no run had one.
    usd: Option<f64>,
    /// How many priced runs had a cost that is unknown.
    unknown: usize,
}

impl CostTotal {
    /// Adds a run's cost (`None`: the run was not priced).
    pub(crate) fn add(&mut self, cost: Option<&Cost>) {
        match cost {
            Some(Cost::Usd(usd)) => *self.usd.get_or_insert(0.0) += usd,
            Some(Cost::Unknown(_)) => self.unknown = self.unknown.saturating_add(1),
            None => {}
        }
    }

    /// The total when it is whole: some run was priced and every priced run's cost is known.
    pub(crate) fn whole(&self) -> Option<f64> {
        if self.unknown == 0 { self.usd } else { None }
    }

    /// As reports show it: `$0.0123`, with the scenarios of unknown cost counted apart
    /// (`$0.04 (1 scenario of unknown cost left out)`, `unknown (2 scenarios of unknown cost
    /// left out)`); `None` when nothing was priced.
    pub(crate) fn shown(&self) -> Option<String> {
        if self.usd.is_none() && self.unknown == 0 {
            return None;
        }
        let sum = self.usd.map_or_else(|| "unknown".to_owned(), usd_text);
        Some(match self.unknown {
            0 => sum,
            n => format!("{sum} ({n} scenario{} of unknown cost left out)", plural(n)),
        })
    }

    /// As the run's last line ends: `; agent cost $0.04`, then `; 1 run of unknown cost` when
    /// there is one; empty when nothing was priced.
    pub(crate) fn run_line(&self) -> String {
        let mut s = String::new();
        if let Some(usd) = self.usd {
            s.push_str(&format!("; agent cost {}", usd_text(usd)));
        }
        if self.unknown > 0 {
            s.push_str(&format!(
                "; {} run{} of unknown cost",
                self.unknown,
                plural(self.unknown)
            ));
        }
        s
    }
}

/// `s` for any count but 1.
fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(costs: &[Option<Cost>]) -> CostTotal {
        let mut t = CostTotal::default();
        for c in costs {
            t.add(c.as_ref());
        }
        t
    }

    #[test]
    fn nothing_priced_shows_nothing() {
        let t = total(&[None, None]);
        assert_eq!(t, CostTotal::default());
        assert_eq!(t.shown(), None);
        assert_eq!(t.run_line(), "");
        assert_eq!(t.whole(), None);
    }

    #[test]
    fn known_costs_add_up_and_are_whole() {
        let t = total(&[Some(Cost::Usd(0.01)), None, Some(Cost::Usd(0.03))]);
        assert_eq!(t.whole(), Some(0.04));
        assert_eq!(t.shown().as_deref(), Some("$0.04"));
        assert_eq!(t.run_line(), "; agent cost $0.04");
    }

    #[test]
    fn an_unknown_cost_is_left_out_and_the_total_is_never_whole() {
        let unknown = || Some(Cost::Unknown("no usage".into()));
        let t = total(&[Some(Cost::Usd(0.02)), unknown()]);
        assert_eq!(t.whole(), None);
        assert_eq!(
            t.shown().as_deref(),
            Some("$0.02 (1 scenario of unknown cost left out)")
        );
        assert_eq!(t.run_line(), "; agent cost $0.02; 1 run of unknown cost");
        let t = total(&[unknown(), unknown()]);
        assert_eq!(t.whole(), None);
        assert_eq!(
            t.shown().as_deref(),
            Some("unknown (2 scenarios of unknown cost left out)")
        );
        assert_eq!(t.run_line(), "; 2 runs of unknown cost");
    }
}
