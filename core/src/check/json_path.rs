//! Checks with RFC 9535 JSONPath queries ([`JsonPathCheck`]), and the compiled query they
//! hold.

use agent_test_vocabulary::{Arg, Kind, Word};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Value, json};

use super::json_source::{JsonSource, JsonSourceOptions};
use super::{Outcome, Violation};
use crate::evaluate::context::EvalContext;
use crate::matcher::json_eq;
use crate::model::Part;

/// What a [`JsonPathCheck`] requires of the selected values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", remote = "Self")]
#[non_exhaustive]
pub enum JsonPathExpect {
    /// At least one value is selected.
    Exists,
    /// Nothing is selected.
    NotExists,
    /// Some selected value equals this (JSON equality, no `"42"`/`42` coercion).
    Equals(Value),
}

crate::util::json::one_key_enum!(JsonPathExpect, ["exists", "not_exists", "equals"]);

/// A check with an RFC 9535 JSONPath query on the JSON response (MCPLab's `jsonpath`,
/// `jsonpath_exists`, `jsonpath_not_exists`). Build it with [`json_path`]. A response that is
/// not JSON fails every JSONPath check, `not_exists` included, with an "invalid JSON" reason.
/// Needs the `jsonpath` feature (on by default).
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Reply, Transcript, Turn};
///
/// let t = Transcript::new(vec![Turn::new(0, "q", Reply::text(r#"{"status": "success", "data": {"id": 7}}"#), 1)]);
/// let v = evaluate(&t, &[
///     json_path("$.data.id").exists().into_expectation(),
///     json_path("$.status").equals("success").into_expectation(),
///     json_path("$.error").not_exists().into_expectation(),
///     json_path("$.status").equals("failed").into_expectation(),
/// ]);
/// assert_eq!(v[0].status, Status::Pass);
/// assert_eq!(v[1].status, Status::Pass);
/// assert_eq!(v[2].status, Status::Pass);
/// assert_eq!(v[3].reason, r#"$.status selects ["success"], none equal to "failed""#);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JsonPathCheck {
    path: JsonPathQuery,
    expect: JsonPathExpect,
    #[serde(default)]
    source: JsonSource,
}

/// Selects values of the JSON response with an RFC 9535 JSONPath query (`$.data.items[*].id`);
/// finish with [`JsonPath::exists`], [`JsonPath::not_exists`] or [`JsonPath::equals`]. A literal
/// query in `agent_test!` is checked at compile time.
///
/// ```
/// use agent_test::prelude::*;
/// assert_eq!(json_path("$.status").equals("success").describe(),
///            r#"$.status selects "success" in the response"#);
/// ```
pub fn json_path(query: impl Into<String>) -> JsonPath {
    JsonPath {
        query: JsonPathQuery::new(query.into()),
    }
}

/// A query selected by [`json_path`].
#[derive(Clone, Debug)]
pub struct JsonPath {
    query: JsonPathQuery,
}

impl JsonPath {
    fn check(self, expect: JsonPathExpect) -> JsonPathCheck {
        JsonPathCheck {
            path: self.query,
            expect,
            source: JsonSource::Auto,
        }
    }

    /// At least one value is selected.
    ///
    /// See [`JsonPathCheck`].
    pub fn exists(self) -> JsonPathCheck {
        self.check(JsonPathExpect::Exists)
    }

    /// Nothing is selected.
    ///
    /// See [`JsonPathCheck`].
    pub fn not_exists(self) -> JsonPathCheck {
        self.check(JsonPathExpect::NotExists)
    }

    /// Some selected value equals `value` (JSON equality; a string never equals a number).
    ///
    /// See [`JsonPathCheck`].
    pub fn equals(self, value: impl Into<Value>) -> JsonPathCheck {
        self.check(JsonPathExpect::Equals(value.into()))
    }
}

