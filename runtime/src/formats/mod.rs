//! The seed systems' own file formats, loaded into the native model with the *format*
//! semantics (what each check means in its system), never by changing native defaults.
//!
//! | format | module | files |
//! |---|---|---|
//! | Mibo test cases | [`mibo`] | JSON: a case, `{"context", "content"}`, or an array |
//! | MCPLab scenarios | [`mcplab`] | YAML: a scenario, a list, or `scenarios: [...]` |
//! | PromptKit `kind: Scenario` | [`promptkit`] | YAML: a document or a list |
//! | Lamdis tests | [`lamdis`] | JSON: a test (`steps[]`), an array, or `tests: [...]` |
//! | MorganaBench examples | [`morganabench`] | JSON (one or an array) or JSONL |
//!
//! [`from_text`] detects the format from the content (or takes the one named), so a suite of
//! any of them loads with one call; [`crate::load`] reads files of these formats and of
//! agent-test's own scenario form alike. Each loaded case is a
//! [`Scenario`] and, when the file carries the agent's outputs, the
//! [`RecordedRun`] to evaluate it on.
//!
//! Every loader reports an unknown or malformed field as a [`LoadError`] naming the file, the
//! path inside it and what was expected; nothing is silently ignored.
//!
//! ```
//! use agent_test::formats::{self, SeedFormat};
//! let text = r#"{"scenario": "ping", "input_utterance": "ping",
//!   "assertions": {"procedural": [{"target": "http_status", "expected_status": 200}], "semantic": []}}"#;
//! assert_eq!(formats::detect(text, "ping.json"), Some(SeedFormat::Mibo));
//! let cases = formats::from_text(text, "ping.json", None).unwrap();
//! assert_eq!(cases[0].scenario.name, "ping");
//! ```

pub mod lamdis;
pub mod mcplab;
pub mod mibo;
pub mod morganabench;
pub mod promptkit;
mod read;

pub(crate) use read::stem;

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use serde_json::Value;

use crate::model::RecordedRun;
use crate::scenario::Scenario;
use crate::util::input::LoadError;

/// One case of a seed-format file: the scenario, and the run recorded with it, if any.
///
/// ```
/// use agent_test::formats::morganabench;
/// let cases = morganabench::from_text(r#"{"inputs": {"messages": [{"role": "user", "content": "hi"}]}, "expectations": {}}"#, "hi.json").unwrap();
/// assert_eq!(cases[0].scenario.name, "hi");
/// assert!(cases[0].recording.is_none());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedCase {
    /// The scenario, in the native model.
    pub scenario: Scenario,
    /// The recorded run the file holds for it (MorganaBench `outputs`), ready for passive
    /// evaluation.
    pub recording: Option<RecordedRun>,
}

/// A seed system's file format.
///
/// ```
/// use agent_test::formats::SeedFormat;
/// let f: SeedFormat = "promptkit".parse().unwrap();
/// assert_eq!(f, SeedFormat::PromptKit);
/// assert_eq!(f.to_string(), "promptkit");
/// assert!("nope".parse::<SeedFormat>().unwrap_err().contains("mibo, mcplab"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SeedFormat {
    /// Mibo test cases ([`mibo`]).
    Mibo,
    /// MCPLab scenarios ([`mcplab`]).
    McpLab,
    /// PromptKit scenarios ([`promptkit`]).
    PromptKit,
    /// Lamdis tests ([`lamdis`]).
    Lamdis,
    /// MorganaBench examples ([`morganabench`]).
    MorganaBench,
}

/// What agent-test knows of a seed format: its name, how to recognise a document of it, how
/// to read one, and why a YAML file cannot hold it, if it cannot.
struct Entry {
    format: SeedFormat,
    name: &'static str,
    detect: fn(&Value) -> bool,
    read: fn(&Value, &Path) -> Result<Vec<ImportedCase>, LoadError>,
    not_yaml: Option<&'static str>,
}

