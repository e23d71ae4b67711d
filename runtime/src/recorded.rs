//! Recorded runs: the JSON a run leaves behind, read back to replay or re-evaluate it.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};

use serde_json::Value;

use crate::model::Transcript;
use crate::run::ScenarioInfo;

/// A recorded run: which scenario ran and everything needed to evaluate checks on it again —
/// the transcript, which carries the context variables and the `user_time` dates are
/// evaluated against.
///
/// Every run's JSON report (`target/agent-test/<module>/<scenario>.json`) is a recorded run
/// with verdicts added; both forms load. The plain form:
///
/// ```json
/// {
///   "scenario": {"name": "refund"},
///   "transcript": {
///     "context": {"USER_ID": 12345},
///     "user_time": "2026-11-23T09:30:00+00:00[UTC]",
///     "turns": [
///       {"index": 0, "input": "Refund ORD-9921", "latency_ms": 812,
///        "reply": {"text": "Done.", "calls": [{"name": "process_refund", "arguments": {"order_id": "ORD-9921"}}]}}
///     ]
///   }
/// }
/// ```
///
/// ```
/// use agent_test_runtime::RecordedRun;
/// let run = RecordedRun::from_json(r#"{"scenario": {"name": "x"}, "transcript": {"turns": []}}"#, "x.json").unwrap();
/// assert_eq!(run.scenario.name, "x");
/// let err = RecordedRun::from_json(r#"{"scenario": {"name": "x"}, "transcript": {"turns": [{"index": "one"}]}}"#, "x.json").unwrap_err();
/// assert_eq!(err.to_string(), "x.json: at transcript.turns[0].index: invalid type: string \"one\", expected usize");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedRun {
    /// The scenario that ran.
    pub scenario: ScenarioInfo,
    /// What happened.
    pub transcript: Transcript,
}

/// The fields of a JSON report a recording needs; the others (verdicts and summaries) are
/// known and skipped, so an unknown one is still an error.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct ReportFields {
    scenario: ScenarioInfo,
    transcript: Transcript,
    #[serde(default)]
    passed: Option<IgnoredAny>,
    #[serde(default)]
    summary: Option<IgnoredAny>,
    verdicts: IgnoredAny,
    #[serde(default)]
    duration_ms: Option<IgnoredAny>,
    #[serde(default)]
    notes: Option<IgnoredAny>,
    #[serde(default)]
    judge: Option<IgnoredAny>,
    #[serde(default)]
    repeats: Option<IgnoredAny>,
}

impl RecordedRun {
    /// Reads a recorded run (or a JSON report) from a file.
    ///
    /// ```
    /// # use agent_test_runtime::RecordedRun;
    /// let err = RecordedRun::load("missing.json").unwrap_err();
    /// assert!(err.to_string().starts_with("missing.json: cannot read the file"));
    /// ```
    pub fn load(path: impl AsRef<Path>) -> Result<Self, LoadError> {
        let path = path.as_ref();
        let text = read_text(path)?;
        Self::from_json(&text, path)
    }

    /// Reads a recorded run (or a JSON report) from JSON text; `file` names it in errors.
    ///
    /// See the type's example.
    ///
    /// A recording nests the values the agent sent (bodies, arguments, results, each up to
    /// the 127 levels serde_json reads) inside its own levels, so it is read up to
    /// [`MAX_RECORDING_DEPTH`] levels deep, not serde_json's default of 127: a run's recording
    /// always reloads.
    ///
    /// ```
    /// # use agent_test_runtime::RecordedRun;
    /// let deep = format!("{}1{}", "[".repeat(600), "]".repeat(600));
    /// let text = format!(r#"{{"scenario": {{"name": "x"}}, "transcript": {{"turns": [], "context": {{"v": {deep}}}}}}}"#);
    /// assert_eq!(RecordedRun::from_json(&text, "x.json").unwrap_err().to_string(),
    ///            "x.json: at line 1, column 583: not valid JSON: nested deeper than 512 levels");
    /// ```
    pub fn from_json(text: &str, file: impl AsRef<Path>) -> Result<Self, LoadError> {
        Self::from_value(parse_recording_json(text, file.as_ref())?, file)
    }

    /// Reads a recorded run (or a JSON report) from parsed JSON; `file` names it in errors.
    ///
    /// ```
    /// # use agent_test_runtime::RecordedRun;
    /// let value = serde_json::json!({"scenario": {"name": "x"}, "transcript": {"turns": []}});
    /// assert_eq!(RecordedRun::from_value(value, "x.json").unwrap().scenario.name, "x");
    /// ```
    pub fn from_value(value: Value, file: impl AsRef<Path>) -> Result<Self, LoadError> {
        // Taken by value (no copy of a large transcript): a recording has no tagged enums, so
        // serde's path is exact without the search `load_value` makes.
        let file = file.as_ref();
        let load_error = |e: serde_path_to_error::Error<serde_json::Error>| LoadError {
            file: file.to_owned(),
            path: e.path().to_string(),
            message: e.inner().to_string(),
        };
        if value.get("verdicts").is_some() {
            let r: ReportFields = serde_path_to_error::deserialize(value).map_err(load_error)?;
            return Ok(RecordedRun {
                scenario: r.scenario,
                transcript: r.transcript,
            });
        }
        serde_path_to_error::deserialize(value).map_err(load_error)
    }

