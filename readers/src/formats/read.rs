//! Reading a seed format's JSON tree by hand, so every error names the path inside the file
//! and what was expected (serde's tagged enums lose the path inside them).

use std::path::Path;

pub(crate) use agent_test_expr::matcher_words::names_a_matcher;
use agent_test_expr::matcher_words::{self, near_matcher_key};
use serde_json::{Map, Value};

use super::ImportedCase;
use agent_test_core::scenario::Scenario;
use agent_test_core::util::input::LoadError;

/// A problem at a path of a document: `(path, message)`.
pub(crate) type Problem = (String, String);

/// `at.key`, or `key` at the root.
pub(crate) fn join(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_owned()
    } else {
        format!("{at}.{key}")
    }
}

/// `at[i]`.
pub(crate) fn index(at: &str, i: usize) -> String {
    format!("{at}[{i}]")
}

/// The object at `at`, with only `allowed` keys.
pub(crate) fn object<'a>(
    v: &'a Value,
    at: &str,
    allowed: &[&str],
) -> Result<&'a Map<String, Value>, Problem> {
    closed(open_object(v, at)?, at, allowed)
}

/// The object at `at`, any keys: for objects whose keys depend on a tag read first, then
/// [`closed`].
pub(crate) fn open_object<'a>(v: &'a Value, at: &str) -> Result<&'a Map<String, Value>, Problem> {
    v.as_object().ok_or_else(|| {
        (
            at.to_owned(),
            format!("expected an object, got {}", kind(v)),
        )
    })
}

/// An optional object field with any keys (absent or `null` → `None`).
pub(crate) fn opt_open_object<'a>(
    o: &'a Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<Option<&'a Map<String, Value>>, Problem> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => open_object(v, &join(at, key)).map(Some),
    }
}

/// `o` (at `at`), with only `allowed` keys; an unknown key gets a "did you mean".
pub(crate) fn closed<'a>(
    o: &'a Map<String, Value>,
    at: &str,
    allowed: &[&str],
) -> Result<&'a Map<String, Value>, Problem> {
    if let Some(k) = o.keys().find(|k| !allowed.contains(&k.as_str())) {
        let hint = allowed
            .iter()
            .filter(|a| !o.contains_key(**a))
            .map(|a| (strsim::damerau_levenshtein(k, a), a))
            .filter(|(d, a)| *d <= 2.max(a.len() / 4))
            .min_by_key(|(d, _)| *d)
            .map_or_else(String::new, |(_, a)| format!(" (did you mean `{a}`?)"));
        return Err((
            join(at, k),
            format!(
                "unknown field `{k}`{hint}, expected one of {}",
                list(allowed)
            ),
        ));
    }
    Ok(o)
}

/// What a value is, for messages: `a string ("x")`, `a number (3)`, ...
pub(crate) fn kind(v: &Value) -> String {
    let shown = {
        let s = v.to_string();
        if s.len() > 60 {
            let mut end = 60;
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            format!("{}…", &s[..end])
        } else {
            s
        }
    };
    let what = match v {
        Value::Null => return "null".to_owned(),
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    format!("{what} ({shown})")
}

/// `` `a`, `b`, `c` ``.
pub(crate) fn list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A number as JavaScript's `String(..)` and Go's `%v` write it: a whole number without a
/// fraction (`1.0` is `1`), others as JSON does.
pub(crate) fn number_text(n: &serde_json::Number) -> String {
    match n.as_f64() {
        Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{f:.0}"),
        _ => n.to_string(),
    }
}

/// A required field.
pub(crate) fn required<'a>(
    o: &'a Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<&'a Value, Problem> {
    o.get(key)
        .ok_or_else(|| (at.to_owned(), format!("missing field `{key}`")))
}

/// A required string field.
pub(crate) fn string(o: &Map<String, Value>, key: &str, at: &str) -> Result<String, Problem> {
    match required(o, key, at)? {
        Value::String(s) => Ok(s.clone()),
        other => Err((
            join(at, key),
            format!("expected a string, got {}", kind(other)),
        )),
    }
}

/// An optional string field (`null` counts as absent).
pub(crate) fn opt_string(
    o: &Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<Option<String>, Problem> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err((
            join(at, key),
            format!("expected a string, got {}", kind(other)),
        )),
    }
}

/// An optional boolean field.
pub(crate) fn opt_bool(
    o: &Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<Option<bool>, Problem> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err((
            join(at, key),
            format!("expected true or false, got {}", kind(other)),
        )),
    }
}

/// An optional number field.
pub(crate) fn opt_f64(o: &Map<String, Value>, key: &str, at: &str) -> Result<Option<f64>, Problem> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => Ok(n.as_f64()),
        Some(other) => Err((
            join(at, key),
            format!("expected a number, got {}", kind(other)),
        )),
    }
}

/// An optional non-negative integer field.
pub(crate) fn opt_u64(o: &Map<String, Value>, key: &str, at: &str) -> Result<Option<u64>, Problem> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v.as_u64().map(Some).ok_or_else(|| {
            (
                join(at, key),
                format!("expected a non-negative integer, got {}", kind(v)),
            )
        }),
    }
}

