//! How reliable a repeated scenario is: from `c` passes out of `n` runs, the pass rate with its
//! Wilson score interval, pass^k (every one of k tries passes, τ-bench's reliability measure)
//! and pass@k (at least one of k tries passes, Chen et al. 2021), and the gate on the
//! interval's lower bound (`min_pass_rate`).
//!
//! Pure arithmetic on counts, in `f64`: binomial coefficients are never formed, only products
//! of ratios each at most 1, so nothing overflows however many runs were made. A statistic
//! over zero runs, or for more tries than runs, is not measured (`None`), never a number.

mod gate_error;

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

pub use gate_error::{PassRateError, PassRateErrorKind};

/// The confidence used when none is given: 95 %.
pub const DEFAULT_CONFIDENCE: f64 = 0.95;

/// The largest k for which reports give pass^k and pass@k (and at most the number of runs).
pub const MAX_K: u32 = 5;

/// The two-sided standard normal quantile for a confidence level: the `z` with
/// P(−z ≤ Z ≤ z) = `confidence` (1.959964 for 95 %). `None` unless 0 < `confidence` < 1.
///
/// Computed with Peter Acklam's rational approximation of the inverse normal distribution
/// function (relative error below 1.15 × 10⁻⁹ over its whole range), so any confidence can be
/// asked, not only the few a table would hold.
///
/// ```
/// use agent_test::report::reliability::z_score;
/// assert!((z_score(0.95).unwrap() - 1.959964).abs() < 1e-6);
/// assert!((z_score(0.99).unwrap() - 2.575829).abs() < 1e-6);
/// assert_eq!(z_score(1.0), None);
/// ```
pub fn z_score(confidence: f64) -> Option<f64> {
    if !(confidence > 0.0 && confidence < 1.0) {
        return None;
    }
    // The upper quantile of a two-sided interval: Φ⁻¹((1 + confidence) / 2).
    inverse_normal((1.0 + confidence) / 2.0)
}