impl JsonSourceOptions for JsonPathCheck {
    fn with_source(mut self, source: JsonSource) -> Self {
        self.source = source;
        self
    }
}

impl JsonPathCheck {
    /// One line describing the check.
    ///
    /// See [`json_path`].
    pub fn describe(&self) -> String {
        let q = self.path.source();
        let src = self.source.describe();
        match &self.expect {
            JsonPathExpect::Exists => format!("{q} selects something in {src}"),
            JsonPathExpect::NotExists => format!("{q} selects nothing in {src}"),
            JsonPathExpect::Equals(v) => {
                format!("{q} selects {} in {src}", crate::util::text::shown(v))
            }
        }
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        let q = self.path.source();
        // A query that does not parse is said as such, before any JSON is read (never "the
        // reply is not valid JSON", which would hide the broken query).
        if let Some(p) = self.path.problem() {
            return Outcome::error(p);
        }
        if let Some(e) = self.source.failed(cx) {
            return Outcome::error(e);
        }
        let json = match self.source.read(cx) {
            Ok(v) => v,
            Err(e) => return Outcome::fail(format!("{q}: invalid JSON: {e}")),
        };
        let selected = match self.path.select(json) {
            Ok(s) => s,
            Err(e) => return Outcome::error(e),
        };
        let shown = || {
            crate::util::text::shown(&Value::Array(
                selected.iter().map(|v| (*v).clone()).collect(),
            ))
        };
        match &self.expect {
            JsonPathExpect::Exists if !selected.is_empty() => Outcome::passed(),
            JsonPathExpect::Exists => {
                Outcome::fail(format!("{q} selects nothing")).actual(json.clone())
            }
            JsonPathExpect::NotExists if selected.is_empty() => Outcome::passed(),
            JsonPathExpect::NotExists => Outcome::fail(format!("{q} selects {}", shown()))
                .violation(Violation::new("unexpected_value", format!("{q} exists")))
                .actual(Value::Array(
                    selected.iter().map(|v| (*v).clone()).collect(),
                )),
            JsonPathExpect::Equals(v) if selected.iter().any(|s| json_eq(v, s)) => {
                Outcome::passed()
            }
            JsonPathExpect::Equals(v) if selected.is_empty() => Outcome::fail(format!(
                "{q} selects nothing (expected {})",
                crate::util::text::shown(v)
            ))
            .expected(v.clone()),
            JsonPathExpect::Equals(v) => Outcome::fail(format!(
                "{q} selects {}, none equal to {}",
                shown(),
                crate::util::text::shown(v)
            ))
            .expected(v.clone())
            .actual(json!(selected)),
        }
    }
}

/// A JSONPath query, parsed once (RFC 9535, with the `serde_json_path` crate). Serialises as
/// its source.
#[derive(Clone)]
pub(crate) struct JsonPathQuery {
    source: String,
    #[cfg(feature = "jsonpath")]
    parsed: Result<std::sync::Arc<serde_json_path::JsonPath>, String>,
    /// Why the query compares nothing: a `match()` or `search()` with an invalid regex literal,
    /// which RFC 9535 makes false (so `not_exists()` would pass whatever the JSON says).
    invalid_regex: Option<String>,
}

impl JsonPathQuery {
    pub(crate) fn new(source: String) -> Self {
        #[cfg(feature = "jsonpath")]
        let parsed = agent_test_expr::json_path_limit::nesting(&source)
            .and_then(|()| serde_json_path::JsonPath::parse(&source).map_err(|e| e.to_string()))
            .map(std::sync::Arc::new)
            .map_err(|e| {
                // At most 100 characters of the query.
                let shown = match source.char_indices().nth(100) {
                    Some((end, _)) => format!("{}…", source.get(..end).unwrap_or_default()),
                    None => source.clone(),
                };
                format!("invalid JSONPath `{shown}`: {e}")
            });
        let invalid_regex = regex_functions::invalid_regex(&source);
        JsonPathQuery {
            source,
            #[cfg(feature = "jsonpath")]
            parsed,
            invalid_regex,
        }
    }

