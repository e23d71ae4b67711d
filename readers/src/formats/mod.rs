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
//! [`crate::load`] reads files of these formats and of agent-test's own scenario form alike,
//! detecting the format from the content (or taking the one named), so a suite of any of them
//! loads with one call. Each loaded case is a
//! [`Scenario`] and, when the file carries the agent's outputs, the
//! [`RecordedRun`] to evaluate it on.
//!
//! Every loader reports an unknown or malformed field as a [`LoadError`] naming the file, the
//! path inside it and what was expected; nothing is silently ignored.
//!
//! ```
//! use agent_test::{formats::{self, SeedFormat}, load};
//! let text = r#"{"scenario": "ping", "input_utterance": "ping",
//!   "assertions": {"procedural": [{"target": "http_status", "expected_status": 200}], "semantic": []}}"#;
//! assert_eq!(formats::detect(text, "ping.json"), Some(SeedFormat::Mibo));
//! let cases = load::cases_from_text(text, "ping.json", None).unwrap();
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

use agent_test_core::model::RecordedRun;
use agent_test_core::scenario::Scenario;
use agent_test_core::util::input::LoadError;

/// One case of a seed-format file: the scenario, and the run recorded with it, if any.
///
/// ```
/// let cases = agent_test::load::cases_from_text(r#"{"inputs": {"messages": [{"role": "user", "content": "hi"}]}, "expectations": {}}"#, "hi.json", None).unwrap();
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
/// Adding a format is a module, a variant, a line here and its place in [`DETECTION_ORDER`]
/// (a test fails until both are there; the compiler checks the table's length).
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
const DETECTION_ORDER: &[SeedFormat] = &[
    SeedFormat::MorganaBench,
    SeedFormat::PromptKit,
    SeedFormat::Lamdis,
    SeedFormat::Mibo,
    SeedFormat::McpLab,
];

impl SeedFormat {
    /// Every format, in the order of the seed documents.
    pub const ALL: [SeedFormat; FORMATS.len()] = table_column!(FORMATS, format, SeedFormat::Mibo);

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

/// How a file's text is written, decided once from its name where the file is read: YAML
/// (`.yaml`, `.yml`), JSON lines (`.jsonl`), else JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Syntax {
    Json,
    JsonLines,
    Yaml,
}

impl Syntax {
    /// The syntax `file`'s extension names.
    pub(crate) fn of(file: &Path) -> Syntax {
        let ext = file.extension().unwrap_or_default();
        if ext.eq_ignore_ascii_case("yaml") || ext.eq_ignore_ascii_case("yml") {
            Syntax::Yaml
        } else if ext.eq_ignore_ascii_case("jsonl") {
            Syntax::JsonLines
        } else {
            Syntax::Json
        }
    }

    /// The document `text` holds, parsed once (not for JSON lines, which are read line by
    /// line).
    fn parse(self, text: &str, file: &Path) -> Result<Value, LoadError> {
        match self {
            Syntax::Yaml => read::yaml(text, file),
            Syntax::Json | Syntax::JsonLines => read::json(text, file),
        }
    }
}

/// The format of a document, from its content (`file`'s extension says whether it is YAML or
/// JSONL); `None` when it is none of them.
///
/// See the [module documentation](self).
pub fn detect(text: &str, file: impl AsRef<Path>) -> Option<SeedFormat> {
    let file = file.as_ref();
    let syntax = Syntax::of(file);
    if syntax == Syntax::JsonLines {
        return Some(SeedFormat::MorganaBench);
    }
    detect_value(&syntax.parse(text, file).ok()?)
}

/// The format of a parsed document, from its content; `None` when it is none of them.
///
/// ```
/// use agent_test::formats::{self, SeedFormat};
/// assert_eq!(formats::detect_value(&serde_json::json!({"prompt": "hi"})), Some(SeedFormat::McpLab));
/// ```
pub fn detect_value(doc: &Value) -> Option<SeedFormat> {
    DETECTION_ORDER
        .iter()
        .copied()
        .find(|f| (f.entry().detect)(doc))
}

