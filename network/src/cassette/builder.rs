//! [`Cassette`]: what a cassette proxy is set up with, checked when it starts.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use super::canonical::IgnoredField;
use super::mode::{self, CASSETTE_MODE_ENV, Mode};
use super::running::RunningCassette;
use super::shared::Shared;
use super::{CassetteError, store};
use crate::agent::wire::Secret;

/// OpenAI's API, the default upstream.
pub const OPENAI_UPSTREAM: &str = "https://api.openai.com/v1";

/// Anthropic's API (its Messages API is `/v1/messages`).
pub const ANTHROPIC_UPSTREAM: &str = "https://api.anthropic.com/v1";

/// A cassette to start: a directory of recorded exchanges, a [`Mode`], the provider behind
/// it, and how requests are matched and cleaned. See the [module documentation](super).
///
/// ```
/// use agent_test::cassette::{ANTHROPIC_UPSTREAM, Cassette, Mode};
/// let cassette = Cassette::new("tests/cassettes/support")
///     .mode(Mode::Replay)
///     .upstream(ANTHROPIC_UPSTREAM)
///     .ignore_fields(["metadata.user_id"])
///     .redact("customer-4711")
///     .recorded_timing(true);
/// # let _ = cassette;
/// ```
#[derive(Clone, Debug)]
pub struct Cassette {
    dir: PathBuf,
    mode: Mode,
    /// The code's mode wins over `AGENT_TEST_CASSETTE_MODE` (a command line's option).
    mode_over_env: bool,
    upstream: String,
    ignored: Vec<String>,
    secrets: Vec<Secret>,
    recorded_timing: bool,
    port: u16,
    used_log: Option<PathBuf>,
}

