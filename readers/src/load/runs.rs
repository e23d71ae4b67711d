//! Runs to evaluate — recorded runs, JSON reports, traces — along one road: the text's depth
//! scanned once, a recording read straight from the text, anything else parsed once.

use std::path::Path;

use serde_json::Value;

use super::recording::{self, Depth};
use crate::trace::{self, TraceFormat};
use agent_test_core::model::{RecordedRun, ScenarioInfo};
use agent_test_core::util::input::{LoadError, LoadErrorKind};

/// serde_json's nesting limit, which the trace readers' recursion relies on.
const TRACE_DEPTH: usize = 127;

/// See [`super::run_from_text`].
pub(super) fn read_run(
    text: &str,
    file: &Path,
    format: Option<TraceFormat>,
) -> Result<RecordedRun, LoadError> {
    let parsed = match format {
        Some(_) => None,
        None => {
            let depth = Depth::scan(text);
            if let Some(run) = recording::fast(text, depth) {
                return Ok(run);
            }
            let value = recording::parse_text(text, file, depth)?;
            if recording::is_recording(&value) {
                return recording::from_value(value, file);
            }
            Some((value, depth))
        }
    };
    // A trace: within serde_json's nesting limit, which the trace readers rely on. A deeper
    // text (or one of a named format, not read yet) is parsed by serde_json, which names where
    // it breaks.
    let value = match parsed {
        Some((value, depth)) if depth.max <= TRACE_DEPTH => value,
        _ => agent_test_core::util::input::parse_json(text, file)?,
    };
    trace_run(&value, file, format)
}

fn trace_run(
    value: &Value,
    file: &Path,
    format: Option<TraceFormat>,
) -> Result<RecordedRun, LoadError> {
    let transcript = trace::parse(value, format).map_err(|e| LoadError {
        kind: LoadErrorKind::Invalid,
        file: file.to_owned(),
        path: e.relative_path().to_owned(),
        message: match e.format {
            Some(f) => format!("{f} trace: {}", e.message),
            None => format!(
                "not a recorded run (`scenario` + `transcript`), a JSON report or a trace: {}",
                e.message
            ),
        },
    })?;
    let name = file
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    Ok(RecordedRun {
        scenario: ScenarioInfo::new(name),
        transcript,
    })
}
