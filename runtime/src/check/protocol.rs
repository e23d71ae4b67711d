//! Checks on the protocol around the reply: HTTP status, latency, token usage.

use crate::model::Part;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{EvalContext, Outcome, Violation};
use crate::model::Usage;
use crate::model::turn_number;

/// A check on the HTTP status of the agent's answers. Build it with [`http_status`] or
/// [`http_success`]. After the turns, every turn must have it. A turn with no status is *not
/// measured*, an error verdict that says why: the agent is a chat model (its HTTP exchanges are
/// with the model endpoint, one per model step, and are not the status of its answer; see
/// [`Reply::chat_model`](crate::model::Reply)), the agent is not reached over HTTP (in
/// process, a trace without a status), or the agent failed (a timeout, a refused connection, an
/// endpoint's error) and gave no answer.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::model::{Reply, Transcript, Turn};
/// let t = Transcript::new(vec![Turn::new(0, "ping", Reply::text("").http_status(503), 1)]);
/// let v = evaluate(&t, &[http_status(200).into_expectation(), http_success().into_expectation()]);
/// assert_eq!(v[0].reason, "HTTP status 503 on turn 1 (expected 200)");
/// assert_eq!(v[1].reason, "HTTP status 503 on turn 1 (expected 2xx)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatusCheck {
    /// Lowest accepted status.
    min: u16,
    /// Highest accepted status.
    max: u16,
}

/// The agent answered with exactly this HTTP status.
///
/// See [`StatusCheck`].
pub fn http_status(status: u16) -> StatusCheck {
    StatusCheck {
        min: status,
        max: status,
    }
}

/// The agent answered with a 2xx HTTP status.
///
/// See [`StatusCheck`].
pub fn http_success() -> StatusCheck {
    StatusCheck { min: 200, max: 299 }
}

impl StatusCheck {
    fn expected(&self) -> String {
        if self.min == self.max {
            self.min.to_string()
        } else if self.min == 200 && self.max == 299 {
            "2xx".to_owned()
        } else {
            format!("{}–{}", self.min, self.max)
        }
    }

    /// One line describing the check.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(http_status(200).describe(), "HTTP status 200");
    /// ```
    pub fn describe(&self) -> String {
        format!("HTTP status {}", self.expected())
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        let mut bad = Vec::new();
        for t in cx.turns() {
            match (t.reply.http_status, &t.error) {
                (None, Some(error)) => {
                    return Outcome::error(format!(
                        "not measured: turn {}: the agent failed ({error}), so there is no HTTP \
                         status",
                        turn_number(t.index)
                    ));
                }
                (None, None) => {
                    let why = match &t.reply.chat_model {
                        // The exchanges with the model endpoint are the agent's own business
                        // (a failed one fails the turn); none of them is the answer's status.
                        Some(model) => format!(
                            "the agent is the chat model `{model}`, whose answers carry no HTTP \
                             status of their own: its HTTP requests go to the model endpoint, \
                             and one that fails fails the turn"
                        ),
                        None => "the agent is not reached over HTTP".to_owned(),
                    };
                    return Outcome::error(format!(
                        "not measured: turn {} has no HTTP status ({why})",
                        turn_number(t.index)
                    ));
                }
                (Some(s), _) if s < self.min || s > self.max => bad.push((t.index, s)),
                (Some(_), _) => {}
            }
        }
        if cx.turns().is_empty() {
            return Outcome::error("no turn ran");
        }
        match bad.first() {
            None => Outcome::passed(),
            Some(&(turn, status)) => Outcome::fail(format!(
                "HTTP status {status} on turn {} (expected {})",
                turn_number(turn),
                self.expected()
            ))
            .expected(json!(self.expected()))
            .actual(json!(bad.iter().map(|(_, s)| s).collect::<Vec<_>>()))
            .violations(
                bad.iter()
                    .map(|(t, s)| Violation::new("status", format!("HTTP {s}")).in_turn(*t)),
            ),
        }
    }
}

/// A check on response time. Build it with [`latency`]. A turn nobody timed (a trace or a
/// recording without a duration) is *not measured*: an error verdict, never a pass.
///
/// ```
/// use agent_test::prelude::*;
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

/// A check on token usage (Mibo's `token_limit`). Build it with [`tokens`]. Usage is what the
/// agent reported, else what the response body or the workflow's AI nodes report (OpenAI,
/// Anthropic, Gemini, LangChain-Gemini and `meta.tokens` shapes, summed across nodes; see
/// [`usage_in`](crate::model::usage_in)); after the turns it is summed over the turns.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::model::{Reply, Transcript, Turn};
/// let reply = Reply::text("").body(json!({"usage": {"prompt_tokens": 3500, "completion_tokens": 1200, "total_tokens": 4700}}));
/// let t = Transcript::new(vec![Turn::new(0, "summarize", reply, 1)]);
/// let v = evaluate(&t, &[tokens().total_at_most(4000).output_at_most(1000).into_expectation()]);
/// assert_eq!(v[0].reason, "token budget exceeded: total 4700 > 4000, output 1200 > 1000");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenCheck {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_total: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_input: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_output: Option<u64>,
}

