//! One loader for every input agent-test reads, with one door per kind of input:
//!
//! | input | door | what it reads |
//! |---|---|---|
//! | scenarios | [`cases`], [`cases_from_text`], [`CaseFile`] (case by case) | agent-test's own JSON form and the five [seed formats](crate::formats) |
//! | runs to evaluate | [`run`], [`run_from_text`] | recorded runs, JSON reports, traces in every [`TraceFormat`] |
//! | typed JSON (prices, settings) | [`load_json_file`], [`load_json`] | any `serde` type, the field at fault named |
//! | the files of a command | [`files`] | files named, directories searched |
//!
//! The command line, `files "..."` in `agent_test!`, `FileCases`
//! and `ReplayAgent::from_file` all read through it, so
//! a file loads — or fails with the same [`LoadError`], of the same [`LoadErrorKind`], naming
//! its place — the same way everywhere. Each door decides the input's syntax once (from the
//! file's name), parses the text once, and names or detects its format once.
//!
//! ```
//! use agent_test::load;
//! // agent-test's own form ...
//! let native = r#"{"name": "greets", "steps": [{"step": "user", "text": "hi"}]}"#;
//! assert_eq!(load::cases_from_text(native, "greets.json", None).unwrap()[0].scenario.name, "greets");
//! // ... and a seed format, detected from the content.
//! let mibo = r#"{"scenario": "ping", "input_utterance": "ping"}"#;
//! assert_eq!(load::cases_from_text(mibo, "ping.json", None).unwrap()[0].scenario.name, "ping");
//! ```

mod case_file;
#[cfg(test)]
mod closed_forms;
mod files;
mod recording;
mod runs;
mod scenarios;

use std::path::Path;

use crate::formats::{ImportedCase, SeedFormat};
use crate::trace::TraceFormat;
use agent_test_core::model::RecordedRun;
pub use agent_test_core::util::input::{
    LoadError, LoadErrorKind, load_json, load_json_file, load_value, read_text,
};
pub use case_file::CaseFile;
pub use files::files;
pub use recording::MAX_RECORDING_DEPTH;

/// Extensions of scenario files: JSON, JSON lines and YAML.
pub const SCENARIO_EXTENSIONS: &[&str] = &["json", "jsonl", "yaml", "yml"];

/// Extensions of recorded runs and traces: JSON.
pub const RUN_EXTENSIONS: &[&str] = &["json"];

/// The scenarios of a file, each with the run it carries if any (MorganaBench `outputs`):
/// the seed format named, else the one detected from the content, else agent-test's own form
/// — one scenario, an array of them, or `{"scenarios": [...]}`. Every literal of every check
/// (regexes, queries, schemas, expressions) is checked here, so a broken one is a load error.
///
/// ```
/// use agent_test::load::{self, LoadErrorKind};
/// let err = load::cases("missing.json", None).unwrap_err();
/// assert_eq!(err.kind, LoadErrorKind::NotFound);
/// assert!(err.to_string().starts_with("missing.json: cannot read the file"));
/// ```
pub fn cases(
    path: impl AsRef<Path>,
    format: Option<SeedFormat>,
) -> Result<Vec<ImportedCase>, LoadError> {
    let path = path.as_ref();
    cases_from_text(&read_text(path)?, path, format)
}

/// [`cases`] of a file's text; `file` names it in errors and default names, and its extension
/// says whether the text is YAML (`.yaml`, `.yml`) or JSON lines (`.jsonl`).
///
/// ```
/// use agent_test::{formats::SeedFormat, load};
/// let yaml = "kind: Scenario\nmetadata: {name: weather}\nspec: {turns: [{role: user, content: hi}]}";
/// # #[cfg(feature = "yaml")]
/// assert_eq!(load::cases_from_text(yaml, "weather.yaml", Some(SeedFormat::PromptKit)).unwrap()[0].scenario.name, "weather");
/// ```
///
/// See also the [module documentation](self).
pub fn cases_from_text(
    text: &str,
    file: impl AsRef<Path>,
    format: Option<SeedFormat>,
) -> Result<Vec<ImportedCase>, LoadError> {
    scenarios::read_cases(text, file.as_ref(), format)
}

/// A run to evaluate: a recorded run, a JSON report, or a trace in the format named (else
/// detected), named after the file.
///
/// ```
/// use agent_test::load::{self, LoadErrorKind};
/// let err = load::run("missing.json", None).unwrap_err();
/// assert_eq!(err.kind, LoadErrorKind::NotFound);
/// ```
pub fn run(path: impl AsRef<Path>, format: Option<TraceFormat>) -> Result<RecordedRun, LoadError> {
    let path = path.as_ref();
    run_from_text(&read_text(path)?, path, format)
}

/// [`run`] of a file's text; `file` names it in errors and names the run of a trace.
///
/// A recording nests the values the agent sent (bodies, arguments, results, each up to the
/// 127 levels serde_json reads) inside its own levels, so it is read up to
/// [`MAX_RECORDING_DEPTH`] levels deep: a run's recording always reloads. A trace is read
/// within serde_json's 127.
///
/// ```
/// use agent_test::load;
/// let trace = r#"{"choices": [{"message": {"role": "assistant", "content": "Hello!"}}]}"#;
/// let run = load::run_from_text(trace, "greeting.json", None).unwrap();
/// assert_eq!(run.scenario.name, "greeting");
/// assert_eq!(run.transcript.final_reply(), "Hello!");
///
/// let recorded = r#"{"scenario": {"name": "x"}, "transcript": {"turns": [{"index": "one"}]}}"#;
/// assert_eq!(load::run_from_text(recorded, "x.json", None).unwrap_err().to_string(),
///            "x.json: at transcript.turns[0].index: invalid type: string \"one\", expected usize");
///
/// let deep = format!("{}1{}", "[".repeat(600), "]".repeat(600));
/// let text = format!(r#"{{"scenario": {{"name": "x"}}, "transcript": {{"turns": [], "context": {{"v": {deep}}}}}}}"#);
/// assert_eq!(load::run_from_text(&text, "x.json", None).unwrap_err().to_string(),
///            "x.json: at line 1, column 583: not valid JSON: nested deeper than 512 levels");
/// ```
pub fn run_from_text(
    text: &str,
    file: impl AsRef<Path>,
    format: Option<TraceFormat>,
) -> Result<RecordedRun, LoadError> {
    runs::read_run(text, file.as_ref(), format)
}
