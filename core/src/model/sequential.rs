//! Sequential repeats (`repeat = up_to(n);`): a scenario runs until its runs decide the
//! pass-rate gate — the lower bound of the pass rate's interval reaches the rate (pass), or its
//! upper bound falls below it (fail) — or `n` runs were made (then it passes only if the lower
//! bound reached the rate at the last one).
//!
//! Looking after every run and stopping at the first bound that decides would, with the fixed
//! test's interval, accept a rate at the threshold far more often than the confidence says
//! (each look is another chance). So the bounds are widened: the interval's normal quantile
//! `z` is the smallest at least the fixed test's for which the probability of **ever**
//! accepting, when the true pass rate is exactly the gate's rate, is at most what the fixed
//! test allows, `(1 − confidence) / 2` — computed exactly over every path of up to `n` runs
//! (a dynamic programme over the number of passes), not estimated. A pass rate below the gate
//! is accepted less often still. `runtime/tests/checks/sequential.rs` checks the error rate by
//! simulation and measures the runs saved (docs/performance.md).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde::{Deserialize, Serialize};

use super::reliability::{MinPassRate, wilson_z, z_score};

/// What a sequential gate decided after some runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decision {
    /// The lower bound reached the rate.
    Pass,
    /// The upper bound fell below the rate, or the last run came without a pass.
    Fail,
    /// Neither yet: run again.
    Undecided,
}

/// A sequential gate as reports state it: at most `up_to` runs, decided by bounds with the
/// normal quantile `z`.
///
/// ```
/// use agent_test::report::reliability::Sequential;
/// let s = Sequential { up_to: 100, z: 2.6 };
/// assert_eq!(s.to_string(), "up to 100 runs, bounds at z = 2.60");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sequential {
    /// The most runs.
    pub up_to: u32,
    /// The normal quantile of the decision's bounds (wider than the fixed test's: every run is
    /// a look).
    pub z: f64,
}

impl std::fmt::Display for Sequential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "up to {} runs, bounds at z = {:.2}", self.up_to, self.z)
    }
}

/// The decision bounds of one gate over at most `up_to` runs.
#[derive(Debug)]
pub(crate) struct Bounds {
    pub(crate) z: f64,
    /// `accept[n - 1]`: the fewest passes of `n` runs that pass (more than `n`: none can).
    accept: Vec<u32>,
    /// `reject[n - 1]`: the most passes of `n` runs that fail, if any.
    reject: Vec<Option<u32>>,
}

impl Bounds {
    /// The decision after `passes` of `runs` (the last of at most `up_to`).
    pub(crate) fn decide(&self, passes: u32, runs: u32) -> Decision {
        let Some(i) = (runs as usize).checked_sub(1) else {
            return Decision::Undecided;
        };
        let accept = self.accept.get(i).copied().unwrap_or(u32::MAX);
        if passes >= accept {
            return Decision::Pass;
        }
        let last = i + 1 >= self.accept.len();
        match self.reject.get(i).copied().flatten() {
            Some(r) if passes <= r => Decision::Fail,
            _ if last => Decision::Fail,
            _ => Decision::Undecided,
        }
    }

    /// Whether any path can pass: `up_to` passes of `up_to` runs do.
    pub(crate) fn can_pass(&self) -> bool {
        let n = self.accept.len();
        self.accept.last().is_some_and(|a| (*a as usize) <= n)
    }
}

/// The bounds of `gate` over at most `up_to` runs (calibrated once per process and gate).
pub(crate) fn bounds(gate: MinPassRate, up_to: u32) -> Option<Arc<Bounds>> {
    type Key = (u64, u64, u32);
    static CACHE: OnceLock<Mutex<HashMap<Key, Arc<Bounds>>>> = OnceLock::new();
    if gate.problem().is_some() || up_to == 0 {
        return None;
    }
    let key = (gate.rate.to_bits(), gate.confidence.to_bits(), up_to);
    let cache = CACHE.get_or_init(Mutex::default);
    if let Some(b) = cache.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return Some(Arc::clone(b));
    }
    let b = Arc::new(calibrate(gate, up_to)?);
    cache
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(key, Arc::clone(&b));
    Some(b)
}

/// The bounds at quantile `z`.
fn at(rate: f64, up_to: u32, z: f64) -> Bounds {
    let mut accept = Vec::with_capacity(up_to as usize);
    let mut reject = Vec::with_capacity(up_to as usize);
    for n in 1..=up_to {
        // Both bounds grow with the passes: the first count whose lower bound reaches the rate,
        // and one past the last whose upper bound is below it (binary searches).
        let first = first_count(n, |x| wilson_z(x, n, z).is_some_and(|(low, _)| low >= rate));
        let past = first_count(n, |x| {
            wilson_z(x, n, z).is_none_or(|(_, high)| high >= rate)
        });
        accept.push(first);
        reject.push(past.checked_sub(1));
    }
    Bounds { z, accept, reject }
}

