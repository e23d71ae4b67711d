#![doc = include_str!("reference.md")]

mod anthropic;
mod conversation;
mod gemini;
mod langchain;
mod mibo;
mod morganabench;
mod n8n;
mod openai;
#[doc(hidden)]
pub mod otel;
mod responses;

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use agent_test_core::model::Transcript;

/// A trace format. Written in data (and read back) by its [name](TraceFormat::name), the one
/// spelling the command line uses too.
///
/// ```
/// use agent_test::trace::TraceFormat;
/// assert_eq!(serde_json::to_value(TraceFormat::OpenAiChat).unwrap(), "openai-chat");
/// let read: TraceFormat = serde_json::from_value(serde_json::json!("langchain")).unwrap();
/// assert_eq!(read, TraceFormat::LangChain);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TraceFormat {
    /// OpenAI chat completions.
    OpenAiChat,
    /// OpenAI Responses API.
    OpenAiResponses,
    /// Anthropic Messages.
    Anthropic,
    /// Google Gemini.
    Gemini,
    /// LangChain message dicts.
    LangChain,
    /// Mibo's pushed trace.
    Mibo,
    /// MorganaBench outputs.
    MorganaBench,
    /// n8n execution data.
    N8n,
    /// OpenTelemetry spans (OTLP/JSON) by the GenAI semantic conventions.
    Otel,
    /// OpenTelemetry spans (OTLP/JSON) by the OpenInference conventions.
    OpenInference,
}

/// What agent-test knows of a trace format: its name, how to recognise a document of it and
/// how to read one.
struct Entry {
    format: TraceFormat,
    name: &'static str,
    detect: fn(&Value) -> bool,
    parse: fn(&Value) -> Result<Transcript, TraceError>,
}

/// Every trace format, **in detection order**: the first whose `detect` accepts a document is
/// its format, so a format whose documents another's detection also accepts comes first
/// (OpenInference before OTel; the Responses API before chat completions). Adding a format is
/// a module, a variant and a line here; [`TraceFormat::ALL`] follows this table.
const FORMATS: [Entry; 10] = [
    Entry {
        format: TraceFormat::OpenInference,
        name: "openinference",
        detect: otel::detect_openinference,
        parse: otel::parse_openinference,
    },
    Entry {
        format: TraceFormat::Otel,
        name: "otel",
        detect: otel::detect_otel,
        parse: otel::parse_otel,
    },
    Entry {
        format: TraceFormat::Mibo,
        name: "mibo",
        detect: mibo::detect,
        parse: mibo::parse,
    },
    Entry {
        format: TraceFormat::N8n,
        name: "n8n",
        detect: n8n::detect,
        parse: n8n::parse,
    },
    Entry {
        format: TraceFormat::MorganaBench,
        name: "morganabench",
        detect: morganabench::detect,
        parse: morganabench::parse,
    },
    Entry {
        format: TraceFormat::OpenAiResponses,
        name: "openai-responses",
        detect: responses::detect,
        parse: responses::parse,
    },
    Entry {
        format: TraceFormat::OpenAiChat,
        name: "openai-chat",
        detect: openai::detect,
        parse: openai::parse,
    },
    Entry {
        format: TraceFormat::Anthropic,
        name: "anthropic",
        detect: anthropic::detect,
        parse: anthropic::parse,
    },
    Entry {
        format: TraceFormat::Gemini,
        name: "gemini",
        detect: gemini::detect,
        parse: gemini::parse,
    },
    Entry {
        format: TraceFormat::LangChain,
        name: "langchain",
        detect: langchain::detect,
        parse: langchain::parse,
    },
];

impl TraceFormat {
    /// Every format, in detection order.
    pub const ALL: [TraceFormat; FORMATS.len()] = table_column!(FORMATS, format, TraceFormat::Otel);

    fn entry(self) -> &'static Entry {
        // Every variant has its line (a test holds the table to the enum).
        FORMATS
            .iter()
            .find(|e| e.format == self)
            .unwrap_or(&FORMATS[0])
    }

    /// The format's name, as the command line and errors spell it.
    ///
    /// ```
    /// assert_eq!(agent_test::trace::TraceFormat::OpenAiChat.name(), "openai-chat");
    /// ```
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// The format named `name` (as [`TraceFormat::name`] spells it).
    ///
    /// ```
    /// use agent_test::trace::TraceFormat;
    /// assert_eq!(TraceFormat::from_name("n8n"), Some(TraceFormat::N8n));
    /// ```
    pub fn from_name(name: &str) -> Option<TraceFormat> {
        FORMATS.iter().find(|e| e.name == name).map(|e| e.format)
    }
}

impl Serialize for TraceFormat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for TraceFormat {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        TraceFormat::from_name(&name).ok_or_else(|| {
            let names: Vec<String> = FORMATS.iter().map(|e| format!("`{}`", e.name)).collect();
            serde::de::Error::custom(format!(
                "unknown trace format `{name}`, expected one of {}",
                names.join(", ")
            ))
        })
    }
}

