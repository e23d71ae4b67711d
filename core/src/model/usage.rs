//! Token usage of a turn.

// Counts come from outside (providers, traces, recordings): sums saturate, never overflow.
#![deny(clippy::arithmetic_side_effects)]

use serde::{Deserialize, Serialize};

/// Tokens the agent's model consumed, as reported by the provider.
///
/// Any part may be unknown. [`Usage::total`] falls back to `input + output` when the provider
/// gave no total.
///
/// ```
/// use agent_test::model::Usage;
/// let u = Usage::new(120, 80);
/// assert_eq!(u.total(), Some(200));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Usage {
    /// Prompt / input tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    /// Completion / output tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    /// Total tokens, when the provider states it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_tokens: Option<u64>,
}

impl Usage {
    /// Usage with known input and output counts.
    ///
    /// ```
    /// # use agent_test::model::Usage;
    /// assert_eq!(Usage::new(1, 2).output_tokens, Some(2));
    /// ```
    pub fn new(input_tokens: u64, output_tokens: u64) -> Self {
        Usage {
            input_tokens: Some(input_tokens),
            output_tokens: Some(output_tokens),
            total_tokens: None,
        }
    }

    /// Usage from the counts a trace or a provider states, each known or not.
    ///
    /// ```
    /// # use agent_test::model::Usage;
    /// let u = Usage::counted(Some(12), None, Some(20));
    /// assert_eq!((u.input_tokens, u.output_tokens, u.total()), (Some(12), None, Some(20)));
    /// ```
    pub fn counted(
        input_tokens: Option<u64>,
        output_tokens: Option<u64>,
        total_tokens: Option<u64>,
    ) -> Self {
        Usage {
            input_tokens,
            output_tokens,
            total_tokens,
        }
    }

    /// The usage with the total the provider states (some state only a total).
    ///
    /// ```
    /// # use agent_test::model::Usage;
    /// let u = Usage::default().with_total(7);
    /// assert_eq!((u.input_tokens, u.total()), (None, Some(7)));
    /// ```
    pub fn with_total(mut self, total_tokens: u64) -> Self {
        self.total_tokens = Some(total_tokens);
        self
    }

    /// The total: the stated total, else input + output when either is known.
    ///
    /// ```
    /// # use agent_test::model::Usage;
    /// assert_eq!(Usage::default().total(), None);
    /// assert_eq!(Usage::default().with_total(7).total(), Some(7));
    /// // Sums saturate: a count this large exceeds every limit anyway.
    /// assert_eq!(Usage::new(u64::MAX, 1).total(), Some(u64::MAX));
    /// ```
    pub fn total(&self) -> Option<u64> {
        match (self.total_tokens, self.input_tokens, self.output_tokens) {
            (Some(t), _, _) => Some(t),
            (None, None, None) => None,
            (None, i, o) => Some(i.unwrap_or(0).saturating_add(o.unwrap_or(0))),
        }
    }

    /// Adds another usage to this one (for summing across model calls or turns).
    ///
    /// ```
    /// # use agent_test::model::Usage;
    /// let mut u = Usage::new(10, 5);
    /// u.add(&Usage::new(1, 1));
    /// assert_eq!((u.input_tokens, u.output_tokens, u.total()), (Some(11), Some(6), Some(17)));
    /// u.add(&Usage::new(u64::MAX, 0));
    /// assert_eq!((u.input_tokens, u.total()), (Some(u64::MAX), Some(u64::MAX)));
    /// ```
    pub fn add(&mut self, other: &Usage) {
        fn sum(a: Option<u64>, b: Option<u64>) -> Option<u64> {
            match (a, b) {
                (None, None) => None,
                (a, b) => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
            }
        }
        let total = sum(self.total(), other.total());
        self.input_tokens = sum(self.input_tokens, other.input_tokens);
        self.output_tokens = sum(self.output_tokens, other.output_tokens);
        self.total_tokens = total;
    }
}
