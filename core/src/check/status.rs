//! A check on the HTTP status of the agent's answers.

use agent_test_vocabulary::Kind;
use crate::model::Part;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{Outcome, Violation};
use crate::evaluate::context::EvalContext;
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
/// use agent_test::evaluate;
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

impl super::CheckRules for StatusCheck {
    const KIND: Kind = Kind::new(
        "http_status",
        "the HTTP status of the agent's answer",
    );

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![http_status(200).into_expectation()]
    }

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