impl fmt::Display for TraceFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A trace that could not be read: which format, where in the document, what was expected.
///
/// ```
/// use agent_test::trace::{parse, TraceFormat};
/// let err = parse(&serde_json::json!({"choices": "oops"}), Some(TraceFormat::OpenAiChat)).unwrap_err();
/// assert_eq!(err.to_string(), "openai-chat trace: at $.choices: expected an array of choices");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    /// The format being read (`None` when none was recognised).
    pub format: Option<TraceFormat>,
    /// Where, as a JSONPath-like location (`$.choices[0].message`).
    pub path: String,
    /// What was wrong.
    pub message: String,
}

impl TraceError {
    /// The place as a path inside the document (`choices[0].message`; empty for the root).
    ///
    /// ```
    /// let e = agent_test::trace::parse(&serde_json::json!({"choices": []}), Some(agent_test::trace::TraceFormat::OpenAiChat)).unwrap_err();
    /// assert!(!e.relative_path().starts_with('$'));
    /// ```
    pub fn relative_path(&self) -> &str {
        self.path.trim_start_matches('$').trim_start_matches('.')
    }

    pub(crate) fn at(
        format: TraceFormat,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        TraceError {
            format: Some(format),
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.format {
            Some(format) => write!(f, "{format} trace: at {}: {}", self.path, self.message),
            None => write!(f, "at {}: {}", self.path, self.message),
        }
    }
}

impl std::error::Error for TraceError {}

/// Which format a document is, if it is one of them.
///
/// ```
/// use agent_test::trace::{detect, TraceFormat};
/// let v = serde_json::json!({"candidates": [{"content": {"parts": [{"text": "hi"}]}}]});
/// assert_eq!(detect(&v), Some(TraceFormat::Gemini));
/// ```
pub fn detect(value: &Value) -> Option<TraceFormat> {
    FORMATS.iter().find(|e| (e.detect)(value)).map(|e| e.format)
}

/// Reads a trace into a transcript: its turns (a single response is one turn without input),
/// and where the format says, `user_time` and history.
///
/// See the module documentation.
pub fn parse(value: &Value, format: Option<TraceFormat>) -> Result<Transcript, TraceError> {
    let format = match format.or_else(|| detect(value)) {
        Some(f) => f,
        None => {
            return Err(TraceError {
                format: None,
                path: "$".into(),
                message: format!(
                    "not a trace agent-test knows ({}); name the format explicitly to see what is missing",
                    FORMATS.map(|e| e.name).join(", ")
                ),
            });
        }
    };
    let mut transcript = (format.entry().parse)(value)?;
    for turn in &mut transcript.turns {
        agent_test_core::model::call::number_positions(&mut turn.reply.calls);
    }
    Ok(transcript)
}

/// Tool arguments given as a JSON string (OpenAI, Responses API): parsed when they are JSON;
/// otherwise kept as the string, so checks on them fail clearly instead of the trace failing.
/// JSON that names a key twice is kept as the string too: which value the tool received is
/// unknown, so no check on it may pass.
#[doc(hidden)]
pub fn arguments_from_string(s: &str) -> Value {
    if s.trim().is_empty() {
        return Value::Object(Default::default());
    }
    json_or_string(s)
}

/// `s` parsed as JSON by the strict reader, else `s` as a string.
#[doc(hidden)]
pub fn json_or_string(s: &str) -> Value {
    agent_test_core::util::json::parse(s).unwrap_or_else(|_| Value::String(s.to_owned()))
}

/// The final text of a workflow's output (an n8n execution's, a Mibo trace's `data`): a
/// string, or the first text field of an object, `output` first as n8n's AI nodes write it.
pub(crate) fn final_text(data: &Value) -> String {
    match data {
        Value::String(s) => s.clone(),
        Value::Object(_) => [
            "output", "text", "response", "reply", "message", "answer", "content",
        ]
        .iter()
        .find_map(|k| data.get(*k).and_then(Value::as_str))
        .unwrap_or_default()
        .to_owned(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Data and the command line spell a format one way: its name.
    #[test]
    fn formats_are_written_and_read_by_their_names() {
        for f in TraceFormat::ALL {
            let written = serde_json::to_value(f).unwrap();
            assert_eq!(written, f.name());
            assert_eq!(serde_json::from_value::<TraceFormat>(written).unwrap(), f);
        }
        let err = serde_json::from_value::<TraceFormat>(serde_json::json!("open-ai-chat"))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("unknown trace format `open-ai-chat`, expected one of `openinference`"),
            "{err}"
        );
    }

    #[test]
    fn every_format_has_one_line_in_the_table() {
        // Exhaustive on purpose: a new variant does not compile here until it is listed.
        let listed = |f: TraceFormat| match f {
            TraceFormat::OpenAiChat
            | TraceFormat::OpenAiResponses
            | TraceFormat::Anthropic
            | TraceFormat::Gemini
            | TraceFormat::LangChain
            | TraceFormat::Mibo
            | TraceFormat::MorganaBench
            | TraceFormat::N8n
            | TraceFormat::Otel
            | TraceFormat::OpenInference => FORMATS.iter().filter(|e| e.format == f).count(),
        };
        for f in TraceFormat::ALL {
            assert_eq!(listed(f), 1, "{f:?}");
            assert_eq!(TraceFormat::from_name(f.name()), Some(f));
        }
    }
}