    /// Writes the run as pretty JSON.
    ///
    /// ```
    /// # use agent_test_runtime::{RecordedRun, ScenarioInfo, model::Transcript};
    /// let path = std::env::temp_dir().join("agent-test-doc-recording.json");
    /// let run = RecordedRun { scenario: ScenarioInfo::new("x"), transcript: Transcript::default() };
    /// run.save(&path).unwrap();
    /// assert_eq!(RecordedRun::load(&path).unwrap(), run);
    /// ```
    pub fn save(&self, path: impl AsRef<Path>) -> std::io::Result<()> {
        let bytes = serde_json::to_vec_pretty(self).map_err(std::io::Error::other)?;
        std::fs::write(path, bytes)
    }
}

/// A file that could not be loaded: which file, where inside it, and what was expected.
///
/// ```
/// use agent_test_runtime::model::Scenario;
/// let err = agent_test_runtime::load_json::<Scenario>("s.json", r#"{"name": "x", "steps": [{"step": "usr"}]}"#).unwrap_err();
/// assert_eq!(err.path, "steps[0].step");
/// assert!(err.message.starts_with("unknown variant `usr`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
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
/// let err = agent_test_runtime::read_text("nope.json").unwrap_err();
/// assert!(err.to_string().starts_with("nope.json: cannot read the file"));
/// ```
pub fn read_text(path: impl AsRef<Path>) -> Result<String, LoadError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| LoadError {
        file: path.to_owned(),
        path: String::new(),
        message: format!("cannot read the file: {e}"),
    })?;
    String::from_utf8(bytes).map_err(|e| LoadError {
        file: path.to_owned(),
        path: String::new(),
        message: format!(
            "the file is not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ),
    })
}

/// How deep a recording's JSON may nest: the values an agent sent (a body, arguments,
/// results: up to the 127 levels serde_json reads) sit a few levels down in a recording, and
/// a trace's values deeper still. Deeper input is refused before parsing, so that nothing
/// recursing over a recording can exhaust the stack.
pub const MAX_RECORDING_DEPTH: usize = 512;

/// Parses a recording's JSON, up to [`MAX_RECORDING_DEPTH`] levels deep.
fn parse_recording_json(text: &str, file: &Path) -> Result<Value, LoadError> {
    if let Some((line, column)) = first_too_deep(text, MAX_RECORDING_DEPTH) {
        return Err(LoadError {
            file: file.to_owned(),
            path: format!("line {line}, column {column}"),
            message: format!("not valid JSON: nested deeper than {MAX_RECORDING_DEPTH} levels"),
        });
    }
    // Bounded by the scan above instead of serde_json's limit.
    crate::strict_json::parse_unbounded(text).map_err(|e| {
        e.into_load_error(file, |e| LoadError {
            file: file.to_owned(),
            path: String::new(),
            message: format!("not valid JSON: {e}"),
        })
    })
}

/// Where (line, column, 1-based) JSON text first opens an array or object deeper than
/// `limit`, strings skipped.
fn first_too_deep(text: &str, limit: usize) -> Option<(usize, usize)> {
    let (mut depth, mut line, mut column) = (0usize, 1usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        column = column.saturating_add(1);
        match c {
            '\n' => {
                line = line.saturating_add(1);
                column = 0;
            }
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '[' | '{' if !in_string => {
                depth = depth.saturating_add(1);
                if depth > limit {
                    return Some((line, column));
                }
            }
            ']' | '}' if !in_string => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// Parses JSON text with the one strict reader of every input (a repeated key is an error, a
/// leading byte order mark is skipped).
fn parse_json(text: &str, file: &Path) -> Result<Value, LoadError> {
    crate::strict_json::parse(text).map_err(|e| {
        e.into_load_error(file, |e| LoadError {
            file: file.to_owned(),
            path: String::new(),
            message: format!("not valid JSON: {e}"),
        })
    })
}

/// Reads an already parsed JSON value into `T`, naming the field at fault (see [`load_json`]).
///
/// ```
/// # use agent_test_runtime::model::Scenario;
/// let err = agent_test_runtime::load_value::<Scenario>("s.json", serde_json::json!({"name": 3})).unwrap_err();
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
            .strip_prefix(crate::model::IMPOSSIBLE_AT)
            .and_then(|m| m.split_once(": "))
        {
            return LoadError {
                file: file.to_owned(),
                path: match path.as_str() {
                    "" | "." => inner.to_owned(),
                    outer => format!("{outer}.{inner}"),
                },
                message: format!("impossible constraint: {rest}"),
            };
        }
        LoadError {
            file: file.to_owned(),
            path,
            message,
        }
    })
}

/// The path of an error: serde's, made exact for an unknown field. Inside a tagged enum (a
/// check, a matcher, a step) serde's path stops at the enum; the field is then looked for
/// below it, and when exactly one object there has it, that is the place.
fn exact_path(value: &Value, path: &serde_path_to_error::Path, message: &str) -> String {
    use serde_path_to_error::Segment;
    let shown = path.to_string();
    let Some(field) = message
        .strip_prefix("unknown field `")
        .and_then(|rest| rest.split('`').next())
    else {
        return shown;
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
    holders(here, field, String::new(), &mut found);
    let [inner] = found.as_slice() else {
        return shown;
    };
    match (shown.as_str(), inner.as_str()) {
        (".", inner) => inner.trim_start_matches('.').to_owned(),
        (outer, inner) => format!("{outer}{inner}"),
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
    let value = parse_json(text, file.as_ref())?;
    load_value(file.as_ref(), value)
}

/// Reads and parses a JSON file into `T` (see [`load_json`]).
///
/// ```
/// # use agent_test_runtime::model::Scenario;
/// assert!(agent_test_runtime::load_json_file::<Scenario>("nope.json").is_err());
/// ```
pub fn load_json_file<T: DeserializeOwned>(path: impl AsRef<Path>) -> Result<T, LoadError> {
    let path = path.as_ref();
    let text = read_text(path)?;
    load_json(path, &text)
}