/// A 0..=1 threshold field.
pub(crate) fn opt_threshold(
    o: &Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<Option<f64>, Problem> {
    match opt_f64(o, key, at)? {
        // The number as written (`1e300`, not 301 digits).
        Some(t) if !(0.0..=1.0).contains(&t) => Err((
            join(at, key),
            format!(
                "expected a number from 0 to 1, got {}",
                o.get(key)
                    .and_then(Value::as_number)
                    .map_or_else(|| t.to_string(), number_text)
            ),
        )),
        t => Ok(t),
    }
}

/// An optional array field (absent or `null` → empty).
pub(crate) fn array<'a>(
    o: &'a Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<&'a [Value], Problem> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(other) => Err((
            join(at, key),
            format!("expected an array, got {}", kind(other)),
        )),
    }
}

/// An optional array of strings (absent → empty).
pub(crate) fn strings(o: &Map<String, Value>, key: &str, at: &str) -> Result<Vec<String>, Problem> {
    let here = join(at, key);
    array(o, key, at)?
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_str().map(str::to_owned).ok_or_else(|| {
                (
                    index(&here, i),
                    format!("expected a string, got {}", kind(v)),
                )
            })
        })
        .collect()
}

/// An optional object field (absent → `None`), with only `allowed` keys.
pub(crate) fn opt_object<'a>(
    o: &'a Map<String, Value>,
    key: &str,
    at: &str,
    allowed: &[&str],
) -> Result<Option<&'a Map<String, Value>>, Problem> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => object(v, &join(at, key), allowed).map(Some),
    }
}

/// The `tag` field, which must be one of `known`.
pub(crate) fn tag<'a>(
    o: &'a Map<String, Value>,
    key: &str,
    at: &str,
    known: &[&str],
) -> Result<&'a str, Problem> {
    match required(o, key, at)? {
        Value::String(s) if known.contains(&s.as_str()) => Ok(s),
        Value::String(s) => Err((
            join(at, key),
            format!("unknown {key} `{s}`, expected one of {}", list(known)),
        )),
        other => Err((
            join(at, key),
            format!("expected one of {}, got {}", list(known), kind(other)),
        )),
    }
}

/// An optional tag: absent is `None`; present, it must be one of `known`.
pub(crate) fn opt_tag<'a>(
    o: &'a Map<String, Value>,
    key: &str,
    at: &str,
    known: &[&str],
) -> Result<Option<&'a str>, Problem> {
    if o.contains_key(key) {
        tag(o, key, at, known).map(Some)
    } else {
        Ok(None)
    }
}

/// A scenario named by `name`, else `id`, else `default_name`, with its `description`; the
/// `id` is kept in the `extra` context variable (MCPLab scenarios, Lamdis tests).
pub(crate) fn named_scenario(
    o: &Map<String, Value>,
    at: &str,
    default_name: String,
) -> Result<Scenario, Problem> {
    let id = opt_string(o, "id", at)?;
    let name = opt_string(o, "name", at)?
        .or_else(|| id.clone())
        .unwrap_or(default_name);
    let mut scenario = Scenario::new(name);
    if let Some(d) = opt_string(o, "description", at)? {
        scenario = scenario.described(d);
    }
    if let Some(id) = id {
        scenario = scenario.context("extra", serde_json::json!({ "id": id }));
    }
    Ok(scenario)
}

/// The scenario of a case at `at`, unless it tests nothing or has an impossible constraint
/// (a net under the formats' own checks, which name the field).
pub(crate) fn possible(scenario: Scenario, at: &str) -> Result<Scenario, Problem> {
    match scenario.problem() {
        None => Ok(scenario),
        Some(problem) => {
            let message = match problem.strip_prefix(agent_test_core::util::input::IMPOSSIBLE_AT) {
                Some(rest) => format!(
                    "impossible constraint: {}",
                    rest.split_once(": ").map_or(rest, |(_, m)| m)
                ),
                None => problem,
            };
            Err((at.to_owned(), message))
        }
    }
}

/// The key that makes the object `o` read as a matcher written in some system's syntax rather
/// than data ([`matcher_words::matcher_key`], the rule the macro applies to `json!` literals).
fn matcher_key(o: &Map<String, Value>) -> Option<&str> {
    let entries: Vec<(&str, Option<&str>)> =
        o.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    matcher_words::matcher_key(&entries)
}

/// The first object in a literal value (`v` at `at`, itself included) that reads as a matcher
/// rather than data: the path of its giveaway key, and the key.
pub(crate) fn matcher_like(v: &Value, at: &str) -> Option<(String, String)> {
    match v {
        Value::Object(o) => {
            if let Some(k) = matcher_key(o) {
                return Some((join(at, k), k.to_owned()));
            }
            o.iter().find_map(|(k, v)| matcher_like(v, &join(at, k)))
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| matcher_like(v, &index(at, i))),
        _ => None,
    }
}

