//! Traces: what agents and platforms really emit, normalised into the [`Transcript`] model.
//!
//! | format | what it reads |
//! |---|---|
//! | [`Format::OpenAiChat`] | a chat-completions response, or a `messages` list (tool calls with JSON-string arguments, `tool` messages as results) |
//! | [`Format::OpenAiResponses`] | a Responses API response or item list (`function_call`, `function_call_output`, `message`) |
//! | [`Format::Anthropic`] | a Messages response or message list (`tool_use` / `tool_result` blocks) |
//! | [`Format::Gemini`] | a `generateContent` response or `contents` list (`functionCall` / `functionResponse` parts) |
//! | [`Format::LangChain`] | LangChain message dicts (`human`/`ai`/`tool`, also the `{type, data}` form) |
//! | [`Format::Mibo`] | Mibo's pushed trace: `data` (nodes with their tool calls) + `metadata.{http_status, duration_ms}` |
//! | [`Format::MorganaBench`] | MorganaBench `outputs`: `response`, `trace` of `tool_call`/`tool_result` events, `environment.user_time` |
//! | [`Format::N8n`] | n8n execution data: run data per node; an AI agent's tool and model sub-nodes nested under it |
//!
//! [`parse`] detects the format unless told; malformed input gives a [`TraceError`] naming the
//! format, the place in the document and what was expected — never a panic.
//!
//! ```
//! use agent_test_runtime::trace::{parse, Format};
//! use serde_json::json;
//! let response = json!({
//!     "object": "chat.completion",
//!     "choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
//!         {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Lisbon\"}"}}
//!     ]}}],
//!     "usage": {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60}
//! });
//! let t = parse(&response, None).unwrap();
//! let turn = &t.turns[0];
//! assert_eq!(turn.reply.calls[0].name, "get_weather");
//! assert_eq!(turn.reply.calls[0].arguments["city"], "Lisbon");
//! assert_eq!(turn.reply.usage.unwrap().total(), Some(60));
//! ```

mod anthropic;
mod conversation;
mod gemini;
mod langchain;
mod mibo;
mod morgana;
mod n8n;
mod openai;
mod responses;

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::Transcript;

/// A trace format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
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
}

impl Format {
    /// Every format, in detection order.
    pub const ALL: [Format; 8] = [
        Format::Mibo,
        Format::N8n,
        Format::MorganaBench,
        Format::OpenAiResponses,
        Format::OpenAiChat,
        Format::Anthropic,
        Format::Gemini,
        Format::LangChain,
    ];

    /// The format's name, as the command line and errors spell it.
    ///
    /// ```
    /// assert_eq!(agent_test_runtime::trace::Format::OpenAiChat.name(), "openai-chat");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Format::OpenAiChat => "openai-chat",
            Format::OpenAiResponses => "openai-responses",
            Format::Anthropic => "anthropic",
            Format::Gemini => "gemini",
            Format::LangChain => "langchain",
            Format::Mibo => "mibo",
            Format::MorganaBench => "morganabench",
            Format::N8n => "n8n",
        }
    }

    /// The format named `name` (as [`Format::name`] spells it).
    ///
    /// ```
    /// use agent_test_runtime::trace::Format;
    /// assert_eq!(Format::from_name("n8n"), Some(Format::N8n));
    /// ```
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    fn detects(self, v: &Value) -> bool {
        match self {
            Format::OpenAiChat => openai::detect(v),
            Format::OpenAiResponses => responses::detect(v),
            Format::Anthropic => anthropic::detect(v),
            Format::Gemini => gemini::detect(v),
            Format::LangChain => langchain::detect(v),
            Format::Mibo => mibo::detect(v),
            Format::MorganaBench => morgana::detect(v),
            Format::N8n => n8n::detect(v),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A trace that could not be read: which format, where in the document, what was expected.
///
/// ```
/// use agent_test_runtime::trace::{parse, Format};
/// let err = parse(&serde_json::json!({"choices": "oops"}), Some(Format::OpenAiChat)).unwrap_err();
/// assert_eq!(err.to_string(), "openai-chat trace: at $.choices: expected an array of choices");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    /// The format being read (`None` when none was recognised).
    pub format: Option<Format>,
    /// Where, as a JSONPath-like location (`$.choices[0].message`).
    pub path: String,
    /// What was wrong.
    pub message: String,
}

impl TraceError {
    /// The place as a path inside the document (`choices[0].message`; empty for the root).
    ///
    /// ```
    /// let e = agent_test_runtime::trace::parse(&serde_json::json!({"choices": []}), Some(agent_test_runtime::trace::Format::OpenAiChat)).unwrap_err();
    /// assert!(!e.relative_path().starts_with('$'));
    /// ```
    pub fn relative_path(&self) -> &str {
        self.path.trim_start_matches('$').trim_start_matches('.')
    }

    pub(crate) fn at(format: Format, path: impl Into<String>, message: impl Into<String>) -> Self {
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
/// use agent_test_runtime::trace::{detect, Format};
/// let v = serde_json::json!({"candidates": [{"content": {"parts": [{"text": "hi"}]}}]});
/// assert_eq!(detect(&v), Some(Format::Gemini));
/// ```
pub fn detect(value: &Value) -> Option<Format> {
    Format::ALL.into_iter().find(|f| f.detects(value))
}

/// Reads a trace into a transcript: its turns (a single response is one turn without input),
/// and where the format says, `user_time` and history.
///
/// See the module documentation.
pub fn parse(value: &Value, format: Option<Format>) -> Result<Transcript, TraceError> {
    let format = match format.or_else(|| detect(value)) {
        Some(f) => f,
        None => {
            return Err(TraceError {
                format: None,
                path: "$".into(),
                message: format!(
                    "not a trace agent-test knows ({}); name the format explicitly to see what is missing",
                    Format::ALL.map(Format::name).join(", ")
                ),
            });
        }
    };
    let mut transcript = match format {
        Format::OpenAiChat => openai::parse(value),
        Format::OpenAiResponses => responses::parse(value),
        Format::Anthropic => anthropic::parse(value),
        Format::Gemini => gemini::parse(value),
        Format::LangChain => langchain::parse(value),
        Format::Mibo => mibo::parse(value),
        Format::MorganaBench => morgana::parse(value),
        Format::N8n => n8n::parse(value),
    }?;
    for turn in &mut transcript.turns {
        crate::model::call::number_positions(&mut turn.reply.calls);
    }
    Ok(transcript)
}

/// Tool arguments given as a JSON string (OpenAI, Responses API): parsed when they are JSON;
/// otherwise kept as the string, so checks on them fail clearly instead of the trace failing.
/// JSON that names a key twice is kept as the string too: which value the tool received is
/// unknown, so no check on it may pass.
pub(crate) fn arguments_from_string(s: &str) -> Value {
    if s.trim().is_empty() {
        return Value::Object(Default::default());
    }
    json_or_string(s)
}

/// `s` parsed as JSON by the strict reader, else `s` as a string.
pub(crate) fn json_or_string(s: &str) -> Value {
    crate::strict_json::parse(s).unwrap_or_else(|_| Value::String(s.to_owned()))
}

/// Text content that is a string, or a list of parts with `text` (OpenAI, Anthropic blocks).
pub(crate) fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}