/// Φ⁻¹(p) for 0 < p < 1 (Acklam's algorithm).
fn inverse_normal(p: f64) -> Option<f64> {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    const LOW: f64 = 0.024_25;
    if !(p > 0.0 && p < 1.0) {
        return None;
    }
    let [a0, a1, a2, a3, a4, a5] = A;
    let [b0, b1, b2, b3, b4] = B;
    let [c0, c1, c2, c3, c4, c5] = C;
    let [d0, d1, d2, d3] = D;
    let tail = |q: f64| {
        (((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5)
            / ((((d0 * q + d1) * q + d2) * q + d3) * q + 1.0)
    };
    let z = if p < LOW {
        tail((-2.0 * p.ln()).sqrt())
    } else if p <= 1.0 - LOW {
        let q = p - 0.5;
        let r = q * q;
        (((((a0 * r + a1) * r + a2) * r + a3) * r + a4) * r + a5) * q
            / (((((b0 * r + b1) * r + b2) * r + b3) * r + b4) * r + 1.0)
    } else {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    };
    Some(z)
}

/// The Wilson score interval of a pass rate: `passes` of `runs` at a `confidence`
/// (0.95 for 95 %), as `(low, high)`. `None` for no run, more passes than runs, or a
/// confidence outside (0, 1).
///
/// Unlike the normal approximation p̂ ± z·√(p̂(1−p̂)/n), it stays inside 0..=1 and does not
/// collapse to a point at 0 or n passes: 5 passes of 5 give 0.57–1.00 at 95 %, not 1.00–1.00.
///
/// ```
/// use agent_test::report::reliability::wilson;
/// let (low, high) = wilson(7, 10, 0.95).unwrap();
/// assert!((low - 0.3968).abs() < 1e-4 && (high - 0.8922).abs() < 1e-4);
/// assert_eq!(wilson(0, 0, 0.95), None);
/// ```
pub fn wilson(passes: u32, runs: u32, confidence: f64) -> Option<(f64, f64)> {
    wilson_z(passes, runs, z_score(confidence)?)
}

/// [`wilson`] with its normal quantile `z` given (what a sequential gate's wider bound uses).
pub(crate) fn wilson_z(passes: u32, runs: u32, z: f64) -> Option<(f64, f64)> {
    if runs == 0 || passes > runs || !(z.is_finite() && z > 0.0) {
        return None;
    }
    let n = f64::from(runs);
    let p = f64::from(passes) / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At 0 or n passes one bound is exactly 0 or 1; rounding must not say otherwise.
    let low = if passes == 0 {
        0.0
    } else {
        (center - half).clamp(0.0, 1.0)
    };
    let high = if passes == runs {
        1.0
    } else {
        (center + half).clamp(0.0, 1.0)
    };
    Some((low, high))
}

/// C(a, k) / C(b, k) for a ≤ b, as the product of the ratios (a − i) / (b − i), i < k: each
/// factor is at most 1, so nothing overflows. 0 when a < k.
fn ratio_of_choices(a: u32, b: u32, k: u32) -> f64 {
    if a < k {
        return 0.0;
    }
    (0..k).fold(1.0, |product, i| {
        product * f64::from(a.saturating_sub(i)) / f64::from(b.saturating_sub(i))
    })
}

/// pass^k: the probability that `k` tries drawn from the runs all pass — C(c, k) / C(n, k),
/// τ-bench's unbiased estimator from `passes` (c) of `runs` (n). `None` (not measured) when
/// `k` is 0 or more than the runs, or the counts are impossible.
///
/// ```
/// use agent_test::report::reliability::pass_hat_k;
/// // 7 of 10: C(7, 2) / C(10, 2) = 21 / 45.
/// assert!((pass_hat_k(7, 10, 2).unwrap() - 21.0 / 45.0).abs() < 1e-12);
/// assert_eq!(pass_hat_k(7, 10, 11), None);
/// ```
pub fn pass_hat_k(passes: u32, runs: u32, k: u32) -> Option<f64> {
    if k == 0 || k > runs || passes > runs {
        return None;
    }
    Some(ratio_of_choices(passes, runs, k))
}

/// pass@k: the probability that at least one of `k` tries drawn from the runs passes —
/// 1 − C(n − c, k) / C(n, k), the unbiased estimator of Chen et al. (2021), from `passes` (c)
/// of `runs` (n). `None` (not measured) when `k` is 0 or more than the runs, or the counts are
/// impossible.
///
/// ```
/// use agent_test::report::reliability::pass_at_k;
/// // 7 of 10: 1 − C(3, 2) / C(10, 2) = 1 − 3 / 45.
/// assert!((pass_at_k(7, 10, 2).unwrap() - (1.0 - 3.0 / 45.0)).abs() < 1e-12);
/// assert_eq!(pass_at_k(0, 0, 1), None);
/// ```
pub fn pass_at_k(passes: u32, runs: u32, k: u32) -> Option<f64> {
    if k == 0 || k > runs || passes > runs {
        return None;
    }
    Some(1.0 - ratio_of_choices(runs.saturating_sub(passes), runs, k))
}

/// What the runs say of how reliable a scenario (or one check) is: its pass rate with a
/// confidence interval, pass^k and pass@k for k = 1..=min(runs, 5).
///
/// ```
/// use agent_test::report::reliability::Reliability;
/// let r = Reliability::of(4, 5, 0.95).unwrap();
/// assert_eq!(r.pass_rate, 0.8);
/// assert_eq!(r.to_string(), "pass rate 0.80, 95% CI 0.38–0.96; pass^3 0.40");
/// assert_eq!(r.pass_hat_k.get(&3), Some(&0.4));
/// assert_eq!(Reliability::of(0, 0, 0.95), None); // no run: nothing to say
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reliability {
    /// Runs made.
    pub runs: u32,
    /// Runs that passed.
    pub passes: u32,
    /// passes / runs.
    pub pass_rate: f64,
    /// The confidence of the interval (0.95 for 95 %).
    pub confidence: f64,
    /// The Wilson score interval of the pass rate, `[low, high]`.
    pub interval: [f64; 2],
    /// pass^k for k = 1..=min(runs, 5): every one of k tries passes.
    pub pass_hat_k: BTreeMap<u32, f64>,
    /// pass@k for k = 1..=min(runs, 5): at least one of k tries passes.
    pub pass_at_k: BTreeMap<u32, f64>,
}

impl Reliability {
    /// The figures of `passes` out of `runs` at a `confidence`; `None` for no run, more passes
    /// than runs, or a confidence outside (0, 1).
    ///
    /// See the type's example.
    pub fn of(passes: u32, runs: u32, confidence: f64) -> Option<Self> {
        let (low, high) = wilson(passes, runs, confidence)?;
        let ks = 1..=runs.min(MAX_K);
        // Twelve decimals: more than any report shows, and no 0.39999999999999997 for 0.4 in
        // the JSON a product of ratios would otherwise leave.
        let tidy = |x: f64| (x * 1e12).round() / 1e12;
        Some(Reliability {
            runs,
            passes,
            pass_rate: tidy(f64::from(passes) / f64::from(runs)),
            confidence,
            interval: [tidy(low), tidy(high)],
            pass_hat_k: ks
                .clone()
                .filter_map(|k| Some((k, tidy(pass_hat_k(passes, runs, k)?))))
                .collect(),
            pass_at_k: ks
                .filter_map(|k| Some((k, tidy(pass_at_k(passes, runs, k)?))))
                .collect(),
        })
    }

    /// The k shown in one line of text: 3, or the runs when fewer (none for a single run,
    /// whose pass^1 is its pass rate).
    fn shown_k(&self) -> Option<u32> {
        let k = self.runs.min(3);
        (k >= 2).then_some(k)
    }
}

impl fmt::Display for Reliability {
    /// `pass rate 0.80, 95% CI 0.38–0.96; pass^3 0.40`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "pass rate {:.2}, {} CI {:.2}–{:.2}",
            self.pass_rate,
            percent(self.confidence),
            self.interval[0],
            self.interval[1]
        )?;
        if let Some(k) = self.shown_k()
            && let Some(p) = self.pass_hat_k.get(&k)
        {
            write!(f, "; pass^{k} {p:.2}")?;
        }
        Ok(())
    }
}

