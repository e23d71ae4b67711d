//! One request to the judge's model, as every caller makes it: after the backoff, counted,
//! bounded by the timeout, its tokens added to the usage. Verdicts and model-powered steps
//! share it, with the cache-mode rules and the messages that go with them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use super::{Completion, Judge, JudgeMode, JudgePrompt, JudgeUsage, Limits, ModelError, Unreached};

/// Missing answers in a row after which a judge is not asked again in this process.
const UNREACHABLE_AFTER: u32 = 2;

/// Whether a judge can be reached: attempts that did not reach it in a row, and once it is
/// given up, why. No connection at all (refused, unknown host, none within the connect
/// timeout) gives it up at once; a missing answer counts, and [`UNREACHABLE_AFTER`] of them
/// in a row give it up. Any answer from it — even an error status — resets the count, so a
/// slow judge that answers between timeouts is still asked.
#[derive(Debug, Default)]
pub(crate) struct Reachability {
    state: Mutex<(u32, Option<String>)>,
}

impl Reachability {
    /// Why the judge is not asked any more, if it is not.
    fn given_up(&self) -> Option<String> {
        self.lock().1.clone()
    }

    fn record(&self, answer: &Result<Completion, ModelError>) {
        let mut state = self.lock();
        let Err(e) = answer else {
            *state = (0, None);
            return;
        };
        match e.unreachable {
            Some(Unreached::NoConnection) => {
                state.1 = Some(format!(
                    "judge unreachable: {}; no more requests are sent to it in this run",
                    e.message
                ));
            }
            Some(Unreached::NoAnswer) => {
                state.0 = state.0.saturating_add(1);
                if state.0 >= UNREACHABLE_AFTER {
                    state.1 = Some(format!(
                        "judge unreachable: {}; after {} attempts in a row without an answer, \
                         no more requests are sent to it in this run",
                        e.message, state.0
                    ));
                }
            }
            // An answer, even an error status: the judge is there.
            None => *state = (0, None),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (u32, Option<String>)> {
        match self.state.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        }
    }
}

impl JudgeMode {
    /// Whether cached answers are reused (`live`, `replay`).
    pub(crate) fn reads_cache(self) -> bool {
        matches!(self, JudgeMode::Live | JudgeMode::Replay)
    }

    /// Whether answers are stored (every mode but `off`).
    pub(crate) fn writes_cache(self) -> bool {
        self != JudgeMode::Off
    }
}

impl Judge {
    /// The reachability of this judge's model: process-wide per endpoint, so that a suite of
    /// many scenarios (each its own test, with its own `Judge` value) finds a dead judge once;
    /// per `Judge` value (and its clones) for a model without an endpoint.
    fn reachability(&self) -> Arc<Reachability> {
        static BY_ENDPOINT: OnceLock<Mutex<HashMap<String, Arc<Reachability>>>> = OnceLock::new();
        let Some(endpoint) = self.model.endpoint() else {
            return Arc::clone(&self.reachability);
        };
        let map = BY_ENDPOINT.get_or_init(Mutex::default);
        let mut map = match map.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        Arc::clone(map.entry(endpoint).or_default())
    }

    /// Request number `attempt` (from 0) of `prompt`. A failure keeps the provider's
    /// `Retry-After` in `retry_after` for the next wait; `who` names the answerer in the
    /// timeout message ("the judge", "the model"). A judge found unreachable is not asked:
    /// the answer is at once a non-retryable "judge unreachable: …" error.
    pub(super) async fn attempt(
        &self,
        attempt: u32,
        limits: Limits,
        retry_after: &mut Option<Duration>,
        prompt: &JudgePrompt,
        usage: &mut JudgeUsage,
        who: &str,
    ) -> Result<Completion, ModelError> {
        let reachability = self.reachability();
        if let Some(why) = reachability.given_up() {
            return Err(ModelError::fatal(why));
        }
        if attempt > 0 {
            tokio::time::sleep(self.wait(attempt, retry_after.take())).await;
            // Another scenario may have found it down in the meantime.
            if let Some(why) = reachability.given_up() {
                return Err(ModelError::fatal(why));
            }
        }
        usage.requests += 1;
        let answer = match tokio::time::timeout(limits.timeout, self.model.complete(prompt)).await {
            Err(_) => Err(ModelError::no_answer(format!(
                "no answer from {who} within {} s",
                limits.timeout.as_secs_f64()
            ))),
            Ok(r) => r,
        };
        reachability.record(&answer);
        match answer {
            Ok(c) => {
                usage.add_tokens(c.usage);
                Ok(c)
            }
            Err(e) => {
                *retry_after = e.retry_after;
                Err(e)
            }
        }
    }

    /// The wait before retry number `attempt` (1-based): exponential backoff, or the
    /// provider's `Retry-After` when longer, at most a minute.
    pub(super) fn wait(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        let exponential = self
            .backoff
            .saturating_mul(2u32.saturating_pow(attempt.saturating_sub(1)));
        exponential
            .max(retry_after.unwrap_or_default())
            .min(Duration::from_secs(60))
    }
}

/// What a replay finds when a check's verdict is not cached: the start of its reason, which
/// mutation runs read as "the judge has not seen this" (not as a broken cache entry).
pub const NO_CACHED_VERDICT: &str = "no cached verdict for this check";

impl Judge {
    /// Why `what` cannot be had in replay mode: it is not cached and `whom` may not be asked.
    pub(super) fn replay_miss(&self, what: &str, whom: &str) -> String {
        if self.cache_only {
            format!("{what}, and this judge reads only its cache: {whom} is not asked")
        } else {
            format!(
                "{what}, and {}=replay forbids asking {whom}: run once with a live judge to \
                 record it",
                super::JUDGE_MODE_ENV
            )
        }
    }
}

/// The last error, with how many requests were made (none: a judge found unreachable
/// before this grading was not asked).
pub(super) fn after_requests(error: &str, requests: u32) -> String {
    if requests == 0 {
        return error.to_owned();
    }
    format!(
        "{error} (after {requests} request{})",
        agent_test_core::util::text::plural(requests as usize)
    )
}
