//! One loader for every input agent-test reads: scenarios as data (agent-test's own JSON form
//! and the five seed formats), and runs to evaluate (recorded runs, JSON reports and traces in
//! every [`TraceFormat`]). The command line, `files "..."` in `agent_test!` and
//! [`FileCases`](crate::__private::FileCases) all read through it, so a file loads — or fails
//! with the same error naming its place — the same way everywhere.
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

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::formats::{self, ImportedCase, SeedFormat};
use crate::model::{RecordedRun, ScenarioInfo};
use crate::scenario::Scenario;
use crate::trace::{self, TraceFormat};
pub use crate::util::input::{
    LoadError, LoadErrorKind, load_json, load_json_file, load_value, read_text,
};
pub use case_file::CaseFile;

/// Extensions of scenario files: JSON, JSON lines and YAML.
pub const SCENARIO_EXTENSIONS: &[&str] = &["json", "jsonl", "yaml", "yml"];

/// Extensions of recorded runs and traces: JSON.
pub const RUN_EXTENSIONS: &[&str] = &["json"];

/// The scenarios of a file, each with the run it carries if any (MorganaBench `outputs`):
/// the seed format named, else the one detected from the content, else agent-test's own form
/// — one scenario, an array of them, or `{"scenarios": [...]}`.
///
/// ```
/// let err = agent_test::load::cases("missing.json", None).unwrap_err();
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
/// says whether the text is YAML (`.yaml`, `.yml`) or JSON lines (`.jsonl`). The text is
/// parsed once.
///
/// See the [module documentation](self).
pub fn cases_from_text(
    text: &str,
    file: impl AsRef<Path>,
    format: Option<SeedFormat>,
) -> Result<Vec<ImportedCase>, LoadError> {
    let file = file.as_ref();
    if format.is_some() || formats::is_yaml(file) || formats::is_jsonl(file) {
        return formats::from_text(text, file, format);
    }
    if let Some(scenarios) = native_fast(text) {
        return native_cases(scenarios, file);
    }
    let value = crate::util::input::parse_json(text, file)?;
    match formats::detect_value(&value) {
        Some(f) => formats::from_value(&value, file, f),
        None => native_cases(native_scenarios(file, value)?, file),
    }
}

/// Native scenarios as cases, their literals checked (a seed format's loader checks its own).
fn native_cases(scenarios: Vec<Scenario>, file: &Path) -> Result<Vec<ImportedCase>, LoadError> {
    let cases = scenarios
        .into_iter()
        .map(|scenario| ImportedCase {
            scenario,
            recording: None,
        })
        .collect();
    formats::literals_checked(cases, file)
}

/// agent-test's own form read straight from the text, when nothing is wrong with it (see
/// [`crate::util::typed`]). A document that reads as native scenarios is no seed format's:
/// every seed format is recognised by fields the native form refuses.
fn native_fast(text: &str) -> Option<Vec<Scenario>> {
    use crate::util::typed::read;
    match crate::util::json::strip_bom(text)
        .trim_start()
        .as_bytes()
        .first()?
    {
        b'[' => read(text, false),
        b'{' => read::<Scenario>(text, false)
            .map(|s| vec![s])
            .or_else(|| read::<NativeFile>(text, false).map(|f| f.scenarios)),
        _ => None,
    }
}

/// `{"scenarios": [...]}`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct NativeFile {
    scenarios: Vec<Scenario>,
}

/// agent-test's own form: one scenario, an array of them, or `{"scenarios": [...]}`.
fn native_scenarios(file: &Path, value: Value) -> Result<Vec<Scenario>, LoadError> {
    match value {
        Value::Array(_) => load_value(file, value),
        Value::Object(ref o) if o.contains_key("scenarios") && !o.contains_key("name") => {
            load_value::<NativeFile>(file, value).map(|f| f.scenarios)
        }
        _ => load_value(file, value).map(|s| vec![s]),
    }
}

/// A run to evaluate: a recorded run, a JSON report, or a trace in the format named (else
/// detected), named after the file.
///
/// ```
/// use agent_test::load;
/// let trace = r#"{"choices": [{"message": {"role": "assistant", "content": "Hello!"}}]}"#;
/// let run = load::run_from_text(trace, "greeting.json", None).unwrap();
/// assert_eq!(run.scenario.name, "greeting");
/// assert_eq!(run.transcript.final_reply(), "Hello!");
/// ```
pub fn run(path: impl AsRef<Path>, format: Option<TraceFormat>) -> Result<RecordedRun, LoadError> {
    let path = path.as_ref();
    run_from_text(&read_text(path)?, path, format)
}

