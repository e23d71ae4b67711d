//! One request to the judge's model, as every caller makes it: after the backoff, counted,
//! bounded by the timeout, its tokens added to the usage. Verdicts and model-powered steps
//! share it, with the cache-mode rules and the messages that go with them.

use std::time::Duration;

use super::{Completion, Judge, JudgeMode, JudgePrompt, JudgeUsage, ModelError};

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
    /// Request number `attempt` (from 0) of `prompt`. A failure keeps the provider's
    /// `Retry-After` in `retry_after` for the next wait; `who` names the answerer in the
    /// timeout message ("the judge", "the model").
    pub(super) async fn attempt(
        &self,
        attempt: u32,
        retry_after: &mut Option<Duration>,
        prompt: &JudgePrompt,
        usage: &mut JudgeUsage,
        who: &str,
    ) -> Result<Completion, ModelError> {
        if attempt > 0 {
            tokio::time::sleep(self.wait(attempt, retry_after.take())).await;
        }
        usage.requests += 1;
        let answer = match tokio::time::timeout(self.timeout, self.model.complete(prompt)).await {
            Err(_) => Err(ModelError::retryable(format!(
                "no answer from {who} within {} s",
                self.timeout.as_secs_f64()
            ))),
            Ok(r) => r,
        };
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

/// Why `what` cannot be had in replay mode: it is not cached and `whom` may not be asked.
pub(super) fn replay_miss(what: &str, whom: &str) -> String {
    format!(
        "{what}, and {}=replay forbids asking {whom}: run once with a live judge to record it",
        super::JUDGE_MODE_ENV
    )
}

/// The last error, with how many requests were made.
pub(super) fn after_requests(error: &str, requests: u32) -> String {
    format!(
        "{error} (after {requests} request{})",
        crate::report::plural(requests as usize)
    )
}
