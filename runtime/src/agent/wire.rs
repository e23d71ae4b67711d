//! What the HTTP and chat agents share: the client, reading bounded bodies, clear errors, and
//! secrets that never print.

use std::fmt;
use std::sync::OnceLock;
use std::time::Duration;

use super::AgentError;

/// The first environment variable of `names` that is set to something other than blanks
/// (endpoints, keys and models are read from several names, most specific first).
pub(crate) fn env(names: &[&str]) -> Option<String> {
    names
        .iter()
        .find_map(|n| std::env::var(n).ok().filter(|v| !v.trim().is_empty()))
}

/// A secret (an API key, an `Authorization` value): its `Debug` and `Display` print `***`, so
/// it cannot leak into reports or logs.
///
/// ```
/// use agent_test_runtime::agent::Secret;
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

/// The largest response body read (10 MiB by default); a larger one is an agent error.
pub const DEFAULT_MAX_BODY_BYTES: usize = 10 * 1024 * 1024;

/// An HTTP client using rustls with the ring provider (no OpenSSL, no aws-lc).
pub(crate) fn client(timeout: Duration) -> Result<reqwest::Client, AgentError> {
    static PROVIDER: OnceLock<()> = OnceLock::new();
    PROVIDER.get_or_init(|| {
        // Another provider may already be installed by the application: keep it.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
    reqwest::Client::builder()
        .timeout(timeout)
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
    let clipped = crate::report::clip(text, 200);
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