/// The first count in `0..=n` for which `holds` (which, once true, stays true), else `n + 1`.
fn first_count(n: u32, holds: impl Fn(u32) -> bool) -> u32 {
    let (mut low, mut high) = (0, n + 1);
    while low < high {
        let mid = low + (high - low) / 2;
        if holds(mid) {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    low
}

/// The probability that a scenario whose runs pass with probability `p` ever passes under
/// `bounds`: the mass of every path of runs that reaches an accepting count before a rejecting
/// one.
fn chance_of_passing(bounds: &Bounds, p: f64) -> f64 {
    let n_max = bounds.accept.len();
    // dist[x]: the probability of x passes so far on a path still undecided.
    let mut dist = vec![1.0_f64];
    let mut passed = 0.0;
    for i in 0..n_max {
        let mut next = vec![0.0_f64; dist.len() + 1];
        for (x, m) in dist.iter().enumerate() {
            if let Some(slot) = next.get_mut(x) {
                *slot += m * (1.0 - p);
            }
            if let Some(slot) = next.get_mut(x + 1) {
                *slot += m * p;
            }
        }
        let accept = bounds.accept.get(i).copied().unwrap_or(u32::MAX) as usize;
        let reject = bounds.reject.get(i).copied().flatten();
        for (x, m) in next.iter_mut().enumerate() {
            if x >= accept {
                passed += *m;
                *m = 0.0;
            } else if reject.is_some_and(|r| x <= r as usize) {
                *m = 0.0;
            }
        }
        dist = next;
    }
    passed
}

/// The smallest quantile, at least the fixed test's, whose bounds pass a scenario at exactly
/// the gate's rate at most `(1 − confidence) / 2` of the time.
fn calibrate(gate: MinPassRate, up_to: u32) -> Option<Bounds> {
    let allowed = (1.0 - gate.confidence) / 2.0;
    let fixed = z_score(gate.confidence)?;
    let holds = |z: f64| chance_of_passing(&at(gate.rate, up_to, z), gate.rate) <= allowed;
    if holds(fixed) {
        return Some(at(gate.rate, up_to, fixed));
    }
    let (mut low, mut high) = (fixed, fixed + 4.0);
    if !holds(high) {
        return Some(at(gate.rate, up_to, high));
    }
    // The chance only falls as the bounds widen: bisect to a quantile that holds.
    for _ in 0..30 {
        let mid = (low + high) / 2.0;
        if holds(mid) {
            high = mid;
        } else {
            low = mid;
        }
    }
    Some(at(gate.rate, up_to, high))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_at_the_gate_passes_no_more_often_than_the_fixed_test_allows() {
        let gate = MinPassRate::from((0.9, 0.95));
        let b = bounds(gate, 100).unwrap();
        assert!(
            b.z > 1.96,
            "every run is a look: the bounds widen ({})",
            b.z
        );
        assert!(chance_of_passing(&b, 0.9) <= 0.025 + 1e-12);
        // A worse agent passes less often, a better one more.
        assert!(chance_of_passing(&b, 0.8) < chance_of_passing(&b, 0.9));
        assert!(chance_of_passing(&b, 0.99) > 0.9);
        // Decisions: 10 of 10 decide nothing yet, 0 of 10 fail, the last run decides.
        assert_eq!(b.decide(10, 10), Decision::Undecided);
        assert_eq!(b.decide(0, 10), Decision::Fail);
        assert_eq!(b.decide(100, 100), Decision::Pass);
        assert_eq!(b.decide(80, 100), Decision::Fail);
        assert!(b.can_pass());
        assert!(!bounds(gate, 10).unwrap().can_pass());
    }
}

#[cfg(test)]
mod simulation {
    //! The decision's error rate by simulation: agents with known pass probabilities, a
    //! thousand sequential plans each, against a gate of 0.9 at 95 % — and the runs it used.
    use super::*;

    /// A small deterministic generator (xorshift64*): the same trials on every machine.
    struct Rng(u64);

    impl Rng {
        fn unit(&mut self) -> f64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// One sequential plan against an agent passing with probability `p`: passed, runs used.
    fn trial(b: &Bounds, p: f64, rng: &mut Rng) -> (bool, u32) {
        let mut passes = 0;
        for runs in 1.. {
            passes += u32::from(rng.unit() < p);
            match b.decide(passes, runs) {
                Decision::Pass => return (true, runs),
                Decision::Fail => return (false, runs),
                Decision::Undecided => {}
            }
        }
        unreachable!("the last run decides")
    }

    #[test]
    fn a_gate_at_0_9_is_wrongly_passed_at_most_5_percent_of_the_time() {
        let gate = MinPassRate::from((0.9, 0.95));
        for up_to in [100, 200] {
            let b = bounds(gate, up_to).unwrap();
            let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
            for p in [0.5, 0.8, 0.9, 0.95, 0.99] {
                let (mut passed, mut runs) = (0u32, 0u64);
                for _ in 0..1000 {
                    let (ok, used) = trial(&b, p, &mut rng);
                    passed += u32::from(ok);
                    runs += u64::from(used);
                }
                let mean = runs as f64 / 1000.0;
                println!(
                    "up_to({up_to}) z = {:.3}, p = {p}: passed {passed}/1000, mean runs {mean:.1} ({:.0}% fewer than {up_to})",
                    b.z,
                    100.0 * (1.0 - mean / f64::from(up_to))
                );
                if p <= 0.9 {
                    assert!(
                        passed <= 50,
                        "p = {p}: {passed} of 1000 passed a gate at 0.9"
                    );
                }
            }
        }
    }
}
