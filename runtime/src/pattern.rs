//! A regular expression compiled once, on first use.

use std::fmt;
use std::sync::{Arc, OnceLock};

use regex::{Regex, RegexBuilder};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A regular expression in Rust `regex` syntax (RE2 family: linear time, no look-around or
/// back-references), compiled once, when first used: loading a suite of thousands of checks
/// compiles nothing, and a prepared evaluator compiles each pattern once for all transcripts.
///
/// An invalid pattern is not a panic: it is kept with its error, and the check that uses it
/// reports an *error* verdict naming the problem. Literal patterns inside `agent_test!` are
/// validated at compile time instead.
///
/// Serialises as the pattern source.
///
/// ```
/// use agent_test_runtime::matcher::Pattern;
/// let p = Pattern::new(r"ORD-\d{4}");
/// assert!(p.regex().unwrap().is_match("order ORD-9921"));
/// assert!(Pattern::new("(unclosed").regex().is_err());
/// ```
#[derive(Clone)]
pub struct Pattern {
    source: String,
    case_insensitive: bool,
    /// Shared by clones, so a pattern cloned before its first use still compiles once.
    compiled: Arc<OnceLock<Result<Regex, String>>>,
    /// Whether the pattern finds a match in every text, worked out on first use.
    everywhere: Arc<OnceLock<bool>>,
}

impl Pattern {
    /// The pattern `source`, case-sensitive unless it starts with `(?i)` (compiled on first
    /// use).
    ///
    /// See the type's example.
    pub fn new(source: impl Into<String>) -> Self {
        Self::build(source.into(), false)
    }

    /// The pattern `source`, matched case-insensitively (compiled on first use).
    ///
    /// ```
    /// # use agent_test_runtime::matcher::Pattern;
    /// assert!(Pattern::case_insensitive("refund").regex().unwrap().is_match("REFUND"));
    /// ```
    pub fn case_insensitive(source: impl Into<String>) -> Self {
        Self::build(source.into(), true)
    }

    /// A pattern matching `literal` exactly (escaped), optionally anchored and case-insensitive.
    pub(crate) fn literal(literal: &str, anchor: Anchor, case_insensitive: bool) -> Self {
        let escaped = regex::escape(literal);
        let source = match anchor {
            Anchor::None => escaped,
            Anchor::Start => format!(r"\A(?:{escaped})"),
            Anchor::End => format!(r"(?:{escaped})\z"),
            Anchor::Both => format!(r"\A(?:{escaped})\z"),
        };
        Self::build(source, case_insensitive)
    }

    fn build(source: String, case_insensitive: bool) -> Self {
        Pattern {
            source,
            case_insensitive,
            compiled: Arc::default(),
            everywhere: Arc::default(),
        }
    }

    /// The pattern as written.
    ///
    /// ```
    /// # use agent_test_runtime::matcher::Pattern;
    /// assert_eq!(Pattern::new("a+").source(), "a+");
    /// ```
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether the pattern was compiled case-insensitively (besides any inline `(?i)`).
    ///
    /// ```
    /// # use agent_test_runtime::matcher::Pattern;
    /// assert!(!Pattern::new("a").is_case_insensitive());
    /// ```
    pub fn is_case_insensitive(&self) -> bool {
        self.case_insensitive
    }

    /// The compiled regex, or why the pattern is invalid.
    ///
    /// See the type's example.
    pub fn regex(&self) -> Result<&Regex, &str> {
        self.compiled
            .get_or_init(|| {
                RegexBuilder::new(&self.source)
                    .case_insensitive(self.case_insensitive)
                    .build()
                    .map_err(|e| {
                        format!(
                            "invalid regex `{}`: {}",
                            self.source,
                            one_line(&e.to_string())
                        )
                    })
            })
            .as_ref()
            .map_err(String::as_str)
    }

    /// Whether the pattern finds a match in every text, so that a check with it compares
    /// nothing: it matches the empty string without any assertion (`^`, `$`, `\b`, ...) that
    /// could fail, as `""`, `x*`, `(a)?` or `a|` do. `^$` and `\b` are not such patterns.
    /// False for an invalid pattern (that is an error of its own).
    ///
    /// ```
    /// # use agent_test_runtime::matcher::Pattern;
    /// assert!(Pattern::new("(refund)?").matches_everything());
    /// assert!(!Pattern::new("^$").matches_everything());
    /// assert!(!Pattern::new("refund").matches_everything());
    /// ```
    pub fn matches_everything(&self) -> bool {
        *self.everywhere.get_or_init(|| {
            regex_syntax::ParserBuilder::new()
                .case_insensitive(self.case_insensitive)
                .build()
                .parse(&self.source)
                .is_ok_and(|hir| {
                    let p = hir.properties();
                    p.minimum_len() == Some(0) && p.look_set().is_empty()
                })
        })
    }

    /// The same pattern compiled with the given case sensitivity.
    pub(crate) fn with_case_insensitive(&self, yes: bool) -> Self {
        if yes == self.case_insensitive {
            self.clone()
        } else {
            Self::build(self.source.clone(), yes)
        }
    }
}

/// Where a literal pattern is anchored.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Anchor {
    None,
    Start,
    End,
    Both,
}

/// `regex` errors are multi-line drawings; reports want them on one line.
fn one_line(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pattern({:?})", self.source)
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source && self.case_insensitive == other.case_insensitive
    }
}

impl Serialize for Pattern {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.source)
    }
}

impl<'de> Deserialize<'de> for Pattern {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Pattern::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_anchors_and_case() {
        let p = Pattern::literal("a.b", Anchor::Both, true);
        let re = p.regex().unwrap();
        assert!(re.is_match("A.B"));
        assert!(!re.is_match("axb"));
        assert!(!re.is_match(" a.b"));
        let s = Pattern::literal("Hello", Anchor::Start, false);
        assert!(s.regex().unwrap().is_match("Hello world"));
        assert!(!s.regex().unwrap().is_match("hello world"));
        let e = Pattern::literal("thanks!", Anchor::End, true);
        assert!(e.regex().unwrap().is_match("Many THANKS!"));
        assert!(!e.regex().unwrap().is_match("thanks!\n"));
    }

    #[test]
    fn invalid_pattern_keeps_one_line_error() {
        let err = Pattern::new("a(").regex().unwrap_err().to_owned();
        assert!(err.starts_with("invalid regex `a(`:"), "{err}");
        assert!(!err.contains('\n'));
    }
}
