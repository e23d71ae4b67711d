//! What the HTTP and chat agents share: the client, reading bounded bodies, clear errors, and
//! secrets that never print.

use std::fmt;
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::Value;

use super::AgentError;
use agent_test_core::model::{Call, Reply};

/// The first environment variable of `names` that is set to something other than blanks
/// (endpoints, keys and models are read from several names, most specific first).
pub(crate) fn env(names: &[&str]) -> Option<String> {
    names
        .iter()
        .find_map(|n| std::env::var(n).ok().filter(|v| !v.trim().is_empty()))
}

/// A secret (an API key, an `Authorization` value): its `Debug` and `Display` print `***`, so
/// it cannot leak into reports or logs; the agents and judge clients holding one also replace
/// it with `***` in whatever a server echoes back.
///
/// ```
/// use agent_test::agent::Secret;
/// let key = Secret::new("sk-live-123");
/// assert_eq!(format!("{key:?} {key}"), "*** ***");
/// assert_eq!(key.expose(), "sk-live-123");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret value.
    ///
    /// See the type's example.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    /// The value, for sending it.
    ///
    /// See the type's example.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// What a redacted secret is replaced with.
pub(crate) const REDACTED: &str = "***";

/// Secrets shorter than this are not searched for in text: they would mangle every report
/// (and are no secrets worth the name). They still never print through `Debug`/`Display`.
const MIN_SECRET_CHARS: usize = 4;

/// Authorization schemes whose credentials are redacted on their own, so that an echoed
/// header still reads `Authorization: Bearer ***`.
const SCHEMES: [&str; 6] = ["bearer", "basic", "token", "bot", "apikey", "digest"];

/// Removes an agent's or judge's configured secrets from everything it records or reports,
/// whatever a server sends back: a server that echoes the request (a 401 page quoting the
/// headers, a JSON body with the request in it) must not put a key into reports, recordings
/// or the command's output. Each secret is searched for as sent and as it appears once
/// escaped in JSON, HTML or a URL; the credentials of `Bearer <token>`-style values are
/// searched for on their own.
#[derive(Clone, Debug, Default)]
pub(crate) struct Redactor {
    /// Longest first, so that no secret is half-replaced by a shorter one inside it.
    needles: Vec<String>,
}