/// The cases of seed-format text in the format named: the one road of every seed-format
/// file, its literals checked.
pub(crate) fn read_as(
    text: &str,
    file: &Path,
    syntax: Syntax,
    format: SeedFormat,
) -> Result<Vec<ImportedCase>, LoadError> {
    match (syntax, format) {
        (Syntax::JsonLines | Syntax::Json, SeedFormat::MorganaBench) => {
            // Its reader also takes JSON lines in a `.json` file.
            morganabench::read_text(text, file, syntax == Syntax::JsonLines)
                .and_then(|c| literals_checked(c, file))
        }
        (Syntax::JsonLines, f) => Err(read::load_error(
            file,
            (
                String::new(),
                format!("a .jsonl file holds MorganaBench examples, not {f} ones"),
            ),
        )),
        (Syntax::Json | Syntax::Yaml, f) => read(&syntax.parse(text, file)?, file, syntax, f),
    }
}

/// [`read_as`] for the formats' unit tests, the syntax from the name.
#[cfg(test)]
pub(crate) fn read_named(
    text: &str,
    file: &str,
    format: SeedFormat,
) -> Result<Vec<ImportedCase>, LoadError> {
    let file = Path::new(file);
    read_as(text, file, Syntax::of(file), format)
}

/// The cases of seed-format text in the format detected from its content; no format
/// recognised is an error saying which formats were tried.
pub(crate) fn read_detected(
    text: &str,
    file: &Path,
    syntax: Syntax,
) -> Result<Vec<ImportedCase>, LoadError> {
    if syntax == Syntax::JsonLines {
        return read_as(text, file, syntax, SeedFormat::MorganaBench);
    }
    let doc = syntax.parse(text, file)?;
    match detect_value(&doc) {
        Some(f) => read(&doc, file, syntax, f),
        None => Err(read::load_error(
            file,
            (
                String::new(),
                "not a test file of a known format: expected Mibo test cases, MCPLab or \
                 PromptKit scenarios, Lamdis tests or MorganaBench examples (name one with \
                 `--input-format`)"
                    .into(),
            ),
        )),
    }
}

/// The cases of a parsed document of the given format, their literals checked. A YAML file
/// cannot hold MorganaBench examples.
pub(crate) fn read(
    doc: &Value,
    file: &Path,
    syntax: Syntax,
    format: SeedFormat,
) -> Result<Vec<ImportedCase>, LoadError> {
    let entry = format.entry();
    if let Some(why) = entry.not_yaml.filter(|_| syntax == Syntax::Yaml) {
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
                    kind: agent_test_core::util::input::LoadErrorKind::Impossible,
                    file: file.to_owned(),
                    path: format!("scenario `{}`, {at}", s.name),
                    message: format!(
                        "{problem} (in `{}`)",
                        agent_test_core::util::text::clip(&e.display_label(), 200)
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
        // Every variant, by a match the compiler holds to the enum: a new one fails to compile
        // here, then fails below until it has its line in FORMATS and DETECTION_ORDER.
        let every = |f: SeedFormat| match f {
            SeedFormat::Mibo
            | SeedFormat::McpLab
            | SeedFormat::PromptKit
            | SeedFormat::Lamdis
            | SeedFormat::MorganaBench => f,
        };
        let variants = [
            every(SeedFormat::Mibo),
            every(SeedFormat::McpLab),
            every(SeedFormat::PromptKit),
            every(SeedFormat::Lamdis),
            every(SeedFormat::MorganaBench),
        ];
        for f in variants {
            assert_eq!(FORMATS.iter().filter(|e| e.format == f).count(), 1, "{f:?}");
            assert_eq!(
                DETECTION_ORDER.iter().filter(|&&d| d == f).count(),
                1,
                "{f:?}"
            );
        }
        assert_eq!(FORMATS.len(), variants.len());
        assert_eq!(DETECTION_ORDER.len(), variants.len());
    }
}
