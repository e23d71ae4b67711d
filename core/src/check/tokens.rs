//! A check on token usage.

use agent_test_vocabulary::Kind;
use crate::model::Part;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::Outcome;
use crate::evaluate::context::EvalContext;
use crate::model::Usage;
use crate::model::turn_number;

/// A check on token usage (Mibo's `token_limit`). Build it with [`tokens`]. Usage is what the
/// agent reported, else what the response body or the workflow's AI nodes report (OpenAI,
/// Anthropic, Gemini, LangChain-Gemini and `meta.tokens` shapes, summed across nodes; see
/// [`usage_in`](crate::model::usage_in)); after the turns it is summed over the turns.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
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

impl super::CheckRules for TokenCheck {
    const KIND: Kind = Kind::new(
        "tokens",
        "token usage: input, output, total",
    );

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![
            tokens()
                .total_at_most(1)
                .input_at_most(2)
                .output_at_most(3)
                .into_expectation(),
        ]
    }

    fn reads(&self) -> &'static [Part] {
        &[Part::Usage]
    }
}
