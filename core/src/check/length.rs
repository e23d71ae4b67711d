//! The length of a text: the reply (or every reply, the conversation, a node's output) within
//! a minimum and a maximum number of characters.

use agent_test_vocabulary::Kind;
use crate::model::Part;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::text::TextSource;
use super::Outcome;
use crate::evaluate::context::EvalContext;

/// What a [`LengthCheck`] counts.
///
/// ```
/// use agent_test::check::LengthUnit;
/// assert_eq!(LengthUnit::default(), LengthUnit::Chars);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum LengthUnit {
    /// Characters (Unicode scalar values): `é` is one.
    #[default]
    Chars,
    /// UTF-8 bytes, as Go's `len()` counts a string (PromptKit's `min_length` / `max_length`):
    /// `é` is two.
    Bytes,
}

impl LengthUnit {
    fn noun(self, n: usize) -> &'static str {
        match (self, n) {
            (LengthUnit::Chars, 1) => "character",
            (LengthUnit::Chars, _) => "characters",
            (LengthUnit::Bytes, 1) => "byte",
            (LengthUnit::Bytes, _) => "bytes",
        }
    }
}

/// The length of a text, selected by [`Text::length`](super::Text::length); finish with
/// [`Length::at_least`], [`Length::at_most`] or [`Length::between`].
#[derive(Clone, Debug)]
pub struct Length {
    source: TextSource,
}

impl Length {
    pub(crate) fn of(source: TextSource) -> Self {
        Length { source }
    }

    fn check(self, min: Option<usize>, max: Option<usize>) -> LengthCheck {
        LengthCheck {
            source: self.source,
            min,
            max,
            unit: LengthUnit::Chars,
            trim: false,
        }
    }

    /// At least `n` characters.
    ///
    /// See [`LengthCheck`].
    pub fn at_least(self, n: usize) -> LengthCheck {
        self.check(Some(n), None)
    }

    /// At most `n` characters.
    ///
    /// See [`LengthCheck`].
    pub fn at_most(self, n: usize) -> LengthCheck {
        self.check(None, Some(n))
    }

    /// Between `min` and `max` characters, inclusive.
    ///
    /// See [`LengthCheck`].
    pub fn between(self, min: usize, max: usize) -> LengthCheck {
        self.check(Some(min), Some(max))
    }
}

/// A check on the length of a text: the reply's in a turn, the final reply's after the turns
/// (or every reply's, the conversation's, a node output's — the sources of [`reply`](super::reply)
/// and its siblings). Characters are Unicode scalar values; [`LengthCheck::in_bytes`] counts
/// UTF-8 bytes instead. Nothing is trimmed unless [`LengthCheck::trimmed`].
///
/// A length check with no bound that can fail — `at_least(0)` alone — compares nothing (an
/// error verdict); a minimum above the maximum can never pass (an impossible constraint).
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Reply, Transcript, Turn};
/// let t = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello, how can I help?"), 1)]);
/// let v = evaluate(&t, &[
///     reply().length().between(5, 100).into_expectation(),
///     reply().length().at_least(30).into_expectation(),
///     reply().length().at_most(10).into_expectation(),
/// ]);
/// assert_eq!(v[0].status, Status::Pass);
/// assert_eq!(v[1].reason, "reply has 22 characters (expected at least 30 characters)");
/// assert_eq!(v[2].reason, "reply has 22 characters (expected at most 10 characters)");
/// assert_eq!(reply().length().between(5, 100).describe(), "reply is between 5 and 100 characters long");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LengthCheck {
    source: TextSource,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    min: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max: Option<usize>,
    #[serde(default, skip_serializing_if = "is_chars")]
    unit: LengthUnit,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    trim: bool,
}

fn is_chars(u: &LengthUnit) -> bool {
    *u == LengthUnit::Chars
}

impl LengthCheck {
    /// Also require at least `n` (after [`Length::at_most`]).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(reply().length().at_most(9).at_least(2).describe(), "reply is between 2 and 9 characters long");
    /// ```
    pub fn at_least(mut self, n: usize) -> Self {
        self.min = Some(n);
        self
    }

