//! The words of matchers — their names and options in every syntax agent-test reads — and the
//! rule that says when an object written as data reads as a matcher instead. Kept here, once,
//! for the two places that apply it: the runtime's loaders (an object in a test file) and
//! `agent_test!` (a `json!` literal given where a value is expected).

/// Names of matchers in the syntaxes agent-test reads: Mibo's (`{"matcher": "one_of"}`),
/// MorganaBench's (`{"match_as": "equality"}`) and the native API's (`one_of(..)`).
///
/// ```
/// assert!(agent_test_expr::matcher_words::MATCHER_NAMES.contains(&"one_of"));
/// ```
pub const MATCHER_NAMES: &[&str] = &[
    "exact",
    "contains",
    "regex",
    "date",
    "one_of",
    "any",
    "any_of",
    "all_of",
    "not",
    "optional",
    "missing",
    "expr",
    "free_text",
    "date_time",
    "equality",
    "match_as",
];

/// The options those matchers take.
///
/// ```
/// assert!(agent_test_expr::matcher_words::MATCHER_FIELDS.contains(&"tolerance_minutes"));
/// ```
pub const MATCHER_FIELDS: &[&str] = &[
    "value",
    "variants",
    "expression",
    "tolerance_minutes",
    "optional",
    "ignore_case",
    "pattern",
    "inner",
    "matchers",
    "unordered",
    "wildcard",
    "default",
];

/// Whether `key` is a near miss of `matcher` or `match_as` (`matchr`, `macher`, `matchas`).
///
/// ```
/// use agent_test_expr::matcher_words::near_matcher_key;
/// assert!(near_matcher_key("matchr"));
/// assert!(!near_matcher_key("matcher"));
/// assert!(!near_matcher_key("name"));
/// ```
pub fn near_matcher_key(key: &str) -> bool {
    key.len() >= 5
        && ["matcher", "match_as"]
            .iter()
            .any(|m| key != *m && strsim::damerau_levenshtein(&key.to_ascii_lowercase(), m) <= 2)
}

/// The key that makes an object read as a matcher written in some system's syntax rather than
/// data, given its entries as (key, the value when it is a string): a `matcher` key; or every
/// key a matcher's name or option and one of them a matcher's name (a `date` only when its value
/// is an expression, or with `tolerance_minutes` / `expression`), `match_as`, or a near miss of
/// `matcher`. An option alone (`{"value": 3}`) is data, as is `{"date": "2026-11-23"}`.
///
/// ```
/// use agent_test_expr::matcher_words::matcher_key;
/// assert_eq!(matcher_key(&[("one_of", None)]), Some("one_of"));
/// assert_eq!(matcher_key(&[("date", Some("TODAY()"))]), Some("date"));
/// assert_eq!(matcher_key(&[("date", Some("2026-11-23"))]), None);
/// assert_eq!(matcher_key(&[("value", None)]), None);
/// assert_eq!(matcher_key(&[("contains", None), ("sku", None)]), None);
/// assert_eq!(matcher_key(&[("matchr", Some("one_of"))]), Some("matchr"));
/// ```
pub fn matcher_key<'a>(entries: &[(&'a str, Option<&str>)]) -> Option<&'a str> {
    if let Some((k, _)) = entries.iter().find(|(k, _)| *k == "matcher") {
        return Some(k);
    }
    let word =
        |k: &str| MATCHER_NAMES.contains(&k) || MATCHER_FIELDS.contains(&k) || near_matcher_key(k);
    if entries.is_empty() || !entries.iter().all(|(k, _)| word(k)) {
        return None;
    }
    let has = |name: &str| entries.iter().any(|(k, _)| *k == name);
    entries
        .iter()
        .find(|(k, v)| match *k {
            "date" => {
                v.is_some_and(|s| s.contains('(')) || has("tolerance_minutes") || has("expression")
            }
            k => (MATCHER_NAMES.contains(&k) && k != "optional") || near_matcher_key(k),
        })
        .map(|(k, _)| *k)
}

/// Whether `key` names a matcher in some system's syntax: `matcher`, `match_as`, a matcher's
/// name, or a near miss of `matcher` / `match_as`.
///
/// ```
/// use agent_test_expr::matcher_words::names_a_matcher;
/// assert!(names_a_matcher("matcher") && names_a_matcher("regex") && names_a_matcher("matchas"));
/// assert!(!names_a_matcher("city"));
/// ```
pub fn names_a_matcher(key: &str) -> bool {
    key == "matcher" || MATCHER_NAMES.contains(&key) || near_matcher_key(key)
}
