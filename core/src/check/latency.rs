//! A check on response time.

use agent_test_vocabulary::Kind;
use crate::model::Part;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{Outcome, Violation};
use crate::evaluate::context::EvalContext;
use crate::model::turn_number;

/// A check on response time. Build it with [`latency`]. A turn nobody timed (a trace or a
/// recording without a duration) is *not measured*: an error verdict, never a pass.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Reply, Transcript, Turn};
/// use std::time::Duration;
/// let budget = || latency().at_most(Duration::from_secs(3)).into_expectation();
/// let t = Transcript::new(vec![Turn::new(0, "q", Reply::text(""), 4200)]);
/// assert_eq!(evaluate(&t, &[budget()])[0].reason, "turn 1 took 4200 ms (at most 3000 ms)");
/// let trace = Transcript::new(vec![Turn::recorded(0, "q", Reply::text(""))]);
/// let v = evaluate(&trace, &[budget()]);
/// assert_eq!(v[0].status, Status::Error);
/// assert_eq!(v[0].reason, "not measured: turn 1 has no latency (a recording or trace without a duration)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LatencyCheck {
    max_ms: u64,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    total: bool,
}

/// Selects response time; finish with [`Latency::at_most`]. After the turns every turn must be
/// within the bound, unless [`LatencyCheck::total`] asks for the sum.
///
/// See [`LatencyCheck`].
pub fn latency() -> Latency {
    Latency
}

/// Response time, selected by [`latency`].
#[derive(Clone, Copy, Debug)]
pub struct Latency;

impl Latency {
    /// At most this long.
    ///
    /// See [`LatencyCheck`].
    pub fn at_most(self, max: Duration) -> LatencyCheck {
        LatencyCheck {
            max_ms: u64::try_from(max.as_millis()).unwrap_or(u64::MAX),
            total: false,
        }
    }
}

impl LatencyCheck {
    /// Bound the sum of the turns' times instead of each turn's.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = latency().at_most(std::time::Duration::from_secs(20)).total();
    /// assert_eq!(c.describe(), "total response time at most 20000 ms");
    /// ```
    pub fn total(mut self) -> Self {
        self.total = true;
        self
    }

    /// One line describing the check.
    ///
    /// See [`LatencyCheck::total`].
    pub fn describe(&self) -> String {
        format!(
            "{}response time at most {} ms",
            if self.total { "total " } else { "" },
            self.max_ms
        )
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        let turns = cx.turns();
        if turns.is_empty() {
            return Outcome::error("no turn ran");
        }
        // Every turn in scope needs a figure: an unknown time is not 0 ms.
        let mut times = Vec::with_capacity(turns.len());
        for t in turns {
            match t.latency_ms {
                Some(ms) => times.push((t.index, ms)),
                None => {
                    return Outcome::error(format!(
                        "not measured: turn {} has no latency (a recording or trace without a \
                         duration)",
                        turn_number(t.index)
                    ));
                }
            }
        }
        if self.total {
            let sum: u64 = times.iter().map(|&(_, ms)| ms).fold(0, u64::saturating_add);
            return if sum <= self.max_ms {
                Outcome::passed()
            } else {
                Outcome::fail(format!(
                    "the turns took {sum} ms in total (at most {} ms)",
                    self.max_ms
                ))
                .actual(json!(sum))
            };
        }
        let slow: Vec<(usize, u64)> = times
            .iter()
            .copied()
            .filter(|&(_, ms)| ms > self.max_ms)
            .collect();
        match slow.first() {
            None => Outcome::passed(),
            Some(&(index, ms)) => Outcome::fail(format!(
                "turn {} took {ms} ms (at most {} ms)",
                turn_number(index),
                self.max_ms
            ))
            .expected(json!(self.max_ms))
            .actual(json!(times.iter().map(|&(_, ms)| ms).collect::<Vec<_>>()))
            .violations(
                slow.iter()
                    .map(|&(t, ms)| Violation::new("slow_turn", format!("{ms} ms")).in_turn(t)),
            ),
        }
    }
}

impl super::CheckRules for LatencyCheck {
    const KIND: Kind = Kind::new(
        "latency",
        "the time a turn (or the conversation) took",
    );

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        use std::time::Duration;
        vec![
            latency()
                .at_most(Duration::from_secs(1))
                .total()
                .into_expectation(),
        ]
    }

    fn reads(&self) -> &'static [Part] {
        &[]
    }
}
