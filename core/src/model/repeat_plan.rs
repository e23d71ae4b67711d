//! A scenario's repeat plan: how many runs, and how many of them must pass or which pass rate
//! they must show.

use serde::{Deserialize, Serialize};

use super::reliability::MinPassRate;
use super::sequential::{Decision, bounds};

/// How many runs a repeated scenario makes: exactly `n` (`repeat = 20;`, a plain number), or
/// up to `n`, stopping as soon as the runs decide its gate ([`up_to`]).
///
/// In a scenario file: `"repeat": 20`, or `"repeat": {"up_to": 100}`.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::{Runs, up_to};
/// assert_eq!(Runs::from(20), Runs::Exactly(20));
/// assert_eq!(up_to(100), Runs::UpTo(100));
/// assert_eq!(serde_json::to_value(up_to(100)).unwrap(), json!({"up_to": 100}));
/// assert_eq!(serde_json::from_value::<Runs>(json!(20)).unwrap(), Runs::Exactly(20));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Runs {
    /// Exactly this many runs.
    Exactly(u32),
    /// At most this many, stopping as soon as the gate is decided.
    UpTo(u32),
}

/// Runs a repeated scenario until its runs decide its gate — `min_pass_rate`: the pass rate's
/// lower bound reaches the rate, or its upper bound falls below it; `min_passes`: that many
/// passed, or too many failed to reach it — or `n` runs were made. The report says how many
/// it used. The bounds are wider than a fixed number of runs would need, so that looking after
/// every run keeps the decision's error rate at the confidence stated (docs/performance.md).
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::up_to;
/// use agent_test::agent::agent_fn;
///
/// agent_test! {
///     agent = agent_fn(|_req| async { "Your refund is on its way." });
///
///     scenario refund_is_reliable {
///         repeat = up_to(200);
///         min_pass_rate = (0.9, 0.95);
///         user "Refund ORD-1 please" {
///             expect reply().contains("refund");
///         }
///     }
/// }
/// # fn main() {}
/// ```
pub fn up_to(n: u32) -> Runs {
    Runs::UpTo(n)
}

impl From<u32> for Runs {
    fn from(n: u32) -> Self {
        Runs::Exactly(n)
    }
}

impl Runs {
    /// The most runs it makes.
    ///
    /// See [`up_to`].
    pub fn most(self) -> u32 {
        match self {
            Runs::Exactly(n) | Runs::UpTo(n) => n,
        }
    }
}

impl std::fmt::Display for Runs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Runs::Exactly(n) => write!(f, "{n}"),
            Runs::UpTo(n) => write!(f, "up_to({n})"),
        }
    }
}

impl Serialize for Runs {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Runs::Exactly(n) => s.serialize_u32(*n),
            Runs::UpTo(n) => {
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry("up_to", n)?;
                m.end()
            }
        }
    }
}

/// `20` or `{"up_to": 100}`.
impl<'de> Deserialize<'de> for Runs {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{Error, MapAccess, Visitor};
        struct Form;
        impl<'de> Visitor<'de> for Form {
            type Value = Runs;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a number of runs (20) or {\"up_to\": 100}")
            }
            fn visit_u64<E: Error>(self, n: u64) -> Result<Runs, E> {
                u32::try_from(n)
                    .map(Runs::Exactly)
                    .map_err(|_| E::custom(format!("{n} runs is more than {}", u32::MAX)))
            }
            fn visit_i64<E: Error>(self, n: i64) -> Result<Runs, E> {
                u64::try_from(n)
                    .map_err(|_| E::custom(format!("{n} runs: a number of runs is at least 1")))
                    .and_then(|n| self.visit_u64(n))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Runs, A::Error> {
                let mut most = None;
                while let Some(key) = map.next_key::<String>()? {
                    if key != "up_to" {
                        return Err(A::Error::unknown_field(&key, &["up_to"]));
                    }
                    if most.is_some() {
                        return Err(A::Error::custom("duplicate field `up_to`"));
                    }
                    most = Some(map.next_value::<u32>()?);
                }
                most.map(Runs::UpTo)
                    .ok_or_else(|| A::Error::missing_field("up_to"))
            }
        }
        d.deserialize_any(Form)
    }
}