/// A confidence as a percentage without needless decimals: `95%`, `99.9%`.
pub fn percent(confidence: f64) -> String {
    let p = confidence * 100.0;
    if (p - p.round()).abs() < 1e-9 {
        format!("{}%", p.round())
    } else {
        format!("{}%", (p * 1000.0).round() / 1000.0)
    }
}

/// The gate on a repeated scenario's pass rate (`min_pass_rate = (0.9, 0.95);`): it passes
/// only if the lower bound of the pass rate's Wilson interval at `confidence` is at least
/// `rate` — "the pass rate is at least 0.9, with 95 % confidence". A bare rate takes 95 %.
///
/// ```
/// use agent_test::report::reliability::{MinPassRate, PassRateErrorKind};
/// let gate = MinPassRate::from((0.9, 0.95));
/// assert_eq!(gate.check(40, 40), Ok(()));
/// let err = gate.check(7, 10).unwrap_err();
/// assert_eq!(err.kind, PassRateErrorKind::BelowRate);
/// assert_eq!(
///     err.to_string(),
///     "pass rate 7/10 = 0.70, 95% lower bound 0.40 < 0.90 required"
/// );
/// assert_eq!(MinPassRate::from(0.8), MinPassRate { rate: 0.8, confidence: 0.95 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MinPassRate {
    /// The pass rate the lower bound must reach, in (0, 1).
    pub rate: f64,
    /// The confidence of the bound, in (0, 1).
    pub confidence: f64,
}

