//! The language model behind a judge (and behind a run's model steps): one prompt in, one
//! completion out.

use std::time::Duration;

use serde_json::Value;

use crate::agent::BoxFuture;
use agent_test_core::model::Usage;

/// What a judge model is asked: instructions, the checks to grade (as JSON text), and the JSON
/// Schema its answer must follow (sent with the provider's structured-output mode).
///
/// ```
/// use agent_test::judge::JudgePrompt;
/// let p = JudgePrompt { system: "Grade.".into(), user: "{}".into(), schema: serde_json::json!({}) };
/// assert_eq!(p.system, "Grade.");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct JudgePrompt {
    /// The instructions.
    pub system: String,
    /// The checks and the material to grade.
    pub user: String,
    /// The JSON Schema of the answer.
    pub schema: Value,
}

/// A model's answer: its text (expected to be JSON) and what it cost.
///
/// ```
/// use agent_test::judge::Completion;
/// let c = Completion { text: r#"{"results": []}"#.into(), usage: None };
/// assert!(c.usage.is_none());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Completion {
    /// The answer's text.
    pub text: String,
    /// Token usage, when the provider reports it.
    pub usage: Option<Usage>,
}

/// A failed model call, and whether trying again may help.
///
/// ```
/// use agent_test::judge::ModelError;
/// let e = ModelError::retryable("HTTP 503").after(std::time::Duration::from_secs(2));
/// assert!(e.retry);
/// assert_eq!(e.to_string(), "HTTP 503");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelError {
    /// What went wrong (no secrets).
    pub message: String,
    /// Whether the call may succeed if repeated (rate limits, 5xx, timeouts).
    pub retry: bool,
    /// How long the provider asked to wait (`Retry-After`).
    pub retry_after: Option<Duration>,
    /// The model could not be reached: no connection (refused, no such host, no connection
    /// within the connect timeout), or no answer within the timeout. No connection makes the
    /// judge stop asking that endpoint for the rest of the process at once, and so do two
    /// missing answers in a row: a dead judge costs at most one timeout, not every scenario's
    /// timeouts, while a slow one that answers now and then is still asked.
    pub unreachable: Option<Unreached>,
}

/// How far a request got that did not reach the model (see [`ModelError::unreachable`]).
///
/// ```
/// use agent_test::judge::{ModelError, Unreached};
/// assert_eq!(ModelError::no_answer("no answer within 60 s").unreachable, Some(Unreached::NoAnswer));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unreached {
    /// No connection: refused, no such host, or none within the connect timeout.
    NoConnection,
    /// Connected (or still connecting when the request's timeout ran out), but no answer.
    NoAnswer,
}

impl ModelError {
    /// An error that repeating will not fix (bad key, bad request).
    ///
    /// ```
    /// # use agent_test::judge::ModelError;
    /// assert!(!ModelError::fatal("HTTP 401").retry);
    /// ```
    pub fn fatal(message: impl Into<String>) -> Self {
        ModelError {
            message: message.into(),
            retry: false,
            retry_after: None,
            unreachable: None,
        }
    }

    /// An error worth retrying.
    ///
    /// See the type's example.
    pub fn retryable(message: impl Into<String>) -> Self {
        ModelError {
            message: message.into(),
            retry: true,
            retry_after: None,
            unreachable: None,
        }
    }

    /// The model could not be connected to (connection refused, no such host, no connection
    /// in time): the endpoint is given up for the rest of the process.
    ///
    /// ```
    /// # use agent_test::judge::{ModelError, Unreached};
    /// let e = ModelError::unreachable("cannot connect to http://127.0.0.1:9/v1");
    /// assert_eq!(e.unreachable, Some(Unreached::NoConnection));
    /// ```
    pub fn unreachable(message: impl Into<String>) -> Self {
        ModelError {
            unreachable: Some(Unreached::NoConnection),
            ..ModelError::retryable(message)
        }
    }

    /// The model did not answer in time: worth retrying, and after two in a row the endpoint
    /// is given up for the rest of the process.
    ///
    /// See [`Unreached`].
    pub fn no_answer(message: impl Into<String>) -> Self {
        ModelError {
            unreachable: Some(Unreached::NoAnswer),
            ..ModelError::retryable(message)
        }
    }