impl Redactor {
    /// A redactor for these secrets.
    pub(crate) fn new<'a>(secrets: impl IntoIterator<Item = &'a Secret>) -> Self {
        let mut needles = Vec::new();
        for secret in secrets {
            let value = secret.expose().trim();
            let is_scheme = |w: &str| SCHEMES.contains(&w.to_ascii_lowercase().as_str());
            let credentials = match value.split_once(' ') {
                Some((scheme, rest)) if is_scheme(scheme) => rest.trim(),
                // `Bearer ` with an empty token: nothing secret.
                None if is_scheme(value) => "",
                _ => value,
            };
            if credentials.chars().count() < MIN_SECRET_CHARS {
                continue;
            }
            let escaped_json = serde_json::to_string(credentials).unwrap_or_default();
            let forms = [
                credentials.to_owned(),
                escaped_json
                    .strip_prefix('"')
                    .and_then(|e| e.strip_suffix('"'))
                    .unwrap_or_default()
                    .to_owned(),
                credentials.replace('/', "\\/"),
                html_escaped(credentials),
                percent_encoded(credentials),
            ];
            for form in forms {
                if !form.is_empty() && !needles.contains(&form) {
                    needles.push(form);
                }
            }
        }
        needles.sort_by_key(|n| std::cmp::Reverse(n.len()));
        Redactor { needles }
    }

    /// Whether there is nothing to redact.
    pub(crate) fn is_empty(&self) -> bool {
        self.needles.is_empty()
    }

    /// Redacts a text in place.
    pub(crate) fn string(&self, text: &mut String) {
        for needle in &self.needles {
            if text.contains(needle.as_str()) {
                *text = text.replace(needle.as_str(), REDACTED);
            }
        }
    }

    /// Where secrets are in `text`: byte ranges, in order, not overlapping (the longest
    /// secret first where two would overlap), as [`Redactor::string`] would replace them.
    #[cfg(feature = "cassette")]
    pub(crate) fn find(&self, text: &str) -> Vec<std::ops::Range<usize>> {
        let mut found: Vec<std::ops::Range<usize>> = Vec::new();
        for needle in &self.needles {
            for (at, _) in text.match_indices(needle.as_str()) {
                let range = at..at + needle.len();
                if !found
                    .iter()
                    .any(|f| f.start < range.end && range.start < f.end)
                {
                    found.push(range);
                }
            }
        }
        found.sort_by_key(|r| r.start);
        found
    }

    /// Redacts every string and key of a JSON value.
    pub(crate) fn value(&self, value: &mut Value) {
        match value {
            Value::String(s) => self.string(s),
            Value::Array(items) => items.iter_mut().for_each(|v| self.value(v)),
            Value::Object(map) => {
                if map
                    .keys()
                    .any(|k| self.needles.iter().any(|n| k.contains(n.as_str())))
                {
                    let entries = std::mem::take(map);
                    for (mut k, v) in entries {
                        self.string(&mut k);
                        map.insert(k, v);
                    }
                }
                map.values_mut().for_each(|v| self.value(v));
            }
            _ => {}
        }
    }

    fn call(&self, call: &mut Call) {
        self.string(&mut call.name);
        if let Some(id) = &mut call.id {
            self.string(id);
        }
        self.value(&mut call.arguments);
        if let Some(r) = &mut call.result {
            self.value(r);
        }
        call.children.iter_mut().for_each(|c| self.call(c));
    }

    /// Redacts everything a reply records: text, body, calls, workflow, guardrails.
    pub(crate) fn reply(&self, reply: &mut Reply) {
        if self.is_empty() {
            return;
        }
        self.string(&mut reply.text);
        if let Some(body) = &mut reply.body {
            self.value(body);
        }
        reply.calls.iter_mut().for_each(|c| self.call(c));
        if let Some(w) = &mut reply.workflow {
            if let Some(state) = &mut w.state {
                self.string(state);
            }
            w.transitions.iter_mut().for_each(|t| self.string(t));
        }
        for g in &mut reply.guardrails {
            self.string(&mut g.name);
            if let Some(m) = &mut g.message {
                self.string(m);
            }
        }
    }

    /// Redacts an agent's answer: the reply, or the error with its partial reply.
    pub(crate) fn result(&self, result: Result<Reply, AgentError>) -> Result<Reply, AgentError> {
        if self.is_empty() {
            return result;
        }
        match result {
            Ok(mut reply) => {
                self.reply(&mut reply);
                Ok(reply)
            }
            Err(e) => {
                let mut message = e.message().to_owned();
                self.string(&mut message);
                let mut redacted = AgentError::new(message);
                if let Some(mut partial) = e.into_partial() {
                    self.reply(&mut partial);
                    redacted = redacted.with_partial(partial);
                }
                Err(redacted)
            }
        }
    }
}