    /// Also require at most `n` (after [`Length::at_least`]).
    ///
    /// See [`LengthCheck::at_least`].
    pub fn at_most(mut self, n: usize) -> Self {
        self.max = Some(n);
        self
    }

    /// Count UTF-8 bytes instead of characters (PromptKit's rule: Go's `len()`).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// # use agent_test::evaluate;
    /// # use agent_test::check::Status;
    /// use agent_test::model::{Reply, Transcript, Turn};
    /// let t = Transcript::new(vec![Turn::new(0, "hi", Reply::text("café"), 1)]);
    /// let v = evaluate(&t, &[
    ///     reply().length().at_most(4).into_expectation(),
    ///     reply().length().at_most(4).in_bytes().into_expectation(),
    /// ]);
    /// assert_eq!(v[0].status, Status::Pass);
    /// assert_eq!(v[1].reason, "reply has 5 bytes (expected at most 4 bytes)");
    /// ```
    pub fn in_bytes(mut self) -> Self {
        self.unit = LengthUnit::Bytes;
        self
    }

    /// Trim surrounding whitespace before counting.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = reply().length().at_most(280).trimmed();
    /// # let _ = c;
    /// ```
    pub fn trimmed(mut self) -> Self {
        self.trim = true;
        self
    }

    fn bounds(&self) -> String {
        let unit = |n| self.unit.noun(n);
        match (self.min, self.max) {
            (Some(a), Some(b)) => format!("between {a} and {b} {}", unit(b)),
            (Some(a), None) => format!("at least {a} {}", unit(a)),
            (None, Some(b)) => format!("at most {b} {}", unit(b)),
            (None, None) => "of any length".to_owned(),
        }
    }

    /// One line describing the check.
    ///
    /// See the type's example.
    pub fn describe(&self) -> String {
        let trimmed = if self.trim { " (trimmed)" } else { "" };
        format!("{} is {} long{trimmed}", self.source, self.bounds())
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        match (self.min, self.max) {
            (None, None) => {
                return Outcome::error(
                    "compared nothing: a length check needs a bound: at_least, at_most or between",
                );
            }
            (Some(0), None) => {
                return Outcome::error(format!(
                    "compared nothing: at least 0 {} is always true",
                    self.unit.noun(0)
                ));
            }
            _ => {}
        }
        if self.source == TextSource::Reply
            && let Some(e) = cx.failed_reply()
        {
            return Outcome::error(e);
        }
        let text = match self.source.read(cx) {
            Ok(t) => t,
            Err(e) => return Outcome::fail(format!("{} length: {e}", self.source)),
        };
        let text = if self.trim { text.trim() } else { &text };
        let n = match self.unit {
            LengthUnit::Chars => text.chars().count(),
            LengthUnit::Bytes => text.len(),
        };
        let ok = self.min.is_none_or(|m| n >= m) && self.max.is_none_or(|m| n <= m);
        if ok {
            return Outcome::passed();
        }
        Outcome::fail(format!(
            "{} has {n} {} (expected {})",
            self.source,
            self.unit.noun(n),
            self.bounds()
        ))
        .expected(json!({"min": self.min, "max": self.max, "unit": self.unit}))
        .actual(json!(n))
    }
}

impl super::CheckRules for LengthCheck {
    const KIND: Kind = Kind::new(
        "length",
        "the length of a text (`reply().length()`), in characters or bytes",
    );

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![
            reply()
                .length()
                .between(1, 5)
                .in_bytes()
                .trimmed()
                .into_expectation(),
        ]
    }

    fn reads(&self) -> &'static [Part] {
        self.source.reads()
    }

    /// A minimum above the maximum can never pass.
    fn problem(&self) -> Option<String> {
        match (self.min, self.max) {
            (Some(a), Some(b)) if a > b => Some(format!(
                "a length between {a} and {b} can never be: the minimum is greater than the maximum"
            )),
            _ => None,
        }
    }

    /// A maximum over several turns' text rests on text not written on a failed turn.
    fn claims_absence(&self) -> bool {
        self.max.is_some() && matches!(self.source, TextSource::Replies | TextSource::Conversation)
    }
}