/// Read as a scenario file writes it: `0.9` (at 95 % confidence), `[0.9, 0.95]`, or
/// `{"rate": 0.9, "confidence": 0.95}` (`confidence` optional) — what reports write.
impl<'de> Deserialize<'de> for MinPassRate {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{Error, MapAccess, SeqAccess, Visitor};
        struct Form;
        impl<'de> Visitor<'de> for Form {
            type Value = MinPassRate;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(
                    "a pass rate (0.9), [rate, confidence] ([0.9, 0.95]) or \
                     {\"rate\": 0.9, \"confidence\": 0.95}",
                )
            }
            fn visit_f64<E: Error>(self, rate: f64) -> Result<MinPassRate, E> {
                Ok(MinPassRate::from(rate))
            }
            fn visit_u64<E: Error>(self, rate: u64) -> Result<MinPassRate, E> {
                Ok(MinPassRate::from(rate as f64))
            }
            fn visit_i64<E: Error>(self, rate: i64) -> Result<MinPassRate, E> {
                Ok(MinPassRate::from(rate as f64))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<MinPassRate, A::Error> {
                let rate = seq
                    .next_element()?
                    .ok_or_else(|| A::Error::invalid_length(0, &self))?;
                let confidence = seq
                    .next_element()?
                    .ok_or_else(|| A::Error::invalid_length(1, &self))?;
                if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                    return Err(A::Error::invalid_length(3, &self));
                }
                Ok(MinPassRate { rate, confidence })
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<MinPassRate, A::Error> {
                let (mut rate, mut confidence) = (None, None);
                while let Some(key) = map.next_key::<String>()? {
                    let slot = match key.as_str() {
                        "rate" => &mut rate,
                        "confidence" => &mut confidence,
                        other => {
                            return Err(A::Error::unknown_field(other, &["rate", "confidence"]));
                        }
                    };
                    if slot.is_some() {
                        return Err(A::Error::custom(format!("duplicate field `{key}`")));
                    }
                    *slot = Some(map.next_value::<f64>()?);
                }
                Ok(MinPassRate {
                    rate: rate.ok_or_else(|| A::Error::missing_field("rate"))?,
                    confidence: confidence.unwrap_or(DEFAULT_CONFIDENCE),
                })
            }
        }
        d.deserialize_any(Form)
    }
}

impl From<f64> for MinPassRate {
    fn from(rate: f64) -> Self {
        MinPassRate {
            rate,
            confidence: DEFAULT_CONFIDENCE,
        }
    }
}

impl From<(f64, f64)> for MinPassRate {
    fn from((rate, confidence): (f64, f64)) -> Self {
        MinPassRate { rate, confidence }
    }
}

impl MinPassRate {
    /// Why the gate can never be met, or can never fail, whatever the runs; `None` when it
    /// can. A rate of 0 (or below) compares nothing: every lower bound is at least 0; a rate of
    /// 1 (or above) can never pass: no finite number of runs gives a lower bound of 1.
    ///
    /// ```
    /// use agent_test::report::reliability::MinPassRate;
    /// assert_eq!(MinPassRate::from(0.9).problem(), None);
    /// assert_eq!(
    ///     MinPassRate::from((0.9, 1.0)).problem().unwrap(),
    ///     "min_pass_rate = (0.9, 1): the confidence must be more than 0 and less than 1 (0.95 for 95%)"
    /// );
    /// ```
    pub fn problem(&self) -> Option<String> {
        let shown = self.to_string();
        if !(self.confidence > 0.0 && self.confidence < 1.0) {
            return Some(format!(
                "{shown}: the confidence must be more than 0 and less than 1 (0.95 for 95%)"
            ));
        }
        if self.rate.is_nan() || self.rate > 1.0 || self.rate < 0.0 {
            return Some(format!("{shown}: a pass rate is from 0 to 1"));
        }
        if self.rate <= 0.0 {
            return Some(format!(
                "{shown} passes without a single passing run: the rate must be more than 0"
            ));
        }
        if self.rate >= 1.0 {
            return Some(format!(
                "{shown} can never pass: no number of runs proves a pass rate of 1 (the lower \
                 bound stays below it); ask for less than 1"
            ));
        }
        None
    }

