//! What the proxy's thread and the [`RunningCassette`](super::RunningCassette) share: the
//! cassette's settings, the entries used, the last miss, the problems met.

use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;

use super::canonical::IgnoredField;
use super::mode::Mode;
use crate::agent::wire::{Secret, client};

/// At most this many problems are kept (more are counted).
const MAX_PROBLEMS: usize = 100;

/// How long one forwarded exchange may take, streaming included: models can be slow, but a
/// request must end.
pub(crate) const UPSTREAM_TIMEOUT: Duration = Duration::from_secs(600);

/// A request a replay had no recording of.
///
/// ```no_run
/// # use agent_test::cassette::Cassette;
/// let cassette = Cassette::new("tests/cassettes").start().unwrap();
/// // ... a run whose model call was not recorded ...
/// if let Some(miss) = cassette.last_miss() {
///     eprintln!("{miss}"); // no recording for this request (POST /v1/chat/completions) in ...
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Miss {
    /// The request: method and path.
    pub request: String,
    /// The closest recorded entry's id, when the cassette has entries.
    pub closest: Option<String>,
    /// The whole message: the request, the cassette, the closest entry and where it differs.
    pub message: String,
}

impl fmt::Display for Miss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// What the proxy's thread and the [`RunningCassette`] share.
pub(crate) struct Shared {
    pub(crate) dir: PathBuf,
    pub(crate) mode: Mode,
    /// Where requests are forwarded: the upstream's origin (the path is the request's).
    pub(crate) origin: String,
    pub(crate) ignored: Vec<IgnoredField>,
    pub(crate) secrets: Vec<Secret>,
    pub(crate) recorded_timing: bool,
    used_log: Option<PathBuf>,
    client: OnceLock<Result<reqwest::Client, String>>,
    state: Mutex<State>,
}

/// What the proxy has done so far.
#[derive(Default)]
pub(super) struct State {
    /// How often each request (its entry id) was asked so far: the k-th ask is answered by
    /// the k-th sample.
    pub(super) asked: std::collections::HashMap<String, u32>,
    pub(super) used: Vec<String>,
    pub(super) last_miss: Option<Miss>,
    pub(super) problems: Vec<String>,
    pub(super) unlisted: usize,
}

impl Shared {
    pub(crate) fn new(
        dir: PathBuf,
        mode: Mode,
        origin: String,
        ignored: Vec<IgnoredField>,
        secrets: Vec<Secret>,
        recorded_timing: bool,
        used_log: Option<PathBuf>,
    ) -> Self {
        Shared {
            dir,
            mode,
            origin,
            ignored,
            secrets,
            recorded_timing,
            used_log,
            client: OnceLock::new(),
            state: Mutex::default(),
        }
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The client requests are forwarded with (built on the first forwarded request: a
    /// replay never builds one).
    pub(crate) fn client(&self) -> Result<&reqwest::Client, String> {
        self.client
            .get_or_init(|| client(UPSTREAM_TIMEOUT).map_err(|e| e.message().to_owned()))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// How often request `id` was asked before this ask (0 the first time).
    pub(crate) fn ask(&self, id: &str) -> u32 {
        let mut state = self.lock();
        let n = state.asked.entry(id.to_owned()).or_insert(0);
        let before = *n;
        *n = n.saturating_add(1);
        before
    }

    /// Notes that entry `id` answered a request (its first use is appended to the used log).
    pub(crate) fn used(&self, id: &str) {
        let mut state = self.lock();
        if state.used.iter().any(|u| u == id) {
            return;
        }
        state.used.push(id.to_owned());
        drop(state);
        if let Some(log) = &self.used_log {
            let appended = log
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| {
                    std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(log)
                })
                .and_then(|mut f| f.write_all(format!("{id}\n").as_bytes()));
            if let Err(e) = appended {
                self.problem(format!("cannot append to {}: {e}", log.display()));
            }
        }
    }

    pub(crate) fn missed(&self, miss: Miss) {
        self.lock().last_miss = Some(miss);
    }

    /// Something the proxy could not do (record an answer, reach the provider), kept for
    /// [`RunningCassette::problems`].
    pub(crate) fn problem(&self, why: String) {
        let mut state = self.lock();
        if state.problems.len() < MAX_PROBLEMS {
            state.problems.push(why);
        } else {
            state.unlisted = state.unlisted.saturating_add(1);
        }
    }
}
