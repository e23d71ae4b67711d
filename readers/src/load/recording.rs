//! Recorded runs and JSON reports read back: straight from the text when nothing is wrong
//! with it, else by the strict reader that names what is.

use std::path::Path;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

use agent_test_core::model::{RecordedRun, ScenarioInfo, Transcript};
use agent_test_core::util::input::{LoadError, LoadErrorKind, json_text_error};

/// How deep a recording's JSON may nest: the values an agent sent (a body, arguments,
/// results: up to the 127 levels serde_json reads) sit a few levels down in a recording, and
/// a trace's values deeper still. Deeper input is refused before parsing, so that nothing
/// recursing over a recording can exhaust the stack.
pub const MAX_RECORDING_DEPTH: usize = 512;

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
    #[serde(default)]
    cassette: Option<IgnoredAny>,
    #[serde(default)]
    checks: Option<IgnoredAny>,
}

impl From<ReportFields> for RecordedRun {
    fn from(r: ReportFields) -> Self {
        RecordedRun {
            scenario: r.scenario,
            transcript: r.transcript,
        }
    }
}

/// How deeply a JSON text nests, scanned once (strings skipped) before anything parses it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Depth {
    /// The deepest array or object.
    pub(super) max: usize,
    /// Where (line, column, 1-based) the text first opens one deeper than
    /// [`MAX_RECORDING_DEPTH`].
    pub(super) too_deep: Option<(usize, usize)>,
}

impl Depth {
    pub(super) fn scan(text: &str) -> Depth {
        let (mut depth, mut max, mut line, mut column) = (0usize, 0usize, 1usize, 0usize);
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
                    max = max.max(depth);
                    if depth > MAX_RECORDING_DEPTH {
                        return Depth {
                            max,
                            too_deep: Some((line, column)),
                        };
                    }
                }
                ']' | '}' if !in_string => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        Depth {
            max,
            too_deep: None,
        }
    }

    /// The error of a text nested deeper than a recording may be.
    pub(super) fn check(self, file: &Path) -> Result<(), LoadError> {
        match self.too_deep {
            Some((line, column)) => Err(LoadError {
                kind: LoadErrorKind::Syntax,
                file: file.to_owned(),
                path: format!("line {line}, column {column}"),
                message: format!("not valid JSON: nested deeper than {MAX_RECORDING_DEPTH} levels"),
            }),
            None => Ok(()),
        }
    }
}

/// A recorded run or a JSON report read straight from its text, when nothing is wrong with it
/// (see [`agent_test_core::util::typed`]) and it is not deeper than a recording may be.
pub(super) fn fast(text: &str, depth: Depth) -> Option<RecordedRun> {
    // Shared strings are put back by the strict reader.
    if depth.too_deep.is_some() || agent_test_core::util::shared_strings::may_hold_shared(text) {
        return None;
    }
    // A report has verdicts beside the scenario and transcript: try its form first when the
    // text mentions them (a wrong guess costs a second read, never a wrong answer).
    let report =
        || agent_test_core::util::typed::read::<ReportFields>(text, true).map(RecordedRun::from);
    let run = || agent_test_core::util::typed::read::<RecordedRun>(text, true);
    if memchr::memmem::find(text.as_bytes(), b"\"verdicts\"").is_some() {
        report().or_else(run)
    } else {
        run().or_else(report)
    }
}

/// JSON text parsed once, bounded by the depth scan instead of serde_json's limit.
pub(super) fn parse_text(text: &str, file: &Path, depth: Depth) -> Result<Value, LoadError> {
    depth.check(file)?;
    agent_test_core::util::json::parse_unbounded(text).map_err(|e| json_text_error(file, e))
}

/// Whether a parsed document is a recorded run or a report rather than a trace.
pub(super) fn is_recording(value: &Value) -> bool {
    value.get("transcript").is_some() && value.get("scenario").is_some()
}

/// A recorded run (or a JSON report) from its parsed JSON, its shared strings put back;
/// `file` names it in errors.
pub(super) fn from_value(mut value: Value, file: &Path) -> Result<RecordedRun, LoadError> {
    agent_test_core::util::shared_strings::expand_shared(&mut value).map_err(|e| LoadError {
        kind: LoadErrorKind::Invalid,
        file: file.to_owned(),
        path: String::new(),
        message: e.to_string(),
    })?;
    // Taken by value (no copy of a large transcript): a recording has no tagged enums, so
    // serde's path is exact without the search `load_value` makes.
    let load_error = |e: serde_path_to_error::Error<serde_json::Error>| LoadError {
        kind: LoadErrorKind::Invalid,
        file: file.to_owned(),
        path: e.path().to_string(),
        message: e.inner().to_string(),
    };
    if value.get("verdicts").is_some() {
        let r: ReportFields = serde_path_to_error::deserialize(value).map_err(load_error)?;
        return Ok(r.into());
    }
    serde_path_to_error::deserialize(value).map_err(load_error)
}
