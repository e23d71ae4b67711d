//! Reading scenario files and recorded runs (or traces) from files and directories.

use std::path::{Path, PathBuf};

use agent_test_runtime::formats::{self, SeedFormat};
use agent_test_runtime::model::Scenario;
use agent_test_runtime::trace::{self, Format};
use agent_test_runtime::{LoadError, RecordedRun, ScenarioInfo, load_json, load_value, read_text};
use serde_json::Value;

/// Scenario files: JSON, JSONL and YAML.
pub(crate) const SCENARIO_EXTENSIONS: &[&str] = &["json", "jsonl", "yaml", "yml"];

/// Recorded runs and traces: JSON.
pub(crate) const RUN_EXTENSIONS: &[&str] = &["json"];

/// The files named, and the files with one of `extensions` in the directories named, searched
/// recursively, in a stable order.
pub(crate) fn files(paths: &[PathBuf], extensions: &[&str]) -> Result<Vec<PathBuf>, String> {
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
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
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

/// Scenarios from a file, and the recordings it carries: the seed format named, else the one
/// detected from the content (see [`formats::detect_value`]), else the native form — one
/// scenario, an array of them, or `{"scenarios": [...]}`. The file is parsed once.
pub(crate) fn load_scenarios(path: &Path, format: Option<SeedFormat>) -> Result<Loaded, LoadError> {
    let text = read_text(path)?;
    let cases = if format.is_some() || formats::is_yaml(path) || formats::is_jsonl(path) {
        formats::from_text(&text, path, format)?
    } else {
        let value: Value = load_json(path, &text)?;
        match formats::detect_value(&value) {
            Some(f) => formats::from_value(&value, path, f)?,
            None => {
                return native_scenarios(path, value).map(|scenarios| Loaded {
                    scenarios,
                    recordings: Vec::new(),
                });
            }
        }
    };
    let mut loaded = Loaded::default();
    for c in cases {
        if let Some(r) = c.recording {
            loaded
                .recordings
                .push((format!("{} ({})", path.display(), c.scenario.name), r));
        }
        loaded.scenarios.push(c.scenario);
    }
    Ok(loaded)
}

/// Scenarios, and recordings that came with them (labelled by file and scenario).
#[derive(Default)]
pub(crate) struct Loaded {
    pub(crate) scenarios: Vec<Scenario>,
    pub(crate) recordings: Vec<(String, RecordedRun)>,
}

fn native_scenarios(path: &Path, value: Value) -> Result<Vec<Scenario>, LoadError> {
    match value {
        Value::Array(_) => load_value(path, value),
        Value::Object(ref o) if o.contains_key("scenarios") && !o.contains_key("name") => {
            #[derive(serde::Deserialize)]
            #[serde(deny_unknown_fields)]
            struct File {
                scenarios: Vec<Scenario>,
            }
            load_value::<File>(path, value).map(|f| f.scenarios)
        }
        _ => load_value(path, value).map(|s| vec![s]),
    }
}

/// A recorded run, a JSON report, or a trace in a known format (named after the file).
pub(crate) fn load_run(path: &Path, format: Option<Format>) -> Result<RecordedRun, LoadError> {
    let text = read_text(path)?;
    let value: Value = load_json(path, &text)?;
    if format.is_none() && value.get("transcript").is_some() && value.get("scenario").is_some() {
        return RecordedRun::from_value(value, path);
    }
    let transcript = trace::parse(&value, format).map_err(|e| LoadError {
        file: path.to_owned(),
        path: e.relative_path().to_owned(),
        message: match e.format {
            Some(f) => format!("{f} trace: {}", e.message),
            None => format!(
                "not a recorded run (`scenario` + `transcript`), a JSON report or a trace: {}",
                e.message
            ),
        },
    })?;
    let name = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    Ok(RecordedRun {
        scenario: ScenarioInfo::new(name),
        transcript,
    })
}