    /// The provider's requested wait before retrying.
    ///
    /// See the type's example.
    pub fn after(mut self, wait: Duration) -> Self {
        self.retry_after = Some(wait);
        self
    }
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ModelError {}

/// A language model that grades: the provider clients ([`OpenAiJudge`](super::OpenAiJudge),
/// [`AnthropicJudge`](super::AnthropicJudge)) implement it, and so can anything else — a
/// scripted model in tests, an internal gateway.
///
/// Batching, validation, retries, caching and the pass rule are the [`Judge`](super::Judge)'s
/// job; a model only answers one prompt.
///
/// ```
/// use agent_test::agent::BoxFuture;
/// use agent_test::judge::{Completion, JudgeModel, JudgePrompt, ModelError};
///
/// /// Passes everything: a stand-in for tests.
/// struct Lenient;
///
/// impl JudgeModel for Lenient {
///     fn id(&self) -> String {
///         "lenient".into()
///     }
///     fn complete<'a>(&'a self, prompt: &'a JudgePrompt) -> BoxFuture<'a, Result<Completion, ModelError>> {
///         Box::pin(async move {
///             let checks: serde_json::Value = serde_json::from_str(&prompt.user).unwrap_or_default();
///             let results: Vec<_> = checks["checks"].as_array().into_iter().flatten()
///                 .map(|c| serde_json::json!({"id": c["id"], "score": 1.0, "pass": true, "reasoning": "ok"}))
///                 .collect();
///             Ok(Completion { text: serde_json::json!({"results": results}).to_string(), usage: None })
///         })
///     }
/// }
/// ```
pub trait JudgeModel: Send + Sync {
    /// Names the model for cache keys and reports: provider and pinned model
    /// (`openai:gpt-4o-mini-2024-07-18`). Two models with the same id share cached verdicts.
    fn id(&self) -> String;

    /// Answers one prompt.
    fn complete<'a>(
        &'a self,
        prompt: &'a JudgePrompt,
    ) -> BoxFuture<'a, Result<Completion, ModelError>>;

    /// The endpoint requests go to (without secrets), when there is one: judges on the same
    /// endpoint share, process-wide, the count of failures to reach it, so that once it is
    /// found down no scenario waits for it again. `None` (the default): the count is kept per
    /// [`Judge`](super::Judge) value and its clones.
    fn endpoint(&self) -> Option<String> {
        None
    }

    /// The same model at another endpoint, for [`Judge::base_url`](super::Judge::base_url);
    /// `None` (the default) when the model has no endpoint to move.
    fn at_base_url(&self, _url: &str) -> Option<std::sync::Arc<dyn JudgeModel>> {
        None
    }
}

/// A shared model is a model: keep a handle (to inspect a scripted model in tests, or reuse
/// one client) while a [`Judge`](super::Judge) uses it.
///
/// ```
/// use std::sync::Arc;
/// # use agent_test::agent::BoxFuture;
/// use agent_test::judge::{Completion, Judge, JudgeModel, JudgePrompt, ModelError};
/// # struct Offline;
/// # impl JudgeModel for Offline {
/// #     fn id(&self) -> String { "offline".into() }
/// #     fn complete<'a>(&'a self, _: &'a JudgePrompt) -> BoxFuture<'a, Result<Completion, ModelError>> {
/// #         Box::pin(async { Err(ModelError::fatal("offline")) })
/// #     }
/// # }
/// let model = Arc::new(Offline);
/// let judge = Judge::new(Arc::clone(&model));
/// assert_eq!(judge.model_id(), model.id());
/// ```
impl<M: JudgeModel + ?Sized> JudgeModel for std::sync::Arc<M> {
    fn id(&self) -> String {
        (**self).id()
    }

    fn complete<'a>(
        &'a self,
        prompt: &'a JudgePrompt,
    ) -> BoxFuture<'a, Result<Completion, ModelError>> {
        (**self).complete(prompt)
    }

    fn endpoint(&self) -> Option<String> {
        (**self).endpoint()
    }

    fn at_base_url(&self, url: &str) -> Option<std::sync::Arc<dyn JudgeModel>> {
        (**self).at_base_url(url)
    }
}
