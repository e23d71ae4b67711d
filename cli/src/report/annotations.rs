//! Failing checks at their place in the pull request: GitHub Actions workflow commands
//! (`::error file=…,line=…::…`) and a GitLab code-quality report.
//!
//! Every failing check of an error-severity is an error at its scenario's source line (a macro
//! suite's `scenario` line; a data file as a whole); a failing warning-severity check and a
//! flaky check of a repeated scenario are warnings. Paths are made relative to the repository:
//! a macro suite's are already (they are `file!()`'s); a data file's are relative to its crate,
//! and are found under the repository by their ending.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use agent_test_runtime::check::{Severity, Status};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::Entry;

/// GitHub shows ten annotations of each level per step: the tenth of a level says how many
/// more there are.
const GITHUB_PER_LEVEL: usize = 10;

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    Error,
    Warning,
}

/// One finding, placed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Annotation {
    level: Level,
    /// The file, relative to the repository, when known.
    file: Option<String>,
    line: Option<u32>,
    /// The scenario.
    title: String,
    /// The check and why.
    message: String,
}

/// The findings of `entries`, in their order.
pub(crate) fn annotations(entries: &[Entry]) -> Vec<Annotation> {
    let mut locator = Locator::new();
    let mut out = Vec::new();
    for e in entries {
        let r = &e.report;
        let file = r.scenario.file.as_deref().map(|f| locator.locate(f));
        let mut add = |level, message: String| {
            out.push(Annotation {
                level,
                file: file.clone(),
                line: r.scenario.line,
                title: e.key(),
                message,
            });
        };
        for v in &r.verdicts {
            let failed = matches!(v.status, Status::Fail | Status::Error);
            if !failed {
                continue;
            }
            let level = if v.severity == Severity::Error {
                Level::Error
            } else {
                Level::Warning
            };
            add(level, format!("{}: {}", v.label, v.reason));
        }
        for t in r.repeats.iter().flat_map(|rep| &rep.checks) {
            if t.flaky() {
                add(
                    Level::Warning,
                    format!(
                        "flaky: {} passed {} of {} runs",
                        t.label,
                        t.passed,
                        t.passed + t.not_passed
                    ),
                );
            }
        }
    }
    out
}

/// The findings as GitHub workflow commands, at most ten of each level.
pub(crate) fn github(all: &[Annotation]) -> String {
    let mut out = String::new();
    for level in [Level::Error, Level::Warning] {
        let of_level: Vec<&Annotation> = all.iter().filter(|a| a.level == level).collect();
        let name = match level {
            Level::Error => "error",
            Level::Warning => "warning",
        };
        let shown = if of_level.len() > GITHUB_PER_LEVEL {
            GITHUB_PER_LEVEL - 1
        } else {
            of_level.len()
        };
        for a in of_level.iter().take(shown) {
            let mut props = Vec::new();
            if let Some(f) = &a.file {
                props.push(format!("file={}", property(f)));
            }
            if let Some(l) = a.line {
                props.push(format!("line={l}"));
            }
            props.push(format!("title={}", property(&a.title)));
            let _ = writeln!(out, "::{name} {}::{}", props.join(","), data(&a.message));
        }
        let rest = of_level.len() - shown;
        if rest > 0 {
            let _ = writeln!(
                out,
                "::{name} title=agent-test::{}",
                data(&format!(
                    "{rest} more {name}s not shown here (GitHub keeps {GITHUB_PER_LEVEL} per \
                     step): see the job summary or the HTML report"
                ))
            );
        }
    }
    out
}

/// The findings as a GitLab code-quality report (a JSON array).
pub(crate) fn gitlab(all: &[Annotation]) -> Value {
    let issues: Vec<Value> = all
        .iter()
        .map(|a| {
            let fingerprint: String = Sha256::digest(format!("{}\u{0}{}", a.title, a.message))
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            json!({
                "description": format!("{}: {}", a.title, a.message),
                "check_name": "agent-test",
                "fingerprint": fingerprint,
                "severity": if a.level == Level::Error { "major" } else { "minor" },
                "location": {
                    "path": a.file.as_deref().unwrap_or(""),
                    "lines": {"begin": a.line.unwrap_or(1)},
                },
            })
        })
        .collect();
    Value::Array(issues)
}

/// A message of a workflow command: `%`, carriage returns and line feeds escaped.
fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A property of a workflow command: as [`data`], and `:` and `,` too.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

/// Finds files under the repository that holds the working directory.
struct Locator {
    root: PathBuf,
    /// Every file under the root, relative to it: read once, on the first path not found as
    /// it is.
    files: Option<Vec<String>>,
    found: HashMap<String, String>,
}

impl Locator {
    fn new() -> Self {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        let root = cwd
            .ancestors()
            .find(|d| d.join(".git").exists())
            .unwrap_or(&cwd)
            .to_owned();
        Locator {
            root,
            files: None,
            found: HashMap::new(),
        }
    }

    /// `path` relative to the repository: as it is when it is there, else the one file under
    /// the repository whose path ends with it, else as it is.
    fn locate(&mut self, path: &str) -> String {
        if self.root.join(path).is_file() {
            return path.to_owned();
        }
        if let Some(p) = self.found.get(path) {
            return p.clone();
        }
        let root = &self.root;
        let files = self.files.get_or_insert_with(|| {
            let mut all = Vec::new();
            walk(root, root, &mut all);
            all
        });
        let ending = format!("/{}", path.trim_start_matches("./"));
        let mut matching = files.iter().filter(|f| f.ends_with(&ending));
        let located = match (matching.next(), matching.next()) {
            (Some(one), None) => one.clone(),
            _ => path.to_owned(),
        };
        self.found.insert(path.to_owned(), located.clone());
        located
    }
}

/// The files under `dir`, relative to `root`, skipping build output and hidden directories.
fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if !(name.starts_with('.') || name == "target" || name == "node_modules") {
                walk(root, &path, out);
            }
        } else if let Ok(rel) = path.strip_prefix(root) {
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}