fn html_escaped(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

fn percent_encoded(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The largest response body read (10 MiB by default); a larger one is an agent error.
pub const DEFAULT_MAX_BODY_BYTES: usize = 10 * 1024 * 1024;

/// How long establishing a connection may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// An HTTP client using rustls with the ring provider (no OpenSSL, no aws-lc).
pub(crate) fn client(timeout: Duration) -> Result<reqwest::Client, AgentError> {
    static PROVIDER: OnceLock<()> = OnceLock::new();
    PROVIDER.get_or_init(|| {
        // Another provider may already be installed by the application: keep it.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
    reqwest::Client::builder()
        .timeout(timeout)
        // A server that does not even accept a connection in this time is down: say so
        // without waiting the whole timeout (a dead judge then costs this, not a minute).
        .connect_timeout(CONNECT_TIMEOUT.min(timeout))
        .build()
        .map_err(|e| AgentError::new(format!("cannot build the HTTP client: {e}")))
}

/// The URL without its query string, which may carry a key.
pub(crate) fn shown_url(url: &str) -> &str {
    url.split(['?', '#']).next().unwrap_or(url)
}

/// A reqwest error as a clear, secret-free message.
pub(crate) fn request_error(e: &reqwest::Error, url: &str, timeout: Duration) -> AgentError {
    let url = shown_url(url);
    let message = if e.is_timeout() {
        format!("no answer from {url} within {}", human(timeout))
    } else if e.is_connect() {
        format!("cannot connect to {url}: {}", root_cause(e))
    } else if e.is_builder() {
        format!("invalid request to {url}: {}", root_cause(e))
    } else {
        format!("request to {url} failed: {}", root_cause(e))
    };
    AgentError::new(message)
}

fn root_cause(e: &dyn std::error::Error) -> String {
    let mut cause = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        cause = s.to_string();
        source = s.source();
    }
    cause
}

fn human(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{}ms", d.as_millis())
    }
}

/// A short, printable excerpt of a body for an error message: at most 200 bytes, control
/// characters escaped, in backticks.
pub(crate) fn excerpt(text: &str) -> String {
    let clipped = agent_test_core::util::text::clip(text, 200);
    let mut out = String::with_capacity(clipped.len() + 2);
    out.push('`');
    for c in clipped.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out.push('`');
    out
}

/// Reads a response body up to `max` bytes.
pub(crate) async fn read_body(
    mut response: reqwest::Response,
    max: usize,
    url: &str,
    timeout: Duration,
) -> Result<Vec<u8>, AgentError> {
    let mut body = Vec::new();
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                if body.len() + chunk.len() > max {
                    return Err(AgentError::new(format!(
                        "the response from {} is larger than {} bytes",
                        shown_url(url),
                        max
                    )));
                }
                body.extend_from_slice(&chunk);
            }
            Ok(None) => return Ok(body),
            Err(e) => return Err(request_error(&e, url, timeout)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn redacted(secrets: &[&str], text: &str) -> String {
        let secrets: Vec<Secret> = secrets.iter().map(|s| Secret::new(*s)).collect();
        let mut text = text.to_owned();
        Redactor::new(&secrets).string(&mut text);
        text
    }

    #[test]
    fn secrets_are_found_as_sent_and_as_escaped() {
        let key = r#"k3y/with+"odd"&chars"#;
        assert_eq!(redacted(&[key], &format!("raw {key}")), "raw ***");
        let json = serde_json::to_string(&json!({"h": key})).unwrap();
        assert_eq!(redacted(&[key], &json), r#"{"h":"***"}"#);
        assert_eq!(
            redacted(&[key], r#"k3y\/with+"odd"&chars"#),
            "***",
            "PHP escapes slashes"
        );
        assert_eq!(
            redacted(&[key], "k3y/with+&quot;odd&quot;&amp;chars"),
            "***"
        );
        assert_eq!(
            redacted(&[key], "?key=k3y%2Fwith%2B%22odd%22%26chars"),
            "?key=***"
        );
    }

    #[test]
    fn a_schemes_credentials_are_redacted_alone_and_short_values_not_at_all() {
        assert_eq!(
            redacted(
                &["Bearer sk-live-123"],
                "authorization: Bearer sk-live-123; again sk-live-123"
            ),
            "authorization: Bearer ***; again ***"
        );
        // Not a scheme: the whole value is the secret.
        assert_eq!(redacted(&["open sesame"], "said open sesame"), "said ***");
        // Too short to search for without mangling every text; empty tokens likewise.
        assert_eq!(
            redacted(&["abc", "", "Bearer "], "abc Bearer x"),
            "abc Bearer x"
        );
        // The longer secret first: no half-redacted remains.
        assert_eq!(redacted(&["cdef", "abcdefgh"], "abcdefgh cdef"), "*** ***");
    }

    #[test]
    fn replies_and_errors_are_redacted_everywhere() {
        let secrets = [Secret::new("sk-SENTINEL")];
        let r = Redactor::new(&secrets);
        let mut reply = Reply::text("echo sk-SENTINEL").call(Call::node("n").child(
            Call::tool("t", json!({"sk-SENTINEL": ["x sk-SENTINEL"]})).result(json!("sk-SENTINEL")),
        ));
        reply.body = Some(json!({"a": {"b": "sk-SENTINEL"}}));
        let Ok(reply) = r.result(Ok(reply)) else {
            panic!("ok")
        };
        let text = serde_json::to_string(&reply).unwrap();
        assert!(!text.contains("sk-SENTINEL"), "{text}");
        assert_eq!(
            reply.calls[0].children[0].arguments,
            json!({"***": ["x ***"]})
        );
        let e = AgentError::new("HTTP 401: sk-SENTINEL").with_partial(Reply::text("sk-SENTINEL"));
        let Err(e) = r.result(Err(e)) else {
            panic!("err")
        };
        assert_eq!(e.message(), "HTTP 401: ***");
        assert_eq!(e.partial().unwrap().text, "***");
    }
}