    fn source(&self) -> &str {
        &self.source
    }

    /// Why the query cannot be evaluated (it does not parse) or compares nothing (an invalid
    /// regex literal), if so.
    pub(crate) fn problem(&self) -> Option<String> {
        if let Some(p) = &self.invalid_regex {
            return Some(p.clone());
        }
        #[cfg(feature = "jsonpath")]
        if let Err(e) = &self.parsed {
            return Some(e.clone());
        }
        #[cfg(not(feature = "jsonpath"))]
        return Some("JSONPath checks need agent-test's `jsonpath` feature".to_owned());
        #[allow(unreachable_code)]
        None
    }

    pub(crate) fn select<'v>(&self, value: &'v Value) -> Result<Vec<&'v Value>, String> {
        #[cfg(feature = "jsonpath")]
        {
            let path = self.parsed.as_ref().map_err(Clone::clone)?;
            Ok(path.query(value).all())
        }
        #[cfg(not(feature = "jsonpath"))]
        {
            let _ = value;
            Err("JSONPath checks need agent-test's `jsonpath` feature".to_owned())
        }
    }
}

impl std::fmt::Debug for JsonPathQuery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "JsonPath({:?})", self.source)
    }
}

impl PartialEq for JsonPathQuery {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Serialize for JsonPathQuery {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.source)
    }
}

impl<'de> Deserialize<'de> for JsonPathQuery {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(JsonPathQuery::new)
    }
}

/// Finding the regex literals of a JSONPath query's `match()` and `search()` calls, to refuse
/// the invalid ones: RFC 9535 makes such a call false ("LogicalFalse") instead of an error, so
/// a filter with one selects nothing whatever the JSON holds.
mod regex_functions {
    /// The first `match(..)` / `search(..)` whose second argument is a string literal that is
    /// not a valid regex, as a "compared nothing" reason. A regex that is not a literal (read
    /// from the document) cannot be checked before the query runs.
    pub(super) fn invalid_regex(query: &str) -> Option<String> {
        if !query.contains("match(") && !query.contains("search(") {
            return None;
        }
        let chars: Vec<char> = query.chars().collect();
        let mut i = 0;
        while let Some(&c) = chars.get(i) {
            if c == '\'' || c == '"' {
                i = skip_string(&chars, i, c);
                continue;
            }
            if !is_name_char(c) {
                i += 1;
                continue;
            }
            let start = i;
            let mut name = String::new();
            while let Some(&c) = chars.get(i)
                && is_name_char(c)
            {
                name.push(c);
                i += 1;
            }
            // `$.match` is a member name
            let member = start.checked_sub(1).and_then(|p| chars.get(p)) == Some(&'.');
            if member || chars.get(i) != Some(&'(') || !matches!(name.as_str(), "match" | "search")
            {
                continue;
            }
            let args = arguments(&chars, i + 1);
            let Some(re) = args.get(1).and_then(|a| literal(a.trim())) else {
                continue;
            };
            // As serde_json_path compiles it: an I-Regexp, whole-string for `match`.
            let compiled = if name == "match" {
                format!("(?R)^({re})$")
            } else {
                format!("(?R)({re})")
            };
            if let Err(e) = regex::Regex::new(&compiled) {
                let e = e.to_string();
                let detail = e.lines().last().unwrap_or_default().trim();
                return Some(format!(
                    "compared nothing: the regex `{re}` of {name}() in `{query}` is invalid, and \
                     RFC 9535 makes {name}() false for it: {detail}"
                ));
            }
        }
        None
    }

    fn is_name_char(c: char) -> bool {
        c.is_ascii_alphanumeric() || c == '_'
    }

