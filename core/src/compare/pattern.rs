//! A regular expression compiled on first use, once per process.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use regex::{Regex, RegexBuilder};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A regular expression in Rust `regex` syntax (RE2 family: linear time, no look-around or
/// back-references), compiled when first used and once per process: patterns are interned by
/// source and case flag, so ten thousand scenarios that each check `\bORD-\d{6}\b` compile it
/// once and share it, with its match caches. Loading a suite of thousands of checks compiles
/// nothing.
///
/// An invalid pattern is not a panic: it is kept with its error, and the check that uses it
/// reports an *error* verdict naming the problem. Literal patterns inside `agent_test!` are
/// validated at compile time instead.
///
/// Serialises as the pattern source.
///
/// ```
/// use agent_test::matcher::Pattern;
/// let p = Pattern::new(r"ORD-\d{4}");
/// assert!(p.regex().unwrap().is_match("order ORD-9921"));
/// assert!(Pattern::new("(unclosed").regex().is_err());
/// ```
#[derive(Clone)]
pub struct Pattern {
    source: String,
    case_insensitive: bool,
    /// The interned compilation, fetched on first use.
    compiled: OnceLock<Arc<Compiled>>,
}

/// A pattern compiled, shared by every [`Pattern`] with the same source and case flag (and so
/// are the regex's match caches).
struct Compiled {
    regex: Result<Regex, String>,
    /// Whether the pattern finds a match in every text, worked out on first use.
    everywhere: OnceLock<bool>,
}

/// How many compiled patterns the process keeps. A suite rarely has more distinct patterns;
/// past it, the table starts again (patterns still held by checks stay compiled), so memory
/// stays bounded however many scenarios a run reads.
const INTERNED_MAX: usize = 4096;

/// The compiled pattern of `source` with the case flag, from the process-wide table.
fn intern(source: &str, case_insensitive: bool) -> Arc<Compiled> {
    type Table = HashMap<(Box<str>, bool), Arc<Compiled>>;
    static TABLE: OnceLock<Mutex<Table>> = OnceLock::new();
    let table = TABLE.get_or_init(Mutex::default);
    let key = (Box::<str>::from(source), case_insensitive);
    if let Some(c) = table.lock().ok().and_then(|t| t.get(&key).cloned()) {
        return c;
    }
    // Compiled outside the lock: a thread compiling another pattern need not wait.
    let compiled = Arc::new(Compiled {
        regex: RegexBuilder::new(source)
            .case_insensitive(case_insensitive)
            .build()
            .map_err(|e| format!("invalid regex `{source}`: {}", one_line(&e.to_string()))),
        everywhere: OnceLock::new(),
    });
    match table.lock() {
        Ok(mut t) => {
            if t.len() >= INTERNED_MAX {
                t.clear();
            }
            // Two threads may have compiled the same pattern at once: the first one in stays.
            t.entry(key).or_insert(compiled).clone()
        }
        Err(_) => compiled,
    }
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
    /// # use agent_test::matcher::Pattern;
    /// assert!(Pattern::case_insensitive("refund").regex().unwrap().is_match("REFUND"));
    /// ```
    pub fn case_insensitive(source: impl Into<String>) -> Self {
        Self::build(source.into(), true)
    }

    fn build(source: String, case_insensitive: bool) -> Self {
        Pattern {
            source,
            case_insensitive,
            compiled: OnceLock::new(),
        }
    }

    /// The pattern as written.
    ///
    /// ```
    /// # use agent_test::matcher::Pattern;
    /// assert_eq!(Pattern::new("a+").source(), "a+");
    /// ```
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether the pattern was compiled case-insensitively (besides any inline `(?i)`).
    ///
    /// ```
    /// # use agent_test::matcher::Pattern;
    /// assert!(!Pattern::new("a").is_case_insensitive());
    /// ```
    pub fn is_case_insensitive(&self) -> bool {
        self.case_insensitive
    }

    /// The compiled regex, or why the pattern is invalid.
    ///
    /// See the type's example.
    pub fn regex(&self) -> Result<&Regex, &str> {
        self.compiled().regex.as_ref().map_err(String::as_str)
    }

    fn compiled(&self) -> &Compiled {
        self.compiled
            .get_or_init(|| intern(&self.source, self.case_insensitive))
    }

    /// Whether the pattern finds a match in every text, so that a check with it compares
    /// nothing: it matches the empty string without any assertion (`^`, `$`, `\b`, ...) that
    /// could fail, as `""`, `x*`, `(a)?` or `a|` do. `^$` and `\b` are not such patterns.
    /// False for an invalid pattern (that is an error of its own).
    ///
    /// ```
    /// # use agent_test::matcher::Pattern;
    /// assert!(Pattern::new("(refund)?").matches_everything());
    /// assert!(!Pattern::new("^$").matches_everything());
    /// assert!(!Pattern::new("refund").matches_everything());
    /// ```
    pub fn matches_everything(&self) -> bool {
        *self.compiled().everywhere.get_or_init(|| {
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
    fn the_same_pattern_compiles_once() {
        let (a, b) = (
            Pattern::new(r"\bORD-\d{6}\b"),
            Pattern::new(r"\bORD-\d{6}\b"),
        );
        assert!(std::ptr::eq(a.regex().unwrap(), b.regex().unwrap()));
        let c = Pattern::case_insensitive(r"\bORD-\d{6}\b");
        assert!(!std::ptr::eq(a.regex().unwrap(), c.regex().unwrap()));
        assert!(c.regex().unwrap().is_match("ord-123456"));
        assert!(!a.regex().unwrap().is_match("ord-123456"));
    }

    #[test]
    fn invalid_pattern_keeps_one_line_error() {
        let err = Pattern::new("a(").regex().unwrap_err().to_owned();
        assert!(err.starts_with("invalid regex `a(`:"), "{err}");
        assert!(!err.contains('\n'));
    }
}
