//! Judges on the providers' endpoints, built in code or from the environment.

use super::{
    AnthropicJudge, DEFAULT_ANTHROPIC_JUDGE_MODEL, DEFAULT_OPENAI_JUDGE_MODEL, Judge, OpenAiJudge,
};
use crate::agent::wire::env;

impl Judge {
    /// A judge on an OpenAI-compatible endpoint (see [`OpenAiJudge`]); set the endpoint with
    /// [`Judge::base_url`].
    ///
    /// See the [module documentation](super).
    pub fn openai(model: impl Into<String>) -> Self {
        Judge::new(OpenAiJudge::new(model))
    }

    /// A judge on Anthropic's Messages API (see [`AnthropicJudge`]).
    ///
    /// ```
    /// # use agent_test::judge::Judge;
    /// assert_eq!(Judge::anthropic("claude-3-5-haiku-20241022").model_id(), "anthropic:claude-3-5-haiku-20241022");
    /// ```
    pub fn anthropic(model: impl Into<String>) -> Self {
        Judge::new(AnthropicJudge::new(model))
    }

    /// A judge configured by the environment: `AGENT_TEST_JUDGE_PROVIDER` (`openai` or
    /// `anthropic`; by default `anthropic` for `claude-*` models, else `openai`),
    /// `AGENT_TEST_JUDGE_MODEL` (default a pinned snapshot of the provider's small model),
    /// `AGENT_TEST_JUDGE_BASE_URL` and `AGENT_TEST_JUDGE_API_KEY` (else the provider's usual
    /// variables).
    ///
    /// ```
    /// # use agent_test::judge::Judge;
    /// let judge = Judge::from_env();
    /// # let _ = judge;
    /// ```
    pub fn from_env() -> Self {
        let model = env(&["AGENT_TEST_JUDGE_MODEL"]);
        let provider = env(&["AGENT_TEST_JUDGE_PROVIDER"]).unwrap_or_else(|| match &model {
            Some(m) if m.starts_with("claude") => "anthropic".into(),
            _ => "openai".into(),
        });
        if provider.eq_ignore_ascii_case("anthropic") {
            Judge::anthropic(model.unwrap_or_else(|| DEFAULT_ANTHROPIC_JUDGE_MODEL.into()))
        } else {
            Judge::openai(model.unwrap_or_else(|| DEFAULT_OPENAI_JUDGE_MODEL.into()))
        }
    }

    /// [`Judge::from_env`] when the environment names a judge (`AGENT_TEST_JUDGE_MODEL`,
    /// `AGENT_TEST_JUDGE_PROVIDER` or `AGENT_TEST_JUDGE_BASE_URL` is set), else nothing: an
    /// API key alone never turns judging on. What runs without `judge = ...;` use.
    ///
    /// ```
    /// # use agent_test::judge::Judge;
    /// if std::env::var_os("AGENT_TEST_JUDGE_MODEL").is_none()
    ///     && std::env::var_os("AGENT_TEST_JUDGE_PROVIDER").is_none()
    ///     && std::env::var_os("AGENT_TEST_JUDGE_BASE_URL").is_none()
    /// {
    ///     assert!(Judge::from_env_if_configured().is_none());
    /// }
    /// ```
    pub fn from_env_if_configured() -> Option<Self> {
        env(&[
            "AGENT_TEST_JUDGE_MODEL",
            "AGENT_TEST_JUDGE_PROVIDER",
            "AGENT_TEST_JUDGE_BASE_URL",
        ])
        .map(|_| Judge::from_env())
    }

    /// Points an OpenAI or Anthropic judge at another endpoint: rebuilds its model with that
    /// base URL and the environment's key. To set a key, temperature or structured-output mode
    /// in code, configure an [`OpenAiJudge`] or [`AnthropicJudge`] and wrap it with
    /// [`Judge::new`].
    ///
    /// See the [module documentation](super).
    pub fn base_url(self, url: impl Into<String>) -> Self {
        match self.model.at_base_url(&url.into()) {
            Some(model) => Judge { model, ..self },
            None => self,
        }
    }
}
