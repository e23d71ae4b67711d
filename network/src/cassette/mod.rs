//! Cassettes for model traffic: record an agent's calls to a model once, replay them in every
//! later run — offline, free, without a key, and with the same answers each time.
//!
//! A [`Cassette`] is a directory, a [`Mode`] and an upstream (the provider's base URL).
//! [`Cassette::start`] runs a proxy on 127.0.0.1 for the OpenAI-compatible (chat completions,
//! Responses) and Anthropic (Messages) APIs, and [`RunningCassette::base_url`] is what the
//! agent's own client is given instead of the provider's URL: `ChatAgent::cassette`,
//! `Judge::cassette`, or the base URL setting of any SDK in any language (the command line's
//! `agent-test proxy` serves the same proxy).
//!
//! - **record** forwards each request to the provider and stores the request and the answer
//!   as one pretty JSON file, named after the request (`chat-completions-gpt-4o-mini-<hash>.json`):
//!   the canonical request (keys sorted, [ignored fields](Cassette::ignore_fields) left out)
//!   and the response (status, content type, latency, the body as JSON, or a stream's events
//!   with their offsets). Credentials are never stored: request headers are stored from a
//!   short list of harmless ones, and the values of credential headers (`Authorization`,
//!   `x-api-key`, `api-key`, …), credential query parameters and the [configured
//!   secrets](Cassette::redact) are replaced by `***` wherever they appear, bodies included.
//! - **replay** answers from the files only — nothing is forwarded — streaming included, with
//!   the recorded timing when [asked](Cassette::recorded_timing). A request with no recording
//!   is answered with HTTP 599 and an error naming the closest recorded request and where it
//!   differs; `ChatAgent` and the judge turn it into the turn's or the check's error.
//! - **auto** replays what is recorded and records what is not; it is refused when the `CI`
//!   environment variable is set.
//!
//! Every answer a request got is kept, in the order it was asked: the k-th ask of a request
//! is answered by its k-th sample (`<id>~2.json` for the second), so a scenario recorded with
//! `repeat = 20` replays its 20 runs' outcomes, run by run.
//!
//! `AGENT_TEST_CASSETTE_MODE` overrides the mode set in code, so a suite is recorded again
//! with `AGENT_TEST_CASSETTE_MODE=record cargo test` and replays by default. Each scenario's
//! report lists the entries its model calls used (`cassette` in its JSON); [`unused`] and
//! [`prune`] (and `agent-test cassette unused`) find and delete the entries no run used.
//!
//! ```
//! # #[cfg(feature = "cassette")] {
//! use agent_test::cassette::{Cassette, Mode};
//! use agent_test::prelude::*;
//! use agent_test::agent::ChatAgent;
//!
//! let dir = std::env::temp_dir().join(format!("agent-test-doc-cassette-{}", std::process::id()));
//! let cassette = Cassette::new(&dir)
//!     .mode(Mode::Record)
//!     .upstream("https://api.openai.com/v1")
//!     .ignore_fields(["user", "metadata"])
//!     .start()
//!     .unwrap();
//! assert!(cassette.base_url().starts_with("http://127.0.0.1:"));
//! assert!(cassette.base_url().ends_with("/v1"));
//! let agent = ChatAgent::new("gpt-4o-mini").cassette(&cassette);
//! # let _ = agent;
//! # }
//! ```

#[cfg(feature = "cassette")]
mod builder;
#[cfg(feature = "cassette")]
mod canonical;
#[cfg(feature = "cassette")]
mod clients;
#[cfg(feature = "cassette")]
mod decoding;
#[cfg(feature = "cassette")]
mod difference;
#[cfg(feature = "cassette")]
mod entry;
#[cfg(feature = "cassette")]
mod headers;
mod mode;
#[cfg(feature = "cassette")]
mod proxy;
#[cfg(feature = "cassette")]
mod record;
#[cfg(feature = "cassette")]
mod replay;
#[cfg(feature = "cassette")]
mod response;
#[cfg(feature = "cassette")]
mod running;
#[cfg(feature = "cassette")]
mod samples;
#[cfg(feature = "cassette")]
mod shared;
#[cfg(feature = "cassette")]
mod sse;
mod store;
#[cfg(feature = "cassette")]
mod stream_secrets;

use std::fmt;

#[cfg(feature = "cassette")]
pub use builder::{ANTHROPIC_UPSTREAM, Cassette, OPENAI_UPSTREAM};
pub use mode::{CASSETTE_MODE_ENV, Mode};
#[cfg(feature = "cassette")]
pub use running::RunningCassette;
#[cfg(feature = "cassette")]
pub use shared::Miss;
pub use store::{entries, prune, unused};

/// Why a cassette cannot start, or its directory cannot be read or pruned.
///
/// ```
/// use agent_test::cassette::CassetteError;
/// let e = CassetteError::from("the cassette directory tests/cassettes does not exist");
/// assert!(e.to_string().contains("does not exist"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CassetteError {
    message: String,
}

impl CassetteError {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        CassetteError {
            message: message.into(),
        }
    }

    /// What went wrong.
    ///
    /// ```
    /// use agent_test::cassette::CassetteError;
    /// assert_eq!(CassetteError::from("no").message(), "no");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl From<&str> for CassetteError {
    fn from(message: &str) -> Self {
        CassetteError::new(message)
    }
}

impl From<String> for CassetteError {
    fn from(message: String) -> Self {
        CassetteError::new(message)
    }
}

impl fmt::Display for CassetteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CassetteError {}
