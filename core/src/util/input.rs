//! Reading input files strictly: every error names the file, the place inside it and what
//! was expected (a repeated key, an unknown field, a wrong type are errors, never guesses).

use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::json::JsonTextError;

/// The start of a deserialisation error that names the place of an impossible constraint
/// inside the value being read (`impossible constraint at steps[0].expect[1]: ...`): the
/// loader turns it into the error's path.
#[doc(hidden)]
pub const IMPOSSIBLE_AT: &str = "impossible constraint at ";

/// What kind of problem stopped a load, to match on without reading the message.
///
/// ```
/// use agent_test::load::{LoadErrorKind, read_text};
/// assert_eq!(read_text("no-such-file.json").unwrap_err().kind, LoadErrorKind::NotFound);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LoadErrorKind {
    /// The file does not exist (or the case asked for is not in it).
    NotFound,
    /// The file exists but cannot be read: permissions, a directory, not UTF-8 text.
    Unreadable,
    /// The text is not valid JSON or YAML (or nests too deep): `path` is the line and column.
    Syntax,
    /// The document parses but is not what was expected: an unknown or missing field, a value
    /// of the wrong type, a key given twice, a value out of range — at `path`.
    Invalid,
    /// A value no run can satisfy or evaluate: an impossible constraint, a regex, query or
    /// expression that cannot work — at `path`.
    Impossible,
    /// Reading it needs a feature of agent-test that is off (`yaml`).
    Unsupported,
}

/// A file that could not be loaded: which file, where inside it, what was expected, and the
/// [kind](LoadErrorKind) of problem.
///
/// ```
/// use agent_test::load::LoadErrorKind;
/// use agent_test::scenario::Scenario;
/// let err = agent_test::load::load_json::<Scenario>("s.json", r#"{"name": "x", "steps": [{"step": "usr"}]}"#).unwrap_err();
/// assert_eq!(err.kind, LoadErrorKind::Invalid);
/// assert_eq!(err.path, "steps[0].step");
/// assert!(err.message.starts_with("unknown variant `usr`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// What kind of problem it is.
    pub kind: LoadErrorKind,
    /// The file.
    pub file: PathBuf,
    /// Where inside it (`steps[0].expect[1].check`), empty for the whole file.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() || self.path == "." {
            write!(f, "{}: {}", self.file.display(), self.message)
        } else {
            write!(
                f,
                "{}: at {}: {}",
                self.file.display(),
                self.path,
                self.message
            )
        }
    }
}

impl std::error::Error for LoadError {}

/// Reads a text file, or says why it cannot (missing, unreadable, not UTF-8).
///
/// ```
/// let err = agent_test::load::read_text("nope.json").unwrap_err();
/// assert!(err.to_string().starts_with("nope.json: cannot read the file"));
/// ```
pub fn read_text(path: impl AsRef<Path>) -> Result<String, LoadError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| LoadError {
        kind: if e.kind() == std::io::ErrorKind::NotFound {
            LoadErrorKind::NotFound
        } else {
            LoadErrorKind::Unreadable
        },
        file: path.to_owned(),
        path: String::new(),
        message: format!("cannot read the file: {e}"),
    })?;
    String::from_utf8(bytes).map_err(|e| LoadError {
        kind: LoadErrorKind::Unreadable,
        file: path.to_owned(),
        path: String::new(),
        message: format!(
            "the file is not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ),
    })
}

/// Parses JSON text with the one strict reader of every input (a repeated key is an error, a
/// leading byte order mark is skipped).
#[doc(hidden)]
pub fn parse_json(text: &str, file: &Path) -> Result<Value, LoadError> {
    super::json::parse(text).map_err(|e| json_text_error(file, e))
}

/// Why the JSON text of `file` cannot be read: a key given twice (with both places), or where
/// the text breaks and why.
#[doc(hidden)]
pub fn json_text_error(file: &Path, e: JsonTextError) -> LoadError {
    match e {
        JsonTextError::Syntax(e) => {
            // The place is the error's path; serde_json's message repeats it at its end.
            let place = format!(" at line {} column {}", e.line(), e.column());
            let message = e.to_string();
            LoadError {
                kind: LoadErrorKind::Syntax,
                file: file.to_owned(),
                path: format!("line {}, column {}", e.line(), e.column()),
                message: format!(
                    "not valid JSON: {}",
                    message.strip_suffix(&place).unwrap_or(&message)
                ),
            }
        }
        JsonTextError::Duplicate(d) => LoadError {
            kind: LoadErrorKind::Invalid,
            file: file.to_owned(),
            message: d.message(0),
            path: d.path,
        },
    }
}

/// Reads an already parsed JSON value into `T`, naming the field at fault (see [`load_json`]).
///
/// ```
/// # use agent_test::scenario::Scenario;
/// let err = agent_test::load::load_value::<Scenario>("s.json", serde_json::json!({"name": 3})).unwrap_err();
/// assert_eq!(err.path, "name");
/// ```
pub fn load_value<T: DeserializeOwned>(
    file: impl AsRef<Path>,
    value: Value,
) -> Result<T, LoadError> {
    let file = file.as_ref();
    serde_path_to_error::deserialize(&value).map_err(|e| {
        let message = e.inner().to_string();
        let path = exact_path(&value, e.path(), &message);
        // A scenario names the place of an impossible constraint inside it.
        if let Some((inner, rest)) = message
            .strip_prefix(IMPOSSIBLE_AT)
            .and_then(|m| m.split_once(": "))
        {
            return LoadError {
                kind: LoadErrorKind::Impossible,
                file: file.to_owned(),
                path: match path.as_str() {
                    "" | "." => inner.to_owned(),
                    outer => format!("{outer}.{inner}"),
                },
                message: format!("impossible constraint: {rest}"),
            };
        }
        LoadError {
            kind: LoadErrorKind::Invalid,
            file: file.to_owned(),
            path,
            message,
        }
    })
}