/// Every seed format, in the order of the seed documents (the order of [`SeedFormat::ALL`]).
/// Adding a format is a module, a variant and a line here.
const FORMATS: [Entry; 5] = [
    Entry {
        format: SeedFormat::Mibo,
        name: "mibo",
        detect: mibo::detect,
        read: mibo::from_value,
        not_yaml: None,
    },
    Entry {
        format: SeedFormat::McpLab,
        name: "mcplab",
        detect: mcplab::detect,
        read: mcplab::from_value,
        not_yaml: None,
    },
    Entry {
        format: SeedFormat::PromptKit,
        name: "promptkit",
        detect: promptkit::detect,
        read: promptkit::from_value,
        not_yaml: None,
    },
    Entry {
        format: SeedFormat::Lamdis,
        name: "lamdis",
        detect: lamdis::detect,
        read: lamdis::from_value,
        not_yaml: None,
    },
    Entry {
        format: SeedFormat::MorganaBench,
        name: "morganabench",
        detect: morganabench::detect,
        read: morganabench::from_value,
        not_yaml: Some("MorganaBench examples are JSON or JSONL, not YAML"),
    },
];

/// The order documents are recognised in, most specific first: a MorganaBench example or a
/// PromptKit document could also pass for a looser format.
const DETECTION_ORDER: [SeedFormat; 5] = [
    SeedFormat::MorganaBench,
    SeedFormat::PromptKit,
    SeedFormat::Lamdis,
    SeedFormat::Mibo,
    SeedFormat::McpLab,
];

impl SeedFormat {
    /// Every format, in the order of the seed documents.
    pub const ALL: [SeedFormat; 5] = [
        FORMATS[0].format,
        FORMATS[1].format,
        FORMATS[2].format,
        FORMATS[3].format,
        FORMATS[4].format,
    ];

    fn entry(self) -> &'static Entry {
        // Every variant has its entry (a test says so).
        FORMATS
            .iter()
            .find(|e| e.format == self)
            .unwrap_or(&FORMATS[0])
    }

    /// Its name on the command line and in messages.
    ///
    /// See the type's example.
    pub fn name(self) -> &'static str {
        self.entry().name
    }
}

impl fmt::Display for SeedFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SeedFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SeedFormat::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let names: Vec<_> = SeedFormat::ALL.iter().map(|f| f.name()).collect();
                format!("unknown format `{s}`, expected one of {}", names.join(", "))
            })
    }
}

/// Whether `file` is named as YAML (`.yaml`, `.yml`).
///
/// ```
/// assert!(agent_test::formats::is_yaml(std::path::Path::new("s.YML")));
/// ```
pub fn is_yaml(file: &Path) -> bool {
    file.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"))
}

/// Whether `file` is named as JSON lines (`.jsonl`).
///
/// ```
/// assert!(agent_test::formats::is_jsonl(std::path::Path::new("suite.jsonl")));
/// ```
pub fn is_jsonl(file: &Path) -> bool {
    file.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("jsonl"))
}

/// The format of a document, from its content (`file`'s extension says whether it is YAML or
/// JSONL); `None` when it is none of them.
///
/// See the [module documentation](self).
pub fn detect(text: &str, file: impl AsRef<Path>) -> Option<SeedFormat> {
    let file = file.as_ref();
    if is_jsonl(file) {
        return Some(SeedFormat::MorganaBench);
    }
    let doc = if is_yaml(file) {
        read::yaml(text, file).ok()?
    } else {
        crate::util::json::parse(text).ok()?
    };
    detect_value(&doc)
}

/// The format of a parsed document, from its content; `None` when it is none of them.
///
/// See [`from_value`].
pub fn detect_value(doc: &Value) -> Option<SeedFormat> {
    DETECTION_ORDER
        .into_iter()
        .find(|f| (f.entry().detect)(doc))
}