    /// The index just after the string literal whose opening `quote` is at `start`.
    fn skip_string(chars: &[char], start: usize, quote: char) -> usize {
        let mut i = start + 1;
        while let Some(&c) = chars.get(i) {
            match c {
                '\\' => i += 2,
                c if c == quote => return i + 1,
                _ => i += 1,
            }
        }
        i
    }

    /// The top-level arguments of a call whose `(` is just before `from`.
    fn arguments(chars: &[char], from: usize) -> Vec<String> {
        let mut args = Vec::new();
        let mut current = String::new();
        let mut depth = 0usize;
        let mut i = from;
        while let Some(&c) = chars.get(i) {
            match c {
                '\'' | '"' => {
                    let end = skip_string(chars, i, c);
                    current.extend(chars.iter().take(end).skip(i));
                    i = end;
                    continue;
                }
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' if depth == 0 => break,
                ')' | ']' | '}' => depth -= 1,
                ',' if depth == 0 => {
                    args.push(std::mem::take(&mut current));
                    i += 1;
                    continue;
                }
                _ => {}
            }
            current.push(c);
            i += 1;
        }
        args.push(current);
        args
    }

    /// The value of a JSONPath string literal (`'..'` or `".."`, with its escapes), or `None`
    /// when `arg` is not one.
    fn literal(arg: &str) -> Option<String> {
        let quote = arg.chars().next().filter(|q| *q == '\'' || *q == '"')?;
        let body = arg.strip_prefix(quote)?.strip_suffix(quote)?;
        let mut out = String::new();
        let mut it = body.chars();
        while let Some(c) = it.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match it.next()? {
                'b' => out.push('\u{8}'),
                'f' => out.push('\u{c}'),
                'n' => out.push('\n'),
                'r' => out.push('\r'),
                't' => out.push('\t'),
                'u' => {
                    let hex: String = it.by_ref().take(4).collect();
                    let hi = u32::from_str_radix(&hex, 16).ok()?;
                    let code = if (0xD800..0xDC00).contains(&hi) {
                        // A surrogate pair: `\uD83D\uDE00`.
                        let low: String = it.by_ref().skip(2).take(4).collect();
                        let lo = u32::from_str_radix(&low, 16).ok()?;
                        0x10000 + ((hi - 0xD800) << 10) + (lo.checked_sub(0xDC00)?)
                    } else {
                        hi
                    };
                    out.push(char::from_u32(code)?);
                }
                other => out.push(other), // `\'`, `\"`, `\\`, `\/`
            }
        }
        Some(out)
    }

    #[cfg(test)]
    mod tests {
        use super::invalid_regex;

        #[test]
        fn finds_invalid_regex_literals_only() {
            assert!(invalid_regex("$[?match(@.a, '[')]").is_some());
            assert!(invalid_regex("$[?search(@.a, \"(\")]").is_some());
            assert!(invalid_regex("$[?count(@.*) > 1 && match(@.a, 'a\\'(')]").is_some());
            assert!(invalid_regex("$[?match(@.a, '[a-z]+')]").is_none());
            assert!(invalid_regex("$[?match(@.a, @.pattern)]").is_none());
            assert!(invalid_regex("$[?@.a == 'match(x, \"[\")']").is_none());
            assert!(invalid_regex("$.match").is_none());
            assert!(
                invalid_regex("$[?match(@.a, '\\u005B')]").is_some(),
                "an escaped `[`"
            );
        }
    }
}

impl super::CheckRules for JsonPathCheck {
    const KIND: Kind = Kind::new(
        "json_path",
        "a JSONPath query on the JSON answered: exists, not exists, equals",
    )
    .words(&[
        Word::new("json_path", Arg::JsonPath),
    ]);

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        use serde_json::json;
        vec![
            json_path("$.a").equals(json!({"k": 1})).into_expectation(),
            json_path("$.b").not_exists().into_expectation(),
        ]
    }

    fn reads(&self) -> &'static [Part] {
        self.source.reads()
    }

    fn literal_problem(&self) -> Option<String> {
        self.path.problem()
    }
}