/// [`run`] of a file's text.
///
/// See [`run`].
pub fn run_from_text(
    text: &str,
    file: impl AsRef<Path>,
    format: Option<TraceFormat>,
) -> Result<RecordedRun, LoadError> {
    let file = file.as_ref();
    if format.is_none() {
        if let Some(run) = crate::model::recording::fast_read(text) {
            return Ok(run);
        }
        // A recorded run or a report: read with the recordings' own depth bound.
        let value = crate::model::recording::parse_recording_json(text, file)?;
        if value.get("transcript").is_some() && value.get("scenario").is_some() {
            return RecordedRun::from_value(value, file);
        }
    }
    // A trace: read with serde_json's nesting limit, which the trace readers rely on.
    let value = crate::util::input::parse_json(text, file)?;
    trace_run(&value, file, format)
}

fn trace_run(
    value: &Value,
    file: &Path,
    format: Option<TraceFormat>,
) -> Result<RecordedRun, LoadError> {
    let transcript = trace::parse(value, format).map_err(|e| LoadError {
        kind: crate::util::input::LoadErrorKind::Invalid,
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

/// The files named, and the files with one of `extensions` in the directories named, searched
/// recursively, in a stable order.
///
/// ```
/// let err = agent_test::load::files(&["nope/".into()], &["json"]).unwrap_err();
/// assert_eq!(err, "nope/: no such file or directory");
/// ```
pub fn files(paths: &[PathBuf], extensions: &[&str]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, extensions, &mut out)
                .map_err(|e| format!("{}: cannot read the directory: {e}", p.display()))?;
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(format!("{}: no such file or directory", p.display()));
        }
    }
    Ok(out)
}

fn walk(dir: &Path, extensions: &[&str], out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<(PathBuf, bool)> = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        // The entry's own type: no extra stat per file (symlinks are followed below).
        let is_dir = match entry.file_type() {
            Ok(t) if t.is_symlink() => entry.path().is_dir(),
            Ok(t) => t.is_dir(),
            Err(_) => false,
        };
        entries.push((entry.path(), is_dir));
    }
    entries.sort();
    for (p, is_dir) in entries {
        if is_dir {
            walk(&p, extensions, out)?;
        } else if p
            .extension()
            .is_some_and(|e| extensions.iter().any(|x| e.eq_ignore_ascii_case(x)))
        {
            out.push(p);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path reads what the strict one reads, the same way, and nothing it refuses;
    /// and no seed-format document reads as native scenarios (the fast path runs before the
    /// format is detected).
    #[test]
    fn the_fast_read_agrees_with_the_strict_one() {
        let one = r#"{"name": "s", "tags": ["a"], "steps": [{"step": "user", "text": "hi",
            "expect": [{"check": {"type": "text", "source": "reply", "op": "contains", "value": "x"}}]}]}"#;
        let docs = [
            one.to_owned(),
            format!("[{one}, {one}]"),
            format!(r#"{{"scenarios": [{one}]}}"#),
            // A repeated key, an unknown field, an impossible constraint, the wrong shape.
            one.replace(r#""name": "s","#, r#""name": "s", "name": "t","#),
            one.replace(r#""tags""#, r#""tgas""#),
            one.replace(r#"["a"]"#, r#"["a", "a"]"#),
            r#"{"scenarios": {"name": "s"}}"#.to_owned(),
            format!(r#"{{"scenarios": [{one}], "extra": 1}}"#),
            "[]".to_owned(),
        ];
        for text in &docs {
            let strict = crate::util::json::parse(text)
                .ok()
                .and_then(|v| native_scenarios(Path::new("s.json"), v).ok());
            assert_eq!(native_fast(text), strict, "{text}");
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut seen = 0;
        for dir in ["docs/seeds", "runtime/tests/properties/seeds"] {
            for entry in std::fs::read_dir(root.join(dir)).expect("seeds") {
                let path = entry.expect("entry").path();
                if path.extension().is_some_and(|e| e == "json") {
                    let text = std::fs::read_to_string(&path).expect("read");
                    assert_eq!(native_fast(&text), None, "{}", path.display());
                    seen += 1;
                }
            }
        }
        assert!(seen > 10, "seed documents read: {seen}");
    }
}