/// Reads seed-format text: the format named, or the one [`detect`] finds. `file` names the
/// source in errors and default scenario names; its extension says whether the text is YAML
/// (`.yaml`, `.yml`) or JSONL (`.jsonl`).
///
/// See the [module documentation](self).
pub fn from_text(
    text: &str,
    file: impl AsRef<Path>,
    format: Option<SeedFormat>,
) -> Result<Vec<ImportedCase>, LoadError> {
    let file = file.as_ref();
    if is_jsonl(file) {
        return match format {
            None | Some(SeedFormat::MorganaBench) => {
                morganabench::from_text(text, file).and_then(|c| literals_checked(c, file))
            }
            Some(f) => Err(read::load_error(
                file,
                (
                    String::new(),
                    format!("a .jsonl file holds MorganaBench examples, not {f} ones"),
                ),
            )),
        };
    }
    if format == Some(SeedFormat::MorganaBench) && !is_yaml(file) {
        // Its reader also takes JSON lines in a `.json` file.
        return morganabench::from_text(text, file).and_then(|c| literals_checked(c, file));
    }
    let doc = if is_yaml(file) {
        read::yaml(text, file)?
    } else {
        read::json(text, file)?
    };
    let format = match format.or_else(|| detect_value(&doc)) {
        Some(f) => f,
        None => {
            return Err(read::load_error(
                file,
                (
                    String::new(),
                    "not a test file of a known format: expected Mibo test cases, MCPLab or \
                     PromptKit scenarios, Lamdis tests or MorganaBench examples (name one with \
                     `--input-format`)"
                        .into(),
                ),
            ));
        }
    };
    from_value(&doc, file, format)
}

/// Reads a parsed document of the given format (what [`from_text`] does once the text is
/// parsed and the format known). `file` names the source; a YAML one cannot hold MorganaBench
/// examples.
///
/// ```
/// use agent_test::formats::{self, SeedFormat};
/// let doc = serde_json::json!({"prompt": "hi"});
/// assert_eq!(formats::detect_value(&doc), Some(SeedFormat::McpLab));
/// let cases = formats::from_value(&doc, "hi.json", SeedFormat::McpLab).unwrap();
/// assert_eq!(cases[0].scenario.name, "hi");
/// ```
pub fn from_value(
    doc: &Value,
    file: impl AsRef<Path>,
    format: SeedFormat,
) -> Result<Vec<ImportedCase>, LoadError> {
    let file = file.as_ref();
    let entry = format.entry();
    if let Some(why) = entry.not_yaml.filter(|_| is_yaml(file)) {
        return Err(read::load_error(file, (String::new(), why.to_owned())));
    }
    (entry.read)(doc, file).and_then(|cases| literals_checked(cases, file))
}

/// Every literal of every check — regexes, JSONPath and JMESPath queries, expressions, JSON
/// Schemas — and every constraint that can never be met, checked where the file is loaded,
/// with the validators the macro uses at compile time: a broken one is an error naming the
/// file, the scenario and the check, never a verdict that blames the agent's answer later.
pub(crate) fn literals_checked(
    cases: Vec<ImportedCase>,
    file: &Path,
) -> Result<Vec<ImportedCase>, LoadError> {
    for case in &cases {
        let s = &case.scenario;
        let in_steps = s.steps.iter().enumerate().flat_map(|(i, step)| {
            step.checks()
                .iter()
                .enumerate()
                .map(move |(j, e)| (format!("steps[{i}].expect[{j}]"), e))
        });
        let after = s
            .expect
            .iter()
            .enumerate()
            .map(|(j, e)| (format!("expect[{j}]"), e));
        for (at, e) in in_steps.chain(after) {
            if let Some(problem) = e.check.literal_problem() {
                return Err(LoadError {
                    kind: crate::util::input::LoadErrorKind::Impossible,
                    file: file.to_owned(),
                    path: format!("scenario `{}`, {at}", s.name),
                    message: format!(
                        "{problem} (in `{}`)",
                        crate::util::text::clip(&e.display_label(), 200)
                    ),
                });
            }
        }
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_has_one_entry_and_is_detected() {
        for f in SeedFormat::ALL {
            assert_eq!(FORMATS.iter().filter(|e| e.format == f).count(), 1, "{f:?}");
            assert!(DETECTION_ORDER.contains(&f), "{f:?}");
        }
    }
}
