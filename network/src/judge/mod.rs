//! The judge: model-graded checks, batched, validated, retried and cached.
//!
//! A [`Judge`] grades every [`judge`](agent_test_core::check::judge) check of a scenario run in **one**
//! request to a [`JudgeModel`] (an OpenAI-compatible or Anthropic client, or your own). The
//! answer must be strict JSON — a score from 0 to 1, the judge's pass and its reasoning per
//! check — requested with the provider's structured-output mode, validated, and asked again
//! (with backoff) when it is malformed or the provider answers 429 or 5xx. A check passes iff
//! its score reaches its threshold (0.8 by default). Anything else — no judge configured,
//! malformed answers after the retries, a result missing for one check — is an **error**
//! verdict with the reason, never a pass.
//!
//! Verdicts are cached on disk, keyed by the model, the instructions, the check, the material
//! judged and the repeat index: a re-run over the same transcript makes no request. In CI,
//! `AGENT_TEST_JUDGE_MODE=replay` uses only the cache (a miss is an error, nothing goes over
//! the network).
//!
//! ```
//! use agent_test::judge::{Judge, JudgeMode};
//! # #[cfg(feature = "http")] {
//! let judge = Judge::openai("gpt-4o-mini-2024-07-18")
//!     .base_url("http://127.0.0.1:11434/v1")   // e.g. Ollama
//!     .cache_dir("tests/judge-cache")           // commit it, and replay it in CI
//!     .mode(JudgeMode::Live);
//! assert_eq!(judge.model_id(), "openai:gpt-4o-mini-2024-07-18");
//! # }
//! ```

#[cfg(feature = "http")]
mod anthropic;
mod ask;
mod attempt;
mod cache;
pub mod calibrate;
#[cfg(feature = "http")]
mod endpoint;
mod grade;
mod labels;
mod llm;
#[cfg(feature = "http")]
mod openai;
mod prompt;
#[cfg(feature = "http")]
mod providers;

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use agent_test_core::model::judge_usage::JudgeUsage;
pub use agent_test_core::model::judgement::{JudgeItem, JudgeKind, Judgement, Judgements};
#[cfg(feature = "http")]
pub use anthropic::{AnthropicJudge, DEFAULT_ANTHROPIC_JUDGE_MODEL};
#[doc(hidden)]
pub use attempt::NO_CACHED_VERDICT;
#[doc(hidden)]
pub use grade::{evaluate_judged, needs_judge};
pub use llm::{Completion, JudgeModel, JudgePrompt, ModelError, Unreached};
#[cfg(feature = "http")]
pub use openai::{DEFAULT_OPENAI_JUDGE_MODEL, OpenAiJudge, StructuredOutput};

/// The environment variable that overrides every judge's [`JudgeMode`]: `live`, `replay`,
/// `refresh` or `off`.
pub const JUDGE_MODE_ENV: &str = "AGENT_TEST_JUDGE_MODE";

/// The environment variable that overrides every judge's cache directory.
pub const JUDGE_CACHE_ENV: &str = "AGENT_TEST_JUDGE_CACHE";

/// The environment variable that sets a judge's timeout per request, in seconds (`20`,
/// `2.5`), unless the code sets one ([`Judge::timeout`]). A value that is not a number of
/// seconds greater than 0 is an error verdict for every judge check, never ignored.
pub const JUDGE_TIMEOUT_ENV: &str = "AGENT_TEST_JUDGE_TIMEOUT";

/// The environment variable that sets how often a judge retries (`0`, `2`, …), unless the
/// code sets it ([`Judge::retries`]). A value that is not a whole number is an error verdict
/// for every judge check, never ignored.
pub const JUDGE_RETRIES_ENV: &str = "AGENT_TEST_JUDGE_RETRIES";

/// Retries when neither the code nor the environment says.
const DEFAULT_RETRIES: u32 = 2;

/// The timeout per request when neither the code nor the environment says.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// How a judge uses its cache.
///
/// ```
/// use agent_test::judge::JudgeMode;
/// assert_eq!(JudgeMode::from_name("replay"), Some(JudgeMode::Replay));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum JudgeMode {
    /// Cached verdicts are reused; the others are asked for and cached (the default).
    #[default]
    Live,
    /// Only cached verdicts: a miss is an error verdict and nothing goes over the network (CI).
    Replay,
    /// Every verdict is asked for again and the cache overwritten.
    Refresh,
    /// No cache at all.
    Off,
}

impl JudgeMode {
    /// The mode named `live`, `replay`, `refresh` or `off`.
    ///
    /// See the type's example.
    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "live" => Some(JudgeMode::Live),
            "replay" => Some(JudgeMode::Replay),
            "refresh" => Some(JudgeMode::Refresh),
            "off" => Some(JudgeMode::Off),
            _ => None,
        }
    }
}