/// How often a scenario runs and how many runs must pass (`repeat = 5; min_passes = 4;`), or
/// which pass rate they must show (`min_pass_rate = (0.9, 0.95);`).
#[derive(Clone, Copy, Debug, PartialEq)]
#[doc(hidden)]
pub struct Repeat {
    /// Runs of the scenario (the most, for a sequential plan).
    pub times: u32,
    /// Whether it stops as soon as its gate is decided (`repeat = up_to(n);`).
    pub sequential: bool,
    /// Runs that must pass; `None` means all of them, unless a pass-rate gate is set.
    pub min_passes: Option<u32>,
    /// The gate on the pass rate's lower confidence bound.
    pub min_pass_rate: Option<MinPassRate>,
}

impl Default for Repeat {
    fn default() -> Self {
        Repeat {
            times: 1,
            sequential: false,
            min_passes: None,
            min_pass_rate: None,
        }
    }
}

impl Repeat {
    /// Sets how many runs.
    #[doc(hidden)]
    pub fn runs(&mut self, runs: Runs) {
        self.times = runs.most();
        self.sequential = matches!(runs, Runs::UpTo(_));
    }

    /// The runs as written (`20`, `up_to(100)`).
    pub(crate) fn written(&self) -> Runs {
        if self.sequential {
            Runs::UpTo(self.times)
        } else {
            Runs::Exactly(self.times)
        }
    }

    /// Whether `passes` of `runs` made so far decide the plan: for a sequential one, its
    /// gate's bounds (or `min_passes` reached, or out of reach); for a fixed one, the last run.
    #[doc(hidden)]
    pub fn decided(&self, passes: u32, runs: u32) -> bool {
        if runs >= self.times {
            return true;
        }
        if !self.sequential {
            return false;
        }
        if let Some(gate) = self.min_pass_rate {
            return bounds(gate, self.times)
                .is_none_or(|b| b.decide(passes, runs) != Decision::Undecided);
        }
        let required = self.required();
        let failed = runs.saturating_sub(passes);
        passes >= required || failed > self.times.saturating_sub(required)
    }

    /// The passing runs required: `min_passes`, else all of them — or none when a pass-rate
    /// gate decides instead (requiring every run to pass would leave the gate nothing to say).
    #[doc(hidden)]
    pub fn required(&self) -> u32 {
        match (self.min_passes, self.min_pass_rate) {
            (Some(m), _) => m,
            (None, Some(_)) => 0,
            (None, None) => self.times,
        }
    }

    /// Why the plan can never pass (or never fail), if so: no run at all, no passing run
    /// required, or more passing runs required than runs made. A run with such a plan gets an
    /// error verdict; nothing is silently changed.
    #[doc(hidden)]
    pub fn problem(&self) -> Option<String> {
        let written = self.written();
        if self.times > 0 && self.sequential {
            if self.min_pass_rate.is_none() && self.min_passes.is_none() {
                return Some(format!(
                    "repeat = {written} runs until a gate is decided: add min_pass_rate (or \
                     min_passes)"
                ));
            }
            if let Some(gate) = self.min_pass_rate {
                if let Some(p) = gate.problem() {
                    return Some(p);
                }
                let can = bounds(gate, self.times).is_some_and(|b| b.can_pass());
                if !can {
                    return Some(format!(
                        "{gate} can never be reached with repeat = {written}: stopping as soon \
                         as the runs decide takes wider bounds than {} fixed runs, and even {} \
                         passes of {} do not reach the rate",
                        self.times, self.times, self.times
                    ));
                }
            }
        }
        match (self.times, self.min_passes) {
            (0, _) => Some("repeat = 0 runs the scenario no time: it must be at least 1".into()),
            (_, Some(0)) => Some(
                "min_passes = 0 passes without a single passing run: it must be at least 1 \
                 (make the checks `.warning()` to only report them)"
                    .into(),
            ),
            (_, Some(min)) if min > self.times => Some(format!(
                "min_passes = {min} can never be reached with repeat = {written}"
            )),
            (_, _) if self.sequential => None,
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
            sequential: false,
            min_passes: Some(6),
            min_pass_rate: None,
        };
        assert_eq!(
            r.problem().unwrap(),
            "min_passes = 6 can never be reached with repeat = 5"
        );
        let r = Repeat {
            times: 0,
            sequential: false,
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
            sequential: false,
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
