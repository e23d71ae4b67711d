//! How many matching calls a check requires.

use serde::{Deserialize, Serialize};

/// How many matching calls a [`ToolCheck`](crate::check::ToolCheck) requires.
///
/// ```
/// use agent_test::check::Count;
/// assert!(Count::AtLeast(1).admits(3));
/// assert!(!Count::Exactly(0).admits(1));
/// assert_eq!(Count::Between(1, 2).to_string(), "between 1 and 2 times");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", remote = "Self")]
#[non_exhaustive]
pub enum Count {
    /// Exactly this many.
    Exactly(usize),
    /// At least this many.
    AtLeast(usize),
    /// At most this many.
    AtMost(usize),
    /// Between the two, inclusive.
    Between(usize, usize),
}

crate::util::json::one_key_enum!(Count, ["exactly", "at_least", "at_most", "between"]);

impl Count {
    /// Whether `n` calls satisfy the rule.
    ///
    /// See the type's example.
    pub fn admits(self, n: usize) -> bool {
        match self {
            Count::Exactly(k) => n == k,
            Count::AtLeast(k) => n >= k,
            Count::AtMost(k) => n <= k,
            Count::Between(a, b) => a <= n && n <= b,
        }
    }
}

impl Count {
    /// Why no number of calls can satisfy the rule, if none can (`between(5, 1)`).
    ///
    /// ```
    /// use agent_test::check::Count;
    /// assert_eq!(Count::Between(5, 1).problem().unwrap(),
    ///            "between(5, 1) can never pass: the minimum is greater than the maximum");
    /// assert!(Count::Between(1, 1).problem().is_none());
    /// ```
    pub fn problem(self) -> Option<String> {
        match self {
            Count::Between(a, b) if a > b => Some(format!(
                "between({a}, {b}) can never pass: the minimum is greater than the maximum"
            )),
            _ => None,
        }
    }
}

impl Default for Count {
    fn default() -> Self {
        Count::AtLeast(1)
    }
}

impl std::fmt::Display for Count {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Count::Exactly(k) => write!(f, "exactly {}", times(k)),
            Count::AtLeast(k) => write!(f, "at least {}", times(k)),
            Count::AtMost(k) => write!(f, "at most {}", times(k)),
            Count::Between(a, b) => write!(f, "between {a} and {b} times"),
        }
    }
}

/// `1 time`, `3 times`.
pub(crate) fn times(n: usize) -> String {
    if n == 1 {
        "1 time".to_owned()
    } else {
        format!("{n} times")
    }
}