    /// Why the gate can never be met with `runs` runs, even all passing: the lower bound of
    /// n passes of n is n / (n + z²), so it needs at least r·z² / (1 − r) runs.
    ///
    /// ```
    /// use agent_test::report::reliability::MinPassRate;
    /// assert_eq!(
    ///     MinPassRate::from(0.9).problem_with(10).unwrap(),
    ///     "min_pass_rate = (0.9, 0.95) can never be reached with repeat = 10: even 10 passes \
    ///      of 10 give a 95% lower bound of 0.72; it needs repeat = 35 or more"
    /// );
    /// assert_eq!(MinPassRate::from(0.9).problem_with(35), None);
    /// ```
    pub fn problem_with(&self, runs: u32) -> Option<String> {
        if let Some(p) = self.problem() {
            return Some(p);
        }
        let (best, _) = wilson(runs, runs, self.confidence)?;
        if best >= self.rate {
            return None;
        }
        let z = z_score(self.confidence)?;
        let needed = (self.rate * z * z / (1.0 - self.rate)).ceil();
        // The bound, rounded, is compared by `check` as computed; find the first count that
        // really reaches it.
        let mut needed = if needed.is_finite() && needed < f64::from(u32::MAX) {
            needed as u32
        } else {
            u32::MAX
        };
        while needed < u32::MAX
            && wilson(needed, needed, self.confidence).is_some_and(|(low, _)| low < self.rate)
        {
            needed = needed.saturating_add(1);
        }
        Some(format!(
            "{self} can never be reached with repeat = {runs}: even {runs} passes of {runs} \
             give a {} lower bound of {best:.2}; it needs repeat = {needed} or more",
            percent(self.confidence)
        ))
    }

    /// Whether `passes` of `runs` meet the gate: `Err` with the numbers when they do not (or
    /// when the gate cannot be evaluated: no run, an impossible setting), its
    /// [kind](PassRateErrorKind) telling which. See the type's example, and
    /// [`PassRateErrorKind`]'s.
    pub fn check(&self, passes: u32, runs: u32) -> Result<(), PassRateError> {
        if let Some(message) = self.problem() {
            return Err(PassRateError {
                kind: PassRateErrorKind::Impossible,
                message,
            });
        }
        let Some((low, _)) = wilson(passes, runs, self.confidence) else {
            return Err(PassRateError {
                kind: PassRateErrorKind::NotMeasured,
                message: format!(
                    "{self} needs runs, and {passes} passes of {runs} runs say nothing"
                ),
            });
        };
        let rate = f64::from(passes) / f64::from(runs);
        let numbers = format!(
            "pass rate {passes}/{runs} = {rate:.2}, {} lower bound {low:.2}",
            percent(self.confidence)
        );
        if low >= self.rate {
            Ok(())
        } else {
            Err(PassRateError {
                kind: PassRateErrorKind::BelowRate,
                message: format!("{numbers} < {:.2} required", self.rate),
            })
        }
    }
}

impl fmt::Display for MinPassRate {
    /// `min_pass_rate = (0.9, 0.95)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "min_pass_rate = ({:?}, {:?})",
            Shortest(self.rate),
            Shortest(self.confidence)
        )
    }
}

/// A number as written: `0.9`, `1`, not `0.9000` nor `1.0`.
struct Shortest(f64);