impl Cassette {
    /// A cassette in `dir` (created when the first entry is recorded), replaying, in front of
    /// OpenAI's API.
    ///
    /// See the type's example.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Cassette {
            dir: dir.into(),
            mode: Mode::Replay,
            mode_over_env: false,
            upstream: OPENAI_UPSTREAM.to_owned(),
            ignored: Vec::new(),
            secrets: Vec::new(),
            recorded_timing: false,
            port: 0,
            used_log: None,
        }
    }

    /// The mode (default [`Mode::Replay`]); `AGENT_TEST_CASSETTE_MODE` overrides it.
    ///
    /// See the type's example.
    pub fn mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self.mode_over_env = false;
        self
    }

    /// The mode, winning over `AGENT_TEST_CASSETTE_MODE` (as a command line's option wins
    /// over the environment).
    ///
    /// ```
    /// use agent_test::cassette::{Cassette, Mode};
    /// let cassette = Cassette::new("tests/cassettes").mode_over_env(Mode::Replay);
    /// # let _ = cassette;
    /// ```
    pub fn mode_over_env(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self.mode_over_env = true;
        self
    }

    /// The provider's base URL (default [`OPENAI_UPSTREAM`]; [`ANTHROPIC_UPSTREAM`], a local
    /// model's `http://127.0.0.1:11434/v1`, …). The proxy's base URL has the same path, and a
    /// request is forwarded to the provider at the path it came to: a client given
    /// [`RunningCassette::base_url`] reaches what it would have reached at this URL.
    ///
    /// See the type's example.
    pub fn upstream(mut self, url: impl Into<String>) -> Self {
        self.upstream = url.into();
        self
    }

    /// Fields of the request body left out of matching (and of the stored request): dot paths
    /// from the body's root, `[0]` or `.0` for an element, `[*]` or `.*` for every key or
    /// element — `user`, `metadata.run_id`, `messages[*].name`. Fields that change from run to
    /// run without changing the answer (ids, timestamps) go here. `stream` cannot be ignored.
    ///
    /// See the type's example.
    pub fn ignore_fields<I, S>(mut self, fields: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.ignored.extend(fields.into_iter().map(Into::into));
        self
    }

    /// A secret to keep out of the cassette besides the credential headers (a customer's
    /// data in a prompt, a key the agent puts in a body): replaced by `***` in everything
    /// stored, request and response, as sent and JSON-, HTML- and URL-escaped. Values shorter
    /// than 4 characters are not searched for.
    ///
    /// See the type's example.
    pub fn redact(mut self, secret: impl Into<String>) -> Self {
        self.secrets.push(Secret::new(secret));
        self
    }

    /// Replay with the recorded timing: each answer after its recorded latency, each streamed
    /// event at its recorded offset (default off: answers at once).
    ///
    /// See the type's example.
    pub fn recorded_timing(mut self, on: bool) -> Self {
        self.recorded_timing = on;
        self
    }

    /// The port on 127.0.0.1 (default 0: a free one).
    ///
    /// ```
    /// use agent_test::cassette::Cassette;
    /// let cassette = Cassette::new("tests/cassettes").port(8089);
    /// # let _ = cassette;
    /// ```
    pub fn port(mut self, port: u16) -> Self {
        self.port = port;
        self
    }

    /// A file each entry's id is appended to the first time the proxy uses it, as it happens
    /// (one a line): what an agent outside agent-test's runs used, for
    /// `agent-test cassette unused --used FILE`.
    ///
    /// ```
    /// use agent_test::cassette::Cassette;
    /// let cassette = Cassette::new("tests/cassettes").used_log("target/cassette-used.txt");
    /// # let _ = cassette;
    /// ```
    pub fn used_log(mut self, path: impl Into<PathBuf>) -> Self {
        self.used_log = Some(path.into());
        self
    }

    /// Starts the proxy on 127.0.0.1, on a thread and runtime of its own (so it outlives any
    /// one test's runtime); it stops when the [`RunningCassette`] is dropped.
    ///
    /// Refused, with what to do: a mode in `AGENT_TEST_CASSETTE_MODE` that is no mode, `auto`
    /// with `CI` set, replaying a directory that does not exist, an upstream that is not an
    /// `http(s)` URL without a query, an ignored field that is no path (or `stream`), and a
    /// port that cannot be bound.
    ///
    /// See the [module documentation](super).
    pub fn start(self) -> Result<RunningCassette, CassetteError> {
        let env = std::env::var(CASSETTE_MODE_ENV).ok();
        let mode = if self.mode_over_env {
            self.mode
        } else {
            mode::effective(self.mode, env.as_deref())?
        };
        if let Some(why) = mode::refusal(mode, std::env::var("CI").ok().as_deref()) {
            return Err(CassetteError::new(why));
        }
        if mode == Mode::Replay && !self.dir.is_dir() {
            return Err(CassetteError::new(format!(
                "the cassette directory {} does not exist: record it first ({CASSETTE_MODE_ENV}=record, with the provider's key)",
                self.dir.display()
            )));
        }
        // Entries can be listed: a replay whose directory is unreadable says so now.
        store::entries(&self.dir)?;
        let (origin, base_path) = upstream_parts(&self.upstream)?;
        let ignored = self
            .ignored
            .iter()
            .map(|f| IgnoredField::parse(f))
            .collect::<Result<Vec<_>, _>>()?;
        let listener = std::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], self.port)))
            .and_then(|l| l.set_nonblocking(true).map(|()| l))
            .map_err(|e| {
                CassetteError::new(format!(
                    "cannot listen on 127.0.0.1:{} for the cassette {}: {e}",
                    self.port,
                    self.dir.display()
                ))
            })?;
        let shared = Arc::new(Shared::new(
            self.dir,
            mode,
            origin.clone(),
            ignored,
            self.secrets,
            self.recorded_timing,
            self.used_log,
        ));
        RunningCassette::start(listener, shared, origin, base_path)
    }
}

/// The upstream's origin (`https://api.openai.com`) and base path (`/v1`, or empty).
fn upstream_parts(upstream: &str) -> Result<(String, String), CassetteError> {
    let url = reqwest::Url::parse(upstream.trim()).map_err(|e| {
        CassetteError::new(format!(
            "the upstream `{upstream}` is not a URL ({e}): give the provider's base URL, e.g. {OPENAI_UPSTREAM}"
        ))
    })?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err(CassetteError::new(format!(
            "the upstream `{upstream}` is not an http(s) URL: give the provider's base URL, e.g. {OPENAI_UPSTREAM}"
        )));
    }
    if url.query().is_some() || url.fragment().is_some() || !url.username().is_empty() {
        return Err(CassetteError::new(format!(
            "the upstream `{}` has a query, fragment or user: give the base URL alone (clients add their own query)",
            crate::agent::wire::shown_url(upstream)
        )));
    }
    let origin = url.origin().ascii_serialization();
    let path = url.path().trim_end_matches('/').to_owned();
    Ok((origin, path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upstreams_are_split_into_origin_and_path() {
        assert_eq!(
            upstream_parts("https://api.openai.com/v1/").unwrap(),
            ("https://api.openai.com".into(), "/v1".into())
        );
        assert_eq!(
            upstream_parts("http://127.0.0.1:11434").unwrap(),
            ("http://127.0.0.1:11434".into(), String::new())
        );
        assert!(upstream_parts("api.openai.com").is_err());
        assert!(
            upstream_parts("https://x.openai.azure.com/openai?api-version=1")
                .unwrap_err()
                .message()
                .contains("query")
        );
    }
}
