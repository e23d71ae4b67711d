//! The table-driven conformance test: every case folder under
//! `runtime/tests/fixtures/conformance/<format>/` (see its README.md) is loaded, evaluated on its
//! runs and compared with its `expect.json`. Adding a case is adding files; every mismatch of a
//! format is reported at once, with the folder it comes from.

use agent_test_runtime::scenario::RunScenario;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use agent_test_runtime::check::Status;
use agent_test_runtime::formats::{self, ImportedCase, SeedFormat};
use agent_test_runtime::load;
use agent_test_runtime::report::Report;
use agent_test_runtime::{RecordedRun, Verdict};
use serde::Deserialize;
use serde_json::Value;

/// The fixture tree.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/conformance")
}

/// The folders under [`root`]: one per seed format, named as the format, and `detected`, whose
/// documents are loaded without naming a format. Anything else there is a mistake (a misspelt
/// format would otherwise be skipped silently).
pub const FOLDERS: &[(&str, Option<SeedFormat>)] = &[
    ("mibo", Some(SeedFormat::Mibo)),
    ("mcplab", Some(SeedFormat::McpLab)),
    ("promptkit", Some(SeedFormat::PromptKit)),
    ("lamdis", Some(SeedFormat::Lamdis)),
    ("morganabench", Some(SeedFormat::MorganaBench)),
    ("detected", None),
];

/// A case folder's `expect.json`. Unknown keys are refused at every level: a misspelt
/// expectation would otherwise check nothing.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    /// What the case shows (required: the folder is its only documentation).
    about: String,
    /// How many cases the document holds (default 1 when it loads).
    cases: Option<usize>,
    /// The exact load error (`file: at path: message`); the document must not load.
    error: Option<String>,
    /// The load error's beginning, where the rest (a parser's wording) may change.
    error_starts_with: Option<String>,
    /// Texts the load error contains.
    #[serde(default)]
    error_contains: Vec<String>,
    /// Checks of the imported scenario, serialised (agent-test's own form).
    #[serde(default)]
    scenario: Vec<Pointer>,
    /// Checks of the run the document carries (MorganaBench `outputs`), serialised.
    #[serde(default)]
    recording: Vec<Pointer>,
    /// What each run's evaluation must give: `runs/<name>.json`, or the document's own
    /// recording for a name starting with `recording`.
    #[serde(default)]
    runs: BTreeMap<String, RunExpect>,
}

/// What one run's report must say.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RunExpect {
    /// Which case of the document evaluates the run (0 for the first).
    #[serde(default)]
    case: usize,
    /// Whether the report passes.
    passed: Option<bool>,
    /// The verdicts, all of them in order: a text the label contains (or the check family)
    /// and the status.
    verdicts: Option<Vec<(String, Status)>>,
    /// A verdict's status and explanation (reason and violations).
    #[serde(default)]
    reasons: Vec<ReasonExpect>,
    /// Checks of the report, serialised.
    #[serde(default)]
    report: Vec<Pointer>,
}

/// One verdict, by a text its label contains (exactly one verdict may match) or by position.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReasonExpect {
    verdict: Option<String>,
    index: Option<usize>,
    status: Option<Status>,
    /// Texts the verdict's reason and violations contain.
    contains: Vec<String>,
}

/// A check of one value in a serialised model, at a JSON pointer: exactly one of `equals`,
/// `contains`, `starts_with` (texts), `length` (arrays) or `absent` (skipped when serialised:
/// empty, false or none).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Pointer {
    at: String,
    /// Which case of the document (scenario and recording checks only).
    case: Option<usize>,
    // `"equals": null` is a check for null, not a missing check.
    #[serde(default, deserialize_with = "present")]
    equals: Option<Value>,
    contains: Option<String>,
    starts_with: Option<String>,
    length: Option<usize>,
    absent: Option<bool>,
}

fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

impl Pointer {
    /// `None` when `value` passes, else why not.
    fn check(&self, value: &Value) -> Option<String> {
        let got = value.pointer(&self.at);
        let text = || got.and_then(Value::as_str);
        let (ok, expected) = match self {
            Pointer {
                equals: Some(v),
                contains: None,
                starts_with: None,
                length: None,
                absent: None,
                ..
            } => (got == Some(v), format!("equal to {v}")),
            Pointer {
                equals: None,
                contains: Some(s),
                starts_with: None,
                length: None,
                absent: None,
                ..
            } => (
                text().is_some_and(|t| t.contains(s)),
                format!("text containing {s:?}"),
            ),
            Pointer {
                equals: None,
                contains: None,
                starts_with: Some(s),
                length: None,
                absent: None,
                ..
            } => (
                text().is_some_and(|t| t.starts_with(s)),
                format!("text starting {s:?}"),
            ),
            Pointer {
                equals: None,
                contains: None,
                starts_with: None,
                length: Some(n),
                absent: None,
                ..
            } => (
                got.and_then(Value::as_array).is_some_and(|a| a.len() == *n),
                format!("an array of {n}"),
            ),
            Pointer {
                equals: None,
                contains: None,
                starts_with: None,
                length: None,
                absent: Some(true),
                ..
            } => (got.is_none(), "absent".to_owned()),
            _ => {
                return Some(format!(
                    "`{}`: give exactly one of `equals`, `contains`, `starts_with`, `length`, \
                     `absent: true`",
                    self.at
                ));
            }
        };
        let got = got.map_or_else(|| "nothing".to_owned(), Value::to_string);
        (!ok).then(|| format!("at `{}`: expected {expected}, got {got}", self.at))
    }
}

