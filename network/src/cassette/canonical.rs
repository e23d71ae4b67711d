//! A request as a cassette matches it: method, path (credentials in the query left out) and
//! body — JSON with its keys sorted and the ignored fields removed, or text — with the
//! exchange's secrets redacted. Its SHA-256 names the entry's file.

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::agent::wire::Redactor;

/// Query parameters that carry keys (`?key=` for Gemini-style APIs): forwarded, never part of
/// what is matched or stored.
pub(crate) const CREDENTIAL_PARAMS: [&str; 6] = [
    "key",
    "api_key",
    "api-key",
    "apikey",
    "access_token",
    "token",
];

/// A request body as matched and stored.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Body {
    /// No body (a `GET`).
    Empty,
    /// A JSON body: keys sorted, ignored fields removed, secrets redacted.
    Json(Value),
    /// A body that is text but not JSON, secrets redacted.
    Text(String),
}

/// The canonical form of a request.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Canonical {
    pub(crate) method: String,
    /// The path and query, without credential parameters, secrets redacted.
    pub(crate) path: String,
    pub(crate) body: Body,
}

/// A field path to leave out of matching: segments of `a.b`, `a[0]`, `a[*]` or `a.*`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct IgnoredField {
    pub(crate) written: String,
    segments: Vec<String>,
}

impl IgnoredField {
    /// Reads `messages[*].name`, `metadata.run_id`, `user`; refuses what would make matching
    /// meaningless: an empty segment, the whole body (`*`), and `stream` (a streamed answer
    /// must not replay a request that wanted none, nor the reverse).
    pub(crate) fn parse(written: &str) -> Result<Self, String> {
        let normalised = written.trim().replace('[', ".").replace(']', "");
        let segments: Vec<String> = normalised.split('.').map(str::to_owned).collect();
        if segments.iter().any(String::is_empty) {
            return Err(format!(
                "the ignored field `{written}` is not a field path (write `metadata.run_id`, `messages[*].name`)"
            ));
        }
        match segments.as_slice() {
            [only] if only == "*" => Err(
                "the ignored field `*` would ignore the whole body: every request would match one entry"
                    .to_owned(),
            ),
            [only] if only == "stream" => Err(
                "`stream` cannot be ignored: a streamed answer must not replay a request that asked for none (nor the reverse)"
                    .to_owned(),
            ),
            _ => Ok(IgnoredField {
                written: written.trim().to_owned(),
                segments,
            }),
        }
    }

    fn remove_from(&self, value: &mut Value) {
        remove(value, &self.segments);
    }
}

/// Removes the field at `path` (a `*` segment: every key or element); an array element at the
/// end of a path becomes `null`, so the positions of the others stay.
fn remove(value: &mut Value, path: &[String]) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    match value {
        Value::Object(map) => {
            if first == "*" {
                if rest.is_empty() {
                    map.clear();
                } else {
                    map.values_mut().for_each(|v| remove(v, rest));
                }
            } else if rest.is_empty() {
                map.remove(first);
            } else if let Some(v) = map.get_mut(first) {
                remove(v, rest);
            }
        }
        Value::Array(items) => {
            let chosen: Vec<&mut Value> = if first == "*" {
                items.iter_mut().collect()
            } else {
                first
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| items.get_mut(i))
                    .into_iter()
                    .collect()
            };
            for v in chosen {
                if rest.is_empty() {
                    *v = Value::Null;
                } else {
                    remove(v, rest);
                }
            }
        }
        _ => {}
    }
}

/// `value` with the keys of every object sorted (whatever order the JSON map keeps).
fn sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// The path and query without credential parameters (their values are returned, as secrets
/// of the exchange).
pub(crate) fn without_credentials(path_and_query: &str) -> (String, Vec<String>) {
    let Some((path, query)) = path_and_query.split_once('?') else {
        return (path_and_query.to_owned(), Vec::new());
    };
    let mut kept = Vec::new();
    let mut secrets = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        if CREDENTIAL_PARAMS.contains(&name.to_ascii_lowercase().as_str()) {
            secrets.push(value.to_owned());
        } else {
            kept.push(pair);
        }
    }
    if kept.is_empty() {
        (path.to_owned(), secrets)
    } else {
        (format!("{path}?{}", kept.join("&")), secrets)
    }
}

impl Canonical {
    /// The canonical form of a request. A body that is neither empty, JSON nor UTF-8 text
    /// (an audio upload) cannot be matched or stored readably: an error saying so.
    pub(crate) fn new(
        method: &str,
        path_and_query: &str,
        body: &[u8],
        ignored: &[IgnoredField],
        redactor: &Redactor,
    ) -> Result<Self, String> {
        let (mut path, _) = without_credentials(path_and_query);
        redactor.string(&mut path);
        let body = if body.iter().all(u8::is_ascii_whitespace) {
            Body::Empty
        } else if let Ok(mut json) = serde_json::from_slice::<Value>(body) {
            for field in ignored {
                field.remove_from(&mut json);
            }
            redactor.value(&mut json);
            Body::Json(sorted(json))
        } else {
            let mut text = String::from_utf8(body.to_vec()).map_err(|_| {
                format!(
                    "the request body of {method} {path} is neither JSON nor UTF-8 text: a cassette cannot store it readably"
                )
            })?;
            redactor.string(&mut text);
            Body::Text(text)
        };
        Ok(Canonical {
            method: method.to_ascii_uppercase(),
            path,
            body,
        })
    }