/// What a matcher-like key is, for messages: "`matchr` (did you mean `matcher`?)" or
/// "`one_of`".
pub(crate) fn matcher_word(key: &str) -> String {
    if near_matcher_key(key) {
        let meant = ["matcher", "match_as"]
            .into_iter()
            .min_by_key(|m| strsim::damerau_levenshtein(&key.to_ascii_lowercase(), m))
            .unwrap_or("matcher");
        format!("`{key}` (did you mean `{meant}`?)")
    } else {
        format!("`{key}`")
    }
}

/// A problem as a [`LoadError`] of `file`.
pub(crate) fn load_error(file: &Path, (path, message): Problem) -> LoadError {
    LoadError {
        kind: agent_test_core::util::input::LoadErrorKind::Invalid,
        file: file.to_owned(),
        path,
        message,
    }
}

/// A file's stem, for scenario names.
pub(crate) fn stem(file: &Path) -> String {
    file.file_stem()
        .map_or_else(|| "case".to_owned(), |s| s.to_string_lossy().into_owned())
}

/// Parses JSON text, or names the line and column where it breaks, or the key given twice
/// (the one strict reader of every input; a leading byte order mark is skipped).
pub(crate) use agent_test_core::util::input::{json_text_error, parse_json as json};

/// Parses YAML text into the JSON model, or names the line and column where it breaks.
///
/// YAML 1.2 booleans only (`true`, `false`), as the seed systems' parsers read them (Go's
/// yaml.v3, JavaScript's YAML libraries): `yes`, `no`, `on`, `off`, `y`, `n` are text, so a
/// `value: no` or a tool named `n` means what it says.
#[cfg(feature = "yaml")]
pub(crate) fn yaml(text: &str, file: &Path) -> Result<Value, LoadError> {
    let mut options = serde_saphyr::Options::default();
    options.strict_booleans = true;
    agent_test_core::util::json::parse_yaml(text, options).map_err(|e| match e {
        Ok(duplicate) => LoadError {
            kind: agent_test_core::util::input::LoadErrorKind::Invalid,
            file: file.to_owned(),
            message: duplicate.message(0),
            path: duplicate.path,
        },
        Err(e) => {
            let message = e.to_string();
            // The first line reads "error: line L column C: message"; the rest is a snippet.
            let first = message.lines().next().unwrap_or_default();
            let first = first.strip_prefix("error: ").unwrap_or(first);
            let (path, message) = match first.split_once(": ") {
                Some((at, m)) if at.starts_with("line ") => (at.replace(" column", ", column"), m),
                _ => (String::new(), first),
            };
            LoadError {
                kind: agent_test_core::util::input::LoadErrorKind::Syntax,
                file: file.to_owned(),
                path,
                message: format!("not valid YAML: {message}"),
            }
        }
    })
}

/// Without the `yaml` feature, YAML files cannot be read.
#[cfg(not(feature = "yaml"))]
pub(crate) fn yaml(_text: &str, file: &Path) -> Result<Value, LoadError> {
    Err(LoadError {
        kind: agent_test_core::util::input::LoadErrorKind::Unsupported,
        file: file.to_owned(),
        path: String::new(),
        message: "reading YAML needs agent-test's `yaml` feature".into(),
    })
}

/// The first case of a document, to recognise its format by: an array's first item, the
/// first of `{wrapper: [...]}`, or the document itself.
pub(crate) fn first_case<'a>(doc: &'a Value, wrapper: Option<&str>) -> Option<&'a Value> {
    match doc {
        Value::Array(items) => items.first(),
        Value::Object(o) => match wrapper.and_then(|w| o.get(w)) {
            Some(Value::Array(items)) => items.first(),
            _ => Some(doc),
        },
        _ => Some(doc),
    }
}

/// The cases of a document: an array of them, `{wrapper: [...]}` when the format has such a
/// wrapper, or a single one. Each is read by `read` with its path and a default name: the
/// file's stem, numbered (`suite-2`) when the document holds a list.
pub(crate) fn cases(
    doc: &Value,
    file: &Path,
    wrapper: Option<&str>,
    read: impl Fn(&Value, &str, String) -> Result<Scenario, Problem>,
) -> Result<Vec<ImportedCase>, LoadError> {
    let stem = stem(file);
    let (items, at): (&[Value], &str) = match (doc, wrapper) {
        (Value::Array(items), _) => (items, ""),
        (Value::Object(o), Some(w)) if o.contains_key(w) => {
            object(doc, "", &[w]).map_err(|p| load_error(file, p))?;
            match o.get(w) {
                Some(Value::Array(items)) => (items, w),
                other => {
                    let got = other.map_or_else(|| "nothing".to_owned(), kind);
                    return Err(load_error(
                        file,
                        (w.to_owned(), format!("expected a list, got {got}")),
                    ));
                }
            }
        }
        (v, _) => (std::slice::from_ref(v), ""),
    };
    let listed = doc.is_array() || !at.is_empty();
    items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let (here, name) = if listed {
                (index(at, i), format!("{stem}-{}", i + 1))
            } else {
                (String::new(), stem.clone())
            };
            read(v, &here, name)
                .and_then(|scenario| possible(scenario, &here))
                .map(|scenario| ImportedCase {
                    scenario,
                    recording: None,
                })
                .map_err(|p| load_error(file, p))
        })
        .collect()
}