impl fmt::Debug for Shortest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() < tolerance
    }

    #[test]
    fn z_scores_against_the_normal_table() {
        for (confidence, z) in [
            (0.80, 1.281_551_6),
            (0.90, 1.644_853_6),
            (0.95, 1.959_964_0),
            (0.98, 2.326_347_9),
            (0.99, 2.575_829_3),
            (0.999, 3.290_526_7),
            (0.5, 0.674_489_8),
        ] {
            let got = z_score(confidence).unwrap();
            assert!(close(got, z, 1e-6), "z({confidence}) = {got}, expected {z}");
        }
        for bad in [0.0, 1.0, -0.5, 1.5, f64::NAN, f64::INFINITY] {
            assert_eq!(z_score(bad), None, "{bad}");
        }
        // The tails (Acklam's outer branches) are symmetric with the centre.
        let lo = inverse_normal(0.01).unwrap();
        let hi = inverse_normal(0.99).unwrap();
        assert!(close(lo, -2.326_347_9, 1e-6) && close(hi, 2.326_347_9, 1e-6));
    }

    #[test]
    fn wilson_against_hand_computed_values() {
        // n = 10, c = 7 at 95 %: [0.3968, 0.8922].
        let (low, high) = wilson(7, 10, 0.95).unwrap();
        assert!(close(low, 0.396_8, 1e-4), "{low}");
        assert!(close(high, 0.892_2, 1e-4), "{high}");
        // n = 5, c = 4: [0.3755, 0.9638].
        let (low, high) = wilson(4, 5, 0.95).unwrap();
        assert!(close(low, 0.375_5, 1e-4) && close(high, 0.963_8, 1e-4));
        // c = n: the upper bound is 1 and the lower n / (n + z²).
        let (low, high) = wilson(5, 5, 0.95).unwrap();
        assert!(close(low, 5.0 / (5.0 + 1.959_964_f64.powi(2)), 1e-6));
        assert_eq!(high, 1.0);
        // c = 0: the lower bound is 0, the upper z² / (n + z²).
        let (low, high) = wilson(0, 10, 0.95).unwrap();
        assert_eq!(low, 0.0);
        assert!(close(high, 3.841_459 / 13.841_459, 1e-6), "{high}");
        // n = 1.
        let (low, high) = wilson(1, 1, 0.95).unwrap();
        assert!(close(low, 1.0 / 4.841_459, 1e-6) && high == 1.0);
        // 99 % is wider than 95 %.
        let (l99, h99) = wilson(7, 10, 0.99).unwrap();
        assert!(l99 < 0.396_8 && h99 > 0.892_2);
        // Many runs: no overflow, a narrow interval around the rate.
        let (low, high) = wilson(3_000_000_000, u32::MAX, 0.95).unwrap();
        assert!(low < 0.698_5 && high > 0.698_5 && high - low < 1e-3);
        // Nothing to say, or nonsense.
        assert_eq!(wilson(0, 0, 0.95), None);
        assert_eq!(wilson(6, 5, 0.95), None);
        assert_eq!(wilson(1, 2, 1.0), None);
    }

    #[test]
    fn pass_hat_k_and_pass_at_k_against_hand_computed_values() {
        let eq = |a: Option<f64>, b: f64| a.is_some_and(|a| close(a, b, 1e-12));
        // n = 10, c = 7.
        assert!(eq(pass_hat_k(7, 10, 1), 0.7));
        assert!(eq(pass_hat_k(7, 10, 2), 21.0 / 45.0));
        assert!(eq(pass_hat_k(7, 10, 3), 35.0 / 120.0));
        assert!(eq(pass_at_k(7, 10, 1), 0.7));
        assert!(eq(pass_at_k(7, 10, 2), 1.0 - 3.0 / 45.0));
        assert!(eq(pass_at_k(7, 10, 3), 1.0 - 1.0 / 120.0));
        assert!(eq(pass_at_k(7, 10, 4), 1.0)); // only 3 failures: 4 tries always hold a pass
        assert!(eq(pass_hat_k(7, 10, 8), 0.0)); // only 7 passes
        // c = 0 and c = n.
        assert!(eq(pass_hat_k(0, 5, 1), 0.0) && eq(pass_at_k(0, 5, 5), 0.0));
        assert!(eq(pass_hat_k(5, 5, 5), 1.0) && eq(pass_at_k(5, 5, 1), 1.0));
        // n = 1.
        assert!(eq(pass_hat_k(1, 1, 1), 1.0) && eq(pass_at_k(0, 1, 1), 0.0));
        // 4 of 5: pass^3 = C(4,3)/C(5,3) = 4/10.
        assert!(eq(pass_hat_k(4, 5, 3), 0.4));
        // k beyond the runs, k = 0, impossible counts: not measured.
        assert_eq!(pass_hat_k(7, 10, 11), None);
        assert_eq!(pass_at_k(7, 10, 11), None);
        assert_eq!(pass_hat_k(1, 1, 0), None);
        assert_eq!(pass_at_k(0, 0, 1), None);
        assert_eq!(pass_hat_k(6, 5, 1), None);
        // Large counts: products of ratios, no overflow.
        assert!(pass_hat_k(u32::MAX - 1, u32::MAX, 5).is_some_and(|p| p < 1.0 && p > 0.99));
    }

    #[test]
    fn reliability_and_its_line() {
        let r = Reliability::of(7, 10, 0.95).unwrap();
        assert_eq!(
            r.pass_hat_k.keys().copied().collect::<Vec<_>>(),
            [1, 2, 3, 4, 5]
        );
        assert_eq!(
            r.to_string(),
            "pass rate 0.70, 95% CI 0.40–0.89; pass^3 0.29"
        );
        let one = Reliability::of(1, 1, 0.95).unwrap();
        assert_eq!(one.to_string(), "pass rate 1.00, 95% CI 0.21–1.00");
        assert_eq!(one.pass_at_k.len(), 1);
        let two = Reliability::of(1, 2, 0.9).unwrap();
        assert_eq!(
            two.to_string(),
            "pass rate 0.50, 90% CI 0.12–0.88; pass^2 0.00"
        );
        assert_eq!(Reliability::of(0, 0, 0.95), None);
        assert_eq!(Reliability::of(1, 2, 0.0), None);
        let json = serde_json::to_value(&r).unwrap();
        let hat2 = json["pass_hat_k"]["2"].as_f64().unwrap();
        assert!((hat2 - 21.0 / 45.0).abs() < 1e-12, "{hat2}");
        assert_eq!(serde_json::from_value::<Reliability>(json).unwrap(), r);
        assert_eq!(percent(0.999), "99.9%");
    }

    #[test]
    fn the_gate_passes_fails_and_refuses_with_numbers() {
        let gate = MinPassRate::from((0.9, 0.95));
        assert_eq!(gate.check(40, 40), Ok(()));
        let below = gate.check(7, 10).unwrap_err();
        assert_eq!(below.kind, PassRateErrorKind::BelowRate);
        assert_eq!(
            below.to_string(),
            "pass rate 7/10 = 0.70, 95% lower bound 0.40 < 0.90 required"
        );
        // 34 of 34 is just short of 0.9 at 95 %, 35 of 35 reaches it.
        assert_eq!(
            gate.check(34, 34).unwrap_err().kind,
            PassRateErrorKind::BelowRate
        );
        assert_eq!(gate.check(35, 35), Ok(()));
        let absent = gate.check(0, 0).unwrap_err();
        assert_eq!(absent.kind, PassRateErrorKind::NotMeasured);
        assert_eq!(
            absent.to_string(),
            "not measured: min_pass_rate = (0.9, 0.95) needs runs, and 0 passes of 0 runs say \
             nothing"
        );
        // More passes than runs (a garbled report) say nothing either.
        assert_eq!(
            gate.check(5, 0).unwrap_err().kind,
            PassRateErrorKind::NotMeasured
        );
        assert_eq!(gate.problem_with(35), None);
        assert!(
            gate.problem_with(34)
                .unwrap()
                .ends_with("it needs repeat = 35 or more")
        );
        for (bad, says) in [
            ((0.0, 0.95), "passes without a single passing run"),
            ((1.0, 0.95), "can never pass"),
            ((1.5, 0.95), "a pass rate is from 0 to 1"),
            ((f64::NAN, 0.95), "a pass rate is from 0 to 1"),
            ((0.9, 0.0), "the confidence must be"),
            ((0.9, 95.0), "the confidence must be"),
        ] {
            let gate = MinPassRate::from(bad);
            let p = gate.problem().unwrap();
            assert!(p.contains(says), "{bad:?}: {p}");
            let err = gate.check(10, 10).unwrap_err();
            assert_eq!(err.kind, PassRateErrorKind::Impossible, "{bad:?}");
            assert_eq!(err.message, p);
            assert_eq!(err.to_string(), format!("impossible constraint: {p}"));
        }
    }
}