    /// The entry's id: what the request is for (its endpoint and model, for people reading a
    /// directory listing), then 16 hex digits of the SHA-256 of the canonical request.
    pub(crate) fn id(&self) -> String {
        let mut h = Sha256::new();
        for part in [
            "agent-test cassette 1",
            self.method.as_str(),
            self.path.as_str(),
        ] {
            h.update(part.as_bytes());
            h.update([0]);
        }
        match &self.body {
            Body::Empty => h.update(b"empty"),
            Body::Json(v) => {
                h.update(b"json\0");
                h.update(v.to_string().as_bytes());
            }
            Body::Text(t) => {
                h.update(b"text\0");
                h.update(t.as_bytes());
            }
        }
        let hash: String = h
            .finalize()
            .iter()
            .take(8)
            .map(|b| format!("{b:02x}"))
            .collect();
        let mut parts = vec![endpoint_slug(&self.path)];
        if let Body::Json(v) = &self.body
            && let Some(model) = v.get("model").and_then(Value::as_str)
        {
            let model = slug(model);
            if !model.is_empty() {
                parts.push(model);
            }
        }
        parts.push(hash);
        parts.join("-")
    }

    /// The request as a JSON value (what an entry stores, and what misses are compared on).
    pub(crate) fn body_value(&self) -> Value {
        match &self.body {
            Body::Empty => Value::Null,
            Body::Json(v) => v.clone(),
            Body::Text(t) => Value::String(t.clone()),
        }
    }
}

/// The endpoint of a path, for an id: its last two segments that are not versions
/// (`/v1/chat/completions` → `chat-completions`, `/v1/messages` → `messages`).
fn endpoint_slug(path: &str) -> String {
    let path = path.split('?').next().unwrap_or(path);
    let segments: Vec<&str> = path
        .split('/')
        .filter(|s| !s.is_empty() && !is_version(s))
        .collect();
    let tail = segments
        .get(segments.len().saturating_sub(2)..)
        .unwrap_or(&[]);
    let s = slug(&tail.join("-"));
    if s.is_empty() {
        "request".to_owned()
    } else {
        s
    }
}

/// `v1`, `v2beta`, `v1alpha`.
fn is_version(segment: &str) -> bool {
    segment
        .strip_prefix('v')
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// Lower-case letters, digits, dots and single dashes; at most 40 characters.
fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_alphanumeric() || c == '.' {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 40 {
            break;
        }
    }
    out.trim_matches(['-', '.']).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn canonical(body: &Value, ignored: &[&str]) -> Canonical {
        let ignored: Vec<IgnoredField> = ignored
            .iter()
            .map(|f| IgnoredField::parse(f).unwrap())
            .collect();
        Canonical::new(
            "post",
            "/v1/chat/completions",
            body.to_string().as_bytes(),
            &ignored,
            &Redactor::default(),
        )
        .unwrap()
    }

    #[test]
    fn key_order_does_not_matter_and_ignored_fields_are_left_out() {
        let a = canonical(
            &json!({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi", "name": "a"}], "user": "u1"}),
            &["user", "messages[*].name"],
        );
        let b = canonical(
            &json!({"user": "u2", "messages": [{"name": "b", "content": "hi", "role": "user"}], "model": "gpt-4o-mini"}),
            &["user", "messages.*.name"],
        );
        assert_eq!(a, b);
        assert_eq!(a.id(), b.id());
        assert!(
            a.id().starts_with("chat-completions-gpt-4o-mini-"),
            "{}",
            a.id()
        );
        assert_eq!(a.id().rsplit('-').next().map(str::len), Some(16));
        let c = canonical(
            &json!({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi!"}]}),
            &[],
        );
        assert_ne!(a.id(), c.id());
    }

    #[test]
    fn stream_and_everything_cannot_be_ignored() {
        assert!(
            IgnoredField::parse("stream")
                .unwrap_err()
                .contains("cannot be ignored")
        );
        assert!(IgnoredField::parse("*").is_err());
        assert!(IgnoredField::parse("a..b").is_err());
        assert!(IgnoredField::parse("stream_options").is_ok());
        let streamed = canonical(&json!({"model": "m", "stream": true}), &[]);
        let not = canonical(&json!({"model": "m", "stream": false}), &[]);
        assert_ne!(streamed.id(), not.id());
    }

    #[test]
    fn credentials_in_the_query_are_not_matched() {
        let (path, secrets) =
            without_credentials("/v1beta/models/g:generate?key=AIza-1234&alt=sse");
        assert_eq!(path, "/v1beta/models/g:generate?alt=sse");
        assert_eq!(secrets, ["AIza-1234"]);
        assert_eq!(endpoint_slug("/v1/messages"), "messages");
        assert_eq!(endpoint_slug("/v1/responses"), "responses");
        assert_eq!(endpoint_slug("/"), "request");
    }
}
