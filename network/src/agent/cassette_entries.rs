//! Which cassette entries a scenario run used. A cassette proxy names the entry that answered
//! each request in a response header; agent-test's own clients (the chat agent, the judge)
//! note it in the run they are called from, through a task-local the run sets around its
//! turns and its judge. A header, not the proxy's own list: scenarios running at once may share
//! one proxy, and only the caller knows which run a request was for.

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

/// The response header naming the cassette entry (its file's stem) that answered a request.
#[cfg(feature = "http")]
pub(crate) const ENTRY_HEADER: &str = "agent-test-cassette-entry";

/// The response header set on a replay's miss: the body's `error.message` says what was
/// asked, and the closest recorded request with how it differs.
#[cfg(feature = "http")]
pub(crate) const MISS_HEADER: &str = "agent-test-cassette-miss";

tokio::task_local! {
    static USED: EntriesUsed;
}

/// The entries a run used, in first-use order, each once (shared by the run's clones).
#[derive(Clone, Debug, Default)]
#[doc(hidden)]
pub struct EntriesUsed(Arc<Mutex<Vec<String>>>);

impl EntriesUsed {
    /// Runs `future` with its cassette entries noted here.
    #[doc(hidden)]
    pub async fn scope<F: Future>(&self, future: F) -> F::Output {
        USED.scope(self.clone(), future).await
    }

    /// The entries noted so far.
    #[doc(hidden)]
    pub fn list(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Whether no entry was noted: no call went through a cassette.
    #[doc(hidden)]
    pub fn is_empty(&self) -> bool {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_empty()
    }

    #[cfg(feature = "http")]
    fn add(&self, id: &str) {
        let mut ids = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if !ids.iter().any(|i| i == id) {
            ids.push(id.to_owned());
        }
    }
}

/// Notes the entry a response names, in the run this is called from (outside a run, nothing).
#[cfg(feature = "http")]
pub(crate) fn note(headers: &reqwest::header::HeaderMap) {
    if let Some(id) = headers.get(ENTRY_HEADER).and_then(|v| v.to_str().ok()) {
        // Outside a scenario run (a client called on its own) there is nothing to note in.
        let _ = USED.try_with(|used| used.add(id));
    }
}

/// Whether a response is a cassette's miss (a replay without a recording of the request).
#[cfg(feature = "http")]
pub(crate) fn is_miss(headers: &reqwest::header::HeaderMap) -> bool {
    headers.contains_key(MISS_HEADER)
}

/// What a cassette's miss says: its body's `error.message` (the whole body when it has none).
#[cfg(feature = "http")]
pub(crate) fn miss_message(body: &[u8]) -> String {
    let json: Option<serde_json::Value> = serde_json::from_slice(body).ok();
    json.as_ref()
        .and_then(|j| j.pointer("/error/message"))
        .and_then(serde_json::Value::as_str)
        .map_or_else(|| String::from_utf8_lossy(body).into_owned(), str::to_owned)
}