/// A judge: a model and how it is used (cache, retries, timeout, price). Set it on a suite with
/// `judge = ...;` in `agent_test!` (or `Suite::judge`); without one,
/// [`Judge::from_env`] is used when `AGENT_TEST_JUDGE_MODEL`, `AGENT_TEST_JUDGE_PROVIDER` or
/// `AGENT_TEST_JUDGE_BASE_URL` is set, and judge checks are errors otherwise.
///
/// See the [module documentation](self) for an example.
#[derive(Clone)]
pub struct Judge {
    model: Arc<dyn JudgeModel>,
    cache_dir: Option<PathBuf>,
    mode: JudgeMode,
    /// Set in code; else the environment's, else [`DEFAULT_RETRIES`].
    retries: Option<u32>,
    backoff: Duration,
    /// Set in code; else the environment's, else [`DEFAULT_TIMEOUT`].
    timeout: Option<Duration>,
    price: Option<(f64, f64)>,
    /// Only the cache is read, whatever the mode and the environment say.
    cache_only: bool,
    /// Failures to reach a model that has no endpoint to share them by (shared by clones).
    reachability: Arc<attempt::Reachability>,
}

/// The timeout and retries in effect for one grading.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub(crate) timeout: Duration,
    pub(crate) retries: u32,
}

impl Judge {
    /// A judge using any [`JudgeModel`].
    ///
    /// ```
    /// # use agent_test::agent::BoxFuture;
    /// # use agent_test::judge::{Completion, Judge, JudgeModel, JudgePrompt, ModelError};
    /// # struct Scripted;
    /// # impl JudgeModel for Scripted {
    /// #     fn id(&self) -> String { "scripted".into() }
    /// #     fn complete<'a>(&'a self, _: &'a JudgePrompt) -> BoxFuture<'a, Result<Completion, ModelError>> {
    /// #         Box::pin(async { Err(ModelError::fatal("offline")) })
    /// #     }
    /// # }
    /// let judge = Judge::new(Scripted);
    /// assert_eq!(judge.model_id(), "scripted");
    /// ```
    pub fn new(model: impl JudgeModel + 'static) -> Self {
        Judge {
            model: Arc::new(model),
            cache_dir: None,
            mode: JudgeMode::Live,
            retries: None,
            backoff: Duration::from_millis(500),
            timeout: None,
            price: None,
            cache_only: false,
            reachability: Arc::default(),
        }
    }

    /// The model's id (provider and model), as used in cache keys and reports.
    ///
    /// See [`Judge::new`].
    pub fn model_id(&self) -> String {
        self.model.id()
    }