/// The path of an error: serde's, made exact for an unknown field and for a value of the
/// wrong type or out of range. Inside a tagged enum (a check, a matcher, a step) serde's path
/// stops at the enum; the field — or the value the message quotes (`` integer `-1` ``,
/// `` floating point `1e300` ``, `string "NaN"`) — is then looked for below it, and when
/// exactly one place there has it, that is the place.
fn exact_path(value: &Value, path: &serde_path_to_error::Path, message: &str) -> String {
    use serde_path_to_error::Segment;
    let shown = path.to_string();
    let wanted = match message
        .strip_prefix("unknown field `")
        .and_then(|rest| rest.split('`').next())
    {
        Some(field) => Wanted::Field(field),
        None => match unexpected_scalar(message) {
            Some(v) => Wanted::Scalar(v),
            None => return shown,
        },
    };
    let mut here = value;
    for segment in path.iter() {
        here = match (segment, here) {
            (Segment::Seq { index }, Value::Array(items)) => match items.get(*index) {
                Some(v) => v,
                None => return shown,
            },
            (Segment::Map { key }, Value::Object(o)) => match o.get(key) {
                Some(v) => v,
                None => return shown,
            },
            _ => return shown,
        };
    }
    let mut found = Vec::new();
    match &wanted {
        Wanted::Field(field) => holders(here, field, String::new(), &mut found),
        // A scalar where serde's path already is: that is the place.
        Wanted::Scalar(_) if !here.is_object() && !here.is_array() => return shown,
        Wanted::Scalar(v) => scalars(here, v, String::new(), &mut found),
    }
    let [inner] = found.as_slice() else {
        return shown;
    };
    match (shown.as_str(), inner.as_str()) {
        (".", inner) => inner.trim_start_matches('.').to_owned(),
        (outer, inner) => format!("{outer}{inner}"),
    }
}

/// What [`exact_path`] looks for below serde's path.
enum Wanted<'a> {
    /// An object with this key.
    Field(&'a str),
    /// This value.
    Scalar(Value),
}

/// The value an "invalid value" or "invalid type" message of serde quotes, when it is a number
/// or a string: `` invalid value: integer `-1`, expected u64 ``, `` invalid type: floating
/// point `1e300`, expected usize ``, `invalid type: string "NaN", expected u64`.
fn unexpected_scalar(message: &str) -> Option<Value> {
    let rest = message
        .strip_prefix("invalid value: ")
        .or_else(|| message.strip_prefix("invalid type: "))?;
    if let Some(n) = rest
        .strip_prefix("integer `")
        .or_else(|| rest.strip_prefix("floating point `"))
    {
        let n = n.split('`').next()?;
        return serde_json::from_str::<serde_json::Number>(n)
            .ok()
            .map(Value::Number)
            .or_else(|| n.parse::<f64>().ok().map(Value::from));
    }
    let quoted = rest.strip_prefix("string ")?;
    // The closing quote is the one before ", expected".
    let end = quoted.rfind("\", expected")?;
    quoted
        .get(..=end)
        .and_then(|q| serde_json::from_str::<String>(q).ok())
        .map(Value::String)
}

/// Relative paths of the scalars below `v` equal to `wanted` (numbers by value), up to two
/// (more than one is not a place).
fn scalars(v: &Value, wanted: &Value, at: String, found: &mut Vec<String>) {
    if found.len() > 1 {
        return;
    }
    match v {
        Value::Object(o) => {
            for (k, child) in o {
                scalars(child, wanted, format!("{at}.{k}"), found);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                scalars(child, wanted, format!("{at}[{i}]"), found);
            }
        }
        Value::Number(n) => {
            let same = match wanted {
                Value::Number(w) => n == w || (n.as_f64().is_some() && n.as_f64() == w.as_f64()),
                _ => false,
            };
            if same {
                found.push(at);
            }
        }
        Value::String(s) if wanted.as_str() == Some(s) => found.push(at),
        _ => {}
    }
}

/// Relative paths (`.a[0].field`) of the objects below `v` that have the key `field`, up to
/// two (more than one is not a place).
fn holders(v: &Value, field: &str, at: String, found: &mut Vec<String>) {
    if found.len() > 1 {
        return;
    }
    match v {
        Value::Object(o) => {
            if o.contains_key(field) {
                found.push(format!("{at}.{field}"));
            }
            for (k, child) in o {
                if k != field {
                    holders(child, field, format!("{at}.{k}"), found);
                }
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                holders(child, field, format!("{at}[{i}]"), found);
            }
        }
        _ => {}
    }
}

/// Parses JSON text into `T`, naming the field at fault: the loader of scenario files and
/// recordings.
///
/// See [`LoadError`].
pub fn load_json<T: DeserializeOwned>(file: impl AsRef<Path>, text: &str) -> Result<T, LoadError> {
    if let Some(t) = super::typed::read(text, false) {
        return Ok(t);
    }
    // Something is wrong: the strict reader names it (the fast path builds no error).
    let value = parse_json(text, file.as_ref())?;
    load_value(file.as_ref(), value)
}

/// Reads and parses a JSON file into `T` (see [`load_json`]).
///
/// ```
/// # use agent_test::scenario::Scenario;
/// assert!(agent_test::load::load_json_file::<Scenario>("nope.json").is_err());
/// ```
pub fn load_json_file<T: DeserializeOwned>(path: impl AsRef<Path>) -> Result<T, LoadError> {
    let path = path.as_ref();
    let text = read_text(path)?;
    load_json(path, &text)
}
