//! A scenario's repeat plan: how many runs, and how many of them must pass or which pass rate
//! they must show.

use serde::{Deserialize, Serialize};

use super::reliability::MinPassRate;

/// How often a scenario runs and how many runs must pass (`repeat = 5; min_passes = 4;`), or
/// which pass rate they must show (`min_pass_rate = (0.9, 0.95);`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Repeat {
    /// Runs of the scenario.
    pub(crate) times: u32,
    /// Runs that must pass; `None` means all of them, unless a pass-rate gate is set.
    pub(crate) min_passes: Option<u32>,
    /// The gate on the pass rate's lower confidence bound.
    pub(crate) min_pass_rate: Option<MinPassRate>,
}

impl Default for Repeat {
    fn default() -> Self {
        Repeat {
            times: 1,
            min_passes: None,
            min_pass_rate: None,
        }
    }
}

impl Repeat {
    /// The passing runs required: `min_passes`, else all of them — or none when a pass-rate
    /// gate decides instead (requiring every run to pass would leave the gate nothing to say).
    pub(crate) fn required(&self) -> u32 {
        match (self.min_passes, self.min_pass_rate) {
            (Some(m), _) => m,
            (None, Some(_)) => 0,
            (None, None) => self.times,
        }
    }

    /// Why the plan can never pass (or never fail), if so: no run at all, no passing run
    /// required, or more passing runs required than runs made. A run with such a plan gets an
    /// error verdict; nothing is silently changed.
    pub(crate) fn problem(&self) -> Option<String> {
        match (self.times, self.min_passes) {
            (0, _) => Some("repeat = 0 runs the scenario no time: it must be at least 1".into()),
            (_, Some(0)) => Some(
                "min_passes = 0 passes without a single passing run: it must be at least 1 \
                 (make the checks `.warning()` to only report them)"
                    .into(),
            ),
            (times, Some(min)) if min > times => Some(format!(
                "min_passes = {min} can never be reached with repeat = {times}"
            )),
            (times, _) => self.min_pass_rate.and_then(|g| g.problem_with(times)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Repeat;

    #[test]
    fn impossible_plans_say_why() {
        let r = Repeat::default();
        assert_eq!((r.times, r.required()), (1, 1));
        assert!(r.problem().is_none());
        let r = Repeat {
            times: 5,
            min_passes: Some(6),
            min_pass_rate: None,
        };
        assert_eq!(
            r.problem().unwrap(),
            "min_passes = 6 can never be reached with repeat = 5"
        );
        let r = Repeat {
            times: 0,
            min_passes: None,
            min_pass_rate: None,
        };
        assert_eq!(
            r.problem().unwrap(),
            "repeat = 0 runs the scenario no time: it must be at least 1"
        );
    }

    #[test]
    fn a_pass_rate_gate_needs_enough_runs_and_sensible_values() {
        let gate = |times, rate: (f64, f64)| Repeat {
            times,
            min_passes: None,
            min_pass_rate: Some(rate.into()),
        };
        // The gate replaces "every run must pass".
        assert_eq!(gate(40, (0.9, 0.95)).required(), 0);
        assert!(gate(40, (0.9, 0.95)).problem().is_none());
        assert_eq!(
            gate(10, (0.9, 0.95)).problem().unwrap(),
            "min_pass_rate = (0.9, 0.95) can never be reached with repeat = 10: even 10 passes \
             of 10 give a 95% lower bound of 0.72; it needs repeat = 35 or more"
        );
        assert_eq!(
            gate(40, (1.2, 0.95)).problem().unwrap(),
            "min_pass_rate = (1.2, 0.95): a pass rate is from 0 to 1"
        );
        assert_eq!(
            gate(40, (0.5, 1.0)).problem().unwrap(),
            "min_pass_rate = (0.5, 1): the confidence must be more than 0 and less than 1 \
             (0.95 for 95%)"
        );
        // With `min_passes` too, both hold.
        let both = Repeat {
            min_passes: Some(38),
            ..gate(40, (0.8, 0.95))
        };
        assert_eq!(both.required(), 38);
        assert!(both.problem().is_none());
    }
}
