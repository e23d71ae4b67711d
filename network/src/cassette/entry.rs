//! One recorded exchange, as its file holds it: the canonical request (method, path, the
//! headers worth reading, the body) and the response (status, content type, how long it took,
//! and the body as JSON, as text, or as the events of a stream with their offsets), pretty
//! JSON with sorted keys so a re-recording reads as a diff.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::canonical::{Body, Canonical};

/// The version of the file format.
pub(crate) const VERSION: u32 = 1;

/// A recorded request and its response.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Entry {
    pub(crate) version: u32,
    pub(crate) request: RecordedRequest,
    pub(crate) response: RecordedResponse,
}

/// The request, canonical (what is matched), with the headers that say how it was sent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RecordedRequest {
    pub(crate) method: String,
    pub(crate) path: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) headers: BTreeMap<String, String>,
    /// A JSON body.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub(crate) body: Option<Value>,
    /// A text body that is not JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) text: Option<String>,
}

/// The response: at most one of `body`, `text` and `events`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RecordedResponse {
    pub(crate) status: u16,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) headers: BTreeMap<String, String>,
    /// From sending the request to the response's headers.
    pub(crate) latency_ms: u64,
    /// A JSON body.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub(crate) body: Option<Value>,
    /// A body that is text but not JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) text: Option<String>,
    /// A server-sent event stream.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) events: Option<Vec<Event>>,
}

/// One server-sent event and when it came.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Event {
    /// From sending the request to the end of the event.
    pub(crate) offset_ms: u64,
    /// The `event:` field (Anthropic names every event).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) event: Option<String>,
    /// The `id:` field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) id: Option<String>,
    /// The data, when it is JSON.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub(crate) data: Option<Value>,
    /// The data, when it is not JSON (OpenAI's closing `[DONE]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) text: Option<String>,
}

/// A present `null` is `Some(Null)`, an absent field `None` (with `default`).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

impl RecordedRequest {
    /// The request as recorded from its canonical form and the headers kept.
    pub(crate) fn of(canonical: &Canonical, headers: BTreeMap<String, String>) -> Self {
        let (body, text) = match &canonical.body {
            Body::Empty => (None, None),
            Body::Json(v) => (Some(v.clone()), None),
            Body::Text(t) => (None, Some(t.clone())),
        };
        RecordedRequest {
            method: canonical.method.clone(),
            path: canonical.path.clone(),
            headers,
            body,
            text,
        }
    }

    /// The canonical request it holds.
    pub(crate) fn canonical(&self) -> Canonical {
        let body = match (&self.body, &self.text) {
            (Some(v), _) => Body::Json(v.clone()),
            (None, Some(t)) => Body::Text(t.clone()),
            (None, None) => Body::Empty,
        };
        Canonical {
            method: self.method.clone(),
            path: self.path.clone(),
            body,
        }
    }
}

impl Entry {
    /// The entry in `path`: `Ok(None)` when there is none, an error saying what is wrong
    /// with a file that is there.
    pub(crate) fn read(path: &Path) -> Result<Option<Entry>, String> {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                return Ok(None);
            }
            Err(e) => return Err(format!("it cannot be read ({e})")),
        };
        let entry: Entry = serde_json::from_slice(&bytes)
            .map_err(|e| format!("it is not a cassette entry ({e})"))?;
        entry.problem().map_or(Ok(Some(entry)), Err)
    }

    /// What makes an entry that parses unusable.
    fn problem(&self) -> Option<String> {
        if self.version != VERSION {
            return Some(format!(
                "it is of version {} (this agent-test reads version {VERSION})",
                self.version
            ));
        }
        if self.request.body.is_some() && self.request.text.is_some() {
            return Some("its request has both `body` and `text`".to_owned());
        }
        let r = &self.response;
        let kinds = [r.body.is_some(), r.text.is_some(), r.events.is_some()];
        if kinds.iter().filter(|k| **k).count() > 1 {
            return Some("its response has more than one of `body`, `text` and `events`".into());
        }
        if !(100..=999).contains(&r.status) {
            return Some(format!("its status {} is not an HTTP status", r.status));
        }
        None
    }

    /// The file's text: pretty JSON, keys sorted, ending with a newline.
    pub(crate) fn to_text(&self) -> Result<String, String> {
        let mut text = serde_json::to_value(self)
            .and_then(|v| serde_json::to_string_pretty(&v))
            .map_err(|e| format!("cannot serialise the entry: {e}"))?;
        text.push('\n');
        Ok(text)
    }
}
