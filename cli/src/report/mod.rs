//! `agent-test report` and `agent-test diff`: the JSON reports runs leave behind, read back and
//! shown — a self-contained HTML page, a Markdown summary for a CI job, JUnit XML — or
//! compared run against run.
//!
//! Inputs are what agent-test writes: the JSON report of each scenario a `cargo test` run
//! leaves in `target/agent-test/` (one file per scenario), and the JSON output of
//! `agent-test eval` / `run` (`{"runs": [...]}`). Directories are searched recursively; the
//! judge's cache (`judge-cache/`) is not a report and is passed over.

mod annotations;
mod command;
mod comment;
mod compare;
pub(crate) mod html;
mod labels;
mod markdown;
mod stats;

use std::path::{Path, PathBuf};

use agent_test_runtime::report::Report;
use serde::Deserialize;

pub(crate) use command::{diff, report};
pub(crate) use compare::Comparison;
pub(crate) use html::page;
pub(crate) use markdown::summary as markdown;
pub(crate) use stats::Stats;

/// One scenario's report, and where it was read.
pub(crate) struct Entry {
    /// The file (and, for a command's output, the run's source in it).
    pub(crate) source: String,
    pub(crate) report: Report,
}

impl Entry {
    /// What identifies the scenario across runs: its module and name (and repeat index).
    pub(crate) fn key(&self) -> String {
        let s = &self.report.scenario;
        let mut key = match &s.module {
            Some(m) if !m.is_empty() => format!("{m}::{}", s.name),
            _ => s.name.clone(),
        };
        if s.repeat > 0 {
            key.push_str(&format!("#{}", s.repeat));
        }
        key
    }

    /// The file the scenario is grouped under in filters: its test's source file, else its
    /// module, else the directory of its report (relative to the directory read).
    pub(crate) fn group(&self) -> String {
        let s = &self.report.scenario;
        s.file
            .clone()
            .or_else(|| s.module.clone())
            .unwrap_or_else(|| {
                let file = self.source.split(" (").next().unwrap_or(&self.source);
                match Path::new(file).parent() {
                    Some(dir) if !dir.as_os_str().is_empty() => dir.display().to_string(),
                    _ => ".".to_owned(),
                }
            })
    }
}

/// The reports found, and what could not be read.
#[derive(Default)]
pub(crate) struct Collection {
    pub(crate) entries: Vec<Entry>,
    /// Files that are not reports, or not readable, with why.
    pub(crate) problems: Vec<String>,
}

/// An `agent-test eval` / `run` output.
#[derive(Deserialize)]
struct CommandOutput {
    runs: Vec<CommandRun>,
}

#[derive(Deserialize)]
struct CommandRun {
    source: String,
    /// `eval` leaves the transcript out (the recording is its input).
    #[serde(default)]
    report: Option<serde_json::Value>,
    #[serde(default)]
    error: Option<String>,
}

impl Collection {
    /// Reads every report under `paths` (files, or directories searched recursively).
    pub(crate) fn read(paths: &[PathBuf]) -> Result<Self, String> {
        // Each file with the directory it was found in: reports are named relative to it.
        let mut files: Vec<(PathBuf, PathBuf)> = Vec::new();
        for p in paths {
            if p.is_dir() {
                let mut found = Vec::new();
                walk(p, &mut found)
                    .map_err(|e| format!("{}: cannot read the directory: {e}", p.display()))?;
                files.extend(found.into_iter().map(|f| (p.clone(), f)));
            } else if p.exists() {
                files.push((PathBuf::new(), p.clone()));
            } else {
                return Err(format!("{}: no such file or directory", p.display()));
            }
        }
        let mut c = Collection::default();
        for (root, f) in &files {
            c.add(f, root);
        }
        // Failures first, then as the suite reads: by file and name.
        c.entries
            .sort_by_cached_key(|e| (e.report.passed(), e.group(), e.key()));
        Ok(c)
    }

    fn add(&mut self, file: &Path, root: &Path) {
        let shown = file
            .strip_prefix(root)
            .unwrap_or(file)
            .display()
            .to_string();
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => return self.problems.push(format!("{shown}: cannot read: {e}")),
        };
        let value: serde_json::Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => return self.problems.push(format!("{shown}: not JSON: {e}")),
        };
        if value.get("runs").is_some_and(serde_json::Value::is_array) {
            match serde_json::from_value::<CommandOutput>(value) {
                Ok(out) => {
                    for run in out.runs {
                        match (run.report, run.error) {
                            (Some(mut report), _) => {
                                if let Err(e) =
                                    agent_test_runtime::report::expand_shared(&mut report)
                                {
                                    self.problems.push(format!("{shown}: {}: {e}", run.source));
                                    continue;
                                }
                                if let Some(o) = report.as_object_mut() {
                                    o.entry("transcript")
                                        .or_insert_with(|| serde_json::json!({"turns": []}));
                                }
                                match serde_json::from_value::<Report>(report) {
                                    Ok(report) => self.entries.push(Entry {
                                        source: format!("{shown} ({})", run.source),
                                        report,
                                    }),
                                    Err(e) => self.problems.push(format!(
                                        "{shown}: {}: not an agent-test report: {e}",
                                        run.source
                                    )),
                                }
                            }
                            (None, Some(e)) => self
                                .problems
                                .push(format!("{shown}: {}: unreadable run: {e}", run.source)),
                            (None, None) => self.problems.push(format!(
                                "{shown}: {}: the run has no report (write the output with \
                                 --format json)",
                                run.source
                            )),
                        }
                    }
                }
                Err(e) => self
                    .problems
                    .push(format!("{shown}: not an agent-test output: {e}")),
            }
        } else if value.get("verdicts").is_some() && value.get("scenario").is_some() {
            let mut value = value;
            if let Err(e) = agent_test_runtime::report::expand_shared(&mut value) {
                return self.problems.push(format!("{shown}: {e}"));
            }
            match serde_json::from_value::<Report>(value) {
                Ok(report) => self.entries.push(Entry {
                    source: shown,
                    report,
                }),
                Err(e) => self
                    .problems
                    .push(format!("{shown}: not an agent-test report: {e}")),
            }
        } else {
            self.problems.push(format!(
                "{shown}: not an agent-test report (no `verdicts`) nor a command's output (no \
                 `runs`)"
            ));
        }
    }
}

/// The `.json` files under `dir`, recursively, in a stable order; `judge-cache` directories
/// (the judge's verdict cache, kept beside the reports) are passed over.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<(PathBuf, bool)> = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        entries.push((entry.path(), is_dir));
    }
    entries.sort();
    for (p, is_dir) in entries {
        if is_dir {
            if p.file_name().is_some_and(|n| n != "judge-cache") {
                walk(&p, out)?;
            }
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
    Ok(())
}