/// A token budget; set at least one limit with [`TokenCheck::total_at_most`],
/// [`TokenCheck::input_at_most`] or [`TokenCheck::output_at_most`].
///
/// See [`TokenCheck`].
pub fn tokens() -> TokenCheck {
    TokenCheck::default()
}

/// A limit: its name, the maximum, and how to read the count from a usage.
type Limit = (&'static str, u64, fn(&Usage) -> Option<u64>);

impl TokenCheck {
    /// At most `n` tokens in total.
    ///
    /// See [`TokenCheck`].
    pub fn total_at_most(mut self, n: u64) -> Self {
        self.max_total = Some(n);
        self
    }

    /// At most `n` input (prompt) tokens.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(tokens().input_at_most(3000).describe(), "tokens: input ≤ 3000");
    /// ```
    pub fn input_at_most(mut self, n: u64) -> Self {
        self.max_input = Some(n);
        self
    }

    /// At most `n` output (completion) tokens.
    ///
    /// See [`TokenCheck`].
    pub fn output_at_most(mut self, n: u64) -> Self {
        self.max_output = Some(n);
        self
    }

    /// One line describing the check.
    ///
    /// See [`TokenCheck::input_at_most`].
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self
            .limits()
            .iter()
            .map(|(name, max, _)| format!("{name} ≤ {max}"))
            .collect();
        format!("tokens: {}", parts.join(", "))
    }

    fn limits(&self) -> Vec<Limit> {
        let mut out: Vec<Limit> = Vec::new();
        if let Some(m) = self.max_total {
            out.push(("total", m, |u| u.total()));
        }
        if let Some(m) = self.max_input {
            out.push(("input", m, |u| u.input_tokens));
        }
        if let Some(m) = self.max_output {
            out.push(("output", m, |u| u.output_tokens));
        }
        out
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        let limits = self.limits();
        if limits.is_empty() {
            return Outcome::error(
                "compared nothing: a token check needs a limit: total_at_most, input_at_most or \
                 output_at_most",
            );
        }
        let mut usage: Option<Usage> = None;
        let mut unknown = None; // the first turn in scope without usage
        for t in cx.turns() {
            match t.reply.token_usage() {
                Some(u) => usage.get_or_insert_with(Usage::default).add(&u),
                None => unknown = unknown.or(Some(t.index)),
            }
        }
        let Some(usage) = usage else {
            return Outcome::error(
                "not measured: no token usage was recorded (none reported by the agent, its body \
                 or its AI nodes)",
            );
        };
        if let Some(i) = unknown {
            return Outcome::error(format!(
                "not measured: turn {} has no token usage, so the total over the turns is unknown",
                turn_number(i)
            ));
        }
        let mut over = Vec::new();
        for (name, max, get) in &limits {
            match get(&usage) {
                Some(n) if n > *max => over.push(format!("{name} {n} > {max}")),
                Some(_) => {}
                None => {
                    return Outcome::error(format!(
                        "not measured: the usage has no {name} token count"
                    ));
                }
            }
        }
        if over.is_empty() {
            Outcome::passed()
        } else {
            Outcome::fail(format!("token budget exceeded: {}", over.join(", ")))
                .actual(json!(usage))
        }
    }
}

impl super::CheckRules for StatusCheck {
    fn reads(&self) -> &'static [Part] {
        &[]
    }

    /// Why no HTTP status can satisfy the check, if none can: a range whose minimum is above
    /// its maximum, or one outside 100..=599.
    fn problem(&self) -> Option<String> {
        let what = if self.min == self.max {
            format!("http_status({})", self.min)
        } else {
            format!("status range {}–{}", self.min, self.max)
        };
        if self.min > self.max {
            Some(format!(
                "{what} can never pass: the minimum is greater than the maximum"
            ))
        } else if self.max < 100 || self.min > 599 {
            Some(format!(
                "{what} can never pass: an HTTP status is from 100 to 599"
            ))
        } else {
            None
        }
    }
}

impl super::CheckRules for LatencyCheck {
    fn reads(&self) -> &'static [Part] {
        &[]
    }
}

impl super::CheckRules for TokenCheck {
    fn reads(&self) -> &'static [Part] {
        &[Part::Usage]
    }
}