    /// Where verdicts are cached (default `target/agent-test/judge-cache`, next to the JSON
    /// reports). `AGENT_TEST_JUDGE_CACHE` overrides it. Commit the directory to replay it in CI.
    ///
    /// See the [module documentation](self).
    pub fn cache_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.cache_dir = Some(dir.into());
        self
    }

    /// How the cache is used (default [`JudgeMode::Live`]); `AGENT_TEST_JUDGE_MODE` overrides it.
    ///
    /// See the [module documentation](self).
    pub fn mode(mut self, mode: JudgeMode) -> Self {
        self.mode = mode;
        self
    }

    /// How many times a failed or malformed answer is asked for again (default 2; when the
    /// code does not set it, `AGENT_TEST_JUDGE_RETRIES` does, and `agent-test`'s
    /// `--judge-retries`).
    ///
    /// ```
    /// # #[cfg(feature = "http")] {
    /// # use agent_test::judge::Judge;
    /// let judge = Judge::openai("gpt-4o-mini").retries(4).backoff(std::time::Duration::from_secs(1));
    /// # let _ = judge;
    /// # }
    /// ```
    pub fn retries(mut self, retries: u32) -> Self {
        self.retries = Some(retries);
        self
    }

    /// The first wait before a retry, doubled at each further one (default 500 ms); a
    /// provider's `Retry-After` wins when it is longer (up to 60 s).
    ///
    /// See [`Judge::retries`].
    pub fn backoff(mut self, backoff: Duration) -> Self {
        self.backoff = backoff;
        self
    }

    /// How long one request may take (default 60 s; when the code does not set it,
    /// `AGENT_TEST_JUDGE_TIMEOUT` does, and `agent-test`'s `--judge-timeout`); a timeout is
    /// retried. An endpoint that cannot be connected to, or that leaves two attempts in a row
    /// without an answer, is not asked again in this process and its remaining checks are
    /// errors at once ("judge unreachable: …").
    ///
    /// ```
    /// # #[cfg(feature = "http")] {
    /// # use agent_test::judge::Judge;
    /// let judge = Judge::openai("gpt-4o-mini").timeout(std::time::Duration::from_secs(20));
    /// # let _ = judge;
    /// # }
    /// ```
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Prices in US dollars per million input and output tokens, to report the judge's cost.
    ///
    /// ```
    /// # #[cfg(feature = "http")] {
    /// # use agent_test::judge::Judge;
    /// let judge = Judge::openai("gpt-4o-mini").price_per_million_tokens(0.15, 0.60);
    /// # let _ = judge;
    /// # }
    /// ```
    pub fn price_per_million_tokens(mut self, input: f64, output: f64) -> Self {
        self.price = Some((input, output));
        self
    }

    /// Makes the judge answer from its cache only, whatever its mode and
    /// `AGENT_TEST_JUDGE_MODE` say: a check it has not graded before is an error verdict
    /// ("no cached verdict for this check, and this judge reads only its cache"), and
    /// nothing goes over the network. What mutation runs use, so that a mutant never costs a
    /// request unless asked.
    ///
    /// ```
    /// # #[cfg(feature = "http")] {
    /// use agent_test::judge::Judge;
    /// let judge = Judge::openai("gpt-4o-mini").cache_only();
    /// # let _ = judge;
    /// # }
    /// ```
    pub fn cache_only(mut self) -> Self {
        self.cache_only = true;
        self
    }

    /// A judge that only answers from the cache, for the model `model_id` (as a report's
    /// `judge.model` names it): the verdicts a run of that model recorded, and nothing else
    /// (see [`Judge::cache_only`]).
    ///
    /// ```
    /// use agent_test::judge::Judge;
    /// let judge = Judge::cached("openai:gpt-4o-mini-2024-07-18");
    /// assert_eq!(judge.model_id(), "openai:gpt-4o-mini-2024-07-18");
    /// ```
    pub fn cached(model_id: impl Into<String>) -> Self {
        Judge::new(CachedOnly(model_id.into())).cache_only()
    }

    /// The mode in effect: the environment's, else the configured one.
    /// A value of `AGENT_TEST_JUDGE_MODE` that is not a mode is an error, not a silent fallback
    /// to live grading: a typo in CI must not start spending money.
    fn effective_mode(&self) -> Result<JudgeMode, String> {
        if self.cache_only {
            return Ok(JudgeMode::Replay);
        }
        match std::env::var(JUDGE_MODE_ENV) {
            Ok(m) if !m.trim().is_empty() => JudgeMode::from_name(&m).ok_or_else(|| {
                format!("{JUDGE_MODE_ENV}=`{m}` is not one of live, replay, refresh, off")
            }),
            _ => Ok(self.mode),
        }
    }

    /// The timeout and retries in effect: the code's, else the environment's, else the
    /// defaults. An environment value that cannot be read is an error even when the code
    /// sets its own: a typo must not go unnoticed.
    pub(crate) fn limits(&self) -> Result<Limits, String> {
        let env_timeout = env_value(JUDGE_TIMEOUT_ENV, |v| {
            v.trim()
                .trim_end_matches('s')
                .parse::<f64>()
                .ok()
                .filter(|s| *s > 0.0)
                .and_then(|s| Duration::try_from_secs_f64(s).ok())
                .ok_or("is not a number of seconds greater than 0")
        })?;
        let env_retries = env_value(JUDGE_RETRIES_ENV, |v| {
            v.trim()
                .parse::<u32>()
                .map_err(|_| "is not a whole number of retries (0 or more)")
        })?;
        Ok(Limits {
            timeout: self.timeout.or(env_timeout).unwrap_or(DEFAULT_TIMEOUT),
            retries: self.retries.or(env_retries).unwrap_or(DEFAULT_RETRIES),
        })
    }

    /// The cache directory in effect.
    fn effective_cache_dir(&self) -> PathBuf {
        if let Some(dir) = std::env::var_os(JUDGE_CACHE_ENV).filter(|d| !d.is_empty()) {
            return PathBuf::from(dir);
        }
        self.cache_dir
            .clone()
            .unwrap_or_else(|| agent_test_core::util::dirs::report_root(None).join("judge-cache"))
    }
}

/// The environment variable `name` read by `parse`; unset or blank is `None`, a value that
/// does not parse an error naming the variable and the value.
fn env_value<T>(
    name: &str,
    parse: impl FnOnce(&str) -> Result<T, &'static str>,
) -> Result<Option<T>, String> {
    match std::env::var(name) {
        Ok(v) if v.trim().is_empty() => Ok(None),
        Ok(v) => parse(&v)
            .map(Some)
            .map_err(|why| format!("{name}=`{v}` {why}")),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(format!("{name} is not valid text")),
    }
}

/// The model of [`Judge::cached`]: it has an id for the cache keys and is never asked.
struct CachedOnly(String);

impl JudgeModel for CachedOnly {
    fn id(&self) -> String {
        self.0.clone()
    }

    fn complete<'a>(
        &'a self,
        _: &'a JudgePrompt,
    ) -> crate::agent::BoxFuture<'a, Result<Completion, ModelError>> {
        Box::pin(async { Err(ModelError::fatal("this judge answers from its cache only")) })
    }
}

impl fmt::Debug for Judge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Judge")
            .field("model", &self.model.id())
            .field("cache_dir", &self.cache_dir)
            .field("mode", &self.mode)
            .field("retries", &self.retries)
            .field("timeout", &self.timeout)
            .field("cache_only", &self.cache_only)
            .finish()
    }
}
