//! Recorded runs: the JSON a run leaves behind, read back to replay or re-evaluate it.

use std::path::Path;

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{ScenarioInfo, Transcript};
use crate::util::input::{LoadError, json_text_error, read_text};
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
/// use agent_test::RecordedRun;
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
    /// # use agent_test::RecordedRun;
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
    /// # use agent_test::RecordedRun;
    /// let deep = format!("{}1{}", "[".repeat(600), "]".repeat(600));
    /// let text = format!(r#"{{"scenario": {{"name": "x"}}, "transcript": {{"turns": [], "context": {{"v": {deep}}}}}}}"#);
    /// assert_eq!(RecordedRun::from_json(&text, "x.json").unwrap_err().to_string(),
    ///            "x.json: at line 1, column 583: not valid JSON: nested deeper than 512 levels");
    /// ```
    pub fn from_json(text: &str, file: impl AsRef<Path>) -> Result<Self, LoadError> {
        if let Some(run) = fast_read(text) {
            return Ok(run);
        }
        // Something is wrong: the strict reader names it (the fast path builds no error).
        Self::from_value(parse_recording_json(text, file.as_ref())?, file)
    }

    /// Reads a recorded run (or a JSON report) from parsed JSON; `file` names it in errors.
    ///
    /// ```
    /// # use agent_test::RecordedRun;
    /// let value = serde_json::json!({"scenario": {"name": "x"}, "transcript": {"turns": []}});
    /// assert_eq!(RecordedRun::from_value(value, "x.json").unwrap().scenario.name, "x");
    /// ```
    pub fn from_value(value: Value, file: impl AsRef<Path>) -> Result<Self, LoadError> {
        // Taken by value (no copy of a large transcript): a recording has no tagged enums, so
        // serde's path is exact without the search `load_value` makes.
        let file = file.as_ref();
        let load_error = |e: serde_path_to_error::Error<serde_json::Error>| LoadError {
            kind: crate::util::input::LoadErrorKind::Invalid,
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
    /// # use agent_test::{RecordedRun, ScenarioInfo, model::Transcript};
    /// let path = std::env::temp_dir().join("agent-test-doc-recording.json");
    /// let run = RecordedRun { scenario: ScenarioInfo::new("x"), transcript: Transcript::default() };
    /// run.save(&path).unwrap();
    /// assert_eq!(RecordedRun::load(&path).unwrap(), run);
    /// ```
    pub fn save(&self, path: impl AsRef<Path>) -> std::io::Result<()> {
        let mut doc = serde_json::to_value(self).map_err(std::io::Error::other)?;
        crate::util::shared_strings::share_repeats(&mut doc);
        let bytes = serde_json::to_vec_pretty(&doc).map_err(std::io::Error::other)?;
        std::fs::write(path, bytes)
    }
}

/// How deep a recording's JSON may nest: the values an agent sent (a body, arguments,
/// results: up to the 127 levels serde_json reads) sit a few levels down in a recording, and
/// a trace's values deeper still. Deeper input is refused before parsing, so that nothing
/// recursing over a recording can exhaust the stack.
pub const MAX_RECORDING_DEPTH: usize = 512;

/// Parses a recording's JSON, up to [`MAX_RECORDING_DEPTH`] levels deep.
/// A recorded run or a JSON report read straight from its text, when nothing is wrong with it
/// (see [`crate::util::typed`]); nested at most [`MAX_RECORDING_DEPTH`] levels.
pub(crate) fn fast_read(text: &str) -> Option<RecordedRun> {
    // Shared strings are put back by the strict reader.
    if first_too_deep(text, MAX_RECORDING_DEPTH).is_some()
        || crate::util::shared_strings::may_hold_shared(text)
    {
        return None;
    }
    // A report has verdicts beside the scenario and transcript: try its form first when the
    // text mentions them (a wrong guess costs a second read, never a wrong answer).
    let report = || {
        crate::util::typed::read::<ReportFields>(text, true).map(|r| RecordedRun {
            scenario: r.scenario,
            transcript: r.transcript,
        })
    };
    let run = || crate::util::typed::read::<RecordedRun>(text, true);
    if memchr::memmem::find(text.as_bytes(), b"\"verdicts\"").is_some() {
        report().or_else(run)
    } else {
        run().or_else(report)
    }
}

pub(crate) fn parse_recording_json(text: &str, file: &Path) -> Result<Value, LoadError> {
    if let Some((line, column)) = first_too_deep(text, MAX_RECORDING_DEPTH) {
        return Err(LoadError {
            kind: crate::util::input::LoadErrorKind::Syntax,
            file: file.to_owned(),
            path: format!("line {line}, column {column}"),
            message: format!("not valid JSON: nested deeper than {MAX_RECORDING_DEPTH} levels"),
        });
    }
    // Bounded by the scan above instead of serde_json's limit.
    let mut value =
        crate::util::json::parse_unbounded(text).map_err(|e| json_text_error(file, e))?;
    crate::util::shared_strings::expand_shared(&mut value).map_err(|message| LoadError {
        kind: crate::util::input::LoadErrorKind::Invalid,
        file: file.to_owned(),
        path: String::new(),
        message,
    })?;
    Ok(value)
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