/// What checking fixtures found: the mismatches, and how much was checked.
#[derive(Default)]
pub struct Outcome {
    pub mismatches: Vec<String>,
    pub cases: usize,
    pub runs: usize,
    /// Verdict statuses compared (in `verdicts`, `reasons` and report checks of a status).
    pub statuses: usize,
}

impl Outcome {
    fn fail(&mut self, at: &Path, what: impl std::fmt::Display) {
        let at = at.strip_prefix(root()).unwrap_or(at);
        self.mismatches.push(format!("{}: {what}", at.display()));
    }
}

/// Checks every case folder of `folder` (a format's folder of the tree, or another holding case
/// folders), loading documents as `format` (`None`: detected).
pub fn check_folder(folder: &Path, format: Option<SeedFormat>) -> Outcome {
    let mut out = Outcome::default();
    let mut entries = match std::fs::read_dir(folder) {
        Ok(d) => d
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect::<Vec<_>>(),
        Err(e) => {
            out.fail(folder, format!("cannot read the folder: {e}"));
            return out;
        }
    };
    entries.sort();
    for dir in entries {
        if dir.is_dir() {
            check_case(&dir, format, &mut out);
        } else {
            out.fail(
                &dir,
                "a file beside the case folders (each case is a folder)",
            );
        }
    }
    if out.cases == 0 {
        out.fail(folder, "no case folder: nothing was checked");
    }
    out
}

/// The files under `dir`, as paths relative to it with `/`, sorted.
fn files(dir: &Path, prefix: &str, out: &mut Vec<String>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = format!("{prefix}{}", e.file_name().to_string_lossy());
        if e.path().is_dir() {
            files(&e.path(), &format!("{name}/"), out)?;
        } else {
            out.push(name);
        }
    }
    Ok(())
}

/// The document of a case folder, as (its path in the folder, its text): the one file that is
/// neither `expect.json` nor a run. Its path in the folder is the name it is loaded under, which
/// errors and default scenario names show.
pub fn document(dir: &Path) -> Result<(String, String), String> {
    let mut all = Vec::new();
    files(dir, "", &mut all).map_err(|e| format!("cannot read the folder: {e}"))?;
    let documents: Vec<String> = all
        .into_iter()
        .filter(|f| f != "expect.json" && !f.starts_with("runs/"))
        .collect();
    let [file] = &documents[..] else {
        return Err(format!(
            "expected one document beside expect.json and runs/, found {documents:?}"
        ));
    };
    let text = std::fs::read_to_string(dir.join(file)).map_err(|e| format!("{file}: {e}"))?;
    Ok((file.clone(), text))
}

