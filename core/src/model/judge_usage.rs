//! What the judge cost a run, reported apart from the agent's own usage.

use serde::{Deserialize, Serialize};

use crate::model::Usage;

/// The judge's work for one run: requests made, checks graded, how many came from the cache,
/// tokens, and the cost when prices are set (`Judge::price_per_million_tokens`).
///
/// ```
/// use agent_test::judge::JudgeUsage;
/// let u = JudgeUsage { model: "openai:gpt-4o-mini".into(), requests: 1, checks: 3, cached: 1, input_tokens: 900, output_tokens: 120, cost_usd: None };
/// assert_eq!(u.to_string(), "judge openai:gpt-4o-mini: 3 checks, 1 from the cache, 1 request, 900 input + 120 output tokens");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JudgeUsage {
    /// The judge model's id.
    pub model: String,
    /// Requests sent (retries included).
    pub requests: u32,
    /// Checks graded.
    pub checks: u32,
    /// Of which answered from the cache.
    pub cached: u32,
    /// Input tokens over all requests.
    pub input_tokens: u64,
    /// Output tokens over all requests.
    pub output_tokens: u64,
    /// The cost in US dollars, when prices are known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
}

impl JudgeUsage {
    /// Adds another usage of the same judge.
    #[doc(hidden)]
    pub fn merge(&mut self, other: &JudgeUsage) {
        if self.model.is_empty() {
            self.model.clone_from(&other.model);
        }
        self.requests = self.requests.saturating_add(other.requests);
        self.checks = self.checks.saturating_add(other.checks);
        self.cached = self.cached.saturating_add(other.cached);
        self.input_tokens = self.input_tokens.saturating_add(other.input_tokens);
        self.output_tokens = self.output_tokens.saturating_add(other.output_tokens);
        self.cost_usd = match (self.cost_usd, other.cost_usd) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
    }

    #[doc(hidden)]
    pub fn add_tokens(&mut self, usage: Option<Usage>) {
        if let Some(u) = usage {
            self.input_tokens = self
                .input_tokens
                .saturating_add(u.input_tokens.unwrap_or(0));
            self.output_tokens = self
                .output_tokens
                .saturating_add(u.output_tokens.unwrap_or(0));
        }
    }

    #[doc(hidden)]
    pub fn price(&mut self, price: Option<(f64, f64)>) {
        self.cost_usd = price.map(|(i, o)| {
            (self.input_tokens as f64 * i + self.output_tokens as f64 * o) / 1_000_000.0
        });
    }
}

impl std::fmt::Display for JudgeUsage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plural =
            |n: u32, word: &str| format!("{n} {word}{}", crate::util::text::plural(n as usize));
        write!(
            f,
            "judge {}: {}, {} from the cache, {}, {} input + {} output tokens",
            self.model,
            plural(self.checks, "check"),
            self.cached,
            plural(self.requests, "request"),
            self.input_tokens,
            self.output_tokens
        )?;
        if let Some(c) = self.cost_usd {
            write!(f, ", ${c:.4}")?;
        }
        Ok(())
    }
}
