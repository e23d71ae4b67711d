//! What the HTTP judge clients share: the model, the endpoint, the key and the client, and
//! how a request is sent and its failures classified.

use std::fmt;
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::Value;

use super::{Completion, ModelError};
use crate::agent::cassette_entries;
use crate::agent::wire::{
    DEFAULT_MAX_BODY_BYTES, Redactor, Secret, client, env, read_body, request_error, shown_url,
};

/// A model on an HTTP endpoint. `Debug` shows the URL without its query and never the key.
pub(super) struct Endpoint {
    pub(super) model: String,
    pub(super) base_url: String,
    pub(super) api_key: Option<Secret>,
    client: OnceLock<Result<reqwest::Client, String>>,
    /// The key, removed from answers and errors; built on first use (after the builder set it).
    redactor: OnceLock<Redactor>,
}

impl Endpoint {
    /// `model` at the first URL set in `url_vars` (else `default_url`), with the first key set
    /// in `key_vars`.
    pub(super) fn from_env(
        model: String,
        url_vars: &[&str],
        default_url: &str,
        key_vars: &[&str],
    ) -> Self {
        Endpoint {
            model,
            base_url: env(url_vars)
                .unwrap_or_else(|| default_url.into())
                .trim_end_matches('/')
                .to_owned(),
            api_key: env(key_vars).map(Secret::new),
            client: OnceLock::new(),
            redactor: OnceLock::new(),
        }
    }

    pub(super) fn set_base_url(&mut self, url: String) {
        self.base_url = url.trim_end_matches('/').to_owned();
    }

    /// The base URL as shown (without a query string, where keys may be).
    pub(super) fn shown(&self) -> String {
        shown_url(&self.base_url).to_owned()
    }

    /// The endpoint's URL for `path` (`/chat/completions`).
    pub(super) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url)
    }

    /// An answer or error with the key redacted: the one place everything the judge's model
    /// says passes through on its way to verdicts, reports and the cache, so an endpoint that
    /// echoes the request (a 401 page quoting the headers) cannot leak the key.
    pub(super) fn redact(
        &self,
        result: Result<Completion, ModelError>,
    ) -> Result<Completion, ModelError> {
        let redactor = self.redactor.get_or_init(|| Redactor::new(&self.api_key));
        match result {
            Ok(mut c) => {
                redactor.string(&mut c.text);
                Ok(c)
            }
            Err(mut e) => {
                redactor.string(&mut e.message);
                Err(e)
            }
        }
    }

    /// The shared client. Its own timeout is generous: the [`Judge`](super::Judge) enforces
    /// the real one.
    pub(super) fn http(&self) -> Result<&reqwest::Client, ModelError> {
        self.client
            .get_or_init(|| client(SEND_TIMEOUT).map_err(|e| e.message().to_owned()))
            .as_ref()
            .map_err(|e| ModelError::fatal(e.clone()))
    }
}

impl fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Endpoint")
            .field("model", &self.model)
            .field("base_url", &shown_url(&self.base_url))
            .field("api_key", &self.api_key)
            .finish()
    }
}

const SEND_TIMEOUT: Duration = Duration::from_secs(600);

/// Sends a request and reads a JSON answer; 429, 5xx, timeouts and lost connections are worth
/// retrying, other failures are not.
pub(super) async fn send(req: reqwest::RequestBuilder, url: &str) -> Result<Value, ModelError> {
    let timeout = SEND_TIMEOUT;
    let response = req.send().await.map_err(|e| {
        let message = request_error(&e, url, timeout).message().to_owned();
        // Not reached at all: no connection gives the endpoint up at once, no answer counts
        // towards giving it up.
        if e.is_connect() {
            ModelError::unreachable(message)
        } else if e.is_timeout() {
            ModelError::no_answer(message)
        } else {
            ModelError::retryable(message)
        }
    })?;
    let status = response.status();
    // Through a cassette: the entry that answered is the run's; a replay's miss is no
    // provider's failure, and asking again cannot help.
    cassette_entries::note(response.headers());
    let miss = cassette_entries::is_miss(response.headers());
    let retry_after = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        // Clamped before converting: a huge value would not fit a Duration.
        .map(|s| Duration::from_secs_f64(s.min(60.0)));
    let bytes = read_body(response, DEFAULT_MAX_BODY_BYTES, url, timeout)
        .await
        .map_err(|e| ModelError::retryable(e.message().to_owned()))?;
    if miss {
        return Err(ModelError::fatal(cassette_entries::miss_message(&bytes)));
    }
    let text = String::from_utf8_lossy(&bytes);
    if !status.is_success() {
        let message = format!(
            "the judge endpoint {} answered HTTP {}: {}",
            shown_url(url),
            status.as_u16(),
            agent_test_core::util::text::clip(&text, 300)
        );
        let err = if status.as_u16() == 429 || status.is_server_error() {
            ModelError::retryable(message)
        } else {
            ModelError::fatal(message)
        };
        return Err(match retry_after {
            Some(d) => err.after(d),
            None => err,
        });
    }
    // From the bytes: text that is not UTF-8 is malformed, not replacement characters.
    serde_json::from_slice(&bytes).map_err(|e| {
        ModelError::retryable(format!(
            "the judge endpoint answered with invalid JSON ({e}): {}",
            agent_test_core::util::text::clip(&text, 200)
        ))
    })
}