/// Checks one case folder: the document loads as `expect.json` says (or fails to, with its
/// error), and each run's report says what its expectation says.
fn check_case(dir: &Path, format: Option<SeedFormat>, out: &mut Outcome) {
    out.cases += 1;
    let expect_path = dir.join("expect.json");
    let expect: Expect = match std::fs::read_to_string(&expect_path) {
        Err(_) => return out.fail(dir, "no expect.json: the case checks nothing"),
        Ok(text) => match serde_json::from_str(&text) {
            Ok(e) => e,
            Err(e) => return out.fail(&expect_path, e),
        },
    };
    let (file, text) = match document(dir) {
        Ok(d) => d,
        Err(why) => return out.fail(dir, why),
    };
    let mut run_files = Vec::new();
    if dir.join("runs").is_dir()
        && let Err(e) = files(&dir.join("runs"), "", &mut run_files)
    {
        return out.fail(dir, format!("cannot read runs/: {e}"));
    }
    if expect.about.trim().is_empty() {
        out.fail(&expect_path, "`about` is empty: say what the case shows");
    }
    let errs = expect.error.is_some()
        || expect.error_starts_with.is_some()
        || !expect.error_contains.is_empty();
    let checks = expect.cases.is_some()
        || !expect.scenario.is_empty()
        || !expect.recording.is_empty()
        || !expect.runs.is_empty();
    if !errs && !checks {
        return out.fail(
            &expect_path,
            "checks nothing: give `error`, `cases`, `scenario`, `recording` or `runs`",
        );
    }
    let loaded = load::cases_from_text(&text, file.as_str(), format);
    if errs {
        if checks || !run_files.is_empty() {
            out.fail(
                &expect_path,
                "a document that must not load has nothing else to check: no cases, checks or runs",
            );
        }
        return match loaded {
            Ok(cases) => out.fail(
                dir,
                format!(
                    "expected a load error, but it loads ({} case(s))",
                    cases.len()
                ),
            ),
            Err(e) => check_error(&e.to_string(), &expect, &expect_path, out),
        };
    }
    let cases = match loaded {
        Ok(c) => c,
        Err(e) => return out.fail(dir, format!("does not load: {e}")),
    };
    // Detection must agree with the folder's format, as the command line relies on it.
    let detected = formats::detect(&text, file.as_str());
    if (format.is_some() && detected != format) || detected.is_none() {
        out.fail(
            dir,
            format!("detected as {detected:?}, expected {format:?}"),
        );
    }
    let n = expect.cases.unwrap_or(1);
    if cases.len() != n {
        out.fail(dir, format!("{} case(s), expected {n}", cases.len()));
    }
    for p in &expect.scenario {
        let Some(case) = cases.get(p.case.unwrap_or(0)) else {
            out.fail(
                &expect_path,
                format!("scenario check of case {:?}: no such case", p.case),
            );
            continue;
        };
        let value = serde_json::to_value(&case.scenario).expect("a scenario serialises");
        if let Some(why) = p.check(&value) {
            out.fail(&expect_path, format!("scenario {why}"));
        }
    }
    for p in &expect.recording {
        match cases
            .get(p.case.unwrap_or(0))
            .and_then(|c| c.recording.as_ref())
        {
            None => out.fail(
                &expect_path,
                "recording check: the case carries no recording",
            ),
            Some(r) => {
                let value = serde_json::to_value(r).expect("a recording serialises");
                if let Some(why) = p.check(&value) {
                    out.fail(&expect_path, format!("recording {why}"));
                }
            }
        }
    }
    for f in &run_files {
        let named = f
            .strip_suffix(".json")
            .filter(|n| expect.runs.contains_key(*n));
        if named.is_none() || f.starts_with("recording") {
            out.fail(
                &dir.join("runs").join(f),
                "a run without an expectation in expect.json (or not `.json`)",
            );
        }
    }
    for (name, e) in &expect.runs {
        let at = dir.join("runs").join(format!("{name}.json"));
        check_run(name, e, &cases, &at, out);
    }
}

fn check_error(got: &str, expect: &Expect, at: &Path, out: &mut Outcome) {
    let ok = expect.error.as_deref().is_none_or(|e| e == got)
        && expect
            .error_starts_with
            .as_deref()
            .is_none_or(|e| got.starts_with(e))
        && expect
            .error_contains
            .iter()
            .all(|e| got.contains(e.as_str()));
    if !ok {
        out.fail(
            at,
            format!(
                "load error:\n  expected: {:?} {:?} {:?}\n  got:      {got:?}",
                expect.error, expect.error_starts_with, expect.error_contains
            ),
        );
    }
}

/// The run `name`: its file, or the case's own recording.
fn run(name: &str, case: &ImportedCase, at: &Path) -> Result<RecordedRun, String> {
    if name.starts_with("recording") {
        return case
            .recording
            .clone()
            .ok_or_else(|| "the case carries no recording".to_owned());
    }
    let text = std::fs::read_to_string(at).map_err(|e| format!("cannot read: {e}"))?;
    load::run_from_text(&text, at, None).map_err(|e| e.to_string())
}

/// Evaluates one run and compares its report with the expectation; every difference is one
/// mismatch, shown with the report's verdicts.
fn check_run(name: &str, e: &RunExpect, cases: &[ImportedCase], at: &Path, out: &mut Outcome) {
    out.runs += 1;
    if e.passed.is_none() && e.verdicts.is_none() && e.reasons.is_empty() && e.report.is_empty() {
        return out.fail(
            at,
            "checks nothing: give `passed`, `verdicts`, `reasons` or `report`",
        );
    }
    let Some(case) = cases.get(e.case) else {
        return out.fail(at, format!("case {}: no such case", e.case));
    };
    let run = match run(name, case, at) {
        Ok(r) => r,
        Err(why) => return out.fail(at, why),
    };
    let report = case.scenario.evaluate(&run.transcript);
    let mut wrong = Vec::new();
    if let Some(p) = e.passed
        && report.passed() != p
    {
        wrong.push(format!("passed: expected {p}, got {}", report.passed()));
    }
    if let Some(expected) = &e.verdicts {
        out.statuses += expected.len();
        let ok = report.verdicts.len() == expected.len()
            && report
                .verdicts
                .iter()
                .zip(expected)
                .all(|(v, (needle, status))| labelled(v, needle) && v.status == *status);
        if !ok {
            wrong.push(format!("verdicts: expected {expected:?}"));
        }
    }
    for r in &e.reasons {
        out.statuses += usize::from(r.status.is_some());
        match reason(&report, r) {
            Ok(()) => {}
            Err(why) => wrong.push(why),
        }
    }
    let value = serde_json::to_value(&report).expect("a report serialises");
    for p in &e.report {
        out.statuses += usize::from(p.at.ends_with("/status"));
        if p.case.is_some() {
            wrong.push(format!(
                "report check at `{}`: `case` belongs to the run",
                p.at
            ));
        } else if let Some(why) = p.check(&value) {
            wrong.push(format!("report {why}"));
        }
    }
    if !wrong.is_empty() {
        let mut msg = wrong.join("\n  ");
        let _ = write!(msg, "\n  got:\n{}", table(&report));
        out.fail(at, msg);
    }
}

/// Whether `v` is the verdict `needle` names: its label contains it, or it is its check family.
fn labelled(v: &Verdict, needle: &str) -> bool {
    v.label.contains(needle) || v.check == needle
}

fn reason(report: &Report, r: &ReasonExpect) -> Result<(), String> {
    let v = match (&r.verdict, r.index) {
        (Some(needle), None) => {
            let found: Vec<&Verdict> = report
                .verdicts
                .iter()
                .filter(|v| v.label.contains(needle.as_str()))
                .collect();
            match found[..] {
                [v] => v,
                _ => {
                    return Err(format!(
                        "reasons: {} verdicts labelled like {needle:?}, expected one",
                        found.len()
                    ));
                }
            }
        }
        (None, Some(i)) => report
            .verdicts
            .get(i)
            .ok_or_else(|| format!("reasons: no verdict at {i}"))?,
        _ => return Err("reasons: give one of `verdict` (a label's text) or `index`".to_owned()),
    };
    let why = explain(v);
    if r.status.is_some_and(|s| s != v.status)
        || !r.contains.iter().all(|p| why.contains(p.as_str()))
    {
        return Err(format!(
            "reasons: expected {:?} {:?} with {:?}, got {:?}: {why}",
            r.verdict
                .as_ref()
                .map_or_else(|| format!("#{:?}", r.index), Clone::clone),
            r.status,
            r.contains,
            v.status
        ));
    }
    Ok(())
}

/// A verdict's reason with its violations, as one text to search.
pub fn explain(v: &Verdict) -> String {
    let mut out = v.reason.clone();
    for x in &v.details.violations {
        out.push_str(" | ");
        out.push_str(&x.message);
    }
    out
}

/// One line per verdict, for mismatch messages.
pub fn table(report: &Report) -> String {
    report
        .verdicts
        .iter()
        .enumerate()
        .map(|(i, v)| format!("    [{i}] {:?} {} — {}", v.status, v.label, explain(v)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Checks a folder of the tree and fails with every mismatch.
fn check_tree_folder(name: &str) {
    let format = FOLDERS
        .iter()
        .find(|(n, _)| *n == name)
        .expect("a known folder")
        .1;
    let out = check_folder(&root().join(name), format);
    println!(
        "{name}: {} case folders, {} runs, {} verdict statuses checked",
        out.cases, out.runs, out.statuses
    );
    assert!(
        out.mismatches.is_empty(),
        "{} mismatch(es) in {}:\n\n{}",
        out.mismatches.len(),
        root().join(name).display(),
        out.mismatches.join("\n\n")
    );
}

#[test]
fn mibo() {
    check_tree_folder("mibo");
}

#[test]
fn mcplab() {
    check_tree_folder("mcplab");
}

#[test]
fn promptkit() {
    check_tree_folder("promptkit");
}

#[test]
fn lamdis() {
    check_tree_folder("lamdis");
}

#[test]
fn morganabench() {
    check_tree_folder("morganabench");
}

#[test]
fn detected() {
    check_tree_folder("detected");
}

/// Nothing in the tree but the folders above and the README: a misspelt format folder would
/// otherwise never be checked.
#[test]
fn the_tree_holds_only_known_folders() {
    let mut unknown = Vec::new();
    for e in std::fs::read_dir(root())
        .expect("the fixture tree")
        .filter_map(Result::ok)
    {
        let name = e.file_name().to_string_lossy().into_owned();
        if name != "README.md" && !FOLDERS.iter().any(|(n, _)| *n == name) {
            unknown.push(name);
        }
    }
    assert!(
        unknown.is_empty(),
        "unknown entries in {}: {unknown:?}",
        root().display()
    );
}
